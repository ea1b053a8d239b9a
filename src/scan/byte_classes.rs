//! The byte classes of 64-byte blocks, for the structural scanner: one bit
//! per byte for each class, computed with AVX-512 or AVX2 (detected at run
//! time), or byte by byte as the definition the others are tested against.
//! On CPUs without those vectors the stepwise scanner takes every line.
//! The `unsafe` code is unaligned loads from a 64-byte array, and calls
//! that need the detected features.
#![allow(unsafe_code)]

#[cfg(any(test, feature = "fuzzing"))]
use super::utf8::Deferred;
use super::utf8::Utf8;

/// The bytes that end a run of string text, bit `i` for byte `i` of a block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Stops {
    pub quote: u64,
    pub backslash: u64,
    /// Bytes below 0x20.
    pub control: u64,
}

impl Stops {
    /// The classes of a block read `by` bytes before its start, moved to
    /// the start: the bytes past the line's end are spaces.
    #[inline(always)]
    pub(super) fn shifted(self, by: usize) -> Stops {
        Stops { quote: self.quote >> by, backslash: self.backslash >> by, control: self.control >> by }
    }
}

/// The bytes that lay out values outside strings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Layout {
    /// Space, tab, LF and CR.
    pub whitespace: u64,
    /// `{`, `}`, `[`, `]`, `:` and `,`.
    pub operator: u64,
}

impl Layout {
    /// As `Stops::shifted`.
    #[inline(always)]
    pub(super) fn shifted(self, by: usize) -> Layout {
        let spaces = u64::MAX.checked_shl((64 - by) as u32).unwrap_or(0);
        Layout { whitespace: self.whitespace >> by | spaces, operator: self.operator >> by }
    }
}

/// The bytes that make a whole escape after a backslash.
const SIMPLE_ESCAPES: [u8; 8] = *b"\"\\/bfnrt";

/// A way to compute the classes of a block. A value of a type that uses
/// special instructions exists only where the CPU has them.
pub(super) trait ByteClasses: Copy {
    /// How the blocks' UTF-8 is checked along with their classes.
    type Utf8: Utf8;
    fn stops(self, block: &[u8; 64]) -> Stops;
    fn layout(self, block: &[u8; 64]) -> Layout;
    /// Bit `i` of the result is the XOR of bits `0..=i` of `bits`.
    fn prefix_xor(self, bits: u64) -> u64;
    /// The bytes that make a whole escape after a backslash: `"\/bfnrt`.
    fn simple_escapes(self, block: &[u8; 64]) -> u64;
    /// A new UTF-8 check, for one line.
    fn utf8(self) -> Self::Utf8;
}

/// Byte by byte: the definition the vector code is tested against.
#[cfg(any(test, feature = "fuzzing"))]
#[derive(Clone, Copy)]
pub(super) struct Bytewise;

#[cfg(any(test, feature = "fuzzing"))]
impl ByteClasses for Bytewise {
    type Utf8 = Deferred;

    fn utf8(self) -> Deferred {
        Deferred::default()
    }

    fn stops(self, block: &[u8; 64]) -> Stops {
        let bits = |f: fn(u8) -> bool| block.iter().rev().fold(0u64, |acc, &b| acc << 1 | u64::from(f(b)));
        Stops { quote: bits(|b| b == b'"'), backslash: bits(|b| b == b'\\'), control: bits(|b| b < 0x20) }
    }

    fn layout(self, block: &[u8; 64]) -> Layout {
        let bits = |f: fn(u8) -> bool| block.iter().rev().fold(0u64, |acc, &b| acc << 1 | u64::from(f(b)));
        Layout {
            whitespace: bits(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')),
            operator: bits(|b| matches!(b, b'{' | b'}' | b'[' | b']' | b':' | b',')),
        }
    }

    fn simple_escapes(self, block: &[u8; 64]) -> u64 {
        block.iter().rev().fold(0u64, |acc, b| acc << 1 | u64::from(SIMPLE_ESCAPES.contains(b)))
    }

    fn prefix_xor(self, bits: u64) -> u64 {
        (0..64)
            .fold((0, false), |(acc, parity), i| {
                let parity = parity ^ (bits >> i & 1 == 1);
                (acc | u64::from(parity) << i, parity)
            })
            .0
    }
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86::{Avx2, Avx512};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::super::utf8::Vectors;
    use super::{ByteClasses, Layout, Stops};

    /// AVX2 for the classes and UTF-8, PCLMULQDQ for the prefix XOR: a
    /// value exists only on a CPU that has both.
    #[derive(Clone, Copy)]
    pub(in crate::scan) struct Avx2(());

    /// AVX-512 (F and BW) for the classes, AVX2 for UTF-8, PCLMULQDQ for
    /// the prefix XOR: a value exists only on a CPU that has them.
    #[derive(Clone, Copy)]
    pub(in crate::scan) struct Avx512(());

    impl Avx2 {
        #[inline]
        pub(in crate::scan) fn detect() -> Option<Avx2> {
            let present = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("pclmulqdq");
            present.then_some(Avx2(()))
        }
    }

    impl Avx512 {
        #[inline]
        pub(in crate::scan) fn detect() -> Option<Avx512> {
            let present = is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512bw")
                && is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("pclmulqdq");
            present.then_some(Avx512(()))
        }
    }

    impl ByteClasses for Avx2 {
        type Utf8 = Vectors;

        #[inline(always)]
        fn utf8(self) -> Vectors {
            // SAFETY: the CPU has AVX2, since `self` exists.
            unsafe { Vectors::new() }
        }

        #[inline(always)]
        fn stops(self, block: &[u8; 64]) -> Stops {
            // SAFETY: the CPU has AVX2, since `self` exists.
            unsafe { avx2::stops(block) }
        }

        #[inline(always)]
        fn layout(self, block: &[u8; 64]) -> Layout {
            // SAFETY: the CPU has AVX2, since `self` exists.
            unsafe { avx2::layout(block) }
        }

        #[inline(always)]
        fn prefix_xor(self, bits: u64) -> u64 {
            // SAFETY: the CPU has PCLMULQDQ, since `self` exists.
            unsafe { prefix_xor(bits) }
        }

        #[inline(always)]
        fn simple_escapes(self, block: &[u8; 64]) -> u64 {
            // SAFETY: the CPU has AVX2, since `self` exists.
            unsafe { avx2::simple_escapes(block) }
        }
    }

    impl ByteClasses for Avx512 {
        type Utf8 = Vectors;

        #[inline(always)]
        fn utf8(self) -> Vectors {
            // SAFETY: the CPU has AVX2 (detected with AVX-512), since `self`
            // exists.
            unsafe { Vectors::new() }
        }

        #[inline(always)]
        fn stops(self, block: &[u8; 64]) -> Stops {
            // SAFETY: the CPU has AVX-512 F and BW, since `self` exists.
            unsafe { avx512::stops(block) }
        }

        #[inline(always)]
        fn layout(self, block: &[u8; 64]) -> Layout {
            // SAFETY: the CPU has AVX-512 F and BW, since `self` exists.
            unsafe { avx512::layout(block) }
        }

        #[inline(always)]
        fn prefix_xor(self, bits: u64) -> u64 {
            // SAFETY: the CPU has PCLMULQDQ, since `self` exists.
            unsafe { prefix_xor(bits) }
        }

        #[inline(always)]
        fn simple_escapes(self, block: &[u8; 64]) -> u64 {
            // SAFETY: the CPU has AVX-512 F and BW, since `self` exists.
            unsafe { avx512::simple_escapes(block) }
        }
    }

    #[target_feature(enable = "pclmulqdq")]
    #[inline]
    fn prefix_xor(bits: u64) -> u64 {
        // A carry-less multiplication by all ones XORs every lower bit in.
        let product = _mm_clmulepi64_si128(_mm_set_epi64x(0, bits as i64), _mm_set1_epi8(-1), 0);
        _mm_cvtsi128_si64(product) as u64
    }

    // Whitespace and operators are found by table lookup on the low nibble
    // (the method of simdjson): a byte is whitespace when the whitespace
    // table holds it at its low nibble, and an operator when the operator
    // table holds it with bit 0x20 set (which folds `[` into `{` and `]`
    // into `}`). The filler 0xFF matches no byte: a byte with its high bit
    // set looks up 0, and every other byte is below 0x80. The fold also
    // admits 0x0c and 0x1a (as `,` and `:`), which are control bytes and are
    // taken out again.
    const X: u8 = 0xff;
    #[rustfmt::skip]
    const WHITESPACE: [u8; 16] = [0x20, X, X, X, X, X, X, X, X, 0x09, 0x0a, X, X, 0x0d, X, X];
    #[rustfmt::skip]
    const OPERATORS: [u8; 16] = [X, X, X, X, X, X, X, X, X, X, 0x3a, 0x7b, 0x2c, 0x7d, X, X];

    mod avx2 {
        use std::arch::x86_64::*;

        use super::super::super::utf8::{bits, halves, table};
        use super::super::{Layout, SIMPLE_ESCAPES, Stops};
        use super::{OPERATORS, WHITESPACE};

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn simple_escapes(block: &[u8; 64]) -> u64 {
            let (lo, hi) = halves(block);
            let (mut in_lo, mut in_hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for byte in SIMPLE_ESCAPES {
                let byte = _mm256_set1_epi8(byte as i8);
                in_lo = _mm256_or_si256(in_lo, _mm256_cmpeq_epi8(lo, byte));
                in_hi = _mm256_or_si256(in_hi, _mm256_cmpeq_epi8(hi, byte));
            }
            bits(in_lo, in_hi)
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        fn controls(lo: __m256i, hi: __m256i) -> u64 {
            // Unsigned v <= 0x1f: min(v, 0x1f) == v.
            let last = _mm256_set1_epi8(0x1f);
            bits(_mm256_cmpeq_epi8(_mm256_min_epu8(lo, last), lo), _mm256_cmpeq_epi8(_mm256_min_epu8(hi, last), hi))
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn stops(block: &[u8; 64]) -> Stops {
            let (lo, hi) = halves(block);
            let quote = _mm256_set1_epi8(b'"' as i8);
            let backslash = _mm256_set1_epi8(b'\\' as i8);
            Stops {
                quote: bits(_mm256_cmpeq_epi8(lo, quote), _mm256_cmpeq_epi8(hi, quote)),
                backslash: bits(_mm256_cmpeq_epi8(lo, backslash), _mm256_cmpeq_epi8(hi, backslash)),
                control: controls(lo, hi),
            }
        }

        #[target_feature(enable = "avx2")]
        #[inline]
        pub(super) fn layout(block: &[u8; 64]) -> Layout {
            let (lo, hi) = halves(block);
            let (whitespace, operators) = (table(WHITESPACE), table(OPERATORS));
            let fold = _mm256_set1_epi8(0x20);
            Layout {
                whitespace: bits(
                    _mm256_cmpeq_epi8(_mm256_shuffle_epi8(whitespace, lo), lo),
                    _mm256_cmpeq_epi8(_mm256_shuffle_epi8(whitespace, hi), hi),
                ),
                operator: bits(
                    _mm256_cmpeq_epi8(_mm256_shuffle_epi8(operators, lo), _mm256_or_si256(lo, fold)),
                    _mm256_cmpeq_epi8(_mm256_shuffle_epi8(operators, hi), _mm256_or_si256(hi, fold)),
                ) & !controls(lo, hi),
            }
        }
    }

    mod avx512 {
        use std::arch::x86_64::*;

        use super::super::{Layout, SIMPLE_ESCAPES, Stops};
        use super::{OPERATORS, WHITESPACE};

        #[target_feature(enable = "avx512f,avx512bw")]
        #[inline]
        pub(super) fn simple_escapes(block: &[u8; 64]) -> u64 {
            let v = load(block);
            SIMPLE_ESCAPES.iter().fold(0, |any, &byte| any | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(byte as i8)))
        }

        #[target_feature(enable = "avx512f")]
        #[inline]
        fn load(block: &[u8; 64]) -> __m512i {
            // SAFETY: a 64-byte unaligned load from a 64-byte array.
            unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }
        }

        #[target_feature(enable = "avx512f")]
        #[inline]
        fn table(entries: [u8; 16]) -> __m512i {
            // SAFETY: a 16-byte load from a 16-byte array.
            _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(entries.as_ptr().cast()) })
        }

        #[target_feature(enable = "avx512f,avx512bw")]
        #[inline]
        pub(super) fn stops(block: &[u8; 64]) -> Stops {
            let v = load(block);
            Stops {
                quote: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8)),
                backslash: _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8)),
                control: _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f)),
            }
        }

        #[target_feature(enable = "avx512f,avx512bw")]
        #[inline]
        pub(super) fn layout(block: &[u8; 64]) -> Layout {
            let v = load(block);
            let folded = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
            let control = _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f));
            Layout {
                whitespace: _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(table(WHITESPACE), v), v),
                operator: _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(table(OPERATORS), v), folded) & !control,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks() -> Vec<[u8; 64]> {
        let mut blocks = Vec::new();
        // Every byte value at every position, among filler of each class.
        for filler in [b'a', b' ', b'"', b'\\', 0x00, 0x80] {
            for value in 0..=255u8 {
                let mut block = [filler; 64];
                block[usize::from(value) % 64] = value;
                block[63 - usize::from(value) % 64] = value;
                blocks.push(block);
            }
        }
        // Pseudo-random blocks.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut block = [0u8; 64];
            for byte in &mut block {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                *byte = (state >> 24) as u8;
            }
            blocks.push(block);
        }
        blocks
    }

    fn agrees_with_the_byte_by_byte_definition(classes: impl ByteClasses) {
        for block in blocks() {
            assert_eq!(classes.stops(&block), Bytewise.stops(&block), "{block:?}");
            assert_eq!(classes.layout(&block), Bytewise.layout(&block), "{block:?}");
            assert_eq!(classes.simple_escapes(&block), Bytewise.simple_escapes(&block), "{block:?}");
            let word = u64::from_le_bytes(block[..8].try_into().unwrap());
            assert_eq!(classes.prefix_xor(word), Bytewise.prefix_xor(word));
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_agrees_with_the_byte_by_byte_definition() {
        match Avx2::detect() {
            Some(avx2) => agrees_with_the_byte_by_byte_definition(avx2),
            None => println!("skipped: this CPU has no AVX2 and PCLMULQDQ"),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_agrees_with_the_byte_by_byte_definition() {
        match Avx512::detect() {
            Some(avx512) => agrees_with_the_byte_by_byte_definition(avx512),
            None => println!("skipped: this CPU has no AVX-512 F and BW and PCLMULQDQ"),
        }
    }

    #[test]
    fn the_prefix_xor_marks_the_bytes_after_an_odd_count() {
        assert_eq!(Bytewise.prefix_xor(0b1001), 0b0111);
        assert_eq!(Bytewise.prefix_xor(1 << 63), 1 << 63);
        assert_eq!(Bytewise.prefix_xor(1), u64::MAX);
    }
}
