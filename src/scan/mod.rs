//! The JSON scanner: validates all of RFC 8259 and UTF-8 in a line, and
//! reports only the members of a root object, to a `TopLevel` visitor that says
//! which of them it wants. Nested values are validated and skipped, never
//! materialised, and nesting is tracked in an explicit bit stack, so no
//! input can grow the call stack. It knows nothing of JSON-RPC.
//!
//! Two scanners share that job. The structural scanner (`structural.rs`)
//! takes a valid line in a few instructions per 64 bytes plus a few per
//! token; the stepwise scanner (`stepwise.rs`) takes every line, on every
//! CPU, and runs whenever the structural one does not take a line, so that
//! a fault is always named exactly where it is.

mod byte_classes;
mod error;
mod nesting;
mod scalars;
mod stepwise;
mod stops;
mod strings;
mod structural;
mod token_starts;
mod unescape;
mod utf8;

pub use error::ParseError;
pub(crate) use error::ScanError;
pub(crate) use strings::string_end;
pub(crate) use unescape::{decode, decoded_len};

/// Where a value stands in the line, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub offset: usize,
    pub len: usize,
}

impl Span {
    /// The bytes of `line` this span covers.
    #[inline]
    pub fn of<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        &line[self.offset..self.offset + self.len]
    }
}

/// The JSON type of a value.
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
    /// The kind of a well-formed value whose first byte is `byte`.
    pub(crate) fn starting_with(byte: u8) -> Self {
        match byte {
            b'{' => Self::Object,
            b'[' => Self::Array,
            b'"' => Self::String,
            b't' | b'f' => Self::Boolean,
            b'n' => Self::Null,
            _ => Self::Number,
        }
    }
}

/// A member's value: where it stands, and its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Value {
    pub span: Span,
    pub kind: ValueKind,
}

impl Value {
    /// The value as it stands in the line.
    #[inline]
    pub(crate) fn raw<'a>(&self, line: &'a str) -> &'a str {
        // Spans start and end at ASCII bytes, so they are char boundaries.
        line.get(self.span.offset..self.span.offset + self.span.len).unwrap_or_default()
    }

    /// A string value's text between its quotes, as it stands in the line
    /// (escapes not decoded).
    #[inline]
    pub(crate) fn inner<'a>(&self, line: &'a str) -> &'a str {
        let raw = self.raw(line);
        raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default()
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

/// What a scan reports of the root object's members: asked about each
/// member's name, it answers whether it wants the member's value, and is
/// then given it. A member given twice is reported twice, in order.
///
/// It may also open a wanted member whose value is an object: that
/// object's members are then reported the same way (asked with
/// `wants_in`), before the value that holds them, down to
/// [`OPENED_LEVELS`] levels below the root. So the rules read
/// `params._meta.progressToken` or `error.code` from the line's one scan.
pub(crate) trait TopLevel {
    /// What the reader of the members keeps to know a wanted member again.
    type Wanted: Copy;

    /// Whether the member whose name's text between its quotes, as it stands
    /// in the line, is `raw` is wanted. `escapes` is false when `raw`
    /// certainly holds no backslash.
    fn wants(&mut self, raw: &[u8], escapes: bool) -> Option<Self::Wanted>;

    /// Whether the members of `member`'s value, when it is an object, are
    /// reported too.
    #[inline(always)]
    fn opens(&self, member: Self::Wanted) -> bool {
        let _ = member;
        false
    }

    /// As `wants`, for a member of the object that is the value of the
    /// opened member `object`.
    #[inline(always)]
    fn wants_in(&mut self, object: Self::Wanted, raw: &[u8], escapes: bool) -> Option<Self::Wanted> {
        let _ = (object, raw, escapes);
        None
    }

    /// The value of a wanted member.
    fn value(&mut self, member: Self::Wanted, value: Value);

    /// Forgets every member reported so far: the stepwise scanner is about to
    /// read a line that the structural one did not take.
    fn clear(&mut self);
}

/// How many levels below the root the scanners open objects for a
/// `TopLevel`: members of the root (level 1) and of an object opened there
/// (level 2) may be opened; the members of a level 2 object are reported,
/// not opened. A bound, so that opening costs no unbounded stack.
pub(crate) const OPENED_LEVELS: usize = 2;

/// The scanner's findings for one valid line, but for its members.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scanned<'a> {
    /// The line, now known to be UTF-8.
    pub text: &'a str,
    pub root: Root,
    /// Whether the line may hold a backslash (false: no text needs
    /// decoding).
    pub escapes: bool,
    /// How deep the line nests: 1 for a root object or array with no
    /// container inside, 0 for a scalar or nothing.
    pub depth: usize,
    /// Whether a number of the line is beyond a double's range: read as
    /// a double (rounded to the nearest), it is infinite.
    pub huge_number: bool,
    /// Whether a string of the line may escape a UTF-16 surrogate
    /// (`\uD800` to `\uDFFF`; false: none does, so none is lone).
    pub surrogates: bool,
    /// Whether a tab, LF or CR may stand between the line's tokens (false:
    /// only spaces do, and the line has no CR at all).
    pub control_whitespace: bool,
}

/// Scans one line: validates it as a single JSON text in UTF-8 and reports
/// the members of a root object to `top`.
pub(crate) fn scan<'a, T: TopLevel>(line: &'a [u8], top: &mut T) -> Result<Scanned<'a>, ScanError> {
    if let Some(scanned) = structural::scan(line, top) {
        return Ok(scanned);
    }
    top.clear();
    // One check up front, so that strings need only look for quotes,
    // escapes and control bytes, and invalid UTF-8 is named first.
    let text = utf8::text(line)?;
    let (root, depth, huge_number) = stepwise::scan(line, top)?;
    // The stepwise scanner does not look for surrogate escapes or control
    // whitespace: it says "may" (the rules then look for themselves).
    Ok(Scanned { text, root, escapes: true, depth, huge_number, surrogates: true, control_whitespace: true })
}

/// Whether `bytes` are one valid JSON text (whitespace around it allowed).
pub(crate) fn is_json(bytes: &[u8]) -> Result<bool, crate::fallible::OutOfMemory> {
    match scan(bytes, &mut Nothing) {
        Ok(scanned) => Ok(scanned.root != Root::Nothing),
        Err(ScanError::Parse(_)) => Ok(false),
        Err(ScanError::OutOfMemory) => Err(crate::fallible::OutOfMemory),
    }
}

/// Wants no member.
struct Nothing;

impl TopLevel for Nothing {
    type Wanted = ();
    fn wants(&mut self, _: &[u8], _: bool) -> Option<()> {
        None
    }
    fn value(&mut self, (): (), _: Value) {}
    fn clear(&mut self) {}
}

/// Every member of the root object, and of every object below it down to
/// `OPENED_LEVELS`: the member it stands in (`None` for the root's), its
/// name as it stands in the line, and its value.
#[cfg(any(test, feature = "fuzzing"))]
#[derive(Debug, Default, PartialEq, Eq)]
struct Everything {
    members: Vec<(Option<usize>, Vec<u8>, Option<Value>)>,
}

#[cfg(any(test, feature = "fuzzing"))]
impl TopLevel for Everything {
    type Wanted = usize;
    fn wants(&mut self, raw: &[u8], _: bool) -> Option<usize> {
        self.members.push((None, raw.to_vec(), None));
        Some(self.members.len() - 1)
    }
    fn opens(&self, _: usize) -> bool {
        true
    }
    fn wants_in(&mut self, object: usize, raw: &[u8], _: bool) -> Option<usize> {
        self.members.push((Some(object), raw.to_vec(), None));
        Some(self.members.len() - 1)
    }
    fn value(&mut self, at: usize, value: Value) {
        self.members[at].2 = Some(value);
    }
    fn clear(&mut self) {
        self.members.clear();
    }
}

/// What both scanners report of a valid line: its root, depth, whether a
/// number is huge, and every member down to `OPENED_LEVELS`.
#[cfg(any(test, feature = "fuzzing"))]
type Report = (Root, usize, bool, Everything);

/// Whether both scanners read `line` alike (the structural one with every
/// set of byte classes this CPU has, byte by byte included): it
/// takes exactly the lines that are UTF-8 and that the stepwise one finds
/// valid, with the same root, depth, huge numbers and members (those of
/// opened objects too), and knows, as the simple references below do,
/// whether a line has a backslash, a surrogate escape, and a tab, LF or CR
/// between its tokens. For the unit tests and the fuzz target `scanners`;
/// not part of the API.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn scanners_agree(line: &[u8]) -> bool {
    fn structural(line: &[u8], classes: impl byte_classes::ByteClasses) -> Option<Report> {
        let mut members = Everything::default();
        let found = structural::scan_with(line, classes, &mut members)?;
        let facts_hold = found.escapes == line.contains(&b'\\')
            && found.surrogates == escapes_a_surrogate(line)
            && found.control_whitespace == line.iter().any(|b| matches!(b, b'\t' | b'\n' | b'\r'))
            && found.text.as_bytes() == line;
        facts_hold.then_some((found.root, found.depth, found.huge_number, members))
    }
    let mut expected = Everything::default();
    let want = match std::str::from_utf8(line) {
        Ok(_) => stepwise::scan(line, &mut expected).ok().map(|(root, depth, huge)| (root, depth, huge, expected)),
        Err(_) => None,
    };
    #[cfg(target_arch = "x86_64")]
    {
        use byte_classes::{Avx2, Avx512};
        if Avx2::detect().is_some_and(|avx2| structural(line, avx2) != want)
            || Avx512::detect().is_some_and(|avx512| structural(line, avx512) != want)
        {
            return false;
        }
    }
    structural(line, byte_classes::Bytewise) == want
}

/// The simple reference for `Scanned::surrogates` on a valid line: some
/// `\u` escape (a `u` after an odd run of backslashes) names a unit from
/// D800 to DFFF.
#[cfg(any(test, feature = "fuzzing"))]
fn escapes_a_surrogate(line: &[u8]) -> bool {
    let mut backslashes = 0;
    for (at, &byte) in line.iter().enumerate() {
        if byte == b'u' && backslashes % 2 == 1 {
            let unit =
                line.get(at + 1..at + 5).and_then(|hex| u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
            if unit.is_some_and(|u| (0xD800..=0xDFFF).contains(&u)) {
                return true;
            }
        }
        backslashes = if byte == b'\\' { backslashes + 1 } else { 0 };
    }
    false
}

/// Whether the line-as-text check (`utf8.rs`, whose vector ASCII check
/// licenses an unchecked conversion) agrees with `std::str::from_utf8` on
/// `bytes`, the offset of a fault included. For the unit tests and the fuzz
/// target `utf8`; not part of the API.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub fn utf8_agrees(bytes: &[u8]) -> bool {
    let want = std::str::from_utf8(bytes).map_err(|e| ParseError::InvalidUtf8(e.valid_up_to()));
    utf8::text(bytes).map(str::as_ptr) == want.map(str::as_ptr)
}

#[cfg(test)]
mod tests;
