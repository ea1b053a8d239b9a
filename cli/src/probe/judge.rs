//! The verdict on one line, by meaning (SPEC §11): what the server wrote
//! back against what the library says a server owes the line. A reply is
//! met by a JSON-RPC response with the owed id (as a host compares ids,
//! the library's `same_id`) and the owed error code; its message is free
//! unless `--strict`. The rules are the library's: this only compares.

use clap::ValueEnum;
use jsonrpc_envelope::{Classification, IdKey, IdKind, Kind, Line, Profile, Reader, Role, classify};
use serde_json::Value;

/// How much a failure matters, worst first (SPEC §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, ValueEnum)]
pub enum Grade {
    /// A request left waiting, an answer with another id, a session that
    /// ended or hung, a line on stdout a client cannot read.
    Harmful,
    /// A reply JSON-RPC does not allow: a wrong code, a result for an
    /// invalid request, a reply where none is owed.
    Nonconforming,
    /// What only the MCP profile's portability rules ask (or, under
    /// `--strict`, the library's exact message).
    Strict,
}

impl Grade {
    pub const ALL: [Grade; 3] = [Grade::Harmful, Grade::Nonconforming, Grade::Strict];

    pub fn name(self) -> &'static str {
        match self {
            Grade::Harmful => "harmful",
            Grade::Nonconforming => "nonconforming",
            Grade::Strict => "strict",
        }
    }

    /// What the grade holds, for the report's first lines.
    pub fn meaning(self) -> &'static str {
        match self {
            Grade::Harmful => {
                "requests left waiting, answers with another id, sessions that ended or hung, lines a client cannot read"
            }
            Grade::Nonconforming => {
                "replies JSON-RPC does not allow: wrong codes, results for invalid requests, replies where none is owed"
            }
            Grade::Strict => "what only the MCP profile's portability rules ask",
        }
    }
}

/// What became of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The reply owed came back (by meaning), or the request's response
    /// did, or nothing was owed and no response came.
    Passed,
    /// A reply was owed and no response with its id came.
    Missing { owed: String },
    /// A response came that is not the reply owed: another code, a result
    /// for an error, or a response where none was owed.
    Wrong { owed: Option<String>, got: String },
    /// Under `--strict`: the owed id and code, another message.
    Worded { owed: String, got: String },
    /// A valid request went unanswered.
    Unanswered,
    /// A response came for the request, but with another id (rounded,
    /// re-encoded).
    DifferentId { got: String },
    /// The server ended (exit status or signal).
    Died { how: String },
    /// The server answered nothing, not even the keep-alive, in time.
    Hung,
}

impl Verdict {
    /// The verdict's name, as the reports spell it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Missing { .. } => "missing",
            Verdict::Wrong { .. } => "wrong",
            Verdict::Worded { .. } => "worded",
            Verdict::Unanswered => "unanswered",
            Verdict::DifferentId { .. } => "different_id",
            Verdict::Died { .. } => "died",
            Verdict::Hung => "hung",
        }
    }

    pub const NAMES: [&'static str; 8] =
        ["passed", "missing", "wrong", "worded", "unanswered", "different_id", "died", "hung"];

    pub fn owed(&self) -> Option<&str> {
        match self {
            Verdict::Missing { owed } | Verdict::Worded { owed, .. } => Some(owed),
            Verdict::Wrong { owed, .. } => owed.as_deref(),
            _ => None,
        }
    }
}

/// One reply owed: its exact text, and what meaning compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    /// The id it echoes; `None` for `null`.
    key: Option<IdKey>,
    code: Option<i64>,
    message: Option<String>,
}

impl Reply {
    fn of(text: &str) -> Reply {
        let c = classify(text.as_bytes());
        let (code, message) = error_of(text.as_bytes(), &c);
        Reply { text: text.to_owned(), key: IdKey::of(&c), code, message }
    }

    /// Whether someone waits for it: it echoes a request's id.
    fn waits(&self) -> bool {
        self.key.is_some()
    }
}

/// What the library says a server owes a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owed {
    /// Error replies, one per line of the library's reply (an MCP batch's
    /// reply has one per request, SPEC §10.6 (b)).
    Replies(Vec<Reply>),
    /// A valid request: any response with its id (`None`: a `null` id).
    Response {
        key: Option<IdKey>,
    },
    Nothing,
}

/// What a line is owed, and how a failure on it is graded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owing {
    pub owed: Owed,
    /// The profile refuses the line only for a portability rule
    /// (`Reason::is_portability`): JSON-RPC itself allows it.
    pub portability: bool,
    /// `--strict`: messages count.
    pub strict: bool,
}

impl Owing {
    pub fn of(line: &[u8], profile: Profile, strict: bool) -> Owing {
        let owing = |owed, portability| Owing { owed, portability, strict };
        // A line over the limit is never held: owed nothing (SPEC §6) but,
        // in the MCP profile, what its first bytes name (SPEC §10.6 (d)).
        if line.len() > profile.default_max_line() {
            // The probe's lines have no LF: the line ends with the stream.
            let mut reader = Reader::with_profile(0, profile);
            let _ = reader.feed(line);
            let owed = match reader.end().ok().and_then(|mut lines| lines.next()) {
                Some(Line::TooLong { head: Some(head), .. }) => {
                    head.reply(Role::Server).map_or(Owed::Nothing, |reply| replies(&reply))
                }
                _ => Owed::Nothing,
            };
            return owing(owed, false);
        }
        let c = profile.classify(line);
        let portability = c.reason.as_ref().is_some_and(|r| r.is_portability());
        let owed = match (c.reply(Role::Server), c.kind) {
            (Some(reply), _) => replies(&reply),
            (None, Kind::Request) => Owed::Response { key: IdKey::of(&c) },
            _ => Owed::Nothing,
        };
        owing(owed, portability)
    }

    /// Whether `response` (a line that is a JSON-RPC response) is one the
    /// line is owed, or answers its request: then nothing else need come
    /// for it (a reply may come late, after the keep-alive's answer).
    pub fn is_met(&self, got: &[Vec<u8>]) -> bool {
        match &self.owed {
            Owed::Replies(owed) => owed.iter().all(|reply| got.iter().any(|g| self.meets(reply, g))),
            Owed::Response { key } => responses(got).any(|(_, c)| has_key(&c, key.as_ref())),
            Owed::Nothing => true,
        }
    }

    /// The id a late answer would carry, when someone waits for one.
    pub fn awaited(&self) -> Vec<IdKey> {
        match &self.owed {
            Owed::Replies(owed) => owed.iter().filter_map(|r| r.key.clone()).collect(),
            Owed::Response { key } => key.iter().cloned().collect(),
            Owed::Nothing => Vec::new(),
        }
    }

    /// The awaited ids no response in `got` carries yet.
    pub fn unmet(&self, got: &[Vec<u8>]) -> Vec<IdKey> {
        let seen: Vec<IdKey> = responses(got).filter_map(|(_, c)| IdKey::of(&c)).collect();
        self.awaited().into_iter().filter(|key| !seen.contains(key)).collect()
    }

    fn meets(&self, reply: &Reply, line: &[u8]) -> bool {
        let c = classify(line);
        if c.kind != Kind::Response || !has_key(&c, reply.key.as_ref()) {
            return false;
        }
        let (code, message) = error_of(line, &c);
        code.is_some() && code == reply.code && (!self.strict || message == reply.message)
    }

    /// The verdict once the wait is over, `got` being every line the server
    /// wrote meanwhile but the answers to the probe's own requests.
    pub fn verdict(&self, got: &[Vec<u8>]) -> Verdict {
        let first_response = || responses(got).next().map(|(line, _)| text(line));
        match &self.owed {
            Owed::Replies(owed) => {
                let Some(reply) = owed.iter().find(|r| !got.iter().any(|g| self.meets(r, g))) else {
                    return Verdict::Passed;
                };
                let same_id = || responses(got).find(|(_, c)| has_key(c, reply.key.as_ref()));
                match same_id() {
                    Some((line, c)) => {
                        let (code, _) = error_of(line, &c);
                        if self.strict && code.is_some() && code == reply.code {
                            Verdict::Worded { owed: reply.text.clone(), got: text(line) }
                        } else {
                            Verdict::Wrong { owed: Some(reply.text.clone()), got: text(line) }
                        }
                    }
                    // No response by its id: one by another id (a request's
                    // id the server misread), or none (a `null` id's reply
                    // leaves the request waiting too).
                    None => match (first_response(), reply.waits()) {
                        // By an id none of the line's replies is owed by (a
                        // batch's other replies are its own).
                        (Some(_), true) if other_id(got, &self.awaited()).is_some() => {
                            Verdict::DifferentId { got: other_id(got, &self.awaited()).unwrap_or_default() }
                        }
                        (Some(got), false) => Verdict::Wrong { owed: Some(reply.text.clone()), got },
                        _ => Verdict::Missing { owed: reply.text.clone() },
                    },
                }
            }
            Owed::Response { .. } if self.is_met(got) => Verdict::Passed,
            Owed::Response { .. } => match first_response() {
                Some(got) => Verdict::DifferentId { got },
                None => Verdict::Unanswered,
            },
            Owed::Nothing => match first_response() {
                Some(got) => Verdict::Wrong { owed: None, got },
                None => Verdict::Passed,
            },
        }
    }

    /// The grade of a failing verdict (SPEC §11).
    pub fn grade(&self, verdict: &Verdict) -> Option<Grade> {
        // Whether the reply the verdict names (the first one unmet) echoes
        // a request's id.
        let waits = match &self.owed {
            Owed::Replies(owed) => {
                owed.iter().find(|r| Some(r.text.as_str()) == verdict.owed()).is_some_and(Reply::waits)
            }
            Owed::Response { key } => key.is_some(),
            Owed::Nothing => false,
        };
        Some(match verdict {
            Verdict::Passed => return None,
            Verdict::Died { .. } | Verdict::Hung | Verdict::Unanswered | Verdict::DifferentId { .. } => Grade::Harmful,
            // A request whose id is in the line got no response by it.
            Verdict::Missing { .. } if waits => Grade::Harmful,
            Verdict::Worded { .. } => Grade::Strict,
            _ if self.portability => Grade::Strict,
            _ => Grade::Nonconforming,
        })
    }
}

/// The first response in `got` by an id that is not one of `own`.
fn other_id(got: &[Vec<u8>], own: &[IdKey]) -> Option<String> {
    responses(got).find(|(_, c)| IdKey::of(c).is_some_and(|k| !own.contains(&k))).map(|(line, _)| text(line))
}

fn replies(text: &str) -> Owed {
    Owed::Replies(text.split('\n').map(Reply::of).collect())
}

/// Whether a line's id is `key` (`None`: the line's id is `null`).
fn has_key(c: &Classification<'_>, key: Option<&IdKey>) -> bool {
    match key {
        Some(key) => IdKey::of(c).as_ref() == Some(key),
        None => c.id_kind == IdKind::Null,
    }
}

/// The JSON-RPC responses among `lines`, with their classifications.
fn responses(lines: &[Vec<u8>]) -> impl Iterator<Item = (&[u8], Classification<'_>)> {
    lines.iter().filter_map(|line| {
        let c = classify(line);
        (c.kind == Kind::Response).then_some((line.as_slice(), c))
    })
}

/// A response's error code and message, where it has them.
fn error_of(line: &[u8], c: &Classification<'_>) -> (Option<i64>, Option<String>) {
    let Some(span) = c.spans.error else { return (None, None) };
    let Some(Ok(Value::Object(error))) =
        line.get(span.offset..span.offset + span.len).map(serde_json::from_slice::<Value>)
    else {
        return (None, None);
    };
    (error.get("code").and_then(Value::as_i64), error.get("message").and_then(Value::as_str).map(str::to_owned))
}

fn text(line: &[u8]) -> String {
    String::from_utf8_lossy(line).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&str]) -> Vec<Vec<u8>> {
        texts.iter().map(|t| t.as_bytes().to_vec()).collect()
    }

    #[test]
    fn a_reply_is_met_by_its_meaning_and_under_strict_by_its_text_too() {
        let owing = Owing::of(b"{oops", Profile::Mcp, false);
        let exact = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
        assert_eq!(owing.owed, Owed::Replies(vec![Reply::of(exact)]));
        let spaced = r#"{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}"#;
        let worded = r#"{"error":{"message":"Could not parse","code":-32700},"id":null,"jsonrpc":"2.0"}"#;
        for got in [exact, spaced, worded] {
            assert_eq!(owing.verdict(&lines(&[got])), Verdict::Passed, "{got}");
        }
        let strict = Owing { strict: true, ..owing.clone() };
        assert_eq!(strict.verdict(&lines(&[spaced])), Verdict::Passed);
        let verdict = strict.verdict(&lines(&[worded]));
        assert!(matches!(verdict, Verdict::Worded { .. }), "{verdict:?}");
        assert_eq!(strict.grade(&verdict), Some(Grade::Strict));

        let other_code = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#;
        let verdict = owing.verdict(&lines(&[other_code]));
        assert!(matches!(verdict, Verdict::Wrong { .. }));
        assert_eq!(owing.grade(&verdict), Some(Grade::Nonconforming));
        let verdict = owing.verdict(&[]);
        assert_eq!(verdict, Verdict::Missing { owed: exact.to_owned() });
        // Nobody waits for a reply with a null id.
        assert_eq!(owing.grade(&verdict), Some(Grade::Nonconforming));
    }

    #[test]
    fn a_request_left_waiting_or_answered_by_another_id_is_harmful() {
        let owing = Owing::of(br#"{"jsonrpc":"2.0","id":"\u0061","method":"ping"}"#, Profile::Mcp, false);
        assert_eq!(owing.verdict(&lines(&[r#"{"jsonrpc":"2.0","id":"a","result":{}}"#])), Verdict::Passed);
        assert_eq!(owing.verdict(&lines(&["banner"])), Verdict::Unanswered);
        assert_eq!(owing.grade(&Verdict::Unanswered), Some(Grade::Harmful));
        let other = owing.verdict(&lines(&[r#"{"jsonrpc":"2.0","id":"b","result":{}}"#]));
        assert!(matches!(other, Verdict::DifferentId { .. }));
        assert_eq!(owing.grade(&other), Some(Grade::Harmful));

        // A damaged request (SPEC 10.6 (c)): owed -32700 by its id.
        let damaged = Owing::of(br#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"#, Profile::Mcp, false);
        let null_reply = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
        let verdict = damaged.verdict(&lines(&[null_reply]));
        assert!(matches!(verdict, Verdict::Missing { .. }), "{verdict:?}");
        assert_eq!(damaged.grade(&verdict), Some(Grade::Harmful));
    }

    #[test]
    fn in_a_batch_a_sibling_s_reply_is_not_another_id() {
        let batch = br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"b","method":"ping"}]"#;
        let owing = Owing::of(batch, Profile::Mcp, false);
        let b = r#"{"jsonrpc":"2.0","id":"b","error":{"code":-32600,"message":"m"}}"#;
        let verdict = owing.verdict(&lines(&[b]));
        assert!(matches!(verdict, Verdict::Missing { .. }), "{verdict:?}");
        assert_eq!(owing.grade(&verdict), Some(Grade::Harmful));
        assert_eq!(owing.unmet(&lines(&[b])), vec![IdKey::of(&classify(br#"{"id":1}"#)).unwrap()]);
    }

    #[test]
    fn serving_what_only_portability_refuses_is_strict() {
        // An id beyond 2^53: JSON-RPC allows it, the MCP profile owes -32600.
        let owing = Owing::of(br#"{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}"#, Profile::Mcp, false);
        assert!(owing.portability);
        let served = owing.verdict(&lines(&[r#"{"jsonrpc":"2.0","id":9007199254740993,"result":{}}"#]));
        assert!(matches!(served, Verdict::Wrong { .. }), "{served:?}");
        assert_eq!(owing.grade(&served), Some(Grade::Strict));
        let rounded = owing.verdict(&lines(&[r#"{"jsonrpc":"2.0","id":9007199254740992,"result":{}}"#]));
        assert_eq!(owing.grade(&rounded), Some(Grade::Harmful));
        // A result for a request MCP refuses for its members: nonconforming.
        let members = Owing::of(br#"{"jsonrpc":"2.0","id":3,"method":"ping","x":1}"#, Profile::Mcp, false);
        let served = members.verdict(&lines(&[r#"{"jsonrpc":"2.0","id":3,"result":{}}"#]));
        assert_eq!(members.grade(&served), Some(Grade::Nonconforming));
        // A reply where none is owed.
        let nothing = Owing::of(br#"{"jsonrpc":"2.0","method":"notifications/x"}"#, Profile::Mcp, false);
        assert_eq!(nothing.verdict(&[]), Verdict::Passed);
        let unasked = nothing.verdict(&lines(&[r#"{"jsonrpc":"2.0","id":"u","result":{}}"#]));
        assert_eq!(nothing.grade(&unasked), Some(Grade::Nonconforming));
    }
}
