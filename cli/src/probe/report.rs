//! The probe's report: a table a person reads at a glance, the first
//! failures of each group, a summary line; or the same as one JSON document
//! (SPEC §11).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use jsonrpc_envelope::log_value;
use serde_json::{Value, json};

use super::{Column, Group, Options, Outcome, Verdict, stdout_fault};

/// Failures kept per group, for the report.
const SHOWN: usize = 5;

#[derive(Debug)]
pub struct Report {
    command: Vec<String>,
    profile: &'static str,
    seed: u64,
    total: usize,
    /// Per group, the count per column.
    counts: BTreeMap<Group, [usize; Column::ALL.len()]>,
    /// Per group, its first failures.
    failures: BTreeMap<Group, Vec<Outcome>>,
    /// Lines on stdout that are no JSON-RPC (banners, logs), and lines that
    /// are not one message: their count and the first few.
    not_jsonrpc: (usize, Vec<String>),
    not_one_message: (usize, Vec<String>),
    pub starts: usize,
    seconds: f64,
    keepalive: &'static str,
}

impl Report {
    pub fn new(options: &Options, total: usize) -> Report {
        Report {
            command: options.command.iter().map(|a| a.to_string_lossy().into_owned()).collect(),
            profile: options.profile.name(),
            seed: options.seed,
            total,
            counts: BTreeMap::new(),
            failures: BTreeMap::new(),
            not_jsonrpc: (0, Vec::new()),
            not_one_message: (0, Vec::new()),
            starts: 0,
            seconds: 0.0,
            keepalive: "ping",
        }
    }

    pub fn add(&mut self, outcome: Outcome) {
        let column = outcome.verdict.column();
        let at = Column::ALL.iter().position(|&c| c == column).unwrap_or(0);
        self.counts.entry(outcome.group).or_default()[at] += 1;
        if column != Column::Passed {
            let kept = self.failures.entry(outcome.group).or_default();
            if kept.len() < SHOWN {
                kept.push(outcome);
            }
        }
    }

    /// Notes what the server wrote to stdout besides its answers.
    pub fn stdout(&mut self, lines: &[Vec<u8>]) {
        for line in lines {
            let slot = match stdout_fault(line) {
                Some("not_one_message") => &mut self.not_one_message,
                Some(_) => &mut self.not_jsonrpc,
                None => continue,
            };
            slot.0 += 1;
            if slot.1.len() < SHOWN {
                slot.1.push(log_value(line));
            }
        }
    }

    pub fn finish(&mut self, took: Duration, keepalive: &'static str) {
        self.seconds = took.as_secs_f64();
        self.keepalive = keepalive;
    }

    /// Lines that did not pass.
    pub fn failed(&self) -> usize {
        self.counts.values().map(|c| c[1..].iter().sum::<usize>()).sum()
    }

    /// Whether everything passed: every line, and nothing but messages on
    /// stdout.
    pub fn passed(&self) -> bool {
        self.failed() == 0 && self.not_jsonrpc.0 == 0 && self.not_one_message.0 == 0
    }

    fn count(&self, group: Group, column: Column) -> usize {
        let at = Column::ALL.iter().position(|&c| c == column).unwrap_or(0);
        self.counts.get(&group).map_or(0, |c| c[at])
    }

    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "jsonrpc-envelope probe: {} (profile {}, {} lines, seed {}, keep-alive {})\n",
            self.command.join(" "),
            self.profile,
            self.total,
            self.seed,
            self.keepalive
        )?;
        write!(out, "{:<18} {:>6}", "group", "lines")?;
        for column in Column::ALL {
            write!(out, " {:>10}", column.name())?;
        }
        writeln!(out)?;
        for group in Group::ALL {
            let lines: usize = Column::ALL.iter().map(|&c| self.count(group, c)).sum();
            if lines == 0 {
                continue;
            }
            write!(out, "{:<18} {lines:>6}", group.name())?;
            for column in Column::ALL {
                write!(out, " {:>10}", self.count(group, column))?;
            }
            writeln!(out)?;
        }
        for (what, (count, first)) in [("not JSON-RPC", &self.not_jsonrpc), ("not one message", &self.not_one_message)]
        {
            if *count > 0 {
                writeln!(out, "\nstdout: {count} lines {what}, such as:")?;
                for line in first {
                    writeln!(out, "  {line}")?;
                }
            }
        }
        for (group, failures) in &self.failures {
            writeln!(out, "\nFirst failures, {}:", group.name())?;
            for failure in failures {
                writeln!(out, "  {} [{}]", failure.name, failure.verdict.name())?;
                writeln!(out, "    line: {}", failure.shown)?;
                match &failure.verdict {
                    Verdict::Missing { owed } => writeln!(out, "    owed: {owed}")?,
                    Verdict::Wrong { owed, got } => {
                        writeln!(out, "    owed: {}", owed.as_deref().unwrap_or("nothing"))?;
                        writeln!(out, "    got:  {}", log_value(got.as_bytes()))?;
                    }
                    Verdict::DifferentId { got } => writeln!(out, "    got:  {}", log_value(got.as_bytes()))?,
                    Verdict::Died { how } => writeln!(out, "    the server ended: {how}")?,
                    Verdict::Unanswered | Verdict::Hung | Verdict::Passed => {}
                }
            }
        }
        let failed = self.failed();
        let summary = if self.passed() { "PASSED" } else { "FAILED" };
        writeln!(
            out,
            "\n{summary}: {} of {} lines passed, {failed} failed; {} lines on stdout not JSON-RPC; {} server starts; {:.1} s",
            self.total - failed,
            self.total,
            self.not_jsonrpc.0 + self.not_one_message.0,
            self.starts,
            self.seconds
        )
    }

    pub fn to_json(&self) -> Value {
        let groups: serde_json::Map<String, Value> = Group::ALL
            .iter()
            .map(|&group| {
                let mut counts = serde_json::Map::new();
                counts.insert("lines".into(), Column::ALL.iter().map(|&c| self.count(group, c)).sum::<usize>().into());
                for column in Column::ALL {
                    counts.insert(column.name().into(), self.count(group, column).into());
                }
                (group.key().to_owned(), Value::Object(counts))
            })
            .collect();
        let failures: Vec<Value> = self
            .failures
            .iter()
            .flat_map(|(group, failures)| failures.iter().map(move |f| (group, f)))
            .map(|(group, f)| {
                let mut record =
                    json!({"group": group.key(), "name": f.name, "line": f.shown, "verdict": f.verdict.name()});
                match &f.verdict {
                    Verdict::Missing { owed } => record["owed"] = owed.as_str().into(),
                    Verdict::Wrong { owed, got } => {
                        record["owed"] = owed.as_deref().into();
                        record["got"] = got.as_str().into();
                    }
                    Verdict::DifferentId { got } => record["got"] = got.as_str().into(),
                    Verdict::Died { how } => record["how"] = how.as_str().into(),
                    _ => {}
                }
                record
            })
            .collect();
        json!({
            "command": self.command,
            "profile": self.profile,
            "seed": self.seed,
            "keepalive": self.keepalive,
            "lines": self.total,
            "failed": self.failed(),
            "groups": groups,
            "failures": failures,
            "stdout": {
                "not_jsonrpc": {"count": self.not_jsonrpc.0, "first": self.not_jsonrpc.1},
                "not_one_message": {"count": self.not_one_message.0, "first": self.not_one_message.1},
            },
            "server_starts": self.starts,
            "seconds": self.seconds,
            "passed": self.passed(),
        })
    }
}
