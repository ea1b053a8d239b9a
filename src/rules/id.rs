//! Ids as a host compares them (SPEC §3): the one comparison the session's
//! outstanding requests, the probe's judge and every binding use.

use super::{Classification, IdKind};
use crate::fallible::OutOfMemory;
use crate::scan;

/// A string or number id as a host compares it: a string by its decoded
/// text (`"\u0061"` is `"a"`), an integer by its value (`-0` is `0`, and
/// an integer past 64 bits by its digits), any other number by its text
/// (`1e2` is not `100`: a host that reads numbers as doubles would round
/// ids past 2^53, so no two spellings are taken for one). `null`, absent
/// and the kinds a request may not carry have no key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdKey(Repr);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Repr {
    Integer(i64),
    /// An integer past 64 bits: its digits, `-` first when negative.
    LongInteger(String),
    /// A number with a fraction or an exponent: its text.
    OtherNumber(String),
    String(String),
}

impl IdKey {
    /// The key of a line's id, or `None`.
    pub fn of(c: &Classification<'_>) -> Option<IdKey> {
        IdKey::try_of(c).unwrap_or_else(|OutOfMemory| crate::fallible::abort())
    }

    /// [`IdKey::of`], failing instead of aborting when memory runs out.
    pub fn try_of(c: &Classification<'_>) -> Result<Option<IdKey>, OutOfMemory> {
        let Some(raw) = c.id else { return Ok(None) };
        Ok(Some(IdKey(match c.id_kind {
            IdKind::Number => match raw.parse::<i64>() {
                Ok(value) => Repr::Integer(value),
                Err(_) if is_integer(raw) => Repr::LongInteger(owned(raw)?),
                Err(_) => Repr::OtherNumber(owned(raw)?),
            },
            IdKind::String => {
                let inner = raw.get(1..raw.len() - 1).unwrap_or_default();
                let mut decoded = String::new();
                decoded.try_reserve_exact(scan::decoded_len(inner))?;
                scan::decode(inner, |piece| decoded.push_str(piece));
                Repr::String(decoded)
            }
            _ => return Ok(None),
        })))
    }
}

/// Whether two lines carry the same id, as a host compares ids: both have
/// a key ([`IdKey`]) and the keys are equal. Two `null` ids are not the
/// same id (no request can be told by one).
pub fn same_id(a: &Classification<'_>, b: &Classification<'_>) -> bool {
    match (IdKey::of(a), IdKey::of(b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn is_integer(raw: &str) -> bool {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn owned(text: &str) -> Result<String, OutOfMemory> {
    let mut out = String::new();
    out.try_reserve_exact(text.len())?;
    out.push_str(text);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classify;

    fn request(id: &str) -> String {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#)
    }

    fn same(a: &str, b: &str) -> bool {
        let (a, b) = (request(a), request(b));
        same_id(&classify(a.as_bytes()), &classify(b.as_bytes()))
    }

    #[test]
    fn ids_match_as_a_host_matches_them() {
        for (a, b) in [("7", "7"), ("-0", "0"), (r#""a""#, r#""\u0061""#), ("1.5", "1.5")] {
            assert!(same(a, b), "{a} {b}");
        }
        let long = "12345678901234567890123";
        assert!(same(long, long));
        for (a, b) in [
            (long, "12345678901234567000000"),
            ("1e2", "100"),
            ("1", r#""1""#),
            ("1", "2"),
            ("null", "null"),
            ("-12345678901234567890123", long),
        ] {
            assert!(!same(a, b), "{a} {b}");
        }
        let response = br#"{"jsonrpc":"2.0","id":"\u0061","result":{}}"#;
        assert!(same_id(&classify(response), &classify(request(r#""a""#).as_bytes())));
    }
}
