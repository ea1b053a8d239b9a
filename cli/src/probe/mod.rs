//! `jsonrpc-envelope probe -- COMMAND`: a stdio conformance report for any
//! MCP server (SPEC §11). It starts COMMAND, opens a session in an era of
//! MCP, sends each probe line followed by a keep-alive request, and judges
//! what comes back, by meaning, against what the library says a server
//! owes the line; every line the server writes is read as a client's
//! session reads it. It restarts a server that died or hung, and goes on.

mod ci;
mod driver;
mod era;
mod json;
mod judge;
mod known;
mod limit;
mod lines;
mod options;
mod replay;
mod report;
mod server;
mod stdout;

use std::io::{self, Write};

pub use era::Era;
pub use judge::{Grade, Verdict};
pub use lines::Group;
use lines::ProbeLine;
pub use options::{EraChoice, Options};
pub use report::Report;

/// One line's outcome.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Its place in the run, from 1 (what `--only` names).
    pub number: usize,
    pub group: Group,
    pub name: String,
    /// The line's bytes, when it is short enough to keep (a line over the
    /// limit is made again from its group and name).
    pub bytes: Option<Vec<u8>>,
    pub length: usize,
    pub verdict: Verdict,
    pub grade: Option<Grade>,
    /// What the server wrote for it (the answers to the probe's own
    /// requests aside).
    pub got: Vec<Vec<u8>>,
}

/// Lines longer than this are not kept in a report (the limit lines are
/// made again on replay).
const KEPT_LINE: usize = 1 << 20;

/// Runs the probe: one report per era probed. Progress goes to `progress`
/// (stderr). An error is a run that could not be made (exit status 2).
pub fn run(options: &Options, progress: &mut dyn Write) -> io::Result<Vec<Report>> {
    let plan = match &options.replay {
        Some(path) => replay::plan(path, options)?,
        None => vec![replay::Plan {
            command: options.command.clone(),
            profile: options.profile,
            era: options.era,
            lines: lines::all(options.lines, options.seed),
            replay_of: None,
            find_limit: true,
            of_both: false,
        }],
    };
    let mut reports = Vec::new();
    for plan in plan {
        let eras: Vec<Option<Era>> = match plan.era {
            EraChoice::Auto => vec![None],
            EraChoice::Legacy => vec![Some(Era::Legacy)],
            EraChoice::Modern => vec![Some(Era::Modern)],
            EraChoice::Both => vec![Some(Era::Modern), Some(Era::Legacy)],
        };
        // Under `both` (or a replay of a report of both), an era the
        // server does not speak is said, not failed; but one of them it
        // must speak.
        let both = plan.era == EraChoice::Both || plan.of_both;
        let mut refused = Vec::new();
        for era in eras {
            match driver::probe(options, &plan, era, progress) {
                Ok(report) => reports.push(report),
                Err(driver::Failure::Unsupported(why)) if both => {
                    let _ = writeln!(progress, "probe: {why}");
                    refused.push(why.clone());
                    reports.push(Report::unsupported(options, &plan, era.unwrap_or(Era::Legacy), why));
                }
                Err(failure) => return Err(failure.into()),
            }
        }
        if plan.era == EraChoice::Both && refused.len() == 2 {
            return Err(io::Error::other(format!("the server speaks neither era: {}", refused.join("; "))));
        }
    }
    Ok(reports)
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

/// Writes the reports: text or JSON on `out`, and the `--junit` and
/// `--sarif` files. Returns whether the run passed (no failure of the
/// `--fail-on` grade or worse).
pub fn write(options: &Options, reports: &[Report], out: &mut impl Write) -> io::Result<bool> {
    if let Some(path) = &options.text {
        let mut text = Vec::new();
        write_text(reports, &mut text)?;
        std::fs::write(path, text)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = &options.junit {
        std::fs::write(path, ci::junit(reports))
            .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = &options.sarif {
        let log = serde_json::to_string_pretty(&ci::sarif(reports)).map_err(io::Error::from)?;
        std::fs::write(path, log + "\n")
            .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display())))?;
    }
    if options.json {
        serde_json::to_writer_pretty(&mut *out, &json::document(reports)).map_err(io::Error::from)?;
        writeln!(out)?;
    } else {
        write_text(reports, out)?;
    }
    Ok(reports.iter().all(Report::passed))
}

fn write_text(reports: &[Report], out: &mut impl Write) -> io::Result<()> {
    for (n, report) in reports.iter().enumerate() {
        if n > 0 {
            writeln!(out, "\n")?;
        }
        report.write_text(out)?;
    }
    Ok(())
}

/// The JSON document `--json` writes when the run could not be made.
pub fn error_document(options: &Options, error: &io::Error) -> serde_json::Value {
    serde_json::json!({
        "command": options.command.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>(),
        "error": error.to_string(),
        "passed": false,
    })
}
