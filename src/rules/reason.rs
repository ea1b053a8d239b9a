//! Why a line is not a message, or not a valid one: the faults of SPEC §2
//! and §4 (`invalid_request`), and the reasons every `parse_error`,
//! `invalid_request` and `invalid_response` carries.

use std::fmt;

use super::mcp::{RequestFault, ResponseFault, What};
use super::with_article;
use crate::scan::{ParseError, ValueKind};

/// What is wrong with an `invalid_request`: the kinds of its faulty values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidRequest {
    /// The `method` value's kind, when it is not a string.
    pub method: Option<ValueKind>,
    /// The `id` value's kind, when it is an object, an array or a boolean.
    pub id: Option<ValueKind>,
}

/// The exact message of SPEC §4, which is also the reply's message.
impl fmt::Display for InvalidRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Invalid Request: ")?;
        if let Some(method) = self.method {
            write!(f, "the method must be a string, not {}", with_article(method))?;
            if self.id.is_some() {
                f.write_str("; ")?;
            }
        }
        if let Some(id) = self.id {
            write!(f, "the id must be a string, a number or null, not {}", with_article(id))?;
        }
        Ok(())
    }
}

/// Why a line is a `parse_error`, an `invalid_request` or an
/// `invalid_response`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A fault of SPEC §2 (both profiles).
    #[error("{0}")]
    InvalidRequest(InvalidRequest),
    /// A request or notification the MCP profile refuses (SPEC §10.2).
    #[error("{0}")]
    McpRequest(RequestFault),
    /// A response the MCP profile refuses (SPEC §10.3).
    #[error("{0}")]
    McpResponse(ResponseFault),
}

impl Reason {
    /// Whether the rule broken is one the MCP profile adds only so that
    /// every official SDK reads the line alike (SPEC §10.1 to §10.3): an
    /// integer beyond 2^53 - 1, an error code beyond 32 bits or written
    /// `-0`, more than 127 levels, a lone surrogate, a number beyond a
    /// double. JSON-RPC itself allows such a line, so a peer that serves it
    /// as JSON-RPC does is stricter-than-needed wrong, not broken (the
    /// probe's `strict` grade, SPEC §11).
    pub fn is_portability(&self) -> bool {
        let portable =
            |what: &What| matches!(what, What::BeyondSafe | What::BeyondI32 | What::NegativeZero | What::LoneSurrogate);
        match self {
            Reason::Parse(_) | Reason::InvalidRequest(_) => false,
            Reason::McpRequest(fault) => match fault {
                RequestFault::Id(what) | RequestFault::ProgressToken(what) => portable(what),
                RequestFault::TooDeep | RequestFault::LoneSurrogate | RequestFault::HugeNumber => true,
                RequestFault::Jsonrpc
                | RequestFault::Members { .. }
                | RequestFault::Params(_)
                | RequestFault::Meta(_) => false,
            },
            Reason::McpResponse(fault) => match fault {
                ResponseFault::Id(what) | ResponseFault::Code(what) => portable(what),
                ResponseFault::TooDeep | ResponseFault::LoneSurrogate | ResponseFault::HugeNumber => true,
                ResponseFault::Jsonrpc
                | ResponseFault::Members
                | ResponseFault::Result(_)
                | ResponseFault::Error(_)
                | ResponseFault::NoCode
                | ResponseFault::NoMessage
                | ResponseFault::Message(_) => false,
            },
        }
    }
}
