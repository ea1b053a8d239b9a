use std::borrow::Cow;

/// Decodes the contents of a string the scanner has validated (the bytes
/// between its quotes). Lone surrogate escapes become U+FFFD (SPEC §1).
pub(crate) fn unescape(raw: &[u8]) -> Cow<'_, str> {
    if !raw.contains(&b'\\') {
        return String::from_utf8_lossy(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(backslash) = rest.iter().position(|&b| b == b'\\') {
        // Runs between escapes are valid UTF-8: escapes are ASCII and cannot
        // split a multi-byte sequence, so the lossy decode never replaces.
        out.push_str(&String::from_utf8_lossy(&rest[..backslash]));
        rest = &rest[backslash..];
        let (decoded, used) = escape(rest);
        out.push(decoded);
        rest = &rest[used..];
    }
    out.push_str(&String::from_utf8_lossy(rest));
    Cow::Owned(out)
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
        None => char::REPLACEMENT_CHARACTER,
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
    use super::unescape;

    #[test]
    fn decodes_every_escape() {
        assert_eq!(unescape(br#"a\"b\\c\/d\be\ff\ng\rh\ti"#), "a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti");
        assert_eq!(unescape(br"\u0041\u00e9\u20AC"), "A\u{e9}\u{20ac}");
        assert_eq!(unescape(br"\ud83d\ude00"), "\u{1F600}");
        assert_eq!(unescape(br"a\u0000b"), "a\0b");
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        assert_eq!(unescape(br"a\ud800b"), "a\u{FFFD}b");
        assert_eq!(unescape(br"\udc00\ud800"), "\u{FFFD}\u{FFFD}");
        assert_eq!(unescape(br"\ud800\u0041"), "\u{FFFD}A");
        assert_eq!(unescape(br"\ud800\ud800\udc00"), "\u{FFFD}\u{10000}");
    }

    #[test]
    fn text_without_escapes_is_borrowed() {
        assert!(matches!(unescape("caf\u{e9}".as_bytes()), std::borrow::Cow::Borrowed(_)));
    }
}
