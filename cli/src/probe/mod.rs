//! `jsonrpc-envelope probe -- COMMAND`: a stdio conformance report for any
//! MCP server (SPEC §11). It starts COMMAND, completes the MCP handshake,
//! sends each probe line followed by a keep-alive request, and judges what
//! comes back against what the library says a server owes the line. It
//! restarts a server that died or hung, and goes on.

mod judge;
mod lines;
mod options;
mod report;
mod server;

use std::io::{self, Write};
use std::time::{Duration, Instant};

use jsonrpc_envelope::{Action, Kind, Line, Profile, Role, Session, classify, log_value};

use judge::Owed;
pub use judge::{Column, Verdict};
pub use lines::Group;
use lines::ProbeLine;
pub use options::Options;
pub use report::Report;
use server::{Out, Server};

/// How long the probe waits after the keep-alive's answer for a reply owed
/// that has not come yet (a server may answer requests out of order).
const GRACE: Duration = Duration::from_millis(150);

/// One line's outcome.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub group: Group,
    pub name: String,
    /// The line as `log_value` renders it.
    pub shown: String,
    pub verdict: Verdict,
}

/// Runs the probe; progress goes to `progress` (stderr).
pub fn run(options: &Options, progress: &mut dyn Write) -> io::Result<Report> {
    let started = Instant::now();
    let lines = lines::all(options.lines, options.seed);
    let mut report = Report::new(options, lines.len());
    let mut probe = Probe { options, server: None, keepalive: Keepalive::Ping, next_id: 0 };
    for (n, line) in lines.iter().enumerate() {
        if probe.server.is_none() {
            probe.start(&mut report)?;
        }
        let verdict = probe.line(line, &mut report);
        report.add(Outcome { group: line.group, name: line.name.clone(), shown: log_value(&line.bytes), verdict });
        if (n + 1) % 200 == 0 || n + 1 == lines.len() {
            let _ = writeln!(progress, "probe: {} of {} lines, {} failed", n + 1, lines.len(), report.failed());
        }
    }
    if let Some(server) = probe.server.take() {
        server.stop();
    }
    report.finish(started.elapsed(), probe.keepalive.method());
    Ok(report)
}

/// The cheap request sent after each line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keepalive {
    Ping,
    /// For a server that answers `ping` with -32601.
    ToolsList,
}

impl Keepalive {
    fn method(self) -> &'static str {
        match self {
            Keepalive::Ping => "ping",
            Keepalive::ToolsList => "tools/list",
        }
    }
}

struct Probe<'o> {
    options: &'o Options,
    server: Option<Server>,
    keepalive: Keepalive,
    next_id: u64,
}

/// How a wait for an answer ended.
enum Waited {
    Answered(Vec<u8>),
    Died(String),
    Hung,
}

impl Probe<'_> {
    /// Starts the server and completes the MCP handshake.
    fn start(&mut self, report: &mut Report) -> io::Result<()> {
        let server = Server::start(&self.options.command).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot start {}: {e}", self.options.command[0].to_string_lossy()))
        })?;
        report.starts += 1;
        self.server = Some(server);
        let initialize = format!(
            r#"{{"jsonrpc":"2.0","id":"probe-initialize","method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"jsonrpc-envelope probe","version":"{}"}}}}}}"#,
            jsonrpc_envelope::VERSION
        );
        let mut got = Vec::new();
        match self.request(initialize, "\"probe-initialize\"", &mut got) {
            Waited::Answered(_) => {}
            Waited::Died(how) => {
                return Err(io::Error::other(format!("the server ended during the handshake ({how})")));
            }
            Waited::Hung => return Err(io::Error::other("the server did not answer initialize in time")),
        }
        report.stdout(&got);
        self.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec());
        // Which keep-alive this server answers.
        if report.starts == 1 {
            let id = self.fresh_id();
            let ping = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            let mut got = Vec::new();
            if let Waited::Answered(answer) = self.request(ping, &id, &mut got) {
                let c = classify(&answer);
                let not_found = c.has_error && String::from_utf8_lossy(&answer).contains("-32601");
                if c.kind == Kind::Response && not_found {
                    self.keepalive = Keepalive::ToolsList;
                }
            }
            report.stdout(&got);
        }
        Ok(())
    }

    fn fresh_id(&mut self) -> String {
        self.next_id += 1;
        format!("\"probe-{}\"", self.next_id)
    }

    fn send(&self, mut line: Vec<u8>) {
        line.push(b'\n');
        if let Some(server) = &self.server {
            server.send(line);
        }
    }

    /// Sends `line`, a request whose id is `id`, and waits for its answer,
    /// keeping everything else the server writes in `got`.
    fn request(&mut self, line: String, id: &str, got: &mut Vec<Vec<u8>>) -> Waited {
        self.send(line.into_bytes());
        let deadline = Instant::now() + self.options.timeout;
        let Some(server) = self.server.as_mut() else { return Waited::Hung };
        loop {
            match server.recv(deadline) {
                Some(Out::Line(bytes)) => {
                    let c = classify(&bytes);
                    if c.kind == Kind::Response && c.id.is_some_and(|got_id| judge::same_id(id, got_id)) {
                        return Waited::Answered(bytes);
                    }
                    got.push(bytes);
                }
                Some(Out::TooLong(len)) => got.push(format!("(a line of {len} bytes)").into_bytes()),
                Some(Out::Closed) => {
                    let how = match server.exit_status(Instant::now() + Duration::from_secs(2)) {
                        Some(status) => describe(status),
                        None => "closed its stdout".to_owned(),
                    };
                    return Waited::Died(how);
                }
                None => return Waited::Hung,
            }
        }
    }

    /// Sends one probe line and its keep-alive; judges what came back.
    fn line(&mut self, line: &ProbeLine, report: &mut Report) -> Verdict {
        let owed = Owed::of(&line.bytes, self.options.profile);
        self.send(line.bytes.clone());
        let id = self.fresh_id();
        let keepalive = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{}"}}"#, self.keepalive.method());
        let mut got = Vec::new();
        let waited = self.request(keepalive, &id, &mut got);
        if matches!(waited, Waited::Answered(_)) && !owed.is_met(&got) {
            self.linger(&owed, &mut got);
        }
        report.stdout(&got);
        match waited {
            Waited::Answered(_) => owed.verdict(&got),
            Waited::Died(how) => {
                self.stop();
                Verdict::Died { how }
            }
            Waited::Hung => {
                self.stop();
                Verdict::Hung
            }
        }
    }

    /// Reads on for a little while, for a reply owed that a server answering
    /// out of order may still send.
    fn linger(&mut self, owed: &Owed, got: &mut Vec<Vec<u8>>) {
        let deadline = Instant::now() + GRACE.min(self.options.timeout);
        let Some(server) = self.server.as_ref() else { return };
        while !owed.is_met(got) {
            match server.recv(deadline) {
                Some(Out::Line(bytes)) => got.push(bytes),
                Some(Out::TooLong(len)) => got.push(format!("(a line of {len} bytes)").into_bytes()),
                Some(Out::Closed) | None => return,
            }
        }
    }

    fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop();
        }
    }
}

/// An exit status as a person reads it.
fn describe(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        _ => status.to_string(),
    }
}

/// Whether the library's client-side session would keep a line the server
/// wrote from its host: a banner or log line on stdout (diverted), and a
/// line that is not one message.
fn stdout_fault(line: &[u8]) -> Option<&'static str> {
    let mut session = Session::new(Role::Client, Profile::JsonRpc);
    let c = classify(line);
    let decided = session.decide(&Line::Complete { number: 1, bytes: line, classification: c.clone() });
    match (decided.action, c.kind) {
        (_, Kind::Batch) => Some("not_one_message"),
        (Action::Divert, _) => Some("not_jsonrpc"),
        _ => None,
    }
}
