use crate::fallible::{self, OutOfMemory};

/// Words of levels kept inline: 1,024 levels need no allocation.
const INLINE: usize = 16;

/// The open containers of a value, innermost last, one bit each (set for an
/// object, clear for an array). The word of the innermost 64 levels is all
/// a scan touches level by level; the words of outer levels are set aside,
/// inline for the first thousand levels and on the heap past them, so a
/// line nested a million levels deep costs 16 KiB and no stack.
#[derive(Debug, Default)]
pub(super) struct Nesting {
    depth: usize,
    /// The deepest level reached since it was made or cleared.
    deepest: usize,
    /// Levels `64 * k ..` for the largest `k` with a level open.
    word: u64,
    inline: [u64; INLINE],
    outer: Vec<u64>,
}

impl Nesting {
    pub fn clear(&mut self) {
        self.depth = 0;
        self.deepest = 0;
        self.outer.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.depth == 0
    }

    /// The deepest level reached since it was made or cleared.
    pub fn deepest(&self) -> usize {
        self.deepest
    }

    /// Enters a container; fails only past 1,024 levels, when the heap
    /// cannot grow.
    #[inline]
    pub fn push(&mut self, object: bool) -> Result<(), OutOfMemory> {
        let bit = self.depth % 64;
        if bit == 0 && self.depth != 0 {
            self.set_aside()?;
        }
        self.word = (self.word & !(1 << bit)) | (u64::from(object) << bit);
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
        Ok(())
    }

    /// Leaves the innermost container. The scanners pop only what they
    /// pushed.
    #[inline]
    pub fn pop(&mut self) {
        self.depth -= 1;
        if self.depth.is_multiple_of(64) && self.depth != 0 {
            self.take_back();
        }
    }

    /// Whether the innermost open container is an object.
    #[inline]
    pub fn in_object(&self) -> bool {
        self.word >> (self.depth.wrapping_sub(1) % 64) & 1 == 1
    }

    /// Sets the full innermost word aside; `depth / 64 - 1` words are aside.
    #[cold]
    fn set_aside(&mut self) -> Result<(), OutOfMemory> {
        match self.inline.get_mut(self.depth / 64 - 1) {
            Some(slot) => *slot = self.word,
            None => fallible::push(&mut self.outer, self.word)?,
        }
        Ok(())
    }

    #[cold]
    fn take_back(&mut self) {
        let at = self.depth / 64 - 1;
        self.word = match self.inline.get(at) {
            Some(&word) => word,
            None => self.outer.pop().unwrap_or_default(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::Nesting;

    #[test]
    fn each_level_keeps_its_kind_inline_and_past_it() {
        let mut nesting = Nesting::default();
        let kinds: Vec<bool> = (0..5000).map(|i| i % 3 == 0 || i % 7 == 0).collect();
        for &object in &kinds {
            nesting.push(object).unwrap();
        }
        assert_eq!(nesting.outer.len(), 5000 / 64 - super::INLINE);
        for &object in kinds.iter().rev() {
            assert_eq!(nesting.in_object(), object);
            nesting.pop();
        }
        assert!(nesting.is_empty());
    }

    #[test]
    fn a_thousand_levels_need_no_allocation() {
        let mut nesting = Nesting::default();
        for _ in 0..super::INLINE * 64 {
            nesting.push(true).unwrap();
        }
        assert_eq!(nesting.outer.capacity(), 0);
    }
}
