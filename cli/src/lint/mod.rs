//! `lint`: a person's view of a capture, or of a guard's recording. What a
//! line is, what is done with it and why, and the text sent for it all come
//! from the library (its reader and its session); this module only puts
//! them into words.

mod recording;

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};

use jsonrpc_envelope::{Action, Classification, Decision, Kind, Line, Profile, Role, Session, log_value};

pub use recording::run as run_recording;

/// Lints `input` as read by the endpoint in `role`, by `profile`, writing
/// to `out`. Returns whether any line would trouble a peer: whether the
/// session would do anything with one but forward it.
pub fn run(input: impl Read, role: Role, profile: Profile, max_line: usize, out: impl Write) -> io::Result<bool> {
    let mut out = io::BufWriter::new(out);
    let mut review = Review::new(role, "");
    let mut session = Session::new(role, profile);
    super::stream::for_each_line(input, max_line, profile, |line| {
        let decision = session.decide(&line);
        review.line(&mut out, &line, &decision, None)
    })?;
    review.summary(&mut out)?;
    out.flush()?;
    Ok(review.troubled > 0)
}

/// What lint found in one stream, read in one role.
struct Review {
    role: Role,
    /// Names the stream before each finding and in the summary (or "").
    label: &'static str,
    colour: bool,
    counts: BTreeMap<&'static str, u64>,
    /// Lines per action, in the order of `Action::ALL`.
    actions: [u64; Action::ALL.len()],
    troubled: u64,
    lines: u64,
}

impl Review {
    fn new(role: Role, label: &'static str) -> Review {
        let colour = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Review { role, label, colour, counts: BTreeMap::new(), actions: [0; Action::ALL.len()], troubled: 0, lines: 0 }
    }

    /// Counts a line, and writes what the session does with it unless it
    /// simply forwards it; or, when there is one, the finding `instead`.
    fn line(
        &mut self,
        out: &mut impl Write,
        line: &Line<'_>,
        decision: &Decision,
        instead: Option<String>,
    ) -> io::Result<()> {
        if let Some(i) = Action::ALL.iter().position(|&a| a == decision.action) {
            self.actions[i] += 1;
        }
        if instead.is_some() {
            return self.finding(out, line, instead);
        }
        if decision.action == Action::Forward {
            return self.finding(out, line, None);
        }
        let what = match line {
            Line::TooLong { len, .. } => format!("a line of {len} bytes"),
            Line::Complete { bytes, classification, .. } => what(classification, bytes),
        };
        let (action, note) = (decision.action.name(), decision.note.unwrap_or_default());
        let mut finding = format!("{what}; {action}: {note}");
        if let Some(text) = &decision.text {
            let label = if decision.action == Action::Answer { "reply" } else { "in its place" };
            finding.push_str(&format!("\n    {label}: {text}"));
        }
        self.finding(out, line, Some(finding))
    }

    /// Counts a line, and writes `finding` about it, if any.
    fn finding(&mut self, out: &mut impl Write, line: &Line<'_>, finding: Option<String>) -> io::Result<()> {
        let (number, label) = (line.number(), line.kind_name());
        self.lines += 1;
        *self.counts.entry(label).or_default() += 1;
        if let Some(finding) = finding {
            self.troubled += 1;
            let (on, off) = if self.colour { ("\x1b[1;31m", "\x1b[0m") } else { ("", "") };
            writeln!(out, "{}line {number}: {on}{label}{off}: {finding}", self.prefix())?;
        }
        Ok(())
    }

    /// The counts per kind and per action, and how many lines would
    /// trouble a peer.
    fn summary(&self, out: &mut impl Write) -> io::Result<()> {
        let prefix = self.prefix();
        let summary: Vec<String> = self.counts.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
        let summary = if summary.is_empty() { "none".to_owned() } else { summary.join(", ") };
        writeln!(out, "{prefix}{} lines: {summary}", self.lines)?;
        let actions: Vec<String> = Action::ALL
            .iter()
            .zip(self.actions)
            .filter(|&(_, n)| n > 0)
            .map(|(action, n)| format!("{n} {}", action.name()))
            .collect();
        if !actions.is_empty() {
            writeln!(out, "{prefix}actions: {}", actions.join(", "))?;
        }
        writeln!(out, "{prefix}{} would trouble a peer reading as {}", self.troubled, self.role.name())
    }

    fn prefix(&self) -> String {
        if self.label.is_empty() { String::new() } else { format!("{} ", self.label) }
    }
}

/// What a line is, in words, for a person: its kind described, with the
/// library's reason, and the line as `log_value` renders it where that
/// helps.
fn what(c: &Classification<'_>, line: &[u8]) -> String {
    let reason = || c.reason.map(|r| r.to_string()).unwrap_or_default();
    match c.kind {
        Kind::ParseError => format!("not JSON ({}): {}", reason(), log_value(line)),
        Kind::NotJsonRpc => format!("JSON but not JSON-RPC, such as a log line: {}", log_value(line)),
        Kind::NotObject => format!("a JSON value that is not an object: {}", log_value(line)),
        Kind::Batch => format!("a batch, which MCP does not use: {}", log_value(line)),
        Kind::Empty => "an empty line".to_owned(),
        Kind::InvalidRequest | Kind::InvalidResponse => reason(),
        Kind::Response if c.names_no_request => {
            let error = c.spans.error.map_or_else(String::new, |s| log_value(s.of(line)));
            format!("an error that names no request: {error}")
        }
        Kind::Request | Kind::Notification | Kind::Response => log_value(line),
    }
}
