//! `lint`: a person's view of a capture. The kinds, reasons and replies all
//! come from the library; this module only decides what to say about them.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};

use jsonrpc_envelope::{Classification, Kind, Line, Role, log_value};

/// Lints `input` as read by the endpoint in `role`, writing to `out`.
/// Returns whether any line would trouble a peer.
pub fn run(input: impl Read, role: Role, max_line: usize, out: impl Write) -> io::Result<bool> {
    let colour = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = io::BufWriter::new(out);
    let mut counts: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut troubled = 0u64;
    let mut lines = 0u64;
    super::stream::for_each_line(input, max_line, |line| {
        let number = line.number();
        lines = number;
        let label = line.kind_name();
        let finding = match &line {
            Line::TooLong { len, .. } => Some(format!("a line of {len} bytes, over the limit of {max_line}; skipped")),
            Line::Complete { bytes, classification, .. } => trouble(classification, role, bytes),
        };
        *counts.entry(label).or_default() += 1;
        if let Some(finding) = finding {
            troubled += 1;
            let (on, off) = if colour { ("\x1b[1;31m", "\x1b[0m") } else { ("", "") };
            writeln!(out, "line {number}: {on}{label}{off}: {finding}")?;
        }
        Ok(())
    })?;
    let summary: Vec<String> = counts.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
    writeln!(out, "{lines} lines: {}", if summary.is_empty() { "none".to_owned() } else { summary.join(", ") })?;
    writeln!(out, "{troubled} would trouble a peer reading as {}", role.name())?;
    out.flush()?;
    Ok(troubled > 0)
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
