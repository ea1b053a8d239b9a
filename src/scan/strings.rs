//! Strings: the one place a line spends most of its bytes. Runs of text are
//! skipped many bytes at a time (`simd.rs`, or eight at a time on a `u64`
//! here where SIMD is not available). The line's UTF-8 was checked in bulk
//! before the scan, so only quotes, escapes and control bytes stop a run.

use super::ParseError;
use super::simd::find;

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

/// Validates the string whose contents begin at `start` (just past its
/// opening quote) in a line already known to be UTF-8. Returns the position
/// just past its closing quote, and whether it holds an escape.
#[inline]
pub(crate) fn string_end(bytes: &[u8], start: usize) -> Result<(usize, bool), ParseError> {
    let mut pos = start;
    let mut escaped = false;
    loop {
        pos = find(bytes, pos);
        match bytes.get(pos) {
            None => return Err(ParseError::End(pos)),
            Some(b'"') => return Ok((pos + 1, escaped)),
            Some(b'\\') => {
                escaped = true;
                pos = escape_end(bytes, pos)?;
            }
            Some(&byte) => return Err(ParseError::Control { at: pos, byte }),
        }
    }
}

/// Validates the escape whose backslash is at `at`; returns the position
/// just past it.
fn escape_end(bytes: &[u8], at: usize) -> Result<usize, ParseError> {
    match bytes.get(at + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
        Some(b'u') => {
            let hex = bytes.get(at + 2..at + 6);
            if hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                Ok(at + 6)
            } else {
                Err(ParseError::BadUnicodeEscape(at))
            }
        }
        Some(_) => Err(ParseError::BadEscape(at)),
        None => Err(ParseError::End(at + 1)),
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

    #[test]
    fn strings_end_after_their_closing_quote() {
        assert_eq!(string_end(b"\"abc\" ", 1), Ok((5, false)));
        assert_eq!(string_end(b"\"0123456789abcdef\\n\"", 1), Ok((20, true)));
        assert_eq!(string_end("\"h\u{e9}llo w\u{f6}rld \u{1F600}\"".as_bytes(), 1).map(|r| r.1), Ok(false));
    }

    #[test]
    fn string_faults_name_their_offset() {
        assert_eq!(string_end(b"\"abc", 1), Err(ParseError::End(4)));
        assert_eq!(string_end(b"\"ab\ncd\"", 1), Err(ParseError::Control { at: 3, byte: b'\n' }));
        assert_eq!(string_end(b"\"a\\x\"", 1), Err(ParseError::BadEscape(2)));
        assert_eq!(string_end(b"\"a\\u12\"", 1), Err(ParseError::BadUnicodeEscape(2)));
        assert_eq!(string_end(b"\"a\\", 1), Err(ParseError::End(3)));
    }
}
