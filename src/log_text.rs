//! Safe log text (SPEC §5): a peer's bytes rendered for one log line, so that
//! no peer can forge a field or a second line, and no long value floods it.

use std::fmt::Write;

use crate::fallible::{self, OutOfMemory};
use crate::scan;

/// The longest log text, in UTF-16 code units, before the ellipsis.
pub const LOG_VALUE_MAX_UNITS: usize = 256;

/// The most bytes a log text can take: each unit is at most three bytes of
/// UTF-8 (an escape is six bytes for six units), then the ellipsis.
pub(crate) const LOG_VALUE_MAX_BYTES: usize = 3 * LOG_VALUE_MAX_UNITS + '\u{2026}'.len_utf8();

/// Renders `bytes` for a log line (SPEC §5). Reads only as far as the output
/// needs, beyond one validating pass, so a huge value costs no huge string.
/// Like `Vec`, it aborts the process when memory runs out (only a value
/// nested over a thousand levels deep needs any beyond the text).
pub fn log_value(bytes: &[u8]) -> String {
    let mut out = String::new();
    write_log_value(bytes, &mut out).unwrap_or_else(|OutOfMemory| fallible::abort());
    out
}

/// Writes the log text of `bytes` to `out`, at most `LOG_VALUE_MAX_BYTES`
/// bytes. Fails only when the JSON check cannot get memory for a deeply
/// nested value; `out` is then unchanged.
pub(crate) fn write_log_value(bytes: &[u8], out: &mut impl Write) -> Result<(), OutOfMemory> {
    let mut text = LogText { out, units: 0 };
    if scan::is_json(bytes)? {
        for piece in compact_pieces(bytes) {
            // Valid JSON is UTF-8, and pieces end at ASCII bytes.
            if !text.push_str(std::str::from_utf8(piece).unwrap_or("\u{FFFD}")) {
                break;
            }
        }
    } else {
        for chunk in bytes.utf8_chunks() {
            if !text.push_str(chunk.valid()) || (!chunk.invalid().is_empty() && !text.push(char::REPLACEMENT_CHARACTER))
            {
                break;
            }
        }
    }
    Ok(())
}

/// The pieces of a valid JSON text between its whitespace outside strings.
pub(crate) fn compact_pieces(json: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        while json.get(pos).is_some_and(|&b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
            pos += 1;
        }
        let start = pos;
        while let Some(&byte) = json.get(pos) {
            match byte {
                b' ' | b'\t' | b'\n' | b'\r' => break,
                b'"' => pos = scan::string_end(json, pos + 1).map_or(json.len(), |(end, _)| end),
                _ => pos += 1,
            }
        }
        (pos > start).then(|| &json[start..pos])
    })
}

fn needs_escape(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}'
        | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

struct LogText<'w, W> {
    out: &'w mut W,
    units: usize,
}

impl<W: Write> LogText<'_, W> {
    /// Appends `c`, escaped where SPEC §5 says; false once the text is full
    /// (and cut, with the ellipsis).
    fn push(&mut self, c: char) -> bool {
        let escape = needs_escape(c);
        let units = if escape { 6 } else { c.len_utf16() };
        if self.units + units > LOG_VALUE_MAX_UNITS {
            let _ = self.out.write_char('\u{2026}');
            return false;
        }
        self.units += units;
        let _ = if escape { write!(self.out, "\\u{:04x}", u32::from(c)) } else { self.out.write_char(c) };
        true
    }

    fn push_str(&mut self, s: &str) -> bool {
        s.chars().all(|c| self.push(c))
    }
}

#[cfg(test)]
mod tests {
    use super::log_value;

    #[test]
    fn whitespace_alone_is_not_json_and_is_escaped() {
        assert_eq!(log_value(b" \n"), " \\u000a");
    }

    #[test]
    fn every_bidi_control_is_escaped() {
        for c in ['\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{2029}', '\u{9f}'] {
            assert_eq!(log_value(c.to_string().as_bytes()), format!("\\u{:04x}", u32::from(c)));
        }
        assert_eq!(log_value("\u{2070}".as_bytes()), "\u{2070}");
    }

    #[test]
    fn an_escape_that_would_cross_the_limit_is_left_out_whole() {
        let mut input = "a".repeat(251).into_bytes();
        input.push(b'\n');
        let out = log_value(&input);
        assert_eq!(out, format!("{}\u{2026}", "a".repeat(251)));
        let mut exact = "a".repeat(250).into_bytes();
        exact.push(b'\n');
        assert_eq!(log_value(&exact), format!("{}\\u000a", "a".repeat(250)));
    }

    #[test]
    fn no_text_outgrows_the_bound() {
        for c in ['a', '\u{e9}', '\u{20ac}', '\u{1F600}', '\u{1}', '\u{2028}'] {
            let input = c.to_string().repeat(400);
            assert!(log_value(input.as_bytes()).len() <= super::LOG_VALUE_MAX_BYTES, "{c:?}");
        }
    }

    #[test]
    fn a_huge_value_is_cut_without_reading_it_all_into_the_output() {
        let mut big = b"[\"".to_vec();
        big.extend(std::iter::repeat_n(b'z', 10_000_000));
        big.extend_from_slice(b"\"]");
        let out = log_value(&big);
        assert_eq!(out.chars().count(), 257);
        assert!(out.ends_with('\u{2026}'));
    }
}
