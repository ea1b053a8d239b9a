//! The grammar of numbers and of `true`, `false` and `null`, shared by both
//! scanners so that they cannot disagree on a scalar.

use super::ParseError;

/// The error for the byte at `pos`, which is not what the grammar allows
/// there (or the end of the line).
pub(super) fn unexpected(bytes: &[u8], pos: usize) -> ParseError {
    match bytes.get(pos) {
        Some(&byte) => ParseError::Unexpected { at: pos, byte },
        None => ParseError::End(pos),
    }
}

/// Validates `word` at `pos`; returns the position just past it.
#[inline]
pub(super) fn literal_end(bytes: &[u8], pos: usize, word: &'static [u8]) -> Result<usize, ParseError> {
    if bytes.get(pos..pos + word.len()) == Some(word) {
        return Ok(pos + word.len());
    }
    let matched = word.iter().zip(&bytes[pos.min(bytes.len())..]).take_while(|(want, have)| want == have).count();
    Err(unexpected(bytes, pos + matched))
}

/// Whether the number `token` (valid) may lie beyond a double's range: it
/// has an exponent, or more digits than a double's largest integer part
/// (309). Most numbers have neither, and need no closer look.
#[inline(always)]
pub(super) fn may_exceed_double(token: &[u8]) -> bool {
    token.len() > 309 || token.iter().any(|&b| b | 0x20 == b'e')
}

/// Validates `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` at
/// `pos`; returns the position just past it.
#[inline(always)]
pub(super) fn number_end(bytes: &[u8], mut pos: usize) -> Result<usize, ParseError> {
    let at = |pos: usize| bytes.get(pos).copied();
    if at(pos) == Some(b'-') {
        pos += 1;
    }
    match at(pos) {
        Some(b'0') => pos += 1,
        Some(b'1'..=b'9') => pos = digits_end(bytes, pos + 1),
        _ => return Err(ParseError::BadNumber(pos)),
    }
    if at(pos) == Some(b'.') {
        pos = some_digits_end(bytes, pos + 1)?;
    }
    if matches!(at(pos), Some(b'e' | b'E')) {
        pos += 1;
        if matches!(at(pos), Some(b'+' | b'-')) {
            pos += 1;
        }
        pos = some_digits_end(bytes, pos)?;
    }
    Ok(pos)
}

fn digits_end(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    pos
}

fn some_digits_end(bytes: &[u8], pos: usize) -> Result<usize, ParseError> {
    if !bytes.get(pos).is_some_and(u8::is_ascii_digit) {
        return Err(ParseError::BadNumber(pos));
    }
    Ok(digits_end(bytes, pos + 1))
}
