//! The server under test: a child process on pipes, written to and read
//! from by threads of their own, so that the probe's waits are bounded
//! whatever the server does (stops reading, stops writing, dies).

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use jsonrpc_envelope::{Line, Reader};

/// What the server wrote, line by line.
#[derive(Debug)]
pub enum Out {
    Line(Vec<u8>),
    /// A line over the library's limit, never held whole.
    TooLong(usize),
    /// Its stdout closed.
    Closed,
}

pub struct Server {
    child: Child,
    to_stdin: Option<Sender<Vec<u8>>>,
    from_stdout: Receiver<Out>,
}

impl Server {
    /// Starts `command` in a process group of its own (so that a shell or
    /// `npx` in front of the server is stopped with it), its stderr
    /// discarded.
    pub fn start(command: &[OsString]) -> io::Result<Server> {
        let (program, args) = command.split_first().ok_or_else(|| io::Error::other("no command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (to_stdin, lines_in) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || write_all(stdin, lines_in));
        let (lines_out, from_stdout) = mpsc::channel();
        thread::spawn(move || read_all(stdout, lines_out));
        Ok(Server { child, to_stdin: Some(to_stdin), from_stdout })
    }

    /// Queues `bytes` (a line and its LF) for the server's stdin.
    pub fn send(&self, bytes: Vec<u8>) {
        if let Some(to) = &self.to_stdin {
            let _ = to.send(bytes);
        }
    }

    /// The next thing the server wrote, or `None` at `deadline`.
    pub fn recv(&self, deadline: Instant) -> Option<Out> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.from_stdout.recv_timeout(wait) {
            Ok(out) => Some(out),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Out::Closed),
        }
    }

    /// How the server ended, waiting at most until `deadline` for it.
    pub fn exit_status(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Stops the server and its process group at once: for a server that
    /// died or hung.
    pub fn stop(self) {
        drop(self);
    }

    /// Shuts the server down as the MCP specification's stdio transport
    /// says a client should: closes its stdin, waits for it to exit, then
    /// sends SIGTERM, waits again, and only then SIGKILL. Says how it
    /// ended.
    pub fn shut_down(mut self, wait: Duration) -> Shutdown {
        self.to_stdin = None;
        if let Some(status) = self.exit_status(Instant::now() + wait) {
            return Shutdown::Exited(status);
        }
        self.signal(libc::SIGTERM);
        if let Some(status) = self.exit_status(Instant::now() + wait) {
            return Shutdown::Terminated(status);
        }
        Shutdown::Killed
    }

    fn signal(&self, signal: libc::c_int) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a process group id we made; no memory involved.
        unsafe { libc::kill(-group, signal) };
    }
}

/// How a shut-down server ended.
#[derive(Debug, Clone, Copy)]
pub enum Shutdown {
    /// On its own once its stdin closed.
    Exited(ExitStatus),
    /// On SIGTERM.
    Terminated(ExitStatus),
    /// Only on SIGKILL.
    Killed,
}

impl Shutdown {
    pub fn describe(self) -> String {
        match self {
            Shutdown::Exited(status) => format!("exited when its stdin closed ({})", super::describe(status)),
            Shutdown::Terminated(status) => {
                format!("did not exit when its stdin closed; ended on SIGTERM ({})", super::describe(status))
            }
            Shutdown::Killed => "did not exit when its stdin closed nor on SIGTERM; killed".to_owned(),
        }
    }
}

/// A server is never left running: dropping it stops it and its group.
impl Drop for Server {
    fn drop(&mut self) {
        self.to_stdin = None;
        self.signal(libc::SIGKILL);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_all(mut stdin: ChildStdin, lines: Receiver<Vec<u8>>) {
    for bytes in lines.iter() {
        if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_err() {
            // The server stopped reading; the reader side sees the rest.
            for _ in lines.iter() {}
            return;
        }
    }
}

fn read_all(mut stdout: impl Read, out: Sender<Out>) {
    let mut reader = Reader::default();
    let mut chunk = vec![0u8; 64 << 10];
    let send = |line: Line<'_>| {
        let _ = out.send(match line {
            Line::Complete { bytes, .. } => Out::Line(bytes.to_vec()),
            Line::TooLong { len, .. } => Out::TooLong(len),
        });
    };
    loop {
        match stdout.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => match reader.feed(&chunk[..n]) {
                Ok(batch) => batch.for_each(send),
                Err(_) => break,
            },
        }
    }
    if let Ok(batch) = reader.end() {
        batch.for_each(send);
    }
    let _ = out.send(Out::Closed);
}
