//! Every vector of tests/vectors, byte for byte, through the Rust API and
//! through the C ABI called from Rust.

mod common;

use std::ffi::c_char;

use common::{EnvelopeCase, assert_record, envelope_cases, log_cases};
use jsonrpc_envelope::ffi::*;
use jsonrpc_envelope::{Role, classify, invalid_reply, log_value};
use serde_json::{Map, Value, json};

fn text(s: Option<&str>) -> Value {
    s.map_or(Value::Null, Value::from)
}

fn rust_record(line: &[u8]) -> Value {
    let c = classify(line);
    let spans: Map<String, Value> =
        c.spans.named().map(|(name, s)| (name.to_owned(), json!([s.offset, s.len]))).collect();
    json!({
        "kind": c.kind.name(),
        "id_kind": c.id_kind.name(),
        "id": text(c.id),
        "method": text(c.method.as_deref()),
        "jsonrpc_2_0": c.jsonrpc_2_0,
        "has_result": c.has_result,
        "has_error": c.has_error,
        "names_no_request": c.names_no_request,
        "spans": spans,
        "reason": text(c.reason.map(|r| r.to_string()).as_deref()),
        "reply_server": text(c.reply(Role::Server).as_deref()),
        "reply_client": text(c.reply(Role::Client).as_deref()),
    })
}

#[test]
fn envelope_vectors_through_the_rust_api() {
    let cases = envelope_cases();
    assert!(cases.len() >= 103);
    for case in &cases {
        assert_record(case, rust_record(&case.line));
        // The reply-only call, against the vectors' replies.
        for (role, field) in [(Role::Server, "reply_server"), (Role::Client, "reply_client")] {
            assert_eq!(
                text(invalid_reply(&case.line, role).as_deref()),
                case.expected[field],
                "{}: {field}",
                case.name
            );
        }
    }
}

fn c_str(s: JsonRpcStr) -> Option<String> {
    if s.ptr.is_null() {
        return None;
    }
    // SAFETY: the library's strings are valid for `len` bytes and NUL-ended.
    let bytes = unsafe { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len) };
    assert_eq!(unsafe { *s.ptr.add(s.len) }, 0 as c_char, "strings are NUL-terminated");
    Some(String::from_utf8(bytes.to_vec()).expect("UTF-8"))
}

fn c_kind(kind: JsonRpcKind) -> &'static str {
    use JsonRpcKind::*;
    match kind {
        JSONRPC_KIND_NONE => "none",
        JSONRPC_KIND_EMPTY => "empty",
        JSONRPC_KIND_PARSE_ERROR => "parse_error",
        JSONRPC_KIND_BATCH => "batch",
        JSONRPC_KIND_NOT_OBJECT => "not_object",
        JSONRPC_KIND_INVALID_REQUEST => "invalid_request",
        JSONRPC_KIND_REQUEST => "request",
        JSONRPC_KIND_NOTIFICATION => "notification",
        JSONRPC_KIND_RESPONSE => "response",
        JSONRPC_KIND_NOT_JSONRPC => "not_jsonrpc",
        JSONRPC_KIND_TOO_LONG => "too_long",
    }
}

fn c_id_kind(kind: JsonRpcIdKind) -> &'static str {
    use JsonRpcIdKind::*;
    match kind {
        JSONRPC_ID_ABSENT => "absent",
        JSONRPC_ID_NULL => "null",
        JSONRPC_ID_STRING => "string",
        JSONRPC_ID_NUMBER => "number",
        JSONRPC_ID_OBJECT => "object",
        JSONRPC_ID_ARRAY => "array",
        JSONRPC_ID_BOOLEAN => "boolean",
    }
}

/// A C classification in the vectors' form.
pub fn c_record(c: &JsonRpcClassification) -> Value {
    let spans: Map<String, Value> = [
        ("id", c.id_span),
        ("method", c.method_span),
        ("params", c.params_span),
        ("result", c.result_span),
        ("error", c.error_span),
    ]
    .into_iter()
    .filter(|(_, s)| s.len > 0)
    .map(|(name, s)| (name.to_owned(), json!([s.offset, s.len])))
    .collect();
    json!({
        "kind": c_kind(c.kind),
        "id_kind": c_id_kind(c.id_kind),
        "id": text(c_str(c.id).as_deref()),
        "method": text(c_str(c.method).as_deref()),
        "jsonrpc_2_0": c.jsonrpc_2_0,
        "has_result": c.has_result,
        "has_error": c.has_error,
        "names_no_request": c.names_no_request,
        "spans": spans,
        "reason": text(c_str(c.reason).as_deref()),
        "reply_server": text(c_str(c.reply_server).as_deref()),
        "reply_client": text(c_str(c.reply_client).as_deref()),
    })
}

fn c_reply(line: &[u8], role: JsonRpcRole) -> Option<String> {
    let mut reply = unsafe { jsonrpc_invalid_reply(line.as_ptr(), line.len(), role as u32) };
    assert_eq!(reply.status, JsonRpcStatus::JSONRPC_STATUS_OK);
    let text = c_str(JsonRpcStr { ptr: reply.text.ptr, len: reply.text.len });
    unsafe { jsonrpc_string_free(&mut reply.text) };
    text
}

fn check_through_c(case: &EnvelopeCase) {
    let mut c = unsafe { jsonrpc_classify(case.line.as_ptr(), case.line.len()) };
    let record = c_record(&c);
    unsafe { jsonrpc_classification_free(&mut c) };
    assert_eq!(c.kind, JsonRpcKind::JSONRPC_KIND_NONE, "free zeroes the result");
    assert_record(case, record.clone());

    // Into the caller's memory: the same record, with no allocation when
    // the strings fit the scratch buffer, and with one when they do not.
    for scratch_len in [0, 16, 4096] {
        let mut scratch = vec![0u8; scratch_len];
        let mut out = std::mem::MaybeUninit::<JsonRpcClassification>::uninit();
        let status = unsafe {
            jsonrpc_classify_into(
                case.line.as_ptr(),
                case.line.len(),
                out.as_mut_ptr(),
                scratch.as_mut_ptr(),
                scratch_len,
            )
        };
        assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
        let mut out = unsafe { out.assume_init() };
        assert_eq!(c_record(&out), record, "{} into {scratch_len} bytes", case.name);
        if scratch_len == 4096 {
            assert!(out.storage.is_null(), "{}: fits the scratch buffer", case.name);
        }
        unsafe { jsonrpc_classification_free(&mut out) };
    }
    // The reply-only call, against the vectors' replies.
    let expected = &case.expected;
    assert_eq!(text(c_reply(&case.line, JsonRpcRole::JSONRPC_ROLE_SERVER).as_deref()), expected["reply_server"]);
    assert_eq!(text(c_reply(&case.line, JsonRpcRole::JSONRPC_ROLE_CLIENT).as_deref()), expected["reply_client"]);
}

#[test]
fn envelope_vectors_through_the_c_abi() {
    for case in &envelope_cases() {
        check_through_c(case);
    }
}

#[test]
fn log_value_vectors_through_the_rust_api_and_the_c_abi() {
    let cases = log_cases();
    assert!(cases.len() >= 15);
    for case in &cases {
        assert_eq!(log_value(&case.input), case.output, "vector {:?}", case.name);
        let mut out = unsafe { jsonrpc_log_value(case.input.as_ptr(), case.input.len()) };
        let got = c_str(JsonRpcStr { ptr: out.ptr, len: out.len });
        unsafe { jsonrpc_string_free(&mut out) };
        assert_eq!(got.as_deref(), Some(case.output.as_str()), "vector {:?} through C", case.name);
    }
}
