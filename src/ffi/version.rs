use std::ffi::c_char;

/// The ABI version this header describes. It changes whenever a type or a
/// function changes incompatibly; a binding compares it with
/// `jsonrpc_abi_version()` when it loads and refuses a different library.
/// Functions and types added compatibly keep it (see CHANGELOG.md).
///
/// Version 3, the current one (library 0.1.0, whose ABI moved from 2 to 3
/// before its first release): a profile for every classification, reply
/// and reader (`JsonRpcProfile`, `JSONRPC_STATUS_UNKNOWN_PROFILE`); the
/// kind `JSONRPC_KIND_INVALID_RESPONSE` and the classification's
/// `substitute`; the session (`JsonRpcSession`, `JsonRpcAction`,
/// `JsonRpcDecision`) and the action fields of `JsonRpcLine`. Version 2:
/// the stream reader (`JsonRpcReader`, `JsonRpcBatch`, `JsonRpcLine` with
/// its line number) replaced `jsonrpc_classify_lines`, `JsonRpcLines` and
/// `JsonRpcLineState`; a too-long line became `JSONRPC_KIND_TOO_LONG`; the
/// names and the default line limit were exported (`jsonrpc_kind_name`,
/// `jsonrpc_status_name`, `jsonrpc_default_max_line`, ...). Version 1: the
/// first ABI.
pub const JSONRPC_ABI_VERSION: u32 = 3;

/// The library's version, such as `"0.1.0"`: a static NUL-terminated string
/// that the caller must not free. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_version() -> *const c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}

/// The library's ABI version: `JSONRPC_ABI_VERSION` of the header it was
/// built with. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_abi_version() -> u32 {
    JSONRPC_ABI_VERSION
}
