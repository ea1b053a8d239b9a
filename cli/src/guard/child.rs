//! The child: started as `env` starts a command (127 when it is not found,
//! 126 when it cannot be run), waited for, and signalled only until it is
//! reaped, so that a forwarded signal never reaches a process that has
//! taken its pid since.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

/// A running child.
pub struct Child {
    process: std::process::Child,
    watch: Arc<Watch>,
}

/// What another thread may do with the child: signal it.
pub struct Watch {
    pid: libc::pid_t,
    /// Set once the child has ended; it is reaped only after.
    ended: Mutex<bool>,
}

/// A command that could not be started: the exit status and the one line
/// that says why.
pub struct StartError {
    pub status: u8,
    pub message: String,
}

/// Exit status when the command is not found, as `env` and shells use it.
const NOT_FOUND: u8 = 127;
/// Exit status when the command is found but cannot be run.
const CANNOT_RUN: u8 = 126;

/// Starts `command` (program and arguments) with piped stdin and stdout,
/// returned as files, and the guard's stderr. `unblock` are the signals the
/// guard blocks, which the child must not inherit blocked.
pub fn start(command: &[OsString], unblock: libc::sigset_t) -> Result<(Child, File, File), StartError> {
    let (program, args) = command.split_first().ok_or(StartError { status: 2, message: "no command".into() })?;
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    // SAFETY: the hook runs in the forked child before exec, where only
    // async-signal-safe calls are allowed: sigprocmask(2) is one, and it
    // reads only `unblock`, a copy owned by the closure.
    unsafe {
        command.pre_exec(move || {
            if libc::sigprocmask(libc::SIG_UNBLOCK, &unblock, std::ptr::null_mut()) == 0 {
                Ok(())
            } else {
                Err(io::Error::last_os_error())
            }
        })
    };
    let spawned = command.spawn();
    let mut process = spawned.map_err(|e| StartError {
        status: if e.kind() == io::ErrorKind::NotFound { NOT_FOUND } else { CANNOT_RUN },
        message: format!("'{}': {e}", program.to_string_lossy()),
    })?;
    let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
        unreachable!("both were asked for as pipes")
    };
    let pid = libc::pid_t::try_from(process.id()).expect("a pid fits pid_t");
    let child = Child { process, watch: Arc::new(Watch { pid, ended: Mutex::new(false) }) };
    Ok((child, File::from(OwnedFd::from(stdin)), File::from(OwnedFd::from(stdout))))
}

impl Child {
    pub fn watch(&self) -> Arc<Watch> {
        Arc::clone(&self.watch)
    }

    /// Waits for the child to end, and returns the guard's exit status: the
    /// child's own, or 128 + N when signal N ended it.
    pub fn wait(mut self) -> io::Result<u8> {
        self.watch.wait_ended();
        *self.watch.lock() = true;
        let status = self.process.wait()?;
        // An exit status is a byte, which `code()` gives back unchanged; a
        // child that ended without one was ended by a signal.
        Ok(match status.code() {
            Some(code) => code as u8,
            None => 128u8.wrapping_add(status.signal().unwrap_or(0) as u8),
        })
    }
}

impl Watch {
    /// Sends `signal` to the child, unless it has ended.
    pub fn signal(&self, signal: libc::c_int) {
        let ended = self.lock();
        if !*ended {
            // SAFETY: kill(2) takes any pid and signal number and only
            // reports errors; the pid is the child's, which is not reaped
            // while `ended` is false and this lock is held.
            unsafe { libc::kill(self.pid, signal) };
        }
    }

    /// Waits until the child has ended, without reaping it.
    fn wait_ended(&self) {
        loop {
            // SAFETY: an all-zero siginfo_t is a valid value of that plain C struct.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: `info` is a valid siginfo_t for waitid(2) to write;
            // WNOWAIT leaves the child to be reaped by `Child::wait`.
            let result =
                unsafe { libc::waitid(libc::P_PID, self.pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT) };
            if result == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return;
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, bool> {
        self.ended.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
