//! The probe's report (SPEC §11): a verdict line per grade, a table a
//! person reads at a glance, the first failures of each group; the JSON
//! form is `json.rs`, the CI forms `ci.rs`.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Duration;

use jsonrpc_envelope::{Profile, log_value};

use super::era::Era;
use super::judge::{Grade, Verdict};
use super::limit::Found;
use super::replay::Plan;
use super::stdout::Fault;
use super::{Group, Options, Outcome, known};

/// Failures the text report lists per group.
const SHOWN: usize = 5;
/// Lines kept per stdout fault.
pub const KEPT: usize = 5;

/// What the server wrote that a client's session finds wrong, per fault.
#[derive(Debug, Default, Clone)]
pub struct StdoutFaults {
    pub count: usize,
    /// Per grade.
    pub graded: BTreeMap<Grade, usize>,
    pub first: Vec<Vec<u8>>,
}

#[derive(Debug)]
pub struct Report {
    pub command: Vec<String>,
    profile: Profile,
    pub era: Era,
    pub seed: u64,
    pub strict: bool,
    pub fail_on: Grade,
    pub outcomes: Vec<Outcome>,
    pub stdout: BTreeMap<Fault, StdoutFaults>,
    pub starts: usize,
    pub seconds: f64,
    pub keepalive: &'static str,
    pub server_info: Option<(String, String)>,
    pub limit: Option<Found>,
    pub shutdown: Option<String>,
    /// The report this run replays.
    pub replay_of: Option<String>,
    /// Why the era was not probed (`--era both`).
    pub unsupported: Option<String>,
}

impl Report {
    pub fn new(options: &Options, plan: &Plan, era: Era) -> Report {
        Report {
            command: plan.command.iter().map(|a| a.to_string_lossy().into_owned()).collect(),
            profile: plan.profile,
            era,
            seed: options.seed,
            strict: options.strict,
            fail_on: options.fail_on,
            outcomes: Vec::new(),
            stdout: BTreeMap::new(),
            starts: 0,
            seconds: 0.0,
            keepalive: era.keepalive(),
            server_info: None,
            limit: None,
            shutdown: None,
            replay_of: plan.replay_of.clone(),
            unsupported: None,
        }
    }

    pub fn unsupported(options: &Options, plan: &Plan, era: Era, why: String) -> Report {
        Report { unsupported: Some(why), ..Report::new(options, plan, era) }
    }

    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Adds a line's outcome; returns its index, for a late answer.
    pub fn add(&mut self, outcome: Outcome) -> usize {
        self.outcomes.push(outcome);
        self.outcomes.len() - 1
    }

    pub fn outcome_mut(&mut self, index: usize) -> &mut Outcome {
        &mut self.outcomes[index]
    }

    pub fn regrade(&mut self, index: usize, verdict: Verdict, grade: Option<Grade>) {
        let outcome = &mut self.outcomes[index];
        outcome.verdict = verdict;
        outcome.grade = grade;
    }

    pub fn stdout_fault(&mut self, (fault, grade): (Fault, Grade), line: &[u8]) {
        let faults = self.stdout.entry(fault).or_default();
        faults.count += 1;
        *faults.graded.entry(grade).or_default() += 1;
        if faults.first.len() < KEPT {
            faults.first.push(line.to_vec());
        }
    }

    pub fn finish(&mut self, took: Duration, keepalive: &'static str, era: Era) {
        self.seconds = took.as_secs_f64();
        self.keepalive = keepalive;
        self.era = era;
    }

    /// Failures of `grade`: lines, and lines on stdout.
    pub fn count(&self, grade: Grade) -> usize {
        self.lines_of(None, Some(grade)) + self.stdout_of(grade)
    }

    pub fn stdout_of(&self, grade: Grade) -> usize {
        self.stdout.values().map(|f| f.graded.get(&grade).copied().unwrap_or(0)).sum()
    }

    /// Lines of `group` (all, with `None`) whose grade is `grade` (passed,
    /// with `None`).
    pub fn lines_of(&self, group: Option<Group>, grade: Option<Grade>) -> usize {
        self.outcomes.iter().filter(|o| group.is_none_or(|g| o.group == g) && o.grade == grade).count()
    }

    pub fn lines_in(&self, group: Group) -> usize {
        self.outcomes.iter().filter(|o| o.group == group).count()
    }

    /// Lines that did not pass.
    pub fn failed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.grade.is_some()).count()
    }

    /// Whether no failure is of the `--fail-on` grade or worse.
    pub fn passed(&self) -> bool {
        Grade::ALL.iter().filter(|&&g| g <= self.fail_on).all(|&g| self.count(g) == 0)
    }

    /// The command as a shell would read it back.
    pub fn command_line(&self) -> String {
        self.command.iter().map(|a| shell_quoted(a)).collect::<Vec<_>>().join(" ")
    }

    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        let replay = self.replay_of.as_deref().map(|r| format!(", replaying {r}")).unwrap_or_default();
        writeln!(
            out,
            "jsonrpc-envelope probe: {} (profile {}, era {}, {} lines, seed {}, keep-alive {}{replay})",
            self.command_line(),
            self.profile.name(),
            self.era.name(),
            self.outcomes.len(),
            self.seed,
            self.keepalive
        )?;
        if let Some(why) = &self.unsupported {
            return writeln!(out, "\nNOT PROBED: {why}");
        }
        if let Some((name, version)) = &self.server_info {
            writeln!(out, "server: {} {}", log_value(name.as_bytes()), log_value(version.as_bytes()))?;
        }
        writeln!(out)?;
        for grade in Grade::ALL {
            let count = self.count(grade);
            let state = match (count, grade <= self.fail_on) {
                (0, _) => "ok",
                (_, true) => "FAIL",
                (_, false) => "(does not fail the run: --fail-on)",
            };
            writeln!(out, "{:<14} {count:>6}  {state:<4}  {}", grade.name(), grade.meaning())?;
        }
        if let Some(transport) = known::matching(&self.outcomes) {
            writeln!(
                out,
                "\nwhere from: these failures match the stdio transport of {} (as measured with {}): they come from\n\
                 that transport, not from the server's own code. `jsonrpc-envelope guard -- COMMAND` removes them,\n\
                 as does this project's transport for that SDK: {}.",
                transport.sdk, transport.measured, transport.ours
            )?;
        }
        writeln!(out)?;
        write!(out, "{:<18} {:>6} {:>8}", "group", "lines", "passed")?;
        for grade in Grade::ALL {
            write!(out, " {:>13}", grade.name())?;
        }
        writeln!(out)?;
        for group in Group::ALL {
            let lines = self.lines_in(group);
            if lines == 0 {
                continue;
            }
            write!(out, "{:<18} {lines:>6} {:>8}", group.name(), self.lines_of(Some(group), None))?;
            for grade in Grade::ALL {
                write!(out, " {:>13}", self.lines_of(Some(group), Some(grade)))?;
            }
            writeln!(out)?;
        }
        let on_stdout: usize = self.stdout.values().map(|f| f.count).sum();
        write!(out, "{:<18} {on_stdout:>6} {:>8}", "stdout", "")?;
        for grade in Grade::ALL {
            write!(out, " {:>13}", self.stdout_of(grade))?;
        }
        writeln!(out)?;
        for (fault, faults) in &self.stdout {
            writeln!(out, "\nstdout: {} lines {}, such as:", faults.count, fault.words())?;
            for line in &faults.first {
                writeln!(out, "  {}", log_value(line))?;
            }
        }
        for group in Group::ALL {
            let failures: Vec<&Outcome> =
                self.outcomes.iter().filter(|o| o.group == group && o.grade.is_some()).take(SHOWN).collect();
            if failures.is_empty() {
                continue;
            }
            writeln!(out, "\nFirst failures, {}:", group.name())?;
            for failure in failures {
                let grade = failure.grade.map_or("", Grade::name);
                writeln!(out, "  #{} {} [{}, {grade}]", failure.number, failure.name, failure.verdict.name())?;
                writeln!(
                    out,
                    "    line: {}",
                    failure.bytes.as_deref().map_or_else(|| format!("({} bytes)", failure.length), log_value)
                )?;
                if let Some(owed) = failure.verdict.owed() {
                    writeln!(out, "    owed: {owed}")?;
                }
                match &failure.verdict {
                    Verdict::Wrong { owed: None, .. } => writeln!(out, "    owed: nothing")?,
                    Verdict::Died { how } => writeln!(out, "    the server ended: {how}")?,
                    _ => {}
                }
                if let Some(got) = failure.got.first() {
                    writeln!(out, "    got:  {}", log_value(got))?;
                }
            }
        }
        if let Some(limit) = &self.limit {
            writeln!(out, "\nline limit: the server {}", limit.words())?;
        }
        if let Some(shutdown) = &self.shutdown {
            writeln!(out, "shutdown: the server {shutdown}")?;
        }
        let summary = if self.passed() { "PASSED" } else { "FAILED" };
        let failed = self.failed();
        writeln!(
            out,
            "\n{summary}: {} of {} lines passed, {failed} failed; {on_stdout} lines on stdout a client's session refuses; {} server starts; {:.1} s",
            self.outcomes.len() - failed,
            self.outcomes.len(),
            self.starts,
            self.seconds
        )
    }
}

/// `arg` as a POSIX shell reads it back: as it is when it holds nothing a
/// shell treats specially, else in single quotes.
pub fn shell_quoted(arg: &str) -> String {
    let plain = !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_alphanumeric() || b"@%+=:,./-_".contains(&b));
    if plain { arg.to_owned() } else { format!("'{}'", arg.replace('\'', r"'\''")) }
}

#[cfg(test)]
mod tests {
    use super::shell_quoted;

    #[test]
    fn arguments_are_quoted_as_a_shell_reads_them() {
        assert_eq!(shell_quoted("python3"), "python3");
        assert_eq!(shell_quoted("my server.py"), "'my server.py'");
        assert_eq!(shell_quoted("it's"), r"'it'\''s'");
        assert_eq!(shell_quoted(""), "''");
        assert_eq!(shell_quoted("$HOME"), "'$HOME'");
    }
}
