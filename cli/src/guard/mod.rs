//! `jsonrpc-envelope guard`: the envelope rules applied to a live stdio
//! session (SPEC §8, §10.4). The child runs with its stdin and stdout on
//! pipes; one thread pumps each direction through the library's reader and
//! relay (one for both directions), each destination is a [`sink::Sink`] that writes whole lines,
//! one thread forwards signals, and this one waits for the child.
//!
//! - `pump`: one direction, from reads to the relay's actions;
//! - `sink`: a destination written by two threads, a line at a time;
//! - `report`, `recording`: diagnostics, and the recording's entries;
//! - `child`, `signals`: the child's start, end and signals;
//! - `options`: the command line (clap).

mod child;
mod options;
mod pump;
pub mod recording;
mod report;
mod signals;
mod sink;

use std::fs::File;
use std::io;
use std::os::fd::AsFd;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::thread;

use jsonrpc_envelope::{Direction, Relay};
pub use options::{DEFAULT_PROFILE, GuardOptions};
use pump::Pump;
use report::{Report, diagnostic};
use sink::Sink;

/// Exit status when the guard itself fails, as `env` uses it.
const GUARD_FAILED: u8 = 125;
/// Exit status for bad options.
const BAD_OPTIONS: u8 = 2;

/// Runs the session; the exit status is the child's (SPEC §8).
pub fn run(options: GuardOptions) -> ExitCode {
    let report = match Report::new(options.quiet, options.recording.as_deref()) {
        Ok(report) => Arc::new(report),
        Err(e) => {
            diagnostic(&e.to_string());
            return ExitCode::from(BAD_OPTIONS);
        }
    };
    match session(options, report) {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            diagnostic(&e.to_string());
            ExitCode::from(GUARD_FAILED)
        }
    }
}

fn session(options: GuardOptions, report: Arc<Report>) -> io::Result<u8> {
    // The host's ends, as files of their own: unbuffered, so a line goes
    // out in the write that the sink makes.
    let host_in = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let host_out = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    let blocked = signals::block()?;
    let (child, child_stdin, child_stdout) = match child::start(&options.command, blocked.set()) {
        Ok(started) => started,
        Err(e) => {
            diagnostic(&e.message);
            return Ok(e.status);
        }
    };
    signals::forward(blocked, child.watch())?;
    let child_in = Sink::new("the child", child_stdin, None)?;
    // When the host stops reading, the child's stdin closes (SPEC §8).
    let host_out = Sink::new("the host", host_out, Some(child_in.clone()))?;
    let relay = Relay::new(options.profile, options.max_line.unwrap_or(0));
    let relay = Arc::new(Mutex::new(if options.pass_invalid { relay.passing_invalid() } else { relay }));
    let pump = |dir, input, forward_to: &Sink, answer_to: &Sink| Pump {
        dir,
        input,
        forward_to: forward_to.clone(),
        answer_to: answer_to.clone(),
        report: Arc::clone(&report),
        relay: Arc::clone(&relay),
    };
    let to_server = pump(Direction::ToServer, host_in, &child_in, &host_out);
    let to_host = pump(Direction::ToHost, child_stdout, &host_out, &child_in);
    // The host's input may never end: that thread is not waited for.
    thread::Builder::new().name(Direction::ToServer.name().into()).spawn(move || to_server.run())?;
    let to_host = thread::Builder::new().name(Direction::ToHost.name().into()).spawn(move || to_host.run())?;
    let status = child.wait()?;
    // What the child wrote before it ended still reaches the host (a
    // process it left behind holding its stdout keeps the guard as long).
    let _ = to_host.join();
    host_out.drain();
    Ok(status)
}
