//! `jsonrpc-envelope`: the library's rules for people looking at captures,
//! and the guard that applies them to a live stdio session.

mod args;
mod guard;
mod lint;
mod record;
mod stream;

use std::io::{self, Write};
use std::process::ExitCode;

use args::{Command, Options};

const HELP: &str = "\
jsonrpc-envelope: what each line of JSON-RPC 2.0 traffic is, and what reply it is owed

Usage:
  jsonrpc-envelope classify [--profile {PROFILES}] [--max-line BYTES] [FILE]
  jsonrpc-envelope lint [--role server|client] [--profile {PROFILES}] [--max-line BYTES] [FILE]
  jsonrpc-envelope lint --recording [--profile {PROFILES}] [--max-line BYTES] FILE
  jsonrpc-envelope guard [OPTIONS] -- COMMAND [ARGS...]
  jsonrpc-envelope --help | --version

Commands:
  classify   One compact JSON record per line: kind, id_kind, id (exact text),
             method, jsonrpc_2_0, has_result, has_error, names_no_request,
             spans, reason, reply_server, reply_client, substitute.
  lint       A person's view of a capture: every line that the library's
             session would not simply forward, with its line number, what it
             is, what the session does with it and why, and the text it sends
             (a reply, or a line in its place); then a count per kind. Exit
             status 1 when there is any such line.
  guard      Runs COMMAND (a stdio MCP server, or any JSON-RPC peer) with the
             rules applied to its stdin and stdout, both ways: see
             `jsonrpc-envelope guard --help`.

Options:
  --role ROLE       Who reads the capture (lint): `client` (default) for a
                    server's stdout as its host reads it, `server` for what a
                    client sent to a server's stdin.
  --recording       (lint) FILE is a guard's recording (guard --record): each
                    direction is reviewed with the role the guard read it as,
                    the two in the order they were recorded.
  --profile NAME    The rules a line is read by ({PROFILES}; default {PROFILE}):
                    JSON-RPC 2.0 alone, or MCP's narrower ones (docs/SPEC.md,
                    section 10), which give the kind invalid_response and
                    substitutes. Read a guard's recording by the profile the
                    guard used (the guard's default: {GUARD_PROFILE}). A capture
                    of one direction has no requests going the other way:
                    there, an MCP response that a live session would
                    substitute or attribute is reported dropped.
  --max-line BYTES  Longest line to classify (default {MAX_LINE}); a longer one
                    is reported as too_long and never held in memory.
  FILE              The capture, lines split at LF; `-` or none: standard input.

Examples:
  jsonrpc-envelope lint server-stdout.jsonl
  my-mcp-server < requests.jsonl | jsonrpc-envelope classify --profile mcp
  jsonrpc-envelope lint --role server client-to-server.jsonl
  jsonrpc-envelope guard --record session.jsonl -- python3 my_server.py
  jsonrpc-envelope lint --recording --profile mcp session.jsonl

Exit status: 0 success (lint: nothing troubling), 1 lint found trouble,
2 usage or input error.
";

/// A help text with the library's defaults and names in it.
fn help(text: &str) -> String {
    text.replace("{MAX_LINE}", &jsonrpc_envelope::DEFAULT_MAX_LINE.to_string())
        .replace("{PROFILES}", &args::profile_names())
        .replace("{PROFILE}", jsonrpc_envelope::Profile::default().name())
        .replace("{GUARD_PROFILE}", guard::DEFAULT_PROFILE.name())
        .replace("{ACTIONS}", &jsonrpc_envelope::Action::ALL.map(jsonrpc_envelope::Action::name).join(", "))
}

fn main() -> ExitCode {
    let options = match args::parse(std::env::args_os().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("jsonrpc-envelope: {message}\nTry 'jsonrpc-envelope --help'.");
            return ExitCode::from(2);
        }
    };
    match run(options) {
        Ok(code) => code,
        // A reader that went away (`| head`) is not an error worth a word.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jsonrpc-envelope: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(options: Options) -> io::Result<ExitCode> {
    let stdout = io::stdout();
    match options.command {
        Command::Help => stdout.lock().write_all(help(HELP).as_bytes()).map(|()| ExitCode::SUCCESS),
        Command::Guard(options) if options.help => {
            stdout.lock().write_all(help(guard::HELP).as_bytes()).map(|()| ExitCode::SUCCESS)
        }
        Command::Guard(options) => Ok(guard::run(options)),
        Command::Version => {
            writeln!(stdout.lock(), "jsonrpc-envelope {}", jsonrpc_envelope::VERSION).map(|()| ExitCode::SUCCESS)
        }
        Command::Classify => {
            let input = stream::open(options.file.as_deref())?;
            let mut out = io::BufWriter::new(stdout.lock());
            stream::for_each_line(input, options.max_line, options.profile, |line| record::write(&mut out, line))?;
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Lint => {
            let input = stream::open(options.file.as_deref())?;
            let troubled = if options.recording {
                lint::run_recording(input, options.profile, options.max_line, stdout.lock())?
            } else {
                lint::run(input, options.role, options.profile, options.max_line, stdout.lock())?
            };
            Ok(if troubled { ExitCode::from(1) } else { ExitCode::SUCCESS })
        }
    }
}
