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

/// Whether the number `token` (valid) is beyond a double's range: read as a
/// double (rounded to the nearest), it is infinite, which decoders that read
/// numbers as doubles (serde_json, so rmcp) refuse. Most numbers have no
/// exponent and fewer digits than a double's largest integer part (309):
/// those cannot be, and need no closer look; of the rest, only one whose
/// digits before the point and exponent add up past 308 is read as a
/// double.
#[inline(always)]
pub(super) fn exceeds_double(token: &[u8]) -> bool {
    (token.len() > 309 || token.iter().any(|&b| b | 0x20 == b'e')) && past_308(token)
}

/// The closer look of `exceeds_double`.
#[cold]
fn past_308(token: &[u8]) -> bool {
    let digits = token.iter().skip_while(|&&b| b == b'-').take_while(|b| b.is_ascii_digit()).count() as i64;
    let exponent = match token.iter().position(|&b| b | 0x20 == b'e') {
        // At most a few digits matter: an exponent past ±10^9 saturates.
        Some(e) => {
            let (negative, digits) = match token.get(e + 1) {
                Some(b'-') => (true, &token[e + 2..]),
                Some(b'+') => (false, &token[e + 2..]),
                _ => (false, &token[e + 1..]),
            };
            let value = digits.iter().fold(0i64, |n, &d| (n * 10 + i64::from(d - b'0')).min(1_000_000_000));
            if negative { -value } else { value }
        }
        None => 0,
    };
    // Below 10^(digits + exponent) <= 10^308 < f64::MAX: finite for sure.
    digits + exponent > 308
        && std::str::from_utf8(token).ok().and_then(|t| t.parse::<f64>().ok()).is_some_and(f64::is_infinite)
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
