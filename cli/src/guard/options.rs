//! `guard`'s command line.

use std::ffi::OsString;
use std::path::PathBuf;

use jsonrpc_envelope::DEFAULT_MAX_LINE;

pub struct GuardOptions {
    /// The program and its arguments.
    pub command: Vec<OsString>,
    pub record: Option<PathBuf>,
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
Each line is classified by the library (docs/SPEC.md, section 8):

  host to server, read as a server reads its input:
    request, notification, response    forwarded unchanged
    parse_error, batch, not_object,    answered by the guard with the reply of
    invalid_request                    section 4; COMMAND never sees the line
    empty, not_jsonrpc, too_long       dropped, with a diagnostic
  server to host, read as a host reads a server's output:
    request, notification, response    forwarded unchanged
    invalid_request                    answered by the guard, to COMMAND
    parse_error, batch, not_object,    diverted to stderr as a diagnostic: a
    empty, not_jsonrpc                 banner or a log line never reaches the host
    too_long                           dropped, with a diagnostic

Diagnostics are one line each on stderr: the direction, the line's number,
its kind, what was done, and the line as log_value renders it.

Options:
  --record FILE     Append one JSON object per line seen to FILE: t, dir, n,
                    kind, action, reply, and line (line_base64 when it is not
                    UTF-8, length when it is too long). Review it with
                    `jsonrpc-envelope lint --recording FILE`.
  --pass-invalid    Forward the lines the guard would answer, to see how a
                    server copes with them.
  --quiet           No diagnostics on stderr (a recording still has them).
  --max-line BYTES  Longest line (default {MAX_LINE}); a longer one is dropped
                    as it arrives, never held whole.
  -h, --help        This text.

Examples:
  jsonrpc-envelope guard -- python3 my_server.py
  jsonrpc-envelope guard --record session.jsonl -- node build/index.js
  jsonrpc-envelope lint --recording session.jsonl

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
