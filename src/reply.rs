//! The one reply a line is owed (SPEC §4), byte for byte.

use std::fmt::{self, Write};
use std::str::FromStr;

use crate::rules::{Classification, InvalidRequest, Kind, Profile, Reason, RequestFault, with_article};
use crate::scan::ValueKind;

/// Which endpoint reads the line (SPEC §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Reads its client's input: anything unreadable is answered.
    Server,
    /// Reads a server's output: only a clearly broken request is answered.
    Client,
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

named!(Role {
    Server => c"server",
    Client => c"client",
});

/// The error codes a peer meets: JSON-RPC 2.0's (its section 5.1), those
/// this library's replies carry among them, and MCP's.
pub mod code {
    /// Invalid JSON: the reply to a line that is no JSON (SPEC §4).
    pub const PARSE_ERROR: i32 = -32700;
    /// Not a valid request object (SPEC §4, §10).
    pub const INVALID_REQUEST: i32 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i32 = -32602;
    /// An internal error: the substitute's code (SPEC §10.3).
    pub const INTERNAL_ERROR: i32 = -32603;
    /// MCP 2026-07-28: the request's protocol version is one the server
    /// does not speak (its data lists those it does).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;
}

use code::{INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR};

/// The substitute's message (SPEC §10.3).
const SUBSTITUTE_MESSAGE: &str = "Internal error: the peer's response to this request is not valid MCP";
/// The reply's message for a request an SDK's decoder refused (SPEC §10.4).
const REFUSED_MESSAGE: &str = "Invalid Request: the receiving MCP SDK cannot read this request";
/// The reply's message for each request of an MCP batch (SPEC §10.6 (b)).
const NO_BATCHES_MESSAGE: &str = "Invalid Request: MCP has no batches; send each request on its own line";
/// The reply's message for a request too long to read (SPEC §10.6 (d)).
const TOO_LONG_MESSAGE: &str = "Invalid Request: the line is longer than this peer reads";

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
    /// The same text as the line's reason (the MCP profile's).
    McpRequest(RequestFault),
}

impl Message {
    /// The text of a fixed message.
    pub(crate) fn fixed(self) -> Option<&'static str> {
        match self {
            Message::Fixed(text) => Some(text),
            _ => None,
        }
    }

    /// Whether the message is the text of the line's reason.
    pub(crate) fn is_reason(self) -> bool {
        matches!(self, Message::InvalidRequest(_) | Message::McpRequest(_))
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Fixed(text) => f.write_str(text),
            Message::NotObject(kind) => {
                write!(f, "Invalid Request: a message must be an object, not {}", with_article(*kind))
            }
            Message::InvalidRequest(fault) => fault.fmt(f),
            Message::McpRequest(fault) => fault.fmt(f),
        }
    }
}

impl<'c> Owed<'c> {
    /// The substitute for an invalid response to the request `id` (SPEC
    /// §10.3).
    pub(crate) fn substitute(id: &'c str) -> Owed<'c> {
        Owed { id, code: INTERNAL_ERROR, message: Message::Fixed(SUBSTITUTE_MESSAGE) }
    }

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

impl Kind {
    /// Whether a line of this kind may carry a text beyond its id and
    /// method: a reason (`parse_error`, `invalid_request`,
    /// `invalid_response`), a reply owed in either role (section 4:
    /// `parse_error`, `batch`, `not_object`, `invalid_request`) or a
    /// substitute (`invalid_response`, and a damaged response's
    /// `parse_error`: SPEC §10.3, §10.6 (c)). A line of any other kind
    /// carries none, so a caller that writes them need not look.
    #[inline(always)]
    pub(crate) fn may_have_texts(self) -> bool {
        matches!(self, Kind::ParseError | Kind::InvalidRequest | Kind::Batch | Kind::NotObject | Kind::InvalidResponse)
    }
}

impl Classification<'_> {
    /// The reply the endpoint in `role` owes for this line, or `None`.
    #[inline]
    pub fn reply(&self, role: Role) -> Option<String> {
        if let (Some(batch), Role::Server) = (self.batch, role) {
            return batch_reply_text(batch);
        }
        // Most lines owe nothing: that answer inlines, the text does not.
        let owed = self.owed(role)?;
        Some(owed_text(&owed))
    }

    /// The MCP batch whose requests are each owed a reply in role server
    /// (SPEC §10.6 (b)), which [`write_batch_reply`] writes.
    pub(crate) fn batch_owed(&self) -> Option<&str> {
        self.batch
    }

    /// What the reply owed in `role` says, or `None` when none is owed.
    #[inline]
    pub(crate) fn owed(&self, role: Role) -> Option<Owed<'_>> {
        let (code, message) = match (self.kind, role) {
            (Kind::InvalidRequest, _) => match self.reason {
                Some(Reason::InvalidRequest(fault)) => (INVALID_REQUEST, Message::InvalidRequest(fault)),
                Some(Reason::McpRequest(fault)) => (INVALID_REQUEST, Message::McpRequest(fault)),
                _ => return None,
            },
            // A damaged response is never answered (SPEC §10.6 (c)).
            (Kind::ParseError, _) if self.has_substitute() => return None,
            (Kind::ParseError, Role::Server) if self.too_long => (INVALID_REQUEST, Message::Fixed(TOO_LONG_MESSAGE)),
            (Kind::ParseError, Role::Server) => (PARSE_ERROR, Message::Fixed("Parse error")),
            (Kind::Batch, Role::Server) if self.batch.is_some() => return None,
            (Kind::Batch, Role::Server) => {
                (INVALID_REQUEST, Message::Fixed("Invalid Request: this server doesn't accept batches"))
            }
            (Kind::NotObject, Role::Server) => (INVALID_REQUEST, Message::NotObject(self.value?)),
            _ => return None,
        };
        let id = match self.kind {
            // A damaged request's readable id (SPEC §10.6 (c), (d)).
            Kind::InvalidRequest | Kind::ParseError => self.echoed_id(),
            _ => "null",
        };
        Some(Owed { id, code, message })
    }

    /// The id a reply to this line carries: its exact text when it is a
    /// string or a number, `null` otherwise (SPEC §4).
    fn echoed_id(&self) -> &str {
        self.id.filter(|_| self.id_kind.is_echoable()).unwrap_or("null")
    }

    /// The substitute of an `invalid_response` whose id is an MCP id
    /// (SPEC §10.3), or `None`.
    pub fn substitute(&self) -> Option<String> {
        Some(owed_text(&self.substituted()?))
    }

    /// What the substitute says, or `None` when the line has none.
    #[inline]
    pub(crate) fn substituted(&self) -> Option<Owed<'_>> {
        Some(Owed::substitute(self.id.filter(|_| self.has_substitute())?))
    }

    /// What to send in place of this line when the receiving SDK's own
    /// decoder refused it although the profile calls it a message (SPEC
    /// §10.4): for a request, the reply to its sender; for a response with
    /// an MCP id, its substitute, to hand on; `None` for anything else.
    pub(crate) fn refused(&self) -> Option<Owed<'_>> {
        match self.kind {
            Kind::Request => {
                Some(Owed { id: self.echoed_id(), code: INVALID_REQUEST, message: Message::Fixed(REFUSED_MESSAGE) })
            }
            Kind::Response if self.id_kind.is_echoable() => Some(Owed::substitute(self.id?)),
            _ => None,
        }
    }
}

/// Writes the replies to an MCP batch's requests (SPEC §10.6 (b)), each
/// `{"jsonrpc":"2.0","id":<ID>,"error":{"code":-32600,...}}`, joined by LF.
pub(crate) fn write_batch_reply(batch: &str, out: &mut impl Write) -> fmt::Result {
    let mut first = true;
    for element in crate::rules::damaged_elements(batch) {
        let Some(id) = crate::rules::batch_request_id(element).map_err(|_| fmt::Error)? else { continue };
        if !std::mem::take(&mut first) {
            out.write_char('\n')?;
        }
        Owed { id, code: INVALID_REQUEST, message: Message::Fixed(NO_BATCHES_MESSAGE) }
            .write(NO_BATCHES_MESSAGE, out)?;
    }
    Ok(())
}

#[cold]
fn batch_reply_text(batch: &str) -> Option<String> {
    let mut out = String::new();
    write_batch_reply(batch, &mut out).ok()?;
    Some(out)
}

#[cold]
pub(crate) fn owed_text(owed: &Owed<'_>) -> String {
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

/// The reply owed for `line` in `role` (SPEC §4), in the JSON-RPC profile.
pub fn invalid_reply(line: &[u8], role: Role) -> Option<String> {
    Profile::JsonRpc.invalid_reply(line, role)
}

impl Profile {
    /// The reply owed for `line` in `role` by this profile (SPEC §4, §10).
    pub fn invalid_reply(self, line: &[u8], role: Role) -> Option<String> {
        self.classify(line).reply(role)
    }
}

#[cfg(test)]
mod tests {
    use super::{Role, write_json_string};
    use crate::rules::Profile;

    #[test]
    fn only_a_kind_that_may_have_texts_has_a_reason_a_reply_or_a_substitute() {
        let vectors = [include_str!("../tests/vectors/envelope.jsonl"), include_str!("../tests/vectors/mcp.jsonl")];
        let lines: Vec<String> = vectors
            .iter()
            .flat_map(|text| text.lines())
            .filter_map(|record| {
                serde_json::from_str::<serde_json::Value>(record).ok()?["line"].as_str().map(String::from)
            })
            .collect();
        assert!(lines.len() > 400, "the vectors' lines");
        for line in &lines {
            for profile in Profile::ALL {
                let c = profile.classify(line.as_bytes());
                let texts = [c.reply(Role::Server), c.reply(Role::Client), c.substitute()];
                assert!(
                    c.kind.may_have_texts() || (c.reason.is_none() && texts.iter().all(Option::is_none)),
                    "{profile:?} {line:?}"
                );
            }
        }
    }

    #[test]
    fn messages_are_written_as_json_strings() {
        let mut out = String::new();
        write_json_string(&mut out, "a\"b\\c\u{1}d\u{e9}").unwrap();
        assert_eq!(out, r#""a\"b\\c\u0001dé""#);
    }
}
