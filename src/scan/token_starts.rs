//! Where tokens start, block by block (the method of simdjson's stage 1):
//! from the byte classes of a 64-byte block, which bytes are escaped, which
//! lie inside strings, and which start a token: every operator, and every
//! other byte outside strings and whitespace that does not continue a
//! scalar (an opening quote, a digit, a letter). Escapes and control bytes
//! inside strings are checked here, so string contents are never visited
//! one by one.
//!
//! Each block's UTF-8 is checked here too (`Utf8`), so that the line's
//! bytes are read once.
//!
//! Every bit at byte `i` depends only on bytes `0..=i`. So up to the first
//! fault of an invalid line the bits read it as the grammar does, and the
//! fault itself is caught: here (a bad escape, a control byte in a string,
//! an open string at the end), or by the grammar at a token start, or by a
//! scalar's end check (a scalar's bytes run on to the next whitespace or
//! operator, and its grammar must use them all).

use super::byte_classes::{ByteClasses, Stops};
use super::utf8::Utf8;

/// How many blocks one call classifies, at most: a call costs some
/// instructions of its own, and a batch shares them.
pub(super) const BATCH: usize = 4;

/// The blocks of one call that have token starts: where each starts, and a
/// bit for each token start in it.
#[derive(Debug, Default)]
pub(super) struct Batch {
    pub len: usize,
    pub bases: [usize; BATCH],
    pub starts: [u64; BATCH],
}

/// What carries from one block to the next.
#[derive(Debug, Default)]
pub(super) struct TokenStarts<U> {
    /// The UTF-8 check of the blocks so far.
    utf8: U,
    /// Where the next block starts.
    next: usize,
    /// 1 when the next block's first byte is escaped.
    escaped: u64,
    /// All ones when the next block starts inside a string.
    in_string: u64,
    /// 1 when the last block ended in a scalar's byte (so the next block's
    /// first byte, if also one, continues that scalar).
    scalar: u64,
    /// A backslash was seen: member names may need decoding.
    pub seen_backslash: bool,
    /// A `\u` escape of a UTF-16 surrogate (D800 to DFFF) was seen.
    pub seen_surrogate: bool,
    /// A control byte was seen outside strings (inside one it is a fault):
    /// a tab, LF or CR between tokens.
    pub seen_control: bool,
    /// A block held a bad escape or a control byte inside a string.
    fault: bool,
}

impl<U: Utf8> TokenStarts<U> {
    pub(super) fn new(utf8: U) -> TokenStarts<U> {
        TokenStarts {
            utf8,
            next: 0,
            escaped: 0,
            in_string: 0,
            scalar: 0,
            seen_backslash: false,
            seen_surrogate: false,
            seen_control: false,
            fault: false,
        }
    }

    /// The next blocks of `line` that have token starts, up to `BATCH`;
    /// none at the end of the line, or at a fault.
    #[inline(always)]
    pub(super) fn next_batch<C: ByteClasses>(&mut self, classes: C, line: &[u8], batch: &mut Batch) {
        batch.len = 0;
        while batch.len < BATCH
            && let Some((base, starts)) = self.next_block(classes, line)
        {
            batch.bases[batch.len] = base;
            batch.starts[batch.len] = starts;
            batch.len += 1;
        }
    }

    /// The next block of `line` that has token starts: where it starts, and
    /// a bit for each. `None` at the end of the line, or at a fault.
    #[inline(always)]
    fn next_block<C: ByteClasses>(&mut self, classes: C, line: &[u8]) -> Option<(usize, u64)> {
        while self.next < line.len() {
            let base = self.next;
            self.next += 64;
            let padded;
            let (block, past_end) = match (line[base..].first_chunk::<64>(), line.last_chunk::<64>()) {
                (Some(block), _) => {
                    self.utf8.block(block, base);
                    (block, 0)
                }
                // The last 64 bytes of the line, and a shift that drops
                // those already seen.
                (None, Some(last)) => {
                    let past_end = base + 64 - line.len();
                    self.utf8.tail(line, base, last, past_end);
                    (last, past_end)
                }
                (None, None) => {
                    padded = padded_block(line);
                    self.utf8.block(&padded, base);
                    (&padded, 0)
                }
            };
            let stops = classes.stops(block).shifted(past_end);
            if self.all_text(&stops) {
                continue;
            }
            match self.starts(classes, &stops, (block, past_end), line, base) {
                None => {
                    self.fault = true;
                    return None;
                }
                Some(0) => {}
                Some(starts) => return Some((base, starts)),
            }
        }
        None
    }

    /// After the last block of `line`: whether no fault was found, no
    /// string is left open, and the line is UTF-8.
    pub(super) fn ended_cleanly(&self, line: &[u8]) -> bool {
        !self.fault && self.in_string == 0 && self.utf8.valid(line)
    }

    /// Whether the block is all string text, inside a string that goes on
    /// past it: no token starts there, and nothing else needs checking.
    #[inline(always)]
    fn all_text(&self, stops: &Stops) -> bool {
        self.in_string != 0 && self.escaped == 0 && (stops.quote | stops.backslash | stops.control) == 0
    }

    /// The token starts of the block at `base`; `None` when it holds a bad
    /// escape or a control byte inside a string.
    #[inline(always)]
    fn starts<C: ByteClasses>(
        &mut self,
        classes: C,
        stops: &Stops,
        (block, past_end): (&[u8; 64], usize),
        line: &[u8],
        base: usize,
    ) -> Option<u64> {
        self.seen_backslash |= stops.backslash != 0;
        let escaped = self.escaped_bytes(stops.backslash);
        if escaped != 0 {
            // The escapes of one character are settled by the block's bits;
            // only `\u` escapes (and bad ones) are read one by one.
            let others = escaped & !(classes.simple_escapes(block) >> past_end);
            if others != 0 {
                self.seen_surrogate |= escapes_are_valid(line, base, others)?;
            }
        }
        let quote = stops.quote & !escaped;
        if self.in_string != 0 && quote == 0 {
            // Text with escapes, inside a string that goes on past it.
            return (stops.control == 0).then_some(0);
        }
        let layout = classes.layout(block).shifted(past_end);
        let in_string = classes.prefix_xor(quote) ^ self.in_string;
        self.in_string = ((in_string as i64) >> 63) as u64;
        if stops.control & in_string != 0 {
            return None;
        }
        self.seen_control |= stops.control != 0;
        // From just past an opening quote to the closing one included.
        let string_tail = in_string ^ quote;
        let scalar = !(layout.whitespace | layout.operator);
        let unquoted_scalar = scalar & !quote;
        let continues = unquoted_scalar << 1 | self.scalar;
        self.scalar = unquoted_scalar >> 63;
        Some((layout.operator | (scalar & !continues)) & !string_tail)
    }

    /// The bytes that follow an odd run of backslashes (simdjson's
    /// branchless method): the escaped byte of each escape, including the
    /// second backslash of `\\`.
    #[inline(always)]
    pub(super) fn escaped_bytes(&mut self, backslash: u64) -> u64 {
        const EVEN: u64 = 0x5555_5555_5555_5555;
        if backslash == 0 {
            return std::mem::take(&mut self.escaped);
        }
        // A first byte escaped by the previous block is not an escape.
        let backslash = backslash & !self.escaped;
        let follows_escape = backslash << 1 | self.escaped;
        let odd_starts = backslash & !EVEN & !follows_escape;
        let (even_runs, overflow) = odd_starts.overflowing_add(backslash);
        self.escaped = u64::from(overflow);
        (EVEN ^ (even_runs << 1)) & follows_escape
    }
}

/// A line shorter than a block, padded with spaces: whitespace outside a
/// string starts no token, and inside one the string is open at the end
/// anyway. Copied in fixed-size pieces, which compile to a few moves.
fn padded_block(line: &[u8]) -> [u8; 64] {
    fn copy<const N: usize>(block: &mut [u8; 64], line: &[u8]) {
        let n = line.len();
        block[..N].copy_from_slice(&line[..N]);
        block[n - N..n].copy_from_slice(&line[n - N..]);
    }
    let mut block = [b' '; 64];
    match line.len() {
        32.. => copy::<32>(&mut block, line),
        16.. => copy::<16>(&mut block, line),
        8.. => copy::<8>(&mut block, line),
        4.. => copy::<4>(&mut block, line),
        n => block[..n].copy_from_slice(line),
    }
    block
}

/// Whether every escaped byte in the block at `base` makes a valid escape:
/// one of `"\/bfnrt`, or `u` and four hex digits; if so, whether one of
/// them escapes a UTF-16 surrogate (`\uD800` to `\uDFFF`).
#[inline(always)]
fn escapes_are_valid(line: &[u8], base: usize, mut escaped: u64) -> Option<bool> {
    let mut surrogate = false;
    while escaped != 0 {
        let at = base + escaped.trailing_zeros() as usize;
        match line.get(at)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
            b'u' => {
                let hex = line.get(at + 1..at + 5)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
                surrogate |= hex[0] | 0x20 == b'd' && matches!(hex[1] | 0x20, b'8'..=b'9' | b'a'..=b'f');
            }
            _ => return None,
        }
        escaped &= escaped - 1;
    }
    Some(surrogate)
}
