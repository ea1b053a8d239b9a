/// The open containers of a value, innermost last, one bit each (set for an
/// object, clear for an array). The first 64 levels need no allocation; the
/// rest cost one bit each on the heap, so a line nested a million levels deep
/// costs 16 KiB and no stack.
#[derive(Debug, Default)]
pub(super) struct Nesting {
    depth: usize,
    first: u64,
    deeper: Vec<u64>,
}

impl Nesting {
    pub fn clear(&mut self) {
        self.depth = 0;
        self.deeper.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.depth == 0
    }

    pub fn push(&mut self, object: bool) {
        let level = self.depth;
        self.depth += 1;
        let (word, bit) = if level < 64 {
            (&mut self.first, level)
        } else {
            let index = (level - 64) / 64;
            if index == self.deeper.len() {
                self.deeper.push(0);
            }
            (&mut self.deeper[index], (level - 64) % 64)
        };
        if object {
            *word |= 1 << bit;
        } else {
            *word &= !(1 << bit);
        }
    }

    /// Leaves the innermost container. The scanner pops only what it pushed.
    pub fn pop(&mut self) {
        self.depth -= 1;
    }

    /// Whether the innermost open container is an object.
    pub fn in_object(&self) -> bool {
        let level = self.depth - 1;
        let (word, bit) =
            if level < 64 { (self.first, level) } else { (self.deeper[(level - 64) / 64], (level - 64) % 64) };
        word & (1 << bit) != 0
    }
}
