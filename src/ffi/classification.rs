use std::ffi::c_void;
use std::mem::MaybeUninit;

use super::input::{InputError, bytes};
use super::packing::Texts;
use super::panic_boundary::boundary;
use super::status::{Failure, JsonRpcStatus};
use super::text::{Block, JsonRpcStr};
use crate::fallible::OutOfMemory;
use crate::rules::{Classification, IdKind, Kind, Profile, classify_undecoded};
use crate::scan::Span;

/// What a line is (SPEC §2). Values are fixed and never reused.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcKind {
    /// Not a classification: a zeroed or freed result, or a call that
    /// failed inside the library (out of memory, or a caught internal fault;
    /// its `reason` says which). No input line is ever classified so.
    JSONRPC_KIND_NONE = 0,
    JSONRPC_KIND_EMPTY = 1,
    JSONRPC_KIND_PARSE_ERROR = 2,
    JSONRPC_KIND_BATCH = 3,
    JSONRPC_KIND_NOT_OBJECT = 4,
    JSONRPC_KIND_INVALID_REQUEST = 5,
    JSONRPC_KIND_REQUEST = 6,
    JSONRPC_KIND_NOTIFICATION = 7,
    JSONRPC_KIND_RESPONSE = 8,
    JSONRPC_KIND_NOT_JSONRPC = 9,
    /// A line of a stream over the reader's limit (`JsonRpcLine`): never
    /// held whole, owed no reply in either role, and carrying nothing else.
    /// `jsonrpc_classify` never gives it.
    JSONRPC_KIND_TOO_LONG = 10,
    /// A response the MCP profile refuses (SPEC §10.3): never answered; it
    /// may carry a `substitute`. Only the MCP profile gives it.
    JSONRPC_KIND_INVALID_RESPONSE = 11,
}

/// What the `id` member holds (SPEC §3). Values are fixed and never reused.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcIdKind {
    /// No `id` member, or the line is not an object.
    JSONRPC_ID_ABSENT = 0,
    JSONRPC_ID_NULL = 1,
    JSONRPC_ID_STRING = 2,
    JSONRPC_ID_NUMBER = 3,
    JSONRPC_ID_OBJECT = 4,
    JSONRPC_ID_ARRAY = 5,
    JSONRPC_ID_BOOLEAN = 6,
}

/// Where a member's value stands in the line: `offset` and `len` in bytes,
/// counted from the line's first byte. A JSON value is never empty, so
/// `len == 0` means the member is absent.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonRpcSpan {
    pub offset: usize,
    pub len: usize,
}

/// What a line is and what it carries (SPEC §3), returned by value by
/// `jsonrpc_classify`. The caller owns it and frees it, once, with
/// `jsonrpc_classification_free`, which also sets it to all zeros.
///
/// Its strings are `JsonRpcStr` views into memory the result owns: valid
/// until it is freed, NULL `ptr` when absent. The result is plain data:
/// once returned it may be read from any thread, and moved between threads.
///
/// What every line has (the kinds, the flags, the spans) comes before the
/// strings, so that a binding keeping many results can copy that part alone
/// (everything before `id`).
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcClassification {
    pub kind: JsonRpcKind,
    pub id_kind: JsonRpcIdKind,
    /// A `jsonrpc` member is the string `"2.0"`.
    pub jsonrpc_2_0: bool,
    /// A `result` member is present.
    pub has_result: bool,
    /// An `error` member is present.
    pub has_error: bool,
    /// A response that answers no request: it has an `error`, `jsonrpc` is
    /// `"2.0"`, and the id is null or absent (SPEC §2). A host waiting on its
    /// one request can fail at once with this error.
    pub names_no_request: bool,
    pub id_span: JsonRpcSpan,
    pub method_span: JsonRpcSpan,
    pub params_span: JsonRpcSpan,
    pub result_span: JsonRpcSpan,
    pub error_span: JsonRpcSpan,
    /// The id's exact JSON text, as it stood in the line (never re-encoded,
    /// never rounded): exactly the line's bytes at `id_span`. Absent when
    /// there is no `id` member. In the MCP profile a
    /// `JSONRPC_KIND_PARSE_ERROR` has one where it is a damaged request or
    /// response (SPEC §10.6 (c)): the readable id, and for a request the
    /// readable method; every other field stays as for any parse error.
    pub id: JsonRpcStr,
    /// The decoded method (UTF-8; a lone surrogate escape becomes U+FFFD),
    /// where `method` is a string; absent otherwise. Every escape shortens
    /// the text, so `method.len + 2 == method_span.len` exactly when the
    /// method has no escape, and then its bytes are the line's bytes
    /// between the quotes at `method_span`.
    pub method: JsonRpcStr,
    /// For `JSONRPC_KIND_INVALID_REQUEST`, the reply's exact message; for
    /// `JSONRPC_KIND_PARSE_ERROR`, what is wrong and at which byte; for
    /// `JSONRPC_KIND_NONE` after a failed call, why. Absent otherwise.
    pub reason: JsonRpcStr,
    /// The reply a server owes for this line (SPEC §4), or absent for none.
    /// The same text `jsonrpc_invalid_reply` gives for the server role. For
    /// an MCP batch of requests (SPEC §10.6 (b)) it is one reply per
    /// request, joined by LF (the text then holds LF bytes; each line is
    /// one reply, written as the batch's one answer).
    pub reply_server: JsonRpcStr,
    /// The reply a client owes for this line, or absent for none.
    pub reply_client: JsonRpcStr,
    /// For a `JSONRPC_KIND_INVALID_RESPONSE` whose id is an MCP id, or a
    /// damaged response (SPEC §10.6 (c)), the error response to hand on in
    /// the line's place so that the request it answers fails at once (SPEC
    /// §10.3); absent otherwise.
    pub substitute: JsonRpcStr,
    /// Private to the library: the one allocation that holds the strings
    /// above, or NULL when the result owns no memory (no strings, or strings
    /// in the caller's scratch buffer; see `jsonrpc_classify_into`). Never
    /// change it.
    pub storage: *mut c_void,
}

impl JsonRpcClassification {
    /// The all-zero result: `JSONRPC_KIND_NONE`, nothing present.
    pub(super) const NONE: JsonRpcClassification = JsonRpcClassification {
        kind: JsonRpcKind::JSONRPC_KIND_NONE,
        id_kind: JsonRpcIdKind::JSONRPC_ID_ABSENT,
        jsonrpc_2_0: false,
        has_result: false,
        has_error: false,
        names_no_request: false,
        id: JsonRpcStr::ABSENT,
        method: JsonRpcStr::ABSENT,
        reason: JsonRpcStr::ABSENT,
        reply_server: JsonRpcStr::ABSENT,
        reply_client: JsonRpcStr::ABSENT,
        substitute: JsonRpcStr::ABSENT,
        id_span: JsonRpcSpan { offset: 0, len: 0 },
        method_span: JsonRpcSpan { offset: 0, len: 0 },
        params_span: JsonRpcSpan { offset: 0, len: 0 },
        result_span: JsonRpcSpan { offset: 0, len: 0 },
        error_span: JsonRpcSpan { offset: 0, len: 0 },
        storage: std::ptr::null_mut(),
    };

    /// The classification's strings, for a caller that moves them.
    pub(super) fn strings_mut(&mut self) -> [&mut JsonRpcStr; 6] {
        [
            &mut self.id,
            &mut self.method,
            &mut self.reason,
            &mut self.reply_server,
            &mut self.reply_client,
            &mut self.substitute,
        ]
    }

    /// A failed call's result, with a static reason.
    pub(super) fn failed(why: &'static std::ffi::CStr) -> JsonRpcClassification {
        JsonRpcClassification { reason: JsonRpcStr::from_static(why), ..JsonRpcClassification::NONE }
    }

    /// The result of a call that failed: `JSONRPC_KIND_NONE`, with why.
    pub(super) fn of_failure(failure: Failure) -> JsonRpcClassification {
        JsonRpcClassification::failed(match failure {
            Failure::OutOfMemory => c"out of memory",
            Failure::NullArgument => c"a NULL argument",
            Failure::UnknownProfile => c"unknown profile",
            Failure::Internal(why) => why,
        })
    }

    /// Writes the C form of the line at `(ptr, len)` to `out`, with its
    /// strings in `scratch` (pointer, length) when they fit and in one
    /// allocation otherwise. On a failure `out` is left unwritten.
    ///
    /// # Safety
    /// A non-NULL `ptr` must be valid for reads of `len` bytes; a given
    /// `scratch` valid for writes of its length while the result is in use,
    /// and not overlapping the line.
    #[inline(always)]
    pub(super) unsafe fn write_line(
        ptr: *const u8,
        len: usize,
        profile: Profile,
        scratch: Option<(*mut u8, usize)>,
        out: &mut MaybeUninit<JsonRpcClassification>,
    ) -> Result<(), Failure> {
        // SAFETY: passed on from the caller.
        match unsafe { bytes(ptr, len) } {
            // The classification is used where it is made, not moved.
            Ok(line) => JsonRpcClassification::write(&classify_undecoded(line, profile)?, None, scratch, out),
            Err(error) => JsonRpcClassification::write_unreadable(error, scratch, out),
        }
    }

    /// `write_line` for bytes that are not a line.
    #[cold]
    fn write_unreadable(
        error: InputError,
        scratch: Option<(*mut u8, usize)>,
        out: &mut MaybeUninit<JsonRpcClassification>,
    ) -> Result<(), Failure> {
        JsonRpcClassification::write(&Classification::unreadable(), Some(error), scratch, out)
    }

    /// Writes the C form of `c` to `out`, as `write_line` says.
    #[inline(always)]
    fn write(
        c: &Classification<'_>,
        input_error: Option<InputError>,
        scratch: Option<(*mut u8, usize)>,
        out: &mut MaybeUninit<JsonRpcClassification>,
    ) -> Result<(), Failure> {
        let mut unusual = None;
        let texts = Texts::of(c, input_error, &mut unusual)?;
        let size = texts.size();
        let mut block = match scratch {
            // SAFETY: the caller's buffer, valid and not overlapping the
            // line by this function's contract.
            Some((base, room)) if room >= size && !base.is_null() => unsafe { Block::borrowed(base, room) },
            _ => Block::alloc(size)?,
        };
        let strings = texts.place(&mut block);
        out.write(JsonRpcClassification::with_strings(c, strings, block.into_raw().cast()));
        Ok(())
    }

    /// The C form of `c` as a batch holds it: its strings placed at the end
    /// of the batch's `texts`, in offset form until the batch is done
    /// (`JsonRpcStr::at`), and owning nothing.
    #[inline(always)]
    pub(super) fn in_batch(c: &Classification<'_>, texts: &mut Vec<u8>) -> Result<JsonRpcClassification, Failure> {
        let mut unusual = None;
        let strings = Texts::of(c, None, &mut unusual)?;
        texts.try_reserve(strings.size()).map_err(OutOfMemory::from)?;
        Ok(JsonRpcClassification::with_strings(c, strings.place(texts), std::ptr::null_mut()))
    }

    /// The C form of `c`, with `strings` placed by `Texts::place` and the
    /// allocation that holds them. Every field is computed before the
    /// result is built, so that the compiler writes it straight where it
    /// goes (`*out` of `jsonrpc_classify_into`) rather than building it on
    /// the stack and copying it.
    #[inline(always)]
    pub(super) fn with_strings(
        c: &Classification<'_>,
        [id, method, reason, reply_server, reply_client, substitute]: [JsonRpcStr; 6],
        storage: *mut c_void,
    ) -> JsonRpcClassification {
        JsonRpcClassification {
            kind: kind(c.kind),
            id_kind: id_kind(c.id_kind),
            jsonrpc_2_0: c.jsonrpc_2_0,
            has_result: c.has_result,
            has_error: c.has_error,
            names_no_request: c.names_no_request,
            id,
            method,
            reason,
            reply_server,
            reply_client,
            substitute,
            id_span: span(c.spans.id),
            method_span: span(c.spans.method),
            params_span: span(c.spans.params),
            result_span: span(c.spans.result),
            error_span: span(c.spans.error),
            storage,
        }
    }
}

/// The C kind of a classification's kind.
pub(super) fn kind(kind: Kind) -> JsonRpcKind {
    match kind {
        Kind::Empty => JsonRpcKind::JSONRPC_KIND_EMPTY,
        Kind::ParseError => JsonRpcKind::JSONRPC_KIND_PARSE_ERROR,
        Kind::Batch => JsonRpcKind::JSONRPC_KIND_BATCH,
        Kind::NotObject => JsonRpcKind::JSONRPC_KIND_NOT_OBJECT,
        Kind::InvalidRequest => JsonRpcKind::JSONRPC_KIND_INVALID_REQUEST,
        Kind::Request => JsonRpcKind::JSONRPC_KIND_REQUEST,
        Kind::Notification => JsonRpcKind::JSONRPC_KIND_NOTIFICATION,
        Kind::Response => JsonRpcKind::JSONRPC_KIND_RESPONSE,
        Kind::NotJsonRpc => JsonRpcKind::JSONRPC_KIND_NOT_JSONRPC,
        Kind::InvalidResponse => JsonRpcKind::JSONRPC_KIND_INVALID_RESPONSE,
    }
}

pub(super) fn id_kind(kind: IdKind) -> JsonRpcIdKind {
    match kind {
        IdKind::Absent => JsonRpcIdKind::JSONRPC_ID_ABSENT,
        IdKind::Null => JsonRpcIdKind::JSONRPC_ID_NULL,
        IdKind::String => JsonRpcIdKind::JSONRPC_ID_STRING,
        IdKind::Number => JsonRpcIdKind::JSONRPC_ID_NUMBER,
        IdKind::Object => JsonRpcIdKind::JSONRPC_ID_OBJECT,
        IdKind::Array => JsonRpcIdKind::JSONRPC_ID_ARRAY,
        IdKind::Boolean => JsonRpcIdKind::JSONRPC_ID_BOOLEAN,
    }
}

fn span(span: Option<Span>) -> JsonRpcSpan {
    span.map_or(JsonRpcSpan { offset: 0, len: 0 }, |s| JsonRpcSpan { offset: s.offset, len: s.len })
}

/// Classifies one line (SPEC §2, §3) by `profile`, a `JsonRpcProfile`
/// value (SPEC §10 for `JSONRPC_PROFILE_MCP`).
///
/// `line` points to `len` bytes, which need not be NUL-terminated and may
/// contain NUL bytes; they are only read, never past `len`, and not kept
/// after the call. `(NULL, 0)` is the empty line. NULL with a non-zero
/// length is classified `JSONRPC_KIND_PARSE_ERROR`, with a reason that says
/// so.
///
/// Returns a result the caller owns: free it with
/// `jsonrpc_classification_free`. Its kind is `JSONRPC_KIND_NONE` only when
/// the call failed: its `reason` is then "unknown profile" (for a
/// `profile` that is no `JsonRpcProfile`), "out of memory", or names a
/// caught internal fault.
///
/// Thread-safe: no state is shared between calls.
///
/// # Safety
/// A non-NULL `line` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_classify(line: *const u8, len: usize, profile: u32) -> JsonRpcClassification {
    boundary(
        || JsonRpcClassification::failed(c"internal error in jsonrpc_classify"),
        || {
            let Some(profile) = super::profile::profile(profile) else {
                return JsonRpcClassification::of_failure(Failure::UnknownProfile);
            };
            let mut out = MaybeUninit::uninit();
            // SAFETY: passed on from the caller; no scratch.
            match unsafe { JsonRpcClassification::write_line(line, len, profile, None, &mut out) } {
                // SAFETY: `write_line` wrote `out`, as it does when it
                // succeeds.
                Ok(()) => unsafe { out.assume_init() },
                Err(failure) => JsonRpcClassification::of_failure(failure),
            }
        },
    )
}

/// Classifies one line, as `jsonrpc_classify` does, into memory the caller
/// provides: the result goes to `*out`, and its strings into `scratch`
/// (`scratch_len` bytes) when they all fit, so a host makes one call per
/// line. The call allocates nothing when the strings fit and the line nests
/// at most 1,024 levels deep; 1 KiB of scratch holds the strings of almost
/// every line (replies included). Strings that do not fit get one
/// allocation, as in `jsonrpc_classify`, and a deeper line needs memory for
/// its nesting while it is scanned. `scratch` may be NULL (with any length):
/// then this is `jsonrpc_classify` writing to `*out`.
///
/// Strings in `scratch` stand back to back from its first byte, each
/// followed by its NUL, in the order `id`, `method`, `reason`,
/// `reply_server`, `reply_client`, `substitute` (absent ones take no
/// room), so a binding
/// can copy the used bytes in one piece and find each string by the
/// lengths alone.
///
/// Afterwards `out->storage` is NULL when the result owns no memory: then
/// freeing it is optional, and its strings stay valid while `scratch` is
/// neither changed nor freed. When `out->storage` is not NULL, free the
/// result with `jsonrpc_classification_free`. Calling it always is correct.
/// Whatever `*out` held before is overwritten, not freed.
///
/// Returns `JSONRPC_STATUS_NULL_ARGUMENT` when `out` is NULL (nothing is
/// written), `JSONRPC_STATUS_UNKNOWN_PROFILE` for a `profile` that is no
/// `JsonRpcProfile` (with `*out` set to `JSONRPC_KIND_NONE` and its
/// reason), and `JSONRPC_STATUS_OK` otherwise; when memory runs out,
/// `JSONRPC_STATUS_OUT_OF_MEMORY`, and a caught fault inside the library
/// `JSONRPC_STATUS_INTERNAL_ERROR`, each with `*out` set to
/// `JSONRPC_KIND_NONE` and its reason. Thread-safe for distinct `out` and
/// `scratch`.
///
/// # Safety
/// A non-NULL `line` must be valid for reads of `len` bytes; a non-NULL
/// `out` valid for writing one `JsonRpcClassification`; a non-NULL `scratch`
/// valid for writes of `scratch_len` bytes and not overlapping `line`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_classify_into(
    line: *const u8,
    len: usize,
    profile: u32,
    out: *mut JsonRpcClassification,
    scratch: *mut u8,
    scratch_len: usize,
) -> JsonRpcStatus {
    if out.is_null() {
        return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT;
    }
    boundary(
        || {
            let failed = JsonRpcClassification::failed(c"internal error in jsonrpc_classify_into");
            // SAFETY: `out` is non-NULL and writable by the contract.
            unsafe { std::ptr::write(out, failed) };
            JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR
        },
        || {
            // SAFETY: `out` is non-NULL, aligned and writable by the
            // contract, and `MaybeUninit` has the same layout; the result is
            // written there whole, never read first.
            let slot = unsafe { &mut *out.cast::<MaybeUninit<JsonRpcClassification>>() };
            let Some(profile) = super::profile::profile(profile) else {
                slot.write(JsonRpcClassification::of_failure(Failure::UnknownProfile));
                return Failure::UnknownProfile.status();
            };
            // SAFETY: `line` and `scratch` are passed on from the caller.
            let scratch = Some((scratch, scratch_len));
            match unsafe { JsonRpcClassification::write_line(line, len, profile, scratch, slot) } {
                Ok(()) => JsonRpcStatus::JSONRPC_STATUS_OK,
                Err(failure) => {
                    slot.write(JsonRpcClassification::of_failure(failure));
                    failure.status()
                }
            }
        },
    )
}

/// Frees what a classification owns and sets it to all zeros
/// (`JSONRPC_KIND_NONE`), so a second call on the same result does nothing.
/// NULL is ignored.
///
/// # Safety
/// `classification` is NULL or points to a result of `jsonrpc_classify` or
/// `jsonrpc_classify_into` (or a zeroed one) that no other thread is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_classification_free(classification: *mut JsonRpcClassification) {
    boundary(
        || (),
        || {
            if classification.is_null() {
                return;
            }
            // SAFETY: by the contract the pointer is valid; only `storage` is
            // read, so a caller's stray enum value cannot be misread.
            unsafe {
                let storage = (*classification).storage;
                std::ptr::write(classification, JsonRpcClassification::NONE);
                libc::free(storage);
            }
        },
    )
}
