//! The C ABI's contract beyond the vectors: NULL and impossible inputs, bad
//! roles, repeated frees, exported symbols, depth, names, and the stream
//! reader across every chunk boundary.

mod common;

use std::path::PathBuf;
use std::process::Command;

use jsonrpc_envelope::ffi::*;

fn str_of(s: JsonRpcStr) -> Option<&'static [u8]> {
    // SAFETY: the library's strings are valid for `len` bytes while their
    // result lives; each test reads them before freeing it.
    (!s.ptr.is_null()).then(|| unsafe { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len) })
}

fn classify(line: &[u8]) -> JsonRpcClassification {
    unsafe { jsonrpc_classify(line.as_ptr(), line.len(), JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32) }
}

#[test]
fn null_and_empty_inputs() {
    let mut empty = unsafe { jsonrpc_classify(std::ptr::null(), 0, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32) };
    assert_eq!(empty.kind, JsonRpcKind::JSONRPC_KIND_EMPTY);
    unsafe { jsonrpc_classification_free(&mut empty) };

    let mut null = unsafe { jsonrpc_classify(std::ptr::null(), 12, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32) };
    assert_eq!(null.kind, JsonRpcKind::JSONRPC_KIND_PARSE_ERROR);
    assert_eq!(str_of(null.reason), Some(&b"a NULL pointer with a non-zero length (12 bytes)"[..]));
    assert!(str_of(null.reply_server).is_some() && str_of(null.reply_client).is_none());
    unsafe { jsonrpc_classification_free(&mut null) };

    let byte = 0u8;
    let mut huge = unsafe { jsonrpc_classify(&byte, usize::MAX, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32) };
    assert_eq!(huge.kind, JsonRpcKind::JSONRPC_KIND_PARSE_ERROR);
    assert!(str_of(huge.reason).unwrap().starts_with(b"a length of"));
    unsafe { jsonrpc_classification_free(&mut huge) };

    let mut text = unsafe { jsonrpc_log_value(std::ptr::null(), 0) };
    assert!(!text.ptr.is_null() && text.len == 0);
    unsafe { jsonrpc_string_free(&mut text) };
    let text = unsafe { jsonrpc_log_value(std::ptr::null(), 3) };
    assert!(text.ptr.is_null());
}

#[test]
fn unknown_profiles_are_errors_not_undefined_behaviour() {
    let line = br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#;
    for profile in [0, 3, 7, u32::MAX] {
        let mut c = unsafe { jsonrpc_classify(line.as_ptr(), line.len(), profile) };
        assert_eq!(c.kind, JsonRpcKind::JSONRPC_KIND_NONE, "profile {profile}");
        assert_eq!(str_of(c.reason), Some(&b"unknown profile"[..]));
        unsafe { jsonrpc_classification_free(&mut c) };
        let mut out = std::mem::MaybeUninit::<JsonRpcClassification>::uninit();
        let status = unsafe {
            jsonrpc_classify_into(line.as_ptr(), line.len(), profile, out.as_mut_ptr(), std::ptr::null_mut(), 0)
        };
        assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_PROFILE);
        assert_eq!(unsafe { out.assume_init_ref() }.kind, JsonRpcKind::JSONRPC_KIND_NONE);
        let reply = unsafe {
            jsonrpc_invalid_reply(line.as_ptr(), line.len(), JsonRpcRole::JSONRPC_ROLE_SERVER as u32, profile)
        };
        assert_eq!(reply.status, JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_PROFILE);
        assert!(reply.text.ptr.is_null());
        assert!(jsonrpc_reader_new(0, profile).is_null());
        assert!(jsonrpc_session_new(JsonRpcRole::JSONRPC_ROLE_SERVER as u32, profile, 0).is_null());
        assert!(jsonrpc_profile_name(profile).is_null());
    }
    // A bad role is named before a bad profile.
    let reply = unsafe { jsonrpc_invalid_reply(line.as_ptr(), line.len(), 0, 0) };
    assert_eq!(reply.status, JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_ROLE);
    assert!(jsonrpc_session_new(0, JsonRpcProfile::JSONRPC_PROFILE_MCP as u32, 0).is_null());
}

#[test]
fn unknown_roles_are_errors_not_undefined_behaviour() {
    let line = b"[1]";
    for role in [0, 3, 7, u32::MAX] {
        let reply = unsafe {
            jsonrpc_invalid_reply(line.as_ptr(), line.len(), role, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32)
        };
        assert_eq!(reply.status, JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_ROLE, "role {role}");
        assert!(reply.text.ptr.is_null());
    }
    let mut reply = unsafe {
        jsonrpc_invalid_reply(
            std::ptr::null(),
            4,
            JsonRpcRole::JSONRPC_ROLE_SERVER as u32,
            JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32,
        )
    };
    assert_eq!(reply.status, JsonRpcStatus::JSONRPC_STATUS_OK);
    assert_eq!(
        str_of(JsonRpcStr { ptr: reply.text.ptr, len: reply.text.len }),
        Some(&br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#[..])
    );
    unsafe { jsonrpc_string_free(&mut reply.text) };
}

#[test]
fn frees_accept_null_and_repeat_harmlessly() {
    unsafe {
        jsonrpc_classification_free(std::ptr::null_mut());
        jsonrpc_string_free(std::ptr::null_mut());
        jsonrpc_reader_free(std::ptr::null_mut());
        jsonrpc_session_free(std::ptr::null_mut());
    }
    let mut c = classify(br#"{"id":"x","method":"m"}"#);
    assert!(!c.storage.is_null());
    unsafe { jsonrpc_classification_free(&mut c) };
    assert!(c.storage.is_null() && c.id.ptr.is_null() && c.kind == JsonRpcKind::JSONRPC_KIND_NONE);
    unsafe { jsonrpc_classification_free(&mut c) };

    let mut text = unsafe { jsonrpc_log_value(b"x".as_ptr(), 1) };
    unsafe { jsonrpc_string_free(&mut text) };
    assert!(text.ptr.is_null());
    unsafe { jsonrpc_string_free(&mut text) };
}

#[test]
fn classify_into_needs_somewhere_to_write() {
    let line = b"{}";
    let status = unsafe {
        jsonrpc_classify_into(
            line.as_ptr(),
            2,
            JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        )
    };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
}

#[test]
fn classify_into_writes_its_strings_into_the_scratch_buffer() {
    let line = br#"{"jsonrpc":"2.0","id":"a","method":7}"#;
    let mut scratch = [0u8; 1024];
    let mut out = std::mem::MaybeUninit::<JsonRpcClassification>::uninit();
    let status = unsafe {
        jsonrpc_classify_into(
            line.as_ptr(),
            line.len(),
            JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32,
            out.as_mut_ptr(),
            scratch.as_mut_ptr(),
            scratch.len(),
        )
    };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
    let out = unsafe { out.assume_init() };
    assert!(out.storage.is_null());
    assert_eq!(str_of(out.id), Some(&b"\"a\""[..]));
    // The header's layout: from the first byte, in order, each with its NUL;
    // the method (7, not a string) is absent and takes no room.
    let mut at = scratch.as_ptr();
    for s in [out.id, out.reason, out.reply_server, out.reply_client] {
        assert_eq!(s.ptr.cast::<u8>(), at);
        assert_eq!(unsafe { *at.add(s.len) }, 0);
        at = unsafe { at.add(s.len + 1) };
    }
    assert!(out.method.ptr.is_null());
}

#[test]
fn a_classification_without_strings_allocates_nothing() {
    let c = classify(b"{}");
    assert!(c.storage.is_null());
}

#[test]
fn versions() {
    assert_eq!(jsonrpc_abi_version(), JSONRPC_ABI_VERSION);
    let version = unsafe { std::ffi::CStr::from_ptr(jsonrpc_version()) };
    assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

#[test]
fn a_request_nested_a_million_levels_deep_classifies_on_a_small_stack() {
    let depth = 1_000_000;
    let mut line = br#"{"jsonrpc":"2.0","id":1,"method":"deep","params":"#.to_vec();
    line.extend(std::iter::repeat_n(b'[', depth));
    line.extend(std::iter::repeat_n(b']', depth));
    line.push(b'}');
    let kind = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let mut c = classify(&line);
            let kind = c.kind;
            assert_eq!(c.params_span.len, 2 * depth);
            unsafe { jsonrpc_classification_free(&mut c) };
            kind
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(kind, JsonRpcKind::JSONRPC_KIND_REQUEST);
}

/// What a host sees of one line from a reader.
#[derive(Debug, PartialEq)]
enum Seen {
    Line { number: u64, bytes: Vec<u8>, kind: JsonRpcKind, id: Option<Vec<u8>>, reply: Option<Vec<u8>> },
    TooLong { number: u64, len: usize },
}

/// A batch's lines, checked against the batch's layout promises: each
/// line's bytes in `bytes`, each string in `texts`, back to back, in order.
fn seen(batch: &JsonRpcBatch) -> Vec<Seen> {
    let items =
        if batch.count == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(batch.items, batch.count) } };
    let bytes = if batch.bytes_len == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(batch.bytes, batch.bytes_len) }
    };
    let mut text_at = batch.texts.cast::<u8>();
    let mut seen = Vec::new();
    for item in items {
        let c = &item.classification;
        assert!(c.storage.is_null(), "a batch's items own nothing");
        if c.kind == JsonRpcKind::JSONRPC_KIND_TOO_LONG {
            assert!(c.id.ptr.is_null() && c.reason.ptr.is_null() && item.offset == 0);
            seen.push(Seen::TooLong { number: item.number, len: item.len });
            continue;
        }
        for s in [c.id, c.method, c.reason, c.reply_server, c.reply_client] {
            if !s.ptr.is_null() {
                assert_eq!(s.ptr.cast::<u8>(), text_at, "strings stand back to back in texts");
                text_at = unsafe { text_at.add(s.len + 1) };
            }
        }
        let line = bytes[item.offset..item.offset + item.len].to_vec();
        assert_eq!(c.kind, classify(&line).kind);
        seen.push(Seen::Line {
            number: item.number,
            bytes: line,
            kind: c.kind,
            id: str_of(c.id).map(<[u8]>::to_vec),
            reply: str_of(c.reply_server).map(<[u8]>::to_vec),
        });
    }
    assert_eq!(text_at, unsafe { batch.texts.cast::<u8>().add(batch.texts_len) }, "texts holds the strings only");
    if !seen.iter().any(|s| matches!(s, Seen::TooLong { .. })) {
        // Then `bytes` is exactly the lines, each with its LF but the last of
        // a stream that had none.
        let mut joined: Vec<u8> = Vec::new();
        for s in &seen {
            let Seen::Line { bytes, .. } = s else { unreachable!() };
            joined.extend_from_slice(bytes);
            joined.push(b'\n');
        }
        if bytes.last() != Some(&b'\n') {
            joined.pop();
        }
        assert_eq!(bytes, joined.as_slice());
    }
    seen
}

/// Feeds `stream` to a reader `chunk` bytes at a time, as a host does.
fn feed(stream: &[u8], chunk: usize, max_line: usize) -> Vec<Seen> {
    let reader = jsonrpc_reader_new(max_line, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32);
    assert!(!reader.is_null());
    let mut out = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
    let mut all = Vec::new();
    for piece in stream.chunks(chunk) {
        let status = unsafe { jsonrpc_reader_feed(reader, piece.as_ptr(), piece.len(), out.as_mut_ptr()) };
        assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
        all.extend(seen(unsafe { out.assume_init_ref() }));
    }
    assert_eq!(unsafe { jsonrpc_reader_end(reader, out.as_mut_ptr()) }, JsonRpcStatus::JSONRPC_STATUS_OK);
    all.extend(seen(unsafe { out.assume_init_ref() }));
    unsafe { jsonrpc_reader_free(reader) };
    all
}

fn vector_stream(separator: &[u8]) -> (Vec<u8>, usize) {
    let lines: Vec<Vec<u8>> =
        common::envelope_cases().into_iter().map(|c| c.line).filter(|l| !l.contains(&b'\n')).collect();
    (lines.join(separator), lines.len())
}

#[test]
fn the_reader_gives_the_same_lines_at_every_chunk_size() {
    for separator in [&b"\n"[..], b"\r\n"] {
        let (stream, count) = vector_stream(separator);
        let whole = feed(&stream, stream.len(), 0);
        assert_eq!(whole.len(), count);
        for ((seen, line), number) in whole.iter().zip(stream.split(|&b| b == b'\n')).zip(1..) {
            let Seen::Line { bytes, number: n, .. } = seen else { panic!("no line is too long") };
            assert_eq!((bytes.as_slice(), *n), (line, number));
        }
        for chunk in 1..=70 {
            assert_eq!(feed(&stream, chunk, 0), whole, "chunk size {chunk}");
        }
    }
}

#[test]
fn a_too_long_line_is_reported_once_with_its_number() {
    let mut stream = br#"{"jsonrpc":"2.0","id":1,"method":"a"}"#.to_vec();
    stream.push(b'\n');
    stream.extend(std::iter::repeat_n(b'x', 1000));
    stream.extend_from_slice(b"\n[]\n");
    stream.extend(std::iter::repeat_n(b' ', 300));
    for chunk in [1, 7, 64, 100, 5000] {
        let seen = feed(&stream, chunk, 100);
        assert_eq!(seen.len(), 4, "chunk {chunk}: {seen:?}");
        assert!(matches!(seen[0], Seen::Line { number: 1, kind: JsonRpcKind::JSONRPC_KIND_REQUEST, .. }));
        assert_eq!(seen[1], Seen::TooLong { number: 2, len: 1000 });
        assert!(matches!(seen[2], Seen::Line { number: 3, kind: JsonRpcKind::JSONRPC_KIND_BATCH, .. }));
        assert_eq!(seen[3], Seen::TooLong { number: 4, len: 300 }, "the unterminated last line is too long too");
    }
}

#[test]
fn bad_reader_arguments_are_errors() {
    let mut out = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
    let status = unsafe { jsonrpc_reader_feed(std::ptr::null_mut(), b"x\n".as_ptr(), 2, out.as_mut_ptr()) };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
    let batch = unsafe { out.assume_init_ref() };
    assert!(batch.items.is_null() && batch.count == 0, "an empty batch on failure");
    let reader = jsonrpc_reader_new(0, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32);
    let status = unsafe { jsonrpc_reader_feed(reader, std::ptr::null(), 2, out.as_mut_ptr()) };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
    let status = unsafe { jsonrpc_reader_feed(reader, b"x\n".as_ptr(), 2, std::ptr::null_mut()) };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
    let status = unsafe { jsonrpc_reader_end(reader, std::ptr::null_mut()) };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
    // (NULL, 0) is no bytes, and the reader still works.
    let status = unsafe { jsonrpc_reader_feed(reader, std::ptr::null(), 0, out.as_mut_ptr()) };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
    assert_eq!(unsafe { out.assume_init_ref() }.count, 0);
    let status = unsafe { jsonrpc_reader_feed(reader, b"x\n".as_ptr(), 2, out.as_mut_ptr()) };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
    assert_eq!(unsafe { out.assume_init_ref() }.count, 1);
    unsafe { jsonrpc_reader_free(reader) };
}

#[test]
fn names_and_the_default_limit_come_from_the_library() {
    let name = |ptr: *const std::ffi::c_char| unsafe { std::ffi::CStr::from_ptr(ptr) }.to_str().unwrap();
    assert_eq!(name(jsonrpc_kind_name(JsonRpcKind::JSONRPC_KIND_INVALID_REQUEST as u32)), "invalid_request");
    assert_eq!(name(jsonrpc_kind_name(JsonRpcKind::JSONRPC_KIND_TOO_LONG as u32)), "too_long");
    assert!(jsonrpc_kind_name(JsonRpcKind::JSONRPC_KIND_NONE as u32).is_null());
    assert_eq!(name(jsonrpc_id_kind_name(JsonRpcIdKind::JSONRPC_ID_BOOLEAN as u32)), "boolean");
    assert_eq!(name(jsonrpc_role_name(JsonRpcRole::JSONRPC_ROLE_CLIENT as u32)), "client");
    assert_eq!(name(jsonrpc_status_name(JsonRpcStatus::JSONRPC_STATUS_OUT_OF_MEMORY as u32)), "out_of_memory");
    assert_eq!(jsonrpc_default_max_line(), 16 * 1024 * 1024);
    assert_eq!(name(jsonrpc_kind_name(JsonRpcKind::JSONRPC_KIND_INVALID_RESPONSE as u32)), "invalid_response");
    assert_eq!(name(jsonrpc_profile_name(JsonRpcProfile::JSONRPC_PROFILE_MCP as u32)), "mcp");
    assert_eq!(name(jsonrpc_profile_name(JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32)), "jsonrpc");
    assert_eq!(name(jsonrpc_status_name(JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_PROFILE as u32)), "unknown_profile");
    let actions: Vec<&str> = (1..=6).map(|a| name(jsonrpc_action_name(a))).collect();
    assert_eq!(actions, ["forwarded", "answered", "substituted", "attributed", "dropped", "diverted"]);
    assert!(jsonrpc_action_name(0).is_null() && jsonrpc_action_name(7).is_null());
    let messages: Vec<u32> = (0..16).filter(|&k| jsonrpc_kind_is_message(k)).collect();
    use JsonRpcKind::*;
    assert_eq!(messages, [JSONRPC_KIND_REQUEST as u32, JSONRPC_KIND_NOTIFICATION as u32, JSONRPC_KIND_RESPONSE as u32]);
}

#[test]
fn each_profile_has_its_default_line_limit() {
    assert_eq!(jsonrpc_profile_max_line(JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32), jsonrpc_default_max_line());
    let mcp = jsonrpc_profile_max_line(JsonRpcProfile::JSONRPC_PROFILE_MCP as u32);
    assert_eq!(mcp, jsonrpc_envelope::MCP_MAX_LINE);
    assert!(mcp < jsonrpc_default_max_line());
    assert_eq!(jsonrpc_profile_max_line(0), 0);
    assert_eq!(jsonrpc_profile_max_line(3), 0);
    // A reader made with 0 has its profile's limit: a line of the limit is
    // read, one byte more is too long.
    for (profile, limit) in [
        (JsonRpcProfile::JSONRPC_PROFILE_MCP, mcp),
        (JsonRpcProfile::JSONRPC_PROFILE_JSONRPC, jsonrpc_default_max_line()),
    ] {
        let reader = jsonrpc_reader_new(0, profile as u32);
        for (len, kind) in
            [(limit, JsonRpcKind::JSONRPC_KIND_PARSE_ERROR), (limit + 1, JsonRpcKind::JSONRPC_KIND_TOO_LONG)]
        {
            let line = [vec![b'x'; len], b"\n".to_vec()].concat();
            let mut out = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
            let status = unsafe { jsonrpc_reader_feed(reader, line.as_ptr(), line.len(), out.as_mut_ptr()) };
            assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
            let batch = unsafe { out.assume_init() };
            assert_eq!(batch.count, 1);
            let item = unsafe { &*batch.items };
            assert_eq!((item.len, item.classification.kind), (len, kind), "{profile:?}");
        }
        unsafe { jsonrpc_reader_free(reader) };
    }
}

fn built_library() -> PathBuf {
    // `cargo test` builds the cdylib beside the test binaries, in deps/.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().join("libjsonrpc_envelope.so")
}

#[test]
fn the_shared_library_exports_only_prefixed_symbols() {
    let library = built_library();
    let out = Command::new("nm").args(["-D", "--defined-only"]).arg(&library).output().expect("nm runs");
    assert!(out.status.success(), "nm {}: {}", library.display(), String::from_utf8_lossy(&out.stderr));
    let symbols: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_owned))
        .collect();
    let expected = [
        "jsonrpc_abi_version",
        "jsonrpc_action_goes",
        "jsonrpc_action_name",
        "jsonrpc_classification_free",
        "jsonrpc_classify",
        "jsonrpc_classify_into",
        "jsonrpc_default_max_line",
        "jsonrpc_direction_name",
        "jsonrpc_direction_read_by",
        "jsonrpc_id_kind_name",
        "jsonrpc_invalid_reply",
        "jsonrpc_kind_is_message",
        "jsonrpc_kind_name",
        "jsonrpc_log_value",
        "jsonrpc_profile_max_line",
        "jsonrpc_profile_name",
        "jsonrpc_reader_end",
        "jsonrpc_reader_feed",
        "jsonrpc_reader_free",
        "jsonrpc_reader_new",
        "jsonrpc_relay_end",
        "jsonrpc_relay_feed",
        "jsonrpc_relay_free",
        "jsonrpc_relay_new",
        "jsonrpc_relay_outstanding",
        "jsonrpc_relay_refused",
        "jsonrpc_relay_wrote",
        "jsonrpc_role_name",
        "jsonrpc_session_end",
        "jsonrpc_session_feed",
        "jsonrpc_session_free",
        "jsonrpc_session_new",
        "jsonrpc_session_outstanding",
        "jsonrpc_session_refused",
        "jsonrpc_session_sent",
        "jsonrpc_status_name",
        "jsonrpc_string_free",
        "jsonrpc_version",
    ];
    let mut sorted = symbols.clone();
    sorted.sort();
    assert_eq!(sorted, expected, "exported: {symbols:?}");
}

#[test]
fn the_soname_carries_the_abi_version() {
    let out = Command::new("readelf").arg("-d").arg(built_library()).output().expect("readelf runs");
    let dynamic = String::from_utf8_lossy(&out.stdout);
    let soname = format!("[libjsonrpc_envelope.so.{JSONRPC_ABI_VERSION}]");
    assert!(dynamic.lines().any(|l| l.contains("(SONAME)") && l.contains(&soname)), "{dynamic}");
}

/// A line's decision as a `JsonRpcSession` gives it: the action's name, and
/// its text.
fn decisions(session: *mut JsonRpcSession, stream: &[u8], chunk: usize) -> Vec<(String, Option<Vec<u8>>)> {
    let name = |a: JsonRpcAction| {
        unsafe { std::ffi::CStr::from_ptr(jsonrpc_action_name(a as u32)) }.to_str().unwrap().to_owned()
    };
    let mut out = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
    let mut all = Vec::new();
    let mut take = |batch: &JsonRpcBatch| {
        for i in 0..batch.count {
            let item = unsafe { &*batch.items.add(i) };
            assert_eq!(
                item.note.is_null(),
                item.action == JsonRpcAction::JSONRPC_ACTION_FORWARD,
                "a note but for forward"
            );
            all.push((name(item.action), str_of(item.action_text).map(<[u8]>::to_vec)));
        }
    };
    for piece in stream.chunks(chunk) {
        let status = unsafe { jsonrpc_session_feed(session, piece.as_ptr(), piece.len(), out.as_mut_ptr()) };
        assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
        take(unsafe { out.assume_init_ref() });
    }
    assert_eq!(unsafe { jsonrpc_session_end(session, out.as_mut_ptr()) }, JsonRpcStatus::JSONRPC_STATUS_OK);
    take(unsafe { out.assume_init_ref() });
    all
}

#[test]
fn a_session_decides_every_line_as_the_rust_session_does_at_every_chunk_size() {
    use jsonrpc_envelope::{Profile, Reader, Role, Session};
    let lines: Vec<Vec<u8>> = common::mcp_cases().into_iter().map(|c| c.line).filter(|l| !l.contains(&b'\n')).collect();
    let sent =
        [&br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#[..], br#"{"jsonrpc":"2.0","id":"s","method":"x"}"#];
    let stream = lines.join(&b"\n"[..]);
    for (role, c_role) in
        [(Role::Server, JsonRpcRole::JSONRPC_ROLE_SERVER), (Role::Client, JsonRpcRole::JSONRPC_ROLE_CLIENT)]
    {
        // The Rust API's decisions: what the C face must give too.
        let mut rust = Session::new(role, Profile::Mcp);
        sent.iter().for_each(|line| rust.sent(line));
        let mut reader = Reader::with_profile(0, Profile::Mcp);
        let mut want: Vec<_> = reader.feed(&stream).unwrap().map(|l| rust.decide(&l)).collect();
        want.extend(reader.end().unwrap().map(|l| rust.decide(&l)));
        let want: Vec<_> =
            want.into_iter().map(|d| (d.action.name().to_owned(), d.text.map(String::into_bytes))).collect();
        for action in ["forwarded", "attributed", "dropped"] {
            assert!(want.iter().any(|(a, _)| a == action), "the stream has a line {action}");
        }
        for chunk in [1, 2, 3, 7, 64, 70, stream.len()] {
            let session = jsonrpc_session_new(c_role as u32, JsonRpcProfile::JSONRPC_PROFILE_MCP as u32, 0);
            assert!(!session.is_null());
            for line in sent {
                assert_eq!(
                    unsafe { jsonrpc_session_sent(session, line.as_ptr(), line.len()) },
                    JsonRpcStatus::JSONRPC_STATUS_OK
                );
            }
            assert_eq!(unsafe { jsonrpc_session_outstanding(session) }, 2);
            assert_eq!(decisions(session, &stream, chunk), want, "{role:?}, chunk {chunk}");
            unsafe { jsonrpc_session_free(session) };
        }
    }
}

#[test]
fn session_calls_refuse_nulls_and_refused_lines_get_the_libraries_answer() {
    let mut out = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
    let null = std::ptr::null_mut();
    assert_eq!(
        unsafe { jsonrpc_session_feed(null, b"x".as_ptr(), 1, out.as_mut_ptr()) },
        JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT
    );
    assert_eq!(unsafe { out.assume_init_ref() }.count, 0);
    assert_eq!(unsafe { jsonrpc_session_end(null, out.as_mut_ptr()) }, JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
    assert_eq!(unsafe { jsonrpc_session_sent(null, b"x".as_ptr(), 1) }, JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT);
    assert_eq!(unsafe { jsonrpc_session_outstanding(null) }, 0);
    let session =
        jsonrpc_session_new(JsonRpcRole::JSONRPC_ROLE_SERVER as u32, JsonRpcProfile::JSONRPC_PROFILE_MCP as u32, 0);
    assert_eq!(
        unsafe { jsonrpc_session_feed(session, std::ptr::null(), 3, out.as_mut_ptr()) },
        JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT
    );
    assert_eq!(
        unsafe { jsonrpc_session_feed(session, b"x".as_ptr(), 1, std::ptr::null_mut()) },
        JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT
    );
    assert_eq!(
        unsafe { jsonrpc_session_sent(session, std::ptr::null(), 3) },
        JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT
    );
    assert_eq!(
        unsafe { jsonrpc_session_feed(session, std::ptr::null(), 0, out.as_mut_ptr()) },
        JsonRpcStatus::JSONRPC_STATUS_OK
    );
    let mut decision = std::mem::MaybeUninit::<JsonRpcDecision>::uninit();
    assert_eq!(
        unsafe { jsonrpc_session_refused(session, b"x".as_ptr(), 1, std::ptr::null_mut()) },
        JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT
    );
    assert_eq!(
        unsafe { jsonrpc_session_refused(null, b"x".as_ptr(), 1, decision.as_mut_ptr()) },
        JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT
    );
    assert_eq!(unsafe { decision.assume_init_ref() }.action, JsonRpcAction::JSONRPC_ACTION_NONE);
    let line = br#"{"jsonrpc":"2.0","id":"q","method":"tools/call","params":{}}"#;
    let status = unsafe { jsonrpc_session_refused(session, line.as_ptr(), line.len(), decision.as_mut_ptr()) };
    assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
    let mut decision = unsafe { decision.assume_init() };
    assert_eq!(decision.action, JsonRpcAction::JSONRPC_ACTION_ANSWER);
    assert_eq!(
        str_of(JsonRpcStr { ptr: decision.text.ptr, len: decision.text.len }),
        Some(&br#"{"jsonrpc":"2.0","id":"q","error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}"#[..])
    );
    assert!(!decision.note.is_null());
    unsafe { jsonrpc_string_free(&mut decision.text) };
    unsafe { jsonrpc_session_free(session) };
}
