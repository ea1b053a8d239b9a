//! The members of a JSON-RPC envelope: which names the rules read, and the
//! value each last had. The scanner reports every member of a root object;
//! this is the reader that keeps ours. For the MCP profile it also opens
//! `params` and `error`, so that `params._meta`, its `progressToken`, and
//! `error.code` and `error.message` come from the line's one scan.

use crate::scan::{self, TopLevel, Value};

/// The names of the members the envelope rules read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Name {
    Id,
    Method,
    Params,
    Result,
    Error,
    Jsonrpc,
    /// `params._meta`.
    Meta,
    /// `params._meta.progressToken`.
    ProgressToken,
    /// `error.code`.
    Code,
    /// `error.message`.
    Message,
}

/// The longest name we read is 7 characters, at most 6 bytes each when
/// escaped: a longer raw name cannot decode to one of ours.
const LONGEST_RAW: usize = 7 * 6;

impl Name {
    /// The name whose text between its quotes, as it stands in the line, is
    /// `raw`, when it is one of ours (SPEC §1: compared after decoding its
    /// escapes, case-sensitively). `escapes` is false when the caller knows
    /// that `raw` holds no backslash.
    #[inline(always)]
    pub(crate) fn of_raw(raw: &[u8], escapes: bool) -> Option<Name> {
        match Name::of_decoded(raw) {
            None if escapes && raw.len() <= LONGEST_RAW && raw.contains(&b'\\') => Name::of_escaped(raw),
            name => name,
        }
    }

    /// Decodes `raw` on the stack (decoding never lengthens a text).
    #[cold]
    fn of_escaped(raw: &[u8]) -> Option<Name> {
        let mut decoded = [0u8; LONGEST_RAW];
        let mut len = 0;
        scan::decode(std::str::from_utf8(raw).ok()?, |piece| {
            if let Some(slot) = decoded.get_mut(len..len + piece.len()) {
                slot.copy_from_slice(piece.as_bytes());
            }
            len += piece.len();
        });
        Name::of_decoded(decoded.get(..len)?)
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

/// The members of opened objects the MCP rules read: the object, the
/// member's name, and the name it is known by.
const INNER: [(Name, &str, Name); 4] = [
    (Name::Params, "_meta", Name::Meta),
    (Name::Meta, "progressToken", Name::ProgressToken),
    (Name::Error, "code", Name::Code),
    (Name::Error, "message", Name::Message),
];

/// The name of a member of an opened object, where it is one that `object`
/// holds and the MCP rules read: compared as it stands, else, when it may
/// hold an escape, after decoding (as `Name::of_raw` compares).
#[inline(always)]
fn inner(object: Name, raw: &[u8], escapes: bool) -> Option<Name> {
    for &(of, name, known) in &INNER {
        if of == object && raw == name.as_bytes() {
            return Some(known);
        }
    }
    match escapes && raw.contains(&b'\\') {
        true => inner_escaped(object, raw),
        false => None,
    }
}

#[cold]
fn inner_escaped(object: Name, raw: &[u8]) -> Option<Name> {
    let raw = std::str::from_utf8(raw).ok()?;
    INNER.iter().find(|&&(of, name, _)| of == object && super::decodes_to(raw, name)).map(|&(_, _, known)| known)
}

/// The members the envelope rules read, each with its last value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Members {
    pub id: Option<Value>,
    pub method: Option<Value>,
    pub params: Option<Value>,
    pub result: Option<Value>,
    pub error: Option<Value>,
    pub jsonrpc: Option<Value>,
    /// A member whose name is none of ours was given (the MCP profile
    /// allows none, SPEC §10.2 and §10.3).
    pub other: bool,
    /// One of ours was given twice (the last counts, but a decoder that
    /// types each value may refuse the first).
    pub twice: bool,
    /// Whether `params`, `params._meta` and `error` are opened (the MCP
    /// profile's rules read inside them; the JSON-RPC profile's do not).
    pub opens: bool,
    /// What the last `params`, its last `_meta`, and the last `error` hold,
    /// each member with its last value.
    pub meta: Option<Value>,
    pub progress_token: Option<Value>,
    pub code: Option<Value>,
    pub message: Option<Value>,
}

impl Members {
    /// A reader of the members, opening `params` and `error` or not.
    pub(crate) fn opening(opens: bool) -> Members {
        Members { opens, ..Members::default() }
    }
}

impl TopLevel for Members {
    type Wanted = Name;

    #[inline(always)]
    fn wants(&mut self, raw: &[u8], escapes: bool) -> Option<Name> {
        let name = Name::of_raw(raw, escapes);
        self.other |= name.is_none();
        // What an earlier value of the member held is not the last one's.
        match name {
            Some(Name::Params) => (self.meta, self.progress_token) = (None, None),
            Some(Name::Error) => (self.code, self.message) = (None, None),
            _ => {}
        }
        name
    }

    #[inline(always)]
    fn opens(&self, name: Name) -> bool {
        self.opens && matches!(name, Name::Params | Name::Meta | Name::Error)
    }

    #[inline(always)]
    fn wants_in(&mut self, object: Name, raw: &[u8], escapes: bool) -> Option<Name> {
        let name = inner(object, raw, escapes);
        if name == Some(Name::Meta) {
            self.progress_token = None;
        }
        name
    }

    /// A member given twice counts with its last value.
    #[inline(always)]
    fn value(&mut self, name: Name, value: Value) {
        let slot = match name {
            Name::Id => &mut self.id,
            Name::Method => &mut self.method,
            Name::Params => &mut self.params,
            Name::Result => &mut self.result,
            Name::Error => &mut self.error,
            Name::Jsonrpc => &mut self.jsonrpc,
            Name::Meta => return self.meta = Some(value),
            Name::ProgressToken => return self.progress_token = Some(value),
            Name::Code => return self.code = Some(value),
            Name::Message => return self.message = Some(value),
        };
        self.twice |= slot.is_some();
        *slot = Some(value);
    }

    fn clear(&mut self) {
        *self = Members::opening(self.opens);
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn member_names_match_exactly_and_after_decoding() {
        let ours = [
            ("id", Name::Id),
            ("method", Name::Method),
            ("params", Name::Params),
            ("result", Name::Result),
            ("error", Name::Error),
            ("jsonrpc", Name::Jsonrpc),
            (r"\u0069d", Name::Id),
            (r"m\u0065thod", Name::Method),
            (r"jsonrp\u0063", Name::Jsonrpc),
            (r"\u006a\u0073\u006f\u006e\u0072\u0070\u0063", Name::Jsonrpc),
        ];
        for (raw, name) in ours {
            assert_eq!(Name::of_raw(raw.as_bytes(), true), Some(name), "{raw}");
        }
        for raw in [
            "",
            "i",
            "d",
            "di",
            "ID",
            "Id",
            "iD",
            "ids",
            "xid",
            "erro",
            "errors",
            "Error",
            "metho",
            "methods",
            "Method",
            "param",
            "paramz",
            "Params",
            "resul",
            "resulT",
            "jsonrp",
            "jsonrpC",
            "jsonrpc2",
            "jsonrpc\0",
            "method\0",
            r"\u006a\u0073\u006f\u006e\u0072\u0070\u0063\u0020",
        ] {
            assert_eq!(Name::of_raw(raw.as_bytes(), true), None, "{raw:?}");
        }
        // Without the hint that escapes may be present, a raw name is
        // compared as it stands.
        assert_eq!(Name::of_raw(br"\u0069d", false), None);
    }
}
