//! Every vector of tests/vectors, byte for byte, through the Rust API and
//! through the C ABI called from Rust.

mod common;

use std::ffi::c_char;

use common::{EnvelopeCase, assert_record, envelope_cases, log_cases, mcp_cases};
use jsonrpc_envelope::ffi::*;
use jsonrpc_envelope::{Profile, Reader, Role, classify, invalid_reply, log_value};
use serde_json::{Map, Value, json};

fn text(s: Option<&str>) -> Value {
    s.map_or(Value::Null, Value::from)
}

/// The record of `line` by `profile`; the MCP vectors also carry the
/// substitute.
fn rust_record(line: &[u8], profile: Profile) -> Value {
    let mut record = classification_record(&profile.classify(line));
    if profile == Profile::Mcp {
        record["substitute"] = text(profile.classify(line).substitute().as_deref());
    }
    record
}

fn classification_record(c: &jsonrpc_envelope::Classification<'_>) -> Value {
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

fn check_through_rust(case: &EnvelopeCase, profile: Profile) {
    assert_record(case, rust_record(&case.line, profile));
    // The reply-only call, against the vectors' replies.
    for (role, field) in [(Role::Server, "reply_server"), (Role::Client, "reply_client")] {
        assert_eq!(
            text(profile.invalid_reply(&case.line, role).as_deref()),
            case.expected[field],
            "{}: {field}",
            case.name
        );
    }
    // A reader of the profile classifies the line alike.
    if !case.line.contains(&b'\n') {
        let mut reader = Reader::with_profile(0, profile);
        let stream = [&case.line[..], b"\n"].concat();
        let lines: Vec<_> = reader.feed(&stream).unwrap().collect();
        match lines.as_slice() {
            [jsonrpc_envelope::Line::Complete { classification, .. }] => {
                assert_eq!(*classification, profile.classify(&case.line), "{}: the reader", case.name)
            }
            other => panic!("{}: the reader gave {other:?}", case.name),
        }
    }
}

#[test]
fn envelope_vectors_through_the_rust_api() {
    let cases = envelope_cases();
    assert!(cases.len() >= 103);
    for case in &cases {
        check_through_rust(case, Profile::JsonRpc);
        // The default entry points are the JSON-RPC profile's.
        assert_eq!(classify(&case.line), Profile::JsonRpc.classify(&case.line));
        assert_eq!(invalid_reply(&case.line, Role::Server), Profile::JsonRpc.invalid_reply(&case.line, Role::Server));
    }
}

#[test]
fn mcp_vectors_through_the_rust_api() {
    let cases = mcp_cases();
    // The contract's named cases and every line of envelope.jsonl.
    assert!(cases.len() >= 135, "{}", cases.len());
    assert!(cases.iter().any(|c| c.expected["kind"] == "invalid_response"));
    for case in &cases {
        check_through_rust(case, Profile::Mcp);
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
        JSONRPC_KIND_INVALID_RESPONSE => "invalid_response",
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

/// A C classification in the vectors' form (with `substitute` for the MCP
/// profile's vectors).
pub fn c_record(c: &JsonRpcClassification, profile: JsonRpcProfile) -> Value {
    let mut record = c_record_jsonrpc(c);
    if profile == JsonRpcProfile::JSONRPC_PROFILE_MCP {
        record["substitute"] = text(c_str(c.substitute).as_deref());
    } else {
        assert!(c.substitute.ptr.is_null(), "no substitute in the JSON-RPC profile");
    }
    record
}

fn c_record_jsonrpc(c: &JsonRpcClassification) -> Value {
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

fn c_reply(line: &[u8], role: JsonRpcRole, profile: JsonRpcProfile) -> Option<String> {
    let mut reply = unsafe { jsonrpc_invalid_reply(line.as_ptr(), line.len(), role as u32, profile as u32) };
    assert_eq!(reply.status, JsonRpcStatus::JSONRPC_STATUS_OK);
    let text = c_str(JsonRpcStr { ptr: reply.text.ptr, len: reply.text.len });
    unsafe { jsonrpc_string_free(&mut reply.text) };
    text
}

fn check_through_c(case: &EnvelopeCase, profile: JsonRpcProfile) {
    let mut c = unsafe { jsonrpc_classify(case.line.as_ptr(), case.line.len(), profile as u32) };
    let record = c_record(&c, profile);
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
                profile as u32,
                out.as_mut_ptr(),
                scratch.as_mut_ptr(),
                scratch_len,
            )
        };
        assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
        let mut out = unsafe { out.assume_init() };
        assert_eq!(c_record(&out, profile), record, "{} into {scratch_len} bytes", case.name);
        if scratch_len == 4096 {
            assert!(out.storage.is_null(), "{}: fits the scratch buffer", case.name);
        }
        unsafe { jsonrpc_classification_free(&mut out) };
    }
    // The reply-only call, against the vectors' replies.
    let expected = &case.expected;
    for (role, field) in
        [(JsonRpcRole::JSONRPC_ROLE_SERVER, "reply_server"), (JsonRpcRole::JSONRPC_ROLE_CLIENT, "reply_client")]
    {
        assert_eq!(text(c_reply(&case.line, role, profile).as_deref()), expected[field], "{}: {field}", case.name);
    }
}

#[test]
fn envelope_vectors_through_the_c_abi() {
    for case in &envelope_cases() {
        check_through_c(case, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC);
    }
}

#[test]
fn mcp_vectors_through_the_c_abi() {
    for case in &mcp_cases() {
        check_through_c(case, JsonRpcProfile::JSONRPC_PROFILE_MCP);
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
