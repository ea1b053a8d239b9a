//! SIGINT, SIGTERM and SIGHUP sent to the guard go to its child (SPEC §8).
//! They are blocked in every thread of the guard and taken by one thread
//! with sigwait(3), so none of them ends the guard before its child does.
//! The child, which would inherit the mask, gets them unblocked.

use std::io;
use std::mem::MaybeUninit;
use std::sync::Arc;
use std::thread;

use super::child::Watch;

pub const FORWARDED: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// The forwarded signals, blocked.
pub struct Blocked(libc::sigset_t);

impl Blocked {
    pub fn set(&self) -> libc::sigset_t {
        self.0
    }
}

/// Blocks the forwarded signals in this thread and every thread it starts
/// afterwards: call it before starting any. One that arrives before the
/// forwarding thread starts waits for it.
pub fn block() -> io::Result<Blocked> {
    let mut set = MaybeUninit::<libc::sigset_t>::uninit();
    // SAFETY: sigemptyset initialises the set it is given; sigaddset then
    // adds valid signal numbers to that initialised set.
    let set = unsafe {
        libc::sigemptyset(set.as_mut_ptr());
        for signal in FORWARDED {
            libc::sigaddset(set.as_mut_ptr(), signal);
        }
        set.assume_init()
    };
    // SAFETY: `set` is an initialised signal set; the old mask is not asked for.
    let result = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if result != 0 {
        return Err(io::Error::from_raw_os_error(result));
    }
    Ok(Blocked(set))
}

/// Starts the thread that hands each forwarded signal to the child.
pub fn forward(blocked: Blocked, child: Arc<Watch>) -> io::Result<()> {
    thread::Builder::new().name("signals".into()).spawn(move || {
        loop {
            let mut signal = 0;
            // SAFETY: `blocked.0` is an initialised signal set, blocked in
            // this thread, and `signal` is a valid place for the number.
            if unsafe { libc::sigwait(&blocked.0, &mut signal) } == 0 {
                child.signal(signal);
            }
        }
    })?;
    Ok(())
}
