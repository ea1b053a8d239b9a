//! The `jsonrpc-envelope` command as a person or a script uses it.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jsonrpc-envelope"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the CLI");
    // A child that exits early (bad arguments) closes its stdin: not a fault.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().expect("CLI output")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn classify_writes_the_vector_record_of_every_line_in_its_key_order() {
    let cases: Vec<_> = common::envelope_cases().into_iter().filter(|c| !c.line.contains(&b'\n')).collect();
    assert!(cases.len() >= 99);
    let stream = cases.iter().map(|c| c.line.as_slice()).collect::<Vec<_>>().join(&b"\n"[..]);
    let out = run(&["classify"], &stream);
    assert!(out.status.success());
    let text = stdout(&out);
    let records: Vec<&str> = text.lines().collect();
    assert_eq!(records.len(), cases.len());
    let keys = [
        "kind",
        "id_kind",
        "id",
        "method",
        "jsonrpc_2_0",
        "has_result",
        "has_error",
        "names_no_request",
        "spans",
        "reason",
        "reply_server",
        "reply_client",
        "substitute",
    ];
    for (case, record) in cases.iter().zip(records) {
        let mut at = 0;
        for key in keys {
            let found = record[at..].find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("{key} in {record}"));
            at += found;
        }
        let mut record: Value = serde_json::from_str(record).expect("record is JSON");
        // envelope.jsonl has no substitute: the JSON-RPC profile gives none.
        let substitute = record.as_object_mut().unwrap().remove("substitute");
        assert_eq!(substitute, Some(Value::Null), "{}", case.name);
        common::assert_record(case, record);
    }
}

#[test]
fn classify_by_the_mcp_profile_writes_the_record_of_every_mcp_vector() {
    let cases: Vec<_> = common::mcp_cases().into_iter().filter(|c| !c.line.contains(&b'\n')).collect();
    assert!(cases.len() >= 200, "{}", cases.len());
    assert!(cases.iter().any(|c| c.expected["kind"] == "invalid_response" && c.expected["substitute"].is_string()));
    let stream = cases.iter().map(|c| c.line.as_slice()).collect::<Vec<_>>().join(&b"\n"[..]);
    let out = run(&["classify", "--profile", "mcp"], &stream);
    assert!(out.status.success());
    let text = stdout(&out);
    let records: Vec<&str> = text.lines().collect();
    assert_eq!(records.len(), cases.len());
    for (case, record) in cases.iter().zip(records) {
        common::assert_record(case, serde_json::from_str(record).expect("record is JSON"));
    }
}

#[test]
fn the_profile_decides_the_kind_of_a_few_lines_written_out_by_hand() {
    // SPEC §10.1 to §10.3, by hand: a null request id, a fractional one, a
    // result that is no object, and one that is.
    let lines = concat!(
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n",
    );
    let records = |args: &[&str]| -> Vec<Value> {
        let out = run(args, lines.as_bytes());
        assert!(out.status.success());
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let kinds = |records: &[Value]| records.iter().map(|r| r["kind"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    let jsonrpc = records(&["classify"]);
    assert_eq!(jsonrpc, records(&["classify", "--profile", "jsonrpc"]));
    assert_eq!(kinds(&jsonrpc), ["request", "request", "response", "response"]);
    let mcp = records(&["classify", "--profile", "mcp"]);
    assert_eq!(kinds(&mcp), ["invalid_request", "invalid_request", "invalid_response", "response"]);
    assert_eq!(
        mcp[0]["reply_server"],
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an MCP id must be a string or an integer, not null"}}"#
    );
    assert_eq!(mcp[2]["reason"], "Invalid Response: the result must be an object, not an array");
    assert_eq!(
        mcp[2]["substitute"],
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}"#
    );
    assert_eq!(mcp[2]["reply_server"], Value::Null);
    assert_eq!(mcp[3]["substitute"], Value::Null);
}

#[test]
fn classify_reads_a_file_or_stdin_alike_and_keeps_crlf_lines_whole() {
    let dir = std::env::temp_dir().join(format!("jsonrpc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("capture.jsonl");
    let capture = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\nnot json\r\n";
    std::fs::write(&file, capture).unwrap();
    let from_file = run(&["classify", file.to_str().unwrap()], b"");
    let from_stdin = run(&["classify", "-"], capture);
    assert_eq!(stdout(&from_file), stdout(&from_stdin));
    let records: Vec<Value> = stdout(&from_file).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records[0]["kind"], "request");
    assert_eq!(records[1]["kind"], "parse_error");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn classify_reports_a_too_long_line_and_goes_on() {
    let mut input = vec![b'x'; 5000];
    input.extend_from_slice(b"\n{\"id\":1,\"result\":{}}\n");
    let out = run(&["classify", "--max-line", "100"], &input);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], r#"{"kind":"too_long","length":5000}"#);
    assert!(lines[1].starts_with(r#"{"kind":"response""#));
}

#[test]
fn lint_names_each_troubling_line_and_exits_1() {
    let capture = concat!(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n",
        "Server listening on stdio\n",
        "{\"level\":\"info\",\"msg\":\"ready\"}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":7}\n",
        "\n",
    );
    // The JSON-RPC profile (the default): the session forwards the error
    // that names no request, and diverts the empty line, which is no
    // message.
    let out = run(&["lint"], capture.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("line 2: parse_error: not JSON"), "{text}");
    assert!(text.contains("Server listening on stdio; diverted: not a message\n"), "{text}");
    assert!(text.contains("line 3: not_jsonrpc:"), "{text}");
    assert!(text.contains("line 5: invalid_request: Invalid Request: the method must be a string, not a number"));
    assert!(text.contains("not a number; answered: owed a reply\n"), "{text}");
    assert!(text.contains(r#"reply: {"jsonrpc":"2.0","id":2,"error":{"code":-32600"#), "{text}");
    assert!(text.contains("line 6: empty: an empty line; diverted: not a message"), "{text}");
    assert!(!text.contains("line 1:") && !text.contains("line 4:"), "{text}");
    assert!(text.contains("actions: 2 forwarded, 1 answered, 3 diverted\n"), "{text}");
    assert!(text.contains("6 lines:") && text.contains("4 would trouble a peer reading as client"), "{text}");
    assert_eq!(stdout(&run(&["lint", "--profile", "jsonrpc"], capture.as_bytes())), text);

    // The MCP profile drops it: no request of the reader's is outstanding.
    let out = run(&["lint", "--profile", "mcp"], capture.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(
            "line 4: response: an error that names no request: {\"code\":-32700,\"message\":\"Parse error\"}; \
             dropped: an error that names no request, while not exactly one request is outstanding\n"
        ),
        "{text}"
    );
    assert!(text.contains("line 5: invalid_request: Invalid Request: the method must be a string, not a number"));
    assert!(!text.contains("line 1:"), "{text}");
    assert!(text.contains("5 would trouble a peer reading as client"), "{text}");
}

#[test]
fn lint_by_the_mcp_profile_names_an_invalid_response_and_its_reason() {
    let capture = "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{},\"extra\":1}\n";
    let out = run(&["lint", "--profile", "mcp"], capture.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "line 1: invalid_response: Invalid Response: an MCP response has exactly one of result and error, \
             and no members but jsonrpc and id besides; dropped: "
        ),
        "{text}"
    );
    assert!(text.contains("1 lines: 1 invalid_response\n"), "{text}");
    // The JSON-RPC profile has nothing to say about it.
    let out = run(&["lint"], capture.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

#[test]
fn lint_as_server_shows_the_parse_error_reply_and_a_clean_capture_exits_0() {
    let out = run(&["lint", "--role", "server"], b"oops\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains(r#"reply: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#)
    );
    let clean = run(&["lint"], b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
}

#[test]
fn usage_errors_are_clap_s_with_exit_status_2() {
    for (args, offending) in [
        (&["classify", "--max-line", "0"][..], "'0' for '--max-line <BYTES>'"),
        (&["classify", "--max-line", "lots"], "'lots' for '--max-line <BYTES>'"),
        (&["frobnicate"], "'frobnicate'"),
        (&["lint", "--frobnicate"], "'--frobnicate'"),
        (&["lint", "--role", "peer"], "'peer' for '--role <ROLE>'"),
        (&["classify", "--profile", "json"], "'json' for '--profile <NAME>'"),
        (&["lint", "--profile"], "'--profile <NAME>'"),
        (&["lint", "--recording", "--profile", "MCP", "-"], "'MCP' for '--profile <NAME>'"),
        (&["lint", "--recording", "--role", "server", "-"], "'--recording' cannot be used with '--role <ROLE>'"),
        (&["classify", "one.jsonl", "two.jsonl"], "'two.jsonl'"),
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err.lines().next().unwrap_or_default();
        assert!(first.starts_with("error: ") && first.contains(offending), "{args:?}: {err}");
        assert!(err.contains("try '--help'"), "{args:?}: {err}");
    }
    // No command: the help, on stderr.
    let out = run(&[], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: jsonrpc-envelope <COMMAND>"));
}

#[test]
fn input_errors_are_one_line_with_exit_status_2() {
    for command in ["classify", "lint"] {
        let out = run(&[command, "/no/such/file"], b"");
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("jsonrpc-envelope: /no/such/file: "), "{command}: {err}");
        assert_eq!(err.lines().count(), 1, "{command}: {err}");
    }
}

#[test]
fn help_has_examples_and_the_library_s_names_and_defaults() {
    let out = run(&["--help"], b"");
    assert!(out.status.success());
    let help = stdout(&out);
    assert!(help.contains("Examples:"), "{help}");
    for command in ["classify", "lint", "guard", "probe"] {
        assert!(help.contains(&format!("\n  {command} ")), "{command} in {help}");
    }
    for command in ["classify", "lint"] {
        let out = run(&[command, "--help"], b"");
        assert!(out.status.success());
        let help = stdout(&out);
        assert!(help.contains("[possible values: jsonrpc, mcp]"), "{help}");
        assert!(help.contains("[default: jsonrpc]"), "{help}");
        let limits =
            format!("{} for jsonrpc, {} for mcp", jsonrpc_envelope::DEFAULT_MAX_LINE, jsonrpc_envelope::MCP_MAX_LINE);
        assert!(help.contains(&limits), "{help}");
    }
    assert!(stdout(&run(&["lint", "--help"], b"")).contains("[possible values: client, server]"));
    // A value that is no profile: clap's error names the ones there are.
    let unknown = run(&["classify", "--profile", "json"], b"");
    let err = String::from_utf8_lossy(&unknown.stderr);
    assert!(err.contains("invalid value 'json' for '--profile <NAME>'"), "{err}");
    assert!(err.contains("[possible values: jsonrpc, mcp]") && err.contains("'jsonrpc'"), "{err}");
    // A misspelt option: clap suggests the one meant.
    let misspelt = run(&["lint", "--profil", "mcp"], b"");
    assert_eq!(misspelt.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&misspelt.stderr).contains("'--profile'"));
}

#[test]
fn version_is_the_package_s() {
    for flag in ["--version", "-V"] {
        let out = run(&[flag], b"");
        assert!(out.status.success());
        assert_eq!(stdout(&out), format!("jsonrpc-envelope {}\n", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jsonrpc-envelope"))
        .arg("classify")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let line = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".repeat(50_000);
    let _ = child.stdin.take().unwrap().write_all(&line);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty());
}
