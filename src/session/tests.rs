use super::*;
use crate::Reader;

/// The decisions for `stream`, read in one piece by `session`.
fn decide(session: &mut Session, stream: &[u8]) -> Vec<(Action, Option<String>)> {
    decide_within(session, stream, 0)
}

/// The same, for lines of at most `max_line` bytes.
fn decide_within(session: &mut Session, stream: &[u8], max_line: usize) -> Vec<(Action, Option<String>)> {
    let mut reader = Reader::with_profile(max_line, session.profile());
    let mut out: Vec<_> = reader.feed(stream).unwrap().map(|line| session.decide(&line)).collect();
    out.extend(reader.end().unwrap().map(|line| session.decide(&line)));
    out.into_iter().map(|d| (d.action, d.text)).collect()
}

const SUBSTITUTE_7: &str = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}"#;

#[test]
fn an_invalid_response_is_substituted_only_while_its_request_is_outstanding() {
    let mut s = Session::new(Role::Client, Profile::Mcp);
    let bad = b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n";
    assert_eq!(decide(&mut s, bad), [(Action::Drop, None)]);
    s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#);
    assert_eq!(s.outstanding(), 1);
    assert_eq!(decide(&mut s, bad), [(Action::Substitute, Some(SUBSTITUTE_7.to_owned()))]);
    assert_eq!(s.outstanding(), 0);
    // Answered once: a second one waits on nothing.
    assert_eq!(decide(&mut s, bad), [(Action::Drop, None)]);
}

#[test]
fn ids_are_compared_as_a_host_compares_them() {
    let mut s = Session::new(Role::Server, Profile::Mcp);
    s.sent(br#"{"jsonrpc":"2.0","id":"ab","method":"sampling/createMessage","params":{}}"#);
    s.sent(br#"{"jsonrpc":"2.0","id":-0,"method":"roots/list"}"#);
    assert_eq!(s.outstanding(), 2);
    let answers =
        b"{\"jsonrpc\":\"2.0\",\"id\":\"\\u0061b\",\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n";
    assert_eq!(decide(&mut s, answers), [(Action::Forward, None), (Action::Forward, None)]);
    assert_eq!(s.outstanding(), 0);
}

#[test]
fn the_handshake_rule_attributes_an_error_to_the_one_request_outstanding() {
    let mut s = Session::new(Role::Client, Profile::Mcp);
    s.sent(br#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}"#);
    let absent = b" {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\r\n";
    assert_eq!(
        decide(&mut s, absent),
        [(
            Action::Attribute,
            Some(r#"{"id":"init","jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#.to_owned())
        )]
    );
    s.sent(br#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#);
    let null = b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}\n";
    assert_eq!(
        decide(&mut s, null),
        [(Action::Attribute, Some(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"x"}}"#.to_owned()))]
    );
    // None outstanding, or two: nobody to give it to.
    assert_eq!(decide(&mut s, null), [(Action::Drop, None)]);
    s.sent(br#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#);
    s.sent(br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#);
    assert_eq!(decide(&mut s, null), [(Action::Drop, None)]);
    assert_eq!(s.outstanding(), 2);
}

#[test]
fn what_is_no_message_is_answered_by_a_server_and_diverted_by_a_client() {
    let stream = b"{\"jsonrpc\":\"2.0\",\n[]\n\n{\"level\":\"info\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}\n";
    let parse_error = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
    let batch = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: this server doesn't accept batches"}}"#;
    let method = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the method must be a string, not a number"}}"#;
    let mut server = Session::new(Role::Server, Profile::Mcp);
    assert_eq!(
        decide(&mut server, stream),
        [
            (Action::Answer, Some(parse_error.to_owned())),
            (Action::Answer, Some(batch.to_owned())),
            (Action::Drop, None),
            (Action::Drop, None),
            (Action::Answer, Some(method.to_owned())),
        ]
    );
    let mut client = Session::new(Role::Client, Profile::Mcp);
    assert_eq!(
        decide(&mut client, stream),
        [
            (Action::Divert, None),
            (Action::Divert, None),
            (Action::Divert, None),
            (Action::Divert, None),
            (Action::Answer, Some(method.to_owned())),
        ]
    );
    // Too long: dropped in either role.
    let long = [vec![b'x'; 100], b"\n".to_vec()].concat();
    assert_eq!(decide_within(&mut client, &long, 64), [(Action::Drop, None)]);
}

#[test]
fn the_jsonrpc_profile_forwards_every_message_and_tracks_nothing() {
    let mut s = Session::new(Role::Server, Profile::JsonRpc);
    s.sent(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#);
    assert_eq!(s.outstanding(), 0);
    let stream = b"{\"id\":null,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"error\":{}}\n{\"id\":1,\"result\":5}\n";
    assert_eq!(decide(&mut s, stream), vec![(Action::Forward, None); 3]);
    // The MCP profile answers a null id itself.
    let mut mcp = Session::new(Role::Server, Profile::Mcp);
    let null_id = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an MCP id must be a string or an integer, not null"}}"#;
    assert_eq!(
        decide(&mut mcp, b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n"),
        [(Action::Answer, Some(null_id.to_owned()))]
    );
}

#[test]
fn a_refused_line_is_answered_substituted_or_dropped() {
    let mut s = Session::new(Role::Server, Profile::Mcp);
    let request = s.refused(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    assert_eq!(request.action, Action::Answer);
    assert_eq!(
        request.text.as_deref(),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}"#
        )
    );
    let response = s.refused(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
    assert_eq!((response.action, response.text.as_deref()), (Action::Substitute, Some(SUBSTITUTE_7)));
    let notification = s.refused(br#"{"jsonrpc":"2.0","method":"notifications/x"}"#);
    assert_eq!((notification.action, notification.text), (Action::Drop, None));
    assert!(notification.note.is_some());
}

#[test]
fn a_refused_substitute_is_dropped_so_a_second_refusal_settles_it() {
    let refused_too = Some("the receiving SDK's decoder refused the substitute too");
    let mut s = Session::new(Role::Client, Profile::Mcp);
    s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#);
    // The SDK refused a response, then the substitute handed on instead.
    let first = s.refused(br#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
    assert_eq!((first.action, first.text.as_deref()), (Action::Substitute, Some(SUBSTITUTE_7)));
    let second = s.refused(first.text.unwrap().as_bytes());
    assert_eq!((second.action, second.text, second.note), (Action::Drop, None, refused_too));
    // A substitute the session decided on is settled the same way.
    s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#);
    let decided = decide(&mut s, b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n");
    assert_eq!(decided, [(Action::Substitute, Some(SUBSTITUTE_7.to_owned()))]);
    let refused = s.refused(SUBSTITUTE_7.as_bytes());
    assert_eq!((refused.action, refused.text, refused.note), (Action::Drop, None, refused_too));
    // Another error response for the id is no substitute: refused, it
    // gets one.
    let other = br#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"other"}}"#;
    assert_eq!(s.refused(other).text.as_deref(), Some(SUBSTITUTE_7));
    // Bytes that differ, even by whitespace, are another line.
    let spaced = format!("{SUBSTITUTE_7} ");
    assert_eq!(s.refused(spaced.as_bytes()).action, Action::Substitute);
    // A refused request's reply goes back to the peer, never to the SDK,
    // so it is never refused in its turn: a request refused twice is
    // answered twice.
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert_eq!((s.refused(ping).action, s.refused(ping).action), (Action::Answer, Action::Answer));
}

#[test]
fn a_peer_that_never_answers_cannot_grow_the_session_without_bound() {
    let mut s = Session::new(Role::Client, Profile::Mcp);
    for n in 0..MAX_OUTSTANDING + 100 {
        s.sent(format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"ping"}}"#).as_bytes());
    }
    assert_eq!(s.outstanding(), MAX_OUTSTANDING);
    // The same id twice is one request outstanding.
    let mut t = Session::new(Role::Client, Profile::Mcp);
    t.sent(br#"{"jsonrpc":"2.0","id":"x","method":"ping"}"#);
    t.sent(br#"{"jsonrpc":"2.0","id":"\u0078","method":"ping"}"#);
    assert_eq!(t.outstanding(), 1);
    let long = format!(r#"{{"jsonrpc":"2.0","id":"{}","method":"ping"}}"#, "y".repeat(MAX_OUTSTANDING_BYTES));
    t.sent(long.as_bytes());
    assert_eq!(t.outstanding(), 1, "an id past the byte bound is not kept");
}

#[test]
fn a_message_some_sdk_reader_would_refuse_as_it_stands_is_forwarded_normalized() {
    let mut s = Session::new(Role::Server, Profile::Mcp);
    let stream =
        b" {\"jsonrpc\" : 2.0, \"id\":7,\r\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"a\": \"b c\"}}\t\n\
{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\r\n{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n";
    assert_eq!(
        decide(&mut s, stream),
        [
            (Action::Forward, Some(r#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":"b c"}}"#.to_owned())),
            (Action::Forward, Some(r#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#.to_owned())),
            (Action::Forward, None),
        ]
    );
    // The JSON-RPC profile hands every line on as it stands.
    let mut j = Session::new(Role::Server, Profile::JsonRpc);
    assert!(decide(&mut j, stream).iter().all(|d| d == &(Action::Forward, None)));
}

#[test]
fn every_request_whose_id_is_in_the_line_is_answered_by_it() {
    // SPEC 10.6: a byte order mark, a batch, a damaged line, a line too
    // long to read, each from a host waiting on its requests.
    let mut s = Session::new(Role::Server, Profile::Mcp);
    let stream = [
        &b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}\n"[..],
        b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":\"2\",\"method\":\"tools/list\"}]\n",
        b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"arguments\":{\"text\":\"a\xFFb\"}}}\n",
        b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"arguments\":{\"text\":\"",
        &[b'x'; 200],
        b"\"}}}\n",
    ]
    .concat();
    let batch = |id: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32600,"message":"Invalid Request: MCP has no batches; send each request on its own line"}}}}"#
        )
    };
    assert_eq!(
        decide_within(&mut s, &stream, 128),
        [
            (Action::Forward, Some(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#.to_owned())),
            (Action::Answer, Some(format!("{}\n{}", batch("1"), batch(r#""2""#)))),
            (Action::Answer, Some(r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"Parse error"}}"#.to_owned())),
            (
                Action::Answer,
                Some(
                    r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}"#
                        .to_owned()
                )
            ),
        ]
    );
    // A client reads no reply into a damaged line: it diverts it.
    let mut client = Session::new(Role::Client, Profile::Mcp);
    assert_eq!(decide(&mut client, &stream[..stream.len() - 206]).last(), Some(&(Action::Divert, None)));
}

#[test]
fn a_damaged_or_too_long_response_is_substituted_while_its_id_is_outstanding() {
    let mut s = Session::new(Role::Client, Profile::Mcp);
    let damaged = b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"\xFF\"}}\n";
    assert_eq!(decide(&mut s, damaged), [(Action::Divert, None)]);
    s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call"}"#);
    assert_eq!(decide(&mut s, damaged), [(Action::Substitute, Some(SUBSTITUTE_7.to_owned()))]);
    assert_eq!(s.outstanding(), 0);
    // Too long, in pieces: its first bytes hold the id.
    s.sent(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call"}"#);
    let mut reader = Reader::with_profile(64, Profile::Mcp);
    let mut got = Vec::new();
    for piece in [&b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\""[..], &[b'y'; 100], b"\"}}\n"] {
        got.extend(reader.feed(piece).unwrap().map(|line| s.decide(&line)));
    }
    assert_eq!(got.len(), 1);
    assert_eq!((got[0].action, got[0].text.as_deref()), (Action::Substitute, Some(SUBSTITUTE_7)));
    // The JSON-RPC profile reads no head: dropped as before.
    let mut j = Session::new(Role::Server, Profile::JsonRpc);
    let long = [&b"{\"id\":1,\"method\":\"m\",\"params\":\""[..], &[b'z'; 100], b"\"}\n"].concat();
    assert_eq!(decide_within(&mut j, &long, 64), [(Action::Drop, None)]);
}

#[test]
fn a_server_drops_a_response_nobody_waits_for_and_a_client_forwards_it() {
    // SPEC 10.8 (a): rmcp's server ends its session on such a line.
    let stray = b"{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}\n";
    let mut server = Session::new(Role::Server, Profile::Mcp);
    assert_eq!(decide(&mut server, stray), [(Action::Drop, None)]);
    server.sent(br#"{"jsonrpc":"2.0","id":9,"method":"roots/list"}"#);
    assert_eq!(decide(&mut server, stray), [(Action::Forward, None)]);
    assert_eq!(decide(&mut server, stray), [(Action::Drop, None)], "answered once");
    let mut client = Session::new(Role::Client, Profile::Mcp);
    assert_eq!(decide(&mut client, stray), [(Action::Forward, None)]);
    let mut jsonrpc = Session::new(Role::Server, Profile::JsonRpc);
    assert_eq!(decide(&mut jsonrpc, stray), [(Action::Forward, None)]);
    // Once a request went untracked, an unmatched response may be its.
    for n in 0..=MAX_OUTSTANDING {
        server.sent(format!(r#"{{"jsonrpc":"2.0","id":"r{n}","method":"ping"}}"#).as_bytes());
    }
    assert_eq!(decide(&mut server, stray), [(Action::Forward, None)]);
}

#[test]
fn action_names_are_the_records_words() {
    let names: Vec<_> = Action::ALL.iter().map(|a| a.name()).collect();
    assert_eq!(names, ["forwarded", "answered", "substituted", "attributed", "dropped", "diverted"]);
    assert!(Action::Substitute.hands_on() && !Action::Divert.hands_on());
}
