//! The stream reader gives the same lines however the stream is cut, one
//! per LF (and one for an unterminated end), and never holds more than the
//! limit of a line not yet ended.
#![no_main]

use jsonrpc_envelope::{Kind, Line, Reader};
use libfuzzer_sys::arbitrary::{self, Arbitrary};

#[derive(Debug, Arbitrary)]
struct Input {
    stream: Vec<u8>,
    cuts: Vec<u8>,
    max_line: u8,
}

/// What a host keeps of each line: its number, kind and length, or
/// too_long.
fn feed(stream: &[u8], cuts: &[usize], max_line: usize) -> Vec<(u64, Option<Kind>, usize)> {
    let mut reader = Reader::new(max_line);
    let mut seen = Vec::new();
    let mut keep = |line: Line<'_>| {
        let kind = match &line {
            Line::Complete { classification, .. } => Some(classification.kind),
            Line::TooLong { .. } => None,
        };
        seen.push((line.number(), kind, line.len()));
    };
    let mut at = 0;
    let mut sizes = cuts.iter().copied().cycle();
    while at < stream.len() {
        let size = if cuts.is_empty() { stream.len() } else { sizes.next().unwrap() };
        let end = (at + size).min(stream.len());
        reader.feed(&stream[at..end]).unwrap().for_each(&mut keep);
        assert!(reader.held() <= max_line, "held {} bytes of one line", reader.held());
        at = end;
    }
    reader.end().unwrap().for_each(&mut keep);
    seen
}

libfuzzer_sys::fuzz_target!(|input: Input| {
    let max_line = usize::from(input.max_line) + 1;
    let cuts: Vec<usize> = input.cuts.iter().map(|&c| usize::from(c % 32) + 1).collect();
    let whole = feed(&input.stream, &[], max_line);
    assert_eq!(feed(&input.stream, &cuts, max_line), whole);
    let line_feeds = input.stream.iter().filter(|&&b| b == b'\n').count();
    let unterminated = input.stream.last().is_some_and(|&b| b != b'\n');
    assert_eq!(whole.len(), line_feeds + usize::from(unterminated), "one item per line");
    assert!(whole.iter().zip(1..).all(|(seen, n)| seen.0 == n), "numbered from 1");
});
