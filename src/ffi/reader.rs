use std::ffi::c_char;

use super::boxing::{boxed, unboxed};
use super::classification::{JsonRpcClassification, JsonRpcKind};
use super::input::bytes;
use super::line::{JsonRpcBatch, JsonRpcLine};
use super::packing::ActionTexts;
use super::panic_boundary::boundary;
use super::status::{Failure, JsonRpcStatus};
use crate::fallible::OutOfMemory;
use crate::reader::{Batch, Found, Reader};
use crate::relay::{Direction, Relay};
use crate::rules::{Classification, Profile, classify_undecoded};
use crate::session::Verdict;

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

/// A relay's part in filling a batch: the relay, the direction the batch
/// is read in, and the texts it places.
pub(super) struct Deciding<'s> {
    pub relay: &'s mut Relay,
    pub dir: Direction,
    pub texts: &'s mut ActionTexts,
}

impl JsonRpcReader {
    /// Classifies a batch's lines into `items` and `texts`, and describes
    /// them in a `JsonRpcBatch`; with a session, decides each line's
    /// action too, and places its text.
    pub(super) fn fill(
        items: &mut Vec<JsonRpcLine>,
        texts: &mut Vec<u8>,
        batch: Batch<'_>,
        mut deciding: Option<Deciding<'_>>,
    ) -> Result<JsonRpcBatch, Failure> {
        items.clear();
        texts.clear();
        let profile = batch.profile();
        let (buf, found, first) = batch.parts();
        let heads = batch.heads();
        items.try_reserve(found.len()).map_err(OutOfMemory::from)?;
        if let Some(d) = deciding.as_mut() {
            d.texts.start(found.len())?;
        }
        // Each item is written straight into its slot.
        for ((number, &found), slot) in (first..).zip(found).zip(items.spare_capacity_mut()) {
            match found {
                Found::Line { start, len } => {
                    let line = &buf[start..start + len];
                    let c = classify_undecoded(line, profile)?;
                    let classification = JsonRpcClassification::in_batch(&c, texts)?;
                    let verdict = match deciding.as_mut() {
                        None => None,
                        Some(d) => Some(d.decide(&c, line)?),
                    };
                    slot.write(JsonRpcLine::decided(number, start, len, classification, verdict.as_ref()));
                }
                // SPEC §10.6 (d): what the line's first bytes hold, if
                // anything, and the session's decision from it.
                Found::TooLong { len, head } => {
                    let c = head.map(|head| head.classification(heads));
                    let classification = match &c {
                        None => JsonRpcClassification::NONE,
                        Some(c) => JsonRpcClassification::in_batch(c, texts)?,
                    };
                    let classification =
                        JsonRpcClassification { kind: JsonRpcKind::JSONRPC_KIND_TOO_LONG, ..classification };
                    let verdict = match deciding.as_mut() {
                        None => None,
                        Some(d) => Some(d.decide_too_long(c.as_ref())?),
                    };
                    slot.write(JsonRpcLine::decided(number, 0, len, classification, verdict.as_ref()));
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
            let (at, own) = d.texts.placed();
            for (item, &at) in items.iter_mut().zip(at) {
                item.place_action_text(at, own);
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
    pub(super) fn new(max_line: usize, profile: Profile) -> JsonRpcReader {
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

impl Deciding<'_> {
    /// The session's decision for a line within the limit, classified `c`,
    /// whose bytes are `line`; its text placed.
    fn decide(&mut self, c: &Classification<'_>, line: &[u8]) -> Result<Verdict, Failure> {
        let verdict = self.relay.verdict(self.dir, c)?;
        self.texts.push(self.relay.session(self.dir).text(&verdict, Some(c), line))?;
        Ok(verdict)
    }

    /// The same for a line over the limit, whose first bytes hold `head`,
    /// if anything (SPEC §10.6 (d)).
    fn decide_too_long(&mut self, head: Option<&Classification<'_>>) -> Result<Verdict, Failure> {
        let verdict = self.relay.verdict_too_long(self.dir, head)?;
        self.texts.push(self.relay.session(self.dir).text(&verdict, head, &[]))?;
        Ok(verdict)
    }
}
