//! The search for the next quote, backslash or control byte in a string, 32 bytes at
//! a time with AVX2 (detected at run time) or 16 with SSE2 (every x86_64),
//! falling back to the portable eight-byte search in `strings.rs`. This is
//! the scanner's only `unsafe` code: intrinsics over bounds-checked loads.
#![allow(unsafe_code)]

use super::strings::find_portable;

/// The first position at or after `pos` holding a quote, a backslash or a
/// control byte, or the length of `bytes`.
#[inline(always)]
pub(super) fn find(bytes: &[u8], pos: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // Most strings of an envelope are short: sixteen bytes checked
        // inline settle them without a call into the vector loops.
        let Some(chunk) = bytes.get(pos..pos + 16) else {
            return find_portable(bytes, pos);
        };
        match x86::stops_in_16(chunk) {
            0 => find_long(bytes, pos + 16),
            mask => pos + mask.trailing_zeros() as usize,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    find_portable(bytes, pos)
}

/// `find` past the first sixteen bytes: AVX2 when the CPU has it.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn find_long(bytes: &[u8], pos: usize) -> usize {
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is present, as just detected.
        return unsafe { x86::find_avx2(bytes, pos) };
    }
    x86::find_sse2(bytes, pos)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::find_portable;

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_avx2(bytes: &[u8], mut pos: usize) -> usize {
        let quote = _mm256_set1_epi8(b'"' as i8);
        let backslash = _mm256_set1_epi8(b'\\' as i8);
        let last_control = _mm256_set1_epi8(0x1f);
        while let Some(chunk) = bytes.get(pos..pos + 32) {
            // SAFETY: `chunk` is 32 readable bytes; the load is unaligned.
            let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
            // Unsigned v <= 0x1f: min(v, 0x1f) == v.
            let low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, last_control), v);
            let hits =
                _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, quote), _mm256_cmpeq_epi8(v, backslash)), low);
            let mask = _mm256_movemask_epi8(hits) as u32;
            if mask != 0 {
                return pos + mask.trailing_zeros() as usize;
            }
            pos += 32;
        }
        find_sse2(bytes, pos)
    }

    /// A bit for each of the 16 bytes of `chunk` that is a quote, a
    /// backslash or a control byte. SSE2 is part of the x86_64 baseline, so
    /// this inlines anywhere.
    #[inline(always)]
    pub(super) fn stops_in_16(chunk: &[u8]) -> u32 {
        assert!(chunk.len() >= 16);
        // SAFETY: 16 readable bytes (asserted); SSE2 is always present on
        // x86_64; the load is unaligned.
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast());
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
            // Unsigned v <= 0x1f: min(v, 0x1f) == v.
            let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32
        }
    }

    /// Sixteen bytes at a time, for CPUs without AVX2.
    pub(super) fn find_sse2(bytes: &[u8], mut pos: usize) -> usize {
        while let Some(chunk) = bytes.get(pos..pos + 16) {
            match stops_in_16(chunk) {
                0 => pos += 16,
                mask => return pos + mask.trailing_zeros() as usize,
            }
        }
        find_portable(bytes, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::strings::is_stop;

    /// Every path (AVX2, SSE2, portable) agrees with a byte loop at every
    /// position, for every kind of byte.
    #[test]
    fn all_paths_agree_with_a_byte_loop() {
        for special in [b'"', b'\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xc3, 0xff] {
            for len in 0..80 {
                for at in 0..len {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    for start in [0, at, len.min(at + 1)] {
                        let want = (start..len).find(|&i| is_stop(bytes[i])).unwrap_or(len);
                        assert_eq!(find(&bytes, start), want, "{special:#x} at {at} of {len} from {start}");
                        assert_eq!(find_portable(&bytes, start), want);
                        #[cfg(target_arch = "x86_64")]
                        assert_eq!(x86::find_sse2(&bytes, start), want);
                    }
                }
            }
        }
    }
}
