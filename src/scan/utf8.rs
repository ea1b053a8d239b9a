//! The line as text (SPEC §1: invalid UTF-8 anywhere is a parse error). Most
//! lines are all ASCII, which a few vector loads settle; any other line
//! gets simdutf8's full check. This module's one `unsafe` conversion rests
//! on its own ASCII check alone.
#![allow(unsafe_code)]

use super::ParseError;

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
