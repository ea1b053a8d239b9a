//! Stress and limits (issue #7): threads, a gigabyte line, a hundred million
//! brackets, and every truncation of every vector.

mod common;

use jsonrpc_envelope::ffi::*;
use jsonrpc_envelope::{Kind, Line, Reader, classify};

/// A C classification reduced to comparable values.
fn c_summary(line: &[u8]) -> (JsonRpcKind, Vec<Option<Vec<u8>>>) {
    let mut c = unsafe { jsonrpc_classify(line.as_ptr(), line.len(), JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32) };
    let text = |s: JsonRpcStr| {
        (!s.ptr.is_null()).then(|| unsafe { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len) }.to_vec())
    };
    let strings = [c.id, c.method, c.reason, c.reply_server, c.reply_client].map(text).to_vec();
    let kind = c.kind;
    unsafe { jsonrpc_classification_free(&mut c) };
    (kind, strings)
}

#[test]
fn eight_threads_through_the_c_abi_agree_with_one() {
    let lines: Vec<Vec<u8>> = common::envelope_cases().into_iter().map(|c| c.line).collect();
    let single: Vec<_> = lines.iter().map(|l| c_summary(l)).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..8)
            .map(|t| {
                let lines = &lines;
                scope.spawn(move || {
                    let mut all = Vec::new();
                    for round in 0..200 {
                        // Each thread walks the lines from its own start.
                        let shift = (t * 13 + round) % lines.len();
                        all.push((shift, lines.iter().cycle().skip(shift).take(lines.len()).map(|l| c_summary(l))));
                    }
                    all.into_iter().map(|(shift, results)| (shift, results.collect::<Vec<_>>())).collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            for (shift, results) in worker.join().unwrap() {
                let expected: Vec<_> = single.iter().cycle().skip(shift).take(single.len()).cloned().collect();
                assert_eq!(results, expected);
            }
        }
    });
}

#[test]
fn a_gigabyte_line_passes_through_the_reader_in_bounded_memory() {
    const LINE: usize = 1 << 30;
    const LIMIT: usize = 16 << 20;
    const CHUNK: usize = 1 << 20;
    let chunk = vec![b'x'; CHUNK];
    let mut reader = Reader::new(LIMIT);
    let mut events = Vec::new();
    let mut sent = 0;
    while sent <= LINE {
        let piece: &[u8] = if sent == LINE { b"\n{}\n" } else { &chunk };
        sent += if sent == LINE { 1 } else { piece.len() };
        events.extend(reader.feed(piece).unwrap().map(|line| match line {
            Line::Complete { classification, .. } => Err(classification.kind),
            Line::TooLong { len, .. } => Ok(len),
        }));
        assert!(reader.held() <= LIMIT, "held {} bytes", reader.held());
    }
    assert_eq!(events, vec![Ok(LINE), Err(Kind::NotJsonRpc)]);
}

#[test]
fn a_hundred_million_opening_brackets_are_a_parse_error_not_a_crash() {
    let line = vec![b'['; 100_000_000];
    let c = classify(&line);
    assert_eq!(c.kind, Kind::ParseError);
    assert_eq!(c.reason.unwrap().to_string(), "unexpected end of the line at byte 100000000");
}

#[test]
fn no_truncation_of_a_vector_crashes_or_changes_a_valid_verdict_into_another() {
    for case in common::envelope_cases() {
        let full = classify(&case.line);
        for end in 0..case.line.len() {
            let prefix = &case.line[..end];
            let kind = classify(prefix).kind;
            assert_ne!(c_summary(prefix).0, JsonRpcKind::JSONRPC_KIND_NONE, "through the C ABI too");
            if full.kind == Kind::ParseError || kind == Kind::ParseError {
                continue;
            }
            // A valid line cut short stays valid only by losing trailing
            // whitespace or digits of a bare number: the same kind.
            let blank = prefix.iter().all(|b| b" \t\r\n".contains(b));
            assert!(kind == full.kind || (blank && kind == Kind::Empty), "{}: {kind:?} at {end}", case.name);
        }
    }
}
