//! Decides what a line of JSON-RPC 2.0 traffic is, and what reply it is owed,
//! exactly as `SPEC.md` says, for every host language: Rust through this
//! crate, and C, C++, Python and Go through the C ABI in [`ffi`].
//!
//! The layers, each a module, each using only those before it: [`scan`]
//! validates a line of JSON and reports its root object's members;
//! [`rules`] decides the line's kind and what it carries; [`reply`] and
//! [`log_text`] write the texts; [`reader`] turns a stream into classified
//! lines; [`ffi`] is the C ABI over all of them. Allocation that may fail
//! goes through `fallible`. All of them are safe Rust, but for [`ffi`] and
//! the scanner's vector code.

#![deny(unsafe_code)]

mod fallible;
pub mod ffi;
pub mod log_text;
#[macro_use]
mod names;
pub mod reader;
pub mod reply;
pub mod rules;
pub mod scan;
pub mod session;

pub use fallible::OutOfMemory;
pub use log_text::{LOG_VALUE_MAX_UNITS, log_value};
pub use reader::{Batch, DEFAULT_MAX_LINE, Line, Reader, TOO_LONG};
pub use reply::{Role, UnknownRole, invalid_reply};
pub use rules::{
    Classification, IdKind, InvalidRequest, Kind, Profile, Reason, RequestFault, ResponseFault, Spans, UnknownProfile,
    What, classify, try_classify,
};
pub use scan::{ParseError, Span, ValueKind};
pub use session::{Action, Decision, Session};

/// The library's version, as Cargo knows it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
