//! `guard`'s command line.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Args;
use jsonrpc_envelope::{Action, Profile};

use crate::values;

/// The profile the guard reads lines by unless told otherwise (SPEC §10).
pub const DEFAULT_PROFILE: Profile = Profile::Mcp;

#[derive(Args)]
#[command(
    about = "Runs COMMAND, a stdio MCP server or any JSON-RPC peer, behind the envelope rules, both ways",
    long_about = long_about(),
    override_usage = "jsonrpc-envelope guard [OPTIONS] [--] <COMMAND> [ARGS]...",
    after_long_help = after_help(),
)]
pub struct GuardOptions {
    /// The rules lines are read by: the MCP profile (SPEC section 10) keeps
    /// from each side what no MCP SDK reads; the JSON-RPC one is for peers
    /// that are not MCP
    #[arg(long, value_name = "NAME", value_parser = values::profile(), default_value = DEFAULT_PROFILE.name())]
    pub profile: Profile,

    /// Append one JSON object per line seen to FILE (a new FILE is created
    /// with mode 0600)
    ///
    /// Each object has t, dir, n, kind, action, reply (the guard's answer,
    /// or the line sent in its place), and line (line_base64 when it is not
    /// UTF-8, length when it is too long). FILE holds everything the session
    /// carried (tool arguments, file contents, tokens): a new one is created
    /// with mode 0600, the user's alone whatever the umask; an existing one
    /// is appended to and keeps its mode. A line's object is written to FILE
    /// before the line, or what the guard sends for it, reaches a peer: a
    /// guard killed at any moment has recorded every line it delivered.
    /// Review it with `jsonrpc-envelope lint --recording --profile NAME
    /// FILE`.
    #[arg(long = "record", value_name = "FILE")]
    pub recording: Option<PathBuf>,

    /// Forward the lines the guard would answer, to see how a server copes
    /// with them
    #[arg(long)]
    pub pass_invalid: bool,

    /// No diagnostics on stderr (a recording still has them)
    #[arg(long)]
    pub quiet: bool,

    #[arg(
        long,
        value_name = "BYTES",
        value_parser = values::max_line,
        help = values::max_line_help(
            "Longest line; a longer one is never held whole: dropped as it arrives, or, in the MCP profile, \
             answered or substituted by the id its first bytes hold"
        ),
    )]
    pub max_line: Option<usize>,

    /// The program to run, and its arguments: all that follows `--`, or
    /// the first argument that is not an option and all that follows it
    #[arg(value_name = "COMMAND", required = true, trailing_var_arg = true)]
    pub command: Vec<OsString>,
}

/// What the guard does, with the library's action words.
fn long_about() -> String {
    let actions = Action::ALL.map(Action::name).join(", ");
    format!(
        "\
Runs COMMAND, a stdio JSON-RPC server (such as an MCP server), behind the
envelope rules, both ways, with neither side changed.

COMMAND's stdin and stdout go through the guard; its stderr is the guard's.
Each direction is read by the library's session (docs/SPEC.md, sections 8
to 10): the host's lines as a server reads its input, COMMAND's as a host
reads a server's output. For each line the session decides one action, and
the guard does exactly that: the line goes on unchanged; or the guard answers
its sender itself (a broken request, or, from the host, a line that is not a
message), and the other side never sees it; or a line the session writes goes
on in its place (an MCP response no SDK could read, replaced by an error for
the request it answers; an error that names no request, given the id of the
one request outstanding); or it is dropped, or diverted to stderr (a banner
or a log line printed to COMMAND's stdout never reaches the host).
The actions, as diagnostics and recordings name them:
  {actions}.

Diagnostics are one line each on stderr, for every line not simply
forwarded: the direction, the line's number, its kind, the action and the
session's note on why, and the line as log_value renders it."
    )
}

/// Examples and exit statuses.
fn after_help() -> String {
    let profile = DEFAULT_PROFILE.name();
    format!(
        "\
Examples:
  jsonrpc-envelope guard -- python3 my_server.py
  jsonrpc-envelope guard --record session.jsonl -- node build/index.js
  jsonrpc-envelope lint --recording --profile {profile} session.jsonl
  jsonrpc-envelope guard --profile jsonrpc -- my-json-rpc-peer

  In an MCP host's configuration, where a server was
    \"command\": \"my-server\", \"args\": [\"--stdio\"]
  write
    \"command\": \"jsonrpc-envelope\", \"args\": [\"guard\", \"--\", \"my-server\", \"--stdio\"]

Exit status: COMMAND's, or 128+N when signal N ended it (SIGINT, SIGTERM and
SIGHUP sent to the guard are passed to COMMAND); 127 when COMMAND is not
found, 126 when it cannot be run, 2 for bad options, 125 when the guard itself
fails."
    )
}
