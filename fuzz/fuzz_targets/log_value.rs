//! log_value never lets a control, line-separator or bidi character through
//! unescaped, and never exceeds 256 UTF-16 units plus the ellipsis.
#![no_main]

use jsonrpc_envelope::{LOG_VALUE_MAX_UNITS, log_value};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let text = log_value(data);
    let forbidden = |c: char| {
        matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}'
            | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    assert!(!text.chars().any(forbidden), "{text:?}");
    let body = text.strip_suffix('\u{2026}').unwrap_or(&text);
    assert!(body.encode_utf16().count() <= LOG_VALUE_MAX_UNITS, "{text:?}");
    // A cut leaves out only a piece that did not fit: at most one escape.
    let input_has_ellipsis = data.windows(3).any(|w| w == "\u{2026}".as_bytes());
    if text.ends_with('\u{2026}') && !input_has_ellipsis {
        assert!(body.encode_utf16().count() > LOG_VALUE_MAX_UNITS - 6, "cut early: {text:?}");
    }
});
