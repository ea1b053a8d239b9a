//! The many-lines call gives the same lines however the stream is cut.
#![no_main]

use jsonrpc_envelope::{LineEvent, LineState, classify, lines};
use libfuzzer_sys::arbitrary::{self, Arbitrary};

#[derive(Debug, Arbitrary)]
struct Input {
    stream: Vec<u8>,
    cuts: Vec<u8>,
    max_line: u8,
}

/// What a host keeps of each line: its kind and length, or too_long.
fn feed(stream: &[u8], cuts: &[usize], max_line: usize) -> Vec<(Option<jsonrpc_envelope::Kind>, usize)> {
    let mut state = LineState::new(max_line);
    let mut held = Vec::new();
    let mut seen = Vec::new();
    let mut at = 0;
    let mut sizes = cuts.iter().copied().cycle();
    loop {
        let size = if cuts.is_empty() { stream.len() } else { sizes.next().unwrap() };
        let end = (at + size).min(stream.len());
        held.extend_from_slice(&stream[at..end]);
        at = end;
        let last = at == stream.len();
        let mut found = lines(&held, last, &mut state);
        for event in found.by_ref() {
            seen.push(match event {
                LineEvent::Line { line, .. } => (Some(classify(line).kind), line.len()),
                LineEvent::TooLong { len, .. } => (None, len),
            });
        }
        let consumed = found.consumed();
        held.drain(..consumed);
        assert!(held.len() <= max_line, "held {} bytes of one line", held.len());
        if last {
            assert!(held.is_empty());
            return seen;
        }
    }
}

libfuzzer_sys::fuzz_target!(|input: Input| {
    let max_line = usize::from(input.max_line) + 1;
    let cuts: Vec<usize> = input.cuts.iter().map(|&c| usize::from(c % 32) + 1).collect();
    let whole = feed(&input.stream, &[], max_line);
    assert_eq!(feed(&input.stream, &cuts, max_line), whole);
    let line_feeds = input.stream.iter().filter(|&&b| b == b'\n').count();
    let unterminated = input.stream.last().is_some_and(|&b| b != b'\n');
    assert_eq!(whole.len(), line_feeds + usize::from(unterminated), "one item per line");
});
