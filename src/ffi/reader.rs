use std::ffi::c_char;

use super::JsonRpcStatus;
use super::classification::{Failure, JsonRpcClassification, JsonRpcKind, Texts};
use super::guard::guard;
use super::input::bytes;
use crate::fallible::OutOfMemory;
use crate::reader::{Batch, Found, Reader};
use crate::rules::classify_undecoded;

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
    reader: Reader,
    /// The last batch's items and their strings, kept between calls so that
    /// a stream of short lines allocates nothing once they are big enough.
    items: Vec<JsonRpcLine>,
    texts: Vec<u8>,
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
/// `JSONRPC_KIND_TOO_LONG`, an `offset` of 0, and nothing else.
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcLine {
    pub number: u64,
    pub offset: usize,
    pub len: usize,
    pub classification: JsonRpcClassification,
}

/// The lines one call of a reader completed, in order: `count` items at
/// `items`. Their bytes stand in `bytes` (`bytes_len` bytes), each line
/// where its item's `offset` says; when no item is too long, `bytes` is
/// exactly the items' lines one after another, each followed by its LF (but
/// the last line of a stream that had none). Every string of their
/// classifications stands in `texts` (`texts_len` bytes: the strings of
/// the first item, then of the next, each followed by its NUL, in the order
/// `id`, `method`, `reason`, `reply_server`, `reply_client`). So a binding
/// can copy a batch in three pieces and find each line and each string by
/// the lengths alone.
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
    const EMPTY: JsonRpcBatch = JsonRpcBatch {
        items: std::ptr::null(),
        count: 0,
        bytes: std::ptr::null(),
        bytes_len: 0,
        texts: std::ptr::null(),
        texts_len: 0,
    };
}

impl JsonRpcReader {
    /// Classifies a batch's lines into `items` and `texts`, and describes
    /// them in a `JsonRpcBatch`.
    fn fill(items: &mut Vec<JsonRpcLine>, texts: &mut Vec<u8>, batch: Batch<'_>) -> Result<JsonRpcBatch, Failure> {
        items.clear();
        texts.clear();
        let (buf, found, first) = batch.parts();
        items.try_reserve(found.len()).map_err(OutOfMemory::from)?;
        // Each item is written straight into its slot.
        for ((number, &found), slot) in (first..).zip(found).zip(items.spare_capacity_mut()) {
            match found {
                Found::Line { start, len } => {
                    let c = classify_undecoded(&buf[start..start + len])?;
                    let mut unusual = None;
                    let strings = Texts::of(&c, None, &mut unusual)?;
                    texts.try_reserve(strings.size()).map_err(OutOfMemory::from)?;
                    let placed = strings.place(texts);
                    let classification = JsonRpcClassification::with_strings(&c, placed, std::ptr::null_mut());
                    slot.write(JsonRpcLine { number, offset: start, len, classification });
                }
                Found::TooLong { len } => {
                    let classification = JsonRpcClassification {
                        kind: JsonRpcKind::JSONRPC_KIND_TOO_LONG,
                        ..JsonRpcClassification::NONE
                    };
                    slot.write(JsonRpcLine { number, offset: 0, len, classification });
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
    unsafe fn call(
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

/// A new reader for one stream, whose lines may be `max_line` bytes long
/// (LF excluded); 0 means the default, `jsonrpc_default_max_line()`.
///
/// Returns a reader the caller owns and frees with `jsonrpc_reader_free`,
/// or NULL when memory runs out. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn jsonrpc_reader_new(max_line: usize) -> *mut JsonRpcReader {
    guard(std::ptr::null_mut, || {
        let reader = JsonRpcReader { reader: Reader::new(max_line), items: Vec::new(), texts: Vec::new(), busy: false };
        boxed(reader).unwrap_or(std::ptr::null_mut())
    })
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
    guard(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            let feed = |r: &mut JsonRpcReader| {
                // SAFETY: passed on from the caller.
                let data = unsafe { bytes(data, len) }.map_err(|_| Failure::NullArgument)?;
                let (items, texts) = (&mut r.items, &mut r.texts);
                r.reader.feed_then(data, |batch| JsonRpcReader::fill(items, texts, batch))
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
    guard(
        || JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR,
        || {
            let end = |r: &mut JsonRpcReader| {
                let (items, texts) = (&mut r.items, &mut r.texts);
                r.reader.end_then(|batch| JsonRpcReader::fill(items, texts, batch))
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
    guard(
        || (),
        || {
            if !reader.is_null() {
                // SAFETY: by the contract, a live reader made by
                // `fallible::boxed`, which allocates as `Box` does.
                drop(unsafe { Box::from_raw(reader) });
            }
        },
    )
}

/// `value` moved to the heap, as `Box::into_raw(Box::new(value))` but
/// failing instead of aborting; `Box::from_raw` frees it.
fn boxed<T>(value: T) -> Result<*mut T, OutOfMemory> {
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
