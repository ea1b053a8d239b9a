use std::ffi::c_void;

use super::JsonRpcStatus;
use super::classification::{JsonRpcClassification, Texts};
use super::guard::guard;
use super::input::bytes;
use super::text::{JsonRpcStr, Store};
use crate::{LineEvent, LineState, classify};

/// What `jsonrpc_classify_lines` keeps between one buffer and the next. The
/// caller owns it: zero it before the first call of a stream (`{0}`), set
/// `max_line` if it wants, and pass the same one with every buffer of the
/// stream. Never change `too_long_bytes`. One stream, one state, one thread
/// at a time.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JsonRpcLineState {
    /// Lines longer than this many bytes (LF excluded) are reported as
    /// `too_long` and never held whole; 0 means the default, 16 MiB.
    pub max_line: usize,
    /// Bytes of an over-long line already consumed; private to the library.
    pub too_long_bytes: usize,
}

/// One line of a buffer. For a complete line, `offset` and `len` locate it
/// in the buffer (LF excluded; a CR before the LF stays in the line), and
/// `classification` is what `jsonrpc_classify` gives for it, spans counted
/// from the line's first byte. For a line over the limit, `too_long` is
/// true, `len` is its whole length (which may exceed the buffer), `offset`
/// is where its last part starts in this buffer, and `classification` is
/// `JSONRPC_KIND_NONE`: such a line gets no reply in either role.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcLine {
    pub offset: usize,
    pub len: usize,
    pub too_long: bool,
    pub classification: JsonRpcClassification,
}

/// The answer of `jsonrpc_classify_lines`: `count` items at `items`, in the
/// order of the buffer, and `consumed`, the bytes of the buffer the caller
/// is done with (up to and including the last LF, or an over-long line's
/// bytes). The caller owns it and frees it, once, with `jsonrpc_lines_free`.
/// On a status other than `JSONRPC_STATUS_OK` there are no items and
/// nothing is consumed. The items' classifications own nothing themselves
/// (their `storage` is NULL): their strings live in the result's one block.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcLines {
    pub status: JsonRpcStatus,
    pub items: *mut JsonRpcLine,
    pub count: usize,
    pub consumed: usize,
    /// Private to the library: the one allocation that holds every item's
    /// strings. Never change it.
    pub storage: *mut c_void,
}

impl JsonRpcLines {
    fn failed(status: JsonRpcStatus) -> JsonRpcLines {
        JsonRpcLines { status, items: std::ptr::null_mut(), count: 0, consumed: 0, storage: std::ptr::null_mut() }
    }
}

/// Classifies every complete line of a buffer in one call (SPEC §6).
///
/// The caller reads its stream into a buffer and passes the bytes it has
/// not yet consumed followed by what it read since. Lines end at LF. Each
/// complete line becomes an item; at the end of the stream
/// (`end_of_stream` true) a last line without LF does too. The caller then
/// drops `consumed` bytes from the front of its buffer and keeps the rest.
/// A line longer than `state->max_line` is consumed as it arrives (so the
/// caller never holds more than `max_line` bytes of it) and reported once,
/// as a `too_long` item, when its end is seen.
///
/// `buf` and `len` are read as by `jsonrpc_classify`; NULL with a non-zero
/// length, or a NULL `state`, gives `JSONRPC_STATUS_NULL_ARGUMENT`.
///
/// Memory: each item costs `sizeof(JsonRpcLine)` plus its strings, so the
/// result grows with the number of lines in the buffer; pass buffers of a
/// bounded size. 16 to 32 KiB suits a pipe: larger buffers make results
/// large enough for `malloc` to map and unmap them on every call, which
/// costs more than the calls they save.
///
/// Thread-safe for distinct states.
///
/// # Safety
/// A non-NULL `buf` must be valid for reads of `len` bytes; a non-NULL
/// `state` must point to a `JsonRpcLineState` no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_classify_lines(
    buf: *const u8,
    len: usize,
    end_of_stream: bool,
    state: *mut JsonRpcLineState,
) -> JsonRpcLines {
    guard(
        || JsonRpcLines::failed(JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR),
        || {
            // SAFETY: passed on from the caller.
            let (Ok(buf), Some(c_state)) = (unsafe { bytes(buf, len) }, unsafe { state.as_mut() }) else {
                return JsonRpcLines::failed(JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
            };
            let max_line = if c_state.max_line == 0 { crate::DEFAULT_MAX_LINE } else { c_state.max_line };
            let mut state = LineState { max_line, too_long_bytes: c_state.too_long_bytes };
            let mut lines = crate::lines(buf, end_of_stream, &mut state);
            // One pass: each item's strings go to `texts`, one after another,
            // and point there by offset until the block that will hold them
            // all is made. Sized once: one item per LF, and one more at the
            // end.
            let mut items = Vec::with_capacity(memchr::memchr_iter(b'\n', buf).count() + 1);
            let mut texts = Vec::new();
            items.extend(lines.by_ref().map(|event| item(event, &mut texts)));
            let consumed = lines.consumed();
            let mut store = Store::with_capacity(texts.len());
            let Some(base) = store.push_block(&texts) else {
                return JsonRpcLines::failed(JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY);
            };
            for string in items.iter_mut().flat_map(|item| item.classification.strings_mut()) {
                if !string.ptr.is_null() {
                    // SAFETY: the offset (plus one) of a string inside `texts`,
                    // which `base` now holds.
                    string.ptr = unsafe { base.add(string.ptr.addr() - 1) };
                }
            }
            c_state.too_long_bytes = state.too_long_bytes;
            let items = items.into_boxed_slice();
            let count = items.len();
            JsonRpcLines {
                status: JsonRpcStatus::JSONRPC_STATUS_OK,
                items: Box::into_raw(items).cast::<JsonRpcLine>(),
                count,
                consumed,
                storage: store.into_raw().cast(),
            }
        },
    )
}

/// One item: a line with its classification, its strings appended to
/// `texts` (each with a NUL) and pointing there by offset plus one, or a
/// too-long line with none.
fn item(event: LineEvent<'_>, texts: &mut Vec<u8>) -> JsonRpcLine {
    let (offset, len, classification) = match event {
        LineEvent::Line { offset, line } => {
            let c = classify(line);
            let strings = Texts::of(&c).placed(|text| {
                let at = texts.len();
                texts.extend_from_slice(text);
                texts.push(0);
                Some(JsonRpcStr { ptr: std::ptr::without_provenance(at + 1), len: text.len() })
            });
            let classification = JsonRpcClassification::with_strings(&c, strings, std::ptr::null_mut());
            (offset, line.len(), classification)
        }
        LineEvent::TooLong { offset, len } => (offset, len, JsonRpcClassification::NONE),
    };
    JsonRpcLine { offset, len, too_long: matches!(event, LineEvent::TooLong { .. }), classification }
}

/// Frees a `JsonRpcLines` and every classification in it, and sets it to
/// all zeros, so a second call does nothing. NULL is ignored.
///
/// # Safety
/// `lines` is NULL or points to a result of `jsonrpc_classify_lines` (or a
/// zeroed one), unchanged, that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_lines_free(lines: *mut JsonRpcLines) {
    guard(
        || (),
        || {
            if lines.is_null() {
                return;
            }
            // SAFETY: by the contract, `items` and `count` are those of a
            // boxed slice this library made (or NULL and 0), and `storage`
            // is NULL or our own malloc block.
            unsafe {
                let JsonRpcLines { items, count, storage, .. } =
                    std::ptr::replace(lines, JsonRpcLines::failed(JsonRpcStatus::JSONRPC_STATUS_OK));
                if !items.is_null() {
                    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(items, count)));
                }
                libc::free(storage);
            }
        },
    )
}
