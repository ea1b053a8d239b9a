/// The open containers of a value, innermost last, one bit each (set for an
/// object, clear for an array). The word of the innermost 64 levels is all
/// a scan touches level by level; the words of outer levels are set aside
/// on the heap, so a line nested a million levels deep costs 16 KiB and no
/// stack.
#[derive(Debug, Default)]
pub(super) struct Nesting {
    depth: usize,
    /// Levels `64 * k ..` for the largest `k` with a level open.
    word: u64,
    outer: Vec<u64>,
}

impl Nesting {
    pub fn clear(&mut self) {
        self.depth = 0;
        self.outer.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.depth == 0
    }

    #[inline]
    pub fn push(&mut self, object: bool) {
        let bit = self.depth % 64;
        if bit == 0 && self.depth != 0 {
            set_aside(&mut self.outer, self.word);
        }
        self.word = (self.word & !(1 << bit)) | (u64::from(object) << bit);
        self.depth += 1;
    }

    /// Leaves the innermost container. The scanners pop only what they
    /// pushed.
    #[inline]
    pub fn pop(&mut self) {
        self.depth -= 1;
        if self.depth.is_multiple_of(64) && self.depth != 0 {
            self.word = take_back(&mut self.outer);
        }
    }

    /// Whether the innermost open container is an object.
    #[inline]
    pub fn in_object(&self) -> bool {
        self.word >> (self.depth.wrapping_sub(1) % 64) & 1 == 1
    }
}

#[cold]
fn set_aside(outer: &mut Vec<u64>, word: u64) {
    outer.push(word);
}

#[cold]
fn take_back(outer: &mut Vec<u64>) -> u64 {
    outer.pop().unwrap_or_default()
}
