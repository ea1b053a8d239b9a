//! SPEC §10.6: what the MCP profile reads of a line that is not one
//! readable message, so that a request whose id is in the line is still
//! answered by that id. A byte order mark before the line (a), the
//! elements of a batch (b), and the *readable members* of a damaged line
//! (c) or of a too-long line's first bytes (d).
//!
//! Only lines that already failed (a parse error, a batch, a line over the
//! limit) come here, so this is plain byte-at-a-time code, held against the
//! independent reference (`tests/vectors/mcp_reference.py`) by the vectors.

use super::members::Name;
use crate::fallible::{self, OutOfMemory};
use crate::scan::{self, Span, Value, ValueKind};

/// The UTF-8 byte order mark, which the MCP profile reads as nothing before
/// a line's first byte (SPEC §10.6 (a)).
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The members of a damaged line's outer object that the rules read, each
/// with its last readable value (SPEC §10.6 (c)).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Readable {
    pub id: Option<Value>,
    pub method: Option<Value>,
    /// A readable `result` or `error`, or one being read.
    pub answer: bool,
}

/// The readable members of `line` (a line after its byte order mark, if
/// it had one), read from its start up to the point of damage; `None` when
/// its first byte that is not whitespace is not `{`.
/// Fails only when the nesting of a value cannot be held.
pub(crate) fn readable(line: &[u8]) -> Result<Option<Readable>, OutOfMemory> {
    // Invalid UTF-8 is damage: read no further than the valid part.
    let valid = match std::str::from_utf8(line) {
        Ok(_) => line.len(),
        Err(e) => e.valid_up_to(),
    };
    let b = &line[..valid];
    let mut i = ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return Ok(None);
    }
    i += 1;
    let mut read = Readable::default();
    let mut nesting = Nesting::default();
    let mut first = true;
    loop {
        i = ws(b, i);
        if first && b.get(i) == Some(&b'}') {
            break;
        }
        if b.get(i) != Some(&b'"') {
            break;
        }
        let Ok((name_end, escaped)) = scan::string_end(b, i + 1) else { break };
        let name = Name::of_raw(&b[i + 1..name_end - 1], escaped);
        i = ws(b, name_end);
        if b.get(i) != Some(&b':') {
            break;
        }
        i = ws(b, i + 1);
        let answer = matches!(name, Some(Name::Result | Name::Error));
        let value_start = i;
        let Some(value_end) = value_end(b, i, &mut nesting)? else {
            read.answer |= answer;
            break;
        };
        i = ws(b, value_end);
        let Some(&after @ (b',' | b'}')) = b.get(i) else {
            read.answer |= answer;
            break;
        };
        let value = Value {
            span: Span { offset: value_start, len: value_end - value_start },
            kind: ValueKind::starting_with(b[value_start]),
        };
        match name {
            Some(Name::Id) => read.id = Some(value),
            Some(Name::Method) => read.method = Some(value),
            Some(Name::Result | Name::Error) => read.answer = true,
            _ => {}
        }
        if after == b'}' {
            break;
        }
        i += 1;
        first = false;
    }
    Ok(Some(read))
}

/// JSON whitespace from `i` on: the position of the next other byte.
fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Where the JSON value that starts at `i` ends, when it is whole and
/// valid before the end of `b`; `None` at the first byte that cannot
/// continue it. Never recurses: `nesting` holds the open containers.
fn value_end(b: &[u8], mut i: usize, nesting: &mut Nesting) -> Result<Option<usize>, OutOfMemory> {
    nesting.clear();
    loop {
        // A value at `i`.
        let mut whole = true;
        match b.get(i) {
            Some(b'"') => match scan::string_end(b, i + 1) {
                Ok((end, _)) => i = end,
                Err(_) => return Ok(None),
            },
            Some(&open @ (b'{' | b'[')) => {
                let close = if open == b'{' { b'}' } else { b']' };
                i = ws(b, i + 1);
                if b.get(i) == Some(&close) {
                    i += 1;
                } else {
                    nesting.push(close == b'}')?;
                    whole = false;
                    if close == b'}' {
                        let Some(at) = member_value(b, i) else { return Ok(None) };
                        i = at;
                    }
                }
            }
            Some(b't' | b'f' | b'n' | b'-' | b'0'..=b'9') => match scalar_end(b, i) {
                Some(end) => i = end,
                None => return Ok(None),
            },
            _ => return Ok(None),
        }
        if !whole {
            continue;
        }
        // After a whole value: close what it ends, or go on to the next.
        loop {
            let Some(object) = nesting.last() else { return Ok(Some(i)) };
            let close = if object { b'}' } else { b']' };
            i = ws(b, i);
            match b.get(i) {
                Some(&byte) if byte == close => {
                    nesting.pop();
                    i += 1;
                }
                Some(b',') => {
                    i = ws(b, i + 1);
                    if close == b'}' {
                        let Some(at) = member_value(b, i) else { return Ok(None) };
                        i = at;
                    }
                    break;
                }
                _ => return Ok(None),
            }
        }
    }
}

/// The open containers of a value being read, each an object or an array:
/// the first 1,024 on the stack, as the scanner keeps them, so that only a
/// value nested deeper than that needs memory.
#[derive(Default)]
struct Nesting {
    inline: [u64; 16],
    spill: Vec<u64>,
    depth: usize,
}

impl Nesting {
    const INLINE: usize = 16 * 64;

    fn clear(&mut self) {
        self.depth = 0;
        self.spill.clear();
    }

    fn push(&mut self, object: bool) -> Result<(), OutOfMemory> {
        let (word, bit) = (self.depth / 64, self.depth % 64);
        let slot = match self.inline.get_mut(word) {
            Some(slot) => slot,
            None => {
                let at = word - self.inline.len();
                if at == self.spill.len() {
                    fallible::push(&mut self.spill, 0)?;
                }
                &mut self.spill[at]
            }
        };
        *slot = (*slot & !(1 << bit)) | (u64::from(object) << bit);
        self.depth += 1;
        Ok(())
    }

    /// Whether the innermost open container is an object; `None` when none is open.
    fn last(&self) -> Option<bool> {
        let top = self.depth.checked_sub(1)?;
        let (word, bit) = (top / 64, top % 64);
        let slot = if top < Self::INLINE { self.inline[word] } else { self.spill[word - self.inline.len()] };
        Some(slot >> bit & 1 == 1)
    }

    fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// Past a member's name and `:`, from `i` (at the name's quote): where its
/// value starts.
fn member_value(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let (end, _) = scan::string_end(b, i + 1).ok()?;
    let colon = ws(b, end);
    (b.get(colon) == Some(&b':')).then(|| ws(b, colon + 1))
}

/// Past the literal or number at `i`, or `None` where it is not one.
fn scalar_end(b: &[u8], i: usize) -> Option<usize> {
    for word in [&b"true"[..], b"false", b"null"] {
        if b[i] == word[0] {
            return b[i..].starts_with(word).then_some(i + word.len());
        }
    }
    number_end(b, i)
}

/// Past the number at `i` (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`),
/// or `None` where it is not one.
fn number_end(b: &[u8], mut i: usize) -> Option<usize> {
    let digits = |b: &[u8], mut i: usize| {
        let from = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        (i > from).then_some(i)
    };
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(b, i)?,
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        i = digits(b, i + 1)?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(b, i)?;
    }
    Some(i)
}

/// The elements of a batch, a valid JSON array `text`, each as it stands.
pub(crate) fn elements(text: &str) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    let mut i = ws(b, 0) + 1;
    std::iter::from_fn(move || {
        i = ws(b, i);
        if matches!(b.get(i), None | Some(b']')) {
            return None;
        }
        let start = i;
        i = valid_value_end(b, i);
        let element = text.get(start..i);
        i = ws(b, i);
        if b.get(i) == Some(&b',') {
            i += 1;
        }
        element
    })
}

/// Where the value at `i` of a text already known to be valid JSON ends.
fn valid_value_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    loop {
        match b.get(i) {
            None => return i,
            Some(b'"') => {
                i += 1;
                while let Some(&byte) = b.get(i) {
                    i += if byte == b'\\' { 2 } else { 1 };
                    if byte == b'"' {
                        break;
                    }
                }
            }
            Some(b'{' | b'[') => {
                depth += 1;
                i += 1;
                continue;
            }
            Some(b'}' | b']') if depth > 0 => {
                depth -= 1;
                i += 1;
            }
            Some(b'}' | b']' | b',' | b':' | b' ' | b'\t' | b'\n' | b'\r') if depth == 0 => return i,
            Some(_) => {
                i += 1;
                continue;
            }
        }
        if depth == 0 {
            return i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(line: &str) -> Option<(Option<String>, Option<String>, bool)> {
        let read = readable(line.as_bytes()).unwrap()?;
        let text = |v: Option<Value>| v.map(|v| line[v.span.offset..v.span.offset + v.span.len].to_owned());
        Some((text(read.id), text(read.method), read.answer))
    }

    #[test]
    fn members_are_readable_up_to_the_point_of_damage() {
        let s = |t: &str| Some(t.to_owned());
        assert_eq!(ids(r#"{"id":8,"method":"m","params":{"a":1"#), Some((s("8"), s(r#""m""#), false)));
        assert_eq!(ids(r#"{"id":8,"method":"m"} x"#), Some((s("8"), s(r#""m""#), false)));
        assert_eq!(ids(r#"{"method":"m","id":12"#), Some((None, s(r#""m""#), false)));
        assert_eq!(ids(r#"{"method":"m","id":12  "#), Some((None, s(r#""m""#), false)));
        assert_eq!(ids(r#"{"id":3,"id":4,"method":"m","#), Some((s("4"), s(r#""m""#), false)));
        assert_eq!(ids(r#"{"id":9,"params":{,},"method":"x"}"#), Some((s("9"), None, false)));
        assert_eq!(ids(r#"{"id":11,"result":{"content":["#), Some((s("11"), None, true)));
        assert_eq!(ids(r#"{"id":1,"x":[1,{"a":[true,null,-1.5e+3]}],"method":"m"}}"#).map(|r| r.1), Some(s(r#""m""#)));
        assert_eq!(ids(r#"{"\u0069d":01,"method":"m"}"#), Some((None, None, false)));
        assert_eq!(ids(" {\"id\":1,}"), Some((s("1"), None, false)));
        assert_eq!(ids("\u{feff}{\"id\":1,}"), None, "a byte order mark is the caller's");
        assert_eq!(ids(r#"[{"id":1}"#), None);
        assert_eq!(ids("{\"id\":1,\"method\":\"a\u{1}\"}"), Some((s("1"), None, false)));
        assert_eq!(
            readable(b"{\"id\":7,\"method\":\"m\",\"x\":\"\xff\"}").unwrap().map(|r| r.method.is_some()),
            Some(true)
        );
        assert_eq!(readable(b"{\"id\":7,\"x\":\"\xc3(\",\"method\":\"m\"}").unwrap().map(|r| r.method), Some(None));
    }

    #[test]
    fn a_literal_or_number_cut_short_is_damage() {
        for cut in [r#"{"id":1,"x":tru}"#, r#"{"id":1,"x":1.}"#, r#"{"id":1,"x":-}"#, r#"{"id":1,"x":1e}"#] {
            assert_eq!(ids(cut).map(|r| r.0), Some(Some("1".to_owned())), "{cut}");
            let after = cut.replace("\"id\":1,", "") + ",\"id\":1}";
            assert_eq!(ids(&after).map(|r| r.0), Some(None), "{after}");
        }
    }

    #[test]
    fn nesting_deeper_than_the_stack_holds_is_read_too() {
        for depth in [1, 63, 64, 65, 1023, 1024, 1025, 5000] {
            let value = "[{\"a\":".repeat(depth) + "1" + &"}]".repeat(depth);
            let line = format!(r#"{{"id":1,"x":{value},"method":"m","#);
            assert_eq!(ids(&line).map(|r| r.1), Some(Some(r#""m""#.to_owned())), "{depth}");
            let wrong =
                format!(r#"{{"id":1,"x":{}1]]{},"method":"m","#, "[{\"a\":".repeat(depth), "}]".repeat(depth - 1));
            assert_eq!(ids(&wrong).map(|r| r.1), Some(None), "{depth}: a bracket that does not match");
        }
    }

    #[test]
    fn a_batch_is_read_element_by_element() {
        let all: Vec<_> = elements(r#" [ {"a":"]\"}"} , 5,"x",[1,[2]] ,{}, -1.5e3 ,true] "#).collect();
        assert_eq!(all, [r#"{"a":"]\"}"}"#, "5", r#""x""#, "[1,[2]]", "{}", "-1.5e3", "true"]);
        assert_eq!(elements("[]").count(), 0);
        assert_eq!(elements("[ ]").count(), 0);
    }
}
