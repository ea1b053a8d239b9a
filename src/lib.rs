//! Decides what a line of JSON-RPC 2.0 traffic is, and what reply it is owed,
//! exactly as `SPEC.md` says, for every host language: Rust through this
//! crate, and C, C++, Python and Go through the C ABI in [`ffi`].
//!
//! The layers, each a module: [`scan`] validates a line and finds its
//! top-level members; [`rules`] decides its kind and what it carries;
//! [`reply`] and [`log_text`] write the texts; [`lines`] splits a stream.
//! All of them are safe Rust, but for [`ffi`] and the scanner's vector
//! code (`scan/blocks.rs`, `scan/simd.rs`, `scan/utf8.rs`).

#![deny(unsafe_code)]

pub mod ffi;
pub mod lines;
pub mod log_text;
pub mod reply;
pub mod rules;
pub mod scan;

pub use lines::{DEFAULT_MAX_LINE, LineEvent, LineState, Lines, lines};
pub use log_text::{LOG_VALUE_MAX_UNITS, log_value};
pub use reply::{Role, UnknownRole, invalid_reply};
pub use rules::{Classification, IdKind, InvalidRequest, Kind, Reason, Spans, classify};
pub use scan::{ParseError, Span, ValueKind};

/// The library's version, as Cargo knows it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
