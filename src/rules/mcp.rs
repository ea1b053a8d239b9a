//! The MCP profile (SPEC §10): the rules MCP adds to JSON-RPC, applied to
//! the lines sections 2 to 4 call `request`, `notification` and `response`,
//! so that what the profile calls a message every official MCP SDK reads.
//! Pure functions of the line, its members and what its one scan found:
//! the members inside `params`, `params._meta` and `error`, how deep it
//! nests, whether a number is beyond a double. A second look at the line
//! only where the scan says a string may escape a surrogate, to see
//! whether one is lone.

use std::fmt;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::members::Members;
use super::{Kind, with_article};
use crate::scan::{Scanned, Value, ValueKind};

/// The searcher for `\u`, made once.
static ESCAPED_UNIT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\\u"));

/// How deep an MCP message may nest, its root object counted: rmcp's
/// decoder (serde_json's recursion limit of 128) refuses a line of 128
/// levels, the Python SDK's parser one deeper than 201.
pub const MAX_DEPTH: usize = 127;

/// Why a value is not an MCP id (SPEC §10.1), or an error's `code` not an
/// MCP integer: the `<what>` of the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// A value of another kind (`null`, `an object`, ...).
    Kind(ValueKind),
    /// A number written with a fraction or an exponent.
    FractionOrExponent,
    /// An integer beyond ±(2^53 − 1).
    BeyondSafe,
    /// An error code beyond the 32-bit range, −2^31 to 2^31 − 1 (rmcp's
    /// and the Java SDK's error codes are 32-bit).
    BeyondI32,
    /// An error code written `-0` (a float to serde_json, which rmcp's
    /// 32-bit code refuses).
    NegativeZero,
    /// A string with an escaped lone surrogate.
    LoneSurrogate,
}

impl fmt::Display for What {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            What::Kind(kind) => with_article(*kind),
            What::FractionOrExponent => "a number with a fraction or an exponent",
            What::BeyondSafe => "an integer beyond 2^53 - 1",
            What::BeyondI32 => "an integer beyond 32 bits",
            What::NegativeZero => "-0",
            What::LoneSurrogate => "a string with a lone surrogate",
        })
    }
}

/// The rule of SPEC §10.2 a request or a notification broke: the first, in
/// the table's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestFault {
    /// 1: a request's id is not an MCP id.
    Id(What),
    /// 2: `jsonrpc` is not the string `"2.0"`.
    Jsonrpc,
    /// 3: a member MCP does not name (`notification` says which message).
    Members { notification: bool },
    /// 4: `params` is not an object.
    Params(ValueKind),
    /// 5: `params._meta` is not an object.
    Meta(ValueKind),
    /// 6: `params._meta.progressToken` is not an MCP id.
    ProgressToken(What),
    /// 7: the line nests deeper than `MAX_DEPTH` (127) levels.
    TooDeep,
    /// 8: a string of the line escapes a lone surrogate.
    LoneSurrogate,
    /// 9: a number of the line is beyond a double's range.
    HugeNumber,
}

/// The exact message of SPEC §10.2, which is also the reply's message.
impl fmt::Display for RequestFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Invalid Request: ")?;
        match self {
            RequestFault::Id(what) => write!(f, "an MCP id must be a string or an integer, not {what}"),
            RequestFault::Jsonrpc => f.write_str("MCP requires the member jsonrpc to be the string 2.0"),
            RequestFault::Members { notification: false } => {
                f.write_str("an MCP request has no members but jsonrpc, id, method and params")
            }
            RequestFault::Members { notification: true } => {
                f.write_str("an MCP notification has no members but jsonrpc, method and params")
            }
            RequestFault::Params(kind) => write!(f, "the params must be an object, not {}", with_article(*kind)),
            RequestFault::Meta(kind) => write!(f, "params._meta must be an object, not {}", with_article(*kind)),
            RequestFault::ProgressToken(what) => {
                write!(f, "params._meta.progressToken must be a string or an integer, not {what}")
            }
            RequestFault::TooDeep => write!(f, "an MCP message nests at most {MAX_DEPTH} levels deep"),
            RequestFault::HugeNumber => f.write_str(HUGE_NUMBER),
            RequestFault::LoneSurrogate => f.write_str("an MCP message has no string with a lone surrogate"),
        }
    }
}

/// The rule of SPEC §10.3 a response broke: the first, in the order (a)
/// to (d).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseFault {
    /// (a): the id is not an MCP id (nor null or absent in an error).
    Id(What),
    /// (b): `jsonrpc` is not the string `"2.0"`.
    Jsonrpc,
    /// (c): not exactly one of `result` and `error`, or another member.
    Members,
    /// (d): `result` is not an object.
    Result(ValueKind),
    /// (d): `error` is not an object.
    Error(ValueKind),
    /// (d): `error` has no `code`.
    NoCode,
    /// (d): `error.code` is not an MCP integer.
    Code(What),
    /// (d): `error` has no `message`.
    NoMessage,
    /// (d): `error.message` is not a string.
    Message(ValueKind),
    /// (e): the line nests deeper than `MAX_DEPTH` (127) levels.
    TooDeep,
    /// (f): a string of the line escapes a lone surrogate.
    LoneSurrogate,
    /// (g): a number of the line is beyond a double's range.
    HugeNumber,
}

/// The exact reason of SPEC §10.3.
impl fmt::Display for ResponseFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Invalid Response: ")?;
        match self {
            ResponseFault::Id(what) => write!(f, "an MCP id must be a string or an integer, not {what}"),
            ResponseFault::Jsonrpc => f.write_str("MCP requires the member jsonrpc to be the string 2.0"),
            ResponseFault::Members => f.write_str(
                "an MCP response has exactly one of result and error, and no members but jsonrpc and id besides",
            ),
            ResponseFault::Result(kind) => write!(f, "the result must be an object, not {}", with_article(*kind)),
            ResponseFault::Error(kind) => write!(f, "the error must be an object, not {}", with_article(*kind)),
            ResponseFault::NoCode => f.write_str("the error has no code"),
            ResponseFault::Code(what) => write!(f, "the error's code must be an integer, not {what}"),
            ResponseFault::NoMessage => f.write_str("the error has no message"),
            ResponseFault::Message(kind) => {
                write!(f, "the error's message must be a string, not {}", with_article(*kind))
            }
            ResponseFault::TooDeep => write!(f, "an MCP message nests at most {MAX_DEPTH} levels deep"),
            ResponseFault::HugeNumber => f.write_str(HUGE_NUMBER),
            ResponseFault::LoneSurrogate => f.write_str("an MCP message has no string with a lone surrogate"),
        }
    }
}

/// The reason of rule 9 and (g).
const HUGE_NUMBER: &str = "an MCP message has no number beyond the range of a double";

/// What the profile finds in a line sections 2 to 4 call a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    Message,
    Request(RequestFault),
    Response(ResponseFault),
}

/// Applies SPEC §10.2 and §10.3 to a line of `kind` (a request, a
/// notification or a response) whose top-level members are `members`.
/// `jsonrpc_2_0` is as section 3 gives it.
pub(crate) fn check(kind: Kind, scanned: &Scanned<'_>, members: &Members, jsonrpc_2_0: bool) -> Verdict {
    let line = scanned.text;
    let too_deep = || scanned.depth > MAX_DEPTH;
    let lone = || scanned.surrogates && has_lone_surrogate(line);
    match kind {
        Kind::Request | Kind::Notification => request(kind == Kind::Notification, line, members, jsonrpc_2_0)
            .or_else(|| too_deep().then_some(RequestFault::TooDeep))
            .or_else(|| lone().then_some(RequestFault::LoneSurrogate))
            .or_else(|| scanned.huge_number.then_some(RequestFault::HugeNumber))
            .map_or(Verdict::Message, Verdict::Request),
        Kind::Response => response(line, members, jsonrpc_2_0)
            .or_else(|| too_deep().then_some(ResponseFault::TooDeep))
            .or_else(|| lone().then_some(ResponseFault::LoneSurrogate))
            .or_else(|| scanned.huge_number.then_some(ResponseFault::HugeNumber))
            .map_or(Verdict::Message, Verdict::Response),
        _ => Verdict::Message,
    }
}

fn request(notification: bool, line: &str, members: &Members, jsonrpc_2_0: bool) -> Option<RequestFault> {
    if let Some(id) = members.id
        && let Err(what) = mcp_id(id, line)
    {
        return Some(RequestFault::Id(what));
    }
    if !jsonrpc_2_0 {
        return Some(RequestFault::Jsonrpc);
    }
    if members.other || members.result.is_some() || members.error.is_some() {
        return Some(RequestFault::Members { notification });
    }
    let params = members.params?;
    if params.kind != ValueKind::Object {
        return Some(RequestFault::Params(params.kind));
    }
    let meta = members.meta?;
    if meta.kind != ValueKind::Object {
        return Some(RequestFault::Meta(meta.kind));
    }
    let token = members.progress_token?;
    mcp_id(token, line).err().map(RequestFault::ProgressToken)
}

fn response(line: &str, members: &Members, jsonrpc_2_0: bool) -> Option<ResponseFault> {
    match members.id {
        // An error response may name no request (SPEC §2).
        None => {}
        Some(id) if id.kind == ValueKind::Null && members.error.is_some() => {}
        Some(id) => {
            if let Err(what) = mcp_id(id, line) {
                return Some(ResponseFault::Id(what));
            }
        }
    }
    if !jsonrpc_2_0 {
        return Some(ResponseFault::Jsonrpc);
    }
    if members.other || members.method.is_some() || members.params.is_some() {
        return Some(ResponseFault::Members);
    }
    match (members.result, members.error) {
        (Some(result), None) => (result.kind != ValueKind::Object).then_some(ResponseFault::Result(result.kind)),
        (None, Some(error)) if error.kind != ValueKind::Object => Some(ResponseFault::Error(error.kind)),
        (None, Some(_)) => error_object(line, members),
        _ => Some(ResponseFault::Members),
    }
}

/// Rule (d) for an `error` object, whose members the scan opened.
fn error_object(line: &str, members: &Members) -> Option<ResponseFault> {
    let Some(code) = members.code else { return Some(ResponseFault::NoCode) };
    if let Err(what) = error_code(code, line) {
        return Some(ResponseFault::Code(what));
    }
    let Some(message) = members.message else { return Some(ResponseFault::NoMessage) };
    (message.kind != ValueKind::String).then_some(ResponseFault::Message(message.kind))
}

/// Whether `value` (in `line`) is an MCP id (SPEC §10.1).
pub(super) fn mcp_id(value: Value, line: &str) -> Result<(), What> {
    match value.kind {
        ValueKind::String if has_lone_surrogate(value.inner(line)) => Err(What::LoneSurrogate),
        ValueKind::String => Ok(()),
        _ => mcp_integer(value, line),
    }
}

/// Whether `value` is a number written as an integer within ±(2^53 − 1).
fn mcp_integer(value: Value, line: &str) -> Result<(), What> {
    if value.kind != ValueKind::Number {
        return Err(What::Kind(value.kind));
    }
    let digits = value.raw(line).trim_start_matches('-');
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(What::FractionOrExponent);
    }
    const MAX_SAFE: u64 = (1 << 53) - 1;
    // JSON has no leading zeros, so 15 digits are below 2^53 - 1 (a 16
    // digit number) and more than 16 are beyond.
    match digits.len() <= 15 || digits.len() == 16 && digits.parse::<u64>().is_ok_and(|n| n <= MAX_SAFE) {
        true => Ok(()),
        false => Err(What::BeyondSafe),
    }
}

/// Whether `value` is an MCP integer (see [`mcp_integer`]) within 32 bits
/// and not written `-0`: an error's code every SDK reads.
fn error_code(value: Value, line: &str) -> Result<(), What> {
    mcp_integer(value, line)?;
    let raw = value.raw(line);
    if raw == "-0" {
        return Err(What::NegativeZero);
    }
    // mcp_integer leaves at most 16 digits: an i64 holds them.
    match raw.parse::<i64>().is_ok_and(|n| i32::try_from(n).is_ok()) {
        true => Ok(()),
        false => Err(What::BeyondI32),
    }
}

/// Whether a JSON string's text between its quotes (escapes not decoded),
/// or a whole valid JSON text (whose backslashes all stand in strings),
/// escapes a lone surrogate: a `\uD800`–`\uDBFF` not followed by a
/// `\uDC00`–`\uDFFF`, or a `\uDC00`–`\uDFFF` not preceded by one.
fn has_lone_surrogate(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    // Only an escape makes one: most texts (an id, a token) have none, and
    // a byte search costs less than setting up the `\\u` search.
    if memchr::memchr(b'\\', bytes).is_none() {
        return false;
    }
    let unit = |at: usize| -> Option<u16> { u16::from_str_radix(raw.get(at..at + 4)?, 16).ok() };
    // Every `\u` found at memory speed; one that follows an odd number of
    // backslashes is the text `\\u`, no escape.
    let mut next = 0;
    for at in ESCAPED_UNIT.find_iter(bytes) {
        if at < next {
            continue;
        }
        let before = bytes[..at].iter().rev().take_while(|&&b| b == b'\\').count();
        if before % 2 == 1 {
            continue;
        }
        next = at + 6;
        match unit(at + 2) {
            Some(0xD800..=0xDBFF) => {
                let low = bytes.get(at + 6..at + 8) == Some(b"\\u")
                    && unit(at + 8).is_some_and(|u| (0xDC00..=0xDFFF).contains(&u));
                if !low {
                    return true;
                }
                next = at + 12;
            }
            Some(0xDC00..=0xDFFF) => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_are_found_and_pairs_are_not() {
        for lone in [r"\ud800", r"x\udc00", r"\ud83dA", r"\udc00\ud800", r"\ud800\u0041", r"a\uDBFF"] {
            assert!(has_lone_surrogate(lone), "{lone}");
        }
        for fine in [r"", r"abc", r"\ud83d\ude00", r"\\ud800", r"\u0041\n", r"\uD83D\uDE00x", "\u{e9}"] {
            assert!(!has_lone_surrogate(fine), "{fine}");
        }
    }

    #[test]
    fn only_the_rules_json_rpc_itself_does_not_ask_are_portability() {
        use crate::rules::{Kind, Profile};
        let reason = |line: &str| Profile::Mcp.classify(line.as_bytes()).reason.expect(line);
        for portable in [
            r#"{"jsonrpc":"2.0","id":9007199254740992,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":"\ud800","method":"m"}"#,
            r#"{"jsonrpc":"2.0","method":"m","params":{"s":"\udc00"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":9007199254740992}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":1e400}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":4294967296,"message":"m"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-0,"message":"m"}}"#,
        ] {
            assert!(reason(portable).is_portability(), "{portable}");
        }
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{{"a":{}1{}}}}}"#,
            "[".repeat(130),
            "]".repeat(130)
        );
        assert!(reason(&deep).is_portability());
        for not in [
            r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","x":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":5}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":null}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            "{oops",
        ] {
            assert!(!reason(not).is_portability(), "{not}");
        }
        assert_eq!(Profile::Mcp.classify(b"{oops").kind, Kind::ParseError);
    }
}
