//! One probe of one era: starts the server, opens the session, sends each
//! line and its keep-alive, collects what comes back, and hands each
//! line's verdict to the report. Late answers are matched to the lines
//! still waiting for them, so that no line costs a fixed wait.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use jsonrpc_envelope::reply::code;
use jsonrpc_envelope::{IdKey, Kind, classify};
use serde_json::Value;

use super::era::Era;
use super::judge::{Grade, Owing, Verdict};
use super::replay::Plan;
use super::report::Report;
use super::server::{Out, Server};
use super::stdout::Judge;
use super::{KEPT_LINE, Options, Outcome, ProbeLine, describe, limit};

/// How long the probe reads on at the end of a run for the answers still
/// owed to earlier lines, and how long it waits for a server to exit once
/// its stdin is closed (and again after SIGTERM).
const GRACE: Duration = Duration::from_millis(300);
const SHUTDOWN_WAIT: Duration = Duration::from_secs(2);
/// How many lines may wait for a late answer at once.
const MAX_PENDING: usize = 256;

/// Why a probe could not be made.
#[derive(Debug)]
pub enum Failure {
    /// The server does not speak the era asked for.
    Unsupported(String),
    Other(io::Error),
}

impl From<Failure> for io::Error {
    fn from(failure: Failure) -> io::Error {
        match failure {
            Failure::Unsupported(why) => io::Error::other(why),
            Failure::Other(e) => e,
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Other(e)
    }
}

/// How a wait for an answer ended.
pub enum Waited {
    Answered(Vec<u8>),
    Died(String),
    Hung,
}

/// A line whose owed answer has not come yet.
struct Pending {
    outcome: usize,
    owing: Owing,
    keys: Vec<IdKey>,
}

pub struct Driver<'o> {
    pub options: &'o Options,
    pub command: &'o [std::ffi::OsString],
    pub era: Era,
    server: Option<Server>,
    keepalive: &'static str,
    next_id: u64,
    stdout: Judge,
    pending: Vec<Pending>,
    /// The ids of the probe's own requests it stopped waiting for (an
    /// opening or keep-alive that timed out): a late answer is no line's.
    abandoned: Vec<String>,
    pub report: Report,
}

/// Probes `plan` in `era` (`None`: the era `auto` finds).
pub fn probe(options: &Options, plan: &Plan, era: Option<Era>, progress: &mut dyn Write) -> Result<Report, Failure> {
    let started = Instant::now();
    let first_era = era.unwrap_or(Era::Modern);
    let mut driver = Driver {
        options,
        command: &plan.command,
        era: first_era,
        server: None,
        keepalive: first_era.keepalive(),
        next_id: 0,
        stdout: Judge::new(plan.profile, first_era),
        pending: Vec::new(),
        abandoned: Vec::new(),
        report: Report::new(options, plan, first_era),
    };
    driver.start(era.is_none())?;
    let total = plan.lines.len();
    // Once the server cannot be started again, every line left is a line
    // of a session that ended (harmful), without a try for each.
    let mut gone: Option<String> = None;
    for (n, line) in plan.lines.iter().enumerate() {
        if driver.server.is_none()
            && gone.is_none()
            && let Err(failure) = driver.start(false)
        {
            gone = Some(format!("could not be started again: {}", io::Error::from(failure)));
        }
        match &gone {
            Some(how) => driver.not_sent(n, line, how),
            None => driver.line(n, line, plan),
        }
        if (n + 1) % 200 == 0 || n + 1 == total {
            let _ = writeln!(
                progress,
                "probe: {} of {total} lines ({}), {} failed",
                n + 1,
                driver.era.name(),
                driver.report.failed()
            );
        }
    }
    driver.linger(<[Pending]>::is_empty);
    if plan.find_limit && gone.is_none() {
        let _ = writeln!(progress, "probe: finding the server's line limit");
        let found = limit::find(&mut driver, plan.profile);
        driver.report.limit = Some(found);
    }
    if let Some(server) = driver.server.take() {
        driver.report.shutdown = Some(server.shut_down(SHUTDOWN_WAIT).describe());
    }
    let keepalive = driver.keepalive;
    driver.report.finish(started.elapsed(), keepalive, driver.era);
    Ok(driver.report)
}

impl Driver<'_> {
    /// Starts the server and opens the session; with `discover`, finds the
    /// era as the specification's stdio backward-compatibility section
    /// says: `server/discover` first, and `initialize` when the answer is
    /// anything but a result or a modern error (or no answer in time).
    fn start(&mut self, discover: bool) -> Result<(), Failure> {
        let name = self.command.first().map(|c| c.to_string_lossy().into_owned()).unwrap_or_default();
        let server =
            Server::start(self.command).map_err(|e| io::Error::new(e.kind(), format!("cannot start {name}: {e}")))?;
        self.report.starts += 1;
        self.server = Some(server);
        self.pending.clear();
        let first = self.report.starts == 1;
        if discover {
            match self.open(Era::Modern)? {
                Opened::Result => {}
                Opened::Error(code) if code == i64::from(code::UNSUPPORTED_PROTOCOL_VERSION) => {
                    return Err(Failure::Other(io::Error::other(
                        "the server is of a modern MCP revision other than 2026-07-28, which the probe speaks",
                    )));
                }
                Opened::Died(how) => return Err(self.ended("server/discover", &how)),
                Opened::Error(_) | Opened::Hung => {
                    self.set_era(Era::Legacy);
                    match self.open(Era::Legacy)? {
                        Opened::Result => {}
                        other => return Err(self.refused(Era::Legacy, other)),
                    }
                }
            }
        } else {
            match self.open(self.era)? {
                Opened::Result => {}
                other => return Err(self.refused(self.era, other)),
            }
        }
        if first && self.era == Era::Legacy {
            self.choose_keepalive();
        }
        Ok(())
    }

    fn set_era(&mut self, era: Era) {
        self.era = era;
        self.keepalive = era.keepalive();
        self.stdout = Judge::new(self.report.profile(), era);
    }

    fn ended(&mut self, what: &str, how: &str) -> Failure {
        self.stop();
        Failure::Other(io::Error::other(format!("the server ended on {what} ({how})")))
    }

    fn refused(&mut self, era: Era, opened: Opened) -> Failure {
        self.stop();
        let what = match era {
            Era::Legacy => "initialize",
            Era::Modern => "server/discover",
        };
        let why = match opened {
            Opened::Result => unreachable!("a result opens the session"),
            Opened::Error(code) => format!("the server answered {what} with error {code}"),
            Opened::Died(how) => format!("the server ended on {what} ({how})"),
            Opened::Hung => format!("the server did not answer {what} in time"),
        };
        Failure::Unsupported(format!("{why}: it does not speak the {} era", era.name()))
    }

    /// Sends `era`'s opening request and reads its answer.
    fn open(&mut self, era: Era) -> Result<Opened, Failure> {
        let id = self.fresh_id();
        let opening = era.opening(&id);
        let mut got = Vec::new();
        let opened = match self.request(opening, &id, &mut got) {
            Waited::Answered(answer) => {
                let value: Value = serde_json::from_slice(&answer).unwrap_or(Value::Null);
                if value.get("result").is_some_and(Value::is_object) {
                    self.report.server_info = server_info(era, &value["result"]);
                    if let Some(opened) = era.opened() {
                        self.send(opened.as_bytes().to_vec());
                    }
                    Opened::Result
                } else {
                    Opened::Error(value["error"]["code"].as_i64().unwrap_or(0))
                }
            }
            Waited::Died(how) => Opened::Died(how),
            Waited::Hung => Opened::Hung,
        };
        Ok(opened)
    }

    /// In the handshake era: `ping`, or `tools/list` for a server that
    /// answers `ping` with -32601.
    fn choose_keepalive(&mut self) {
        let id = self.fresh_id();
        let ping = self.era.request(&id, "ping", "", "");
        let mut got = Vec::new();
        if let Waited::Answered(answer) = self.request(ping, &id, &mut got) {
            let value: Value = serde_json::from_slice(&answer).unwrap_or(Value::Null);
            if value["error"]["code"].as_i64() == Some(i64::from(code::METHOD_NOT_FOUND)) {
                self.keepalive = "tools/list";
            }
        }
    }

    /// Whether `id` (JSON text) is that of a request of the probe's own it
    /// stopped waiting for.
    fn is_abandoned(&self, id: &str) -> bool {
        self.abandoned.iter().any(|a| a == id)
    }

    pub fn fresh_id(&mut self) -> String {
        self.next_id += 1;
        format!("\"probe-{}\"", self.next_id)
    }

    pub fn keepalive_request(&mut self) -> (String, String) {
        let id = self.fresh_id();
        (self.era.request(&id, self.keepalive, "", ""), id)
    }

    pub fn send(&mut self, mut line: Vec<u8>) {
        line.push(b'\n');
        if let Some(server) = &self.server {
            server.send(line);
        }
    }

    pub fn is_running(&self) -> bool {
        self.server.is_some()
    }

    /// Sends `line`, a request whose id is `id` (JSON text), and waits for
    /// its answer, keeping everything else the server writes in `got`
    /// (but late answers to earlier lines, which go to those lines).
    pub fn request(&mut self, line: String, id: &str, got: &mut Vec<Vec<u8>>) -> Waited {
        // The answer's key: the request's own id, as a host compares it.
        let Some(want) = IdKey::of(&classify(line.as_bytes())) else { return Waited::Hung };
        self.stdout.sent(line.as_bytes());
        self.send(line.into_bytes());
        let deadline = Instant::now() + self.options.timeout;
        loop {
            let Some(server) = self.server.as_mut() else { return Waited::Hung };
            match server.recv(deadline) {
                Some(Out::Line(bytes)) => {
                    self.judge_stdout(&bytes);
                    let c = classify(&bytes);
                    // The answer: a response with the id (a valid one or
                    // not: what is wrong with it is judged as stdout).
                    let answers = matches!(c.kind, Kind::Response | Kind::InvalidResponse)
                        && IdKey::of(&c).as_ref() == Some(&want);
                    if answers {
                        return Waited::Answered(bytes);
                    }
                    // A late answer to an earlier request of the probe's own
                    // (an opening or a keep-alive that timed out) is no
                    // line's.
                    let own = c.kind == Kind::Response && c.id.is_some_and(|id| self.is_abandoned(id));
                    if !own && !self.late(&bytes) {
                        got.push(bytes);
                    }
                }
                Some(Out::TooLong(len)) => {
                    self.report.stdout_fault(self.stdout.too_long(), format!("(a line of {len} bytes)").as_bytes());
                }
                Some(Out::Closed) => {
                    let how = match server.exit_status(Instant::now() + Duration::from_secs(2)) {
                        Some(status) => describe(status),
                        None => "closed its stdout".to_owned(),
                    };
                    return Waited::Died(how);
                }
                None => {
                    self.abandoned.push(id.to_owned());
                    return Waited::Hung;
                }
            }
        }
    }

    fn judge_stdout(&mut self, bytes: &[u8]) {
        if let Some(fault) = self.stdout.line(bytes) {
            self.report.stdout_fault(fault, bytes);
        }
    }

    /// Whether `bytes` is a late answer owed to an earlier line; if so, it
    /// is given to that line, which is judged again.
    fn late(&mut self, bytes: &[u8]) -> bool {
        let c = classify(bytes);
        if c.kind != Kind::Response {
            return false;
        }
        let Some(key) = IdKey::of(&c) else { return false };
        let Some(at) = self.pending.iter().position(|p| p.keys.contains(&key)) else { return false };
        let pending = &mut self.pending[at];
        let outcome = self.report.outcome_mut(pending.outcome);
        outcome.got.push(bytes.to_vec());
        let verdict = pending.owing.verdict(&outcome.got);
        let grade = pending.owing.grade(&verdict);
        self.report.regrade(pending.outcome, verdict, grade);
        pending.keys.retain(|k| *k != key);
        if pending.keys.is_empty() {
            self.pending.remove(at);
        }
        true
    }

    /// Sends one probe line and its keep-alive; judges what came back.
    fn line(&mut self, n: usize, line: &ProbeLine, plan: &Plan) {
        let owing = Owing::of(&line.bytes, plan.profile, self.options.strict);
        // An answer by an id this line's request shares would be taken for
        // this line's: an earlier line waiting for the same id gets a last
        // short wait first, then waits no more.
        let mut keys = owing.awaited();
        keys.extend(IdKey::of(&classify(&line.bytes)));
        let shares = |p: &Pending| p.keys.iter().any(|k| keys.contains(k));
        if self.pending.iter().any(shares) {
            self.linger(|pending| !pending.iter().any(shares));
        }
        self.pending.retain(|p| !shares(p));
        self.send(line.bytes.clone());
        let (keepalive, id) = self.keepalive_request();
        let mut got = Vec::new();
        let waited = self.request(keepalive, &id, &mut got);
        let verdict = match &waited {
            Waited::Answered(_) => owing.verdict(&got),
            Waited::Died(how) => Verdict::Died { how: how.clone() },
            Waited::Hung => Verdict::Hung,
        };
        let grade = owing.grade(&verdict);
        let failed = grade.is_some();
        // The ids it still waits an answer by: one may come late.
        let unmet = owing.unmet(&got);
        let index = self.report.add(Outcome {
            number: line.number.unwrap_or(n + 1),
            group: line.group,
            name: line.name.clone(),
            bytes: (line.bytes.len() <= KEPT_LINE).then(|| line.bytes.clone()),
            length: line.bytes.len(),
            verdict,
            grade,
            got,
        });
        match waited {
            Waited::Answered(_) if failed && !unmet.is_empty() => {
                if self.pending.len() == MAX_PENDING {
                    self.pending.remove(0);
                }
                self.pending.push(Pending { outcome: index, owing, keys: unmet });
            }
            Waited::Answered(_) => {}
            Waited::Died(_) | Waited::Hung => self.stop(),
        }
    }

    /// A line that could not be sent: the server could not be started
    /// again.
    fn not_sent(&mut self, n: usize, line: &ProbeLine, how: &str) {
        self.report.add(Outcome {
            number: line.number.unwrap_or(n + 1),
            group: line.group,
            name: line.name.clone(),
            bytes: (line.bytes.len() <= KEPT_LINE).then(|| line.bytes.clone()),
            length: line.bytes.len(),
            verdict: Verdict::Died { how: how.to_owned() },
            grade: Some(Grade::Harmful),
            got: Vec::new(),
        });
    }

    /// Reads on for a little while, until `done`, for the answers still
    /// owed to earlier lines.
    fn linger(&mut self, done: impl Fn(&[Pending]) -> bool) {
        let deadline = Instant::now() + GRACE;
        while !done(&self.pending) {
            let Some(server) = self.server.as_ref() else { return };
            match server.recv(deadline) {
                Some(Out::Line(bytes)) => {
                    self.judge_stdout(&bytes);
                    self.late(&bytes);
                }
                Some(Out::TooLong(len)) => {
                    self.report.stdout_fault(self.stdout.too_long(), format!("(a line of {len} bytes)").as_bytes());
                }
                // It ended: the next line starts it again.
                Some(Out::Closed) => return self.stop(),
                None => return,
            }
        }
    }

    /// Stops a server that died or hung, at once.
    pub fn stop(&mut self) {
        self.pending.clear();
        if let Some(server) = self.server.take() {
            server.stop();
        }
    }

    /// Starts the server again after a stop (in the era found).
    pub fn restart(&mut self) -> Result<(), Failure> {
        self.start(false)
    }
}

/// How an opening request was answered.
enum Opened {
    Result,
    Error(i64),
    Died(String),
    Hung,
}

/// The server's name and version, as its opening result gives them.
fn server_info(era: Era, result: &Value) -> Option<(String, String)> {
    let info = match era {
        Era::Legacy => &result["serverInfo"],
        Era::Modern => &result["_meta"]["io.modelcontextprotocol/serverInfo"],
    };
    let name = info["name"].as_str()?.to_owned();
    Some((name, info["version"].as_str().unwrap_or_default().to_owned()))
}
