//! A session's C face: a relay (`relay.rs`) read in one direction, the one
//! its role reads.

use super::boxing::{boxed, unboxed};
use super::line::JsonRpcBatch;
use super::panic_boundary::boundary;
use super::relay::{
    JsonRpcDecision, JsonRpcRelay, direction_value, jsonrpc_relay_end, jsonrpc_relay_feed, jsonrpc_relay_refused,
    jsonrpc_relay_wrote,
};
use super::status::JsonRpcStatus;
use crate::relay::Direction;

/// One endpoint's session (SPEC §8 to §10): a stream reader that also
/// decides what to do with each line it reads, in its role and profile,
/// and keeps the ids of the requests written the other way that are still
/// outstanding (for substitutes and the handshake rule): a `JsonRpcRelay`
/// read in the direction its role reads. A host that reads one peer feeds
/// it what it reads, tells it what it writes (`jsonrpc_session_sent`), and
/// does what each line's action says; a guard or an SDK transport, which
/// stands between two, uses a `JsonRpcRelay`.
///
/// Opaque: made by `jsonrpc_session_new`, freed by `jsonrpc_session_free`.
/// A session may move between threads, but only one thread may use it at a
/// time.
pub struct JsonRpcSession {
    relay: JsonRpcRelay,
    /// The direction the session's role reads.
    dir: Direction,
}

/// A new session that reads one stream in `role` (a `JsonRpcRole`) by
/// `profile` (a `JsonRpcProfile`), whose lines may be `max_line` bytes
/// long (0: the profile's default, `jsonrpc_profile_max_line(profile)`).
/// In the JSON-RPC profile it decides as SPEC §8
/// says; in the MCP profile it also substitutes and applies the handshake
/// rule (SPEC §9, §10.4).
///
/// Returns a session the caller owns and frees with
/// `jsonrpc_session_free`, or NULL when `role` or `profile` is no such
/// value or memory runs out. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_session_new(role: u32, profile: u32, max_line: usize) -> *mut JsonRpcSession {
    boundary(std::ptr::null_mut, || {
        let (Some(role), Some(profile)) = (super::reply::role(role), super::profile::profile(profile)) else {
            return std::ptr::null_mut();
        };
        let dir = Direction::read_by(role);
        let session = JsonRpcSession { relay: JsonRpcRelay::reading(dir, profile, max_line), dir };
        boxed(session).unwrap_or(std::ptr::null_mut())
    })
}

impl JsonRpcSession {
    /// The relay of `session` (NULL for a NULL `session`) and the value of
    /// the direction it reads: a session's calls are its relay's, in that
    /// direction.
    ///
    /// # Safety
    /// `session` is NULL or a live session of ours.
    unsafe fn relay(session: *mut JsonRpcSession) -> (*mut JsonRpcRelay, Direction) {
        // SAFETY: by the contract, a non-NULL `session` is a live session.
        match unsafe { session.as_mut() } {
            Some(s) => (&mut s.relay, s.dir),
            // The relay's NULL check comes before its direction's.
            None => (std::ptr::null_mut(), Direction::ToServer),
        }
    }
}

/// Hands the session the next `len` bytes of its stream and gives back in
/// `*out` the lines they complete, each with its `action`, `action_text`
/// and `note` (see `JsonRpcLine`). Everything else is as for
/// `jsonrpc_reader_feed`: the batch lives until the session's next call,
/// and the statuses are the same. On `JSONRPC_STATUS_OUT_OF_MEMORY` the
/// session has taken none of the bytes, but it may have marked requests
/// answered by responses among them.
///
/// # Safety
/// `session` is NULL or a live session that no other thread is using; a
/// non-NULL `data` must be valid for reads of `len` bytes; a non-NULL
/// `out` valid for writing one `JsonRpcBatch`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_session_feed(
    session: *mut JsonRpcSession,
    data: *const u8,
    len: usize,
    out: *mut JsonRpcBatch,
) -> JsonRpcStatus {
    // SAFETY: passed on from the caller.
    unsafe {
        let (relay, dir) = JsonRpcSession::relay(session);
        jsonrpc_relay_feed(relay, direction_value(dir), data, len, out)
    }
}

/// Ends the session's stream, and gives back in `*out` its last line when
/// it had no LF, decided as `jsonrpc_session_feed` decides lines. The
/// reader is then as new; the outstanding requests are kept.
///
/// # Safety
/// As for `jsonrpc_session_feed`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_session_end(session: *mut JsonRpcSession, out: *mut JsonRpcBatch) -> JsonRpcStatus {
    // SAFETY: passed on from the caller.
    unsafe {
        let (relay, dir) = JsonRpcSession::relay(session);
        jsonrpc_relay_end(relay, direction_value(dir), out)
    }
}

/// Tells the session of a line written the other way, to the peer whose
/// lines it reads (`line`, `len` read as by `jsonrpc_classify`): in the
/// MCP profile a request's id is then outstanding until a response names
/// it. Returns `JSONRPC_STATUS_OK`, `JSONRPC_STATUS_NULL_ARGUMENT` for a
/// NULL `session` or a NULL `line` with a length,
/// `JSONRPC_STATUS_OUT_OF_MEMORY` (nothing changed), or
/// `JSONRPC_STATUS_INTERNAL_ERROR` after a caught fault inside the library.
///
/// # Safety
/// `session` is NULL or a live session that no other thread is using; a
/// non-NULL `line` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_session_sent(
    session: *mut JsonRpcSession,
    line: *const u8,
    len: usize,
) -> JsonRpcStatus {
    // SAFETY: passed on from the caller.
    unsafe {
        let (relay, dir) = JsonRpcSession::relay(session);
        // Written the other way: toward the peer whose lines it reads.
        jsonrpc_relay_wrote(relay, direction_value(dir.other()), line, len)
    }
}

/// What to do instead when the receiving SDK's own decoder refused a line
/// this session handed on (SPEC §10.4; a fault of the profile, to be logged
/// at error level): for a request, `JSONRPC_ACTION_ANSWER` with the
/// `-32600` reply (which goes back to the peer, never to the SDK); for a
/// response with a string or number id (in the MCP profile, an MCP id),
/// `JSONRPC_ACTION_SUBSTITUTE` with its substitute; otherwise
/// `JSONRPC_ACTION_DROP`. Written to `*out`, whose `text` the caller frees
/// with `jsonrpc_string_free`.
///
/// A second refusal settles it: when the line refused is, byte for byte,
/// the substitute it would be replaced with (the SDK refused the
/// substitute this session handed on, from a batch or from an earlier
/// call), the action is `JSONRPC_ACTION_DROP`, with no text and the note
/// "the receiving SDK's decoder refused the substitute too". So a caller
/// that hands on what this says, and calls it again when that is refused
/// too, stops there.
///
/// Returns `JSONRPC_STATUS_OK`; `JSONRPC_STATUS_NULL_ARGUMENT` when
/// `session` or `out` is NULL or `line` is NULL with a length;
/// `JSONRPC_STATUS_OUT_OF_MEMORY`; `JSONRPC_STATUS_INTERNAL_ERROR` after a
/// caught fault. On any status but OK, `*out` (if not NULL) is
/// `JSONRPC_ACTION_NONE` with no text.
///
/// # Safety
/// `session` is NULL or a live session that no other thread is using; a
/// non-NULL `line` must be valid for reads of `len` bytes; a non-NULL
/// `out` valid for writing one `JsonRpcDecision`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_session_refused(
    session: *mut JsonRpcSession,
    line: *const u8,
    len: usize,
    out: *mut JsonRpcDecision,
) -> JsonRpcStatus {
    // SAFETY: passed on from the caller.
    unsafe {
        let (relay, dir) = JsonRpcSession::relay(session);
        jsonrpc_relay_refused(relay, direction_value(dir), line, len, out)
    }
}

/// How many requests written the other way (`jsonrpc_session_sent`) are
/// still waiting for a response; 0 for a NULL `session`.
///
/// # Safety
/// `session` is NULL or a live session that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_session_outstanding(session: *const JsonRpcSession) -> usize {
    boundary(
        || 0,
        || {
            // SAFETY: by the contract.
            unsafe { session.as_ref() }.map_or(0, |s| s.relay.outstanding(s.dir))
        },
    )
}

/// Frees a session and everything it holds (its last batch included).
/// NULL is ignored.
///
/// # Safety
/// `session` is NULL or a session from `jsonrpc_session_new` that has not
/// been freed and that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_session_free(session: *mut JsonRpcSession) {
    // SAFETY: by the contract, NULL or a live session made by `boxed`.
    boundary(|| (), || unsafe { unboxed(session) })
}
