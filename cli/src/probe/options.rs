//! `probe`'s command line.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};
use jsonrpc_envelope::Profile;

use super::judge::Grade;
use crate::values;

/// What to probe, and how.
#[derive(Debug, Clone, Args)]
#[command(
    about = "A stdio conformance report for a server: what it does with lines that test the rules",
    long_about = "\
Starts COMMAND as a stdio MCP server, opens a session (in the era --era
picks), then sends every line of the project's vectors, lines at the limits
and seeded random lines, each followed by a keep-alive request, and judges
what comes back against the reply the library says a server owes each line,
by meaning: a JSON-RPC response with the owed id and the owed error code
(docs/SPEC.md, section 11). Every line the server writes is read as an MCP
client's session reads it. Each failure is graded: harmful (a request left
waiting, an answer with another id, a session that ended or hung, a line a
client cannot read), nonconforming (a reply JSON-RPC does not allow) or
strict (what only the MCP profile's portability rules ask). A server that
dies or hangs is restarted, and the probe goes on. The report goes to
stdout, progress to stderr.",
    override_usage = "jsonrpc-envelope probe [OPTIONS] [--] <COMMAND> [ARGS]...\n       \
                      jsonrpc-envelope probe --replay REPORT.json [--only N]... [OPTIONS] [-- COMMAND [ARGS]...]",
    after_long_help = "\
Examples:
  jsonrpc-envelope probe -- python3 my_server.py
  jsonrpc-envelope probe --json --lines 5000 --seed 7 -- node build/index.js > report.json
  jsonrpc-envelope probe --replay report.json --only 12
  jsonrpc-envelope probe --fail-on harmful --sarif probe.sarif --junit probe.xml -- uvx my-server

Exit status: 0 when no failure is of the --fail-on grade or worse, 1
otherwise, 2 on a usage error, a COMMAND that cannot be started, or a
session that cannot be opened (with --json, a JSON object with `error`)."
)]
pub struct Options {
    /// The rules the replies owed are decided by
    #[arg(long, value_name = "NAME", value_parser = values::profile(), default_value = Profile::Mcp.name())]
    pub profile: Profile,

    /// Which MCP era to speak: `auto` opens with server/discover and falls
    /// back to initialize; `both` probes each era the server supports
    #[arg(long, value_enum, default_value_t = EraChoice::Auto)]
    pub era: EraChoice,

    /// Random lines, after the vectors and the limits
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub lines: usize,

    /// The random lines' seed: the same seed, the same lines
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Also want each error reply's message to be the library's exact text
    /// (JSON-RPC leaves it free); a differing text is graded strict
    #[arg(long)]
    pub strict: bool,

    /// The least grade that fails the run (exit status 1)
    #[arg(long, value_enum, value_name = "GRADE", default_value_t = Grade::Nonconforming)]
    pub fail_on: Grade,

    /// The report as one JSON document (every failure with its bytes, for
    /// --replay)
    #[arg(long)]
    pub json: bool,

    /// Also write the text report to FILE (with --json: both of one run)
    #[arg(long, value_name = "FILE")]
    pub text: Option<PathBuf>,

    /// Also write a JUnit XML report to FILE: a suite per group, a case per
    /// line judged
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,

    /// Also write a SARIF 2.1.0 log to FILE: a result per failure
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,

    /// Send again only the failing lines of a --json report, and judge them
    /// afresh (the report's command, profile and era, unless given here)
    #[arg(long, value_name = "REPORT.json")]
    pub replay: Option<PathBuf>,

    /// With --replay: only the failure whose `number` is N (repeatable)
    #[arg(long, value_name = "N", requires = "replay")]
    pub only: Vec<usize>,

    /// The longest wait for one line's keep-alive answer
    #[arg(long, value_name = "SECONDS", value_parser = seconds, default_value = "5")]
    pub timeout: Duration,

    /// The server to run, and its arguments: all that follows `--`, or the
    /// first argument that is not an option and all that follows it
    #[arg(value_name = "COMMAND", required_unless_present = "replay", trailing_var_arg = true)]
    pub command: Vec<OsString>,
}

/// `--era`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EraChoice {
    Auto,
    Legacy,
    Modern,
    Both,
}

/// A `--timeout` value: a positive number of seconds.
fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|&s| s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| "not a positive number of seconds".to_owned())
}
