//! `classify`: one compact JSON record per line, with what the library makes
//! of it.

use std::io::{self, Read, Write};

use jsonrpc_envelope::{Classification, Line, Profile, Role};
use serde::{Serialize, Serializer};

/// Classifies every line of `input` by `profile` and writes its record.
pub fn run(input: impl Read, profile: Profile, max_line: usize, out: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    crate::stream::for_each_line(input, max_line, profile, |line| write_record(&mut out, &line))?;
    out.flush()
}

/// Writes the record of one line and its LF: the fields of the vectors'
/// `mcp.jsonl` in their order (without `name` and `line`), that is those of
/// `envelope.jsonl`, then `substitute`; a line over the limit is
/// `{"kind":"too_long","length":N}`, with, in the MCP profile, what its
/// first bytes hold where they are the start of a damaged request or
/// response (SPEC §10.6 (d)): `id`, `method`, `reply_server`, `substitute`.
fn write_record(out: &mut impl Write, line: &Line<'_>) -> io::Result<()> {
    match line {
        Line::TooLong { len, head, .. } => serde_json::to_writer(
            &mut *out,
            &TooLong {
                kind: line.kind_name(),
                length: *len,
                id: head.as_ref().and_then(|c| c.id),
                method: head.as_ref().and_then(|c| c.method.as_deref()),
                reply_server: head.as_ref().and_then(|c| c.reply(Role::Server)),
                substitute: head.as_ref().and_then(|c| c.substitute()),
            },
        ),
        Line::Complete { classification, .. } => serde_json::to_writer(&mut *out, &Record::of(classification)),
    }?;
    out.write_all(b"\n")
}

/// A line over the limit.
#[derive(Serialize)]
struct TooLong<'a> {
    kind: &'static str,
    length: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reply_server: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    substitute: Option<String>,
}

/// A line's record; serialised in the order of its fields.
#[derive(Serialize)]
struct Record<'a> {
    kind: &'static str,
    id_kind: &'static str,
    /// The id's exact text.
    id: Option<&'a str>,
    method: Option<&'a str>,
    jsonrpc_2_0: bool,
    has_result: bool,
    has_error: bool,
    names_no_request: bool,
    #[serde(serialize_with = "spans")]
    spans: &'a Classification<'a>,
    reason: Option<String>,
    reply_server: Option<String>,
    reply_client: Option<String>,
    substitute: Option<String>,
}

impl<'a> Record<'a> {
    fn of(c: &'a Classification<'a>) -> Record<'a> {
        Record {
            kind: c.kind.name(),
            id_kind: c.id_kind.name(),
            id: c.id,
            method: c.method.as_deref(),
            jsonrpc_2_0: c.jsonrpc_2_0,
            has_result: c.has_result,
            has_error: c.has_error,
            names_no_request: c.names_no_request,
            spans: c,
            reason: c.reason.map(|r| r.to_string()),
            reply_server: c.reply(Role::Server),
            reply_client: c.reply(Role::Client),
            substitute: c.substitute(),
        }
    }
}

/// The spans the line has, as `{"name":[offset,len],...}` in the library's
/// order.
fn spans<S: Serializer>(c: &&Classification<'_>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(c.spans.named().map(|(name, span)| (name, [span.offset, span.len])))
}
