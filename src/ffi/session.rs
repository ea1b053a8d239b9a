use std::ffi::c_char;

use super::JsonRpcStatus;
use super::classification::Failure;
use super::input::bytes;
use super::panic_boundary::boundary;
use super::reader::{Deciding, JsonRpcBatch, JsonRpcReader, boxed, unboxed};
use super::text::{Counter, JsonRpcString};
use crate::fallible::OutOfMemory;
use crate::rules::classify_undecoded;
use crate::session::{Action, Session, notes};

/// What to do with a line (SPEC §8 to §10), as a `JsonRpcSession` decides
/// it. Values are fixed and never reused. `jsonrpc_action_name` gives the
/// word records use for each.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcAction {
    /// Not decided: a line of a plain `JsonRpcReader`.
    JSONRPC_ACTION_NONE = 0,
    /// Hand the line on, unchanged, with its LF.
    JSONRPC_ACTION_FORWARD = 1,
    /// Write the action's text back to the line's sender; nobody else sees
    /// the line.
    JSONRPC_ACTION_ANSWER = 2,
    /// Hand on the action's text (the `invalid_response`'s substitute) in
    /// the line's place.
    JSONRPC_ACTION_SUBSTITUTE = 3,
    /// Hand on the action's text (the error that named no request, with the
    /// id of the one request outstanding put in) in the line's place.
    JSONRPC_ACTION_ATTRIBUTE = 4,
    /// Nobody sees the line; log the note.
    JSONRPC_ACTION_DROP = 5,
    /// Nobody sees the line but the log: what a server wrote to its stdout
    /// that is no message (read in role `client`).
    JSONRPC_ACTION_DIVERT = 6,
}

/// The C value of an action.
pub(super) fn action(action: Action) -> JsonRpcAction {
    match action {
        Action::Forward => JsonRpcAction::JSONRPC_ACTION_FORWARD,
        Action::Answer => JsonRpcAction::JSONRPC_ACTION_ANSWER,
        Action::Substitute => JsonRpcAction::JSONRPC_ACTION_SUBSTITUTE,
        Action::Attribute => JsonRpcAction::JSONRPC_ACTION_ATTRIBUTE,
        Action::Drop => JsonRpcAction::JSONRPC_ACTION_DROP,
        Action::Divert => JsonRpcAction::JSONRPC_ACTION_DIVERT,
    }
}

/// One endpoint's session (SPEC §8 to §10): a stream reader that also
/// decides what to do with each line it reads, in its role and profile,
/// and keeps the ids of the requests written the other way that are still
/// outstanding (for substitutes and the handshake rule). A guard or an SDK
/// transport feeds it what it reads, tells it what it writes
/// (`jsonrpc_session_sent`), and does what each line's action says.
///
/// Opaque: made by `jsonrpc_session_new`, freed by `jsonrpc_session_free`.
/// A session may move between threads, but only one thread may use it at a
/// time.
pub struct JsonRpcSession {
    reader: JsonRpcReader,
    session: Session,
    /// Texts of the session's own for the last batch.
    own: Vec<u8>,
}

/// What a session decided for one line outside a batch
/// (`jsonrpc_session_refused`). The caller owns `text` and frees it with
/// `jsonrpc_string_free` (harmless when it is `{NULL, 0}`); `note` is
/// static.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcDecision {
    pub action: JsonRpcAction,
    pub text: JsonRpcString,
    pub note: *const c_char,
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
        let session = JsonRpcSession {
            reader: JsonRpcReader::new(max_line, profile),
            session: Session::new(role, profile),
            own: Vec::new(),
        };
        boxed(session).unwrap_or(std::ptr::null_mut())
    })
}

impl JsonRpcSession {
    /// Runs a feed or an end on `session`'s reader, deciding each line.
    ///
    /// # Safety
    /// `session` and `out` are NULL or valid, as the entry points require.
    unsafe fn read(
        session: *mut JsonRpcSession,
        out: *mut JsonRpcBatch,
        step: impl FnOnce(
            &mut crate::Reader,
            Deciding<'_>,
            &mut Vec<super::reader::JsonRpcLine>,
            &mut Vec<u8>,
        ) -> Result<JsonRpcBatch, Failure>,
    ) -> JsonRpcStatus {
        // SAFETY: by the contract, a non-NULL `session` is a live session of
        // ours that no other thread is using.
        let Some(s) = (unsafe { session.as_mut() }) else {
            if !out.is_null() {
                // SAFETY: `out` is non-NULL and writable by the contract.
                unsafe { out.write(JsonRpcBatch::EMPTY) };
            }
            return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT;
        };
        let (session, own) = (&mut s.session, &mut s.own);
        // SAFETY: `out` is passed on from the caller; the reader is ours.
        unsafe {
            JsonRpcReader::call(&mut s.reader, out, |r| {
                let deciding = Deciding { session, own };
                step(&mut r.reader, deciding, &mut r.items, &mut r.texts)
            })
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
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            let feed = |reader: &mut crate::Reader, deciding: Deciding<'_>, items: &mut _, texts: &mut _| {
                // SAFETY: passed on from the caller.
                let data = unsafe { bytes(data, len) }.map_err(|_| Failure::NullArgument)?;
                reader.feed_then(data, |batch| JsonRpcReader::fill(items, texts, batch, Some(deciding)))
            };
            // SAFETY: passed on from the caller.
            unsafe { JsonRpcSession::read(session, out, feed) }
        },
    )
}

/// Ends the session's stream, and gives back in `*out` its last line when
/// it had no LF, decided as `jsonrpc_session_feed` decides lines. The
/// reader is then as new; the outstanding requests are kept.
///
/// # Safety
/// As for `jsonrpc_session_feed`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_session_end(session: *mut JsonRpcSession, out: *mut JsonRpcBatch) -> JsonRpcStatus {
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            let end = |reader: &mut crate::Reader, deciding: Deciding<'_>, items: &mut _, texts: &mut _| {
                reader.end_then(|batch| JsonRpcReader::fill(items, texts, batch, Some(deciding)))
            };
            // SAFETY: passed on from the caller.
            unsafe { JsonRpcSession::read(session, out, end) }
        },
    )
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
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            // SAFETY: by the contract.
            let Some(s) = (unsafe { session.as_mut() }) else { return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT };
            // SAFETY: passed on from the caller.
            let Ok(line) = (unsafe { bytes(line, len) }) else { return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT };
            let sent = classify_undecoded(line, s.session.profile()).and_then(|c| s.session.try_sent(&c));
            match sent {
                Ok(()) => JsonRpcStatus::JSONRPC_STATUS_OK,
                Err(OutOfMemory) => JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY,
            }
        },
    )
}

/// What to do instead when the receiving SDK's own decoder refused a line
/// this session handed on (SPEC §10.4; a fault of the profile, to be logged
/// at error level): for a request, `JSONRPC_ACTION_ANSWER` with the
/// `-32600` reply; for a response with a string or number id (in the MCP
/// profile, an MCP id), `JSONRPC_ACTION_SUBSTITUTE` with its substitute;
/// otherwise
/// `JSONRPC_ACTION_DROP`. Written to `*out`, whose `text` the caller frees
/// with `jsonrpc_string_free`.
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
    const NONE: JsonRpcDecision = JsonRpcDecision {
        action: JsonRpcAction::JSONRPC_ACTION_NONE,
        text: JsonRpcString::NONE,
        note: std::ptr::null(),
    };
    if out.is_null() {
        return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT;
    }
    // SAFETY: `out` is non-NULL and writable by the contract.
    unsafe { out.write(NONE) };
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            // SAFETY: by the contract.
            let Some(s) = (unsafe { session.as_mut() }) else { return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT };
            // SAFETY: passed on from the caller.
            let Ok(line) = (unsafe { bytes(line, len) }) else { return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT };
            let mut decided = || -> Result<JsonRpcDecision, OutOfMemory> {
                let c = classify_undecoded(line, s.session.profile())?;
                let (act, owed) = s.session.refused_verdict(&c)?;
                let text = match owed {
                    None => JsonRpcString::NONE,
                    Some(owed) => {
                        let message = owed.message.fixed().unwrap_or_default();
                        let mut size = Counter::default();
                        let _ = owed.write(message, &mut size);
                        JsonRpcString::new(size.0, |to| {
                            let _ = owed.write(message, to);
                        })?
                    }
                };
                Ok(JsonRpcDecision { action: action(act), text, note: notes::REFUSED.as_ptr() })
            };
            match decided() {
                Ok(decision) => {
                    // SAFETY: `out` is non-NULL and writable by the contract.
                    unsafe { out.write(decision) };
                    JsonRpcStatus::JSONRPC_STATUS_OK
                }
                Err(OutOfMemory) => JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY,
            }
        },
    )
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
            unsafe { session.as_ref() }.map_or(0, |s| s.session.outstanding())
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
