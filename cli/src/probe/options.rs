//! `probe`'s command line.

use std::ffi::OsString;
use std::time::Duration;

use clap::Args;
use jsonrpc_envelope::Profile;

use crate::args;

/// What to probe, and how.
#[derive(Debug, Clone, Args)]
#[command(
    about = "A stdio conformance report for a server: what it does with lines that test the rules",
    long_about = "\
Starts COMMAND as a stdio server, completes the MCP handshake, then sends
every line of the project's vectors, lines at the limits and seeded random
lines, each followed by a keep-alive request, and judges what comes back
against the reply the library says a server owes each line (docs/SPEC.md,
section 11). A server that dies or hangs is restarted, and the probe goes on.
The report goes to stdout, progress to stderr.",
    override_usage = "jsonrpc-envelope probe [OPTIONS] [--] <COMMAND> [ARGS]...",
    after_long_help = "\
Examples:
  jsonrpc-envelope probe -- python3 my_server.py
  jsonrpc-envelope probe --json --lines 5000 --seed 7 -- node build/index.js

Exit status: 0 when every line passed and the server's stdout held nothing
but messages, 1 otherwise, 2 on a usage error, a COMMAND that cannot be
started, or a failed handshake."
)]
pub struct Options {
    /// The rules the replies owed are decided by
    #[arg(long, value_name = "NAME", value_parser = args::profile(), default_value = Profile::Mcp.name())]
    pub profile: Profile,

    /// Random lines, after the vectors and the limits
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub lines: usize,

    /// The random lines' seed: the same seed, the same lines
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// The report as one JSON document, for CI
    #[arg(long)]
    pub json: bool,

    /// The longest wait for one line's keep-alive answer
    #[arg(long, value_name = "SECONDS", value_parser = seconds, default_value = "5")]
    pub timeout: Duration,

    /// The server to run, and its arguments: all that follows `--`, or the
    /// first argument that is not an option and all that follows it
    #[arg(value_name = "COMMAND", required = true, trailing_var_arg = true)]
    pub command: Vec<OsString>,
}

/// A `--timeout` value: a positive number of seconds.
fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|&s| s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| "not a positive number of seconds".to_owned())
}
