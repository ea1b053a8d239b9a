//! The envelope rules of SPEC §2 and §3: what a line is and what it carries.
//! Pure functions of the scanner's findings; no I/O, no allocation unless a
//! method needs decoding.

use std::borrow::Cow;
use std::fmt;

use crate::scan::{self, Member, Members, ParseError, Root, Span, ValueKind};

/// What a line is (SPEC §2). The first rule that matches decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Empty,
    ParseError,
    Batch,
    NotObject,
    InvalidRequest,
    Request,
    Notification,
    Response,
    NotJsonRpc,
}

impl Kind {
    /// The kind's name as the vectors and the CLI spell it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Empty => "empty",
            Kind::ParseError => "parse_error",
            Kind::Batch => "batch",
            Kind::NotObject => "not_object",
            Kind::InvalidRequest => "invalid_request",
            Kind::Request => "request",
            Kind::Notification => "notification",
            Kind::Response => "response",
            Kind::NotJsonRpc => "not_jsonrpc",
        }
    }
}

/// What the `id` member holds (SPEC §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdKind {
    Absent,
    Null,
    String,
    Number,
    Object,
    Array,
    Boolean,
}

impl IdKind {
    fn of(member: Option<Member>) -> IdKind {
        match member.map(|m| m.kind) {
            None => IdKind::Absent,
            Some(ValueKind::Null) => IdKind::Null,
            Some(ValueKind::String) => IdKind::String,
            Some(ValueKind::Number) => IdKind::Number,
            Some(ValueKind::Object) => IdKind::Object,
            Some(ValueKind::Array) => IdKind::Array,
            Some(ValueKind::Boolean) => IdKind::Boolean,
        }
    }

    /// The id kind's name as the vectors and the CLI spell it.
    pub fn name(self) -> &'static str {
        match self {
            IdKind::Absent => "absent",
            IdKind::Null => "null",
            IdKind::String => "string",
            IdKind::Number => "number",
            IdKind::Object => "object",
            IdKind::Array => "array",
            IdKind::Boolean => "boolean",
        }
    }

    /// Whether a reply or a response match can carry this id: SPEC §2 and
    /// §4 echo only string and number ids.
    pub fn is_echoable(self) -> bool {
        matches!(self, IdKind::String | IdKind::Number)
    }
}

/// Spans of the top-level members' values, where present.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Spans {
    pub id: Option<Span>,
    pub method: Option<Span>,
    pub params: Option<Span>,
    pub result: Option<Span>,
    pub error: Option<Span>,
}

impl Spans {
    /// Each present span with its member's name, in a fixed order.
    pub fn named(&self) -> impl Iterator<Item = (&'static str, Span)> {
        [
            ("id", self.id),
            ("method", self.method),
            ("params", self.params),
            ("result", self.result),
            ("error", self.error),
        ]
        .into_iter()
        .filter_map(|(name, span)| Some((name, span?)))
    }
}

/// What is wrong with an `invalid_request`: the kinds of its faulty values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidRequest {
    /// The `method` value's kind, when it is not a string.
    pub method: Option<ValueKind>,
    /// The `id` value's kind, when it is an object, an array or a boolean.
    pub id: Option<ValueKind>,
}

/// The exact message of SPEC §4, which is also the reply's message.
impl fmt::Display for InvalidRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Invalid Request: ")?;
        if let Some(method) = self.method {
            write!(f, "the method must be a string, not {}", method.with_article())?;
            if self.id.is_some() {
                f.write_str("; ")?;
            }
        }
        if let Some(id) = self.id {
            write!(f, "the id must be a string, a number or null, not {}", id.with_article())?;
        }
        Ok(())
    }
}

/// Why a line is a `parse_error` or an `invalid_request`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error("{0}")]
    InvalidRequest(InvalidRequest),
}

/// Everything SPEC §3 says a line carries. Borrowed strings point into the
/// line; only a method with escapes is decoded into its own allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification<'a> {
    pub kind: Kind,
    pub id_kind: IdKind,
    /// The id's exact JSON text, as it stood in the line.
    pub id: Option<&'a str>,
    /// The decoded method, where `method` is a string.
    pub method: Option<Cow<'a, str>>,
    pub jsonrpc_2_0: bool,
    pub has_result: bool,
    pub has_error: bool,
    pub names_no_request: bool,
    pub spans: Spans,
    pub reason: Option<Reason>,
    /// The JSON type of the whole line's value, when it is one.
    pub(crate) value: Option<ValueKind>,
}

impl Classification<'_> {
    /// The classification of a line that is not valid JSON in UTF-8.
    pub fn parse_error(error: ParseError) -> Classification<'static> {
        Classification { reason: Some(Reason::Parse(error)), ..Classification::bare(Kind::ParseError, None) }
    }

    fn bare(kind: Kind, value: Option<ValueKind>) -> Classification<'static> {
        Classification {
            kind,
            id_kind: IdKind::Absent,
            id: None,
            method: None,
            jsonrpc_2_0: false,
            has_result: false,
            has_error: false,
            names_no_request: false,
            spans: Spans::default(),
            reason: None,
            value,
        }
    }
}

/// Classifies one line (SPEC §2, §3).
pub fn classify(line: &[u8]) -> Classification<'_> {
    let mut members = Members::default();
    match scan::scan(line, &mut members) {
        Err(error) => Classification::parse_error(error),
        Ok(scanned) => match scanned.root {
            Root::Nothing => Classification::bare(Kind::Empty, None),
            Root::Array => Classification::bare(Kind::Batch, Some(ValueKind::Array)),
            Root::Scalar(value) => Classification::bare(Kind::NotObject, Some(value)),
            Root::Object => object(scanned.text, &members, scanned.escapes),
        },
    }
}

fn object<'a>(line: &'a str, members: &Members, escapes: bool) -> Classification<'a> {
    let string = |member: Option<Member>| member.filter(|m| m.kind == ValueKind::String);

    let id_kind = IdKind::of(members.id);
    let method = string(members.method).map(|m| m.text(line, escapes));
    let jsonrpc_2_0 =
        string(members.jsonrpc).is_some_and(|m| m.raw(line) == "\"2.0\"" || m.text(line, escapes) == "2.0");
    let has_result = members.result.is_some();
    let has_error = members.error.is_some();

    let method_fault = members.method.map(|m| m.kind).filter(|&k| k != ValueKind::String);
    let id_fault = members
        .id
        .filter(|_| members.method.is_some())
        .map(|m| m.kind)
        .filter(|&k| matches!(k, ValueKind::Object | ValueKind::Array | ValueKind::Boolean));

    let (kind, reason) = if method_fault.is_some() || id_fault.is_some() {
        let fault = InvalidRequest { method: method_fault, id: id_fault };
        (Kind::InvalidRequest, Some(Reason::InvalidRequest(fault)))
    } else if method.is_some() {
        let kind = if members.id.is_some() { Kind::Request } else { Kind::Notification };
        (kind, None)
    } else if members.id.is_some() || (has_error && jsonrpc_2_0) {
        (Kind::Response, None)
    } else {
        (Kind::NotJsonRpc, None)
    };
    let names_no_request =
        kind == Kind::Response && has_error && jsonrpc_2_0 && matches!(id_kind, IdKind::Null | IdKind::Absent);

    Classification {
        kind,
        id_kind,
        id: members.id.map(|m| m.raw(line)),
        method,
        jsonrpc_2_0,
        has_result,
        has_error,
        names_no_request,
        spans: Spans {
            id: members.id.map(|m| m.span),
            method: members.method.map(|m| m.span),
            params: members.params.map(|m| m.span),
            result: members.result.map(|m| m.span),
            error: members.error.map(|m| m.span),
        },
        reason,
        value: Some(ValueKind::Object),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_escaped_member_name_counts_but_a_case_folded_one_does_not() {
        let c = classify(br#"{"\u006As\u006Fnrpc":"2.0","Method":"x","\u0069d":null,"error":{}}"#);
        assert_eq!((c.kind, c.jsonrpc_2_0, c.names_no_request), (Kind::Response, true, true));
        assert!(c.method.is_none());
    }

    #[test]
    fn only_a_jsonrpc_2_0_error_without_an_id_names_no_request() {
        let kind = |line: &[u8]| {
            let c = classify(line);
            (c.kind, c.names_no_request)
        };
        assert_eq!(kind(br#"{"jsonrpc":"2.0","error":{}}"#), (Kind::Response, true));
        assert_eq!(kind(br#"{"jsonrpc":"2.0","id":null,"error":{}}"#), (Kind::Response, true));
        assert_eq!(kind(br#"{"jsonrpc":"2.0","id":3,"error":{}}"#), (Kind::Response, false));
        assert_eq!(kind(br#"{"jsonrpc":"2.0","id":null,"result":{}}"#), (Kind::Response, false));
        assert_eq!(kind(br#"{"error":{}}"#), (Kind::NotJsonRpc, false));
    }

    #[test]
    fn a_response_keeps_any_id_kind() {
        for (line, id_kind) in [
            (&br#"{"id":{"a":1},"result":1}"#[..], IdKind::Object),
            (br#"{"id":[],"result":1}"#, IdKind::Array),
            (br#"{"id":false,"error":1}"#, IdKind::Boolean),
        ] {
            let c = classify(line);
            assert_eq!((c.kind, c.id_kind, c.reply(crate::Role::Server)), (Kind::Response, id_kind, None));
        }
    }

    #[test]
    fn a_method_with_escapes_is_decoded_and_one_without_is_borrowed() {
        let plain = classify(br#"{"method":"tools/list"}"#);
        assert!(matches!(plain.method, Some(Cow::Borrowed("tools/list"))));
        let escaped = classify(br#"{"method":"tools\/list\u00e9"}"#);
        assert_eq!(escaped.method.as_deref(), Some("tools/list\u{e9}"));
    }

    #[test]
    fn surrounding_whitespace_and_crlf_do_not_change_the_kind_or_the_spans_meaning() {
        let c = classify(b" \t{\"id\":7,\"method\":\"m\"}\r\n");
        assert_eq!((c.kind, c.id), (Kind::Request, Some("7")));
        assert_eq!(c.spans.id.map(|s| s.offset), Some(8));
    }
}
