//! One direction of the session: reads a stream with the library's reader
//! and does with each line what the table says. A line leaves as soon as the
//! read that ends it returns: the lines one read completes go out together,
//! each whole, before the next read.

use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;

use jsonrpc_envelope::{Batch, Line, Reader};

use super::record::Seen;
use super::report::Report;
use super::sink::{Gone, LINES_PER_WRITE, Sink};
use super::table::{self, Action, Direction};

/// Bytes asked of the input per read: what a pipe holds.
const CHUNK: usize = 64 << 10;

pub struct Pump {
    pub dir: Direction,
    pub input: File,
    /// The other side, where forwarded lines go.
    pub forward_to: Sink,
    /// The side the lines come from, where the guard's replies go.
    pub answer_to: Sink,
    pub report: Arc<Report>,
    pub max_line: usize,
    pub pass_invalid: bool,
}

/// A forwarded line not yet written, with what its report needs.
struct Pending<'r> {
    number: u64,
    kind: &'static str,
    bytes: &'r [u8],
}

impl Pump {
    /// Runs until the input ends (or fails), then closes the other side's
    /// stream when this is the host's: the end of the host's input is the
    /// end of the child's.
    pub fn run(mut self) {
        let mut reader = Reader::new(self.max_line);
        let mut chunk = vec![0; CHUNK];
        let mut delivering = true;
        loop {
            let read = match self.input.read(&mut chunk) {
                Ok(read) => read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.report.note(self.dir, &format!("reading failed, taken as the end of the stream: {e}"));
                    0
                }
            };
            let batch = if read == 0 { reader.end() } else { reader.feed(&chunk[..read]) };
            match batch {
                Ok(batch) => self.handle(batch, &mut delivering),
                Err(e) => {
                    self.report.note(self.dir, &format!("{e}: the stream is given up"));
                    break;
                }
            }
            if read == 0 {
                break;
            }
        }
        if self.dir == Direction::ToServer {
            self.forward_to.close();
        }
    }

    /// Does with each line what the table says. Forwarded lines are written
    /// in runs, one write per run, and reported after it, so that every
    /// report says what happened and the reports stay in the lines' order.
    fn handle<'r>(&self, batch: Batch<'r>, delivering: &mut bool) {
        let mut run: Vec<Pending<'r>> = Vec::new();
        for line in batch {
            let (kind, classification, seen) = match &line {
                Line::Complete { bytes, classification, .. } => {
                    (Some(classification.kind), Some(classification), Seen::Bytes(bytes))
                }
                Line::TooLong { len, .. } => (None, None, Seen::TooLong(*len)),
            };
            let mut action = table::action(self.dir, kind, self.pass_invalid);
            if let (Action::Forwarded, Line::Complete { bytes, .. }) = (action, &line) {
                run.push(Pending { number: line.number(), kind: line.kind_name(), bytes });
                if run.len() == LINES_PER_WRITE {
                    self.forward(&mut run, delivering);
                }
                continue;
            }
            self.forward(&mut run, delivering);
            let reply = match (action, classification) {
                (Action::Answered, Some(c)) => c.reply(self.dir.role()),
                _ => None,
            };
            if action == Action::Answered {
                let posted = reply.as_deref().map(|reply| self.answer_to.post(reply.as_bytes()));
                if !matches!(posted, Some(Ok(()))) {
                    action = Action::Dropped;
                }
            }
            let reply = reply.filter(|_| action == Action::Answered);
            self.report.line(self.dir, line.number(), line.kind_name(), action, reply.as_deref(), seen);
        }
        self.forward(&mut run, delivering);
    }

    /// Writes the run of forwarded lines, and reports them.
    fn forward(&self, run: &mut Vec<Pending<'_>>, delivering: &mut bool) {
        if run.is_empty() {
            return;
        }
        let lines: Vec<&[u8]> = run.iter().map(|p| p.bytes).collect();
        let action = match self.forward_to.write_lines(&lines) {
            Ok(()) => Action::Forwarded,
            Err(gone) => {
                if std::mem::replace(delivering, false) {
                    let why = if gone == Gone::Broken { "stopped reading" } else { "is closed" };
                    let first = run[0].number;
                    self.report.note(
                        self.dir,
                        &format!("{} {why}: lines to it are dropped from line {first} on", self.forward_to.name()),
                    );
                }
                Action::Dropped
            }
        };
        // One note above for the lines that could not go: an entry each,
        // but no diagnostic each.
        if action == Action::Dropped || self.report.records() {
            for pending in run.iter() {
                self.report.entry(self.dir, pending.number, pending.kind, action, None, Seen::Bytes(pending.bytes));
            }
        }
        run.clear();
    }
}
