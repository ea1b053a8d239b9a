//! The guard by the MCP profile (SPEC §10.4), its default: what it answers
//! itself, substitutes and attributes, each against `--profile jsonrpc`,
//! which forwards the same lines unchanged. The children are shell scripts
//! that write fixed lines; every expected text is written out by hand from
//! SPEC §4, §9 and §10.

mod support;

use std::process::Command;

use serde_json::Value;
use support::{Session, binary, run, scratch, split_stderr};

const NULL_ID_PING: &str = r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#;
/// SPEC §10.2, rule 1, with SPEC §4's id null.
const NULL_ID_REPLY: &str = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an MCP id must be a string or an integer, not null"}}"#;
const PING_1: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const TOOLS_LIST_7: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
/// A result that is not an object (SPEC §10.3 (d)).
const INVALID_RESULT_7: &str = r#"{"jsonrpc":"2.0","id":7,"result":[]}"#;
/// SPEC §10.3's substitute, with the id 7.
const SUBSTITUTE_7: &str = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}"#;
const DONE: &str = r#"{"jsonrpc":"2.0","method":"done"}"#;
const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}"#;
const PARSE_ERROR_NULL_ID: &str = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
/// The same error, attributed to the request "init" (SPEC §9's handshake rule).
const PARSE_ERROR_INIT: &str = r#"{"jsonrpc":"2.0","id":"init","error":{"code":-32700,"message":"Parse error"}}"#;

/// `jsonrpc-envelope ARGS...`, with `env` set for it and its child.
fn guard_with(args: &[&str], env: &[(&str, &str)]) -> Session {
    let mut command = Command::new(binary());
    command.args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    Session::start(&mut command)
}

#[test]
fn a_request_with_id_null_is_answered_by_the_guard_and_never_reaches_the_child() {
    let dir = scratch("mcp-null-id");
    let saw = dir.join("child-saw.jsonl");
    // The child keeps what it reads, and writes it back.
    let child = ["sh", "-c", r#"exec tee "$0""#, saw.to_str().unwrap()];
    let mut session = Session::guard(&[&["guard", "--"][..], &child].concat());
    session.send_line(NULL_ID_PING);
    assert_eq!(session.text_line(), NULL_ID_REPLY);
    session.send_line(PING_1);
    assert_eq!(session.text_line(), PING_1, "the child's echo of the next request");
    session.close_stdin();
    assert!(session.at_end());
    let (status, stderr) = session.finish();
    assert!(status.success(), "{stderr}");
    assert_eq!(std::fs::read_to_string(&saw).unwrap(), format!("{PING_1}\n"), "what the child read");
    let (ours, _) = split_stderr(&stderr);
    assert_eq!(ours.len(), 1, "{ours:?}");
    assert!(ours[0].starts_with("to_server line 1: invalid_request, answered ("), "{ours:?}");
    assert!(ours[0].ends_with(&format!("): {NULL_ID_PING}")), "{ours:?}");

    // By the JSON-RPC profile it is a request like any other: forwarded,
    // and the child's echo of it is forwarded back.
    std::fs::remove_file(&saw).unwrap();
    let (status, out, stderr) =
        run(&[&["guard", "--profile", "jsonrpc", "--"][..], &child].concat(), format!("{NULL_ID_PING}\n").as_bytes());
    assert!(status.success(), "{stderr}");
    assert_eq!(String::from_utf8(out).unwrap(), format!("{NULL_ID_PING}\n"));
    assert_eq!(std::fs::read_to_string(&saw).unwrap(), format!("{NULL_ID_PING}\n"));
    assert!(split_stderr(&stderr).0.is_empty(), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reads two lines, answering each with `$LINE`, then writes `$DONE`.
const ANSWER_TWICE: &str =
    r#"read -r a; printf '%s\n' "$LINE"; read -r b; printf '%s\n' "$LINE"; printf '%s\n' "$DONE"; cat > /dev/null"#;

#[test]
fn an_invalid_response_to_an_outstanding_request_is_substituted_and_lint_replays_it() {
    let dir = scratch("mcp-substitute");
    let recording = dir.join("session.jsonl");
    let env = [("LINE", INVALID_RESULT_7), ("DONE", DONE)];
    let mut session =
        guard_with(&["guard", "--record", recording.to_str().unwrap(), "--", "sh", "-c", ANSWER_TWICE], &env);
    session.send_line(TOOLS_LIST_7);
    assert_eq!(session.text_line(), SUBSTITUTE_7);
    // The same response again: request 7 is answered, nothing waits on it.
    session.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert_eq!(session.text_line(), DONE, "the second invalid response was dropped");
    session.close_stdin();
    assert!(session.at_end());
    let (status, stderr) = session.finish();
    assert!(status.success(), "{stderr}");
    let (ours, _) = split_stderr(&stderr);
    assert_eq!(ours.len(), 2, "{ours:?}");
    assert!(ours[0].starts_with("to_host line 1: invalid_response, substituted ("), "{ours:?}");
    assert!(ours[1].starts_with("to_host line 2: invalid_response, dropped ("), "{ours:?}");
    assert!(ours.iter().all(|l| l.ends_with(&format!("): {INVALID_RESULT_7}"))), "{ours:?}");

    let records: Vec<Value> =
        std::fs::read_to_string(&recording).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let to_host: Vec<&Value> = records.iter().filter(|r| r["dir"] == "to_host").collect();
    assert_eq!(to_host.len(), 3);
    assert_eq!(
        (&to_host[0]["kind"], &to_host[0]["action"], &to_host[0]["reply"], &to_host[0]["line"]),
        (&"invalid_response".into(), &"substituted".into(), &SUBSTITUTE_7.into(), &INVALID_RESULT_7.into())
    );
    assert_eq!((&to_host[1]["action"], &to_host[1]["reply"]), (&"dropped".into(), &Value::Null));
    assert_eq!((&to_host[2]["action"], &to_host[2]["line"]), (&"forwarded".into(), &DONE.into()));

    // lint replays the recording through the sessions, each told of what
    // the other direction sent: the same actions.
    let (status, out, stderr) = run(&["lint", "--recording", "--profile", "mcp", recording.to_str().unwrap()], b"");
    assert_eq!(status.code(), Some(1), "{stderr}");
    let lint = String::from_utf8(out).unwrap();
    let reason = "Invalid Response: the result must be an object, not an array";
    for expected in [
        format!("to_host line 1: invalid_response: {reason}; substituted: "),
        format!("    in its place: {SUBSTITUTE_7}"),
        format!("to_host line 2: invalid_response: {reason}; dropped: "),
        "to_host actions: 1 forwarded, 1 substituted, 1 dropped".to_owned(),
        "to_host 2 would trouble a peer reading as client".to_owned(),
        "to_server 0 would trouble a peer reading as server".to_owned(),
    ] {
        assert!(lint.lines().any(|l| l.starts_with(&expected)), "{expected:?} in\n{lint}");
    }
    // Read by the JSON-RPC profile, the recording's kinds are not the library's.
    let (status, out, _) = run(&["lint", "--recording", recording.to_str().unwrap()], b"");
    assert_eq!(status.code(), Some(1));
    let lint = String::from_utf8(out).unwrap();
    assert!(
        lint.contains("to_host line 1: response: recorded as invalid_response; the library now says response (by the jsonrpc profile)"),
        "{lint}"
    );

    // By the JSON-RPC profile the guard forwards both responses unchanged.
    let (status, out, stderr) = {
        let mut session = guard_with(&["guard", "--profile", "jsonrpc", "--", "sh", "-c", ANSWER_TWICE], &env);
        session.send(format!("{TOOLS_LIST_7}\n{TOOLS_LIST_7}\n").as_bytes());
        let out: Vec<String> = (0..3).map(|_| session.text_line()).collect();
        session.close_stdin();
        assert!(session.at_end());
        let (status, stderr) = session.finish();
        (status, out, stderr)
    };
    assert!(status.success(), "{stderr}");
    assert_eq!(out, [INVALID_RESULT_7, INVALID_RESULT_7, DONE]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_error_that_names_no_request_goes_to_the_one_request_outstanding() {
    let answer_once = r#"read -r a; printf '%s\n' "$LINE"; printf '%s\n' "$DONE"; cat > /dev/null"#;
    let env = [("LINE", PARSE_ERROR_NULL_ID), ("DONE", DONE)];
    let exchange = |options: &[&str], requests: &[&str]| -> (Vec<String>, String) {
        let args = [&["guard"][..], options, &["--", "sh", "-c", answer_once]].concat();
        let mut session = guard_with(&args, &env);
        session.send(requests.iter().map(|r| format!("{r}\n")).collect::<String>().as_bytes());
        let mut out = Vec::new();
        loop {
            let line = session.text_line();
            out.push(line.clone());
            if line == DONE {
                break;
            }
        }
        session.close_stdin();
        assert!(session.at_end());
        let (status, stderr) = session.finish();
        assert!(status.success(), "{stderr}");
        (out, stderr)
    };
    // One request outstanding: the error is its.
    let (out, stderr) = exchange(&[], &[INITIALIZE]);
    assert_eq!(out, [PARSE_ERROR_INIT, DONE]);
    let (ours, _) = split_stderr(&stderr);
    assert_eq!(ours.len(), 1, "{ours:?}");
    assert!(ours[0].starts_with("to_host line 1: response, attributed ("), "{ours:?}");
    // Two outstanding: nobody to give it to; dropped.
    let second = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (out, stderr) = exchange(&[], &[INITIALIZE, second]);
    assert_eq!(out, [DONE]);
    let (ours, _) = split_stderr(&stderr);
    assert!(ours.len() == 1 && ours[0].starts_with("to_host line 1: response, dropped ("), "{ours:?}");
    // By the JSON-RPC profile: forwarded as it is.
    let (out, stderr) = exchange(&["--profile", "jsonrpc"], &[INITIALIZE]);
    assert_eq!(out, [PARSE_ERROR_NULL_ID, DONE]);
    assert!(split_stderr(&stderr).0.is_empty(), "{stderr}");
}

#[test]
fn the_hosts_error_that_names_no_request_goes_to_the_servers_one_request() {
    // A server sends requests too (SPEC §10.4): the host's answer with no id
    // reaches it as the answer to its one outstanding request.
    let dir = scratch("mcp-server-request");
    let saw = dir.join("child-saw.jsonl");
    let request = r#"{"jsonrpc":"2.0","id":"s1","method":"roots/list"}"#;
    let script = r#"printf '%s\n' "$LINE"; head -n 1 > "$0""#;
    let mut session = guard_with(&["guard", "--", "sh", "-c", script, saw.to_str().unwrap()], &[("LINE", request)]);
    assert_eq!(session.text_line(), request);
    session.send_line(r#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"no roots"}}"#);
    assert!(session.at_end(), "the child ended after one line");
    let (status, stderr) = session.finish();
    assert!(status.success(), "{stderr}");
    let got: Value = serde_json::from_str(&std::fs::read_to_string(&saw).unwrap()).unwrap();
    let expected: Value =
        serde_json::from_str(r#"{"jsonrpc":"2.0","id":"s1","error":{"code":-32603,"message":"no roots"}}"#).unwrap();
    assert_eq!(got, expected);
    std::fs::remove_dir_all(&dir).unwrap();
}
