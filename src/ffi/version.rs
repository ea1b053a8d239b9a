use std::ffi::c_char;

/// The ABI version this header describes. It changes whenever a type or a
/// function changes incompatibly; a binding compares it with
/// `jsonrpc_abi_version()` when it loads and refuses a different library.
///
/// Version 2 (library 0.1.0): the stream reader (`JsonRpcReader`,
/// `JsonRpcBatch`, `JsonRpcLine` with its line number) replaces
/// `jsonrpc_classify_lines`, `JsonRpcLines` and `JsonRpcLineState`; a
/// too-long line is `JSONRPC_KIND_TOO_LONG`; the names and the default line
/// limit are exported (`jsonrpc_kind_name`, `jsonrpc_status_name`,
/// `jsonrpc_default_max_line`, ...).
pub const JSONRPC_ABI_VERSION: u32 = 3;

/// How a call that returns a status went. Values are fixed and never reused.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcStatus {
    JSONRPC_STATUS_OK = 0,
    /// The role is not one of `JsonRpcRole`.
    JSONRPC_STATUS_UNKNOWN_ROLE = 1,
    /// A required pointer was NULL, or a NULL buffer had a non-zero length.
    JSONRPC_STATUS_NULL_ARGUMENT = 2,
    /// An allocation failed; the call changed nothing the caller sees.
    JSONRPC_STATUS_OUT_OF_MEMORY = 3,
    /// A fault inside the library, caught before it reached the caller.
    JSONRPC_STATUS_INTERNAL_ERROR = 4,
    /// A profile value that is not a `JsonRpcProfile`.
    JSONRPC_STATUS_UNKNOWN_PROFILE = 5,
}

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
