//! The stepwise scanner: one token at a time, byte by byte between strings.
//! It is the portable path (CPUs without the structural scanner's
//! instructions), and the one that explains a fault: the structural scanner
//! only says that a line is invalid, and this one then names the byte.

use super::nesting::Nesting;
use super::scalars::{exceeds_double, literal_end, number_end, unexpected};
use super::{OPENED_LEVELS, ParseError, Root, ScanError, Span, TopLevel, Value, ValueKind, string_end};

/// Scans `line`, already known to be UTF-8, reporting the members of a root
/// object to `top`; returns what the whole line holds, how deep it nests
/// (the root object or array is level 1), and whether a number of it is
/// beyond a double's range.
pub(super) fn scan<T: TopLevel>(line: &[u8], top: &mut T) -> Result<(Root, usize, bool), ScanError> {
    let mut scanner = Scanner { bytes: line, pos: 0, nesting: Nesting::default(), deepest: 0, huge_number: false };
    scanner.skip_whitespace();
    let root = match scanner.peek() {
        None => Root::Nothing,
        Some(b'{') => {
            scanner.object(top, None, 0)?;
            Root::Object
        }
        Some(_) => match scanner.value(0)? {
            ValueKind::Array => Root::Array,
            scalar => Root::Scalar(scalar),
        },
    };
    scanner.skip_whitespace();
    if scanner.pos != line.len() {
        return Err(scanner.unexpected().into());
    }
    let depth = scanner.deepest + usize::from(root == Root::Object);
    Ok((root, depth, scanner.huge_number))
}

fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    nesting: Nesting,
    /// The deepest nesting of the containers read so far, the root not
    /// counted.
    deepest: usize,
    /// Whether a number seen is beyond a double's range.
    huge_number: bool,
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

impl Scanner<'_> {
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
        unexpected(self.bytes, self.pos)
    }

    fn expect(&mut self, want: u8) -> Result<(), ParseError> {
        if self.peek() == Some(want) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    /// An object, `level` levels below the root (the root itself is level
    /// 0), reporting its members to `top`: the root's with `wants`, an
    /// opened one's (`object` is the member it is the value of) with
    /// `wants_in`. Recursion is bounded by `OPENED_LEVELS`.
    fn object<T: TopLevel>(&mut self, top: &mut T, object: Option<T::Wanted>, level: usize) -> Result<(), ScanError> {
        self.deepest = self.deepest.max(level);
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.unexpected().into());
            }
            let name_start = self.pos + 1;
            self.string()?;
            let raw_name = &self.bytes[name_start..self.pos - 1];
            let wanted = match object {
                None => top.wants(raw_name, true),
                Some(object) => top.wants_in(object, raw_name, true),
            };
            self.skip_whitespace();
            self.expect(b':')?;
            self.skip_whitespace();
            let value_start = self.pos;
            let kind = match self.peek() {
                Some(b'{') if level < OPENED_LEVELS && wanted.is_some_and(|w| top.opens(w)) => {
                    self.object(top, wanted, level + 1)?;
                    ValueKind::Object
                }
                _ => self.value(level)?,
            };
            if let Some(wanted) = wanted {
                let span = Span { offset: value_start, len: self.pos - value_start };
                top.value(wanted, Value { span, kind });
            }
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected().into()),
            }
        }
    }

    /// Any value (of a member of an object `level` levels below the root);
    /// nested containers are validated without recursion.
    fn value(&mut self, level: usize) -> Result<ValueKind, ScanError> {
        match self.peek() {
            Some(b'{') => self.container(level).map(|()| ValueKind::Object),
            Some(b'[') => self.container(level).map(|()| ValueKind::Array),
            Some(b'"') => Ok(self.string().map(|()| ValueKind::String)?),
            _ => Ok(self.scalar()?),
        }
    }

    /// A number, `true`, `false` or `null`.
    fn scalar(&mut self) -> Result<ValueKind, ParseError> {
        let (end, kind) = match self.peek() {
            Some(b'-' | b'0'..=b'9') => {
                let end = number_end(self.bytes, self.pos)?;
                self.huge_number |= exceeds_double(&self.bytes[self.pos..end]);
                (end, ValueKind::Number)
            }
            Some(b't') => (literal_end(self.bytes, self.pos, b"true")?, ValueKind::Boolean),
            Some(b'f') => (literal_end(self.bytes, self.pos, b"false")?, ValueKind::Boolean),
            Some(b'n') => (literal_end(self.bytes, self.pos, b"null")?, ValueKind::Null),
            _ => return Err(self.unexpected()),
        };
        self.pos = end;
        Ok(kind)
    }

    /// A string, from its opening quote to just past its closing one.
    fn string(&mut self) -> Result<(), ParseError> {
        let (end, _) = string_end(self.bytes, self.pos + 1)?;
        self.pos = end;
        Ok(())
    }

    /// An object or array and everything inside it, at any depth. The open
    /// containers live in `self.nesting`, one bit each.
    fn container(&mut self, level: usize) -> Result<(), ScanError> {
        self.nesting.clear();
        self.nested()?;
        self.deepest = self.deepest.max(level + self.nesting.deepest());
        Ok(())
    }

    /// The inside of `container`.
    fn nested(&mut self) -> Result<(), ScanError> {
        let mut expect = self.open(self.peek() == Some(b'{'))?;
        loop {
            self.skip_whitespace();
            let Some(byte) = self.peek() else {
                return Err(self.unexpected().into());
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
                (Expect::FirstMemberOrClose | Expect::Member, _) => return Err(self.unexpected().into()),
                (Expect::FirstElementOrClose | Expect::Value, b'{' | b'[') => self.open(byte == b'{')?,
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
                        _ => return Err(self.unexpected().into()),
                    }
                }
            };
        }
    }

    /// Enters the object or array whose opening byte is at `pos`.
    fn open(&mut self, object: bool) -> Result<Expect, ScanError> {
        self.nesting.push(object)?;
        self.pos += 1;
        Ok(if object { Expect::FirstMemberOrClose } else { Expect::FirstElementOrClose })
    }

    /// Leaves the container whose closing byte is at `pos`; `None` once the
    /// outermost one is closed.
    fn close(&mut self) -> Option<Expect> {
        self.pos += 1;
        self.nesting.pop();
        (!self.nesting.is_empty()).then_some(Expect::CommaOrClose)
    }
}
