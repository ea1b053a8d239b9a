use super::*;

/// Each line as (number, bytes or None, length).
fn lines(batch: Batch<'_>) -> Vec<(u64, Option<Vec<u8>>, usize)> {
    batch
        .map(|line| {
            let bytes = match &line {
                Line::Complete { bytes, .. } => Some(bytes.to_vec()),
                Line::TooLong { .. } => None,
            };
            (line.number(), bytes, line.len())
        })
        .collect()
}

fn line(number: u64, text: &str) -> (u64, Option<Vec<u8>>, usize) {
    (number, Some(text.as_bytes().to_vec()), text.len())
}

#[test]
fn splits_at_lf_keeps_cr_and_holds_the_unended_line() {
    let mut reader = Reader::default();
    assert_eq!(lines(reader.feed(b"a\r\n\nbc").unwrap()), vec![line(1, "a\r"), line(2, "")]);
    assert_eq!(lines(reader.feed(b"d").unwrap()), vec![]);
    assert_eq!(lines(reader.feed(b"\n").unwrap()), vec![line(3, "bcd")]);
    assert_eq!(lines(reader.end().unwrap()), vec![]);
}

#[test]
fn the_end_gives_a_last_line_without_lf_and_starts_a_new_stream() {
    let mut reader = Reader::default();
    assert_eq!(lines(reader.feed(b"x\ny").unwrap()), vec![line(1, "x")]);
    assert_eq!(lines(reader.end().unwrap()), vec![line(2, "y")]);
    assert_eq!(lines(reader.end().unwrap()), vec![]);
    assert_eq!(lines(reader.feed(b"z\n").unwrap()), vec![line(1, "z")]);
}

#[test]
fn lines_are_classified() {
    let mut reader = Reader::default();
    let got: Vec<&str> = reader.feed(b"{\"id\":1,\"method\":\"m\"}\nnope\n").unwrap().map(|l| l.kind_name()).collect();
    assert_eq!(got, ["request", "parse_error"]);
}

#[test]
fn a_too_long_line_is_dropped_as_it_comes_and_reported_once_at_its_end() {
    let mut reader = Reader::new(4);
    assert_eq!(lines(reader.feed(b"ok\n1234567").unwrap()), vec![line(1, "ok")]);
    assert_eq!(reader.buf.len() - reader.pending, 0, "the long line is not held");
    assert_eq!(lines(reader.feed(b"89").unwrap()), vec![]);
    assert_eq!(lines(reader.feed(b"0\nnext\n").unwrap()), vec![(2, None, 10), line(3, "next")]);
}

#[test]
fn a_too_long_line_within_one_call_is_reported_and_the_next_kept() {
    let mut reader = Reader::new(3);
    assert_eq!(lines(reader.feed(b"abcd\nabc\n").unwrap()), vec![(1, None, 4), line(2, "abc")]);
}

#[test]
fn a_too_long_line_at_the_end_of_the_stream_is_still_reported() {
    let mut reader = Reader::new(2);
    assert_eq!(lines(reader.feed(b"abc").unwrap()), vec![]);
    assert_eq!(lines(reader.end().unwrap()), vec![(1, None, 3)]);
}

#[test]
fn a_line_of_exactly_the_limit_is_kept() {
    let mut reader = Reader::new(3);
    assert_eq!(lines(reader.feed(b"abc").unwrap()), vec![]);
    assert_eq!(lines(reader.feed(b"\nabcd\n").unwrap()), vec![line(1, "abc"), (2, None, 4)]);
}

#[test]
fn every_chunking_of_a_stream_gives_the_same_lines() {
    let stream = b"{\"id\":1}\r\n\n0123456789\nxy\n{}\nlast";
    let mut whole = Reader::new(8);
    let mut want = lines(whole.feed(stream).unwrap());
    want.extend(lines(whole.end().unwrap()));
    for size in 1..=stream.len() {
        let mut reader = Reader::new(8);
        let mut got = Vec::new();
        for chunk in stream.chunks(size) {
            got.extend(lines(reader.feed(chunk).unwrap()));
        }
        got.extend(lines(reader.end().unwrap()));
        assert_eq!(got, want, "chunks of {size}");
    }
}

#[test]
fn a_long_line_in_small_pieces_is_never_moved_or_searched_again() {
    let mut reader = Reader::new(1 << 30);
    let piece = [b'a'; 7];
    for _ in 0..100_000 {
        assert_eq!(reader.feed(&piece).unwrap().len(), 0);
        assert_eq!(reader.pending, 0);
    }
    let got = lines(reader.feed(b"\n").unwrap());
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].2, 700_000);
}

#[test]
fn a_buffer_grown_for_a_long_line_is_given_back() {
    let mut reader = Reader::new(1 << 30);
    reader.feed(&vec![b'a'; 4 << 20]).unwrap();
    reader.feed(b"\nshort").unwrap();
    reader.feed(b"\n").unwrap();
    assert!(reader.buf.capacity() <= 2 * KEPT_CAPACITY, "{}", reader.buf.capacity());
}
