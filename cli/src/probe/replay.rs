//! `probe --replay REPORT.json [--only N]`: the failing lines of a `--json`
//! report, sent again (their exact bytes) and judged afresh.

use std::ffi::OsString;
use std::io;
use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use jsonrpc_envelope::Profile;
use serde_json::Value;

use super::lines::{self, Group, ProbeLine};
use super::options::{EraChoice, Options};

/// What one probe sends, and to what.
#[derive(Debug, Clone)]
pub struct Plan {
    pub command: Vec<OsString>,
    pub profile: Profile,
    pub era: EraChoice,
    pub lines: Vec<ProbeLine>,
    pub replay_of: Option<String>,
    /// Whether to look for the server's line limit after the lines.
    pub find_limit: bool,
    /// One era of a report of `--era both`: an era the server no longer
    /// speaks is said, not failed.
    pub of_both: bool,
}

/// The plans of a replay: one per era the report probed.
pub fn plan(path: &Path, options: &Options) -> io::Result<Vec<Plan>> {
    let bad = |why: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", path.display()));
    let text =
        std::fs::read(path).map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", path.display())))?;
    let document: Value = serde_json::from_slice(&text).map_err(|e| bad(format!("not a JSON report: {e}")))?;
    let of_both = document.get("era").and_then(Value::as_str) == Some("both");
    let reports: Vec<&Value> = match document.get("reports").and_then(Value::as_array) {
        Some(reports) => reports.iter().collect(),
        None => vec![&document],
    };
    let mut plans = Vec::new();
    for report in reports {
        if report.get("unsupported").is_some_and(|u| !u.is_null()) {
            continue;
        }
        let command: Vec<OsString> = if options.command.is_empty() {
            report["command"]
                .as_array()
                .ok_or_else(|| bad("no command".to_owned()))?
                .iter()
                .map(|a| {
                    a.as_str().map(OsString::from).ok_or_else(|| bad("a command argument is not a string".to_owned()))
                })
                .collect::<io::Result<_>>()?
        } else {
            options.command.clone()
        };
        let profile: Profile =
            report["profile"].as_str().and_then(|p| p.parse().ok()).ok_or_else(|| bad("no profile".to_owned()))?;
        let era = match report["era"].as_str() {
            Some("modern") => EraChoice::Modern,
            Some("legacy") => EraChoice::Legacy,
            _ => return Err(bad("no era".to_owned())),
        };
        let failures = report["failures"].as_array().ok_or_else(|| bad("no failures".to_owned()))?;
        let mut lines = Vec::new();
        for failure in failures {
            let number =
                failure["number"].as_u64().ok_or_else(|| bad("a failure without a number".to_owned()))? as usize;
            if !options.only.is_empty() && !options.only.contains(&number) {
                continue;
            }
            let group = failure["group"]
                .as_str()
                .and_then(Group::from_key)
                .ok_or_else(|| bad(format!("failure {number}: no group")))?;
            let name = failure["name"].as_str().unwrap_or_default().to_owned();
            let bytes = match failure["line_base64"].as_str() {
                Some(encoded) => {
                    STANDARD.decode(encoded).map_err(|e| bad(format!("failure {number}: line_base64: {e}")))?
                }
                // A line too long to keep: one of the limit lines, made again.
                None => lines::limit_line(&name).ok_or_else(|| bad(format!("failure {number}: no line_base64")))?,
            };
            lines.push(ProbeLine { group, name, bytes, number: Some(number) });
        }
        plans.push(Plan {
            command,
            profile,
            era,
            lines,
            replay_of: Some(path.display().to_string()),
            find_limit: false,
            of_both,
        });
    }
    if plans.is_empty() {
        return Err(bad("no era of it was probed".to_owned()));
    }
    if !options.only.is_empty() && plans.iter().all(|p| p.lines.is_empty()) {
        return Err(bad(format!("no failure numbered {:?}", options.only)));
    }
    Ok(plans)
}
