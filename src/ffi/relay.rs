//! The relay's C face (`crate::relay`): both directions of a session, each
//! read by a stream reader of its own, decided by the relay. A session
//! (`session.rs`) is a relay read in one direction.

use std::ffi::c_char;

use super::boxing::{boxed, unboxed};
use super::input::bytes;
use super::line::{JsonRpcAction, JsonRpcBatch, action, action_of};
use super::packing::ActionTexts;
use super::panic_boundary::boundary;
use super::reader::{Deciding, JsonRpcReader};
use super::status::{Failure, JsonRpcStatus};
use super::text::JsonRpcString;
use crate::fallible::OutOfMemory;
use crate::relay::{Direction, Relay};
use crate::rules::classify_undecoded;

/// Which way a line travels (SPEC §8). Values are fixed and never reused;
/// any other value is refused (`JSONRPC_STATUS_UNKNOWN_DIRECTION`).
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcDirection {
    /// From the host (the client) to the server: read as a server reads it.
    JSONRPC_DIRECTION_TO_SERVER = 1,
    /// From the server to the host: read as a host reads it.
    JSONRPC_DIRECTION_TO_HOST = 2,
}

/// The direction of a C value, if it is one.
pub(super) fn direction_of(value: u32) -> Option<Direction> {
    match value {
        d if d == JsonRpcDirection::JSONRPC_DIRECTION_TO_SERVER as u32 => Some(Direction::ToServer),
        d if d == JsonRpcDirection::JSONRPC_DIRECTION_TO_HOST as u32 => Some(Direction::ToHost),
        _ => None,
    }
}

/// The C value of a direction.
pub(super) fn direction_value(direction: Direction) -> u32 {
    let value = match direction {
        Direction::ToServer => JsonRpcDirection::JSONRPC_DIRECTION_TO_SERVER,
        Direction::ToHost => JsonRpcDirection::JSONRPC_DIRECTION_TO_HOST,
    };
    value as u32
}

/// The name of a `JsonRpcDirection` value (`"to_server"`, `"to_host"`), as
/// a guard's recording spells it: static, NULL for no direction.
/// Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_direction_name(direction: u32) -> *const c_char {
    direction_of(direction).map_or(std::ptr::null(), |dir| dir.c_name().as_ptr())
}

/// The direction an endpoint in `role` (a `JsonRpcRole`) reads:
/// `JSONRPC_DIRECTION_TO_SERVER` for a server, `JSONRPC_DIRECTION_TO_HOST`
/// for a client; 0 for no role. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_direction_read_by(role: u32) -> u32 {
    super::reply::role(role).map_or(0, |role| direction_value(Direction::read_by(role)))
}

/// Where the text of a line read in `direction` goes when its action is
/// `action` (the line itself, for a forward without a text):
/// `JSONRPC_ACTION_FORWARD`, `_SUBSTITUTE` and `_ATTRIBUTE` go on, in
/// `direction`, to the line's receiver (for an SDK transport, the SDK);
/// `JSONRPC_ACTION_ANSWER` goes back, in the other direction, to the line's
/// sender; a drop, a diversion or `JSONRPC_ACTION_NONE` goes nowhere but
/// the log: 0. 0 too for an unknown action or direction. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_action_goes(action: u32, direction: u32) -> u32 {
    match (action_of(action), direction_of(direction)) {
        (Some(act), Some(dir)) => act.goes(dir).map_or(0, direction_value),
        _ => 0,
    }
}

/// Both directions of one session (the relay, SPEC §8 to §10): a stream
/// reader for each direction, the session that decides each line in the
/// role of its receiver, and the bookkeeping between them: a request
/// handed on in one direction is outstanding for the other until a
/// response read there names it. A guard or an SDK transport feeds it what
/// it reads, tells it of what reaches a peer not through it
/// (`jsonrpc_relay_wrote`: an SDK's own messages), and does what each
/// line's action says (`jsonrpc_action_goes` says where its text goes).
///
/// Opaque: made by `jsonrpc_relay_new`, freed by `jsonrpc_relay_free`. A
/// relay may move between threads, but only one thread may use it at a
/// time (a caller that reads the two directions in two threads locks it).
pub struct JsonRpcRelay {
    relay: Relay,
    /// Each direction's reader and the action texts of its last batch, by
    /// the direction's index.
    readers: [JsonRpcReader; 2],
    texts: [ActionTexts; 2],
    /// A call is running, or one stopped at a caught internal fault, which
    /// may have left the sessions half-changed: then every later call
    /// fails, in both directions.
    busy: bool,
}

/// What was decided for one line outside a batch (`jsonrpc_relay_refused`,
/// `jsonrpc_session_refused`). The caller owns `text` and frees it with
/// `jsonrpc_string_free` (harmless when it is `{NULL, 0}`); `note` is
/// static.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcDecision {
    pub action: JsonRpcAction,
    pub text: JsonRpcString,
    pub note: *const c_char,
}

impl JsonRpcDecision {
    pub(super) const NONE: JsonRpcDecision = JsonRpcDecision {
        action: JsonRpcAction::JSONRPC_ACTION_NONE,
        text: JsonRpcString::NONE,
        note: std::ptr::null(),
    };
}

const fn index(dir: Direction) -> usize {
    match dir {
        Direction::ToServer => 0,
        Direction::ToHost => 1,
    }
}

impl JsonRpcRelay {
    /// A relay by `profile`, with lines of at most `max_line` bytes (0: the
    /// profile's default).
    pub(super) fn new(profile: crate::Profile, max_line: usize) -> JsonRpcRelay {
        JsonRpcRelay::of(Relay::new(profile, max_line))
    }

    /// A relay of which only `dir` is read (`Relay::reading`).
    pub(super) fn reading(dir: Direction, profile: crate::Profile, max_line: usize) -> JsonRpcRelay {
        JsonRpcRelay::of(Relay::reading(dir, profile, max_line))
    }

    fn of(relay: Relay) -> JsonRpcRelay {
        let profile = relay.profile();
        let reader = || JsonRpcReader::new(relay.max_line(), profile);
        JsonRpcRelay { readers: [reader(), reader()], texts: Default::default(), relay, busy: false }
    }

    /// Runs `body` unless a call before it stopped at a fault; `failed` is
    /// the call's result then.
    fn guarded<T>(&mut self, failed: T, body: impl FnOnce(&mut JsonRpcRelay) -> T) -> T {
        if self.busy {
            return failed;
        }
        self.busy = true;
        let result = body(self);
        self.busy = false;
        result
    }

    /// Runs a feed or an end on `dir`'s reader, deciding each line.
    ///
    /// # Safety
    /// `out` is NULL or valid, as the entry points require.
    unsafe fn read(
        &mut self,
        dir: Direction,
        out: *mut JsonRpcBatch,
        step: impl FnOnce(
            &mut crate::Reader,
            Deciding<'_>,
            &mut Vec<super::line::JsonRpcLine>,
            &mut Vec<u8>,
        ) -> Result<JsonRpcBatch, Failure>,
    ) -> JsonRpcStatus {
        self.guarded(JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR, |this| {
            let (relay, texts) = (&mut this.relay, &mut this.texts[index(dir)]);
            // SAFETY: `out` is passed on from the caller; the reader is ours.
            unsafe {
                JsonRpcReader::call(&mut this.readers[index(dir)], out, |r| {
                    let deciding = Deciding { relay, dir, texts };
                    step(&mut r.reader, deciding, &mut r.items, &mut r.texts)
                })
            }
        })
    }

    /// Feeds `len` bytes at `data` to `dir`'s reader.
    ///
    /// # Safety
    /// `data` and `out` as `jsonrpc_relay_feed` requires.
    unsafe fn feed(&mut self, dir: Direction, data: *const u8, len: usize, out: *mut JsonRpcBatch) -> JsonRpcStatus {
        let feed = |reader: &mut crate::Reader, deciding: Deciding<'_>, items: &mut _, texts: &mut _| {
            // SAFETY: passed on from the caller.
            let data = unsafe { bytes(data, len) }.map_err(|_| Failure::NullArgument)?;
            reader.feed_then(data, |batch| JsonRpcReader::fill(items, texts, batch, Some(deciding)))
        };
        // SAFETY: passed on from the caller.
        unsafe { self.read(dir, out, feed) }
    }

    /// Ends `dir`'s stream.
    ///
    /// # Safety
    /// `out` as `jsonrpc_relay_end` requires.
    unsafe fn end(&mut self, dir: Direction, out: *mut JsonRpcBatch) -> JsonRpcStatus {
        let end = |reader: &mut crate::Reader, deciding: Deciding<'_>, items: &mut _, texts: &mut _| {
            reader.end_then(|batch| JsonRpcReader::fill(items, texts, batch, Some(deciding)))
        };
        // SAFETY: passed on from the caller.
        unsafe { self.read(dir, out, end) }
    }

    /// Notes the `len` bytes at `line`, written in `dir` not through the
    /// relay.
    ///
    /// # Safety
    /// `line` as `jsonrpc_relay_wrote` requires.
    unsafe fn wrote(&mut self, dir: Direction, line: *const u8, len: usize) -> JsonRpcStatus {
        self.guarded(JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR, |this| {
            // SAFETY: passed on from the caller.
            let Ok(line) = (unsafe { bytes(line, len) }) else { return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT };
            match classify_undecoded(line, this.relay.profile()).and_then(|c| this.relay.wrote_classified(dir, &c)) {
                Ok(()) => JsonRpcStatus::JSONRPC_STATUS_OK,
                Err(OutOfMemory) => JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY,
            }
        })
    }

    /// What to do instead of handing on the `len` bytes at `line`, refused
    /// by `dir`'s receiver: the relay's decision, its text written out.
    ///
    /// # Safety
    /// `line` as `jsonrpc_relay_refused` requires.
    unsafe fn refused(&mut self, dir: Direction, line: *const u8, len: usize) -> Result<JsonRpcDecision, Failure> {
        self.guarded(Err(Failure::Internal(c"a call before this one stopped at a fault")), |this| {
            // SAFETY: passed on from the caller.
            let line = unsafe { bytes(line, len) }.map_err(|_| Failure::NullArgument)?;
            Ok(this.refusal(dir, line)?)
        })
    }

    fn refusal(&mut self, dir: Direction, line: &[u8]) -> Result<JsonRpcDecision, OutOfMemory> {
        let c = classify_undecoded(line, self.relay.profile())?;
        let refusal = self.relay.refusal(dir, &c, line)?;
        let text = match refusal.text {
            None => JsonRpcString::NONE,
            Some(pieces) => JsonRpcString::new(pieces.size(), |to| {
                pieces.each(|piece| {
                    let _ = to.write_bytes(piece);
                })
            })?,
        };
        Ok(JsonRpcDecision { action: action(refusal.action), text, note: refusal.note.as_ptr() })
    }

    pub(super) fn outstanding(&self, dir: Direction) -> usize {
        self.relay.outstanding(dir)
    }
}

/// Writes `decided` (or, when it failed, nothing) to `out`, and gives the
/// call's status.
///
/// # Safety
/// `out` is non-NULL and writable.
unsafe fn decision_to(out: *mut JsonRpcDecision, decided: Result<JsonRpcDecision, Failure>) -> JsonRpcStatus {
    match decided {
        Ok(decision) => {
            // SAFETY: by this function's contract.
            unsafe { out.write(decision) };
            JsonRpcStatus::JSONRPC_STATUS_OK
        }
        Err(failure) => failure.status(),
    }
}

/// Empties `*out` (when not NULL) and gives the relay of `relay` and the
/// direction of `direction`, or the status that says which is
/// missing.
///
/// # Safety
/// `relay` is NULL or a live relay no other thread is using; `out` is NULL
/// or writable.
unsafe fn relay_and_direction<'r>(
    relay: *mut JsonRpcRelay,
    direction: u32,
    out: *mut JsonRpcBatch,
) -> Result<(&'r mut JsonRpcRelay, Direction), JsonRpcStatus> {
    if !out.is_null() {
        // SAFETY: `out` is non-NULL and writable by the contract.
        unsafe { out.write(JsonRpcBatch::EMPTY) };
    }
    // SAFETY: by the contract.
    let Some(relay) = (unsafe { relay.as_mut() }) else { return Err(JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT) };
    let Some(dir) = direction_of(direction) else { return Err(JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_DIRECTION) };
    Ok((relay, dir))
}

/// A new relay whose two directions are read by `profile` (a
/// `JsonRpcProfile`), with lines of at most `max_line` bytes, LF excluded
/// (0: the profile's default, `jsonrpc_profile_max_line(profile)`).
///
/// Returns a relay the caller owns and frees with `jsonrpc_relay_free`, or
/// NULL when `profile` is no `JsonRpcProfile` or memory runs out.
/// Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_relay_new(profile: u32, max_line: usize) -> *mut JsonRpcRelay {
    boundary(std::ptr::null_mut, || {
        let Some(profile) = super::profile::profile(profile) else { return std::ptr::null_mut() };
        boxed(JsonRpcRelay::new(profile, max_line)).unwrap_or(std::ptr::null_mut())
    })
}

/// Hands the relay the next `len` bytes of `direction`'s stream (a
/// `JsonRpcDirection`) and gives back in `*out` the lines they complete,
/// each decided in the role of the direction's receiver, with its
/// `action`, `action_text` and `note` (see `JsonRpcLine`). What each
/// decision sends is noted: a request forwarded is outstanding for the other
/// direction until a response read there names it (the relay's answers,
/// substitutes and attributed errors are responses, which change nothing).
///
/// The batch belongs to the relay and stays valid until the next feed or
/// end of the same direction (the other direction's calls leave it be), or
/// the free. Statuses are as for `jsonrpc_reader_feed`, with
/// `JSONRPC_STATUS_UNKNOWN_DIRECTION` for a `direction` that is none; on
/// `JSONRPC_STATUS_OUT_OF_MEMORY` the relay has taken none of the bytes,
/// but may have marked requests answered by responses among them, and
/// noted requests among them as outstanding for the other direction (the
/// same call repeated notes them again, and changes nothing); after
/// `JSONRPC_STATUS_INTERNAL_ERROR` (a fault inside the library, caught) of
/// any call of the relay's, the relay fails every later call, in both
/// directions, but `jsonrpc_relay_outstanding` and the free. On any status
/// but OK, `*out` (if not NULL) is an empty batch.
///
/// # Safety
/// `relay` is NULL or a live relay that no other thread is using; a
/// non-NULL `data` must be valid for reads of `len` bytes; a non-NULL `out`
/// valid for writing one `JsonRpcBatch`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_relay_feed(
    relay: *mut JsonRpcRelay,
    direction: u32,
    data: *const u8,
    len: usize,
    out: *mut JsonRpcBatch,
) -> JsonRpcStatus {
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            // SAFETY: passed on from the caller.
            match unsafe { relay_and_direction(relay, direction, out) } {
                // SAFETY: passed on from the caller.
                Ok((relay, dir)) => unsafe { relay.feed(dir, data, len, out) },
                Err(status) => status,
            }
        },
    )
}

/// Ends `direction`'s stream, and gives back in `*out` its last line when
/// it had no LF, decided as `jsonrpc_relay_feed` decides lines. That
/// direction's reader is then as new; the outstanding requests are kept.
///
/// # Safety
/// As for `jsonrpc_relay_feed`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_relay_end(
    relay: *mut JsonRpcRelay,
    direction: u32,
    out: *mut JsonRpcBatch,
) -> JsonRpcStatus {
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            // SAFETY: passed on from the caller.
            match unsafe { relay_and_direction(relay, direction, out) } {
                // SAFETY: passed on from the caller.
                Ok((relay, dir)) => unsafe { relay.end(dir, out) },
                Err(status) => status,
            }
        },
    )
}

/// Tells the relay of a line written in `direction` not through it (`line`,
/// `len` read as by `jsonrpc_classify`): an SDK's own message on its way
/// to the peer. A server's transport tells it of each line its SDK writes
/// to the host (`JSONRPC_DIRECTION_TO_HOST`), a client's of each line its
/// SDK writes to the server. A request's id is then outstanding until a
/// response read in the other direction names it.
///
/// Returns `JSONRPC_STATUS_OK`; `JSONRPC_STATUS_NULL_ARGUMENT` for a NULL
/// `relay` or a NULL `line` with a length;
/// `JSONRPC_STATUS_UNKNOWN_DIRECTION`; `JSONRPC_STATUS_OUT_OF_MEMORY`
/// (nothing changed); `JSONRPC_STATUS_INTERNAL_ERROR` after a caught fault.
///
/// # Safety
/// `relay` is NULL or a live relay that no other thread is using; a
/// non-NULL `line` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_relay_wrote(
    relay: *mut JsonRpcRelay,
    direction: u32,
    line: *const u8,
    len: usize,
) -> JsonRpcStatus {
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            // SAFETY: passed on from the caller.
            let (relay, dir) = match unsafe { relay_and_direction(relay, direction, std::ptr::null_mut()) } {
                Ok(found) => found,
                Err(status) => return status,
            };
            // SAFETY: passed on from the caller.
            unsafe { relay.wrote(dir, line, len) }
        },
    )
}

/// What to do instead when the receiver of `direction` (an SDK's own
/// decoder) refused a line this relay handed on in that direction (SPEC
/// §10.4; a fault of the profile, to be logged at error level): for a
/// request, `JSONRPC_ACTION_ANSWER` with the `-32600` reply, which goes back
/// to the line's sender; for a response with a string or number id (in the
/// MCP profile, an MCP id), `JSONRPC_ACTION_SUBSTITUTE` with its
/// substitute, to hand on instead; otherwise `JSONRPC_ACTION_DROP`. A
/// substitute refused in its turn (this called again with its text) is
/// dropped, with no text and its own note: so a caller that hands on what
/// this says, and asks again when that is refused, stops by the second
/// refusal. Written to `*out`, whose `text` the caller frees with
/// `jsonrpc_string_free`.
///
/// Returns `JSONRPC_STATUS_OK`; `JSONRPC_STATUS_NULL_ARGUMENT` when `relay`
/// or `out` is NULL or `line` is NULL with a length;
/// `JSONRPC_STATUS_UNKNOWN_DIRECTION`; `JSONRPC_STATUS_OUT_OF_MEMORY`;
/// `JSONRPC_STATUS_INTERNAL_ERROR` after a caught fault. On any status but
/// OK, `*out` (if not NULL) is `JSONRPC_ACTION_NONE` with no text.
///
/// # Safety
/// `relay` is NULL or a live relay that no other thread is using; a
/// non-NULL `line` must be valid for reads of `len` bytes; a non-NULL `out`
/// valid for writing one `JsonRpcDecision`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_relay_refused(
    relay: *mut JsonRpcRelay,
    direction: u32,
    line: *const u8,
    len: usize,
    out: *mut JsonRpcDecision,
) -> JsonRpcStatus {
    if out.is_null() {
        return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT;
    }
    // SAFETY: `out` is non-NULL and writable by the contract.
    unsafe { out.write(JsonRpcDecision::NONE) };
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            // SAFETY: passed on from the caller.
            let (relay, dir) = match unsafe { relay_and_direction(relay, direction, std::ptr::null_mut()) } {
                Ok(found) => found,
                Err(status) => return status,
            };
            // SAFETY: `out` is non-NULL (checked above) and writable; `line`
            // is passed on from the caller.
            unsafe { decision_to(out, relay.refused(dir, line, len)) }
        },
    )
}

/// How many requests written toward the sender of `direction`'s lines (by
/// `jsonrpc_relay_wrote`, or forwarded by the relay the other way) still
/// wait for its response; 0 for a NULL `relay` or a `direction` that is
/// none.
///
/// # Safety
/// `relay` is NULL or a live relay that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_relay_outstanding(relay: *const JsonRpcRelay, direction: u32) -> usize {
    boundary(
        || 0,
        || {
            // SAFETY: by the contract.
            let relay = unsafe { relay.as_ref() };
            match (relay, direction_of(direction)) {
                (Some(relay), Some(dir)) => relay.outstanding(dir),
                _ => 0,
            }
        },
    )
}

/// Frees a relay and everything it holds (both directions' last batches
/// included). NULL is ignored.
///
/// # Safety
/// `relay` is NULL or a relay from `jsonrpc_relay_new` that has not been
/// freed and that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_relay_free(relay: *mut JsonRpcRelay) {
    // SAFETY: by the contract, NULL or a live relay made by `boxed`.
    boundary(|| (), || unsafe { unboxed(relay) })
}
