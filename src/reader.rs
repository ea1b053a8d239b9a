//! The stream reader (SPEC §6): a host hands it the bytes it reads, as they
//! come, and gets back every line they complete, classified. It owns the
//! whole buffering policy, so that no host writes its own: lines end at
//! LF; a line over the limit is dropped as it arrives and reported once at
//! its end; the bytes held stay within the limit plus what one call hands
//! in; a long line arriving in small pieces costs linear time (each byte is
//! searched for LF once, and moved at most once).

use std::ffi::CStr;

use crate::fallible::{self, OutOfMemory};
use crate::rules::{Classification, Profile};

/// The line limit a reader gets unless its host chooses one.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// The name of a line over the limit, where a line's kind is named.
pub const TOO_LONG: &str = crate::names::text(TOO_LONG_C);
pub(crate) const TOO_LONG_C: &CStr = c"too_long";

/// Capacity a reader keeps however little it holds: enough for the chunks a
/// host reads, so that their copies never go back to the allocator (which
/// maps and unmaps blocks this large, page by page).
const KEPT_CAPACITY: usize = 1 << 20;

/// Reads one stream. Feed it bytes with [`Reader::feed`] and, at the end,
/// call [`Reader::end`]; each returns the lines completed so far, which
/// borrow the reader until its next call.
#[derive(Debug)]
pub struct Reader {
    max_line: usize,
    profile: Profile,
    /// The last batch's lines, each with its LF, then the line not yet
    /// ended (from `pending`).
    buf: Vec<u8>,
    pending: usize,
    /// Bytes of an over-long line dropped so far, while dropping one.
    dropping: Option<usize>,
    /// Lines reported so far in this stream.
    number: u64,
    /// The last batch's lines.
    found: Vec<Found>,
}

/// A line of a batch, as the reader keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// `len` bytes at `start` in the reader's buffer, LF excluded.
    Line { start: usize, len: usize },
    /// A line of `len` bytes (LF excluded), over the limit, not held.
    TooLong { len: usize },
}

/// One line of a stream, as a reader hands it back.
#[derive(Debug, Clone, PartialEq, Eq)]
// A too-long line is rare and carries nothing; boxing the common variant
// would cost an allocation per line.
#[allow(clippy::large_enum_variant)]
pub enum Line<'a> {
    /// A line within the limit: its bytes without the LF (a CR before the LF
    /// stays, as JSON whitespace), and what it is.
    Complete { number: u64, bytes: &'a [u8], classification: Classification<'a> },
    /// A line over the limit, `len` bytes long (LF excluded). It was never
    /// held whole, and it is owed no reply in either role.
    TooLong { number: u64, len: usize },
}

impl Line<'_> {
    /// The line's number in its stream, from 1.
    pub fn number(&self) -> u64 {
        match self {
            Line::Complete { number, .. } | Line::TooLong { number, .. } => *number,
        }
    }

    /// The line's length in bytes, LF excluded.
    pub fn len(&self) -> usize {
        match self {
            Line::Complete { bytes, .. } => bytes.len(),
            Line::TooLong { len, .. } => *len,
        }
    }

    /// Whether the line has no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The line's kind as the vectors name it, or [`TOO_LONG`].
    pub fn kind_name(&self) -> &'static str {
        match self {
            Line::Complete { classification, .. } => classification.kind.name(),
            Line::TooLong { .. } => TOO_LONG,
        }
    }
}

impl Default for Reader {
    fn default() -> Self {
        Reader::new(DEFAULT_MAX_LINE)
    }
}

impl Reader {
    /// A reader for one stream whose lines may be `max_line` bytes long (LF
    /// excluded); 0 means [`DEFAULT_MAX_LINE`]. It classifies by the
    /// JSON-RPC profile.
    pub fn new(max_line: usize) -> Reader {
        Reader::with_profile(max_line, Profile::JsonRpc)
    }

    /// A reader, as [`Reader::new`] makes one, that classifies by `profile`.
    pub fn with_profile(max_line: usize, profile: Profile) -> Reader {
        let max_line = if max_line == 0 { DEFAULT_MAX_LINE } else { max_line };
        Reader { max_line, profile, buf: Vec::new(), pending: 0, dropping: None, number: 0, found: Vec::new() }
    }

    /// The profile its lines are classified by.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The line limit.
    pub fn max_line(&self) -> usize {
        self.max_line
    }

    /// The bytes of a line not yet ended that the reader holds: never more
    /// than the limit.
    pub fn held(&self) -> usize {
        self.buf.len() - self.pending
    }

    /// Takes the next bytes of the stream; returns the lines they complete.
    /// Fails only when memory runs out, and then has taken nothing: the call
    /// may be repeated with the same bytes.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Batch<'_>, OutOfMemory> {
        let before = self.call(|reader| reader.take(bytes))?;
        Ok(self.batch(before))
    }

    /// Ends the stream: returns its last line if it had no LF (or an
    /// over-long one being dropped). Afterwards the reader is as new, for
    /// another stream, with line numbers from 1 again.
    pub fn end(&mut self) -> Result<Batch<'_>, OutOfMemory> {
        let before = self.call(Reader::finish)?;
        Ok(self.batch(before))
    }

    /// `feed`, then `then` on the batch; when either fails the reader has
    /// taken nothing.
    pub(crate) fn feed_then<T, E: From<OutOfMemory>>(
        &mut self,
        bytes: &[u8],
        then: impl FnOnce(Batch<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let before = self.call(|reader| reader.take(bytes))?;
        then(self.batch(before)).inspect_err(|_| self.restore(before))
    }

    /// `end`, then `then` on the batch; when either fails the stream has not
    /// ended.
    pub(crate) fn end_then<T, E: From<OutOfMemory>>(
        &mut self,
        then: impl FnOnce(Batch<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let before = self.call(Reader::finish)?;
        then(self.batch(before)).inspect_err(|_| self.restore(before))
    }

    /// Forgets the last batch and runs `step`, which finds the new one;
    /// undoes it when it fails. Returns the state before it, where the new
    /// batch starts.
    fn call(&mut self, step: impl FnOnce(&mut Reader) -> Result<(), OutOfMemory>) -> Result<Mark, OutOfMemory> {
        self.begin();
        let before = self.mark();
        step(self).inspect_err(|_| self.restore(before))?;
        Ok(before)
    }

    /// Finds the stream's last line, and starts a new stream.
    fn finish(&mut self) -> Result<(), OutOfMemory> {
        self.found.try_reserve(1)?;
        if let Some(len) = self.dropping.take() {
            self.found.push(Found::TooLong { len });
        } else if self.buf.len() > self.pending {
            self.found.push(Found::Line { start: self.pending, len: self.buf.len() - self.pending });
        }
        self.pending = self.buf.len();
        self.number = 0;
        Ok(())
    }

    /// The lines found since `before`.
    fn batch(&self, before: Mark) -> Batch<'_> {
        Batch { buf: &self.buf, found: self.found.iter(), number: before.number + 1, profile: self.profile }
    }

    fn mark(&self) -> Mark {
        Mark { len: self.buf.len(), pending: self.pending, dropping: self.dropping, number: self.number }
    }

    /// Undoes a call since `mark` (taken after `begin`).
    fn restore(&mut self, mark: Mark) {
        self.buf.truncate(mark.len);
        (self.pending, self.dropping, self.number) = (mark.pending, mark.dropping, mark.number);
        self.found.clear();
    }

    /// Forgets the last batch: the line not yet ended moves to the front.
    fn begin(&mut self) {
        self.found.clear();
        if self.pending == 0 {
            return;
        }
        let held = self.buf.len() - self.pending;
        if self.buf.capacity() > KEPT_CAPACITY.max(4 * held) {
            // After a long line: give back what a short one does not need
            // (when a smaller buffer cannot be had, the larger one stays).
            let mut smaller = Vec::new();
            if smaller.try_reserve_exact(KEPT_CAPACITY.max(2 * held)).is_ok() {
                smaller.extend_from_slice(&self.buf[self.pending..]);
                self.buf = smaller;
                self.pending = 0;
                return;
            }
        }
        self.buf.copy_within(self.pending.., 0);
        self.buf.truncate(held);
        self.pending = 0;
    }

    /// Finds the lines `bytes` complete, into `found`.
    fn take(&mut self, mut bytes: &[u8]) -> Result<(), OutOfMemory> {
        if let Some(dropped) = self.dropping {
            let Some(lf) = memchr::memchr(b'\n', bytes) else {
                self.dropping = Some(dropped.saturating_add(bytes.len()));
                return Ok(());
            };
            fallible::push(&mut self.found, Found::TooLong { len: dropped.saturating_add(lf) })?;
            self.number += 1;
            self.dropping = None;
            bytes = &bytes[lf + 1..];
        }
        let from = self.buf.len();
        fallible::extend(&mut self.buf, bytes)?;
        let mut start = self.pending;
        for lf in memchr::memchr_iter(b'\n', &self.buf[from..]) {
            let end = from + lf;
            let len = end - start;
            let line = if len > self.max_line { Found::TooLong { len } } else { Found::Line { start, len } };
            fallible::push(&mut self.found, line)?;
            self.number += 1;
            start = end + 1;
        }
        self.pending = start;
        let held = self.buf.len() - start;
        if held > self.max_line {
            self.dropping = Some(held);
            self.buf.truncate(start);
        }
        Ok(())
    }
}

/// A reader's state before a call, to undo it.
#[derive(Clone, Copy)]
struct Mark {
    len: usize,
    pending: usize,
    dropping: Option<usize>,
    number: u64,
}

/// The lines of one call, in order; they borrow the reader until its next
/// call.
#[derive(Debug, Clone)]
pub struct Batch<'r> {
    buf: &'r [u8],
    found: std::slice::Iter<'r, Found>,
    number: u64,
    profile: Profile,
}

impl<'r> Batch<'r> {
    /// The batch's lines as the reader keeps them, with the buffer their
    /// spans point into and the first line's number, for the C ABI, which
    /// classifies them into memory of its own.
    pub(crate) fn parts(&self) -> (&'r [u8], &'r [Found], u64) {
        (self.buf, self.found.as_slice(), self.number)
    }

    /// The profile its lines are classified by.
    pub fn profile(&self) -> Profile {
        self.profile
    }
}

impl<'r> Iterator for Batch<'r> {
    type Item = Line<'r>;

    fn next(&mut self) -> Option<Line<'r>> {
        let found = *self.found.next()?;
        let number = self.number;
        self.number += 1;
        Some(match found {
            Found::Line { start, len } => {
                let bytes = &self.buf[start..start + len];
                Line::Complete { number, bytes, classification: self.profile.classify(bytes) }
            }
            Found::TooLong { len } => Line::TooLong { number, len },
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.found.size_hint()
    }
}

impl ExactSizeIterator for Batch<'_> {}

#[cfg(test)]
mod tests {
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
        let got: Vec<&str> =
            reader.feed(b"{\"id\":1,\"method\":\"m\"}\nnope\n").unwrap().map(|l| l.kind_name()).collect();
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
}
