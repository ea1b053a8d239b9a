//! `jsonrpc-envelope`: the library's rules for people looking at captures,
//! the guard that applies them to a live stdio session, and the probe that
//! reports what a server does with lines that test them.

mod args;
mod classify;
mod guard;
mod lint;
mod probe;
mod stream;
mod values;

use std::io::{self, Write};
use std::process::ExitCode;

use args::{ClassifyOptions, Command, CommandLine, LintOptions};
use clap::Parser;

/// Exit status when lint finds trouble or a probe line fails.
const FOUND_TROUBLE: u8 = 1;
/// Exit status for an input the command cannot read or a server the probe
/// cannot start (clap exits with the same for usage errors).
const FAILED: u8 = 2;

fn main() -> ExitCode {
    // Usage errors, --help and --version: clap's words and exit statuses.
    let command_line = CommandLine::parse();
    let (name, result) = match command_line.command {
        Command::Guard(options) => return guard::run(options),
        Command::Classify(options) => ("jsonrpc-envelope", classify(options)),
        Command::Lint(options) => ("jsonrpc-envelope", lint(options)),
        Command::Probe(options) => ("jsonrpc-envelope probe", probe(&options)),
    };
    match result {
        Ok(code) => code,
        // A reader that went away (`| head`) is not an error worth a word.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::from(FAILED)
        }
    }
}

fn classify(options: ClassifyOptions) -> io::Result<ExitCode> {
    let input = stream::open(options.file.as_deref())?;
    let max_line = options.max_line.unwrap_or(options.profile.default_max_line());
    classify::run(input, options.profile, max_line, io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

fn lint(options: LintOptions) -> io::Result<ExitCode> {
    let input = stream::open(options.file.as_deref())?;
    let stdout = io::stdout().lock();
    let max_line = options.max_line.unwrap_or(options.profile.default_max_line());
    let troubled = if options.recording {
        lint::run_recording(input, options.profile, max_line, stdout)?
    } else {
        lint::run(input, options.role, options.profile, max_line, stdout)?
    };
    Ok(if troubled { ExitCode::from(FOUND_TROUBLE) } else { ExitCode::SUCCESS })
}

/// Runs the probe; its report on stdout, its progress on stderr. The exit
/// status is the report's, even when its reader went away. With `--json`, a
/// run that could not be made is a JSON object too.
fn probe(options: &probe::Options) -> io::Result<ExitCode> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let reports = match probe::run(options, &mut io::stderr()) {
        Ok(reports) => reports,
        Err(e) if options.json => {
            let _ = serde_json::to_writer_pretty(&mut out, &probe::error_document(options, &e));
            let _ = writeln!(out).and_then(|()| out.flush());
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    let written = probe::write(options, &reports, &mut out);
    match written.and_then(|passed| out.flush().map(|()| passed)) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e),
        Ok(false) => Ok(ExitCode::from(FOUND_TROUBLE)),
        _ => Ok(if reports.iter().all(probe::Report::passed) {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(FOUND_TROUBLE)
        }),
    }
}
