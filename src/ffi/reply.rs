use super::input::bytes;
use super::panic_boundary::boundary;
use super::status::JsonRpcStatus;
use super::text::{Counter, Formatted, JsonRpcString};
use crate::fallible::OutOfMemory;
use crate::reply::Role;
use crate::rules::{Classification, classify_undecoded};

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

/// The role a caller's `uint32_t` names, if any.
pub(super) fn role(role: u32) -> Option<Role> {
    match role {
        r if r == JsonRpcRole::JSONRPC_ROLE_SERVER as u32 => Some(Role::Server),
        r if r == JsonRpcRole::JSONRPC_ROLE_CLIENT as u32 => Some(Role::Client),
        _ => None,
    }
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

/// The one reply owed for a line by the endpoint in `role` (SPEC §4), by
/// `profile` (SPEC §10 for `JSONRPC_PROFILE_MCP`): a JSON-RPC error
/// response, byte for byte, with no line break; or none.
///
/// `line` and `len` are read as by `jsonrpc_classify` (NULL with a non-zero
/// length is a parse error). `role` is a `JsonRpcRole` value; any other
/// value gives `JSONRPC_STATUS_UNKNOWN_ROLE` and no text; a `profile` that
/// is no `JsonRpcProfile` gives `JSONRPC_STATUS_UNKNOWN_PROFILE` and no
/// text (the role is checked first). When memory runs
/// out the status is `JSONRPC_STATUS_OUT_OF_MEMORY`, with no text.
///
/// The same text is in a classification's `reply_server` or `reply_client`;
/// this call is for a host that wants only the reply. Thread-safe.
///
/// # Safety
/// A non-NULL `line` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_invalid_reply(line: *const u8, len: usize, role: u32, profile: u32) -> JsonRpcReply {
    let failed = |status| JsonRpcReply { status, text: JsonRpcString::NONE };
    boundary(
        || failed(JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR),
        || {
            let Some(role) = self::role(role) else {
                return failed(JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_ROLE);
            };
            let Some(profile) = super::profile::profile(profile) else {
                return failed(JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_PROFILE);
            };
            // SAFETY: passed on from the caller.
            let c = match unsafe { bytes(line, len) } {
                Ok(line) => match classify_undecoded(line, profile) {
                    Ok(c) => c,
                    Err(OutOfMemory) => return failed(JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY),
                },
                Err(_) => Classification::unreadable(),
            };
            if let (Some(batch), Role::Server) = (c.batch_owed(), role) {
                // SPEC §10.6 (b): a reply for each request of the batch.
                let mut size = Counter::default();
                if crate::reply::write_batch_reply(batch, &mut size).is_err() {
                    return failed(JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY);
                }
                return match JsonRpcString::new(size.0, |to| {
                    let _ = crate::reply::write_batch_reply(batch, to);
                }) {
                    Ok(text) => JsonRpcReply { status: JsonRpcStatus::JSONRPC_STATUS_OK, text },
                    Err(OutOfMemory) => failed(JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY),
                };
            }
            let Some(owed) = c.owed(role) else {
                return failed(JsonRpcStatus::JSONRPC_STATUS_OK);
            };
            let Some(message) = Formatted::of(&owed.message) else {
                return failed(JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR);
            };
            let mut size = Counter::default();
            let _ = owed.write(message.as_str(), &mut size);
            match JsonRpcString::new(size.0, |to| {
                let _ = owed.write(message.as_str(), to);
            }) {
                Ok(text) => JsonRpcReply { status: JsonRpcStatus::JSONRPC_STATUS_OK, text },
                Err(OutOfMemory) => failed(JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY),
            }
        },
    )
}
