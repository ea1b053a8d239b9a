//! The session policy (SPEC §8, §9, §10.4): what an endpoint does with each
//! line it reads, decided once, here, for the guard, `lint` and every SDK
//! transport. Sans-I/O: the caller reads and writes; a [`Session`] turns
//! each line read into a [`Decision`] (forward it, answer it, hand on a
//! substitute or an attributed error in its place, drop or divert it), and
//! keeps the ids of the requests written the other way that are still
//! outstanding, for substitutes and the handshake rule.

use std::collections::HashMap;
use std::ffi::CStr;

use crate::Role;
use crate::fallible::{self, OutOfMemory};
use crate::reader::Line;
use crate::reply::{Owed, owed_text};
use crate::rules::{Classification, IdKey, IdKind, Kind, Profile};

/// What to do with a line. Its name is the one word for it everywhere: the
/// guard's recording, the transports' log records, `lint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Hand the line on, unchanged.
    Forward,
    /// Answer the line's sender with the decision's text; nobody else sees
    /// the line.
    Answer,
    /// Hand on the decision's text (an `invalid_response`'s substitute) in
    /// the line's place.
    Substitute,
    /// Hand on the decision's text in the line's place: the error response
    /// that named no request, with the id of the one request outstanding
    /// put in (the handshake rule).
    Attribute,
    /// Nobody sees the line; record why.
    Drop,
    /// Nobody sees the line but the log: a reader in role `client` diverts
    /// what a server wrote to its stdout that is no message (banners, log
    /// lines).
    Divert,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 6] =
        [Action::Forward, Action::Answer, Action::Substitute, Action::Attribute, Action::Drop, Action::Divert];

    /// Whether the line, or a text in its place, goes on to the reader's
    /// side (forwarded, substituted or attributed).
    pub fn hands_on(self) -> bool {
        matches!(self, Action::Forward | Action::Substitute | Action::Attribute)
    }
}

named!(Action {
    Forward => c"forwarded",
    Answer => c"answered",
    Substitute => c"substituted",
    Attribute => c"attributed",
    Drop => c"dropped",
    Divert => c"diverted",
});

/// Why a line was not simply forwarded: fixed texts, for records.
pub(crate) mod notes {
    use std::ffi::CStr;
    pub const OWED_A_REPLY: &CStr = c"owed a reply";
    pub const NO_MESSAGE: &CStr = c"not a message";
    pub const TOO_LONG: &CStr = c"longer than the line limit";
    pub const TOO_LONG_ANSWERED: &CStr =
        c"longer than the line limit: answered by the id of the request its first bytes hold";
    pub const TOO_LONG_SUBSTITUTED: &CStr =
        c"longer than the line limit: a response whose substitute fails the request it answers";
    pub const DAMAGED_SUBSTITUTED: &CStr =
        c"a damaged response: its substitute fails the request whose readable id it holds";
    pub const DAMAGED_NOT_OUTSTANDING: &CStr =
        c"a damaged response, and no request of ours is waiting on its readable id";
    pub const SUBSTITUTED: &CStr = c"not a valid MCP response: its substitute fails the request it answers";
    pub const NOT_OUTSTANDING: &CStr = c"not a valid MCP response, and no request of ours is waiting on its id";
    pub const NO_MCP_ID: &CStr = c"not a valid MCP response, and its id names no request";
    pub const ATTRIBUTED: &CStr = c"an error that names no request, given to the one request outstanding";
    pub const UNATTRIBUTABLE: &CStr = c"an error that names no request, while not exactly one request is outstanding";
    pub const REFUSED: &CStr = c"the receiving SDK's decoder refused it";
    pub const UNASKED: &CStr = c"a response nobody waits for: no request of ours has its id";
}

/// What a session decided for one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub action: Action,
    /// For [`Action::Answer`], the reply to send back; for
    /// [`Action::Substitute`] and [`Action::Attribute`], the line to hand
    /// on in the read line's place; `None` otherwise.
    pub text: Option<String>,
    /// Why, for every action but [`Action::Forward`]: a fixed text for a
    /// record or a log line.
    pub note: Option<&'static str>,
}

/// A decision before its text is written: what the C ABI places in memory
/// of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub action: Action,
    pub note: Option<&'static CStr>,
    /// For [`Action::Attribute`], the raw id to put in; for a substitute,
    /// the id it carries when it is not the line's own (a line that named
    /// no request).
    pub id: Option<String>,
}

impl Verdict {
    fn new(action: Action, note: &'static CStr) -> Verdict {
        Verdict { action, note: Some(note), id: None }
    }
}

/// How many outstanding requests a session keeps, and how many bytes of
/// their ids: past either, a request written is not tracked (its invalid
/// response is then dropped, not substituted), so that a peer that never
/// answers cannot grow a session's memory without bound.
pub const MAX_OUTSTANDING: usize = 4096;
pub const MAX_OUTSTANDING_BYTES: usize = 1 << 20;

/// One endpoint's view of a session: it reads lines in its role, and is told
/// of the requests written the other way. Used by one thread at a time.
#[derive(Debug, Clone)]
pub struct Session {
    role: Role,
    profile: Profile,
    /// Requests written the other way and not yet answered: their key and
    /// their id's text as written (MCP profile only).
    outstanding: HashMap<IdKey, String>,
    /// The bytes of the ids in `outstanding`.
    outstanding_bytes: usize,
    /// A request went the other way untracked (past the bounds): from then
    /// on a response this session cannot match is handed on, not dropped.
    untracked: bool,
}

impl Session {
    /// A session that reads lines in `role`, by `profile`. In the JSON-RPC
    /// profile (SPEC §8) it forwards every message and tracks no ids; in
    /// the MCP profile it also substitutes and applies the handshake rule
    /// (SPEC §9, §10.4).
    pub fn new(role: Role, profile: Profile) -> Session {
        Session { role, profile, outstanding: HashMap::new(), outstanding_bytes: 0, untracked: false }
    }

    pub fn role(&self) -> Role {
        self.role
    }

    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// How many requests written the other way are still waiting.
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }

    /// Decides what to do with a line read (a reader's line, classified by
    /// this session's profile).
    pub fn decide(&mut self, line: &Line<'_>) -> Decision {
        self.try_decide(line).unwrap_or_else(|OutOfMemory| fallible::abort())
    }

    /// [`Session::decide`], failing instead of aborting when memory runs
    /// out (then the session may have marked the request a response
    /// answers as answered).
    pub fn try_decide(&mut self, line: &Line<'_>) -> Result<Decision, OutOfMemory> {
        Ok(match line {
            Line::TooLong { head, .. } => {
                let verdict = self.verdict_too_long(head.as_ref())?;
                let text = head.as_ref().and_then(|c| verdict_text(&verdict, self.role, c, &[]));
                Decision { action: verdict.action, text, note: verdict.note.map(notes_text) }
            }
            Line::Complete { classification, bytes, .. } => {
                let verdict = self.verdict(classification)?;
                let text = verdict_text(&verdict, self.role, classification, bytes);
                Decision { action: verdict.action, text, note: verdict.note.map(notes_text) }
            }
        })
    }

    /// Notes a line written the other way (to the peer this session
    /// reads): a request's id is outstanding until a response names it.
    /// `line` is classified by the session's profile.
    pub fn sent(&mut self, line: &[u8]) {
        let c = self.profile.classify(line);
        self.sent_classified(&c);
    }

    /// [`Session::sent`] for a line already classified by this profile.
    pub fn sent_classified(&mut self, c: &Classification<'_>) {
        self.try_sent(c).unwrap_or_else(|OutOfMemory| fallible::abort())
    }

    /// [`Session::sent_classified`], failing instead of aborting when
    /// memory runs out (then nothing changed).
    pub fn try_sent(&mut self, c: &Classification<'_>) -> Result<(), OutOfMemory> {
        if self.profile != Profile::Mcp || c.kind != Kind::Request {
            return Ok(());
        }
        let Some(raw) = c.id else { return Ok(()) };
        if self.outstanding.len() >= MAX_OUTSTANDING || self.outstanding_bytes + raw.len() > MAX_OUTSTANDING_BYTES {
            self.untracked = true;
            return Ok(());
        }
        let Some(key) = IdKey::try_of(c)? else { return Ok(()) };
        let mut text = String::new();
        text.try_reserve_exact(raw.len())?;
        text.push_str(raw);
        self.outstanding.try_reserve(1)?;
        if let Some(old) = self.outstanding.insert(key, text) {
            self.outstanding_bytes -= old.len();
        }
        self.outstanding_bytes += raw.len();
        Ok(())
    }

    /// What to do instead when the receiving SDK's own decoder refused a
    /// line this session handed on (SPEC §10.4): a request is answered with
    /// `-32600`, a response with a string or integer id is replaced by its
    /// substitute, anything else dropped. Each records that the SDK refused
    /// it: a fault of the profile, to be logged at error level.
    pub fn refused(&mut self, line: &[u8]) -> Decision {
        let c = self.profile.classify(line);
        let (action, owed) = self.refused_verdict(&c).unwrap_or_else(|OutOfMemory| fallible::abort());
        Decision { action, text: owed.map(|owed| owed_text(&owed)), note: Some(notes_text(notes::REFUSED)) }
    }

    /// The action and text of [`Session::refused`] for a line classified
    /// `c`.
    pub(crate) fn refused_verdict<'c>(
        &mut self,
        c: &'c Classification<'c>,
    ) -> Result<(Action, Option<Owed<'c>>), OutOfMemory> {
        Ok(match c.refused() {
            Some(owed) if c.kind == Kind::Request => (Action::Answer, Some(owed)),
            Some(owed) => {
                self.answered(c)?;
                (Action::Substitute, Some(owed))
            }
            None => (Action::Drop, None),
        })
    }

    /// The decision for a line over the limit, whose first bytes may hold
    /// a damaged request or response (`head`, SPEC §10.6 (d)).
    pub(crate) fn verdict_too_long(&mut self, head: Option<&Classification<'_>>) -> Result<Verdict, OutOfMemory> {
        Ok(match head {
            Some(c) if c.is_damaged_request() && self.role == Role::Server => {
                Verdict::new(Action::Answer, notes::TOO_LONG_ANSWERED)
            }
            Some(c) if c.has_substitute() && self.answered(c)? => {
                Verdict::new(Action::Substitute, notes::TOO_LONG_SUBSTITUTED)
            }
            _ => Verdict::new(Action::Drop, notes::TOO_LONG),
        })
    }

    /// The decision for a line within the limit, before its text is made.
    pub(crate) fn verdict(&mut self, c: &Classification<'_>) -> Result<Verdict, OutOfMemory> {
        let mcp = self.profile == Profile::Mcp;
        let unread = |role: Role| match role {
            Role::Server => Action::Drop,
            Role::Client => Action::Divert,
        };
        Ok(match c.kind {
            Kind::Request | Kind::Notification => Verdict { action: Action::Forward, note: None, id: None },
            Kind::Response if mcp && c.names_no_request => match self.the_one_outstanding() {
                Some(id) => Verdict { action: Action::Attribute, note: Some(notes::ATTRIBUTED), id: Some(id) },
                None => Verdict::new(Action::Drop, notes::UNATTRIBUTABLE),
            },
            // SPEC 10.8: a server reads no response nobody waits for (rmcp's
            // ends its session on one before the client's first request).
            Kind::Response if mcp && !self.answered(c)? && self.role == Role::Server && !self.untracked => {
                Verdict::new(Action::Drop, notes::UNASKED)
            }
            Kind::Response => Verdict { action: Action::Forward, note: None, id: None },
            Kind::InvalidResponse if c.has_substitute() => match self.answered(c)? {
                true => Verdict::new(Action::Substitute, notes::SUBSTITUTED),
                false => Verdict::new(Action::Drop, notes::NOT_OUTSTANDING),
            },
            // An error we cannot read that names no request: where one
            // request waits, it fails at once rather than at a timeout.
            Kind::InvalidResponse if c.names_no_request || (c.has_error && c.id_kind == IdKind::Null) => {
                match self.the_one_outstanding() {
                    Some(id) => Verdict { action: Action::Substitute, note: Some(notes::ATTRIBUTED), id: Some(id) },
                    None => Verdict::new(Action::Drop, notes::NO_MCP_ID),
                }
            }
            Kind::InvalidResponse => Verdict::new(Action::Drop, notes::NO_MCP_ID),
            Kind::InvalidRequest => Verdict::new(Action::Answer, notes::OWED_A_REPLY),
            // A damaged response (SPEC §10.6 (c)): never answered; its
            // substitute goes on while its id is outstanding.
            Kind::ParseError if c.has_substitute() => match self.answered(c)? {
                true => Verdict::new(Action::Substitute, notes::DAMAGED_SUBSTITUTED),
                false => Verdict::new(unread(self.role), notes::DAMAGED_NOT_OUTSTANDING),
            },
            Kind::ParseError | Kind::Batch | Kind::NotObject if self.role == Role::Server => {
                Verdict::new(Action::Answer, notes::OWED_A_REPLY)
            }
            Kind::ParseError | Kind::Batch | Kind::NotObject | Kind::Empty | Kind::NotJsonRpc => {
                Verdict::new(unread(self.role), notes::NO_MESSAGE)
            }
        })
    }

    /// Takes the one outstanding request's id, when exactly one waits.
    fn the_one_outstanding(&mut self) -> Option<String> {
        if self.outstanding.len() != 1 {
            return None;
        }
        self.outstanding_bytes = 0;
        self.outstanding.drain().next().map(|(_, raw)| raw)
    }

    /// Marks the request a response names as answered; false when none
    /// with its id was outstanding.
    fn answered(&mut self, c: &Classification<'_>) -> Result<bool, OutOfMemory> {
        if self.outstanding.is_empty() {
            return Ok(false);
        }
        let Some(key) = IdKey::try_of(c)? else { return Ok(false) };
        match self.outstanding.remove(&key) {
            Some(raw) => {
                self.outstanding_bytes -= raw.len();
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

fn notes_text(note: &'static CStr) -> &'static str {
    crate::names::text(note)
}

/// The text a verdict sends for the line `bytes`, classified `c` and read
/// in `role`: the reply, the substitute or the attributed line.
pub(crate) fn verdict_text(verdict: &Verdict, role: Role, c: &Classification<'_>, bytes: &[u8]) -> Option<String> {
    match (verdict.action, &verdict.id) {
        (Action::Forward, _) => normalized(c, bytes).map(|pieces| {
            let mut text = String::new();
            pieces.for_each(|piece| text.push_str(&String::from_utf8_lossy(piece)));
            text
        }),
        (Action::Answer, _) => c.reply(role),
        (Action::Substitute, None) => c.substitute(),
        (Action::Substitute, Some(id)) => Some(owed_text(&Owed::substitute(id))),
        (Action::Attribute, Some(id)) => attributed(c, bytes, id).map(|parts| parts.concat()),
        _ => None,
    }
}

/// An MCP message that not every SDK's reader takes as it stands (a raw
/// CR, which Python's reader splits lines at; whitespace around the value,
/// which Go's refuses; a member given twice, whose first value a typed
/// decoder may refuse), in pieces to be joined: its members, each with its
/// last value, whitespace outside strings removed, ids and every other
/// value's text kept exactly (SPEC 10.5). `None` for a line handed on as
/// it stands.
pub(crate) fn normalized<'a>(c: &Classification<'_>, line: &'a [u8]) -> Option<impl Iterator<Item = &'a [u8]>> {
    let spans = c.spans;
    let named = [
        ("jsonrpc", Some(c.normal?)),
        ("id", spans.id),
        ("method", spans.method),
        ("params", spans.params),
        ("result", spans.result),
        ("error", spans.error),
    ];
    let mut first = true;
    let members = named.into_iter().filter_map(|(name, value)| Some((name, value?))).flat_map(move |(name, value)| {
        let lead: &'static [u8] = if std::mem::take(&mut first) { b"{\"" } else { b",\"" };
        [lead, name.as_bytes(), b"\":"].into_iter().chain(crate::log_text::compact_pieces(value.of(line)))
    });
    Some(members.chain([&b"}"[..]]))
}

/// The error response `line`, which names no request, with `id` put in
/// place of its null or missing id (SPEC §9's handshake rule), without the
/// whitespace around it, in pieces to be joined. `None` only for a line
/// that is no such response.
pub(crate) fn attributed<'a>(c: &Classification<'_>, line: &'a [u8], id: &'a str) -> Option<[&'a str; 5]> {
    let line = std::str::from_utf8(line).ok()?;
    let end = line.trim_end_matches([' ', '\t', '\r', '\n']).len();
    let start = line.len() - line.trim_start_matches([' ', '\t', '\r', '\n']).len();
    Some(match c.spans.id {
        Some(span) => [line.get(start..span.offset)?, id, line.get(span.offset + span.len..end)?, "", ""],
        // The object has members (an error and jsonrpc): put the id first.
        None => [line.get(start..start + 1)?, "\"id\":", id, ",", line.get(start + 1..end)?],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reader;

    /// The decisions for `stream`, read in one piece by `session`.
    fn decide(session: &mut Session, stream: &[u8]) -> Vec<(Action, Option<String>)> {
        decide_within(session, stream, 0)
    }

    /// The same, for lines of at most `max_line` bytes.
    fn decide_within(session: &mut Session, stream: &[u8], max_line: usize) -> Vec<(Action, Option<String>)> {
        let mut reader = Reader::with_profile(max_line, session.profile());
        let mut out: Vec<_> = reader.feed(stream).unwrap().map(|line| session.decide(&line)).collect();
        out.extend(reader.end().unwrap().map(|line| session.decide(&line)));
        out.into_iter().map(|d| (d.action, d.text)).collect()
    }

    const SUBSTITUTE_7: &str = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}"#;

    #[test]
    fn an_invalid_response_is_substituted_only_while_its_request_is_outstanding() {
        let mut s = Session::new(Role::Client, Profile::Mcp);
        let bad = b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n";
        assert_eq!(decide(&mut s, bad), [(Action::Drop, None)]);
        s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#);
        assert_eq!(s.outstanding(), 1);
        assert_eq!(decide(&mut s, bad), [(Action::Substitute, Some(SUBSTITUTE_7.to_owned()))]);
        assert_eq!(s.outstanding(), 0);
        // Answered once: a second one waits on nothing.
        assert_eq!(decide(&mut s, bad), [(Action::Drop, None)]);
    }

    #[test]
    fn ids_are_compared_as_a_host_compares_them() {
        let mut s = Session::new(Role::Server, Profile::Mcp);
        s.sent(br#"{"jsonrpc":"2.0","id":"ab","method":"sampling/createMessage","params":{}}"#);
        s.sent(br#"{"jsonrpc":"2.0","id":-0,"method":"roots/list"}"#);
        assert_eq!(s.outstanding(), 2);
        let answers =
            b"{\"jsonrpc\":\"2.0\",\"id\":\"\\u0061b\",\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n";
        assert_eq!(decide(&mut s, answers), [(Action::Forward, None), (Action::Forward, None)]);
        assert_eq!(s.outstanding(), 0);
    }

    #[test]
    fn the_handshake_rule_attributes_an_error_to_the_one_request_outstanding() {
        let mut s = Session::new(Role::Client, Profile::Mcp);
        s.sent(br#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}"#);
        let absent = b" {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\r\n";
        assert_eq!(
            decide(&mut s, absent),
            [(
                Action::Attribute,
                Some(r#"{"id":"init","jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#.to_owned())
            )]
        );
        s.sent(br#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
        let null = b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}\n";
        assert_eq!(
            decide(&mut s, null),
            [(Action::Attribute, Some(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"x"}}"#.to_owned()))]
        );
        // None outstanding, or two: nobody to give it to.
        assert_eq!(decide(&mut s, null), [(Action::Drop, None)]);
        s.sent(br#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#);
        s.sent(br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#);
        assert_eq!(decide(&mut s, null), [(Action::Drop, None)]);
        assert_eq!(s.outstanding(), 2);
    }

    #[test]
    fn what_is_no_message_is_answered_by_a_server_and_diverted_by_a_client() {
        let stream =
            b"{\"jsonrpc\":\"2.0\",\n[]\n\n{\"level\":\"info\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}\n";
        let parse_error = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
        let batch = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: this server doesn't accept batches"}}"#;
        let method = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the method must be a string, not a number"}}"#;
        let mut server = Session::new(Role::Server, Profile::Mcp);
        assert_eq!(
            decide(&mut server, stream),
            [
                (Action::Answer, Some(parse_error.to_owned())),
                (Action::Answer, Some(batch.to_owned())),
                (Action::Drop, None),
                (Action::Drop, None),
                (Action::Answer, Some(method.to_owned())),
            ]
        );
        let mut client = Session::new(Role::Client, Profile::Mcp);
        assert_eq!(
            decide(&mut client, stream),
            [
                (Action::Divert, None),
                (Action::Divert, None),
                (Action::Divert, None),
                (Action::Divert, None),
                (Action::Answer, Some(method.to_owned())),
            ]
        );
        // Too long: dropped in either role.
        let long = [vec![b'x'; 100], b"\n".to_vec()].concat();
        assert_eq!(decide_within(&mut client, &long, 64), [(Action::Drop, None)]);
    }

    #[test]
    fn the_jsonrpc_profile_forwards_every_message_and_tracks_nothing() {
        let mut s = Session::new(Role::Server, Profile::JsonRpc);
        s.sent(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#);
        assert_eq!(s.outstanding(), 0);
        let stream =
            b"{\"id\":null,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"error\":{}}\n{\"id\":1,\"result\":5}\n";
        assert_eq!(decide(&mut s, stream), vec![(Action::Forward, None); 3]);
        // The MCP profile answers a null id itself.
        let mut mcp = Session::new(Role::Server, Profile::Mcp);
        let null_id = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an MCP id must be a string or an integer, not null"}}"#;
        assert_eq!(
            decide(&mut mcp, b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n"),
            [(Action::Answer, Some(null_id.to_owned()))]
        );
    }

    #[test]
    fn a_refused_line_is_answered_substituted_or_dropped() {
        let mut s = Session::new(Role::Server, Profile::Mcp);
        let request = s.refused(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        assert_eq!(request.action, Action::Answer);
        assert_eq!(
            request.text.as_deref(),
            Some(
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}"#
            )
        );
        let response = s.refused(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
        assert_eq!((response.action, response.text.as_deref()), (Action::Substitute, Some(SUBSTITUTE_7)));
        let notification = s.refused(br#"{"jsonrpc":"2.0","method":"notifications/x"}"#);
        assert_eq!((notification.action, notification.text), (Action::Drop, None));
        assert!(notification.note.is_some());
    }

    #[test]
    fn a_peer_that_never_answers_cannot_grow_the_session_without_bound() {
        let mut s = Session::new(Role::Client, Profile::Mcp);
        for n in 0..MAX_OUTSTANDING + 100 {
            s.sent(format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"ping"}}"#).as_bytes());
        }
        assert_eq!(s.outstanding(), MAX_OUTSTANDING);
        // The same id twice is one request outstanding.
        let mut t = Session::new(Role::Client, Profile::Mcp);
        t.sent(br#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#);
        t.sent(br#"{"jsonrpc":"2.0","id":"\u0078","method":"ping"}"#);
        assert_eq!(t.outstanding(), 1);
        let long = format!(r#"{{"jsonrpc":"2.0","id":"{}","method":"ping"}}"#, "y".repeat(MAX_OUTSTANDING_BYTES));
        t.sent(long.as_bytes());
        assert_eq!(t.outstanding(), 1, "an id past the byte bound is not kept");
    }

    #[test]
    fn a_message_some_sdk_reader_would_refuse_as_it_stands_is_forwarded_normalized() {
        let mut s = Session::new(Role::Server, Profile::Mcp);
        let stream =
            b" {\"jsonrpc\" : 2.0, \"id\":7,\r\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"a\": \"b c\"}}\t\n\
{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n";
        assert_eq!(
            decide(&mut s, stream),
            [
                (Action::Forward, Some(r#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":"b c"}}"#.to_owned())),
                (Action::Forward, Some(r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#.to_owned())),
                (Action::Forward, None),
            ]
        );
        // The JSON-RPC profile hands every line on as it stands.
        let mut j = Session::new(Role::Server, Profile::JsonRpc);
        assert!(decide(&mut j, stream).iter().all(|d| d == &(Action::Forward, None)));
    }

    #[test]
    fn every_request_whose_id_is_in_the_line_is_answered_by_it() {
        // SPEC 10.6: a byte order mark, a batch, a damaged line, a line too
        // long to read, each from a host waiting on its requests.
        let mut s = Session::new(Role::Server, Profile::Mcp);
        let stream = [
            &b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}\n"[..],
            b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":\"2\",\"method\":\"tools/list\"}]\n",
            b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"arguments\":{\"text\":\"a\xFFb\"}}}\n",
            b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"arguments\":{\"text\":\"",
            &[b'x'; 200],
            b"\"}}}\n",
        ]
        .concat();
        let batch = |id: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"message":"Invalid Request: MCP has no batches; send each request on its own line"}}}}"#
            )
        };
        assert_eq!(
            decide_within(&mut s, &stream, 128),
            [
                (Action::Forward, Some(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#.to_owned())),
                (Action::Answer, Some(format!("{}\n{}", batch("1"), batch(r#""2""#)))),
                (Action::Answer, Some(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"Parse error"}}"#.to_owned())),
                (
                    Action::Answer,
                    Some(
                        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}"#
                            .to_owned()
                    )
                ),
            ]
        );
        // A client reads no reply into a damaged line: it diverts it.
        let mut client = Session::new(Role::Client, Profile::Mcp);
        assert_eq!(decide(&mut client, &stream[..stream.len() - 206]).last(), Some(&(Action::Divert, None)));
    }

    #[test]
    fn a_damaged_or_too_long_response_is_substituted_while_its_id_is_outstanding() {
        let mut s = Session::new(Role::Client, Profile::Mcp);
        let damaged = b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"\xFF\"}}\n";
        assert_eq!(decide(&mut s, damaged), [(Action::Divert, None)]);
        s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call"}"#);
        assert_eq!(decide(&mut s, damaged), [(Action::Substitute, Some(SUBSTITUTE_7.to_owned()))]);
        assert_eq!(s.outstanding(), 0);
        // Too long, in pieces: its first bytes hold the id.
        s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call"}"#);
        let mut reader = Reader::with_profile(64, Profile::Mcp);
        let mut got = Vec::new();
        for piece in [&b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\""[..], &[b'y'; 100], b"\"}}\n"] {
            got.extend(reader.feed(piece).unwrap().map(|line| s.decide(&line)));
        }
        assert_eq!(got.len(), 1);
        assert_eq!((got[0].action, got[0].text.as_deref()), (Action::Substitute, Some(SUBSTITUTE_7)));
        // The JSON-RPC profile reads no head: dropped as before.
        let mut j = Session::new(Role::Server, Profile::JsonRpc);
        let long = [&b"{\"id\":1,\"method\":\"m\",\"params\":\""[..], &[b'z'; 100], b"\"}\n"].concat();
        assert_eq!(decide_within(&mut j, &long, 64), [(Action::Drop, None)]);
    }

    #[test]
    fn a_server_drops_a_response_nobody_waits_for_and_a_client_forwards_it() {
        // SPEC 10.8 (a): rmcp's server ends its session on such a line.
        let stray = b"{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}\n";
        let mut server = Session::new(Role::Server, Profile::Mcp);
        assert_eq!(decide(&mut server, stray), [(Action::Drop, None)]);
        server.sent(br#"{"jsonrpc":"2.0","id":9,"method":"roots/list"}"#);
        assert_eq!(decide(&mut server, stray), [(Action::Forward, None)]);
        assert_eq!(decide(&mut server, stray), [(Action::Drop, None)], "answered once");
        let mut client = Session::new(Role::Client, Profile::Mcp);
        assert_eq!(decide(&mut client, stray), [(Action::Forward, None)]);
        let mut jsonrpc = Session::new(Role::Server, Profile::JsonRpc);
        assert_eq!(decide(&mut jsonrpc, stray), [(Action::Forward, None)]);
        // Once a request went untracked, an unmatched response may be its.
        for n in 0..=MAX_OUTSTANDING {
            server.sent(format!(r#"{{"jsonrpc":"2.0","id":"r{n}","method":"ping"}}"#).as_bytes());
        }
        assert_eq!(decide(&mut server, stray), [(Action::Forward, None)]);
    }

    #[test]
    fn action_names_are_the_records_words() {
        let names: Vec<_> = Action::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(names, ["forwarded", "answered", "substituted", "attributed", "dropped", "diverted"]);
        assert!(Action::Substitute.hands_on() && !Action::Divert.hands_on());
    }
}
