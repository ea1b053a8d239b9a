//! The C entry points with arbitrary lengths, NULL pointers and roles:
//! never a crash, and every result frees cleanly (ASan checks the frees).
#![no_main]

use jsonrpc_envelope::ffi::*;
use libfuzzer_sys::arbitrary::{self, Arbitrary};

#[derive(Debug, Arbitrary)]
struct Call {
    line: Vec<u8>,
    null: bool,
    len_bias: u16,
    role: u32,
    end_of_stream: bool,
    max_line: u8,
}

libfuzzer_sys::fuzz_target!(|call: Call| {
    // A NULL pointer may come with any length; a real one with its own.
    let (ptr, len) =
        if call.null { (std::ptr::null(), usize::from(call.len_bias)) } else { (call.line.as_ptr(), call.line.len()) };
    unsafe {
        let mut c = jsonrpc_classify(ptr, len);
        assert_ne!(c.kind, JsonRpcKind::JSONRPC_KIND_NONE);
        if call.null && len > 0 {
            assert_eq!(c.kind, JsonRpcKind::JSONRPC_KIND_PARSE_ERROR);
        }
        jsonrpc_classification_free(&mut c);
        jsonrpc_classification_free(&mut c);

        let mut reply = jsonrpc_invalid_reply(ptr, len, call.role);
        let known = matches!(call.role, 1 | 2);
        assert_eq!(reply.status == JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_ROLE, !known);
        jsonrpc_string_free(&mut reply.text);

        let mut text = jsonrpc_log_value(ptr, len);
        assert_eq!(text.ptr.is_null(), call.null && len > 0);
        jsonrpc_string_free(&mut text);

        let mut state = JsonRpcLineState { max_line: usize::from(call.max_line), too_long_bytes: 0 };
        let mut lines = jsonrpc_classify_lines(ptr, len, call.end_of_stream, &mut state);
        assert!(lines.consumed <= len);
        jsonrpc_lines_free(&mut lines);
        jsonrpc_lines_free(&mut lines);
    }
});
