//! The guard in front of a deliberately naive server
//! (examples/guard/naive_server.py: it pollutes its stdout, and exits on any
//! line it cannot parse or any invalid request), fed the abuse lines of
//! issue #14, by each profile. Expected replies are the vectors'
//! (tests/vectors: envelope.jsonl for the JSON-RPC profile, mcp.jsonl for
//! the MCP one), or the naive server's own answers written out literally.

#[path = "../../tests/common/mod.rs"]
mod common;
mod support;

use support::{Session, naive_server, scratch, split_stderr};

#[derive(Clone, Copy, PartialEq)]
enum Profile {
    JsonRpc,
    Mcp,
}

/// The vector named `name` in `profile`'s file (mcp.jsonl names the lines
/// of envelope.jsonl `envelope: NAME`): its line, and its `server` and
/// `client` replies.
fn vector(profile: Profile, name: &str) -> (Vec<u8>, Option<String>, Option<String>) {
    let (cases, name) = match profile {
        Profile::JsonRpc => (common::envelope_cases(), name.to_owned()),
        Profile::Mcp => (common::mcp_cases(), format!("envelope: {name}")),
    };
    let case = cases.into_iter().find(|c| c.name == name).unwrap_or_else(|| panic!("vector {name:?}"));
    let reply = |role: &str| case.expected[role].as_str().map(str::to_owned);
    (case.line.clone(), reply("reply_server"), reply("reply_client"))
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"naive-server","version":"0.1"}}}"#;

fn ping(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#)
}

fn pong(id: u32) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
}

struct Abuse {
    /// The line as sent, with its ending.
    line: Vec<u8>,
    /// What the host gets for it, in order.
    host_gets: Vec<String>,
    /// Whether the line reaches the server.
    reaches_server: bool,
}

fn with_lf(mut line: Vec<u8>) -> Vec<u8> {
    line.push(b'\n');
    line
}

const ID_NULL: &str = "request with id null is a request, answered with id null";

/// Issue #14's abuse lines. A line the guard answers gets its vector's
/// `server` reply; a request the guard forwards gets the server's answer.
fn abuse_lines(profile: Profile) -> Vec<Abuse> {
    let answered = |name| {
        let (line, reply, _) = vector(profile, name);
        Abuse { line: with_lf(line), host_gets: vec![reply.expect("a server reply")], reaches_server: false }
    };
    let dropped = |line: Vec<u8>| Abuse { line, host_gets: vec![], reaches_server: false };
    let (crlf, no_reply, _) = vector(profile, "CRLF line");
    assert_eq!(no_reply, None);
    assert!(crlf.ends_with(b"}\r\n"), "the CRLF vector carries its own line ending");
    let id_null = match profile {
        // id null is a JSON-RPC request: forwarded, and the server answers it.
        Profile::JsonRpc => {
            let (id_null, no_reply, _) = vector(profile, ID_NULL);
            assert_eq!(no_reply, None);
            Abuse {
                line: with_lf(id_null),
                host_gets: vec![
                    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found: scope/elevate"}}"#
                        .into(),
                ],
                reaches_server: true,
            }
        }
        // MCP ids are never null: the guard answers it.
        Profile::Mcp => answered(ID_NULL),
    };
    vec![
        id_null,
        answered("object id is an invalid request"),
        answered("number method with a string id echoes the id"),
        answered("batch of one request"),
        answered("plain text"),
        answered("string"),
        dropped(with_lf(vector(profile, "empty line").0)),
        dropped(with_lf(vector(profile, "log line").0)),
        Abuse { line: crlf, host_gets: vec![pong(11)], reaches_server: true },
        dropped(with_lf(vec![b'x'; 64 << 20])),
    ]
}

#[test]
fn the_naive_server_dies_on_an_abuse_line_without_the_guard() {
    // The control: without the guard, one empty line ends the session.
    let mut session = Session::start(std::process::Command::new("python3").arg(naive_server()));
    session.send_line(INITIALIZE);
    session.send(b"\n");
    session.send_line(&ping(2));
    let mut out = Vec::new();
    while let Some(line) = session.line() {
        out.push(String::from_utf8_lossy(&line).into_owned());
    }
    let (status, stderr) = session.finish();
    assert_eq!(status.code(), Some(3), "{stderr}");
    assert!(out.contains(&"naive-server 0.1 listening on stdio\n".to_owned()), "{out:?}");
    assert!(!out.contains(&format!("{}\n", pong(2))), "{out:?}");
}

#[test]
fn every_abuse_line_is_answered_as_spec_says_and_the_naive_server_lives() {
    abuse(Profile::Mcp, &[]);
}

#[test]
fn by_the_jsonrpc_profile_every_abuse_line_is_answered_as_spec_says_and_the_naive_server_lives() {
    abuse(Profile::JsonRpc, &["--profile", "jsonrpc"]);
}

/// The abuse lines through the guard run with `options`, which read lines
/// by `profile`.
fn abuse(profile: Profile, options: &[&str]) {
    let dir = scratch(if profile == Profile::Mcp { "naive-mcp" } else { "naive-jsonrpc" });
    let log = dir.join("server-saw.jsonl");
    let (server, log_arg) = (naive_server(), log.to_str().unwrap().to_owned());
    let mut args = vec!["guard"];
    args.extend_from_slice(options);
    args.extend(["--", "python3", &server, "--log", &log_arg]);
    let mut session = Session::guard(&args);
    let mut server_saw: Vec<Vec<u8>> = Vec::new();
    let mut exchange = |session: &mut Session, line: &[u8], reaches_server: bool, host_gets: &[String]| {
        session.send(line);
        if reaches_server {
            // By the MCP profile a message reaches the server in a form
            // every SDK's reader takes (SPEC 10.5): here, without the CR of
            // the CRLF line; by the JSON-RPC profile as it was sent.
            let line = match (profile, line.strip_suffix(b"\r\n")) {
                (Profile::Mcp, Some(bare)) => [bare, b"\n"].concat(),
                _ => line.to_vec(),
            };
            server_saw.push(line);
        }
        for expected in host_gets {
            assert_eq!(&session.text_line(), expected);
        }
    };

    exchange(&mut session, format!("{INITIALIZE}\n").as_bytes(), true, &[INITIALIZED.into()]);
    for (id, abuse) in (100..).zip(abuse_lines(profile)) {
        let mut host_gets = abuse.host_gets.clone();
        host_gets.push(pong(id));
        exchange(&mut session, &abuse.line, abuse.reaches_server, &[]);
        exchange(&mut session, format!("{}\n", ping(id)).as_bytes(), true, &host_gets);
    }

    // The server's own broken request is answered by the guard with the
    // vector's `client` reply; the host never sees it.
    let (broken, _, client_reply) = vector(profile, "number method with a string id echoes the id");
    let call = r#"{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"echo","arguments":{"text":"send a broken request"}}}"#;
    let called = r#"{"jsonrpc":"2.0","id":20,"result":{"content":[{"type":"text","text":"send a broken request"}]}}"#;
    exchange(&mut session, format!("{call}\n").as_bytes(), true, &[called.into()]);
    exchange(&mut session, format!("{}\n", ping(21)).as_bytes(), true, &[pong(21)]);
    session.close_stdin();
    assert!(session.at_end(), "nothing but the answers reached the host");
    let (status, stderr) = session.finish();
    assert_eq!(status.code(), Some(0), "the server lived to see the end of its input: {stderr}");

    // What reached the server: the forwarded lines byte for byte (the CRLF
    // line with its CR by the JSON-RPC profile), and the guard's reply, right after the tools/call.
    let mut expected = Vec::new();
    for (i, line) in server_saw.iter().enumerate() {
        expected.extend_from_slice(line);
        if line.starts_with(call.as_bytes()) {
            expected.extend_from_slice(client_reply.as_deref().unwrap().as_bytes());
            expected.push(b'\n');
            assert_eq!(server_saw[i + 1], format!("{}\n", ping(21)).into_bytes());
        }
    }
    assert_eq!(String::from_utf8_lossy(&std::fs::read(&log).unwrap()), String::from_utf8_lossy(&expected));

    // The diagnostics: the server's pollution, and each line the guard kept
    // from the server, rendered by log_value, with the action and why. By
    // the MCP profile the server never sees the request with id null, and
    // so writes two lines fewer (its log line and its answer).
    let (ours, theirs) = split_stderr(&stderr);
    assert!(theirs.is_empty(), "the naive server said something: {theirs:?}");
    let (echo, broken_at) = if profile == Profile::Mcp { (28, 29) } else { (30, 31) };
    let mut expected = vec![
        "to_host line 1: parse_error, diverted (not a message): naive-server 0.1 listening on stdio".to_owned(),
        r#"to_host line 2: not_jsonrpc, diverted (not a message): {"level":"info","msg":"ready","tools":["echo"]}"#
            .to_owned(),
        "to_host line 3: parse_error, diverted (not a message): handling initialize".to_owned(),
        format!("to_host line {echo}: parse_error, diverted (not a message): echo: send a broken request"),
        format!(r#"to_host line {broken_at}: invalid_request, answered (owed a reply): {{"jsonrpc":"2.0","id":"a","method":7}}"#),
        r#"to_server line 4: invalid_request, answered (owed a reply): {"jsonrpc":"2.0","id":{"nested":[1]},"method":"scope/elevate"}"#.to_owned(),
        r#"to_server line 6: invalid_request, answered (owed a reply): {"jsonrpc":"2.0","id":"a","method":7}"#.to_owned(),
        r#"to_server line 8: batch, answered (owed a reply): [{"jsonrpc":"2.0","method":"ping","id":1}]"#.to_owned(),
        "to_server line 10: parse_error, answered (owed a reply): Server listening on port 3000".to_owned(),
        r#"to_server line 12: not_object, answered (owed a reply): "hello""#.to_owned(),
        "to_server line 14: empty, dropped (not a message): ".to_owned(),
        r#"to_server line 16: not_jsonrpc, dropped (not a message): {"level":"info","msg":"server started","port":8080}"#.to_owned(),
        "to_server line 20: too_long, dropped (longer than the line limit): a line of 67108864 bytes".to_owned(),
    ];
    if profile == Profile::Mcp {
        expected.push(
            r#"to_server line 2: invalid_request, answered (owed a reply): {"jsonrpc":"2.0","id":null,"method":"scope/elevate"}"#
                .to_owned(),
        );
    }
    for expected in &expected {
        assert!(ours.contains(&expected.as_str()), "{expected:?} in {ours:#?}");
    }
    // Nothing else: every other line was forwarded.
    let others: Vec<_> = ours.iter().filter(|l| !expected.iter().any(|e| e == *l)).collect();
    assert!(
        others.iter().all(|l| l.starts_with("to_host line ") && l.contains(": parse_error, diverted (not a message): handling ")),
        "{others:#?}"
    );
    assert_eq!(
        broken, br#"{"jsonrpc":"2.0","id":"a","method":7}"#,
        "the naive server's broken request is the vector's"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
