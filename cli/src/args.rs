//! The command line (clap): the commands and the options of `classify`
//! and `lint`. Names and defaults come from the library; `guard` and
//! `probe` keep their options in their own modules, and every command's
//! value parsers are in `values`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use jsonrpc_envelope::{Profile, Role};

use crate::values::{max_line, max_line_help, profile, role};

use crate::guard::{self, GuardOptions};
use crate::probe;

/// What each line of JSON-RPC 2.0 traffic is, and what reply it is owed
#[derive(Parser)]
#[command(
    name = "jsonrpc-envelope",
    version = jsonrpc_envelope::VERSION,
    subcommand_required = true,
    arg_required_else_help = true,
    after_help = AFTER_HELP,
)]
pub struct CommandLine {
    #[command(subcommand)]
    pub command: Command,
}

const AFTER_HELP: &str = "\
Examples:
  jsonrpc-envelope lint server-stdout.jsonl
  my-mcp-server < requests.jsonl | jsonrpc-envelope classify --profile mcp
  jsonrpc-envelope lint --role server client-to-server.jsonl
  jsonrpc-envelope guard --record session.jsonl -- python3 my_server.py
  jsonrpc-envelope lint --recording --profile mcp session.jsonl
  jsonrpc-envelope probe -- python3 my_server.py

Exit status: 0 success (lint: nothing troubling; probe: everything passed),
1 lint found trouble or a probe line failed, 2 usage or input error; guard
exits with its COMMAND's status (see `jsonrpc-envelope guard --help`).";

#[derive(Subcommand)]
pub enum Command {
    /// One compact JSON record per line, with what the library makes of it
    ///
    /// The record's fields, in order: kind, id_kind, id (exact text),
    /// method, jsonrpc_2_0, has_result, has_error, names_no_request, spans,
    /// reason, reply_server, reply_client, substitute; a line over the limit
    /// is {"kind":"too_long","length":N}.
    Classify(ClassifyOptions),
    /// A person's view of a capture: each line the library's session would
    /// not simply forward
    ///
    /// Every line that the library's session would not simply forward, with
    /// its line number, what it is, what the session does with it and why,
    /// and the text it sends (a reply, or a line in its place); then a
    /// count per kind. Exit status 1 when there is any such line.
    Lint(LintOptions),
    Guard(GuardOptions),
    Probe(probe::Options),
}

#[derive(Args)]
pub struct ClassifyOptions {
    /// The rules a line is read by: JSON-RPC 2.0 alone, or MCP's narrower
    /// ones (docs/SPEC.md, section 10), which give the kind
    /// invalid_response and substitutes
    #[arg(long, value_name = "NAME", value_parser = profile(), default_value = Profile::default().name())]
    pub profile: Profile,

    #[arg(
        long,
        value_name = "BYTES",
        value_parser = max_line,
        help = max_line_help("Longest line to classify; a longer one is reported as too_long and never held in memory"),
    )]
    pub max_line: Option<usize>,

    /// The capture, lines split at LF; `-` or none: standard input
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

#[derive(Args)]
pub struct LintOptions {
    /// Who reads the capture: `client` for a server's stdout as its host
    /// reads it, `server` for what a client sent to a server's stdin
    #[arg(long, value_name = "ROLE", value_parser = role(), default_value = Role::Client.name())]
    pub role: Role,

    /// FILE is a guard's recording (guard --record): each direction is
    /// reviewed with the role the guard read it as, the two in the order
    /// they were recorded
    #[arg(long, conflicts_with = "role")]
    pub recording: bool,

    /// The rules a line is read by: JSON-RPC 2.0 alone, or MCP's narrower
    /// ones (docs/SPEC.md, section 10)
    #[arg(
        long,
        value_name = "NAME",
        value_parser = profile(),
        default_value = Profile::default().name(),
        long_help = format!(
            "The rules a line is read by: JSON-RPC 2.0 alone, or MCP's narrower ones (docs/SPEC.md, \
             section 10), which give the kind invalid_response and substitutes. Read a guard's recording \
             by the profile the guard used (the guard's default: {}). A capture of one direction has no \
             requests going the other way: there, an MCP response that a live session would substitute \
             or attribute is reported dropped",
            guard::DEFAULT_PROFILE.name()
        ),
    )]
    pub profile: Profile,

    #[arg(
        long,
        value_name = "BYTES",
        value_parser = max_line,
        help = max_line_help("Longest line to read; a longer one is reported as too_long and never held in memory"),
    )]
    pub max_line: Option<usize>,

    /// The capture (or, with --recording, the recording), lines split at
    /// LF; `-` or none: standard input
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        CommandLine::command().debug_assert();
    }

    #[test]
    fn the_guard_s_default_profile_is_its_own() {
        let parsed = CommandLine::try_parse_from(["jsonrpc-envelope", "guard", "cat"]).unwrap();
        let Command::Guard(options) = parsed.command else { panic!("guard") };
        assert_eq!(options.profile, guard::DEFAULT_PROFILE);
        assert_eq!(options.command, ["cat"]);
    }
}
