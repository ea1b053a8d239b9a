use std::io::{self, Write};

use jsonrpc_envelope::{Classification, Line, Role};

/// Writes one compact JSON record for a line, with the fields of the
/// vectors' `mcp.jsonl` in their order (without `name` and `line`): those
/// of `envelope.jsonl`, then `substitute`; a line over the limit is
/// `{"kind":"too_long","length":N}`.
pub fn write(out: &mut impl Write, line: Line<'_>) -> io::Result<()> {
    match line {
        Line::TooLong { len, .. } => writeln!(out, r#"{{"kind":"{}","length":{len}}}"#, line.kind_name()),
        Line::Complete { classification, .. } => writeln!(out, "{}", text(&classification)),
    }
}

fn text(c: &Classification<'_>) -> String {
    let spans: Vec<String> =
        c.spans.named().map(|(name, span)| format!(r#""{name}":[{},{}]"#, span.offset, span.len)).collect();
    format!(
        r#"{{"kind":"{}","id_kind":"{}","id":{},"method":{},"jsonrpc_2_0":{},"has_result":{},"has_error":{},"names_no_request":{},"spans":{{{}}},"reason":{},"reply_server":{},"reply_client":{},"substitute":{}}}"#,
        c.kind.name(),
        c.id_kind.name(),
        json(c.id),
        json(c.method.as_deref()),
        c.jsonrpc_2_0,
        c.has_result,
        c.has_error,
        c.names_no_request,
        spans.join(","),
        json(c.reason.map(|r| r.to_string()).as_deref()),
        json(c.reply(Role::Server).as_deref()),
        json(c.reply(Role::Client).as_deref()),
        json(c.substitute().as_deref()),
    )
}

/// A JSON string, or `null`.
fn json(text: Option<&str>) -> String {
    text.map_or_else(|| "null".to_owned(), |t| serde_json::Value::from(t).to_string())
}
