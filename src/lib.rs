//! Decides what a line of JSON-RPC 2.0 traffic is, and what reply it is owed,
//! exactly as `SPEC.md` says, for every host language: Rust through this
//! crate, and C, C++, Python and Go through the C ABI in [`ffi`].
//!
//! The layers, each a module, each using only those before it: [`scan`]
//! validates a line of JSON and reports its root object's members;
//! [`rules`] decides the line's kind and what it carries; [`reply`] and
//! [`log_text`] write the texts; [`reader`] turns a stream into classified
//! lines; [`session`] decides what an endpoint does with each line of one
//! direction; [`relay`] holds both directions' sessions and ties them
//! together; [`ffi`] is the C ABI over all of them. Allocation that may fail
//! goes through `fallible`. All of them are safe Rust, but for [`ffi`] and
//! the scanner's vector code.
//!
//! # Classifying a line, by a profile
//!
//! A [`Profile`] is the rule set: [`Profile::JsonRpc`] (SPEC §1–7, the
//! default of [`classify`]) or [`Profile::Mcp`] (§10, what the MCP SDK
//! transports use). A [`Classification`] says what the line is and, through
//! [`Classification::reply`], what it is owed in each [`Role`].
//!
//! ```
//! use jsonrpc_envelope::{Kind, Profile, Role};
//!
//! let line = br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#;
//! // JSON-RPC 2.0 allows a fractional id; MCP does not (SPEC §10.1).
//! assert_eq!(Profile::JsonRpc.classify(line).kind, Kind::Request);
//! let c = Profile::Mcp.classify(line);
//! assert_eq!(c.kind, Kind::InvalidRequest);
//! assert_eq!(c.id, Some("1.5"));
//! assert_eq!(
//!     c.reply(Role::Server).as_deref(),
//!     Some(concat!(
//!         r#"{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"#,
//!         r#""Invalid Request: an MCP id must be a string or an integer, "#,
//!         r#"not a number with a fraction or an exponent"}}"#,
//!     )),
//! );
//! // A message is owed nothing.
//! assert_eq!(Profile::Mcp.invalid_reply(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, Role::Server), None);
//! ```
//!
//! # Reading a stream
//!
//! A [`Reader`] takes bytes as they arrive, in chunks of any size, and hands
//! back each line they complete, classified by its profile; a line over its
//! limit comes back as [`Line::TooLong`], never held whole.
//!
//! ```
//! use jsonrpc_envelope::{Kind, Line, Profile, Reader};
//!
//! let mut reader = Reader::with_profile(64, Profile::Mcp);
//! let mut kinds = Vec::new();
//! let stream: [&[u8]; 3] = [b"{\"jsonrpc\":\"2.0\",\"me", b"thod\":\"ping\",\"id\":7}\nnot json\n", &[b'x'; 100]];
//! for chunk in stream {
//!     for line in reader.feed(chunk).expect("memory") {
//!         kinds.push(line.kind_name());
//!     }
//! }
//! for line in reader.end().expect("memory") {
//!     assert!(matches!(line, Line::TooLong { len: 100, .. }));
//!     kinds.push(line.kind_name());
//! }
//! assert_eq!(kinds, ["request", "parse_error", "too_long"]);
//! # let _ = Kind::Request;
//! ```
//!
//! # A relay: what a guard or a transport does with each line
//!
//! A [`Relay`] holds the [`Session`] of each [`Direction`] (the lines to the
//! server read as a server reads them, those to the host as a host does)
//! and gives each line read a [`Decision`]: its [`Action`], the text to
//! write where the action has one (SPEC §10.5), and where that text goes
//! ([`Action::goes`]). It notes what goes where itself; the caller tells it
//! only of lines that reach a peer not through it ([`Relay::wrote`]). Here
//! a client's transport reads a server's output: its SDK sent request 1,
//! so the server's error that names no request is given to request 1 (the
//! handshake rule), and a log line on stdout is diverted.
//!
//! ```
//! use jsonrpc_envelope::{Direction, Line, Profile, Relay};
//!
//! let read = Direction::ToHost;
//! let mut relay = Relay::reading(read, Profile::Mcp, 0);
//! relay.wrote(Direction::ToServer, br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
//! assert_eq!(relay.outstanding(read), 1);
//!
//! let from_server = concat!(
//!     "starting up...\n",
//!     r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"no"}}"#, "\n",
//! );
//! let mut reader = relay.reader();
//! let mut seen = Vec::new();
//! for line in reader.feed(from_server.as_bytes()).expect("memory") {
//!     let decision = relay.decide(read, &line);
//!     let name = decision.action.name();
//!     match decision.action.goes(read) {
//!         // On to the SDK: the line, or the relay's text in its place.
//!         Some(to) if to == read => {
//!             let Line::Complete { bytes, .. } = &line else { unreachable!() };
//!             seen.push((name, decision.text.unwrap_or_else(|| String::from_utf8_lossy(bytes).into_owned())));
//!         }
//!         // Back to the line's sender: write the text.
//!         Some(_) => seen.push((name, decision.text.unwrap_or_default())),
//!         // Only a record: `decision.note`, the line rendered by `log_value`.
//!         None => seen.push((name, decision.note.unwrap_or_default().to_owned())),
//!     }
//! }
//! assert_eq!(seen[0], ("diverted", "not a message".to_owned()));
//! // The id goes in first, after `{`, when the line had none (SPEC §10.5).
//! assert_eq!(seen[1], ("attributed", r#"{"id":1,"jsonrpc":"2.0","error":{"code":-32000,"message":"no"}}"#.to_owned()));
//! assert_eq!(relay.outstanding(read), 0);
//! ```

#![deny(unsafe_code)]

mod fallible;
pub mod ffi;
pub mod log_text;
#[macro_use]
mod names;
pub mod reader;
pub mod relay;
pub mod reply;
pub mod rules;
pub mod scan;
pub mod session;

/// The project's test vectors (`tests/vectors/`, SPEC §7), as text: one JSON
/// record per line, each a line and what the rules make of it. The CLI's
/// probe sends every line of them to a server (SPEC §11).
#[cfg(feature = "vectors")]
pub mod vectors {
    /// `envelope.jsonl`: the envelope rules (SPEC §2 to §4).
    pub const ENVELOPE: &str = include_str!("../tests/vectors/envelope.jsonl");
    /// `mcp.jsonl`: the MCP profile (SPEC §10), every envelope line included.
    pub const MCP: &str = include_str!("../tests/vectors/mcp.jsonl");
}

pub use fallible::OutOfMemory;
pub use log_text::{LOG_VALUE_MAX_UNITS, log_value};
pub use reader::{Batch, DEFAULT_MAX_LINE, Line, MCP_MAX_LINE, Reader, TOO_LONG};
pub use relay::{Direction, Relay};
pub use reply::{Role, UnknownRole, invalid_reply};
pub use rules::{
    Classification, IdKey, IdKind, InvalidRequest, Kind, Profile, Reason, RequestFault, ResponseFault, Spans,
    UnknownProfile, What, classify, same_id, try_classify,
};
pub use scan::{ParseError, Span, ValueKind};
pub use session::{Action, Decision, Session};

/// The library's version, as Cargo knows it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
