//! How a call went: the status a call returns, and the failures inside the
//! library that become one.

use crate::fallible::OutOfMemory;

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
    /// A direction value that is not a `JsonRpcDirection`.
    JSONRPC_STATUS_UNKNOWN_DIRECTION = 6,
}

/// Why a call could not do its work.
#[derive(Debug, Clone, Copy)]
pub(super) enum Failure {
    OutOfMemory,
    /// A pointer the call needs was NULL (only calls with a status say so).
    NullArgument,
    /// A profile value that is no profile.
    UnknownProfile,
    Internal(&'static std::ffi::CStr),
}

impl From<OutOfMemory> for Failure {
    fn from(_: OutOfMemory) -> Failure {
        Failure::OutOfMemory
    }
}

impl Failure {
    pub(super) fn status(self) -> JsonRpcStatus {
        match self {
            Failure::OutOfMemory => JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY,
            Failure::NullArgument => JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT,
            Failure::UnknownProfile => JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_PROFILE,
            Failure::Internal(_) => JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        }
    }
}
