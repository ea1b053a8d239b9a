//! The envelope rules of SPEC §2 and §3: what a line is and what it carries.
//! Pure functions of the scanner's findings; no I/O, no allocation unless a
//! method needs decoding (or a line nests over a thousand levels deep).

mod damaged;
mod id;
mod mcp;
mod members;
mod reason;

use std::borrow::Cow;
use std::str::FromStr;

pub(crate) use damaged::elements as damaged_elements;
pub use id::{IdKey, same_id};
pub use mcp::{RequestFault, ResponseFault, What};
use members::Members;
pub use reason::{InvalidRequest, Reason};

use crate::fallible::{self, OutOfMemory};
use crate::scan::{self, ParseError, Root, ScanError, Span, Value, ValueKind};

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
    /// A response the MCP profile refuses (SPEC §10.3); never in the
    /// JSON-RPC profile.
    InvalidResponse,
}

impl Kind {
    /// Whether a line of this kind is a message a peer acts on: a request, a
    /// notification or a response. These are the lines a guard or an SDK
    /// transport hands on (SPEC §8, §9); every other kind is owed a reply
    /// or is no message at all.
    pub fn is_message(self) -> bool {
        matches!(self, Kind::Request | Kind::Notification | Kind::Response)
    }
}

/// The rule set a line is read by (SPEC §10): JSON-RPC 2.0 alone
/// (sections 1 to 7, the default), or MCP, which adds the rules of section
/// 10 so that what it calls a message every official MCP SDK reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    #[default]
    JsonRpc,
    Mcp,
}

named!(Kind {
    Empty => c"empty",
    ParseError => c"parse_error",
    Batch => c"batch",
    NotObject => c"not_object",
    InvalidRequest => c"invalid_request",
    Request => c"request",
    Notification => c"notification",
    Response => c"response",
    NotJsonRpc => c"not_jsonrpc",
    InvalidResponse => c"invalid_response",
});

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 2] = [Profile::JsonRpc, Profile::Mcp];

    /// Classifies one line by this profile; see [`classify`].
    #[inline]
    pub fn classify(self, line: &[u8]) -> Classification<'_> {
        self.try_classify(line).unwrap_or_else(|OutOfMemory| fallible::abort())
    }

    /// Classifies one line by this profile; see [`try_classify`].
    #[inline]
    pub fn try_classify(self, line: &[u8]) -> Result<Classification<'_>, OutOfMemory> {
        let mut c = classify_undecoded(line, self)?;
        c.decode_method()?;
        Ok(c)
    }
}

named!(Profile {
    JsonRpc => c"jsonrpc",
    Mcp => c"mcp",
});

/// A profile name that is neither `jsonrpc` nor `mcp`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile {0:?}: expected \"jsonrpc\" or \"mcp\"")]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<Profile, UnknownProfile> {
        Profile::ALL.into_iter().find(|p| p.name() == name).ok_or_else(|| UnknownProfile(name.to_owned()))
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
    fn of(member: Option<Value>) -> IdKind {
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

    /// Whether a reply or a response match can carry this id: SPEC §2 and
    /// §4 echo only string and number ids.
    pub fn is_echoable(self) -> bool {
        matches!(self, IdKind::String | IdKind::Number)
    }
}

named!(IdKind {
    Absent => c"absent",
    Null => c"null",
    String => c"string",
    Number => c"number",
    Object => c"object",
    Array => c"array",
    Boolean => c"boolean",
});

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

/// A value's kind with its article, as SPEC §4 names it in messages.
pub(crate) fn with_article(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Object => "an object",
        ValueKind::Array => "an array",
        ValueKind::String => "a string",
        ValueKind::Number => "a number",
        ValueKind::Boolean => "a boolean",
        ValueKind::Null => "null",
    }
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
    /// `method` is still the text between its quotes, escapes and all (only
    /// inside the crate, which decodes it where it is needed).
    pub(crate) method_escaped: bool,
    pub jsonrpc_2_0: bool,
    pub has_result: bool,
    pub has_error: bool,
    pub names_no_request: bool,
    pub spans: Spans,
    pub reason: Option<Reason>,
    /// The JSON type of the whole line's value, when it is one.
    pub(crate) value: Option<ValueKind>,
    /// For an MCP message whose bytes not every SDK's reader takes as they
    /// stand (a raw CR, whitespace around the value, a member given
    /// twice): where its `jsonrpc` value stands, for the form to hand on
    /// instead (SPEC 10.5, with `spans` for the other members); else
    /// `None`.
    pub(crate) normal: Option<Span>,
    /// An MCP batch with requests owed a reply each (SPEC §10.6 (b)): the
    /// batch's text, whose elements the reply is written from.
    pub(crate) batch: Option<&'a str>,
    /// The reading of a too-long line's first bytes (SPEC §10.6 (d)), not
    /// of a whole line.
    pub(crate) too_long: bool,
}

impl Classification<'_> {
    /// The classification of a line that is not valid JSON in UTF-8.
    pub fn parse_error(error: ParseError) -> Classification<'static> {
        Classification { reason: Some(Reason::Parse(error)), ..Classification::bare(Kind::ParseError, None) }
    }

    /// A `parse_error` whose reason the caller gives itself: bytes that are
    /// not a line at all (the C ABI's NULL pointer with a length).
    pub(crate) fn unreadable() -> Classification<'static> {
        Classification::bare(Kind::ParseError, None)
    }

    fn bare(kind: Kind, value: Option<ValueKind>) -> Classification<'static> {
        Classification {
            kind,
            id_kind: IdKind::Absent,
            id: None,
            method: None,
            method_escaped: false,
            jsonrpc_2_0: false,
            has_result: false,
            has_error: false,
            names_no_request: false,
            spans: Spans::default(),
            reason: None,
            value,
            normal: None,
            batch: None,
            too_long: false,
        }
    }
}

/// Classifies one line (SPEC §2, §3). Like `Vec`, it aborts the process
/// when memory runs out; [`try_classify`] returns an error instead.
#[inline]
pub fn classify(line: &[u8]) -> Classification<'_> {
    try_classify(line).unwrap_or_else(|OutOfMemory| fallible::abort())
}

/// Classifies one line (SPEC §2, §3); fails only when an allocation fails
/// (a method with escapes is decoded into a string of its own, and a line
/// nested over a thousand levels deep needs memory for its nesting).
#[inline]
pub fn try_classify(line: &[u8]) -> Result<Classification<'_>, OutOfMemory> {
    Profile::JsonRpc.try_classify(line)
}

impl Classification<'_> {
    /// Decodes a method with escapes into a string of its own.
    pub(crate) fn decode_method(&mut self) -> Result<(), OutOfMemory> {
        if self.method_escaped
            && let Some(raw) = self.method.as_deref()
        {
            let mut decoded = String::new();
            decoded.try_reserve_exact(scan::decoded_len(raw))?;
            scan::decode(raw, |piece| decoded.push_str(piece));
            self.method = Some(Cow::Owned(decoded));
            self.method_escaped = false;
        }
        Ok(())
    }

    /// Whether the line is an `invalid_response` whose id is an MCP id, so
    /// that it has a substitute (SPEC §10.3).
    pub fn has_substitute(&self) -> bool {
        match self.kind {
            Kind::InvalidResponse => {
                self.id_kind.is_echoable() && !matches!(self.reason, Some(Reason::McpResponse(ResponseFault::Id(_))))
            }
            // A damaged response (SPEC §10.6 (c), (d)): a readable MCP id
            // and no readable method.
            Kind::ParseError => self.id.is_some() && self.method.is_none(),
            _ => false,
        }
    }

    /// Whether the line is a damaged request (SPEC §10.6 (c), (d)): a
    /// `parse_error` whose readable members hold an MCP id and a method.
    pub fn is_damaged_request(&self) -> bool {
        self.kind == Kind::ParseError && self.id.is_some() && self.method.is_some()
    }
}

/// Classifies one line by `profile`, leaving a method with escapes as it
/// stands in the line (`method_escaped`), for a caller that decodes it into
/// memory of its own.
#[inline(always)]
pub(crate) fn classify_undecoded(line: &[u8], profile: Profile) -> Result<Classification<'_>, OutOfMemory> {
    if profile == Profile::Mcp
        && let Some(rest) = line.strip_prefix(damaged::BOM)
    {
        return with_bom(rest);
    }
    classify_text(line, profile, false)
}

/// SPEC §10.6 (a): an MCP line after a byte order mark, classified as the
/// rest of the line, its spans counted from the line's first byte, and a
/// message always handed on in its normal form (without the mark).
#[cold]
fn with_bom(rest: &[u8]) -> Result<Classification<'_>, OutOfMemory> {
    let mut c = classify_text(rest, Profile::Mcp, true)?;
    let shift = |span: &mut Option<Span>| {
        if let Some(span) = span {
            span.offset += damaged::BOM.len();
        }
    };
    let spans = &mut c.spans;
    for span in [&mut spans.id, &mut spans.method, &mut spans.params, &mut spans.result, &mut spans.error] {
        shift(span);
    }
    shift(&mut c.normal);
    if let Some(Reason::Parse(error)) = &mut c.reason {
        *error = error.shifted(damaged::BOM.len());
    }
    Ok(c)
}

#[inline(always)]
fn classify_text(line: &[u8], profile: Profile, bom: bool) -> Result<Classification<'_>, OutOfMemory> {
    let mut members = Members::opening(profile == Profile::Mcp);
    Ok(match scan::scan(line, &mut members) {
        Err(ScanError::Parse(error)) if profile == Profile::Mcp => damaged_line(line, error)?,
        Err(ScanError::Parse(error)) => Classification::parse_error(error),
        Err(ScanError::OutOfMemory) => return Err(OutOfMemory),
        Ok(scanned) => match scanned.root {
            Root::Nothing => Classification::bare(Kind::Empty, None),
            Root::Array if profile == Profile::Mcp => mcp_batch(scanned.text)?,
            Root::Array => Classification::bare(Kind::Batch, Some(ValueKind::Array)),
            Root::Scalar(value) => Classification::bare(Kind::NotObject, Some(value)),
            Root::Object => {
                let mut c = object(scanned.text, &members, scanned.escapes);
                if profile == Profile::Mcp && c.kind.is_message() {
                    c.apply_mcp(&scanned, &members, bom);
                }
                c
            }
        },
    })
}

/// SPEC §10.6 (c): a `parse_error` in the MCP profile, with the id and the
/// method its readable members hold, where they make it a damaged request
/// or a damaged response.
#[cold]
fn damaged_line(line: &[u8], error: ParseError) -> Result<Classification<'_>, OutOfMemory> {
    let mut c = Classification::parse_error(error);
    if let Some(read) = damaged::readable(line)? {
        c.read_damaged(line, read);
    }
    Ok(c)
}

/// The classification of a too-long MCP line's first bytes, `head`, where
/// they hold a damaged request or a damaged response (SPEC §10.6 (d)).
pub(crate) fn too_long_head(head: &[u8]) -> Result<Option<Classification<'_>>, OutOfMemory> {
    let (skipped, body) = match head.strip_prefix(damaged::BOM) {
        Some(rest) => (damaged::BOM.len(), rest),
        None => (0, head),
    };
    let Some(read) = damaged::readable(body)? else { return Ok(None) };
    let mut c = Classification { too_long: true, ..Classification::bare(Kind::ParseError, None) };
    c.read_damaged(body, read);
    for span in [&mut c.spans.id, &mut c.spans.method].into_iter().flatten() {
        span.offset += skipped;
    }
    Ok(c.id.is_some().then_some(c))
}

impl<'a> Classification<'a> {
    /// A too-long line's head as a reader keeps it (SPEC §10.6 (d)): its
    /// id's text and kind, and its method's text between its quotes.
    pub(crate) fn too_long_head(
        id: &'a str,
        id_kind: IdKind,
        id_span: Span,
        method: Option<(&'a str, Span)>,
    ) -> Classification<'a> {
        let mut c = Classification { too_long: true, ..Classification::bare(Kind::ParseError, None) };
        (c.id, c.id_kind, c.spans.id) = (Some(id), id_kind, Some(id_span));
        if let Some((raw, span)) = method {
            c.method = Some(Cow::Borrowed(raw));
            c.method_escaped = raw.contains('\\');
            c.spans.method = Some(span);
        }
        c
    }

    /// Takes a damaged line's readable id and method, where they make it a
    /// damaged request or a damaged response (SPEC §10.6 (c)).
    fn read_damaged(&mut self, line: &'a [u8], read: damaged::Readable) {
        let text = |value: scan::Value| std::str::from_utf8(value.span.of(line)).ok();
        let Some((id, raw)) = read.id.and_then(|id| Some((id, text(id)?))) else { return };
        if mcp::mcp_id(scan::Value { span: Span { offset: 0, len: raw.len() }, kind: id.kind }, raw).is_err() {
            return;
        }
        let method = match read.method {
            Some(method) if method.kind == ValueKind::String => Some((method, text(method))),
            Some(_) => return,
            None if read.answer => None,
            None => return,
        };
        self.id_kind = IdKind::of(Some(id));
        self.id = Some(raw);
        self.spans.id = Some(id.span);
        if let Some((method, Some(raw))) = method {
            let inner = raw.get(1..raw.len() - 1).unwrap_or_default();
            self.method = Some(Cow::Borrowed(inner));
            self.method_escaped = inner.contains('\\');
            self.spans.method = Some(method.span);
        }
    }
}

/// SPEC §10.6 (b): an MCP batch, with the text its replies are written
/// from when an element is a request with an MCP id.
#[cold]
fn mcp_batch(text: &str) -> Result<Classification<'_>, OutOfMemory> {
    let mut c = Classification::bare(Kind::Batch, Some(ValueKind::Array));
    for element in damaged::elements(text) {
        if batch_request_id(element)?.is_some() {
            c.batch = Some(text);
            break;
        }
    }
    Ok(c)
}

/// The id of a batch's element that is an object with a string `method`
/// and an MCP `id` (SPEC §10.6 (b)), as it stands.
pub(crate) fn batch_request_id(element: &str) -> Result<Option<&str>, OutOfMemory> {
    if !element.starts_with('{') {
        return Ok(None);
    }
    let c = classify_undecoded(element.as_bytes(), Profile::JsonRpc)?;
    let Some(span) = c.spans.id.filter(|_| c.kind == Kind::Request && c.id_kind.is_echoable()) else {
        return Ok(None);
    };
    let kind = if c.id_kind == IdKind::String { ValueKind::String } else { ValueKind::Number };
    Ok(mcp::mcp_id(scan::Value { span, kind }, element).is_ok().then_some(c.id).flatten())
}

impl Classification<'_> {
    /// SPEC §10: the MCP profile's rules, for a line sections 2 to 4 call a
    /// message.
    fn apply_mcp(&mut self, scanned: &scan::Scanned<'_>, members: &Members, bom: bool) {
        match mcp::check(self.kind, scanned, members, self.jsonrpc_2_0) {
            mcp::Verdict::Message => {
                let line = scanned.text.as_bytes();
                let edge = |b: Option<&u8>| b.is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
                if bom
                    || members.twice
                    || edge(line.first())
                    || edge(line.last())
                    || scanned.control_whitespace && memchr::memchr(b'\r', line).is_some()
                {
                    self.normal = members.jsonrpc.map(|v| v.span);
                }
            }
            mcp::Verdict::Request(fault) => {
                self.kind = Kind::InvalidRequest;
                self.reason = Some(Reason::McpRequest(fault));
            }
            mcp::Verdict::Response(fault) => {
                self.kind = Kind::InvalidResponse;
                self.reason = Some(Reason::McpResponse(fault));
            }
        }
    }
}

#[inline]
fn object<'a>(line: &'a str, members: &Members, escapes: bool) -> Classification<'a> {
    let string = |member: Option<Value>| member.filter(|m| m.kind == ValueKind::String);

    let id_kind = IdKind::of(members.id);
    let method = string(members.method).map(|m| m.inner(line));
    let method_escaped = escapes && method.is_some_and(|m| m.contains('\\'));
    let jsonrpc_2_0 = string(members.jsonrpc).is_some_and(|m| {
        let inner = m.inner(line);
        inner == "2.0" || (escapes && inner.contains('\\') && decodes_to(inner, "2.0"))
    });
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
        method: method.map(Cow::Borrowed),
        method_escaped,
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
        normal: None,
        batch: None,
        too_long: false,
    }
}

/// Whether the string text `raw` (escapes and all) decodes to `want`.
#[cold]
fn decodes_to(raw: &str, want: &str) -> bool {
    let mut rest = want.as_bytes();
    let mut same = true;
    scan::decode(raw, |piece| match rest.strip_prefix(piece.as_bytes()) {
        Some(after) if same => rest = after,
        _ => same = false,
    });
    same && rest.is_empty()
}

#[cfg(test)]
mod tests;
