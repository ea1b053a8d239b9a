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
