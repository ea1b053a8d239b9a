//! What a C value is called, whether a kind is a message, and the default
//! line limit: the lookups every binding would otherwise restate.

use std::ffi::c_char;

use super::classification::JsonRpcKind;
use super::status::JsonRpcStatus;
use crate::reader::{DEFAULT_MAX_LINE, TOO_LONG_C};
use crate::rules::{IdKind, Kind, Profile};

/// Every kind a line can have.
const KINDS: [Kind; 10] = [
    Kind::Empty,
    Kind::ParseError,
    Kind::Batch,
    Kind::NotObject,
    Kind::InvalidRequest,
    Kind::Request,
    Kind::Notification,
    Kind::Response,
    Kind::NotJsonRpc,
    Kind::InvalidResponse,
];

/// The name of a `JsonRpcKind` value as the vectors spell it (`"request"`,
/// `"too_long"`, ...): a static NUL-terminated string that the caller must
/// not free. NULL for a value that is no kind (`JSONRPC_KIND_NONE`
/// included). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_kind_name(kind: u32) -> *const c_char {
    if kind == JsonRpcKind::JSONRPC_KIND_TOO_LONG as u32 {
        return TOO_LONG_C.as_ptr();
    }
    KINDS
        .into_iter()
        .find(|&k| super::classification::kind(k) as u32 == kind)
        .map_or(std::ptr::null(), |k| k.c_name().as_ptr())
}

/// Whether a `JsonRpcKind` value is a message a peer acts on: a request, a
/// notification or a response, the kinds a guard or an SDK transport hands
/// on (SPEC §8, §9). False for every other value. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_kind_is_message(kind: u32) -> bool {
    KINDS.into_iter().any(|k| k.is_message() && super::classification::kind(k) as u32 == kind)
}

/// The name of a `JsonRpcIdKind` value (`"absent"`, `"null"`, ...), as
/// `jsonrpc_kind_name` gives kinds': static, NULL for no id kind.
/// Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_id_kind_name(id_kind: u32) -> *const c_char {
    const ID_KINDS: [IdKind; 7] =
        [IdKind::Absent, IdKind::Null, IdKind::String, IdKind::Number, IdKind::Object, IdKind::Array, IdKind::Boolean];
    ID_KINDS
        .into_iter()
        .find(|&k| super::classification::id_kind(k) as u32 == id_kind)
        .map_or(std::ptr::null(), |k| k.c_name().as_ptr())
}

/// The name of a `JsonRpcRole` value (`"server"`, `"client"`): static,
/// NULL for no role. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_role_name(role: u32) -> *const c_char {
    super::reply::role(role).map_or(std::ptr::null(), |r| r.c_name().as_ptr())
}

/// The name of a `JsonRpcStatus` value (`"ok"`, `"out_of_memory"`, ...), for
/// a binding's error messages: static, NULL for no status. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_status_name(status: u32) -> *const c_char {
    use JsonRpcStatus::*;
    let name = match status {
        s if s == JSONRPC_STATUS_OK as u32 => c"ok",
        s if s == JSONRPC_STATUS_UNKNOWN_ROLE as u32 => c"unknown_role",
        s if s == JSONRPC_STATUS_NULL_ARGUMENT as u32 => c"null_argument",
        s if s == JSONRPC_STATUS_OUT_OF_MEMORY as u32 => c"out_of_memory",
        s if s == JSONRPC_STATUS_INTERNAL_ERROR as u32 => c"internal_error",
        s if s == JSONRPC_STATUS_UNKNOWN_PROFILE as u32 => c"unknown_profile",
        s if s == JSONRPC_STATUS_UNKNOWN_DIRECTION as u32 => c"unknown_direction",
        _ => return std::ptr::null(),
    };
    name.as_ptr()
}

/// The name of a `JsonRpcProfile` value (`"jsonrpc"`, `"mcp"`): static,
/// NULL for no profile. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_profile_name(profile: u32) -> *const c_char {
    super::profile::profile(profile).map_or(std::ptr::null(), |p| p.c_name().as_ptr())
}

/// The name of a `JsonRpcAction` value, as records spell it
/// (`"forwarded"`, `"answered"`, `"substituted"`, `"attributed"`,
/// `"dropped"`, `"diverted"`): static, NULL for no action
/// (`JSONRPC_ACTION_NONE` included). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_action_name(action: u32) -> *const c_char {
    super::line::action_of(action).map_or(std::ptr::null(), |a| a.c_name().as_ptr())
}

/// The line limit a JSON-RPC profile reader made with `max_line` 0 has:
/// 16 MiB (SPEC §6). Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_default_max_line() -> usize {
    DEFAULT_MAX_LINE
}

/// The line limit a reader or a session of `profile` (a `JsonRpcProfile`
/// value) made with `max_line` 0 has: 16 MiB for `JSONRPC_PROFILE_JSONRPC`;
/// for `JSONRPC_PROFILE_MCP` the longest line every official MCP SDK's own
/// stdio reader takes (SPEC §10.7). 0 for a value that is no
/// `JsonRpcProfile`. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_profile_max_line(profile: u32) -> usize {
    super::profile::profile(profile).map_or(0, Profile::default_max_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_name_and_nothing_else_has_one() {
        let name = |k| {
            let ptr = jsonrpc_kind_name(k);
            // SAFETY: a static NUL-terminated string, or NULL.
            (!ptr.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(ptr) }.to_str().unwrap())
        };
        assert_eq!(name(0), None);
        assert_eq!(name(6), Some("request"));
        assert_eq!(name(10), Some("too_long"));
        assert_eq!(name(11), Some("invalid_response"));
        assert_eq!(name(12), None);
        assert!(jsonrpc_id_kind_name(7).is_null() && !jsonrpc_id_kind_name(0).is_null());
        assert!(jsonrpc_role_name(0).is_null() && !jsonrpc_role_name(2).is_null());
        assert!(jsonrpc_status_name(7).is_null() && !jsonrpc_status_name(6).is_null());
        assert!(jsonrpc_profile_name(0).is_null() && !jsonrpc_profile_name(2).is_null());
        assert!(jsonrpc_profile_name(3).is_null());
        assert!(jsonrpc_action_name(0).is_null() && !jsonrpc_action_name(6).is_null());
        assert!(jsonrpc_action_name(7).is_null());
    }
}
