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
    cuts: Vec<u8>,
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

        // The reader, fed the line cut in pieces: every item within its
        // batch (ASan checks the reads).
        let reader = jsonrpc_reader_new(usize::from(call.max_line));
        assert!(!reader.is_null());
        let mut batch = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
        let check = |status: JsonRpcStatus, batch: &JsonRpcBatch| {
            assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
            for i in 0..batch.count {
                let item = &*batch.items.add(i);
                if item.classification.kind != JsonRpcKind::JSONRPC_KIND_TOO_LONG {
                    assert!(item.offset + item.len <= batch.bytes_len);
                    let _ = std::slice::from_raw_parts(batch.bytes.add(item.offset), item.len).to_vec();
                }
            }
            let _ = std::slice::from_raw_parts(batch.texts.cast::<u8>(), batch.texts_len).to_vec();
        };
        if call.null {
            let status = jsonrpc_reader_feed(reader, ptr, len, batch.as_mut_ptr());
            assert_eq!(status == JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT, len > 0);
        } else {
            let mut at = 0;
            let mut cuts = call.cuts.iter().map(|&c| usize::from(c) + 1).cycle();
            while at < call.line.len() {
                let end = (at + cuts.next().unwrap_or(call.line.len())).min(call.line.len());
                let status = jsonrpc_reader_feed(reader, call.line.as_ptr().add(at), end - at, batch.as_mut_ptr());
                check(status, batch.assume_init_ref());
                at = end;
            }
        }
        let status = jsonrpc_reader_end(reader, batch.as_mut_ptr());
        check(status, batch.assume_init_ref());
        jsonrpc_reader_free(reader);
    }
});
