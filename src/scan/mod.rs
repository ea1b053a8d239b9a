//! The JSON scanner: one pass over a line's bytes that validates all of
//! RFC 8259 and UTF-8, and records only what the envelope rules read, the
//! top-level members of an object. Nested values are validated and skipped,
//! never materialised, and nesting is tracked in an explicit bit stack, so no
//! input can grow the call stack.

mod error;
mod nesting;
mod simd;
mod strings;
mod unescape;

pub use error::ParseError;
pub(crate) use strings::string_end;
pub(crate) use unescape::unescape;

use std::borrow::Cow;

use nesting::Nesting;

/// Where a value stands in the line, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub offset: usize,
    pub len: usize,
}

impl Span {
    /// The bytes of `line` this span covers.
    pub fn of<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        &line[self.offset..self.offset + self.len]
    }
}

/// The JSON type of a value, as the reply messages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Object,
    Array,
    String,
    Number,
    Boolean,
    Null,
}

impl ValueKind {
    /// The value's kind with its article, as SPEC §4 spells it in messages.
    pub fn with_article(self) -> &'static str {
        match self {
            ValueKind::Object => "an object",
            ValueKind::Array => "an array",
            ValueKind::String => "a string",
            ValueKind::Number => "a number",
            ValueKind::Boolean => "a boolean",
            ValueKind::Null => "null",
        }
    }
}

/// A top-level member's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Member {
    pub span: Span,
    pub kind: ValueKind,
    /// For a string: whether it holds an escape, so that its text must be
    /// decoded rather than borrowed.
    pub escaped: bool,
}

impl Member {
    /// The member's value as it stands in the line.
    pub(crate) fn raw<'a>(&self, line: &'a str) -> &'a str {
        // Spans start and end at ASCII bytes, so they are char boundaries.
        line.get(self.span.offset..self.span.offset + self.span.len).unwrap_or_default()
    }

    /// A string member's text between its quotes, decoded where it has
    /// escapes and borrowed from the line where it has none.
    pub(crate) fn text<'a>(&self, line: &'a str) -> Cow<'a, str> {
        let raw = self.raw(line);
        let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
        if self.escaped { unescape(inner.as_bytes()) } else { Cow::Borrowed(inner) }
    }
}

/// What the whole line holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Root {
    Nothing,
    Object,
    Array,
    Scalar(ValueKind),
}

/// The members the envelope rules read, each with its last value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Members {
    pub id: Option<Member>,
    pub method: Option<Member>,
    pub params: Option<Member>,
    pub result: Option<Member>,
    pub error: Option<Member>,
    pub jsonrpc: Option<Member>,
}

impl Members {
    fn slot(&mut self, name: &[u8]) -> Option<&mut Option<Member>> {
        match name {
            b"id" => Some(&mut self.id),
            b"method" => Some(&mut self.method),
            b"params" => Some(&mut self.params),
            b"result" => Some(&mut self.result),
            b"error" => Some(&mut self.error),
            b"jsonrpc" => Some(&mut self.jsonrpc),
            _ => None,
        }
    }

    /// The slot for a member whose raw name (between its quotes) is `raw`.
    fn slot_for_raw_name(&mut self, raw: &[u8], escaped: bool) -> Option<&mut Option<Member>> {
        if !escaped {
            return self.slot(raw);
        }
        // The longest name we read is 7 characters, at most 6 bytes each
        // when escaped; a longer raw name cannot decode to one of ours.
        if raw.len() > 7 * 6 {
            return None;
        }
        self.slot(unescape(raw).as_bytes())
    }
}

/// The scanner's findings for one valid line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scanned<'a> {
    /// The line, now known to be UTF-8.
    pub text: &'a str,
    pub root: Root,
    pub members: Members,
}

/// Scans one line: validates it as a single JSON text in UTF-8 and records
/// its top-level members.
pub(crate) fn scan(line: &[u8]) -> Result<Scanned<'_>, ParseError> {
    // One bulk check up front (SPEC §1: invalid UTF-8 anywhere is a parse
    // error), so strings need only look for quotes, escapes and controls.
    let Ok(text) = simdutf8::basic::from_utf8(line) else {
        let valid = std::str::from_utf8(line).map_or_else(|e| e.valid_up_to(), str::len);
        return Err(ParseError::InvalidUtf8(valid));
    };
    let mut scanner = Scanner::new(line);
    let mut members = Members::default();
    scanner.skip_whitespace();
    let root = match scanner.peek() {
        None => Root::Nothing,
        Some(b'{') => {
            scanner.top_object(&mut members)?;
            Root::Object
        }
        Some(_) => match scanner.value()? {
            ValueKind::Array => Root::Array,
            scalar => Root::Scalar(scalar),
        },
    };
    scanner.skip_whitespace();
    if scanner.pos != line.len() {
        return Err(scanner.unexpected());
    }
    Ok(Scanned { text, root, members })
}

/// Whether `bytes` are one valid JSON text (whitespace around it allowed).
pub(crate) fn is_json(bytes: &[u8]) -> bool {
    matches!(scan(bytes), Ok(s) if s.root != Root::Nothing)
}

fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    nesting: Nesting,
}

/// What may come next inside a container.
#[derive(Clone, Copy)]
enum Expect {
    FirstMemberOrClose,
    Member,
    FirstElementOrClose,
    Value,
    CommaOrClose,
}

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Scanner { bytes, pos: 0, nesting: Nesting::default() }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(is_whitespace) {
            self.pos += 1;
        }
    }

    /// The error for the byte at `pos`, which is not what the grammar allows.
    fn unexpected(&self) -> ParseError {
        match self.peek() {
            Some(byte) => ParseError::Unexpected { at: self.pos, byte },
            None => ParseError::End(self.pos),
        }
    }

    fn expect(&mut self, want: u8) -> Result<(), ParseError> {
        if self.peek() == Some(want) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    /// The top-level object, recording the members the rules read.
    fn top_object(&mut self, members: &mut Members) -> Result<(), ParseError> {
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.unexpected());
            }
            let name_start = self.pos + 1;
            let name_escaped = self.string()?;
            let name = &self.bytes[name_start..self.pos - 1];
            self.skip_whitespace();
            self.expect(b':')?;
            self.skip_whitespace();
            let value_start = self.pos;
            let (kind, escaped) = self.value_with_escapes()?;
            if let Some(slot) = members.slot_for_raw_name(name, name_escaped) {
                let span = Span { offset: value_start, len: self.pos - value_start };
                *slot = Some(Member { span, kind, escaped });
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// Any value; nested containers are validated without recursion.
    fn value(&mut self) -> Result<ValueKind, ParseError> {
        self.value_with_escapes().map(|(kind, _)| kind)
    }

    /// Like `value`, also saying whether a string value holds an escape.
    fn value_with_escapes(&mut self) -> Result<(ValueKind, bool), ParseError> {
        match self.peek() {
            Some(b'{') => self.container().map(|()| (ValueKind::Object, false)),
            Some(b'[') => self.container().map(|()| (ValueKind::Array, false)),
            Some(b'"') => self.string().map(|escaped| (ValueKind::String, escaped)),
            _ => self.scalar().map(|kind| (kind, false)),
        }
    }

    /// A number, `true`, `false` or `null`.
    fn scalar(&mut self) -> Result<ValueKind, ParseError> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => self.number().map(|()| ValueKind::Number),
            Some(b't') => self.literal(b"true").map(|()| ValueKind::Boolean),
            Some(b'f') => self.literal(b"false").map(|()| ValueKind::Boolean),
            Some(b'n') => self.literal(b"null").map(|()| ValueKind::Null),
            _ => Err(self.unexpected()),
        }
    }

    /// A string, from its opening quote to just past its closing one.
    /// Returns whether it holds an escape.
    fn string(&mut self) -> Result<bool, ParseError> {
        let (end, escaped) = string_end(self.bytes, self.pos + 1)?;
        self.pos = end;
        Ok(escaped)
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), ParseError> {
        for &want in word {
            if self.peek() != Some(want) {
                return Err(self.unexpected());
            }
            self.pos += 1;
        }
        Ok(())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<(), ParseError> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(ParseError::BadNumber(self.pos)),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.some_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.some_digits()?;
        }
        Ok(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
    }

    fn some_digits(&mut self) -> Result<(), ParseError> {
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return Err(ParseError::BadNumber(self.pos));
        }
        self.digits();
        Ok(())
    }

    /// An object or array and everything inside it, at any depth. The open
    /// containers live in `self.nesting`, one bit each.
    fn container(&mut self) -> Result<(), ParseError> {
        self.nesting.clear();
        let mut expect = self.open(self.peek() == Some(b'{'));
        loop {
            self.skip_whitespace();
            let Some(byte) = self.peek() else {
                return Err(self.unexpected());
            };
            expect = match (expect, byte) {
                (Expect::FirstMemberOrClose, b'}') | (Expect::FirstElementOrClose, b']') => match self.close() {
                    Some(next) => next,
                    None => return Ok(()),
                },
                (Expect::FirstMemberOrClose | Expect::Member, b'"') => {
                    self.string()?;
                    self.skip_whitespace();
                    self.expect(b':')?;
                    Expect::Value
                }
                (Expect::FirstMemberOrClose | Expect::Member, _) => return Err(self.unexpected()),
                (Expect::FirstElementOrClose | Expect::Value, b'{' | b'[') => self.open(byte == b'{'),
                (Expect::FirstElementOrClose | Expect::Value, b'"') => {
                    self.string()?;
                    Expect::CommaOrClose
                }
                (Expect::FirstElementOrClose | Expect::Value, _) => {
                    self.scalar()?;
                    Expect::CommaOrClose
                }
                (Expect::CommaOrClose, _) => {
                    let in_object = self.nesting.in_object();
                    match (byte, in_object) {
                        (b',', true) => {
                            self.pos += 1;
                            Expect::Member
                        }
                        (b',', false) => {
                            self.pos += 1;
                            Expect::Value
                        }
                        (b'}', true) | (b']', false) => match self.close() {
                            Some(next) => next,
                            None => return Ok(()),
                        },
                        _ => return Err(self.unexpected()),
                    }
                }
            };
        }
    }

    /// Enters the object or array whose opening byte is at `pos`.
    fn open(&mut self, object: bool) -> Expect {
        self.nesting.push(object);
        self.pos += 1;
        if object { Expect::FirstMemberOrClose } else { Expect::FirstElementOrClose }
    }

    /// Leaves the container whose closing byte is at `pos`; `None` once the
    /// outermost one is closed.
    fn close(&mut self) -> Option<Expect> {
        self.pos += 1;
        self.nesting.pop();
        (!self.nesting.is_empty()).then_some(Expect::CommaOrClose)
    }
}

#[cfg(test)]
mod tests;
