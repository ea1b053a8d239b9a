//! Every line the server writes, read as an MCP client reads it (the
//! library's relay, the direction to the host, SPEC §11): a line a client cannot
//! read, an invalid response or request, or a request in an era that
//! forbids a server's requests on stdio is a failure with its grade.

use jsonrpc_envelope::{Action, Direction, Kind, Line, Profile, Reason, Relay, ResponseFault};

use super::era::Era;
use super::judge::Grade;

/// What is wrong with a line on the server's stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fault {
    /// Not JSON-RPC at all (a banner, a log line): the client's session
    /// diverts it.
    NotJsonRpc,
    /// A batch, which MCP has not.
    NotOneMessage,
    /// Longer than a client reads.
    TooLong,
    /// A response the profile refuses (`invalid_response`).
    InvalidResponse,
    /// A request the profile refuses (`invalid_request`).
    InvalidRequest,
    /// A request, where the era forbids a server's requests on stdio
    /// (2026-07-28).
    ForbiddenRequest,
}

impl Fault {
    pub const ALL: [Fault; 6] = [
        Fault::NotJsonRpc,
        Fault::NotOneMessage,
        Fault::TooLong,
        Fault::InvalidResponse,
        Fault::InvalidRequest,
        Fault::ForbiddenRequest,
    ];

    /// The name the JSON report uses.
    pub fn key(self) -> &'static str {
        match self {
            Fault::NotJsonRpc => "not_jsonrpc",
            Fault::NotOneMessage => "not_one_message",
            Fault::TooLong => "too_long",
            Fault::InvalidResponse => "invalid_response",
            Fault::InvalidRequest => "invalid_request",
            Fault::ForbiddenRequest => "forbidden_request",
        }
    }

    /// What the text report says.
    pub fn words(self) -> &'static str {
        match self {
            Fault::NotJsonRpc => "not JSON-RPC",
            Fault::NotOneMessage => "not one message",
            Fault::TooLong => "longer than a client reads",
            Fault::InvalidResponse => "an invalid response",
            Fault::InvalidRequest => "an invalid request",
            Fault::ForbiddenRequest => "a request, which the era forbids a server to write on stdio",
        }
    }
}

/// The probe's relay: the requests it writes to the server, and the
/// server's stdout read as a host reads it.
pub struct Judge {
    relay: Relay,
    era: Era,
}

impl Judge {
    pub fn new(profile: Profile, era: Era) -> Judge {
        Judge { relay: Relay::reading(Direction::ToHost, profile, 0), era }
    }

    /// Tells the relay of a request the probe wrote to the server.
    pub fn sent(&mut self, line: &[u8]) {
        self.relay.wrote(Direction::ToServer, line);
    }

    /// The fault of one line the server wrote, and its grade.
    pub fn line(&mut self, bytes: &[u8]) -> Option<(Fault, Grade)> {
        let c = self.relay.profile().classify(bytes);
        let portability = c.reason.as_ref().is_some_and(|r| r.is_portability());
        let graded = |fault| Some((fault, if portability { Grade::Strict } else { Grade::Nonconforming }));
        let kind = c.kind;
        let echoes_a_refused_id = c.has_error && matches!(c.reason, Some(Reason::McpResponse(ResponseFault::Id(_))));
        let decided = self.relay.decide(Direction::ToHost, &Line::Complete { number: 1, bytes, classification: c });
        match kind {
            // An error that echoes a request's id MCP refuses: JSON-RPC
            // wants the id echoed as it came, and the library's own reply
            // to such a request is this line.
            Kind::InvalidResponse if echoes_a_refused_id => None,
            Kind::Batch => Some((Fault::NotOneMessage, Grade::Harmful)),
            _ if decided.action == Action::Divert => Some((Fault::NotJsonRpc, Grade::Harmful)),
            Kind::InvalidResponse => graded(Fault::InvalidResponse),
            Kind::InvalidRequest => graded(Fault::InvalidRequest),
            Kind::Request if self.era == Era::Modern => Some((Fault::ForbiddenRequest, Grade::Nonconforming)),
            _ => None,
        }
    }

    /// A line over the library's limit.
    pub fn too_long(&self) -> (Fault, Grade) {
        (Fault::TooLong, Grade::Harmful)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_client_cannot_read_is_harmful_and_an_invalid_response_is_not() {
        let mut judge = Judge::new(Profile::Mcp, Era::Legacy);
        assert_eq!(judge.line(b"server 1.0 listening"), Some((Fault::NotJsonRpc, Grade::Harmful)));
        assert_eq!(judge.line(br#"[{"jsonrpc":"2.0","method":"x"}]"#), Some((Fault::NotOneMessage, Grade::Harmful)));
        let null_result = br#"{"jsonrpc":"2.0","id":"p","result":null}"#;
        assert_eq!(judge.line(null_result), Some((Fault::InvalidResponse, Grade::Nonconforming)));
        let no_jsonrpc = br#"{"id":"p","result":null}"#;
        assert!(judge.line(no_jsonrpc).is_some());
        let big_code = br#"{"jsonrpc":"2.0","id":"p","error":{"code":4294967296,"message":"m"}}"#;
        assert_eq!(judge.line(big_code), Some((Fault::InvalidResponse, Grade::Strict)));
        assert_eq!(judge.line(br#"{"jsonrpc":"2.0","id":"p","result":{}}"#), None);
        let echoed = br#"{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"m"}}"#;
        assert_eq!(judge.line(echoed), None);
        let served = br#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#;
        assert_eq!(judge.line(served), Some((Fault::InvalidResponse, Grade::Nonconforming)));
        let request = br#"{"jsonrpc":"2.0","id":"s","method":"roots/list"}"#;
        assert_eq!(judge.line(request), None);
        assert_eq!(
            Judge::new(Profile::Mcp, Era::Modern).line(request),
            Some((Fault::ForbiddenRequest, Grade::Nonconforming))
        );
    }
}
