//! Lines from a stream, many at a time (SPEC §6): splits a host's buffer at
//! LF, and skips a line longer than the limit without ever holding it whole.

/// The line limit a host gets unless it chooses one.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// What the many-lines call keeps between one buffer and the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineState {
    /// Lines longer than this many bytes (LF excluded) are `TooLong`.
    pub max_line: usize,
    /// Bytes of an over-long line already consumed and dropped; 0 when the
    /// next byte starts a line.
    pub too_long_bytes: usize,
}

impl Default for LineState {
    fn default() -> Self {
        LineState::new(DEFAULT_MAX_LINE)
    }
}

impl LineState {
    pub fn new(max_line: usize) -> Self {
        LineState { max_line, too_long_bytes: 0 }
    }
}

/// One line found in a buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEvent<'a> {
    /// A complete line at `offset` in the buffer, without its LF.
    Line { offset: usize, line: &'a [u8] },
    /// A line over the limit, `len` bytes long in all (LF excluded); its
    /// last part starts at `offset` in this buffer.
    TooLong { offset: usize, len: usize },
}

/// The lines of one buffer; see [`lines`].
pub struct Lines<'s, 'a> {
    buf: &'a [u8],
    pos: usize,
    end_of_stream: bool,
    state: &'s mut LineState,
}

/// The complete lines of `buf`, and at the end of the stream its last line
/// without LF. After the iterator is drained, [`Lines::consumed`] says how
/// many bytes of `buf` the host may drop; it keeps the rest and passes it
/// again with the next bytes it reads. An unterminated tail longer than the
/// limit is consumed too (and remembered in `state`), so the host never
/// holds more than `max_line` bytes of one line.
pub fn lines<'s, 'a>(buf: &'a [u8], end_of_stream: bool, state: &'s mut LineState) -> Lines<'s, 'a> {
    Lines { buf, pos: 0, end_of_stream, state }
}

impl Lines<'_, '_> {
    /// How many bytes of the buffer are done with so far.
    pub fn consumed(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Lines<'_, 'a> {
    type Item = LineEvent<'a>;

    fn next(&mut self) -> Option<LineEvent<'a>> {
        let offset = self.pos;
        let rest = &self.buf[offset..];
        let (len, next) = match memchr::memchr(b'\n', rest) {
            Some(lf) => (lf, offset + lf + 1),
            None if self.end_of_stream && (!rest.is_empty() || self.state.too_long_bytes > 0) => {
                (rest.len(), self.buf.len())
            }
            None => {
                if self.state.too_long_bytes > 0 || rest.len() > self.state.max_line {
                    self.state.too_long_bytes = self.state.too_long_bytes.saturating_add(rest.len());
                    self.pos = self.buf.len();
                }
                return None;
            }
        };
        self.pos = next;
        let whole = std::mem::take(&mut self.state.too_long_bytes).saturating_add(len);
        Some(if whole > self.state.max_line {
            LineEvent::TooLong { offset, len: whole }
        } else {
            LineEvent::Line { offset, line: &rest[..len] }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(buf: &[u8], end: bool, state: &mut LineState) -> (Vec<LineEvent<'static>>, usize) {
        let leaked: &'static [u8] = Box::leak(buf.to_vec().into_boxed_slice());
        let mut it = lines(leaked, end, state);
        let events: Vec<_> = it.by_ref().collect();
        (events, it.consumed())
    }

    #[test]
    fn splits_at_lf_and_keeps_the_unterminated_tail() {
        let mut state = LineState::default();
        let (events, consumed) = collect(b"a\r\n\nbc", false, &mut state);
        assert_eq!(events, vec![LineEvent::Line { offset: 0, line: b"a\r" }, LineEvent::Line { offset: 3, line: b"" }]);
        assert_eq!(consumed, 4);
        let (events, consumed) = collect(b"bc", true, &mut state);
        assert_eq!(events, vec![LineEvent::Line { offset: 0, line: b"bc" }]);
        assert_eq!(consumed, 2);
    }

    #[test]
    fn an_empty_end_of_stream_has_no_line() {
        let mut state = LineState::default();
        assert_eq!(collect(b"", true, &mut state), (vec![], 0));
        assert_eq!(collect(b"x\n", true, &mut state).0.len(), 1);
    }

    #[test]
    fn a_too_long_line_is_dropped_as_it_comes_and_reported_once_at_its_end() {
        let mut state = LineState::new(4);
        assert_eq!(collect(b"ok\n1234567", false, &mut state), (vec![LineEvent::Line { offset: 0, line: b"ok" }], 10));
        assert_eq!(state.too_long_bytes, 7);
        assert_eq!(collect(b"89", false, &mut state), (vec![], 2));
        let (events, consumed) = collect(b"0\nnext\n", false, &mut state);
        assert_eq!(
            events,
            vec![LineEvent::TooLong { offset: 0, len: 10 }, LineEvent::Line { offset: 2, line: b"next" }]
        );
        assert_eq!((consumed, state.too_long_bytes), (7, 0));
    }

    #[test]
    fn a_too_long_line_at_the_end_of_the_stream_is_still_reported() {
        let mut state = LineState::new(2);
        assert_eq!(collect(b"abc", false, &mut state), (vec![], 3));
        assert_eq!(collect(b"", true, &mut state), (vec![LineEvent::TooLong { offset: 0, len: 3 }], 0));
        assert_eq!(collect(b"", true, &mut state), (vec![], 0));
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_kept() {
        let mut state = LineState::new(3);
        assert_eq!(collect(b"abc", false, &mut state), (vec![], 0));
        assert_eq!(collect(b"abc\nabcd\n", false, &mut state).0[1], LineEvent::TooLong { offset: 4, len: 4 });
    }
}
