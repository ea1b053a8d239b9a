//! The structural scanner, the fast path for valid lines: the grammar runs
//! over token starts only (`token_starts.rs`), never over the bytes between
//! them. Runs of members or elements whose values are scalars or strings
//! are read in a loop of their own; only a container that opens or closes
//! changes the state (as in simdjson's stage 2), and the open containers
//! live in a bit stack, not in calls.
//!
//! It answers only "valid, with these members", or "not taken": for an
//! invalid line the stepwise scanner runs and names the fault. So it must
//! never take an invalid line, and must find exactly the members the
//! stepwise scanner finds; the tests hold both against each other.
#![allow(unsafe_code)]

use super::byte_classes::ByteClasses;
use super::nesting::Nesting;
use super::scalars::{exceeds_double, literal_end, number_end};
use super::token_starts::{Batch, TokenStarts};
use super::{OPENED_LEVELS, Root, Scanned, Span, TopLevel, Value, ValueKind};

/// When `line` is one valid JSON text in UTF-8: what it holds, with the
/// members of a root object reported to `top`. `None` when it is not, or
/// when this CPU has no vector path (`top` may then have been told
/// anything): there the stepwise scanner takes every line.
#[inline]
pub(super) fn scan<'a, T: TopLevel>(line: &'a [u8], top: &mut T) -> Option<Scanned<'a>> {
    #[cfg(target_arch = "x86_64")]
    {
        use super::byte_classes::{Avx2, Avx512};
        if let Some(avx512) = Avx512::detect() {
            // SAFETY: the CPU has the features `scan_avx512` enables, since
            // `avx512` exists.
            return unsafe { x86::scan_avx512(line, avx512, top) };
        }
        if let Some(avx2) = Avx2::detect() {
            // SAFETY: the CPU has the features `scan_avx2` enables, since
            // `avx2` exists.
            return unsafe { x86::scan_avx2(line, avx2, top) };
        }
    }
    None
}

/// The whole scan compiled with each vector path's instructions enabled, so
/// that the byte classes' intrinsics inline into the block loop.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::byte_classes::{Avx2, Avx512};
    use super::{Scanned, TopLevel, scan_with};

    #[target_feature(enable = "avx2,pclmulqdq")]
    pub(super) fn scan_avx2<'a, T: TopLevel>(line: &'a [u8], avx2: Avx2, top: &mut T) -> Option<Scanned<'a>> {
        scan_with(line, avx2, top)
    }

    #[target_feature(enable = "avx512f,avx512bw,avx2,pclmulqdq")]
    pub(super) fn scan_avx512<'a, T: TopLevel>(line: &'a [u8], avx512: Avx512, top: &mut T) -> Option<Scanned<'a>> {
        scan_with(line, avx512, top)
    }
}

/// The whole scan, with `classes` computing the byte classes of a block.
#[inline(always)]
pub(super) fn scan_with<'a, C: ByteClasses, T: TopLevel>(
    line: &'a [u8],
    classes: C,
    top: &mut T,
) -> Option<Scanned<'a>> {
    let starts = TokenStarts::new(classes.utf8());
    let mut tokens = Tokens {
        line,
        classes,
        starts,
        batch: Batch::default(),
        taken: 0,
        base: 0,
        bits: 0,
        deepest: 0,
        huge_number: false,
    };
    let root = match tokens.next() {
        None => Root::Nothing,
        Some((_, b'{')) => {
            object(&mut tokens, top, None, 0)?;
            Root::Object
        }
        Some((_, b'[')) => {
            container(&mut tokens, false, 0)?;
            Root::Array
        }
        Some((pos, byte)) => {
            tokens.huge_number |= scalar(line, pos, byte)?;
            Root::Scalar(ValueKind::starting_with(byte))
        }
    };
    if tokens.next().is_some() || !tokens.starts.ended_cleanly(line) {
        return None;
    }
    // SAFETY: every block of the line was checked for UTF-8 on the way
    // (`TokenStarts::next_block`), and `ended_cleanly` found no fault.
    let text = unsafe { std::str::from_utf8_unchecked(line) };
    let depth = tokens.deepest + usize::from(root == Root::Object);
    let starts = &tokens.starts;
    Some(Scanned {
        text,
        root,
        escapes: starts.seen_backslash,
        depth,
        huge_number: tokens.huge_number,
        surrogates: starts.seen_surrogate,
        control_whitespace: starts.seen_control,
    })
}

/// The token starts of a line, in order.
struct Tokens<'a, C: ByteClasses> {
    line: &'a [u8],
    classes: C,
    starts: TokenStarts<C::Utf8>,
    /// The blocks classified last, and how many of them were taken.
    batch: Batch,
    taken: usize,
    /// Where the block of `bits` starts.
    base: usize,
    /// The starts in that block not yet taken.
    bits: u64,
    /// The deepest nesting of the containers read so far, the root not
    /// counted.
    deepest: usize,
    /// Whether a number seen is beyond a double's range.
    huge_number: bool,
}

impl<C: ByteClasses> Tokens<'_, C> {
    /// The next token's position and first byte; `None` at the end of the
    /// line or at a fault.
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, u8)> {
        if self.bits == 0 {
            if self.taken == self.batch.len {
                self.starts.next_batch(self.classes, self.line, &mut self.batch);
                self.taken = 0;
                if self.batch.len == 0 {
                    return None;
                }
            }
            self.base = self.batch.bases[self.taken];
            self.bits = self.batch.starts[self.taken];
            self.taken += 1;
        }
        let pos = self.base + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some((pos, *self.line.get(pos)?))
    }

    /// The next token, which must be `byte`.
    #[inline(always)]
    fn expect(&mut self, byte: u8) -> Option<usize> {
        self.next().filter(|&(_, b)| b == byte).map(|(pos, _)| pos)
    }
}

/// An object just past its `{`, `level` levels below the root (the root
/// itself is level 0), reporting its members to `top`: the root's with
/// `wants`, an opened one's (`object` is the member it is the value of)
/// with `wants_in`.
#[inline(always)]
fn object<C: ByteClasses, T: TopLevel>(
    tokens: &mut Tokens<'_, C>,
    top: &mut T,
    object: Option<T::Wanted>,
    level: usize,
) -> Option<()> {
    let line = tokens.line;
    tokens.deepest = tokens.deepest.max(level);
    let (mut name, byte) = tokens.next()?;
    if byte == b'}' {
        return Some(());
    }
    if byte != b'"' {
        return None;
    }
    loop {
        let colon = tokens.expect(b':')?;
        // Only whitespace stands between a string's closing quote and the
        // next token.
        let raw_name = line.get(name + 1..trim_end(line, colon).saturating_sub(1))?;
        let escapes = tokens.starts.seen_backslash;
        let wanted = match object {
            None => top.wants(raw_name, escapes),
            Some(object) => top.wants_in(object, raw_name, escapes),
        };
        let (start, first) = tokens.next()?;
        match first {
            b'{' if level < OPENED_LEVELS && wanted.is_some_and(|w| top.opens(w)) => {
                opened(tokens, top, wanted, level + 1)?
            }
            b'{' | b'[' => container(tokens, first == b'{', level)?,
            _ => tokens.huge_number |= scalar(line, start, first)?,
        }
        let (after, byte) = tokens.next()?;
        if let Some(wanted) = wanted {
            let span = Span { offset: start, len: trim_end(line, after).saturating_sub(start) };
            top.value(wanted, Value { span, kind: ValueKind::starting_with(first) });
        }
        match byte {
            b',' => name = tokens.expect(b'"')?,
            b'}' => return Some(()),
            _ => return None,
        }
    }
}

/// An opened object (rare: the root's copy of `object` stays inline).
#[inline(never)]
fn opened<C: ByteClasses, T: TopLevel>(
    tokens: &mut Tokens<'_, C>,
    top: &mut T,
    member: Option<T::Wanted>,
    level: usize,
) -> Option<()> {
    object(tokens, top, member, level)
}

/// Where the grammar is in the innermost open container.
#[derive(Clone, Copy)]
enum State {
    /// Just past its opening bracket.
    Opened,
    /// Just past a value in it.
    AfterValue,
}

/// An object or array, just past its opening bracket, with everything
/// inside it, at any depth; the value of a member of an object `level`
/// levels below the root.
#[inline(always)]
fn container<C: ByteClasses>(tokens: &mut Tokens<'_, C>, object: bool, level: usize) -> Option<()> {
    let mut nesting = Nesting::default();
    nesting.push(object).ok()?;
    let mut state = State::Opened;
    loop {
        let (pos, byte) = tokens.next()?;
        let in_object = nesting.in_object();
        let first = match (state, byte) {
            (State::Opened, b'}') if in_object => None,
            (State::Opened, b']') if !in_object => None,
            (State::Opened, _) => Some((pos, byte)),
            (State::AfterValue, b',') => Some(tokens.next()?),
            (State::AfterValue, b'}') if in_object => None,
            (State::AfterValue, b']') if !in_object => None,
            (State::AfterValue, _) => return None,
        };
        let opened = match first {
            None => None,
            Some(first) if in_object => members(tokens, first)?,
            Some(first) => elements(tokens, first)?,
        };
        match opened {
            Some(object) => {
                // Out of memory: not taken; the stepwise scanner reports it.
                nesting.push(object).ok()?;
                state = State::Opened;
            }
            None => {
                nesting.pop();
                if nesting.is_empty() {
                    tokens.deepest = tokens.deepest.max(level + nesting.deepest());
                    return Some(());
                }
                state = State::AfterValue;
            }
        }
    }
}

/// The members of an object from the first one, at `first`: until one's
/// value opens a container (`Some(object)`: whether it is an object) or the
/// object closes (`None`).
#[inline(always)]
fn members<C: ByteClasses>(tokens: &mut Tokens<'_, C>, first: (usize, u8)) -> Option<Option<bool>> {
    let line = tokens.line;
    let mut name = first;
    loop {
        if name.1 != b'"' {
            return None;
        }
        tokens.expect(b':')?;
        match tokens.next()? {
            (_, b'{') => return Some(Some(true)),
            (_, b'[') => return Some(Some(false)),
            (pos, byte) => tokens.huge_number |= scalar(line, pos, byte)?,
        }
        match tokens.next()? {
            (_, b',') => name = tokens.next()?,
            (_, b'}') => return Some(None),
            _ => return None,
        }
    }
}

/// The elements of an array from the first one, at `first`: as `members`.
#[inline(always)]
fn elements<C: ByteClasses>(tokens: &mut Tokens<'_, C>, first: (usize, u8)) -> Option<Option<bool>> {
    let line = tokens.line;
    let mut element = first;
    loop {
        match element {
            (_, b'{') => return Some(Some(true)),
            (_, b'[') => return Some(Some(false)),
            (pos, byte) => tokens.huge_number |= scalar(line, pos, byte)?,
        }
        match tokens.next()? {
            (_, b',') => element = tokens.next()?,
            (_, b']') => return Some(None),
            _ => return None,
        }
    }
}

/// A string, number, `true`, `false` or `null` that starts at `pos` with
/// `byte`. A string's contents were checked with its blocks' bits, and its
/// end is where the next token starts. Returns whether it is a number
/// beyond a double's range.
#[inline(always)]
fn scalar(line: &[u8], pos: usize, byte: u8) -> Option<bool> {
    let (end, number) = match byte {
        b'"' => return Some(false),
        b't' => (literal_end(line, pos, b"true").ok()?, false),
        b'f' => (literal_end(line, pos, b"false").ok()?, false),
        b'n' => (literal_end(line, pos, b"null").ok()?, false),
        _ => (number_end(line, pos).ok()?, true),
    };
    // The scalar's bytes run on to the next whitespace or operator; its
    // grammar must have used all of them.
    match line.get(end) {
        Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'}' | b']' | b':' | b'{' | b'[') | None => {
            Some(number && exceeds_double(&line[pos..end]))
        }
        Some(_) => None,
    }
}

/// The end of `line[..end]` without its trailing whitespace, where `end`
/// is a token's start: what stands before it is whitespace or a token's
/// last byte, and of those only whitespace is at most a space (a control
/// byte there starts a token of its own, which the grammar refuses).
#[inline(always)]
fn trim_end(line: &[u8], mut end: usize) -> usize {
    while end > 0 && line[end - 1] <= b' ' {
        end -= 1;
    }
    end
}
