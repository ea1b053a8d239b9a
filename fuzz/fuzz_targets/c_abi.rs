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
    profile: u32,
    cuts: Vec<u8>,
    max_line: u8,
}

libfuzzer_sys::fuzz_target!(|call: Call| {
    // A NULL pointer may come with any length; a real one with its own.
    let (ptr, len) =
        if call.null { (std::ptr::null(), usize::from(call.len_bias)) } else { (call.line.as_ptr(), call.line.len()) };
    // Mostly the two profiles, sometimes a value that is none.
    let profile = match call.profile % 8 {
        7 => call.profile,
        p => 1 + p % 2,
    };
    let known_profile = matches!(profile, 1 | 2);
    unsafe {
        let mut c = jsonrpc_classify(ptr, len, profile);
        assert_eq!(c.kind == JsonRpcKind::JSONRPC_KIND_NONE, !known_profile);
        if call.null && len > 0 && known_profile {
            assert_eq!(c.kind, JsonRpcKind::JSONRPC_KIND_PARSE_ERROR);
        }
        jsonrpc_classification_free(&mut c);
        jsonrpc_classification_free(&mut c);

        let mut reply = jsonrpc_invalid_reply(ptr, len, call.role, profile);
        let known = matches!(call.role, 1 | 2);
        assert_eq!(reply.status == JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_ROLE, !known);
        assert_eq!(reply.status == JsonRpcStatus::JSONRPC_STATUS_UNKNOWN_PROFILE, known && !known_profile);
        jsonrpc_string_free(&mut reply.text);

        let mut text = jsonrpc_log_value(ptr, len);
        assert_eq!(text.ptr.is_null(), call.null && len > 0);
        jsonrpc_string_free(&mut text);

        if !known_profile {
            assert!(jsonrpc_reader_new(0, profile).is_null());
            return;
        }
        // The reader, fed the line cut in pieces: every item within its
        // batch (ASan checks the reads).
        let reader = jsonrpc_reader_new(usize::from(call.max_line), profile);
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

        // A session in the call's role, told of the line as sent and then
        // fed it: every action's text is readable, and a refused line gets
        // a decision.
        let role = 1 + call.role % 2;
        let session = jsonrpc_session_new(role, profile, usize::from(call.max_line));
        assert!(!session.is_null());
        let sent = jsonrpc_session_sent(session, ptr, len);
        assert_eq!(sent == JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT, call.null && len > 0);
        let status = jsonrpc_session_feed(session, ptr, len, batch.as_mut_ptr());
        assert_eq!(status == JsonRpcStatus::JSONRPC_STATUS_NULL_ARGUMENT, call.null && len > 0);
        let acted = |batch: &JsonRpcBatch| {
            for i in 0..batch.count {
                let item = &*batch.items.add(i);
                assert_ne!(item.action, JsonRpcAction::JSONRPC_ACTION_NONE);
                let has_text = matches!(
                    item.action,
                    JsonRpcAction::JSONRPC_ACTION_ANSWER
                        | JsonRpcAction::JSONRPC_ACTION_SUBSTITUTE
                        | JsonRpcAction::JSONRPC_ACTION_ATTRIBUTE
                );
                assert_eq!(!item.action_text.ptr.is_null(), has_text);
                if has_text {
                    let _ =
                        std::slice::from_raw_parts(item.action_text.ptr.cast::<u8>(), item.action_text.len).to_vec();
                }
            }
        };
        acted(batch.assume_init_ref());
        assert_eq!(jsonrpc_session_end(session, batch.as_mut_ptr()), JsonRpcStatus::JSONRPC_STATUS_OK);
        acted(batch.assume_init_ref());
        let mut decision = std::mem::MaybeUninit::<JsonRpcDecision>::uninit();
        let status = jsonrpc_session_refused(session, ptr, len, decision.as_mut_ptr());
        if status == JsonRpcStatus::JSONRPC_STATUS_OK {
            jsonrpc_string_free(&mut decision.assume_init_mut().text);
        }
        jsonrpc_session_free(session);
    }
});
