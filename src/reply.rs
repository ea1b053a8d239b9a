//! The one reply a line is owed (SPEC §4), byte for byte.

use std::fmt::Write;
use std::str::FromStr;

use crate::rules::{Classification, Kind};

/// Which endpoint reads the line (SPEC §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Reads its client's input: anything unreadable is answered.
    Server,
    /// Reads a server's output: only a clearly broken request is answered.
    Client,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Server => "server",
            Role::Client => "client",
        }
    }
}

/// A role name that is neither `server` nor `client`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown role {0:?}: expected \"server\" or \"client\"")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(name: &str) -> Result<Role, UnknownRole> {
        match name {
            "server" => Ok(Role::Server),
            "client" => Ok(Role::Client),
            other => Err(UnknownRole(other.to_owned())),
        }
    }
}

const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;

impl Classification<'_> {
    /// The reply the endpoint in `role` owes for this line, or `None`.
    #[inline]
    pub fn reply(&self, role: Role) -> Option<String> {
        // Most lines owe nothing: that answer inlines, the texts do not.
        match (self.kind, role) {
            (Kind::InvalidRequest, _) | (Kind::ParseError | Kind::Batch | Kind::NotObject, Role::Server) => {
                self.reply_text()
            }
            _ => None,
        }
    }

    fn reply_text(&self) -> Option<String> {
        match self.kind {
            Kind::InvalidRequest => {
                let id = self.id.filter(|_| self.id_kind.is_echoable()).unwrap_or("null");
                let message = self.reason.as_ref()?.to_string();
                Some(error_reply(id, INVALID_REQUEST, &message))
            }
            Kind::ParseError => Some(error_reply("null", PARSE_ERROR, "Parse error")),
            Kind::Batch => {
                Some(error_reply("null", INVALID_REQUEST, "Invalid Request: this server doesn't accept batches"))
            }
            Kind::NotObject => {
                let message =
                    format!("Invalid Request: a message must be an object, not {}", self.value?.with_article());
                Some(error_reply("null", INVALID_REQUEST, &message))
            }
            _ => None,
        }
    }
}

/// `{"jsonrpc":"2.0","id":<ID>,"error":{"code":<CODE>,"message":<MESSAGE>}}`
fn error_reply(id: &str, code: i32, message: &str) -> String {
    let mut out = String::with_capacity(56 + id.len() + message.len());
    out.push_str(r#"{"jsonrpc":"2.0","id":"#);
    out.push_str(id);
    let _ = write!(out, r#","error":{{"code":{code},"message":"#);
    push_json_string(&mut out, message);
    out.push_str("}}");
    out
}

fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The reply owed for `line` in `role` (SPEC §4).
pub fn invalid_reply(line: &[u8], role: Role) -> Option<String> {
    crate::classify(line).reply(role)
}
