use super::guard::guard;
use super::input::bytes;
use super::text::JsonRpcString;

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
    guard(
        || JsonRpcString::NONE,
        // SAFETY: passed on from the caller.
        || match unsafe { bytes(data, len) } {
            Ok(data) => JsonRpcString::new(crate::log_value(data).as_bytes()),
            Err(_) => JsonRpcString::NONE,
        },
    )
}
