//! The one reply a line is owed (SPEC §4), byte for byte.

use std::ffi::CStr;
use std::fmt::{self, Write};
use std::str::FromStr;

use crate::names::Name;
use crate::rules::{Classification, InvalidRequest, Kind, with_article};
use crate::scan::ValueKind;

/// Which endpoint reads the line (SPEC §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Reads its client's input: anything unreadable is answered.
    Server,
    /// Reads a server's output: only a clearly broken request is answered.
    Client,
}

impl Role {
    /// The role's name, as `FromStr` reads it.
    pub fn name(self) -> &'static str {
        self.names().text
    }

    /// The same name, NUL-terminated, for the C ABI.
    pub(crate) fn c_name(self) -> &'static CStr {
        self.names().c
    }

    const fn names(self) -> Name {
        match self {
            Role::Server => const { Name::new(c"server") },
            Role::Client => const { Name::new(c"client") },
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
        [Role::Server, Role::Client]
            .into_iter()
            .find(|role| role.name() == name)
            .ok_or_else(|| UnknownRole(name.to_owned()))
    }
}

const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;

/// What an owed reply says, before it is written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Owed<'c> {
    /// The id it echoes, as JSON text.
    pub id: &'c str,
    pub code: i32,
    pub message: Message,
}

/// A reply's message, to be written once and used for both roles' replies.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Message {
    Fixed(&'static str),
    NotObject(ValueKind),
    /// The same text as the line's reason.
    InvalidRequest(InvalidRequest),
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Fixed(text) => f.write_str(text),
            Message::NotObject(kind) => {
                write!(f, "Invalid Request: a message must be an object, not {}", with_article(*kind))
            }
            Message::InvalidRequest(fault) => fault.fmt(f),
        }
    }
}

impl Owed<'_> {
    /// Writes `{"jsonrpc":"2.0","id":<ID>,"error":{"code":<CODE>,"message":<MESSAGE>}}`
    /// with `message`, the text of `self.message`.
    pub(crate) fn write(&self, message: &str, out: &mut impl Write) -> fmt::Result {
        out.write_str(r#"{"jsonrpc":"2.0","id":"#)?;
        out.write_str(self.id)?;
        write!(out, r#","error":{{"code":{},"message":"#, self.code)?;
        write_json_string(out, message)?;
        out.write_str("}}")
    }
}

impl Classification<'_> {
    /// The reply the endpoint in `role` owes for this line, or `None`.
    #[inline]
    pub fn reply(&self, role: Role) -> Option<String> {
        // Most lines owe nothing: that answer inlines, the text does not.
        let owed = self.owed(role)?;
        Some(owed_text(&owed))
    }

    /// What the reply owed in `role` says, or `None` when none is owed.
    #[inline]
    pub(crate) fn owed(&self, role: Role) -> Option<Owed<'_>> {
        let (code, message) = match (self.kind, role) {
            (Kind::InvalidRequest, _) => {
                let Some(crate::Reason::InvalidRequest(fault)) = self.reason else { return None };
                (INVALID_REQUEST, Message::InvalidRequest(fault))
            }
            (Kind::ParseError, Role::Server) => (PARSE_ERROR, Message::Fixed("Parse error")),
            (Kind::Batch, Role::Server) => {
                (INVALID_REQUEST, Message::Fixed("Invalid Request: this server doesn't accept batches"))
            }
            (Kind::NotObject, Role::Server) => (INVALID_REQUEST, Message::NotObject(self.value?)),
            _ => return None,
        };
        let id = match self.kind {
            Kind::InvalidRequest => self.id.filter(|_| self.id_kind.is_echoable()).unwrap_or("null"),
            _ => "null",
        };
        Some(Owed { id, code, message })
    }
}

#[cold]
fn owed_text(owed: &Owed<'_>) -> String {
    let message = owed.message.to_string();
    let mut out = String::with_capacity(56 + owed.id.len() + message.len());
    let _ = owed.write(&message, &mut out);
    out
}

fn write_json_string(out: &mut impl Write, text: &str) -> fmt::Result {
    out.write_char('"')?;
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c == '"' || c == '\\' || c < ' ') {
        out.write_str(&rest[..at])?;
        match rest.as_bytes()[at] {
            b'"' => out.write_str("\\\"")?,
            b'\\' => out.write_str("\\\\")?,
            byte => write!(out, "\\u{byte:04x}")?,
        }
        rest = &rest[at + 1..];
    }
    out.write_str(rest)?;
    out.write_char('"')
}

/// The reply owed for `line` in `role` (SPEC §4).
pub fn invalid_reply(line: &[u8], role: Role) -> Option<String> {
    crate::classify(line).reply(role)
}

#[cfg(test)]
mod tests {
    use super::write_json_string;

    #[test]
    fn messages_are_written_as_json_strings() {
        let mut out = String::new();
        write_json_string(&mut out, "a\"b\\c\u{1}d\u{e9}").unwrap();
        assert_eq!(out, r#""a\"b\\c\u0001dé""#);
    }
}
