//! Decoding a string's escapes, piece by piece into whatever the caller
//! writes to, so that no decoding needs an allocation of its own.

/// Decodes the contents of a string the scanner has validated (the text
/// between its quotes), handing each decoded piece to `out` in order. Lone
/// surrogate escapes become U+FFFD (SPEC §1).
pub(crate) fn decode(raw: &str, mut out: impl FnMut(&str)) {
    let mut rest = raw;
    // Escapes are ASCII, so every backslash is a char boundary.
    while let Some(backslash) = memchr::memchr(b'\\', rest.as_bytes()) {
        out(&rest[..backslash]);
        let (decoded, used) = escape(&rest.as_bytes()[backslash..]);
        out(decoded.encode_utf8(&mut [0; 4]));
        rest = rest.get(backslash + used..).unwrap_or_default();
    }
    out(rest);
}

/// The length in bytes of `raw` decoded. Every escape is longer than what
/// it stands for, so this is at most `raw.len()`.
pub(crate) fn decoded_len(raw: &str) -> usize {
    let mut len = 0;
    decode(raw, |piece| len += piece.len());
    len
}

/// The character a validated escape at the start of `raw` stands for, and
/// how many bytes it used.
fn escape(raw: &[u8]) -> (char, usize) {
    let simple = match raw.get(1) {
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode_escape(raw),
        Some(&other) => char::from(other),
        None => return (char::REPLACEMENT_CHARACTER, 1),
    };
    (simple, 2)
}

/// A `\uXXXX` escape, joined with a following low surrogate escape when it is
/// a high surrogate.
fn unicode_escape(raw: &[u8]) -> (char, usize) {
    let first = hex4(raw.get(2..6));
    if (0xD800..0xDC00).contains(&first) && raw.get(6..8) == Some(b"\\u") {
        let second = hex4(raw.get(8..12));
        if (0xDC00..0xE000).contains(&second) {
            let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            return (char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER), 12);
        }
    }
    (char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER), 6)
}

fn hex4(digits: Option<&[u8]>) -> u32 {
    digits.and_then(|d| std::str::from_utf8(d).ok()).and_then(|d| u32::from_str_radix(d, 16).ok()).unwrap_or(0xFFFD)
}

#[cfg(test)]
mod tests {
    use super::{decode, decoded_len};

    fn unescape(raw: &str) -> String {
        let mut out = String::new();
        decode(raw, |piece| out.push_str(piece));
        assert_eq!(decoded_len(raw), out.len());
        out
    }

    #[test]
    fn decodes_every_escape() {
        assert_eq!(unescape(r#"a\"b\\c\/d\be\ff\ng\rh\ti"#), "a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti");
        assert_eq!(unescape(r"\u0041\u00e9\u20AC"), "A\u{e9}\u{20ac}");
        assert_eq!(unescape(r"\ud83d\ude00"), "\u{1F600}");
        assert_eq!(unescape(r"a\u0000b"), "a\0b");
        assert_eq!(unescape("caf\u{e9}"), "caf\u{e9}");
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        assert_eq!(unescape(r"a\ud800b"), "a\u{FFFD}b");
        assert_eq!(unescape(r"\udc00\ud800"), "\u{FFFD}\u{FFFD}");
        assert_eq!(unescape(r"\ud800\u0041"), "\u{FFFD}A");
        assert_eq!(unescape(r"\ud800\ud800\udc00"), "\u{FFFD}\u{10000}");
    }

    #[test]
    fn decoding_never_lengthens_a_text() {
        for raw in [r"\u0041", r"\ud800", r"\uffff", r"\ud83d\ude00", r"\n", "\u{e9}"] {
            assert!(decoded_len(raw) <= raw.len(), "{raw}");
        }
    }
}
