//! The stream reader (SPEC §6): a host hands it the bytes it reads, as they
//! come, and gets back every line they complete, classified. It owns the
//! whole buffering policy, so that no host writes its own: lines end at
//! LF; a line over the limit is dropped as it arrives and reported once at
//! its end; the bytes held stay within the limit plus what one call hands
//! in; a long line arriving in small pieces costs linear time (each byte is
//! searched for LF once, and moved at most once).

use std::ffi::CStr;

use crate::fallible::{self, OutOfMemory};
use crate::rules::{Classification, IdKind, Profile, too_long_head};
use crate::scan::Span;

/// The line limit a reader gets unless its host chooses one, in the
/// JSON-RPC profile (SPEC §6).
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// The line limit of the MCP profile unless its host chooses one: the
/// longest line every official MCP SDK's own stdio reader takes whatever
/// follows it on the pipe (SPEC §10.7: the TypeScript SDK's buffer holds
/// 10 MiB, counting the bytes of the pipe read that completes the line, up
/// to 64 KiB), so that a guard or a transport never hands on a line the SDK
/// behind it cannot read, and answers it instead (SPEC §10.6 (d)).
pub const MCP_MAX_LINE: usize = (10 << 20) - (64 << 10);

impl Profile {
    /// The line limit a reader of this profile gets unless its host
    /// chooses one: [`DEFAULT_MAX_LINE`], or [`MCP_MAX_LINE`] for MCP.
    pub const fn default_max_line(self) -> usize {
        match self {
            Profile::JsonRpc => DEFAULT_MAX_LINE,
            Profile::Mcp => MCP_MAX_LINE,
        }
    }
}

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
    /// An over-long line being dropped: its bytes so far, and its head.
    dropping: Option<Dropping>,
    /// The ids and methods of the last batch's too-long lines' heads.
    heads: Vec<u8>,
    /// Those of the line being dropped, and which head they are.
    dropping_head: Vec<u8>,
    dropping_head_number: u64,
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
    /// A line of `len` bytes (LF excluded), over the limit, not held; in
    /// the MCP profile, what its first bytes hold (SPEC §10.6 (d)).
    TooLong { len: usize, head: Option<Head> },
}

/// What an over-long MCP line's first bytes, read as a damaged line, hold
/// (SPEC §10.6 (d)): its readable id and method, whose texts the reader
/// keeps (`text` in the reader's heads: the id's, then the method's
/// between its quotes), and where they stood in the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Head {
    text: usize,
    id_len: usize,
    id_kind: IdKind,
    id_span: Span,
    /// The method's text length and span, for a damaged request.
    method: Option<(usize, Span)>,
}

/// An over-long line being dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dropping {
    len: usize,
    /// Its head, at 0 in `dropping_head`, with that head's number.
    head: Option<(Head, u64)>,
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
    /// held whole. In the MCP profile, `head` is what its first bytes (as
    /// many as the limit) hold when they are the start of a damaged request
    /// or response (SPEC §10.6 (d)): a `parse_error` with the readable id
    /// and method, whose reply in role server says the line is too long and
    /// whose substitute fails the request a response answers. Otherwise it
    /// is owed nothing.
    TooLong { number: u64, len: usize, head: Option<Classification<'a>> },
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

    /// A reader, as [`Reader::new`] makes one, that classifies by `profile`;
    /// a `max_line` of 0 means the profile's default
    /// ([`Profile::default_max_line`]).
    pub fn with_profile(max_line: usize, profile: Profile) -> Reader {
        let max_line = if max_line == 0 { profile.default_max_line() } else { max_line };
        Reader {
            max_line,
            profile,
            buf: Vec::new(),
            pending: 0,
            dropping: None,
            heads: Vec::new(),
            dropping_head: Vec::new(),
            dropping_head_number: 0,
            number: 0,
            found: Vec::new(),
        }
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
        if let Some(dropping) = self.dropping {
            let head = self.dropped_head(dropping)?;
            self.dropping = None;
            self.found.push(Found::TooLong { len: dropping.len, head });
        } else if self.buf.len() > self.pending {
            self.found.push(Found::Line { start: self.pending, len: self.buf.len() - self.pending });
        }
        self.pending = self.buf.len();
        self.number = 0;
        Ok(())
    }

    /// The lines found since `before`.
    fn batch(&self, before: Mark) -> Batch<'_> {
        Batch {
            buf: &self.buf,
            heads: &self.heads,
            found: self.found.iter(),
            number: before.number + 1,
            profile: self.profile,
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            len: self.buf.len(),
            pending: self.pending,
            dropping: self.dropping,
            number: self.number,
            heads: self.heads.len(),
        }
    }

    /// Undoes a call since `mark` (taken after `begin`).
    fn restore(&mut self, mark: Mark) {
        self.buf.truncate(mark.len);
        (self.pending, self.dropping, self.number) = (mark.pending, mark.dropping, mark.number);
        self.heads.truncate(mark.heads);
        // A later line's head took the place of this one's: the line keeps
        // its length, and goes without its head (as before SPEC §10.6).
        if let Some(Dropping { head: Some((_, number)), .. }) = self.dropping
            && number != self.dropping_head_number
            && let Some(dropping) = self.dropping.as_mut()
        {
            dropping.head = None;
        }
        self.found.clear();
    }

    /// Forgets the last batch: the line not yet ended moves to the front.
    fn begin(&mut self) {
        self.found.clear();
        self.heads.clear();
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
        if let Some(dropping) = self.dropping {
            let Some(lf) = memchr::memchr(b'\n', bytes) else {
                self.dropping = Some(Dropping { len: dropping.len.saturating_add(bytes.len()), ..dropping });
                return Ok(());
            };
            let head = self.dropped_head(dropping)?;
            fallible::push(&mut self.found, Found::TooLong { len: dropping.len.saturating_add(lf), head })?;
            self.number += 1;
            self.dropping = None;
            bytes = &bytes[lf + 1..];
        }
        let from = self.buf.len();
        fallible::extend(&mut self.buf, bytes)?;
        let mut start = self.pending;
        let (first, mut long) = (self.found.len(), false);
        for lf in memchr::memchr_iter(b'\n', &self.buf[from..]) {
            let end = from + lf;
            let len = end - start;
            let line = match len > self.max_line {
                true => {
                    long = true;
                    Found::TooLong { len, head: None }
                }
                false => Found::Line { start, len },
            };
            fallible::push(&mut self.found, line)?;
            self.number += 1;
            start = end + 1;
        }
        if long && self.profile == Profile::Mcp {
            self.read_heads(first, self.pending)?;
        }
        self.pending = start;
        let held = self.buf.len() - start;
        if held > self.max_line {
            let head = self.head(start, true)?;
            self.dropping = Some(Dropping { len: held, head });
            self.buf.truncate(start);
        }
        Ok(())
    }

    /// The heads of the too-long lines found from `found[first]` on, the
    /// first of which starts at `start` in the buffer.
    #[cold]
    fn read_heads(&mut self, first: usize, mut start: usize) -> Result<(), OutOfMemory> {
        for at in first..self.found.len() {
            match self.found[at] {
                Found::Line { start: line, len } => start = line + len + 1,
                Found::TooLong { len, .. } => {
                    let head = self.head(start, false)?.map(|(head, _)| head);
                    self.found[at] = Found::TooLong { len, head };
                    start += len + 1;
                }
            }
        }
        Ok(())
    }

    /// The head of the over-long line at `start` in the buffer (SPEC §10.6
    /// (d)), its texts kept in `heads`, or for a line still being dropped
    /// in `dropping_head` (with the number that tells this head from a
    /// later one's). `None` in the JSON-RPC profile and where the first
    /// bytes hold no damaged request or response.
    fn head(&mut self, start: usize, dropping: bool) -> Result<Option<(Head, u64)>, OutOfMemory> {
        if self.profile != Profile::Mcp {
            return Ok(None);
        }
        let first = &self.buf[start..start + self.max_line];
        let Some(c) = too_long_head(first)? else { return Ok(None) };
        let (id, id_span) = (c.id.unwrap_or_default(), c.spans.id.unwrap_or(Span { offset: 0, len: 0 }));
        let method = c.method.as_deref().zip(c.spans.method);
        let to = match dropping {
            true => {
                self.dropping_head.clear();
                self.dropping_head_number += 1;
                &mut self.dropping_head
            }
            false => &mut self.heads,
        };
        let text = to.len();
        to.try_reserve(id.len() + method.map_or(0, |(m, _)| m.len()))?;
        to.extend_from_slice(id.as_bytes());
        if let Some((m, _)) = method {
            to.extend_from_slice(m.as_bytes());
        }
        let head = Head {
            text,
            id_len: id.len(),
            id_kind: c.id_kind,
            id_span,
            method: method.map(|(m, span)| (m.len(), span)),
        };
        Ok(Some((head, self.dropping_head_number)))
    }

    /// The head of a dropped line, now that its end is seen: its texts move
    /// to `heads`.
    fn dropped_head(&mut self, dropping: Dropping) -> Result<Option<Head>, OutOfMemory> {
        let Some((head, _)) = dropping.head else { return Ok(None) };
        let text = self.heads.len();
        fallible::extend(&mut self.heads, &self.dropping_head)?;
        Ok(Some(Head { text, ..head }))
    }
}

impl Head {
    /// The head's classification, its texts in `heads`, its method as it
    /// stands between its quotes.
    pub(crate) fn classification<'h>(&self, heads: &'h [u8]) -> Classification<'h> {
        let text = |from: usize, len: usize| std::str::from_utf8(&heads[from..from + len]).unwrap_or_default();
        let id = text(self.text, self.id_len);
        let method = self.method.map(|(len, span)| (text(self.text + self.id_len, len), span));
        Classification::too_long_head(id, self.id_kind, self.id_span, method)
    }
}

/// A reader's state before a call, to undo it.
#[derive(Clone, Copy)]
struct Mark {
    len: usize,
    pending: usize,
    dropping: Option<Dropping>,
    number: u64,
    heads: usize,
}

/// The lines of one call, in order; they borrow the reader until its next
/// call.
#[derive(Debug, Clone)]
pub struct Batch<'r> {
    buf: &'r [u8],
    heads: &'r [u8],
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

    /// The texts the batch's too-long lines' heads point into.
    pub(crate) fn heads(&self) -> &'r [u8] {
        self.heads
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
            Found::TooLong { len, head } => {
                let head = head.map(|head| {
                    let mut c = head.classification(self.heads);
                    c.decode_method().unwrap_or_else(|OutOfMemory| fallible::abort());
                    c
                });
                Line::TooLong { number, len, head }
            }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.found.size_hint()
    }
}

impl ExactSizeIterator for Batch<'_> {}

#[cfg(test)]
mod tests;
