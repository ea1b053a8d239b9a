//! A destination that two threads write whole lines to: the pump that
//! forwards lines to it, and the pump on the other side, whose replies go
//! back this way. One write at a time, each of whole lines, so nothing is
//! ever interleaved inside a line (SPEC §8). Replies are queued and written
//! by the sink's own thread, so a pump never waits behind a forward that is
//! blocked on a full pipe (which could otherwise stall both directions).

use std::fs::File;
use std::io::{self, IoSlice, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;

/// Lines written in one `writev`: two slices each (the line, then its LF),
/// within Linux's limit of 1024 slices per call.
pub const LINES_PER_WRITE: usize = 512;

/// Reply bytes queued before a reply waits for room. Replies longer than
/// this are still queued when nothing else is.
pub const QUEUE_LIMIT: usize = 64 << 10;

/// Why lines could not be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone {
    /// The sink was closed (its side's stream ended), or an earlier write failed.
    Closed,
    /// This write failed: the reader went away (a broken pipe) or the
    /// stream failed; the sink is closed from now on.
    Broken,
}

/// A handle on a destination; clones share it.
#[derive(Clone)]
pub struct Sink {
    shared: Arc<Shared>,
}

struct Shared {
    /// What the destination is, for diagnostics: "the host" or "the child".
    name: &'static str,
    state: Mutex<State>,
    /// The sink's thread waits here for replies to write.
    work: Condvar,
    /// Forwards wait here for their turn, and replies for room.
    turn: Condvar,
    /// Closed when this one breaks (the host gone closes the child's stdin).
    also_close: Option<Sink>,
}

struct State {
    /// The destination; `None` once closed. Writers write through a clone
    /// of the `Arc`, outside the lock, so the file closes when the last
    /// write in progress ends.
    file: Option<Arc<File>>,
    /// A write is in progress.
    writing: bool,
    /// Replies waiting for the sink's thread, each with its LF.
    queued: Vec<u8>,
    /// Threads waiting on `turn` (a notification costs a system call, so
    /// none is made for nobody).
    waiting: usize,
}

impl Sink {
    /// A sink writing to `file`, with its own thread for replies. When a
    /// write to it fails, `also_close` is closed too.
    pub fn new(name: &'static str, file: File, also_close: Option<Sink>) -> io::Result<Sink> {
        let state = State { file: Some(Arc::new(file)), writing: false, queued: Vec::new(), waiting: 0 };
        let shared = Shared { name, state: Mutex::new(state), work: Condvar::new(), turn: Condvar::new(), also_close };
        let sink = Sink { shared: Arc::new(shared) };
        let replies = sink.clone();
        thread::Builder::new().name(format!("replies to {name}")).spawn(move || replies.write_replies())?;
        Ok(sink)
    }

    pub fn name(&self) -> &'static str {
        self.shared.name
    }

    /// Whether lines may still go to the destination: false once it is
    /// closed (then for good), or once a write to it failed.
    pub fn is_open(&self) -> bool {
        self.lock().file.is_some()
    }

    /// Writes `lines`, each followed by an LF, whole and in order, in as few
    /// writes as the system allows; returns when they are written. Queued
    /// replies go first.
    pub fn write_lines(&self, lines: &[impl AsRef<[u8]>]) -> Result<(), Gone> {
        let file = {
            let mut state = self.wait_turn(|s| s.writing || !s.queued.is_empty());
            let file = state.file.clone().ok_or(Gone::Closed)?;
            state.writing = true;
            file
        };
        let result = lines.chunks(LINES_PER_WRITE).try_for_each(|lines| write_all_lines(&file, lines));
        self.done_writing(file, result)
    }

    /// Queues `replies` (whole lines, each with its LF) for the sink's
    /// thread, and returns at once unless the queue is full.
    pub fn post(&self, replies: &[u8]) -> Result<(), Gone> {
        let mut state = self.wait_turn(|s| !s.queued.is_empty() && s.queued.len() + replies.len() > QUEUE_LIMIT);
        if state.file.is_none() {
            return Err(Gone::Closed);
        }
        state.queued.try_reserve(replies.len()).map_err(|_| Gone::Closed)?;
        state.queued.extend_from_slice(replies);
        // When a write is in progress, its end wakes the sink's thread.
        if !state.writing {
            self.shared.work.notify_one();
        }
        Ok(())
    }

    /// Closes the destination: what is queued is dropped, and the file is
    /// closed now or, when a write is in progress, as soon as it ends.
    pub fn close(&self) {
        let mut state = self.lock();
        state.file = None;
        state.queued = Vec::new();
        drop(state);
        self.shared.work.notify_all();
        self.shared.turn.notify_all();
    }

    /// Waits until the replies queued so far are written (or the sink is
    /// closed).
    pub fn drain(&self) {
        drop(self.wait_turn(|s| s.writing || !s.queued.is_empty()));
    }

    /// The sink's thread: writes queued replies, between forwards, until the
    /// sink is closed.
    fn write_replies(&self) {
        loop {
            let (file, replies) = {
                let mut state = self.lock();
                while state.file.is_some() && (state.writing || state.queued.is_empty()) {
                    state = self.shared.work.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
                }
                let Some(file) = state.file.clone() else { return };
                state.writing = true;
                // The queue is taken whole: replies never wait behind each other.
                let replies = std::mem::take(&mut state.queued);
                self.wake_turn(&state);
                (file, replies)
            };
            let result = (&*file).write_all(&replies);
            if self.done_writing(file, result).is_err() {
                return;
            }
        }
    }

    fn done_writing(&self, file: Arc<File>, result: io::Result<()>) -> Result<(), Gone> {
        let mut state = self.lock();
        state.writing = false;
        drop(file);
        let broken = result.is_err() && state.file.is_some();
        if result.is_err() {
            state.file = None;
            state.queued = Vec::new();
            self.shared.work.notify_all();
        } else if !state.queued.is_empty() {
            self.shared.work.notify_one();
        }
        self.wake_turn(&state);
        drop(state);
        match result {
            Ok(()) => Ok(()),
            Err(_) if broken => {
                if let Some(other) = &self.shared.also_close {
                    other.close();
                }
                Err(Gone::Broken)
            }
            Err(_) => Err(Gone::Closed),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic in another thread holding the lock leaves the state whole
        // (every change is a single assignment), so the poison is ignored.
        self.shared.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Locks the state once `busy` is false or the sink is closed.
    fn wait_turn(&self, mut busy: impl FnMut(&State) -> bool) -> MutexGuard<'_, State> {
        let mut state = self.lock();
        while state.file.is_some() && busy(&state) {
            state.waiting += 1;
            state = self.shared.turn.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
            state.waiting -= 1;
        }
        state
    }

    fn wake_turn(&self, state: &State) {
        if state.waiting > 0 {
            self.shared.turn.notify_all();
        }
    }
}

/// Writes each line and an LF, as one `writev` when the system takes it all.
fn write_all_lines(file: &File, lines: &[impl AsRef<[u8]>]) -> io::Result<()> {
    let mut slices: Vec<IoSlice<'_>> = Vec::with_capacity(2 * lines.len());
    for line in lines {
        slices.push(IoSlice::new(line.as_ref()));
        slices.push(IoSlice::new(b"\n"));
    }
    let mut slices = &mut slices[..];
    while !slices.is_empty() {
        match (&*file).write_vectored(slices) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Read;
    use std::time::Duration;

    use super::*;

    fn pipe() -> (File, File) {
        let (read, write) = io::pipe().expect("a pipe");
        (File::from(std::os::fd::OwnedFd::from(read)), File::from(std::os::fd::OwnedFd::from(write)))
    }

    #[test]
    fn lines_go_out_whole_with_their_lf() {
        let (mut read, write) = pipe();
        let sink = Sink::new("test", write, None).unwrap();
        sink.write_lines(&[&b"one"[..], b"", b"two\r"]).unwrap();
        sink.post(b"reply\n").unwrap();
        sink.drain();
        sink.close();
        let mut got = Vec::new();
        read.read_to_end(&mut got).unwrap();
        assert_eq!(got, b"one\n\ntwo\r\nreply\n");
    }

    #[test]
    fn a_reply_is_queued_at_once_while_a_forward_is_blocked_and_follows_it_whole() {
        let (mut read, write) = pipe();
        let sink = Sink::new("test", write, None).unwrap();
        // More than a pipe holds: the forward blocks until the reader reads.
        let big = vec![b'x'; 1 << 20];
        let forwarder = {
            let sink = sink.clone();
            let big = big.clone();
            thread::spawn(move || sink.write_lines(&[&big[..], b"after"]))
        };
        thread::sleep(Duration::from_millis(50));
        let (posted, done) = std::sync::mpsc::channel();
        let replier = {
            let sink = sink.clone();
            thread::spawn(move || posted.send(sink.post(b"reply\n")).unwrap())
        };
        assert_eq!(done.recv_timeout(Duration::from_secs(5)), Ok(Ok(())), "post waited for the blocked forward");
        let mut got = vec![0; big.len() + 1];
        read.read_exact(&mut got).unwrap();
        assert!(got[..big.len()].iter().all(|&b| b == b'x') && got[big.len()] == b'\n');
        forwarder.join().unwrap().unwrap();
        replier.join().unwrap();
        sink.drain();
        sink.close();
        let mut rest = Vec::new();
        read.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"after\nreply\n");
    }

    #[test]
    fn replies_beyond_the_queue_limit_wait_for_room_and_all_arrive_in_order() {
        let (read, write) = pipe();
        let sink = Sink::new("test", write, None).unwrap();
        let reader = thread::spawn(move || {
            let mut got = Vec::new();
            std::io::BufReader::new(read).read_to_end(&mut got).unwrap();
            got
        });
        let mut sent = Vec::new();
        for i in 0..20_000 {
            let reply = format!("{{\"id\":{i}}}\n");
            sink.post(reply.as_bytes()).unwrap();
            sent.extend_from_slice(reply.as_bytes());
        }
        sink.drain();
        sink.close();
        assert_eq!(reader.join().unwrap(), sent);
    }

    #[test]
    fn a_broken_pipe_closes_the_sink_and_the_other_one() {
        let (read, write) = pipe();
        let (mut other_read, other_write) = pipe();
        let other = Sink::new("other", other_write, None).unwrap();
        let sink = Sink::new("test", write, Some(other.clone())).unwrap();
        drop(read);
        assert!(sink.is_open() && other.is_open());
        assert_eq!(sink.write_lines(&[b"lost"]), Err(Gone::Broken));
        assert!(!sink.is_open() && !other.is_open());
        assert_eq!(sink.write_lines(&[b"lost"]), Err(Gone::Closed));
        assert_eq!(sink.post(b"lost\n"), Err(Gone::Closed));
        assert_eq!(other.post(b"x\n"), Err(Gone::Closed));
        let mut got = Vec::new();
        other_read.read_to_end(&mut got).unwrap();
        assert!(got.is_empty());
    }
}
