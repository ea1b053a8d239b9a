use std::ffi::c_char;
use std::fmt::Write as _;

use super::JsonRpcStatus;
use super::classification::{Failure, JsonRpcClassification, JsonRpcKind, Texts};
use super::input::bytes;
use super::panic_boundary::boundary;
use super::session::{JsonRpcAction, action};
use super::text::{Counter, JsonRpcStr};
use crate::Role;
use crate::fallible::OutOfMemory;
use crate::reader::{Batch, Found, Reader};
use crate::reply::Owed;
use crate::rules::classify_undecoded;
use crate::session::{Action, Session, Verdict, attributed, notes};

/// A stream reader (SPEC §6): it takes a stream's bytes as they are read
/// and hands back each line they complete, classified. It owns the
/// stream's buffering: lines end at LF; a line over its limit is dropped as
/// it arrives and reported once, as `JSONRPC_KIND_TOO_LONG`, when its end
/// is seen; the bytes it holds stay within the limit plus what one call
/// hands in; a long line arriving in small pieces costs linear time.
///
/// Opaque: made by `jsonrpc_reader_new`, freed by `jsonrpc_reader_free`.
/// One stream, one reader; a reader may move between threads, but only one
/// thread may use it at a time.
pub struct JsonRpcReader {
    pub(super) reader: Reader,
    /// The last batch's items and their strings, kept between calls so that
    /// a stream of short lines allocates nothing once they are big enough.
    pub(super) items: Vec<JsonRpcLine>,
    pub(super) texts: Vec<u8>,
    /// A call is running, or one stopped at a caught internal fault, which
    /// may have left the reader half-changed: then every later call fails.
    busy: bool,
}

/// One line read by a `JsonRpcReader`.
///
/// `number` counts the stream's lines from 1 (too-long lines included).
/// `len` is the line's length in bytes, LF excluded (a CR before the LF
/// stays in the line, as JSON whitespace). A line within the limit stands
/// at `offset` in its batch's `bytes`, and `classification` is what
/// `jsonrpc_classify` gives for it, its spans counted from the line's
/// first byte and its strings in the batch's `texts` (its `storage` is
/// NULL: it owns nothing). A line over the limit has the kind
/// `JSONRPC_KIND_TOO_LONG` and an `offset` of 0; in the MCP profile, where
/// its first bytes (as many as the limit) hold a damaged request or
/// response (SPEC §10.6 (d)), its classification also has the readable
/// `id`, `id_kind` and `id_span` (a position in the line, whose bytes are
/// not held) and, for a request, `method` and `method_span` and the
/// `reply_server` that says the line is too long; for a response, the
/// `substitute`. Otherwise it has nothing else.
///
/// A line read by a `JsonRpcSession` also carries what to do with it
/// (SPEC §8 to §10): `action`, with `action_text` (for
/// `JSONRPC_ACTION_ANSWER` the reply to write back to the line's sender;
/// for `JSONRPC_ACTION_SUBSTITUTE` and `JSONRPC_ACTION_ATTRIBUTE` the line
/// to hand on in this one's place; for `JSONRPC_ACTION_FORWARD`, in the MCP
/// profile, the line to hand on instead of its bytes when not every SDK's
/// reader takes them as they stand (a raw CR, whitespace around the value,
/// a member given twice: SPEC 10.5), and absent when the bytes go as they
/// are; absent otherwise) and `note` (why, for
/// every action but `JSONRPC_ACTION_FORWARD`: a static NUL-terminated text
/// for a log record; NULL otherwise). `action_text` lives as long as the
/// batch. A plain reader's lines have `JSONRPC_ACTION_NONE`, no text, no
/// note.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcLine {
    pub number: u64,
    pub offset: usize,
    pub len: usize,
    pub classification: JsonRpcClassification,
    pub action: JsonRpcAction,
    pub action_text: JsonRpcStr,
    pub note: *const c_char,
}

/// The lines one call of a reader completed, in order: `count` items at
/// `items`. Their bytes stand in `bytes` (`bytes_len` bytes), each line
/// where its item's `offset` says; when no item is too long, `bytes` is
/// exactly the items' lines one after another, each followed by its LF (but
/// the last line of a stream that had none). Every string of their
/// classifications stands in `texts` (`texts_len` bytes: the strings of
/// the first item, then of the next, each followed by its NUL, in the order
/// `id`, `method`, `reason`, `reply_server`, `reply_client`,
/// `substitute`). So a binding can copy a batch in three pieces and find
/// each line and each string by the lengths alone. (A session's
/// `action_text` is one of those strings, or, for an attributed line and a
/// substitute made for a request that named no id, a string of the
/// session's own, outside `texts`.)
///
/// Borrowed: everything a batch points to belongs to the reader and stays
/// valid until the reader's next call (feed, end or free). Pointers of an
/// empty part may be NULL.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcBatch {
    pub items: *const JsonRpcLine,
    pub count: usize,
    pub bytes: *const u8,
    pub bytes_len: usize,
    pub texts: *const c_char,
    pub texts_len: usize,
}

impl JsonRpcBatch {
    pub(super) const EMPTY: JsonRpcBatch = JsonRpcBatch {
        items: std::ptr::null(),
        count: 0,
        bytes: std::ptr::null(),
        bytes_len: 0,
        texts: std::ptr::null(),
        texts_len: 0,
    };
}

/// A session's part in filling a batch: the session, and the texts of its
/// own it writes (attributed lines and substitutes for another id).
pub(super) struct Deciding<'s> {
    pub session: &'s mut Session,
    pub own: &'s mut Vec<u8>,
}

/// Where a decided line's `action_text` stands until the batch's strings
/// are in place.
#[derive(Clone, Copy)]
enum TextAt {
    None,
    Reply,
    Substitute,
    /// At this offset-form string in the session's own texts.
    Own(JsonRpcStr),
}

impl JsonRpcReader {
    /// Classifies a batch's lines into `items` and `texts`, and describes
    /// them in a `JsonRpcBatch`; with a session, decides each line's
    /// action too.
    pub(super) fn fill(
        items: &mut Vec<JsonRpcLine>,
        texts: &mut Vec<u8>,
        batch: Batch<'_>,
        mut deciding: Option<Deciding<'_>>,
    ) -> Result<JsonRpcBatch, Failure> {
        items.clear();
        texts.clear();
        if let Some(d) = deciding.as_mut() {
            d.own.clear();
        }
        let profile = batch.profile();
        let (buf, found, first) = batch.parts();
        let heads = batch.heads();
        items.try_reserve(found.len()).map_err(OutOfMemory::from)?;
        // Each item is written straight into its slot.
        for ((number, &found), slot) in (first..).zip(found).zip(items.spare_capacity_mut()) {
            match found {
                Found::Line { start, len } => {
                    let line = &buf[start..start + len];
                    let c = classify_undecoded(line, profile)?;
                    let mut unusual = None;
                    let strings = Texts::of(&c, None, &mut unusual)?;
                    texts.try_reserve(strings.size()).map_err(OutOfMemory::from)?;
                    let placed = strings.place(texts);
                    let classification = JsonRpcClassification::with_strings(&c, placed, std::ptr::null_mut());
                    let (verdict, at) = match deciding.as_mut() {
                        None => (None, TextAt::None),
                        Some(d) => {
                            let verdict = d.session.verdict(&c)?;
                            let at = text_at(&verdict, d, &c, line)?;
                            (Some(verdict), at)
                        }
                    };
                    slot.write(JsonRpcLine::decided(number, start, len, classification, verdict.as_ref(), at));
                }
                Found::TooLong { len, head: None } => {
                    let classification = JsonRpcClassification {
                        kind: JsonRpcKind::JSONRPC_KIND_TOO_LONG,
                        ..JsonRpcClassification::NONE
                    };
                    let too_long = Verdict { action: Action::Drop, note: Some(notes::TOO_LONG), id: None };
                    let verdict = deciding.as_ref().map(|_| &too_long);
                    slot.write(JsonRpcLine::decided(number, 0, len, classification, verdict, TextAt::None));
                }
                // SPEC §10.6 (d): what the line's first bytes hold, and
                // the session's decision from it.
                Found::TooLong { len, head: Some(head) } => {
                    let c = head.classification(heads);
                    let mut unusual = None;
                    let strings = Texts::of(&c, None, &mut unusual)?;
                    texts.try_reserve(strings.size()).map_err(OutOfMemory::from)?;
                    let placed = strings.place(texts);
                    let classification = JsonRpcClassification {
                        kind: JsonRpcKind::JSONRPC_KIND_TOO_LONG,
                        ..JsonRpcClassification::with_strings(&c, placed, std::ptr::null_mut())
                    };
                    let (verdict, at) = match deciding.as_mut() {
                        None => (None, TextAt::None),
                        Some(d) => {
                            let verdict = d.session.verdict_too_long(Some(&c))?;
                            let at = text_at(&verdict, d, &c, &[])?;
                            (Some(verdict), at)
                        }
                    };
                    slot.write(JsonRpcLine::decided(number, 0, len, classification, verdict.as_ref(), at));
                }
            }
        }
        // SAFETY: the loop wrote the first `found.len()` slots, for which
        // room was reserved above (a failure returns before this, leaving
        // the items empty).
        unsafe { items.set_len(found.len()) };
        // The strings now stay where they are: point at them.
        let base = texts.as_ptr().cast::<c_char>();
        for string in items.iter_mut().flat_map(|item| item.classification.strings_mut()) {
            *string = string.at(base);
        }
        if let Some(d) = deciding {
            let own = d.own.as_ptr().cast::<c_char>();
            for item in items.iter_mut() {
                item.action_text = item.action_text.at(own);
                match item.action {
                    JsonRpcAction::JSONRPC_ACTION_ANSWER => {
                        item.action_text = match d.session.role() {
                            Role::Server => item.classification.reply_server,
                            Role::Client => item.classification.reply_client,
                        }
                    }
                    JsonRpcAction::JSONRPC_ACTION_SUBSTITUTE if item.action_text.ptr.is_null() => {
                        item.action_text = item.classification.substitute;
                    }
                    _ => {}
                }
            }
        }
        let bytes_len = found.iter().rev().find_map(|found| match *found {
            Found::Line { start, len } => Some((start + len + 1).min(buf.len())),
            Found::TooLong { .. } => None,
        });
        Ok(JsonRpcBatch {
            items: items.as_ptr(),
            count: items.len(),
            bytes: buf.as_ptr(),
            bytes_len: bytes_len.unwrap_or(0),
            texts: base,
            texts_len: texts.len(),
        })
    }

    /// Runs one call on `reader`: refuses NULLs and a reader left
    /// half-changed by a caught fault, and marks it busy meanwhile.
    ///
    /// # Safety
    /// `reader` and `out` are NULL or valid, as the entry points require.
    pub(super) unsafe fn call(
        reader: *mut JsonRpcReader,
        out: *mut JsonRpcBatch,
        body: impl FnOnce(&mut JsonRpcReader) -> Result<JsonRpcBatch, Failure>,
    ) -> JsonRpcStatus {
        if out.is_null() {
            return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT;
        }
        // SAFETY: `out` is non-NULL and writable by the contract.
        unsafe { out.write(JsonRpcBatch::EMPTY) };
        // SAFETY: by the contract, a non-NULL `reader` is a live reader of
        // ours that no other thread is using.
        let Some(reader) = (unsafe { reader.as_mut() }) else {
            return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT;
        };
        if reader.busy {
            return JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR;
        }
        reader.busy = true;
        let result = body(reader);
        reader.busy = false;
        match result {
            Ok(batch) => {
                // SAFETY: `out` is non-NULL (checked above) and writable by
                // the contract.
                unsafe { out.write(batch) };
                JsonRpcStatus::JSONRPC_STATUS_OK
            }
            Err(failure) => failure.status(),
        }
    }
}

impl JsonRpcLine {
    /// A line's item, with what a session decided (`None`: no session).
    /// Its `action_text` is the offset-form string of the session's own
    /// texts, or absent until the batch's strings are in place.
    fn decided(
        number: u64,
        offset: usize,
        len: usize,
        classification: JsonRpcClassification,
        verdict: Option<&Verdict>,
        at: TextAt,
    ) -> JsonRpcLine {
        let (action, note) = match verdict {
            None => (JsonRpcAction::JSONRPC_ACTION_NONE, std::ptr::null()),
            Some(v) => (action(v.action), v.note.map_or(std::ptr::null(), |n| n.as_ptr())),
        };
        let action_text = match at {
            TextAt::Own(text) => text,
            TextAt::None | TextAt::Reply | TextAt::Substitute => JsonRpcStr::ABSENT,
        };
        JsonRpcLine { number, offset, len, classification, action, action_text, note }
    }
}

/// Where the text of `verdict` for the line `line` (classified `c`) will
/// stand: a string of the batch's, or one written now to the session's own
/// texts.
fn text_at(
    verdict: &Verdict,
    d: &mut Deciding<'_>,
    c: &crate::Classification<'_>,
    line: &[u8],
) -> Result<TextAt, Failure> {
    Ok(match (verdict.action, verdict.id.as_deref()) {
        (Action::Forward, _) => match crate::session::normalized(c, line) {
            None => TextAt::None,
            Some(pieces) => {
                let size = pieces.map(<[u8]>::len).sum();
                let pieces = crate::session::normalized(c, line).into_iter().flatten();
                TextAt::Own(own_text(d.own, size, |to| {
                    for piece in pieces {
                        let _ = to.write_bytes(piece);
                    }
                })?)
            }
        },
        (Action::Answer, _) => TextAt::Reply,
        (Action::Substitute, None) => TextAt::Substitute,
        (Action::Substitute, Some(id)) => {
            let owed = Owed::substitute(id);
            let message = owed.message.fixed().unwrap_or_default();
            let mut size = Counter::default();
            let _ = owed.write(message, &mut size);
            TextAt::Own(own_text(d.own, size.0, |to| {
                let _ = owed.write(message, to);
            })?)
        }
        (Action::Attribute, Some(id)) => {
            let parts = attributed(c, line, id).unwrap_or_default();
            let size = parts.iter().map(|p| p.len()).sum();
            TextAt::Own(own_text(d.own, size, |to| {
                for part in parts {
                    let _ = to.write_str(part);
                }
            })?)
        }
        _ => TextAt::None,
    })
}

/// Places a text of `len` bytes, which `fill` writes, in a session's own
/// texts.
fn own_text(
    own: &mut Vec<u8>,
    len: usize,
    fill: impl FnOnce(&mut super::text::Cursor<'_>),
) -> Result<JsonRpcStr, Failure> {
    use super::text::Place;
    own.try_reserve(len + 1).map_err(OutOfMemory::from)?;
    Ok(own.place(len, fill))
}

/// A new reader for one stream, whose lines may be `max_line` bytes long
/// (LF excluded); 0 means the profile's default,
/// `jsonrpc_profile_max_line(profile)`; its lines are classified by
/// `profile`, a `JsonRpcProfile` value.
///
/// Returns a reader the caller owns and frees with `jsonrpc_reader_free`,
/// or NULL when `profile` is no `JsonRpcProfile` or memory runs out.
/// Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_reader_new(max_line: usize, profile: u32) -> *mut JsonRpcReader {
    boundary(std::ptr::null_mut, || {
        let Some(profile) = super::profile::profile(profile) else { return std::ptr::null_mut() };
        let reader = JsonRpcReader::new(max_line, profile);
        boxed(reader).unwrap_or(std::ptr::null_mut())
    })
}

impl JsonRpcReader {
    pub(super) fn new(max_line: usize, profile: crate::Profile) -> JsonRpcReader {
        JsonRpcReader {
            reader: Reader::with_profile(max_line, profile),
            items: Vec::new(),
            texts: Vec::new(),
            busy: false,
        }
    }
}

/// Hands the reader the next `len` bytes of its stream, as read, and gives
/// back in `*out` the lines they complete (none when they end no line).
///
/// `data` and `len` are read as by `jsonrpc_classify`, during the call
/// only; `(NULL, 0)` is no bytes. What `*out` describes belongs to the
/// reader and stays valid until its next call (see `JsonRpcBatch`); copy
/// what you keep.
///
/// Returns `JSONRPC_STATUS_OK`; `JSONRPC_STATUS_NULL_ARGUMENT` when
/// `reader` or `out` is NULL, or `data` is NULL with a non-zero length (the
/// reader then takes nothing);
/// `JSONRPC_STATUS_OUT_OF_MEMORY` when memory ran out, and then the
/// reader has taken none of the bytes (the call may be repeated with the
/// same ones); `JSONRPC_STATUS_INTERNAL_ERROR` after a fault inside the
/// library, after which the reader fails every call but the free. On any
/// status but OK, `*out` (if not NULL) is an empty batch.
///
/// # Safety
/// `reader` is NULL or a live reader that no other thread is using; a
/// non-NULL `data` must be valid for reads of `len` bytes; a non-NULL `out`
/// valid for writing one `JsonRpcBatch`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_reader_feed(
    reader: *mut JsonRpcReader,
    data: *const u8,
    len: usize,
    out: *mut JsonRpcBatch,
) -> JsonRpcStatus {
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            let feed = |r: &mut JsonRpcReader| {
                // SAFETY: passed on from the caller.
                let data = unsafe { bytes(data, len) }.map_err(|_| Failure::NullArgument)?;
                let (items, texts) = (&mut r.items, &mut r.texts);
                r.reader.feed_then(data, |batch| JsonRpcReader::fill(items, texts, batch, None))
            };
            // SAFETY: passed on from the caller.
            unsafe { JsonRpcReader::call(reader, out, feed) }
        },
    )
}

/// Ends the reader's stream, and gives back in `*out` its last line when it
/// had no LF (or a too-long line being dropped). Afterwards the reader is
/// as new, for another stream, with line numbers from 1 again.
///
/// Statuses and the lifetime of `*out` are as for `jsonrpc_reader_feed`; on
/// `JSONRPC_STATUS_OUT_OF_MEMORY` the stream has not ended.
///
/// # Safety
/// As for `jsonrpc_reader_feed`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_reader_end(reader: *mut JsonRpcReader, out: *mut JsonRpcBatch) -> JsonRpcStatus {
    boundary(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            let end = |r: &mut JsonRpcReader| {
                let (items, texts) = (&mut r.items, &mut r.texts);
                r.reader.end_then(|batch| JsonRpcReader::fill(items, texts, batch, None))
            };
            // SAFETY: passed on from the caller.
            unsafe { JsonRpcReader::call(reader, out, end) }
        },
    )
}

/// Frees a reader and everything it holds (its last batch included). NULL
/// is ignored.
///
/// # Safety
/// `reader` is NULL or a reader from `jsonrpc_reader_new` that has not been
/// freed and that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_reader_free(reader: *mut JsonRpcReader) {
    // SAFETY: by the contract, NULL or a live reader made by `boxed`.
    boundary(|| (), || unsafe { unboxed(reader) })
}

/// `value` moved to the heap, as `Box::into_raw(Box::new(value))` but
/// failing instead of aborting; `Box::from_raw` frees it.
pub(super) fn boxed<T>(value: T) -> Result<*mut T, OutOfMemory> {
    let layout = std::alloc::Layout::new::<T>();
    const { assert!(size_of::<T>() != 0) };
    // SAFETY: the layout has a non-zero size (asserted above).
    let ptr = unsafe { std::alloc::alloc(layout) }.cast::<T>();
    if ptr.is_null() {
        return Err(OutOfMemory);
    }
    // SAFETY: `ptr` is a fresh allocation of `T`'s layout from the global
    // allocator, which is how `Box` allocates, so `Box::from_raw` may free it.
    unsafe { ptr.write(value) };
    Ok(ptr)
}

/// Frees what `boxed` made; NULL is ignored.
///
/// # Safety
/// `ptr` is NULL or a pointer from `boxed` not freed before.
pub(super) unsafe fn unboxed<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: `boxed` allocates as `Box` does (see there).
        drop(unsafe { Box::from_raw(ptr) });
    }
}
