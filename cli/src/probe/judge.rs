//! The verdict on one line: what the server wrote back against what the
//! library says a server owes it (SPEC §11). The rules are the library's:
//! this only compares.

use jsonrpc_envelope::{IdKind, Kind, Line, Profile, Reader, Role, classify};

/// What became of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The exact reply owed came back, or the request's response did, or
    /// nothing was owed and nothing came.
    Passed,
    /// A reply was owed and none came: the sender would wait for a timeout.
    Missing { owed: String },
    /// A reply came that is not the one owed (or none was owed).
    Wrong { owed: Option<String>, got: String },
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
    /// The column a report counts it in.
    pub fn column(&self) -> Column {
        match self {
            Verdict::Passed => Column::Passed,
            Verdict::Missing { .. } => Column::Missing,
            Verdict::Wrong { .. } | Verdict::DifferentId { .. } => Column::Wrong,
            Verdict::Unanswered => Column::Unanswered,
            Verdict::Died { .. } => Column::Died,
            Verdict::Hung => Column::Hung,
        }
    }

    /// The verdict's name, as the JSON report spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Missing { .. } => "missing",
            Verdict::Wrong { .. } => "wrong",
            Verdict::Unanswered => "unanswered",
            Verdict::DifferentId { .. } => "different_id",
            Verdict::Died { .. } => "died",
            Verdict::Hung => "hung",
        }
    }
}

/// The columns of a report's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Passed,
    Missing,
    Wrong,
    Unanswered,
    Died,
    Hung,
}

impl Column {
    pub const ALL: [Column; 6] =
        [Column::Passed, Column::Missing, Column::Wrong, Column::Unanswered, Column::Died, Column::Hung];

    pub fn name(self) -> &'static str {
        match self {
            Column::Passed => "passed",
            Column::Missing => "missing",
            Column::Wrong => "wrong",
            Column::Unanswered => "unanswered",
            Column::Died => "died",
            Column::Hung => "hung",
        }
    }
}

/// What the library says a server owes `line` in `profile`, for the
/// driver's wait: an exact reply, a response to the request's id, or
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owed {
    Reply(String),
    Response { id: String },
    Nothing,
}

impl Owed {
    pub fn of(line: &[u8], profile: Profile) -> Owed {
        // A line over the limit is never held: owed nothing (SPEC §6) but,
        // in the MCP profile, what its first bytes name (SPEC §10.6 (d)).
        if line.len() > profile.default_max_line() {
            // The probe's lines have no LF: the line ends with the stream.
            let mut reader = Reader::with_profile(0, profile);
            let _ = reader.feed(line);
            return match reader.end().ok().and_then(|mut lines| lines.next()) {
                Some(Line::TooLong { head: Some(head), .. }) => {
                    head.reply(Role::Server).map_or(Owed::Nothing, Owed::Reply)
                }
                _ => Owed::Nothing,
            };
        }
        let c = profile.classify(line);
        match (c.reply(Role::Server), c.kind, c.id) {
            (Some(reply), _, _) => Owed::Reply(reply),
            (None, Kind::Request, Some(id)) => Owed::Response { id: id.to_owned() },
            _ => Owed::Nothing,
        }
    }

    /// Whether `got` (what came back so far) already holds it.
    pub fn is_met(&self, got: &[Vec<u8>]) -> bool {
        match self {
            // A reply of several lines (an MCP batch's, SPEC §10.6 (b)):
            // each of them.
            Owed::Reply(reply) => reply.split('\n').all(|one| got.iter().any(|g| trimmed(g) == one.as_bytes())),
            Owed::Response { id } => responses(got).any(|(_, got_id)| same_id(id, got_id)),
            Owed::Nothing => true,
        }
    }

    /// The verdict once the wait is over, `got` being every line the server
    /// wrote meanwhile but the keep-alive's answer.
    pub fn verdict(&self, got: &[Vec<u8>]) -> Verdict {
        let first_response = || responses(got).next().map(|(line, _)| String::from_utf8_lossy(line).into_owned());
        match self {
            _ if self.is_met(got) && !matches!(self, Owed::Nothing) => Verdict::Passed,
            Owed::Reply(owed) => match first_response() {
                Some(got) => Verdict::Wrong { owed: Some(owed.clone()), got },
                None => Verdict::Missing { owed: owed.clone() },
            },
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
}

/// The responses among `lines`, with their ids' text ("" when absent).
fn responses(lines: &[Vec<u8>]) -> impl Iterator<Item = (&[u8], &str)> {
    lines.iter().filter_map(|line| {
        let c = classify(line);
        let id = if c.id_kind == IdKind::Absent { "" } else { c.id.unwrap_or_default() };
        (c.kind == Kind::Response).then_some((line.as_slice(), id))
    })
}

/// Whether a response's id is the request's: the same text, or the same
/// string once decoded, or the same integer (`-0` and `0`). A number
/// written otherwise (`1e2` for `100`, digits lost to rounding) is
/// another id.
pub fn same_id(sent: &str, got: &str) -> bool {
    if sent == got {
        return true;
    }
    let (Ok(a), Ok(b)) =
        (serde_json::from_str::<serde_json::Value>(sent), serde_json::from_str::<serde_json::Value>(got))
    else {
        return false;
    };
    let integer = |text: &str| text.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit());
    match (a, b) {
        (serde_json::Value::String(a), serde_json::Value::String(b)) => a == b,
        (serde_json::Value::Number(_), serde_json::Value::Number(_)) if integer(sent) && integer(got) => {
            let digits = |text: &str| text.trim_start_matches('-').trim_start_matches('0').to_owned();
            let negative = |text: &str| text.starts_with('-') && !digits(text).is_empty();
            digits(sent) == digits(got) && negative(sent) == negative(got)
        }
        _ => false,
    }
}

fn trimmed(line: &[u8]) -> &[u8] {
    line.trim_ascii()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_match_as_a_host_would_match_them_and_rounded_ones_do_not() {
        assert!(same_id("7", "7") && same_id("-0", "0") && same_id("\"a\"", "\"\\u0061\""));
        assert!(!same_id("12345678901234567890123", "12345678901234567000000"));
        assert!(!same_id("1e2", "100") && !same_id("1", "\"1\"") && !same_id("1", "2"));
    }

    #[test]
    fn verdicts_name_what_came_back() {
        let reply = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
        let owed = Owed::of(b"{oops", Profile::Mcp);
        assert_eq!(owed, Owed::Reply(reply.to_owned()));
        assert_eq!(owed.verdict(&[reply.as_bytes().to_vec()]), Verdict::Passed);
        assert_eq!(owed.verdict(&[]), Verdict::Missing { owed: reply.to_owned() });
        let other = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#.to_vec();
        assert!(matches!(owed.verdict(&[other]), Verdict::Wrong { .. }));

        let request = Owed::of(br#"{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}"#, Profile::JsonRpc);
        let rounded = br#"{"jsonrpc":"2.0","id":12345678901234567000000,"result":{}}"#.to_vec();
        assert!(matches!(request.verdict(&[rounded]), Verdict::DifferentId { .. }));
        assert_eq!(request.verdict(&[b"banner".to_vec()]), Verdict::Unanswered);
        let answered = br#"{"jsonrpc":"2.0","id":12345678901234567890123,"result":{}}"#.to_vec();
        assert_eq!(request.verdict(&[answered]), Verdict::Passed);

        let nothing = Owed::of(br#"{"jsonrpc":"2.0","method":"notifications/x"}"#, Profile::Mcp);
        assert_eq!(nothing.verdict(&[]), Verdict::Passed);
    }
}
