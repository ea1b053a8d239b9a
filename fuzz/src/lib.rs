//! What the fuzz targets check, in one place: an independent reading of
//! JSON (serde_json) and of SPEC §2 (a deliberately plain implementation on
//! serde_json's `Value`), and the invariants every classification keeps.

use jsonrpc_envelope::{Classification, IdKind, Kind, Profile, Role, classify};
use serde_json::Value;

/// serde_json's marker for a number kept as text: an object with this key
/// reads as a number under `arbitrary_precision`, so such lines are not
/// compared (the one blind spot of the reference, handled explicitly).
const NUMBER_KEY: &[u8] = b"$serde_json::private::Number";

/// Rewrites every lone-surrogate escape in strings (`\ud800`) to `\u0041`:
/// SPEC §1 accepts them, serde_json does not. Same length, so offsets hold.
fn without_lone_surrogates(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok().filter(|_| digits.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if bytes.get(i + 1) == Some(&b'u')
                    && let Some(code) = hex(i + 2)
                {
                    let pair = (0xD800..0xDC00).contains(&code)
                        && bytes.get(i + 6..i + 8) == Some(b"\\u")
                        && hex(i + 8).is_some_and(|low| (0xDC00..0xE000).contains(&low));
                    if pair {
                        i += 12;
                        continue;
                    }
                    if (0xD800..0xE000).contains(&code) {
                        out[i + 2..i + 6].copy_from_slice(b"0041");
                    }
                }
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Runs `f` on a thread with a stack big enough for serde_json's recursion
/// at any depth a fuzz input can reach.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(1 << 30).spawn(f).expect("thread").join().expect("no panic")
}

/// The reference reading of `bytes`: `Some(None)` when serde_json rejects
/// them as a JSON text in UTF-8, `Some(Some(kind))` with the kind SPEC §2
/// gives its value, and `None` when the reference cannot say (the private
/// number key). A deep value is parsed and dropped on a big stack, since
/// serde_json recurses in both.
pub fn reference_kind(bytes: &[u8]) -> Option<Option<Kind>> {
    if bytes.windows(NUMBER_KEY.len()).any(|w| w == NUMBER_KEY) {
        return None;
    }
    let text = without_lone_surrogates(bytes);
    let read = move || {
        let mut de = serde_json::Deserializer::from_slice(&text);
        de.disable_recursion_limit();
        let value: Option<Value> = serde::Deserialize::deserialize(&mut de).ok();
        value.filter(|_| de.end().is_ok()).map(|v| plain_kind(&v))
    };
    let deep = bytes.iter().filter(|&&b| b == b'[' || b == b'{').count() > 64;
    Some(if deep { on_big_stack(read) } else { read() })
}

/// Whether `bytes` hold only JSON whitespace.
pub fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// SPEC §2, read plainly from a parsed value.
pub fn plain_kind(value: &Value) -> Kind {
    let Value::Object(members) = value else {
        return if value.is_array() { Kind::Batch } else { Kind::NotObject };
    };
    let method = members.get("method");
    let id = members.get("id");
    let id_ok = |id: &Value| id.is_string() || id.is_number() || id.is_null();
    let jsonrpc_2_0 = members.get("jsonrpc").and_then(Value::as_str) == Some("2.0");
    match (method, id) {
        (Some(m), _) if !m.is_string() => Kind::InvalidRequest,
        (Some(_), Some(id)) if !id_ok(id) => Kind::InvalidRequest,
        (Some(_), Some(_)) => Kind::Request,
        (Some(_), None) => Kind::Notification,
        (None, Some(_)) => Kind::Response,
        (None, None) if members.contains_key("error") && jsonrpc_2_0 => Kind::Response,
        (None, None) => Kind::NotJsonRpc,
    }
}

/// Checks everything that must hold for `line`'s classification, against
/// the reference where it can speak. Panics (a fuzz finding) otherwise.
pub fn check_line(line: &[u8]) {
    let c = classify(line);
    if let Some(reference) = reference_kind(line) {
        match (reference, c.kind) {
            (None, Kind::Empty) => assert!(is_blank(line), "only a blank line is empty"),
            (None, kind) => assert_eq!(kind, Kind::ParseError, "reference rejects the line"),
            (Some(expected), kind) => assert_eq!(kind, expected, "reference reads another kind"),
        }
    }
    check_spans(line, &c);
    check_replies(&c);
    check_mcp(line, &c);
}

/// The MCP profile only narrows: a message may become an invalid request
/// or response, nothing else changes kind; only an invalid response with a
/// string or number id (not rule (a)) has a substitute, which is a
/// response echoing that id's exact text; the rest of the classification
/// is the JSON-RPC profile's. But for SPEC 10.6: a line after a byte order
/// mark is the rest of the line; a damaged line may carry its readable id
/// and method; a batch's reply may be one per request.
fn check_mcp(line: &[u8], jsonrpc: &Classification<'_>) {
    let mcp = Profile::Mcp.classify(line);
    if line.starts_with(b"\xEF\xBB\xBF\xEF\xBB\xBF") {
        // A second mark is damage: it is no `{`, so nothing is read.
        assert_eq!((mcp.kind, mcp.id, mcp.method.as_deref()), (Kind::ParseError, None, None));
        return;
    }
    if let Some(rest) = line.strip_prefix(b"\xEF\xBB\xBF") {
        // (a): as the rest of the line, its spans three bytes on.
        let after = Profile::Mcp.classify(rest);
        assert_eq!((mcp.kind, mcp.id_kind, mcp.id), (after.kind, after.id_kind, after.id));
        assert_eq!(
            (mcp.method.as_deref(), mcp.reply(Role::Server)),
            (after.method.as_deref(), after.reply(Role::Server))
        );
        assert_eq!(mcp.substitute(), after.substitute());
        let moved: Vec<_> = after.spans.named().map(|(name, span)| (name, span.offset + 3, span.len)).collect();
        assert_eq!(mcp.spans.named().map(|(name, span)| (name, span.offset, span.len)).collect::<Vec<_>>(), moved);
        return check_mcp(rest, &classify(rest));
    }
    match (jsonrpc.kind, mcp.kind) {
        (a, b) if a == b => {}
        (Kind::Request | Kind::Notification, Kind::InvalidRequest) => {}
        (Kind::Response, Kind::InvalidResponse) => {}
        (a, b) => panic!("the MCP profile turned {a:?} into {b:?}"),
    }
    if mcp.kind == Kind::ParseError && mcp.id.is_some() {
        return check_damaged(line, &mcp);
    }
    assert_eq!(
        (mcp.id, mcp.id_kind, mcp.spans, mcp.names_no_request),
        (jsonrpc.id, jsonrpc.id_kind, jsonrpc.spans, jsonrpc.names_no_request)
    );
    assert_eq!(
        mcp.reason.is_some(),
        matches!(mcp.kind, Kind::ParseError | Kind::InvalidRequest | Kind::InvalidResponse)
    );
    match mcp.substitute() {
        None => assert!(
            mcp.kind != Kind::InvalidResponse
                || !mcp.id_kind.is_echoable()
                || matches!(
                    mcp.reason,
                    Some(jsonrpc_envelope::Reason::McpResponse(jsonrpc_envelope::ResponseFault::Id(_)))
                )
        ),
        Some(text) => {
            assert_eq!(mcp.kind, Kind::InvalidResponse);
            assert_eq!(reference_kind(text.as_bytes()), Some(Some(Kind::Response)), "a substitute is a response");
            assert!(
                text.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{},"error":{{"code":-32603,"#, mcp.id.unwrap()))
            );
        }
    }
    for role in [Role::Server, Role::Client] {
        let Some(reply) = mcp.reply(role) else { continue };
        // A batch's requests are each answered, one line each (10.6 (b)).
        for one in reply.split('\n') {
            assert_eq!(reference_kind(one.as_bytes()), Some(Some(Kind::Response)), "a reply is a response");
        }
        if mcp.kind == Kind::Batch {
            assert_eq!(role, Role::Server);
            continue;
        }
        // The reply echoes the id only where it is a string or a number.
        let echoed = reply.contains(&format!(r#""id":{},"#, mcp.id.unwrap_or("null")));
        assert!(echoed || !mcp.id_kind.is_echoable() || mcp.kind != Kind::InvalidRequest, "{reply}");
    }
}

/// SPEC 10.6 (c): a damaged line's readable id (a string or an integer,
/// the line's bytes at its span) and, for a request, method; a damaged
/// request is answered -32700 by its id in role server, a damaged response
/// never, and carries the substitute for its id.
fn check_damaged(line: &[u8], mcp: &Classification<'_>) {
    let id = mcp.id.unwrap();
    assert_eq!(Some(id.as_bytes()), mcp.spans.id.map(|s| s.of(line)));
    assert!(mcp.id_kind.is_echoable());
    assert!(mcp.spans.params.is_none() && mcp.spans.result.is_none() && mcp.spans.error.is_none());
    assert!(!mcp.jsonrpc_2_0 && !mcp.has_result && !mcp.has_error && !mcp.names_no_request);
    assert_eq!(mcp.reply(Role::Client), None);
    match mcp.method {
        Some(_) => {
            assert!(mcp.spans.method.is_some() && mcp.substitute().is_none());
            let reply = mcp.reply(Role::Server).expect("a damaged request is answered");
            assert!(reply.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32700,"#)), "{reply}");
        }
        None => {
            assert_eq!(mcp.reply(Role::Server), None, "a damaged response is never answered");
            let text = mcp.substitute().expect("a damaged response has a substitute");
            assert!(text.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"#)));
        }
    }
}

fn check_spans(line: &[u8], c: &Classification<'_>) {
    for (name, span) in c.spans.named() {
        assert!(span.len > 0 && span.offset + span.len <= line.len(), "{name} span inside the line");
        let value = span.of(line);
        assert!(!matches!(reference_kind(value), Some(None)), "{name} span is one JSON value");
    }
    assert_eq!(c.id.map(str::as_bytes), c.spans.id.map(|s| s.of(line)), "id text is the span's bytes");
    assert_eq!(c.id_kind == IdKind::Absent, c.id.is_none());
    assert_eq!(c.reason.is_some(), matches!(c.kind, Kind::ParseError | Kind::InvalidRequest));
}

fn check_replies(c: &Classification<'_>) {
    for role in [Role::Server, Role::Client] {
        let expected_code = match (c.kind, role) {
            (Kind::InvalidRequest, _) | (Kind::Batch | Kind::NotObject, Role::Server) => Some(-32600),
            (Kind::ParseError, Role::Server) => Some(-32700),
            _ => None,
        };
        let reply = c.reply(role);
        assert_eq!(reply.is_some(), expected_code.is_some(), "{:?} as {role:?} owes a reply", c.kind);
        let Some(reply) = reply else { continue };
        // The reply echoes the id text exactly, lone surrogates included.
        assert_eq!(reference_kind(reply.as_bytes()), Some(Some(Kind::Response)), "a reply is a response");
        let code = reply.split_once(r#""code":"#).and_then(|(_, rest)| rest.split_once(',')).unwrap().0;
        assert_eq!(code, expected_code.unwrap().to_string());
        let id_text = reply.split_once(r#","id":"#).and_then(|(_, rest)| rest.split_once(r#","error":"#)).unwrap().0;
        let echoable = c.kind == Kind::InvalidRequest && c.id_kind.is_echoable();
        assert_eq!(id_text, if echoable { c.id.unwrap() } else { "null" }, "the reply's id");
    }
}
