//! One direction of the session: reads a stream with the library's reader
//! and does with each line what the table says. A line leaves as soon as the
//! read that ends it returns: the lines of one read are handled in groups,
//! whose replies go out in one post and whose forwarded lines in one write,
//! before the next read; then each line of the group is reported, in order.

use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;

use jsonrpc_envelope::{Line, Reader};

use super::record::{Event, Seen};
use super::report::Report;
use super::sink::{Gone, LINES_PER_WRITE, QUEUE_LIMIT, Sink};
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

/// Lines handled but not yet written or reported: at most
/// `LINES_PER_WRITE` of them, and their replies within the sink's queue.
struct Group<'r> {
    lines: Vec<Handled<'r>>,
    forwards: Vec<&'r [u8]>,
    /// The replies, each with its LF.
    replies: String,
}

struct Handled<'r> {
    /// Its reply is `None` here: the reply lies in `Group::replies`.
    event: Event<'r>,
    /// Where the reply lies in `Group::replies`, LF excluded.
    reply: Option<(usize, usize)>,
}

impl Pump {
    /// Runs until the input ends (or fails), then closes the other side's
    /// stream when this is the host's: the end of the host's input is the
    /// end of the child's.
    pub fn run(mut self) {
        let mut reader = Reader::new(self.max_line);
        let mut chunk = vec![0; CHUNK];
        let mut delivering = [true, true];
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
            let batch = match batch {
                Ok(batch) => batch,
                Err(e) => {
                    self.report.note(self.dir, &format!("{e}: the stream is given up"));
                    break;
                }
            };
            // Sized once for the read: the vectors never grow line by line.
            let room = batch.len().min(LINES_PER_WRITE);
            let mut group =
                Group { lines: Vec::with_capacity(room), forwards: Vec::with_capacity(room), replies: String::new() };
            for line in batch {
                self.handle(line, &mut group);
                if group.lines.len() == LINES_PER_WRITE || group.replies.len() >= QUEUE_LIMIT {
                    self.flush(&mut group, &mut delivering);
                }
            }
            self.flush(&mut group, &mut delivering);
            if read == 0 {
                break;
            }
        }
        if self.dir == Direction::ToServer {
            self.forward_to.close();
        }
    }

    /// Does with a line what the table says, into `group`.
    fn handle<'r>(&self, line: Line<'r>, group: &mut Group<'r>) {
        let (number, kind) = (line.number(), line.kind_name());
        let (action, seen, reply) = match line {
            Line::TooLong { len, .. } => (table::action(self.dir, None, self.pass_invalid), Seen::TooLong(len), None),
            Line::Complete { bytes, classification, .. } => {
                let action = table::action(self.dir, Some(classification.kind), self.pass_invalid);
                let reply = if action == Action::Answered { classification.reply(self.dir.role()) } else { None };
                (action, Seen::Bytes(bytes), reply)
            }
        };
        let mut handled =
            Handled { event: Event { dir: self.dir, number, kind, action, reply: None, line: seen }, reply: None };
        match (action, seen, reply) {
            (Action::Forwarded, Seen::Bytes(bytes), _) => group.forwards.push(bytes),
            (Action::Answered, _, Some(reply)) => {
                let start = group.replies.len();
                group.replies.push_str(&reply);
                handled.reply = Some((start, group.replies.len()));
                group.replies.push('\n');
            }
            // The table answers only lines the library has a reply for.
            (Action::Answered, _, None) => handled.event.action = Action::Dropped,
            _ => {}
        }
        group.lines.push(handled);
    }

    /// Posts the group's replies, then writes its forwarded lines, then
    /// reports its lines, each with what happened to it. Replies go first:
    /// whatever the other side answers to a forwarded line then reaches the
    /// peer after them, never before a reply to an earlier line.
    fn flush(&self, group: &mut Group<'_>, delivering: &mut [bool; 2]) {
        // Looked for only when a send fails.
        let lines = &group.lines;
        let first = |action| move || lines.iter().find(|l| l.event.action == action).map_or(0, |l| l.event.number);
        let answered = group.replies.is_empty()
            || self.delivered(&self.answer_to, &mut delivering[1], first(Action::Answered), || {
                self.answer_to.post(group.replies.as_bytes())
            });
        let forwarded = group.forwards.is_empty()
            || self.delivered(&self.forward_to, &mut delivering[0], first(Action::Forwarded), || {
                self.forward_to.write_lines(&group.forwards)
            });
        let records = self.report.records();
        for handled in &group.lines {
            let mut event = handled.event;
            let delivered = match event.action {
                Action::Forwarded => forwarded,
                Action::Answered => answered,
                Action::Diverted | Action::Dropped => true,
            };
            if !delivered {
                // One note said so for all the lines that cannot go: an
                // entry each, but no diagnostic each.
                event.action = Action::Dropped;
                self.report.entry(&event);
            } else if event.action != Action::Forwarded || records {
                event.reply = handled.reply.map(|(start, end)| &group.replies[start..end]);
                self.report.line(&event);
            }
        }
        group.lines.clear();
        group.forwards.clear();
        group.replies.clear();
    }

    /// Whether `send` to `sink` went through; when it did not, notes once
    /// per destination that lines to it are dropped from line `first()` on.
    fn delivered(
        &self,
        sink: &Sink,
        delivering: &mut bool,
        first: impl FnOnce() -> u64,
        send: impl FnOnce() -> Result<(), Gone>,
    ) -> bool {
        let Err(gone) = send() else { return true };
        if std::mem::replace(delivering, false) {
            let why = if gone == Gone::Broken { "stopped reading" } else { "is closed" };
            let (name, first) = (sink.name(), first());
            self.report.note(self.dir, &format!("{name} {why}: lines to it are dropped from line {first} on"));
        }
        false
    }
}
