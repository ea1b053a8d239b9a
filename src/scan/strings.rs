//! Strings: the one place a line spends most of its bytes, so plain runs are
//! skipped eight bytes at a time (SWAR on a `u64`, safe and portable), and a
//! run of non-ASCII text is checked by std's bulk UTF-8 validator.

use super::ParseError;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// High bit set in each byte of `word` that is zero. Bits above the first
/// true hit may be false hits (borrows), so only the lowest one is used.
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGHS
}

/// High bit set in each byte that ends a run of plain ASCII string text: a
/// quote, a backslash, a control byte or a non-ASCII byte.
fn stop_bytes(word: u64) -> u64 {
    let quote = zero_bytes(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_bytes(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    quote | backslash | control | (word & HIGHS)
}

/// Like `stop_bytes`, but non-ASCII bytes do not stop: the end of a run of
/// UTF-8 text.
fn stop_bytes_in_text(word: u64) -> u64 {
    let quote = zero_bytes(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_bytes(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    quote | backslash | control
}

/// The first position at or after `pos` whose byte `stops` (by the word mask
/// `mask` and the byte test `stops`), or the length.
fn find(bytes: &[u8], mut pos: usize, mask: fn(u64) -> u64, stops: fn(u8) -> bool) -> usize {
    while let Some(chunk) = bytes.get(pos..).and_then(<[u8]>::first_chunk::<8>) {
        let hits = mask(u64::from_le_bytes(*chunk));
        if hits != 0 {
            return pos + (hits.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while bytes.get(pos).is_some_and(|&b| !stops(b)) {
        pos += 1;
    }
    pos
}

fn is_stop(b: u8) -> bool {
    b == b'"' || b == b'\\' || !(0x20..0x80).contains(&b)
}

fn is_stop_in_text(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// Validates the string whose contents begin at `start` (just past its
/// opening quote). Returns the position just past its closing quote, and
/// whether it holds an escape.
pub(crate) fn string_end(bytes: &[u8], start: usize) -> Result<(usize, bool), ParseError> {
    let mut pos = start;
    let mut escaped = false;
    loop {
        pos = find(bytes, pos, stop_bytes, is_stop);
        match bytes.get(pos) {
            None => return Err(ParseError::End(pos)),
            Some(b'"') => return Ok((pos + 1, escaped)),
            Some(b'\\') => {
                escaped = true;
                pos = escape_end(bytes, pos)?;
            }
            Some(&byte) if byte < 0x20 => return Err(ParseError::Control { at: pos, byte }),
            Some(_) => pos = utf8_run_end(bytes, pos)?,
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

/// Validates the run of string text that starts with a non-ASCII byte at
/// `at`, up to the next quote, backslash or control byte (none of which can
/// sit inside a multi-byte sequence); returns where the run ends.
fn utf8_run_end(bytes: &[u8], at: usize) -> Result<usize, ParseError> {
    let end = find(bytes, at, stop_bytes_in_text, is_stop_in_text);
    match std::str::from_utf8(&bytes[at..end]) {
        Ok(_) => Ok(end),
        Err(e) => Err(ParseError::InvalidUtf8(at + e.valid_up_to())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_masks_find_the_first_stop_byte_at_every_position() {
        let stops: [u8; 6] = [b'"', b'\\', 0x00, 0x1f, 0x80, 0xff];
        for &stop in &stops {
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
    }

    #[test]
    fn text_mask_lets_non_ascii_through() {
        assert_eq!(stop_bytes_in_text(u64::from_le_bytes([0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98])), 0);
        let hits = stop_bytes_in_text(u64::from_le_bytes([0xC3, 0xA9, b'"', 0, 0, 0, 0, 0]));
        assert_eq!(hits.trailing_zeros() / 8, 2);
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
        assert_eq!(string_end(b"\"abcdefgh\xC3\xA9\xFFxyz\"", 1), Err(ParseError::InvalidUtf8(11)));
        assert_eq!(string_end(b"\"\xC3\"", 1), Err(ParseError::InvalidUtf8(1)));
    }
}
