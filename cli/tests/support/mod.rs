//! The guard as a host runs it: a real process on real pipes, with its
//! output read on threads so that a test can wait for a line with a
//! timeout and never hangs.
#![allow(dead_code)] // each test file uses its own part of this module

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a test waits for anything before it fails.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_jsonrpc-envelope")
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cli/ is in the repository").to_path_buf()
}

pub fn naive_server() -> String {
    root().join("examples/guard/naive_server.py").to_str().expect("UTF-8 path").to_owned()
}

/// A fresh directory for one test's files.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jsonrpc-guard-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A running guard (or any program) with piped stdin, stdout and stderr.
pub struct Session {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    stderr: Option<JoinHandle<String>>,
}

impl Session {
    /// `jsonrpc-envelope ARGS...`.
    pub fn guard(args: &[&str]) -> Session {
        Session::start(Command::new(binary()).args(args))
    }

    pub fn start(command: &mut Command) -> Session {
        let mut child = command
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the program");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (send, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match stdout.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        if send.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        });
        Session { child, stdin, lines, stderr: Some(stderr) }
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Writes `bytes` to the program's stdin.
    pub fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the program");
        stdin.flush().expect("flush");
    }

    /// Writes `line` and an LF.
    pub fn send_line(&mut self, line: &str) {
        self.send(format!("{line}\n").as_bytes());
    }

    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// The next line of stdout (with its LF), or `None` at its end.
    pub fn line(&self) -> Option<Vec<u8>> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!("no line on stdout within {PATIENCE:?}"),
        }
    }

    /// The next line of stdout, as text, without its LF.
    pub fn text_line(&self) -> String {
        let line = self.line().expect("a line, not the end of stdout");
        String::from_utf8(line.strip_suffix(b"\n").unwrap_or(&line).to_vec()).expect("UTF-8 line")
    }

    /// Whether stdout has ended with nothing more on it.
    pub fn at_end(&self) -> bool {
        self.line().is_none()
    }

    /// Waits for the program to exit (killing it after PATIENCE), and
    /// returns its status and everything it wrote to stderr.
    pub fn finish(mut self) -> (ExitStatus, String) {
        self.close_stdin();
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the program did not exit within {PATIENCE:?}");
            }
            thread::sleep(Duration::from_millis(5));
        };
        let stderr = self.stderr.take().expect("stderr").join().expect("stderr thread");
        (status, stderr)
    }
}

/// Runs `jsonrpc-envelope ARGS...` with `stdin`, to its end.
pub fn run(args: &[&str], stdin: &[u8]) -> (ExitStatus, Vec<u8>, String) {
    let mut session = Session::guard(args);
    // A program that exits early (bad options) closes its stdin: not a fault.
    if let Some(mut input) = session.stdin.take() {
        let _ = input.write_all(stdin);
    }
    let mut out = Vec::new();
    while let Some(line) = session.line() {
        out.extend_from_slice(&line);
    }
    let (status, stderr) = session.finish();
    (status, out, stderr)
}

/// The diagnostics the guard wrote, one per line, without the prefix, and
/// the other lines of stderr (the child's).
pub fn split_stderr(stderr: &str) -> (Vec<&str>, Vec<&str>) {
    let prefix = "jsonrpc-envelope guard: ";
    let (ours, theirs): (Vec<&str>, Vec<&str>) = stderr.lines().partition(|l| l.starts_with(prefix));
    (ours.into_iter().map(|l| &l[prefix.len()..]).collect(), theirs)
}
