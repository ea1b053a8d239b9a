use std::mem::MaybeUninit;

use super::input::bytes;
use super::panic_boundary::boundary;
use super::text::{Cursor, JsonRpcString};
use crate::log_text::{LOG_VALUE_MAX_BYTES, write_log_value};

/// A peer's bytes rendered for one log line (SPEC §5): compact JSON, or
/// UTF-8 with invalid sequences replaced; control, line-separator and bidi
/// characters escaped as `\uXXXX`; at most 256 UTF-16 units, then `…`.
///
/// `data` and `len` are read as by `jsonrpc_classify`; `(NULL, 0)` renders
/// as the empty string. Returns a string the caller frees with
/// `jsonrpc_string_free`; its `ptr` is NULL only when the call failed (NULL
/// with a non-zero length, out of memory, or an internal fault).
/// Thread-safe.
///
/// # Safety
/// A non-NULL `data` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_log_value(data: *const u8, len: usize) -> JsonRpcString {
    boundary(
        || JsonRpcString::NONE,
        || {
            // SAFETY: passed on from the caller.
            let Ok(data) = (unsafe { bytes(data, len) }) else {
                return JsonRpcString::NONE;
            };
            // The text is bounded: written on the stack, then copied once.
            let mut room = [MaybeUninit::uninit(); LOG_VALUE_MAX_BYTES];
            let mut text = Cursor::new(&mut room);
            if write_log_value(data, &mut text).is_err() {
                return JsonRpcString::NONE;
            }
            let text = text.written();
            JsonRpcString::new(text.len(), |to| {
                let _ = to.write_bytes(text);
            })
            .unwrap_or(JsonRpcString::NONE)
        },
    )
}
