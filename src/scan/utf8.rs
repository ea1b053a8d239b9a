//! The line as text (SPEC §1: invalid UTF-8 anywhere is a parse error).
//! The structural scanner checks UTF-8 block by block in its one pass over
//! the bytes (`Utf8`), with vectors (the method of simdjson and simdutf8).
//! A line the structural scanner does not take is checked whole (`text`),
//! before the stepwise scanner names its fault. The `unsafe` code is one conversion resting on
//! an ASCII check, and intrinsics over loads from arrays.
#![allow(unsafe_code)]

use super::ParseError;

/// The UTF-8 check of one line's blocks, in order, along the structural
/// scanner's pass.
pub(super) trait Utf8 {
    /// The 64 bytes of the line at `base` (or, for a line shorter than a
    /// block, the line padded with spaces, at 0).
    fn block(&mut self, block: &[u8; 64], base: usize);
    /// The line's last bytes, from `base` to its end: `block` is the line's
    /// last 64 bytes, of which the first `past_end` were checked already.
    fn tail(&mut self, line: &[u8], base: usize, block: &[u8; 64], past_end: usize);
    /// After the last block: whether `line` is UTF-8.
    fn valid(&self, line: &[u8]) -> bool;
}

/// The check for the byte-by-byte classes (the tests' definition): the
/// blocks only look for the first byte above ASCII, and the line from that
/// block on gets simdutf8's check at the end.
#[cfg(any(test, feature = "fuzzing"))]
#[derive(Debug, Default)]
pub(super) struct Deferred {
    /// The first block that is not all ASCII: a character starts there,
    /// since every byte before it is ASCII.
    from: Option<usize>,
}

#[cfg(any(test, feature = "fuzzing"))]
impl Utf8 for Deferred {
    #[inline(always)]
    fn block(&mut self, block: &[u8; 64], base: usize) {
        if self.from.is_none() && !block.is_ascii() {
            self.from = Some(base);
        }
    }

    #[inline(always)]
    fn tail(&mut self, _: &[u8], base: usize, block: &[u8; 64], past_end: usize) {
        if self.from.is_none() && !block[past_end..].is_ascii() {
            self.from = Some(base);
        }
    }

    #[inline(always)]
    fn valid(&self, line: &[u8]) -> bool {
        self.from.is_none_or(|from| line.get(from..).is_some_and(|rest| simdutf8::basic::from_utf8(rest).is_ok()))
    }
}

/// Whether the line's last bytes from `base` on are UTF-8, when the blocks
/// before it were, but for a character they left open: checked from the
/// start of that character (a vector check of the overlapping last block
/// would see bytes it has seen already). Only lines whose last bytes are
/// not all ASCII come here.
#[cfg(target_arch = "x86_64")]
#[cold]
fn tail_is_utf8(line: &[u8], base: usize) -> bool {
    let is_continuation = |byte: u8| byte & 0xc0 == 0x80;
    let open = (base.saturating_sub(3)..base).rev().find(|&at| !is_continuation(line[at]));
    let from = match open {
        Some(at) if line[at] >= 0xc0 => at,
        _ => base,
    };
    line.get(from..).is_some_and(|rest| std::str::from_utf8(rest).is_ok())
}

#[cfg(target_arch = "x86_64")]
pub(super) use x86::{Vectors, bits, halves, table};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{Utf8, tail_is_utf8};

    /// The vector check (the lookup method of simdjson and simdutf8, with
    /// AVX2), carried from block to block: a value exists only where the
    /// CPU has AVX2.
    #[derive(Clone, Copy)]
    pub(in crate::scan) struct Vectors {
        /// The last 32 bytes of the last block that was not all ASCII.
        prev: __m256i,
        /// Non-zero once a fault was seen in a block that was not all
        /// ASCII.
        error: __m256i,
        /// That block ends inside a character.
        open: bool,
        /// A fault was seen otherwise: a character left open before ASCII.
        fault: bool,
    }

    impl Vectors {
        /// # Safety
        /// The CPU must have AVX2.
        #[inline(always)]
        pub(in crate::scan) unsafe fn new() -> Vectors {
            // SAFETY: all zeros is a valid `__m256i`, and means no bytes
            // before the line and no fault.
            let zero = unsafe { std::mem::zeroed() };
            Vectors { prev: zero, error: zero, open: false, fault: false }
        }
    }

    impl Utf8 for Vectors {
        #[inline(always)]
        fn block(&mut self, block: &[u8; 64], _: usize) {
            // SAFETY: the CPU has AVX2: a `Vectors` is made only by `new`,
            // whose caller promises it.
            unsafe { check_block(self, block) }
        }

        #[inline(always)]
        fn tail(&mut self, line: &[u8], base: usize, block: &[u8; 64], past_end: usize) {
            // SAFETY: the CPU has AVX2: a `Vectors` is made only by `new`,
            // whose caller promises it.
            unsafe { check_tail(self, line, base, block, past_end) }
        }

        #[inline(always)]
        fn valid(&self, _: &[u8]) -> bool {
            // SAFETY: the CPU has AVX2: a `Vectors` is made only by `new`,
            // whose caller promises it.
            unsafe { no_fault(self) }
        }
    }

    // `halves`, `bits` and `table` serve the byte classes' AVX2 code too.

    /// The two halves of a block.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(in crate::scan) fn halves(block: &[u8; 64]) -> (__m256i, __m256i) {
        // SAFETY: both loads read 32 bytes inside the 64-byte array; they
        // are unaligned loads.
        unsafe { (_mm256_loadu_si256(block.as_ptr().cast()), _mm256_loadu_si256(block.as_ptr().add(32).cast())) }
    }

    /// One bit per byte of a block whose halves are `lo` and `hi`: its high
    /// bit (set where a comparison was true).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(in crate::scan) fn bits(lo: __m256i, hi: __m256i) -> u64 {
        u64::from(_mm256_movemask_epi8(lo) as u32) | u64::from(_mm256_movemask_epi8(hi) as u32) << 32
    }

    /// A 16-entry lookup table in both lanes, for `_mm256_shuffle_epi8`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(in crate::scan) fn table(entries: [u8; 16]) -> __m256i {
        // SAFETY: a 16-byte load from a 16-byte array.
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(entries.as_ptr().cast()) })
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn check_block(state: &mut Vectors, block: &[u8; 64]) {
        let (lo, hi) = halves(block);
        if _mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0 {
            // All ASCII: a character left open before it is a fault.
            state.fault |= state.open;
            return;
        }
        let faults = _mm256_or_si256(check(lo, state.prev), check(hi, lo));
        state.error = _mm256_or_si256(state.error, faults);
        let open = incomplete(hi);
        state.open = _mm256_testz_si256(open, open) == 0;
        state.prev = hi;
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn check_tail(state: &mut Vectors, line: &[u8], base: usize, block: &[u8; 64], past_end: usize) {
        let (lo, hi) = halves(block);
        state.fault |= match bits(lo, hi) >> past_end {
            0 => state.open,
            _ => !tail_is_utf8(line, base),
        };
        state.open = false;
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    fn no_fault(state: &Vectors) -> bool {
        !state.fault && !state.open && _mm256_testz_si256(state.error, state.error) == 1
    }

    // Each byte's fault bits, looked up from the high and low nibbles of the
    // byte before it and the high nibble of the byte itself: a pair is a
    // fault where all three lookups share a bit.
    const TOO_SHORT: u8 = 1 << 0; // 11______ 0_______, 11______ 11______
    const TOO_LONG: u8 = 1 << 1; // 0_______ 10______
    const OVERLONG_3: u8 = 1 << 2; // 11100000 100_____
    const TOO_LARGE: u8 = 1 << 3; // 11110100 1001____ and above
    const SURROGATE: u8 = 1 << 4; // 11101101 101_____
    const OVERLONG_2: u8 = 1 << 5; // 1100000_ 10______
    const TOO_LARGE_1000: u8 = 1 << 6; // 11110101 1000____ and above
    const OVERLONG_4: u8 = 1 << 6; // 11110000 1000____
    const TWO_CONTS: u8 = 1 << 7; // 10______ 10______ (unless a 3- or 4-byte character)
    const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

    #[rustfmt::skip]
    const BYTE_1_HIGH: [u8; 16] = [
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        TOO_SHORT | OVERLONG_2,
        TOO_SHORT,
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
    ];
    #[rustfmt::skip]
    const BYTE_1_LOW: [u8; 16] = [
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
        CARRY | OVERLONG_2,
        CARRY,
        CARRY,
        CARRY | TOO_LARGE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
    ];
    #[rustfmt::skip]
    const BYTE_2_HIGH: [u8; 16] = [
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
    ];

    /// `input`'s bytes moved up by `N`, with the last `N` of `prev` below.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn before<const N: i32>(input: __m256i, prev: __m256i) -> __m256i {
        let joined = _mm256_permute2x128_si256::<0x21>(prev, input);
        match N {
            1 => _mm256_alignr_epi8::<15>(input, joined),
            2 => _mm256_alignr_epi8::<14>(input, joined),
            _ => _mm256_alignr_epi8::<13>(input, joined),
        }
    }

    /// Non-zero bytes where `input`, after `prev`, is not UTF-8 (a
    /// character left open at its end aside).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn check(input: __m256i, prev: __m256i) -> __m256i {
        let nibbles = _mm256_set1_epi8(0x0f);
        let high = |v: __m256i| _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibbles);
        let prev1 = before::<1>(input, prev);
        let special = _mm256_and_si256(
            _mm256_and_si256(
                _mm256_shuffle_epi8(table(BYTE_1_HIGH), high(prev1)),
                _mm256_shuffle_epi8(table(BYTE_1_LOW), _mm256_and_si256(prev1, nibbles)),
            ),
            _mm256_shuffle_epi8(table(BYTE_2_HIGH), high(input)),
        );
        // A continuation is required two bytes after a 3- or 4-byte lead,
        // and three after a 4-byte one: there TWO_CONTS is no fault, and
        // its absence is.
        let third = _mm256_subs_epu8(before::<2>(input, prev), _mm256_set1_epi8((0xe0u8 - 0x80) as i8));
        let fourth = _mm256_subs_epu8(before::<3>(input, prev), _mm256_set1_epi8((0xf0u8 - 0x80) as i8));
        let required = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(0x80u8 as i8));
        _mm256_xor_si256(required, special)
    }

    /// Non-zero where the last three bytes of `input` start a character
    /// longer than what follows them.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn incomplete(input: __m256i) -> __m256i {
        let mut max = [0xffu8; 32];
        max[29..].copy_from_slice(&[0xf0 - 1, 0xe0 - 1, 0xc0 - 1]);
        // SAFETY: a 32-byte load from a 32-byte array.
        _mm256_subs_epu8(input, unsafe { _mm256_loadu_si256(max.as_ptr().cast()) })
    }
}

/// `line` as UTF-8 text, or the offset of its first invalid byte.
#[inline]
pub(super) fn text(line: &[u8]) -> Result<&str, ParseError> {
    if is_ascii(line) {
        // SAFETY: every byte is below 0x80, and ASCII is UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(line) });
    }
    simdutf8::basic::from_utf8(line).map_err(|_| {
        ParseError::InvalidUtf8(simdutf8::compat::from_utf8(line).map_or_else(|e| e.valid_up_to(), str::len))
    })
}

#[inline]
fn is_ascii(line: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if line.len() >= 32 && is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, as just detected.
        return unsafe { is_ascii_avx2(line) };
    }
    line.is_ascii()
}

/// For lines of 32 bytes or more: 32 bytes at a time, the last 32 read
/// again where the length is not a multiple. Stops at the first 128 bytes
/// that are not all ASCII, so a long line of other text costs little.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn is_ascii_avx2(line: &[u8]) -> bool {
    use std::arch::x86_64::*;
    // SAFETY (every load): a 32-byte unaligned load from a 32-byte array.
    let load = |chunk: &[u8; 32]| unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
    let (chunks, _) = line.as_chunks::<32>();
    let (groups, rest) = chunks.as_chunks::<4>();
    for [a, b, c, d] in groups {
        let any = _mm256_or_si256(_mm256_or_si256(load(a), load(b)), _mm256_or_si256(load(c), load(d)));
        if _mm256_movemask_epi8(any) != 0 {
            return false;
        }
    }
    let mut any = _mm256_setzero_si256();
    for chunk in rest.iter().chain(line.last_chunk::<32>()) {
        any = _mm256_or_si256(any, load(chunk));
    }
    _mm256_movemask_epi8(any) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_above_ascii_anywhere_is_found() {
        for len in 0..200 {
            let line = vec![b'a'; len];
            assert!(is_ascii(&line));
            for at in 0..len {
                for byte in [0x80, 0xc3, 0xff] {
                    let mut line = line.clone();
                    line[at] = byte;
                    assert!(!is_ascii(&line), "{byte:#x} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn text_is_checked_in_full_when_not_ascii() {
        assert_eq!(text("caf\u{e9}".as_bytes()), Ok("caf\u{e9}"));
        let mut line = "\u{e9}".repeat(40).into_bytes();
        line.push(0xff);
        assert_eq!(text(&line), Err(ParseError::InvalidUtf8(80)));
    }
}
