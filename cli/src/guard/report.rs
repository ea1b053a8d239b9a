//! What the guard tells about the lines it sees: a diagnostic on its stderr
//! for each line it does not forward (SPEC §8), and, with `--record`, an
//! entry in the recording for every line. The recording is never behind the
//! wire: the pumps [`Report::flush`] a line's entry to the file before the
//! line, or the guard's text for it, goes to a peer.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use jsonrpc_envelope::{Action, log_value};

use super::recording::{self, Event, Seen};
use jsonrpc_envelope::Direction;

/// The prefix of every line the guard itself writes to stderr.
pub const PREFIX: &str = "jsonrpc-envelope guard: ";

/// The mode a new recording is created with: it holds everything the
/// session carried (tool arguments, file contents, tokens), so it is the
/// user's alone.
const RECORDING_MODE: u32 = 0o600;

/// The recording's buffer: the entries of a group of lines go out in one
/// write when they fit (a longer entry is streamed through it, never held
/// whole).
const RECORDING_BUFFER: usize = 64 << 10;

pub struct Report {
    start: Instant,
    quiet: bool,
    /// `None` without `--record`, or once writing it has failed.
    recording: Mutex<Option<BufWriter<File>>>,
}

impl Report {
    /// Opens the recording, when there is one, for appending: a new file
    /// with [`RECORDING_MODE`], an existing one with its mode as it is.
    pub fn new(quiet: bool, recording: Option<&Path>) -> io::Result<Report> {
        let recording = match recording {
            None => None,
            Some(path) => Some(BufWriter::with_capacity(
                RECORDING_BUFFER,
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .mode(RECORDING_MODE)
                    .open(path)
                    .map_err(|e| io::Error::new(e.kind(), format!("--record {}: {e}", path.display())))?,
            )),
        };
        Ok(Report { start: Instant::now(), quiet, recording: Mutex::new(recording) })
    }

    /// Whether a forwarded line needs reporting at all (it has no
    /// diagnostic, only an entry in the recording).
    pub fn is_recording(&self) -> bool {
        self.lock().is_some()
    }

    /// Reports a line: its diagnostic unless it was forwarded, and its entry
    /// in the recording.
    pub fn line(&self, event: &Event<'_>) {
        if event.action != Action::Forward && !self.quiet {
            let text = match event.line {
                Seen::Bytes(bytes) => log_value(bytes),
                Seen::TooLong(len) => format!("a line of {len} bytes"),
            };
            let (dir, number, kind, action) = (event.dir.name(), event.number, event.kind, event.action.name());
            let note = event.note.map_or_else(String::new, |note| format!(" ({note})"));
            diagnostic(&format!("{dir} line {number}: {kind}, {action}{note}: {text}"));
        }
        self.entry(event);
    }

    /// Writes a line's entry in the recording, without a diagnostic. It may
    /// wait in the buffer until [`Report::flush`].
    pub fn entry(&self, event: &Event<'_>) {
        let mut file = self.lock();
        if let Some(out) = file.as_mut() {
            let seconds = self.start.elapsed().as_secs_f64();
            if let Err(e) = recording::write_entry(out, seconds, event) {
                stop(&mut file, &e);
            }
        }
    }

    /// Writes the entries buffered so far to the file: when it returns, they
    /// are there (written, not necessarily on disk), whenever the guard is
    /// killed after. Called before the lines they record go out.
    pub fn flush(&self) {
        let mut file = self.lock();
        if let Some(out) = file.as_mut()
            && let Err(e) = out.flush()
        {
            stop(&mut file, &e);
        }
    }

    /// A diagnostic about a direction rather than a line.
    pub fn note(&self, dir: Direction, text: &str) {
        if !self.quiet {
            diagnostic(&format!("{}: {text}", dir.name()));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<BufWriter<File>>> {
        self.recording.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Stops the recording at its first failure, saying so once.
fn stop(file: &mut Option<BufWriter<File>>, e: &io::Error) {
    // What the buffer still holds is dropped, not written again.
    if let Some(out) = file.take() {
        let _ = out.into_parts();
    }
    diagnostic(&format!("cannot write the recording, which stops here: {e}"));
}

/// One line on stderr, in one write, so that it never mixes inside a line
/// with what the child writes there.
pub fn diagnostic(text: &str) {
    let line = format!("{PREFIX}{text}\n");
    // Nothing is left to tell a failure to.
    let _ = io::stderr().lock().write_all(line.as_bytes());
}
