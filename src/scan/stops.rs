//! The search for the next byte that stops a run of string text: a quote, a
//! backslash or a control byte. 32 bytes at a time with AVX2 (detected at
//! run time) or 16 with SSE2 (every x86_64), and eight at a time on a `u64`
//! elsewhere. The line's UTF-8 was checked in bulk before the scan, so no
//! other byte needs a look. The `unsafe` code is intrinsics over
//! bounds-checked loads.
#![allow(unsafe_code)]

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// High bit set in each byte of `word` that is zero. Bits above the first
/// true hit may be false hits (borrows), so only the lowest one is used.
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

/// High bit set in each byte of `word` that is a quote, a backslash or a
/// control byte (the lowest hit exact).
fn stop_bytes(word: u64) -> u64 {
    let quote = zero_bytes(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_bytes(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    quote | backslash | control
}

/// Whether `byte` stops a run of string text.
pub(super) fn is_stop(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// The portable search: eight bytes at a time, then byte by byte.
pub(super) fn find_portable(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(chunk) = bytes.get(pos..).and_then(<[u8]>::first_chunk::<8>) {
        let hits = stop_bytes(u64::from_le_bytes(*chunk));
        if hits != 0 {
            return pos + (hits.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while bytes.get(pos).is_some_and(|&b| !is_stop(b)) {
        pos += 1;
    }
    pos
}

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

    #[test]
    fn the_word_mask_finds_the_first_stop_byte_at_every_position() {
        for stop in [b'"', b'\\', 0x00, 0x1f] {
            for at in 0..8 {
                let mut word = [b'a'; 8];
                word[at] = stop;
                // A later stop byte must not hide the first one.
                if at < 7 {
                    word[7] = 0x01;
                }
                let hits = stop_bytes(u64::from_le_bytes(word));
                assert_eq!((hits.trailing_zeros() / 8) as usize, at, "{stop:#x} at {at}");
            }
        }
        assert_eq!(stop_bytes(u64::from_le_bytes(*b" ~!#[]{}")), 0);
        assert_eq!(stop_bytes(u64::from_le_bytes([0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x7F])), 0);
    }

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
