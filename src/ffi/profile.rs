use crate::rules::Profile;

/// The rule set a line is read by (SPEC §10). Values are fixed and never
/// reused; any other value is refused (`JSONRPC_STATUS_UNKNOWN_PROFILE`).
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcProfile {
    /// JSON-RPC 2.0 alone (SPEC sections 1 to 7).
    JSONRPC_PROFILE_JSONRPC = 1,
    /// JSON-RPC 2.0 as MCP narrows it (SPEC section 10): what this profile
    /// calls a message, every official MCP SDK reads.
    JSONRPC_PROFILE_MCP = 2,
}

/// The profile of a C value, if it is one.
pub(super) fn profile(profile: u32) -> Option<Profile> {
    match profile {
        p if p == JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32 => Some(Profile::JsonRpc),
        p if p == JsonRpcProfile::JSONRPC_PROFILE_MCP as u32 => Some(Profile::Mcp),
        _ => None,
    }
}
