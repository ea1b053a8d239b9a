//! The relay: one object that sees both directions of a session (the shape
//! of h11's `Connection`), for everything that stands on the path of MCP
//! traffic: the guard between a host and a server, an SDK's transport
//! between a pipe and the SDK, `lint --recording` replaying a guard's
//! record, the probe reading a server it writes to.
//!
//! A [`Relay`] holds the [`Session`] of each [`Direction`], both in one
//! profile, each read in the role its direction's receiver has. It decides
//! each line read and keeps the bookkeeping that ties the two directions
//! together: what a direction hands on is written to the peer whose lines
//! the other direction reads, so a request handed on is outstanding there
//! until that peer's response names it; an answer goes back the way the line
//! came. The caller reads bytes, carries out each [`Decision`] (its action
//! says where the text goes: [`Action::goes`]), writes and logs; it tells
//! the relay of the lines that reach a peer not through it ([`Relay::wrote`]:
//! an SDK's own messages) and of a line its receiver refused
//! ([`Relay::refused`], settled within two refusals).
//!
//! Sans-I/O: nothing here reads, writes or waits. Used by one thread at a
//! time (a caller with a thread per direction puts it behind a lock, and
//! gives each direction a [`Reader`](crate::Reader) of its own: [`Relay::reader`]).

use crate::Role;
use crate::fallible::{self, OutOfMemory};
use crate::reader::Line;
use crate::rules::{Classification, Kind, Profile};
use crate::session::{Action, Decision, Refusal, Session, Verdict};

/// Which way a line travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the host (the client) to the server: read as a server reads it.
    ToServer,
    /// From the server to the host: read as a host reads it.
    ToHost,
}

impl Direction {
    /// Both directions, to the server first.
    pub const BOTH: [Direction; 2] = [Direction::ToServer, Direction::ToHost];

    /// The direction an endpoint in `role` reads: a server reads what goes
    /// to the server.
    pub const fn read_by(role: Role) -> Direction {
        match role {
            Role::Server => Direction::ToServer,
            Role::Client => Direction::ToHost,
        }
    }

    /// The role the direction's lines are read in: that of their receiver.
    pub const fn role(self) -> Role {
        match self {
            Direction::ToServer => Role::Server,
            Direction::ToHost => Role::Client,
        }
    }

    /// The other direction: the way back to a line's sender.
    pub const fn other(self) -> Direction {
        match self {
            Direction::ToServer => Direction::ToHost,
            Direction::ToHost => Direction::ToServer,
        }
    }

    const fn index(self) -> usize {
        match self {
            Direction::ToServer => 0,
            Direction::ToHost => 1,
        }
    }
}

named!(Direction {
    ToServer => c"to_server",
    ToHost => c"to_host",
});

impl Direction {
    /// The direction of a name ([`Direction::name`]).
    pub fn from_name(name: &str) -> Option<Direction> {
        Direction::BOTH.into_iter().find(|dir| dir.name() == name)
    }
}

impl Action {
    /// Where the text of a line read in `dir` goes (the line itself, for a
    /// forward without a text): on in `dir` when the action hands it on,
    /// back in the other direction for an answer, nowhere for a drop or a
    /// diversion (only the log).
    pub fn goes(self, dir: Direction) -> Option<Direction> {
        match self {
            Action::Forward | Action::Substitute | Action::Attribute => Some(dir),
            Action::Answer => Some(dir.other()),
            Action::Drop | Action::Divert => None,
        }
    }
}

/// Both directions of one session. See the module's documentation.
#[derive(Debug, Clone)]
pub struct Relay {
    sessions: [Session; 2],
    max_line: usize,
    pass_invalid: bool,
    /// The one direction read, for a relay that stands at an endpoint
    /// ([`Relay::reading`]); `None`: both are.
    only: Option<Direction>,
}

impl Relay {
    /// A relay reading both directions by `profile`, with lines of at most
    /// `max_line` bytes (LF excluded; 0: the profile's default,
    /// [`Profile::default_max_line`]).
    pub fn new(profile: Profile, max_line: usize) -> Relay {
        let max_line = if max_line == 0 { profile.default_max_line() } else { max_line };
        let sessions = Direction::BOTH.map(|dir| Session::new(dir.role(), profile));
        Relay { sessions, max_line, pass_invalid: false, only: None }
    }

    /// A relay of which only `dir` is read: an endpoint's (an SDK's
    /// transport reads its peer, and its SDK's own lines go the other way
    /// through [`Relay::wrote`]). What it hands on is then not tracked,
    /// since no line the other way is decided by it.
    pub fn reading(dir: Direction, profile: Profile, max_line: usize) -> Relay {
        Relay { only: Some(dir), ..Relay::new(profile, max_line) }
    }

    /// The same relay, but a line owed an answer is handed on instead,
    /// with no text (the guard's `--pass-invalid`: the server answers it,
    /// or not, as it would without a guard).
    pub fn passing_invalid(mut self) -> Relay {
        self.pass_invalid = true;
        self
    }

    pub fn profile(&self) -> Profile {
        self.sessions[0].profile()
    }

    /// The longest line read, in bytes, LF excluded.
    pub fn max_line(&self) -> usize {
        self.max_line
    }

    /// A reader for the lines of one direction: this relay's profile and
    /// line limit.
    pub fn reader(&self) -> crate::Reader {
        crate::Reader::with_profile(self.max_line, self.profile())
    }

    /// The session that reads `dir`.
    pub fn session(&self, dir: Direction) -> &Session {
        &self.sessions[dir.index()]
    }

    /// How many requests written toward the sender of `dir`'s lines still
    /// wait for its response.
    pub fn outstanding(&self, dir: Direction) -> usize {
        self.session(dir).outstanding()
    }

    /// Decides a line read in `dir` (by a reader of this relay's), and
    /// notes what the decision sends where.
    pub fn decide(&mut self, dir: Direction, line: &Line<'_>) -> Decision {
        self.try_decide(dir, line).unwrap_or_else(|OutOfMemory| fallible::abort())
    }

    /// [`Relay::decide`], failing instead of aborting when memory runs out
    /// (then the session may have marked the request a response answers as
    /// answered).
    pub fn try_decide(&mut self, dir: Direction, line: &Line<'_>) -> Result<Decision, OutOfMemory> {
        let mut decision = self.sessions[dir.index()].try_decide(line)?;
        if self.passes(decision.action) {
            decision = Decision { action: Action::Forward, text: None, note: None };
        }
        if let (Action::Forward, Line::Complete { classification, .. }) = (decision.action, line) {
            self.handed_on(dir, classification)?;
        }
        Ok(decision)
    }

    /// Notes what a decision for a line read in `dir` sends: only a request
    /// changes a session (its id is outstanding on the far side until that
    /// side's response names it), and of what a relay decides only a
    /// forward carries one (in its normal form, a request keeps its id). An
    /// answer, a substitute and an attributed error are responses.
    pub(crate) fn handed_on(&mut self, dir: Direction, c: &Classification<'_>) -> Result<(), OutOfMemory> {
        if self.only == Some(dir) {
            return Ok(());
        }
        self.sessions[dir.other().index()].try_sent(c)
    }

    /// Whether `action`, an answer this relay passes
    /// ([`Relay::passing_invalid`]), becomes a forward.
    fn passes(&self, action: Action) -> bool {
        self.pass_invalid && action == Action::Answer
    }

    /// [`Relay::try_decide`] before the text is written, for the C ABI,
    /// which places the text itself ([`Session::text`] says where it comes
    /// from): a line within the limit, classified `c`.
    pub(crate) fn verdict(&mut self, dir: Direction, c: &Classification<'_>) -> Result<Verdict, OutOfMemory> {
        let mut verdict = self.sessions[dir.index()].verdict(c)?;
        if self.passes(verdict.action) {
            verdict = Verdict::forward();
        }
        if verdict.action == Action::Forward {
            self.handed_on(dir, c)?;
        }
        Ok(verdict)
    }

    /// The same for a line over the limit, whose first bytes hold `head`,
    /// if anything: never forwarded, so nothing to note.
    pub(crate) fn verdict_too_long(
        &mut self,
        dir: Direction,
        head: Option<&Classification<'_>>,
    ) -> Result<Verdict, OutOfMemory> {
        let verdict = self.sessions[dir.index()].verdict_too_long(head)?;
        Ok(if self.passes(verdict.action) { Verdict::forward() } else { verdict })
    }

    /// [`Relay::refused`] for a line classified `c`, for the C ABI.
    pub(crate) fn refusal<'c>(
        &mut self,
        dir: Direction,
        c: &'c Classification<'c>,
        line: &[u8],
    ) -> Result<Refusal<'c>, OutOfMemory> {
        let refusal = self.sessions[dir.index()].refusal(c, line)?;
        if refusal.action == Action::Answer {
            self.answered_back(dir, c)?;
        }
        Ok(refusal)
    }

    /// Tells the relay of a line written in `dir` not by it: an SDK's own
    /// message on its way to the peer, the probe's request. A request's id
    /// is then outstanding until a line read the other way answers it; a
    /// response answers the request of `dir`'s sender it names, as if read
    /// (an SDK's answer to a request the relay handed it).
    pub fn wrote(&mut self, dir: Direction, line: &[u8]) {
        self.try_wrote(dir, line).unwrap_or_else(|OutOfMemory| fallible::abort())
    }

    /// [`Relay::wrote`], failing instead of aborting when memory runs out
    /// (then nothing changed).
    pub fn try_wrote(&mut self, dir: Direction, line: &[u8]) -> Result<(), OutOfMemory> {
        let c = self.profile().try_classify(line)?;
        self.wrote_classified(dir, &c)
    }

    /// [`Relay::try_wrote`] for a line already classified by this profile.
    pub(crate) fn wrote_classified(&mut self, dir: Direction, c: &Classification<'_>) -> Result<(), OutOfMemory> {
        self.handed_on(dir, c)?;
        if matches!(c.kind, Kind::Response | Kind::InvalidResponse) {
            self.sessions[dir.index()].answered(c)?;
        }
        Ok(())
    }

    /// What to do instead when the receiver of `dir` (an SDK's own decoder)
    /// refused `line`, a line or text this relay handed on in `dir`
    /// (SPEC §10.4): answer a request, hand on a response's substitute, or
    /// drop it; and a substitute refused in its turn is dropped
    /// ([`Session::refused`]), so that a caller that hands on what this
    /// says, and asks again when that is refused, stops by the second
    /// refusal.
    pub fn refused(&mut self, dir: Direction, line: &[u8]) -> Decision {
        let decision = self.sessions[dir.index()].refused(line);
        if decision.action == Action::Answer {
            let c = self.profile().classify(line);
            self.answered_back(dir, &c).unwrap_or_else(|OutOfMemory| fallible::abort());
        }
        decision
    }

    /// A request read in `dir`, and handed on, is answered by the relay
    /// itself: the request is no longer outstanding where it was handed.
    fn answered_back(&mut self, dir: Direction, c: &Classification<'_>) -> Result<(), OutOfMemory> {
        self.sessions[dir.other().index()].answered(c).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decisions of `stream`, read in `dir`, as (action, text).
    fn read(relay: &mut Relay, dir: Direction, stream: &[u8]) -> Vec<(Action, Option<String>)> {
        let mut reader = relay.reader();
        let lines: Vec<_> = reader.feed(stream).unwrap().map(|line| relay.decide(dir, &line)).collect();
        lines.into_iter().map(|d| (d.action, d.text)).collect()
    }

    const PING_7: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n";
    const BAD_RESULT_7: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n";
    const SUBSTITUTE_7: &str = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}"#;

    #[test]
    fn a_request_handed_on_one_way_is_outstanding_for_the_other() {
        let mut relay = Relay::new(Profile::Mcp, 0);
        assert_eq!(read(&mut relay, Direction::ToServer, PING_7), [(Action::Forward, None)]);
        assert_eq!((relay.outstanding(Direction::ToHost), relay.outstanding(Direction::ToServer)), (1, 0));
        // The server's invalid response to it is substituted once, then the
        // request is answered and the same line is dropped.
        assert_eq!(
            read(&mut relay, Direction::ToHost, BAD_RESULT_7),
            [(Action::Substitute, Some(SUBSTITUTE_7.to_owned()))]
        );
        assert_eq!(read(&mut relay, Direction::ToHost, BAD_RESULT_7), [(Action::Drop, None)]);
    }

    #[test]
    fn a_line_written_by_another_is_noted_as_one_handed_on() {
        let mut relay = Relay::new(Profile::Mcp, 0);
        // A server transport: the SDK writes a request to the host.
        relay.wrote(Direction::ToHost, br#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#);
        assert_eq!(relay.outstanding(Direction::ToServer), 1);
        let null_error = b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}\n";
        assert_eq!(
            read(&mut relay, Direction::ToServer, null_error),
            [(
                Action::Attribute,
                Some(r#"{"jsonrpc":"2.0","id":"s1","error":{"code":-32600,"message":"x"}}"#.to_owned())
            )]
        );
        assert_eq!(relay.outstanding(Direction::ToServer), 0);
    }

    #[test]
    fn an_answer_goes_back_and_changes_neither_side() {
        let mut relay = Relay::new(Profile::Mcp, 0);
        let decisions = read(&mut relay, Direction::ToServer, b"[1]\n");
        assert_eq!(decisions[0].0, Action::Answer);
        assert_eq!(Action::Answer.goes(Direction::ToServer), Some(Direction::ToHost));
        assert_eq!(Action::Substitute.goes(Direction::ToHost), Some(Direction::ToHost));
        assert_eq!(Action::Divert.goes(Direction::ToHost), None);
        assert_eq!((relay.outstanding(Direction::ToHost), relay.outstanding(Direction::ToServer)), (0, 0));
    }

    #[test]
    fn passing_invalid_hands_on_what_would_be_answered() {
        let mut relay = Relay::new(Profile::Mcp, 0).passing_invalid();
        assert_eq!(read(&mut relay, Direction::ToServer, b"[1]\n"), [(Action::Forward, None)]);
        let bad_id = b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n";
        assert_eq!(read(&mut relay, Direction::ToServer, bad_id), [(Action::Forward, None)]);
        // An invalid request tracks nothing on the far side.
        assert_eq!(relay.outstanding(Direction::ToHost), 0);
    }

    #[test]
    fn the_line_limit_is_the_profiles_unless_given() {
        assert_eq!(Relay::new(Profile::Mcp, 0).max_line(), Profile::Mcp.default_max_line());
        assert_eq!(Relay::new(Profile::JsonRpc, 0).reader().max_line(), Profile::JsonRpc.default_max_line());
        assert_eq!(Relay::new(Profile::Mcp, 64).reader().max_line(), 64);
        assert_eq!(Relay::new(Profile::Mcp, 64).reader().profile(), Profile::Mcp);
    }

    #[test]
    fn directions_have_names_roles_and_ways_back() {
        for dir in Direction::BOTH {
            assert_eq!(Direction::from_name(dir.name()), Some(dir));
            assert_eq!(Direction::read_by(dir.role()), dir);
            assert_eq!(dir.other().other(), dir);
        }
        assert_eq!(Direction::ToServer.name(), "to_server");
        assert_eq!(Direction::from_name("sideways"), None);
    }

    #[test]
    fn a_relay_read_one_way_tracks_nothing_the_other_way() {
        let mut relay = Relay::reading(Direction::ToServer, Profile::Mcp, 0);
        assert_eq!(read(&mut relay, Direction::ToServer, PING_7), [(Action::Forward, None)]);
        assert_eq!(relay.outstanding(Direction::ToHost), 0);
        relay.wrote(Direction::ToHost, br#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#);
        assert_eq!(relay.outstanding(Direction::ToServer), 1);
    }

    #[test]
    fn a_response_written_answers_the_request_handed_on() {
        let mut relay = Relay::new(Profile::Mcp, 0);
        read(&mut relay, Direction::ToServer, PING_7);
        assert_eq!(relay.outstanding(Direction::ToHost), 1);
        relay.wrote(Direction::ToHost, br#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
        assert_eq!(relay.outstanding(Direction::ToHost), 0);
    }

    #[test]
    fn a_request_refused_and_answered_is_not_outstanding() {
        let mut relay = Relay::new(Profile::Mcp, 0);
        read(&mut relay, Direction::ToServer, PING_7);
        assert_eq!(relay.outstanding(Direction::ToHost), 1);
        let decision = relay.refused(Direction::ToServer, &PING_7[..PING_7.len() - 1]);
        assert_eq!(decision.action, Action::Answer);
        assert_eq!(relay.outstanding(Direction::ToHost), 0);
    }

    #[test]
    fn the_json_rpc_profile_tracks_nothing() {
        let mut relay = Relay::new(Profile::JsonRpc, 0);
        assert_eq!(read(&mut relay, Direction::ToServer, PING_7), [(Action::Forward, None)]);
        assert_eq!(relay.outstanding(Direction::ToHost), 0);
    }
}
