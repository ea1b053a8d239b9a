use std::ffi::c_void;

use super::JsonRpcStatus;
use super::guard::guard;
use super::input::classify_line;
use super::text::{JsonRpcStr, Store};
use crate::{Classification, IdKind, Kind, Role, Span};

/// What a line is (SPEC §2). Values are fixed and never reused.
#[repr(u32)]
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonRpcKind {
    /// Not a classification: a zeroed or freed result, an item of
    /// `jsonrpc_classify_lines` that is `too_long`, or a call that failed
    /// inside the library (out of memory, or a caught internal fault; its
    /// `reason` says which). No input line is ever classified so.
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
    /// The id's exact JSON text, as it stood in the line (never re-encoded,
    /// never rounded): exactly the line's bytes at `id_span`. Absent when
    /// there is no `id` member.
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
    /// The same text `jsonrpc_invalid_reply` gives for the server role.
    pub reply_server: JsonRpcStr,
    /// The reply a client owes for this line, or absent for none.
    pub reply_client: JsonRpcStr,
    pub id_span: JsonRpcSpan,
    pub method_span: JsonRpcSpan,
    pub params_span: JsonRpcSpan,
    pub result_span: JsonRpcSpan,
    pub error_span: JsonRpcSpan,
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
        id_span: JsonRpcSpan { offset: 0, len: 0 },
        method_span: JsonRpcSpan { offset: 0, len: 0 },
        params_span: JsonRpcSpan { offset: 0, len: 0 },
        result_span: JsonRpcSpan { offset: 0, len: 0 },
        error_span: JsonRpcSpan { offset: 0, len: 0 },
        storage: std::ptr::null_mut(),
    };

    /// The classification's strings, for a caller that moves them.
    pub(super) fn strings_mut(&mut self) -> [&mut JsonRpcStr; 5] {
        [&mut self.id, &mut self.method, &mut self.reason, &mut self.reply_server, &mut self.reply_client]
    }

    /// A failed call's result, with a static reason.
    pub(super) fn failed(why: &'static std::ffi::CStr) -> JsonRpcClassification {
        JsonRpcClassification { reason: JsonRpcStr::from_static(why), ..JsonRpcClassification::NONE }
    }

    /// The C form of `c`, with all its strings in one allocation.
    pub(super) fn new(c: &Classification<'_>) -> JsonRpcClassification {
        // SAFETY: no scratch buffer is given.
        unsafe { JsonRpcClassification::new_in(c, None) }
    }

    /// The C form of `c`, with its strings in `scratch` (pointer, length)
    /// when they fit, and in one allocation otherwise.
    ///
    /// # Safety
    /// A given `scratch` must be valid for writes of its length while the
    /// result is in use.
    #[inline(always)]
    pub(super) unsafe fn new_in(c: &Classification<'_>, scratch: Option<(*mut u8, usize)>) -> JsonRpcClassification {
        let texts = Texts::of(c);
        let size = texts.size();
        let mut store = match scratch {
            // SAFETY: the caller's buffer, valid by this function's contract.
            Some((base, len)) if len >= size && !base.is_null() => unsafe { Store::borrowed(base, len) },
            _ => Store::with_capacity(size),
        };
        if store.failed() {
            return JsonRpcClassification::failed(c"out of memory");
        }
        let strings = texts.placed(|text| store.push(text));
        JsonRpcClassification::with_strings(c, strings, store.into_raw().cast())
    }

    /// The C form of `c`, with `strings` placed by `Texts::placed` and the
    /// allocation that holds them. Every field is computed before the
    /// result is built, so that the compiler writes it straight where it
    /// goes (`*out` of `jsonrpc_classify_into`) rather than building it on
    /// the stack and copying it.
    #[inline(always)]
    pub(super) fn with_strings(
        c: &Classification<'_>,
        [id, method, reason, reply_server, reply_client]: [JsonRpcStr; 5],
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
            id_span: span(c.spans.id),
            method_span: span(c.spans.method),
            params_span: span(c.spans.params),
            result_span: span(c.spans.result),
            error_span: span(c.spans.error),
            storage,
        }
    }
}

/// The strings a classification hands out, made before any is written so
/// that their total size is known.
pub(super) struct Texts<'c> {
    id: Option<&'c str>,
    method: Option<&'c str>,
    reason: Option<String>,
    reply_server: Option<String>,
    reply_client: Option<String>,
}

impl<'c> Texts<'c> {
    #[inline]
    pub(super) fn of(c: &'c Classification<'_>) -> Texts<'c> {
        Texts {
            id: c.id,
            method: c.method.as_deref(),
            reason: c.reason.map(|r| r.to_string()),
            reply_server: c.reply(Role::Server),
            reply_client: c.reply(Role::Client),
        }
    }

    /// Each text handed to `place`, which puts it where the result will
    /// find it (`None` if it cannot), in the order of the result's fields.
    #[inline(always)]
    pub(super) fn placed(&self, mut place: impl FnMut(&[u8]) -> Option<JsonRpcStr>) -> [JsonRpcStr; 5] {
        let mut push = |text: Option<&str>| text.and_then(|t| place(t.as_bytes())).unwrap_or(JsonRpcStr::ABSENT);
        [
            push(self.id),
            push(self.method),
            push(self.reason.as_deref()),
            push(self.reply_server.as_deref()),
            push(self.reply_client.as_deref()),
        ]
    }

    /// Bytes needed to store them, a NUL after each.
    pub(super) fn size(&self) -> usize {
        let len = |text: Option<&str>| text.map_or(0, |t| t.len() + 1);
        len(self.id)
            + len(self.method)
            + len(self.reason.as_deref())
            + len(self.reply_server.as_deref())
            + len(self.reply_client.as_deref())
    }
}

fn kind(kind: Kind) -> JsonRpcKind {
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
    }
}

fn id_kind(kind: IdKind) -> JsonRpcIdKind {
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

/// Classifies one line (SPEC §2, §3).
///
/// `line` points to `len` bytes, which need not be NUL-terminated and may
/// contain NUL bytes; they are only read, never past `len`, and not kept
/// after the call. `(NULL, 0)` is the empty line. NULL with a non-zero
/// length is classified `JSONRPC_KIND_PARSE_ERROR`, with a reason that says
/// so.
///
/// Returns a result the caller owns: free it with
/// `jsonrpc_classification_free`. Its kind is `JSONRPC_KIND_NONE` only when
/// the call failed inside the library (see its `reason`).
///
/// Thread-safe: no state is shared between calls.
///
/// # Safety
/// A non-NULL `line` must be valid for reads of `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_classify(line: *const u8, len: usize) -> JsonRpcClassification {
    guard(
        || JsonRpcClassification::failed(c"internal error in jsonrpc_classify"),
        // SAFETY: passed on from the caller.
        || JsonRpcClassification::new(&unsafe { classify_line(line, len) }),
    )
}

/// Classifies one line, as `jsonrpc_classify` does, into memory the caller
/// provides: the result goes to `*out`, and its strings into `scratch`
/// (`scratch_len` bytes) when they all fit, so the call allocates nothing
/// and a host makes one call per line. 1 KiB of scratch holds the strings
/// of almost every line (replies included); when they do not fit they get an
/// allocation, as in `jsonrpc_classify`. `scratch` may be NULL (with any
/// length): then this is `jsonrpc_classify` writing to `*out`.
///
/// Strings in `scratch` stand back to back from its first byte, each
/// followed by its NUL, in the order `id`, `method`, `reason`,
/// `reply_server`, `reply_client` (absent ones take no room), so a binding
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
/// written), and `JSONRPC_STATUS_OK` otherwise; a failure inside the library
/// gives `JSONRPC_STATUS_INTERNAL_ERROR` with `*out` set to
/// `JSONRPC_KIND_NONE`. Thread-safe for distinct `out` and `scratch`.
///
/// # Safety
/// A non-NULL `line` must be valid for reads of `len` bytes; a non-NULL
/// `out` valid for writing one `JsonRpcClassification`; a non-NULL `scratch`
/// valid for writes of `scratch_len` bytes and not overlapping `line`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_classify_into(
    line: *const u8,
    len: usize,
    out: *mut JsonRpcClassification,
    scratch: *mut u8,
    scratch_len: usize,
) -> JsonRpcStatus {
    if out.is_null() {
        return JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT;
    }
    // SAFETY (both writes): `out` is non-NULL and writable by the contract;
    // `line` and `scratch` are passed on from the caller.
    guard(
        || {
            let failed = JsonRpcClassification::failed(c"internal error in jsonrpc_classify_into");
            unsafe { std::ptr::write(out, failed) };
            JsonRpcStatus::JSONRPC_STATUS_INTERNAL_ERROR
        },
        || {
            let c = unsafe { classify_line(line, len) };
            unsafe { std::ptr::write(out, JsonRpcClassification::new_in(&c, Some((scratch, scratch_len)))) };
            JsonRpcStatus::JSONRPC_STATUS_OK
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
    guard(
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
