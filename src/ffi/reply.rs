use super::JsonRpcStatus;
use super::guard::guard;
use super::input::classify_line;
use super::text::JsonRpcString;
use crate::Role;

/// Which endpoint reads the line (SPEC §4), passed as a `uint32_t`. Values
/// are fixed and never reused; 0 is deliberately not a role.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcRole {
    /// Reads its client's input (an MCP server's stdin): anything
    /// unreadable is answered.
    JSONRPC_ROLE_SERVER = 1,
    /// Reads a server's output (a host reading a server's stdout): only a
    /// clearly broken request is answered.
    JSONRPC_ROLE_CLIENT = 2,
}

/// The answer of `jsonrpc_invalid_reply`. When `status` is
/// `JSONRPC_STATUS_OK`, `text` is the reply, or `{NULL, 0}` when none is
/// owed. The caller owns `text` and frees it with `jsonrpc_string_free`
/// (harmless when it is `{NULL, 0}`).
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcReply {
    pub status: JsonRpcStatus,
    pub text: JsonRpcString,
}

/// The one reply owed for a line by the endpoint in `role` (SPEC §4): a
/// JSON-RPC error response, byte for byte, with no line break; or none.
///
/// `line` and `len` are read as by `jsonrpc_classify` (NULL with a non-zero
/// length is a parse error). `role` is a `JsonRpcRole` value; any other
/// value gives `JSONRPC_STATUS_UNKNOWN_ROLE` and no text.
///
/// The same text is in a classification's `reply_server` or `reply_client`;
/// this call is for a host that wants only the reply. Thread-safe.
///
/// # Safety
/// A non-NULL `line` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_invalid_reply(line: *const u8, len: usize, role: u32) -> JsonRpcReply {
    let failed = |status| JsonRpcReply { status, text: JsonRpcString::NONE };
    guard(
        || failed(JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR),
        || {
            let role = match role {
                r if r == JsonRpcRole::JSONRPC_ROLE_SERVER as u32 => Role::Server,
                r if r == JsonRpcRole::JSONRPC_ROLE_CLIENT as u32 => Role::Client,
                _ => return failed(JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_ROLE),
            };
            // SAFETY: passed on from the caller.
            let Some(reply) = unsafe { classify_line(line, len) }.reply(role) else {
                return failed(JsonRpcStatus::JSONRPC_STATUS_OK);
            };
            match JsonRpcString::new(reply.as_bytes()) {
                text if text.ptr.is_null() => failed(JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY),
                text => JsonRpcReply { status: JsonRpcStatus::JSONRPC_STATUS_OK, text },
            }
        },
    )
}
