//! The C ABI: a thin layer that converts between C's pointers and the safe
//! Rust API, and nothing else. No rule is decided here. Every item's doc
//! comment becomes `include/jsonrpc_envelope.h` (through cbindgen), so each
//! says who owns what, what NULL means, and what is safe across threads.
//!
//! Common to every function:
//! - Inputs are `(pointer, length)`; `(NULL, 0)` is empty input.
//! - Every call runs inside the panic boundary (`panic_boundary.rs`): a panic inside the
//!   library becomes an error result, never an unwind into the host.
//! - Every allocation may fail: a failure is an error result, never an
//!   abort (`text.rs` and the `fallible` module).
//! - No global or thread-local state: every function may be called from any
//!   number of threads at once, and errors travel in the result.

#![allow(unsafe_code)]

mod boxing;
mod classification;
mod input;
mod line;
mod log_value;
mod lookups;
mod packing;
mod panic_boundary;
mod profile;
mod reader;
mod relay;
mod reply;
mod session;
mod status;
mod text;
mod version;

pub use classification::{
    JsonRpcClassification, JsonRpcIdKind, JsonRpcKind, JsonRpcSpan, jsonrpc_classification_free, jsonrpc_classify,
    jsonrpc_classify_into,
};
pub use line::{JsonRpcAction, JsonRpcBatch, JsonRpcLine};
pub use log_value::jsonrpc_log_value;
pub use lookups::{
    jsonrpc_action_name, jsonrpc_default_max_line, jsonrpc_id_kind_name, jsonrpc_kind_is_message, jsonrpc_kind_name,
    jsonrpc_profile_max_line, jsonrpc_profile_name, jsonrpc_role_name, jsonrpc_status_name,
};
#[cfg(feature = "panic-test")]
pub use panic_boundary::PANIC_TEST_INPUT;
pub use profile::JsonRpcProfile;
pub use reader::{JsonRpcReader, jsonrpc_reader_end, jsonrpc_reader_feed, jsonrpc_reader_free, jsonrpc_reader_new};
pub use relay::{
    JsonRpcDecision, JsonRpcDirection, JsonRpcRelay, jsonrpc_action_goes, jsonrpc_direction_name,
    jsonrpc_direction_read_by, jsonrpc_relay_end, jsonrpc_relay_feed, jsonrpc_relay_free, jsonrpc_relay_new,
    jsonrpc_relay_outstanding, jsonrpc_relay_refused, jsonrpc_relay_wrote,
};
pub use reply::{JsonRpcReply, JsonRpcRole, jsonrpc_invalid_reply};
pub use session::{
    JsonRpcSession, jsonrpc_session_end, jsonrpc_session_feed, jsonrpc_session_free, jsonrpc_session_new,
    jsonrpc_session_outstanding, jsonrpc_session_refused, jsonrpc_session_sent,
};
pub use status::JsonRpcStatus;
pub use text::{JsonRpcStr, JsonRpcString, jsonrpc_string_free};
pub use version::{JSONRPC_ABI_VERSION, jsonrpc_abi_version, jsonrpc_version};
