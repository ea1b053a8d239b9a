//! The JSON scanner: validates all of RFC 8259 and UTF-8 in a line, and
//! records only what the envelope rules read, the top-level members of an
//! object. Nested values are validated and skipped, never materialised, and
//! nesting is tracked in an explicit bit stack, so no input can grow the
//! call stack.
//!
//! Two scanners share that job. The structural scanner (`structural.rs`)
//! takes a valid line in a few instructions per 64 bytes plus a few per
//! token; the stepwise scanner (`stepwise.rs`) takes every line, on every
//! CPU, and runs whenever the structural one does not take a line, so that
//! a fault is always named exactly where it is.

mod blocks;
mod error;
mod nesting;
mod simd;
mod stepwise;
mod strings;
mod structural;
mod token_starts;
mod tokens;
mod unescape;
mod utf8;

pub use error::ParseError;
pub(crate) use strings::string_end;
pub(crate) use unescape::unescape;

use std::borrow::Cow;

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
}

impl Member {
    /// The member's value as it stands in the line.
    pub(crate) fn raw<'a>(&self, line: &'a str) -> &'a str {
        // Spans start and end at ASCII bytes, so they are char boundaries.
        line.get(self.span.offset..self.span.offset + self.span.len).unwrap_or_default()
    }

    /// A string member's text between its quotes, decoded where it has
    /// escapes and borrowed from the line where it has none. `escapes` is
    /// false when the line is known to hold no backslash.
    pub(crate) fn text<'a>(&self, line: &'a str, escapes: bool) -> Cow<'a, str> {
        let raw = self.raw(line);
        let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
        if escapes && inner.as_bytes().contains(&b'\\') { unescape(inner.as_bytes()) } else { Cow::Borrowed(inner) }
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

/// The names of the members the envelope rules read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Name {
    Id,
    Method,
    Params,
    Result,
    Error,
    Jsonrpc,
}

impl Name {
    /// The name whose text between its quotes, as it stands in the line, is
    /// `raw`, when it is one of ours (SPEC §1: compared after decoding its
    /// escapes, case-sensitively). `escapes` is false when the caller knows
    /// that `raw` holds no backslash.
    #[inline(always)]
    pub(crate) fn of_raw(raw: &[u8], escapes: bool) -> Option<Name> {
        // The longest name we read is 7 characters, at most 6 bytes each
        // when escaped; a longer raw name cannot decode to one of ours.
        match Name::of_decoded(raw) {
            None if escapes && raw.len() <= 7 * 6 && raw.contains(&b'\\') => Name::of_decoded(unescape(raw).as_bytes()),
            name => name,
        }
    }

    #[inline(always)]
    fn of_decoded(name: &[u8]) -> Option<Name> {
        /// Up to 8 bytes as one little-endian word.
        const fn word(text: &[u8]) -> u64 {
            let mut word = 0;
            let mut i = text.len();
            while i > 0 {
                i -= 1;
                word = word << 8 | text[i] as u64;
            }
            word
        }
        const ID: u64 = word(b"id");
        const ERROR: u64 = word(b"error");
        const METHOD: u64 = word(b"method");
        const PARAMS: u64 = word(b"params");
        const RESULT: u64 = word(b"result");
        const JSONRPC: u64 = word(b"jsonrpc");
        let half = |bytes: &[u8; 4]| u64::from(u32::from_le_bytes(*bytes));
        // The same word, from at most two loads (the halves of a 7-byte
        // name overlap in one byte, which is OR-ed with itself).
        let packed = match name.len() {
            2 => u64::from(u16::from_le_bytes(*name.first_chunk()?)),
            5 => half(name.first_chunk()?) | u64::from(name[4]) << 32,
            6 => half(name.first_chunk()?) | u64::from(u16::from_le_bytes(*name.last_chunk()?)) << 32,
            7 => half(name.first_chunk()?) | half(name.last_chunk()?) << 24,
            _ => return None,
        };
        match (name.len(), packed) {
            (2, ID) => Some(Name::Id),
            (5, ERROR) => Some(Name::Error),
            (6, METHOD) => Some(Name::Method),
            (6, PARAMS) => Some(Name::Params),
            (6, RESULT) => Some(Name::Result),
            (7, JSONRPC) => Some(Name::Jsonrpc),
            _ => None,
        }
    }
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
    /// Records `member` as the value of `name`, replacing an earlier one.
    pub(crate) fn set(&mut self, name: Name, member: Member) {
        let slot = match name {
            Name::Id => &mut self.id,
            Name::Method => &mut self.method,
            Name::Params => &mut self.params,
            Name::Result => &mut self.result,
            Name::Error => &mut self.error,
            Name::Jsonrpc => &mut self.jsonrpc,
        };
        *slot = Some(member);
    }
}

/// The scanner's findings for one valid line, but for its members.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scanned<'a> {
    /// The line, now known to be UTF-8.
    pub text: &'a str,
    pub root: Root,
    /// Whether the line may hold a backslash (false: no text needs
    /// decoding).
    pub escapes: bool,
}

/// Scans one line: validates it as a single JSON text in UTF-8 and records
/// its top-level members in `members`, which must come in empty.
pub(crate) fn scan<'a>(line: &'a [u8], members: &mut Members) -> Result<Scanned<'a>, ParseError> {
    // One check up front, so strings need only look for quotes, escapes
    // and control bytes.
    let text = utf8::text(line)?;
    if let Some(found) = structural::scan(line, members) {
        return Ok(Scanned { text, root: found.root, escapes: found.escapes });
    }
    *members = Members::default();
    let root = stepwise::scan(line, members)?;
    Ok(Scanned { text, root, escapes: true })
}

/// Whether both scanners read `line` alike (the structural one with every
/// set of byte classes this CPU has, byte by byte included): it takes
/// exactly the lines the stepwise one finds valid, with the same root and
/// members, and knows whether a line has a backslash. For the unit tests and
/// the fuzz target `scanners`; not part of the API.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn scanners_agree(line: &[u8]) -> bool {
    fn structural(line: &[u8], classes: impl blocks::Classify) -> Option<(Root, Members)> {
        let mut members = Members::default();
        let found = structural::scan_with(line, classes, &mut members)?;
        (found.escapes == line.contains(&b'\\')).then_some((found.root, members))
    }
    if std::str::from_utf8(line).is_err() {
        return true;
    }
    let mut expected = Members::default();
    let want = stepwise::scan(line, &mut expected).ok().map(|root| (root, expected));
    #[cfg(target_arch = "x86_64")]
    {
        if blocks::Avx2::detect().is_some_and(|avx2| structural(line, avx2) != want)
            || blocks::Avx512::detect().is_some_and(|avx512| structural(line, avx512) != want)
        {
            return false;
        }
    }
    structural(line, blocks::Bytewise) == want
}

/// Whether `bytes` are one valid JSON text (whitespace around it allowed).
pub(crate) fn is_json(bytes: &[u8]) -> bool {
    matches!(scan(bytes, &mut Members::default()), Ok(s) if s.root != Root::Nothing)
}

#[cfg(test)]
mod tests;
