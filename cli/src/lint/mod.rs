//! `lint`: a person's view of a capture, or of a guard's recording. The
//! kinds, reasons and replies all come from the library; this module only
//! decides what to say about them.

mod recording;

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};

use jsonrpc_envelope::{Classification, Kind, Line, Role, log_value};

pub use recording::run as run_recording;

/// Lints `input` as read by the endpoint in `role`, writing to `out`.
/// Returns whether any line would trouble a peer.
pub fn run(input: impl Read, role: Role, max_line: usize, out: impl Write) -> io::Result<bool> {
    let mut out = io::BufWriter::new(out);
    let mut review = Review::new(role, "", format!("over the limit of {max_line}; skipped"));
    super::stream::for_each_line(input, max_line, |line| review.line(&mut out, &line))?;
    review.summary(&mut out)?;
    out.flush()?;
    Ok(review.troubled > 0)
}

/// What lint found in one stream, read in one role.
struct Review {
    role: Role,
    /// Names the stream before each finding and in the summary (or "").
    label: &'static str,
    /// Said of a line over the limit.
    too_long: String,
    colour: bool,
    counts: BTreeMap<&'static str, u64>,
    troubled: u64,
    lines: u64,
}

impl Review {
    fn new(role: Role, label: &'static str, too_long: String) -> Review {
        let colour = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Review { role, label, too_long, colour, counts: BTreeMap::new(), troubled: 0, lines: 0 }
    }

    /// Counts a line, and writes what troubles it, if anything.
    fn line(&mut self, out: &mut impl Write, line: &Line<'_>) -> io::Result<()> {
        let finding = match line {
            Line::TooLong { len, .. } => Some(format!("a line of {len} bytes, {}", self.too_long)),
            Line::Complete { bytes, classification, .. } => trouble(classification, self.role, bytes),
        };
        self.finding(out, line, finding)
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

    /// The counts per kind, and how many lines would trouble a peer.
    fn summary(&self, out: &mut impl Write) -> io::Result<()> {
        let prefix = self.prefix();
        let summary: Vec<String> = self.counts.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
        let summary = if summary.is_empty() { "none".to_owned() } else { summary.join(", ") };
        writeln!(out, "{prefix}{} lines: {summary}", self.lines)?;
        writeln!(out, "{prefix}{} would trouble a peer reading as {}", self.troubled, self.role.name())
    }

    fn prefix(&self) -> String {
        if self.label.is_empty() { String::new() } else { format!("{} ", self.label) }
    }
}

/// What is wrong with a line for the endpoint in `role`, if anything, with
/// the reply it gets when it gets one.
fn trouble(c: &Classification<'_>, role: Role, line: &[u8]) -> Option<String> {
    let what = match c.kind {
        Kind::Empty | Kind::Request | Kind::Notification => return None,
        Kind::Response if c.names_no_request => {
            let error = c.spans.error.map_or_else(String::new, |s| log_value(s.of(line)));
            format!("an error that names no request: {error}")
        }
        Kind::Response if !c.id_kind.is_echoable() => {
            format!("a response whose id ({}) cannot match any request", log_value(c.id.unwrap_or_default().as_bytes()))
        }
        Kind::Response => return None,
        Kind::ParseError => format!("not JSON ({}): {}", describe_reason(c), log_value(line)),
        Kind::NotJsonRpc => format!("JSON but not JSON-RPC, such as a log line: {}", log_value(line)),
        Kind::NotObject => format!("a JSON value that is not an object: {}", log_value(line)),
        Kind::Batch => "a batch, which MCP does not use".to_owned(),
        Kind::InvalidRequest => describe_reason(c),
    };
    Some(match c.reply(role) {
        Some(reply) => format!("{what}\n    reply: {reply}"),
        None => what,
    })
}

fn describe_reason(c: &Classification<'_>) -> String {
    c.reason.map(|r| r.to_string()).unwrap_or_default()
}
