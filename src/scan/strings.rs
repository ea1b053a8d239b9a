//! Strings: the one place a line spends most of its bytes. Runs of text are
//! skipped many bytes at a time (`stops.rs`); only quotes, escapes and
//! control bytes stop a run.

use super::ParseError;
use super::stops::find;

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
