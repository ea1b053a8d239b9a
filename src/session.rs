//! The session policy (SPEC §8, §9, §10.4): what an endpoint does with each
//! line it reads, decided once, here, for the guard, `lint` and every SDK
//! transport. Sans-I/O: the caller reads and writes; a [`Session`] turns
//! each line read into a [`Decision`] (forward it, answer it, hand on a
//! substitute or an attributed error in its place, drop or divert it), and
//! keeps the ids of the requests written the other way that are still
//! outstanding, for substitutes and the handshake rule.
//!
//! What each decision's text is, and where it comes from, is decided here
//! too (`session/text.rs`): the Rust API joins it into a `String`, the C ABI places
//! its bytes, and neither decides anything of it.

pub(crate) mod text;

use std::collections::HashMap;
use std::ffi::CStr;

use crate::fallible::{self, OutOfMemory};
use crate::reader::Line;
use crate::reply::Role;
use crate::rules::{Classification, IdKey, IdKind, Kind, Profile};
use text::{Pieces, Text};

/// What to do with a line. Its name is the one word for it everywhere: the
/// guard's recording, the transports' log records, `lint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Hand the line on: its bytes as they stand, or, where the decision
    /// has a text, that text instead (in the MCP profile, the line's normal
    /// form, when not every SDK's reader takes its bytes: SPEC 10.5).
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
    pub const REFUSED_SUBSTITUTE: &CStr = c"the receiving SDK's decoder refused the substitute too";
    pub const UNASKED: &CStr = c"a response nobody waits for: no request of ours has its id";
}

/// What a session decided for one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub action: Action,
    /// For [`Action::Answer`], the reply to send back; for
    /// [`Action::Substitute`] and [`Action::Attribute`], the line to hand
    /// on in the read line's place; for [`Action::Forward`], in the MCP
    /// profile, the line's normal form to hand on instead of its bytes
    /// where not every SDK's reader takes them as they stand (SPEC 10.5);
    /// `None` otherwise.
    pub text: Option<String>,
    /// Why, for every action but [`Action::Forward`]: a fixed text for a
    /// record or a log line.
    pub note: Option<&'static str>,
}

/// A decision before its text is written; [`Session::text`] says where the
/// text comes from.
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

    /// Hand the line on.
    pub(crate) const fn forward() -> Verdict {
        Verdict { action: Action::Forward, note: None, id: None }
    }
}

impl Decision {
    /// The decision of `verdict`, with its text joined.
    fn of(verdict: &Verdict, text: Text<'_>) -> Decision {
        Decision { action: verdict.action, text: text.into_string(), note: verdict.note.map(notes_text) }
    }
}

/// What a session decides for a line the receiving SDK's decoder refused
/// ([`Session::refused`]), before its text is written.
#[derive(Debug)]
pub(crate) struct Refusal<'c> {
    pub action: Action,
    pub note: &'static CStr,
    /// The reply to write back, or the substitute to hand on.
    pub text: Option<Pieces<'c>>,
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
                Decision::of(&verdict, self.text(&verdict, head.as_ref(), &[]))
            }
            Line::Complete { classification, bytes, .. } => {
                let verdict = self.verdict(classification)?;
                Decision::of(&verdict, self.text(&verdict, Some(classification), bytes))
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
    ///
    /// A second refusal settles it: a refused line that is, byte for byte,
    /// the substitute it would be replaced with (the SDK refused the
    /// substitute this session handed on, from a decision or from an
    /// earlier refusal) is dropped, with a note that says so, so that a
    /// caller that hands on what this says and asks again when that is
    /// refused stops there. (The reply to a refused request goes back to
    /// the peer, never to the SDK, so it is never refused in its turn.)
    pub fn refused(&mut self, line: &[u8]) -> Decision {
        let c = self.profile.classify(line);
        let refusal = self.refusal(&c, line).unwrap_or_else(|OutOfMemory| fallible::abort());
        Decision {
            action: refusal.action,
            text: refusal.text.map(|text| text.joined()),
            note: Some(notes_text(refusal.note)),
        }
    }

    /// The decision of [`Session::refused`] for the line `line`, classified
    /// `c`: its action, note and text, for the Rust API and the C ABI
    /// alike.
    pub(crate) fn refusal<'c>(&mut self, c: &'c Classification<'c>, line: &[u8]) -> Result<Refusal<'c>, OutOfMemory> {
        let (action, text) = match c.refused() {
            Some(owed) if c.kind == Kind::Request => (Action::Answer, Pieces::Owed(owed)),
            Some(owed) => {
                self.answered(c)?;
                let substitute = Pieces::Owed(owed);
                if substitute.is(line) {
                    return Ok(Refusal { action: Action::Drop, note: notes::REFUSED_SUBSTITUTE, text: None });
                }
                (Action::Substitute, substitute)
            }
            None => return Ok(Refusal { action: Action::Drop, note: notes::REFUSED, text: None }),
        };
        Ok(Refusal { action, note: notes::REFUSED, text: Some(text) })
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
    pub(crate) fn answered(&mut self, c: &Classification<'_>) -> Result<bool, OutOfMemory> {
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

#[cfg(test)]
mod tests;
