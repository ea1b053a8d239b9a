//! One direction of the session: reads a stream with the library's reader
//! and does with each line exactly what the direction's [`Session`]
//! decides. A line leaves as soon as the read that ends it returns: the
//! lines of one read are handled in groups, whose replies go out in one post
//! and whose lines handed on in one write, before the next read. Each line
//! of a group is reported first, in order, and the group's entries are in
//! the recording before any of it goes out (so the recording is never
//! behind the wire).
//!
//! The two directions are one relay of the library's, shared by both
//! pumps: it decides each line and notes, before the line is written, what
//! goes to the peer of each side, so that the answer to a request can never
//! be read before the relay knows the request is outstanding. A pump locks
//! the relay once per group, and never while it writes.

use std::fs::File;
use std::io::{self, Read};
use std::sync::{Arc, Mutex, MutexGuard};

use jsonrpc_envelope::{Action, Direction, Line, Relay};

use super::recording::{Event, Seen};
use super::report::Report;
use super::sink::{Gone, LINES_PER_WRITE, QUEUE_LIMIT, Sink};

/// Bytes asked of the input per read: what a pipe holds.
const CHUNK: usize = 64 << 10;

fn lock(relay: &Mutex<Relay>) -> MutexGuard<'_, Relay> {
    // A panic in another thread holding the lock at worst leaves an id
    // outstanding too long or not at all: the poison is ignored.
    relay.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub struct Pump {
    pub dir: Direction,
    pub input: File,
    /// The other side, where lines handed on go.
    pub forward_to: Sink,
    /// The side the lines come from, where the guard's replies go.
    pub answer_to: Sink,
    pub report: Arc<Report>,
    pub relay: Arc<Mutex<Relay>>,
}

/// Lines handled but not yet written or reported: at most
/// `LINES_PER_WRITE` of them, and their replies within the sink's queue.
struct Group<'r> {
    lines: Vec<Handled<'r>>,
    /// What goes on to the other side, in order.
    forwards: Vec<Out<'r>>,
    /// The replies, each with its LF.
    replies: String,
}

/// A line handed on: the line read, or the session's text in its place.
enum Out<'r> {
    Line(&'r [u8]),
    Text(String),
}

impl AsRef<[u8]> for Out<'_> {
    fn as_ref(&self) -> &[u8] {
        match self {
            Out::Line(bytes) => bytes,
            Out::Text(text) => text.as_bytes(),
        }
    }
}

struct Handled<'r> {
    /// Its reply is `None` here: the text lies in the group.
    event: Event<'r>,
    /// Where the text the guard sent for the line lies in the group.
    text: Option<Place>,
}

#[derive(Clone, Copy)]
enum Place {
    /// In `Group::replies`, LF excluded.
    Reply(usize, usize),
    /// In `Group::forwards`.
    Forward(usize),
}

impl Pump {
    /// Runs until the input ends (or fails), then closes the other side's
    /// stream when this is the host's: the end of the host's input is the
    /// end of the child's.
    pub fn run(mut self) {
        let mut reader = lock(&self.relay).reader();
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
            let mut locked = None;
            for line in batch {
                let relay = locked.get_or_insert_with(|| lock(&self.relay));
                self.handle(line, relay, &mut group);
                if group.lines.len() == LINES_PER_WRITE || group.replies.len() >= QUEUE_LIMIT {
                    // Never locked while writing: a write may wait for the
                    // other pump, which may wait for the relay.
                    locked = None;
                    self.flush(&mut group, &mut delivering);
                }
            }
            drop(locked);
            self.flush(&mut group, &mut delivering);
            if read == 0 {
                break;
            }
        }
        if self.dir == Direction::ToServer {
            self.forward_to.close();
        }
    }

    /// Does with a line what the relay decides, into `group`.
    fn handle<'r>(&self, line: Line<'r>, relay: &mut Relay, group: &mut Group<'r>) {
        let decision = relay.decide(self.dir, &line);
        let (number, kind) = (line.number(), line.kind_name());
        let seen = match &line {
            Line::TooLong { len, .. } => Seen::TooLong(*len),
            Line::Complete { bytes, .. } => Seen::Bytes(bytes),
        };
        let (action, note) = (decision.action, decision.note);
        let event = Event { dir: self.dir, number, kind, action, note, reply: None, line: seen };
        let mut handled = Handled { event, text: None };
        match (action, decision.text, seen) {
            (Action::Forward, None, Seen::Bytes(bytes)) => group.forwards.push(Out::Line(bytes)),
            // A message in a form every SDK's reader takes (SPEC 10.5).
            (Action::Forward, Some(text), _) => group.forwards.push(Out::Text(text)),
            (Action::Answer, Some(reply), _) => {
                let start = group.replies.len();
                group.replies.push_str(&reply);
                handled.text = Some(Place::Reply(start, group.replies.len()));
                group.replies.push('\n');
            }
            (Action::Substitute | Action::Attribute, Some(text), _) => {
                handled.text = Some(Place::Forward(group.forwards.len()));
                group.forwards.push(Out::Text(text));
            }
            (Action::Drop | Action::Divert, ..) => {}
            // The relay forwards only whole lines, and gives a text with
            // every answer, substitute and attribution: never reached.
            _ => handled.event.action = Action::Drop,
        }
        group.lines.push(handled);
    }

    /// Reports the group's lines, each with what happens to it, and flushes
    /// their entries to the recording; then posts the group's replies, then
    /// writes its lines handed on. The recording is never behind the wire:
    /// a guard killed at any moment has recorded every line it delivered.
    /// Replies go before the lines handed on: whatever the other side
    /// answers to a line handed on then reaches the peer after them, never
    /// before a reply to an earlier line.
    ///
    /// A line is recorded as dropped when its destination is closed before
    /// the group goes out. One that breaks while the group is written (the
    /// peer stopped reading) has the group recorded as sent, since it was:
    /// the entry tells what the guard did, not what the peer read.
    fn flush(&self, group: &mut Group<'_>, delivering: &mut [bool; 2]) {
        // Looked for only when a destination is gone.
        let lines = &group.lines;
        let first = |sent: fn(Action) -> bool| {
            move || lines.iter().find(|l| sent(l.event.action)).map_or(0, |l| l.event.number)
        };
        let answered = |a: Action| a == Action::Answer;
        let answering = !group.replies.is_empty() && self.open(&self.answer_to, &mut delivering[1], first(answered));
        let handing_on =
            !group.forwards.is_empty() && self.open(&self.forward_to, &mut delivering[0], first(Action::hands_on));
        let recording = self.report.is_recording();
        for handled in &group.lines {
            let mut event = handled.event;
            let goes = match event.action {
                Action::Answer => answering,
                action if action.hands_on() => handing_on,
                _ => true,
            };
            if !goes {
                // One note said so for all the lines that cannot go: an
                // entry each, but no diagnostic each.
                event.action = Action::Drop;
                self.report.entry(&event);
            } else if event.action != Action::Forward || recording {
                event.reply = handled.text.and_then(|place| match place {
                    Place::Reply(start, end) => Some(&group.replies[start..end]),
                    Place::Forward(i) => match &group.forwards[i] {
                        Out::Text(text) => Some(text.as_str()),
                        Out::Line(_) => None,
                    },
                });
                self.report.line(&event);
            }
        }
        // Written to the file before a byte of the group goes out.
        self.report.flush();
        if answering && let Err(gone) = self.answer_to.post(group.replies.as_bytes()) {
            self.lost(&self.answer_to, gone, &mut delivering[1], first(answered));
        }
        if handing_on && let Err(gone) = self.forward_to.write_lines(&group.forwards) {
            self.lost(&self.forward_to, gone, &mut delivering[0], first(Action::hands_on));
        }
        group.lines.clear();
        group.forwards.clear();
        group.replies.clear();
    }

    /// Whether lines may go to `sink`; when they may not, notes it as
    /// [`Pump::lost`] does.
    fn open(&self, sink: &Sink, delivering: &mut bool, first: impl FnOnce() -> u64) -> bool {
        sink.is_open() || {
            self.lost(sink, Gone::Closed, delivering, first);
            false
        }
    }

    /// Notes once per destination that lines to `sink`, which is `gone`, are
    /// dropped from line `first()` on.
    fn lost(&self, sink: &Sink, gone: Gone, delivering: &mut bool, first: impl FnOnce() -> u64) {
        if std::mem::replace(delivering, false) {
            let why = if gone == Gone::Broken { "stopped reading" } else { "is closed" };
            let (name, first) = (sink.name(), first());
            self.report.note(self.dir, &format!("{name} {why}: lines to it are dropped from line {first} on"));
        }
    }
}
