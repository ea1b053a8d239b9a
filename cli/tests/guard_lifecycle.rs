//! The guard's life with its child and its host (SPEC §8): exit status,
//! signals, the ends of both streams, commands that cannot start, bad
//! options, stderr, and a recording read back by lint.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{PATIENCE, Session, binary, naive_server, run, scratch, split_stderr};

const READY: &str = r#"{"jsonrpc":"2.0","method":"ready"}"#;

#[test]
fn the_exit_status_is_the_childs_or_128_plus_its_signal() {
    for (script, code) in
        [("exit 0", 0), ("exit 7", 7), ("exit 255", 255), ("kill -TERM $$", 143), ("kill -KILL $$", 137)]
    {
        let (status, out, stderr) = run(&["guard", "--", "sh", "-c", script], b"");
        assert_eq!(status.code(), Some(code), "{script}: {stderr}");
        assert!(out.is_empty());
    }
}

#[test]
fn sigint_sigterm_and_sighup_are_passed_to_the_child() {
    // The child exits with 40 + the signal's number when it gets one, so its
    // status proves the signal reached it, through the guard.
    let child = format!(
        "import signal, sys, time\n\
         for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):\n    signal.signal(s, lambda n, f: sys.exit(40 + n))\n\
         print({READY:?}, flush=True)\n\
         while True: time.sleep(1)\n"
    );
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let mut session = Session::guard(&["guard", "--", "python3", "-c", &child]);
        assert_eq!(session.text_line(), READY);
        // SAFETY: kill(2) with the pid of a child this test started and has not reaped.
        assert_eq!(unsafe { libc::kill(session.pid(), signal) }, 0);
        let status = wait_with_stdin_open(&mut session);
        assert_eq!(status.code(), Some(40 + signal), "signal {signal}");
    }
    // A child that does not catch it dies of it: 128 + N.
    let mut session = Session::guard(&["guard", "--", "sh", "-c", &format!("echo '{READY}'; exec sleep 60")]);
    assert_eq!(session.text_line(), READY);
    // SAFETY: kill(2) with the pid of a child this test started and has not reaped.
    assert_eq!(unsafe { libc::kill(session.pid(), libc::SIGTERM) }, 0);
    assert_eq!(wait_with_stdin_open(&mut session).code(), Some(128 + libc::SIGTERM));
}

/// Waits for the session's program with its stdin still open: what ends it
/// is not the end of its input.
fn wait_with_stdin_open(session: &mut Session) -> std::process::ExitStatus {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = session.child.try_wait().unwrap() {
            return status;
        }
        assert!(Instant::now() < deadline, "no exit within {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_line_leaves_as_soon_as_its_lf_is_read() {
    let mut session = Session::guard(&["guard", "--", "cat"]);
    for id in 1..=3 {
        let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
        session.send_line(&line);
        // stdin stays open: nothing but the LF can have released the line.
        assert_eq!(session.text_line(), line);
    }
    let (status, _) = session.finish();
    assert!(status.success());
}

#[test]
fn the_end_of_the_hosts_input_ends_the_childs_and_a_last_line_gets_its_lf() {
    let (status, out, stderr) = run(
        &["guard", "--", "sh", "-c", "cat; echo '{\"jsonrpc\":\"2.0\",\"method\":\"bye\"}'; exit 4"],
        b"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"last\"}",
    );
    assert_eq!(status.code(), Some(4), "{stderr}");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"last\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"bye\"}\n"
    );
}

#[test]
fn when_the_host_stops_reading_the_childs_stdin_closes_and_its_status_is_kept() {
    // The host's end of stdout is closed before the guard starts, and its
    // stdin stays open: only the broken pipe can end the child's input.
    let (read_end, write_end) = std::io::pipe().unwrap();
    drop(read_end);
    let mut guard = Command::new(binary())
        .args(["guard", "--", "sh", "-c", &format!("echo '{READY}'; cat > /dev/null; exit 5")])
        .stdin(Stdio::piped())
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let host_stdin = guard.stdin.take();
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = guard.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = guard.kill();
            panic!("the guard did not end when its host stopped reading");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(host_stdin);
    let stderr = std::io::read_to_string(guard.stderr.take().unwrap()).unwrap();
    assert_eq!(status.code(), Some(5), "{stderr}");
    let (ours, _) = split_stderr(&stderr);
    assert_eq!(ours, ["to_host: the host stopped reading: lines to it are dropped from line 1 on"]);
}

#[test]
fn a_command_that_cannot_start_is_127_or_126_with_one_line_that_says_why() {
    let dir = scratch("cannot-start");
    let not_executable = dir.join("server.sh");
    std::fs::write(&not_executable, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&not_executable, std::fs::Permissions::from_mode(0o644)).unwrap();
    let missing = dir.join("missing");
    let cases = [
        ("jsonrpc-envelope-no-such-server", 127, "No such file or directory"),
        (missing.to_str().unwrap(), 127, "No such file or directory"),
        (not_executable.to_str().unwrap(), 126, "Permission denied"),
        (dir.to_str().unwrap(), 126, "Permission denied"),
    ];
    for (command, code, why) in cases {
        let (status, out, stderr) = run(&["guard", "--", command, "--stdio"], b"{}\n");
        assert_eq!(status.code(), Some(code), "{command}: {stderr}");
        assert!(out.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(&format!("jsonrpc-envelope guard: '{command}': {why}")), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_exit_status_2() {
    for (args, offending) in [
        (&["guard"][..], "<COMMAND>"),
        (&["guard", "--"], "<COMMAND>"),
        (&["guard", "--frobnicate", "--", "cat"], "'--frobnicate'"),
        (&["guard", "--max-line", "0", "--", "cat"], "'0' for '--max-line <BYTES>'"),
        (&["guard", "--max-line", "lots", "--", "cat"], "'lots' for '--max-line <BYTES>'"),
        (&["guard", "--max-line"], "'--max-line <BYTES>'"),
        (&["guard", "--record"], "'--record <FILE>'"),
        (&["guard", "--profile", "json", "--", "cat"], "'json' for '--profile <NAME>'"),
    ] {
        let (status, out, stderr) = run(args, b"");
        assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.is_empty(), "{args:?}");
        assert!(stderr.starts_with("error: ") && stderr.contains(offending), "{args:?}: {stderr}");
        assert!(stderr.contains("try '--help'"), "{args:?}: {stderr}");
    }
    // A recording that cannot be opened: the guard's own one line.
    let args = ["guard", "--record", "/no/such/dir/session.jsonl", "--", "cat"];
    let (status, out, stderr) = run(&args, b"");
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(out.is_empty());
    assert!(stderr.starts_with("jsonrpc-envelope guard: --record /no/such/dir/session.jsonl: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn options_after_the_command_are_the_command_s() {
    // COMMAND starts at the first argument that is not an option, `--` or not.
    let script = r#"printf '{"jsonrpc":"2.0","method":"%s %s"}\n' "$0" "$1""#;
    let (status, out, stderr) = run(&["guard", "sh", "-c", script, "--quiet", "--max-line"], b"");
    assert!(status.success(), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(String::from_utf8(out).unwrap(), "{\"jsonrpc\":\"2.0\",\"method\":\"--quiet --max-line\"}\n");
    let (status, _, stderr) = run(&["guard", "--", "sh", "-c", "exit 3", "--frobnicate"], b"");
    assert_eq!(status.code(), Some(3), "{stderr}");
}

#[test]
fn help_names_the_options_and_has_examples() {
    let (status, out, _) = run(&["guard", "--help"], b"");
    assert!(status.success());
    let help = String::from_utf8(out).unwrap();
    for word in ["--record <FILE>", "--pass-invalid", "--quiet", "--max-line <BYTES>", "Examples:", "guard --"] {
        assert!(help.contains(word), "{word}");
    }
    assert!(help.contains("[default: mcp]") && help.contains("[possible values: jsonrpc, mcp]"), "{help}");
    let limits =
        format!("{} for jsonrpc, {} for mcp", jsonrpc_envelope::DEFAULT_MAX_LINE, jsonrpc_envelope::MCP_MAX_LINE);
    assert!(help.contains(&limits), "{help}");
    assert!(help.contains("forwarded, answered, substituted, attributed, dropped, diverted."), "{help}");
    assert!(help.contains("mode 0600"), "{help}");
}

#[test]
fn a_new_recording_is_the_user_s_alone_and_an_existing_one_keeps_its_mode() {
    let dir = scratch("recording-mode");
    let recording = dir.join("session.jsonl");
    let ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    let guard = |umask: &str| {
        let mut command = Command::new("sh");
        command.args(["-c", &format!("umask {umask} && exec \"$0\" \"$@\""), binary(), "guard", "--record"]);
        command.args([recording.to_str().unwrap(), "--", "cat"]);
        let mut session = Session::start(&mut command);
        session.send(ping.as_bytes());
        assert_eq!(session.text_line(), ping.trim_end());
        let (status, stderr) = session.finish();
        assert!(status.success(), "{stderr}");
    };
    let mode = || std::fs::metadata(&recording).unwrap().permissions().mode() & 0o7777;
    let entries = || std::fs::read_to_string(&recording).unwrap();
    for umask in ["022", "000"] {
        let _ = std::fs::remove_file(&recording);
        guard(umask);
        assert_eq!(mode(), 0o600, "umask {umask}: {:o}", mode());
        assert_eq!(entries().lines().count(), 2, "{}", entries());
    }
    // An existing file: appended to, its mode as it was.
    std::fs::write(&recording, "earlier\n").unwrap();
    std::fs::set_permissions(&recording, std::fs::Permissions::from_mode(0o640)).unwrap();
    guard("000");
    assert_eq!(mode(), 0o640, "{:o}", mode());
    let text = entries();
    assert!(text.starts_with("earlier\n{\"t\":"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_childs_stderr_passes_through_and_diagnostics_are_safe_log_text() {
    let script = r#"printf 'child: plain \033[31mred\n' >&2; printf '\033[31mred \342\200\256evil\n'"#;
    let (status, out, stderr) = run(&["guard", "--", "sh", "-c", script], b"");
    assert!(status.success());
    assert!(out.is_empty());
    let (ours, theirs) = split_stderr(&stderr);
    assert_eq!(theirs, ["child: plain \x1b[31mred"]);
    assert_eq!(ours, ["to_host line 1: parse_error, diverted (not a message): \\u001b[31mred \\u202eevil"]);
}

#[test]
fn quiet_keeps_diagnostics_out_and_pass_invalid_forwards_what_would_be_answered() {
    let input = b"not json\n[1]\n";
    let (status, out, stderr) = run(&["guard", "--quiet", "--", "cat"], input);
    assert!(status.success());
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 2, "both lines answered");
    assert!(stderr.is_empty(), "{stderr}");
    // With --pass-invalid the lines reach `cat`, which writes them back,
    // where the guard (reading as a client) diverts them.
    let (status, out, stderr) = run(&["guard", "--pass-invalid", "--", "cat"], input);
    assert!(status.success());
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    let (ours, _) = split_stderr(&stderr);
    assert_eq!(
        ours,
        [
            "to_host line 1: parse_error, diverted (not a message): not json",
            "to_host line 2: batch, diverted (not a message): [1]"
        ]
    );
}

#[test]
fn a_recording_has_every_line_and_lint_reviews_each_direction_with_its_role() {
    let dir = scratch("recording");
    let recording = dir.join("session.jsonl");
    let server = naive_server();
    let mut session = Session::guard(&[
        "guard",
        "--record",
        recording.to_str().unwrap(),
        "--max-line",
        "4096",
        "--quiet",
        "--",
        "python3",
        &server,
    ]);
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"send a broken request"}}}"#;
    session.send_line(call);
    assert!(session.text_line().starts_with(r#"{"jsonrpc":"2.0","id":1,"result":"#));
    session.send(b"p\xffng\n");
    assert_eq!(session.text_line(), r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#);
    session.send(&[b'y'; 5000]);
    session.send(b"\n\n");
    let (status, stderr) = session.finish();
    assert!(status.success(), "{stderr}");
    assert!(stderr.is_empty(), "--quiet: {stderr}");

    let text = std::fs::read_to_string(&recording).unwrap();
    let records: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("a record is JSON")).collect();
    for (line, record) in text.lines().zip(&records) {
        assert!(record["t"].as_f64().unwrap() >= 0.0);
        let last = ["line", "line_base64", "length"].into_iter().find(|k| record.get(*k).is_some()).unwrap();
        let keys = ["t", "dir", "n", "kind", "action", "reply", last];
        assert_eq!(record.as_object().unwrap().len(), keys.len(), "{line}");
        // The fields in SPEC's order: each found after the one before.
        let mut at = 0;
        for key in keys {
            at += line[at..].find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("{key} in order in {line}"));
        }
    }
    // Each direction in its order (the two interleave as the processes ran).
    let brief = |dir: &str| -> Vec<String> {
        records
            .iter()
            .filter(|r| r["dir"] == dir)
            .map(|r| format!("{} {} {}", r["n"], r["kind"].as_str().unwrap(), r["action"].as_str().unwrap()))
            .collect()
    };
    assert_eq!(
        brief("to_server"),
        ["1 request forwarded", "2 parse_error answered", "3 too_long dropped", "4 empty dropped"]
    );
    assert_eq!(
        brief("to_host"),
        [
            "1 parse_error diverted",
            "2 not_jsonrpc diverted",
            "3 parse_error diverted",
            "4 parse_error diverted",
            "5 invalid_request answered",
            "6 response forwarded",
        ]
    );
    let record = |dir: &str, n: u64| records.iter().find(|r| r["dir"] == dir && r["n"] == n).unwrap();
    assert_eq!(record("to_server", 1)["line"], call);
    assert_eq!(record("to_host", 4)["line"], "echo: send a broken request");
    assert_eq!(
        record("to_host", 5)["reply"],
        r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: the method must be a string, not a number"}}"#
    );
    assert_eq!(record("to_server", 2)["line_base64"], "cP9uZw==");
    assert_eq!(
        record("to_server", 2)["reply"],
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
    );
    assert_eq!(record("to_server", 3)["length"], 5000);
    assert_eq!(record("to_server", 4)["line"], "");
    assert_eq!(record("to_host", 6)["reply"], Value::Null);

    // Read by the guard's profile, and by the JSON-RPC one, which calls
    // every line of this session what the MCP profile calls it.
    let (status, out, _) = run(&["lint", "--recording", "--profile", "mcp", recording.to_str().unwrap()], b"");
    assert_eq!(status.code(), Some(1));
    let lint = String::from_utf8(out).unwrap();
    let (status, out, _) = run(&["lint", "--recording", recording.to_str().unwrap()], b"");
    assert_eq!(status.code(), Some(1));
    assert_eq!(String::from_utf8(out).unwrap(), lint);
    for expected in [
        "to_host line 1: parse_error: not JSON",
        "to_host line 2: not_jsonrpc: JSON but not JSON-RPC, such as a log line:",
        "to_host line 5: invalid_request: Invalid Request: the method must be a string, not a number; answered: owed a reply",
        "to_server line 2: parse_error: not JSON",
        r#"    reply: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
        "to_server line 3: too_long: a line of 5000 bytes; dropped: longer than the line limit",
        "to_server line 4: empty: an empty line; dropped: not a message",
        "to_server 4 lines: 1 empty, 1 parse_error, 1 request, 1 too_long",
        "to_server actions: 1 forwarded, 1 answered, 2 dropped",
        "to_server 3 would trouble a peer reading as server",
        "to_host 6 lines: 1 invalid_request, 1 not_jsonrpc, 3 parse_error, 1 response",
        "to_host actions: 1 forwarded, 1 answered, 4 diverted",
        "to_host 5 would trouble a peer reading as client",
    ] {
        assert!(lint.lines().any(|l| l.starts_with(expected)), "{expected:?} in\n{lint}");
    }
    // Read as a client, the server's banner is owed no reply; read as a
    // server, the host's broken line is.
    let after =
        |prefix: &str| lint.lines().skip_while(|l| !l.starts_with(prefix)).nth(1).unwrap_or_default().to_owned();
    assert!(!after("to_host line 1:").starts_with("    reply:"), "{lint}");
    assert!(after("to_server line 2:").starts_with("    reply:"), "{lint}");

    let (status, _, stderr) = run(&["lint", "--recording", "--role", "server", recording.to_str().unwrap()], b"");
    assert_eq!(status.code(), Some(2), "{stderr}");
    std::fs::write(dir.join("capture.jsonl"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n").unwrap();
    let (status, _, stderr) = run(&["lint", "--recording", dir.join("capture.jsonl").to_str().unwrap()], b"");
    assert_eq!(status.code(), Some(2));
    assert!(stderr.contains("recording line 1: not a guard record"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
