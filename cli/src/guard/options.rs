//! `guard`'s command line.

use std::ffi::OsString;
use std::path::PathBuf;

use jsonrpc_envelope::{DEFAULT_MAX_LINE, Profile};

/// The profile the guard reads lines by unless told otherwise (SPEC §10).
pub const DEFAULT_PROFILE: Profile = Profile::Mcp;

pub struct GuardOptions {
    /// The program and its arguments.
    pub command: Vec<OsString>,
    pub record: Option<PathBuf>,
    pub profile: Profile,
    pub pass_invalid: bool,
    pub quiet: bool,
    pub max_line: usize,
    pub help: bool,
}

pub const HELP: &str = "\
jsonrpc-envelope guard: runs a stdio JSON-RPC server (such as an MCP server)
behind the envelope rules, both ways, with neither side changed

Usage:
  jsonrpc-envelope guard [OPTIONS] -- COMMAND [ARGS...]

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
  {ACTIONS}.

Diagnostics are one line each on stderr, for every line not simply
forwarded: the direction, the line's number, its kind, the action and the
session's note on why, and the line as log_value renders it.

Options:
  --profile NAME    The rules lines are read by ({PROFILES}; default {GUARD_PROFILE}):
                    the MCP profile (SPEC section 10) keeps from each side
                    what no MCP SDK reads; the JSON-RPC one is for peers
                    that are not MCP.
  --record FILE     Append one JSON object per line seen to FILE: t, dir, n,
                    kind, action, reply (the guard's answer, or the line sent
                    in its place), and line (line_base64 when it is not
                    UTF-8, length when it is too long). Review it with
                    `jsonrpc-envelope lint --recording --profile NAME FILE`.
  --pass-invalid    Forward the lines the guard would answer, to see how a
                    server copes with them.
  --quiet           No diagnostics on stderr (a recording still has them).
  --max-line BYTES  Longest line (default {MAX_LINE}); a longer one is dropped
                    as it arrives, never held whole.
  -h, --help        This text.

Examples:
  jsonrpc-envelope guard -- python3 my_server.py
  jsonrpc-envelope guard --record session.jsonl -- node build/index.js
  jsonrpc-envelope lint --recording --profile {GUARD_PROFILE} session.jsonl
  jsonrpc-envelope guard --profile jsonrpc -- my-json-rpc-peer

  In an MCP host's configuration, where a server was
    \"command\": \"my-server\", \"args\": [\"--stdio\"]
  write
    \"command\": \"jsonrpc-envelope\", \"args\": [\"guard\", \"--\", \"my-server\", \"--stdio\"]

Exit status: COMMAND's, or 128+N when signal N ended it (SIGINT, SIGTERM and
SIGHUP sent to the guard are passed to COMMAND); 127 when COMMAND is not
found, 126 when it cannot be run, 2 for bad options, 125 when the guard itself
fails.
";

/// Reads the options after `guard`. COMMAND starts after `--`, or at the
/// first argument that is not an option.
pub fn parse(mut args: impl Iterator<Item = OsString>) -> Result<GuardOptions, String> {
    let mut options = GuardOptions {
        command: Vec::new(),
        record: None,
        profile: DEFAULT_PROFILE,
        pass_invalid: false,
        quiet: false,
        max_line: DEFAULT_MAX_LINE,
        help: false,
    };
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--") => break,
            Some("-h" | "--help") => {
                options.help = true;
                return Ok(options);
            }
            Some("--record") => options.record = Some(args.next().ok_or("--record needs a file")?.into()),
            Some("--profile") => {
                let value = args.next().ok_or("--profile needs a value")?;
                options.profile = crate::args::profile(&value.to_string_lossy())?;
            }
            Some("--pass-invalid") => options.pass_invalid = true,
            Some("--quiet") => options.quiet = true,
            Some("--max-line") => {
                let value = args.next().ok_or("--max-line needs a value")?;
                options.max_line = crate::args::max_line(&value.to_string_lossy())?;
            }
            Some(flag) if flag.starts_with('-') => return Err(format!("guard: unknown option {flag:?}")),
            _ => {
                options.command.push(arg);
                break;
            }
        }
    }
    options.command.extend(args);
    if options.command.is_empty() {
        return Err("guard needs a command: jsonrpc-envelope guard [OPTIONS] -- COMMAND [ARGS...]".into());
    }
    Ok(options)
}
