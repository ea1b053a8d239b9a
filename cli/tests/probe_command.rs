//! `jsonrpc-envelope probe` as a command (SPEC §11): the report on stdout,
//! progress on stderr, and its exit statuses. A server behind the guard
//! passes; the same server with a banner printed before it does not; one
//! that cannot start, or ends or hangs in the handshake, is exit status 2.

mod support;

use serde_json::Value;
use support::{binary, naive_server, run};

/// A server that passes: the naive server behind the guard.
fn guarded() -> Vec<String> {
    ["guard", "--quiet", "--", "python3", &naive_server()].map(str::to_owned).into()
}

fn probe(options: &[&str], command: &[String]) -> (Option<i32>, String, String) {
    let mut args = vec!["probe"];
    args.extend_from_slice(options);
    args.push("--");
    args.extend(command.iter().map(String::as_str));
    let (status, out, stderr) = run(&args, b"");
    (status.code(), String::from_utf8(out).expect("UTF-8 report"), stderr)
}

#[test]
fn a_server_that_passes_is_exit_0_with_the_table_on_stdout_and_progress_on_stderr() {
    let mut command = vec![binary().to_owned()];
    command.extend(guarded());
    let (code, out, stderr) = probe(&["--lines", "20", "--seed", "3"], &command);
    assert_eq!(code, Some(0), "{out}\n{stderr}");
    assert!(out.starts_with("jsonrpc-envelope probe: "), "{out}");
    assert!(out.contains("(profile mcp, ") && out.contains(", seed 3, "), "{out}");
    for row in ["envelope vectors", "mcp vectors", "limits", "random"] {
        assert!(out.lines().any(|l| l.starts_with(row)), "{row} in {out}");
    }
    let summary = out.lines().last().unwrap_or_default();
    assert!(summary.starts_with("PASSED: ") && summary.contains(" 0 failed;"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("probe: ")), "progress is not in the report: {out}");
    assert!(stderr.lines().any(|l| l.starts_with("probe: ") && l.ends_with(" lines (legacy), 0 failed")), "{stderr}");
    for grade in ["harmful", "nonconforming", "strict"] {
        assert!(out.lines().any(|l| l.starts_with(grade) && l.contains(" 0  ok ")), "{grade} in {out}");
    }
}

#[test]
fn text_beside_json_is_the_same_run_s_report() {
    let mut command = vec![binary().to_owned()];
    command.extend(guarded());
    let folder = std::env::temp_dir().join(format!("probe-text-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let text_path = folder.join("report.txt");
    let (code, out, stderr) = probe(&["--lines", "3", "--json", "--text", text_path.to_str().unwrap()], &command);
    assert_eq!(code, Some(0), "{out}\n{stderr}");
    let report: Value = serde_json::from_str(&out).expect("one JSON document");
    let text = std::fs::read_to_string(&text_path).unwrap();
    std::fs::remove_dir_all(&folder).unwrap();
    let lines = report["lines"].as_u64().unwrap();
    assert!(text.starts_with("jsonrpc-envelope probe: "), "{text}");
    assert!(text.contains(&format!("PASSED: {lines} of {lines} lines passed, 0 failed;")), "{text}");
}

#[test]
fn a_banner_on_stdout_is_exit_1_and_json_names_it() {
    // The shell writes the banner before the guard starts.
    let script = r#"echo 'banner from sh'; exec "$0" "$@""#;
    let mut command = vec!["sh".to_owned(), "-c".to_owned(), script.to_owned(), binary().to_owned()];
    command.extend(guarded());
    let (code, out, stderr) = probe(&["--json", "--lines", "5"], &command);
    assert_eq!(code, Some(1), "{out}\n{stderr}");
    let report: Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(report["passed"], false, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(report["stdout"]["not_jsonrpc"]["count"], 1, "{report}");
    assert_eq!(report["stdout"]["not_jsonrpc"]["first"][0], "banner from sh", "{report}");
    assert_eq!(report["command"][0], "sh");
    assert_eq!(report["profile"], "mcp");
    assert_eq!(report["seed"], 1);
}

#[test]
fn a_server_that_cannot_start_or_fails_the_handshake_is_one_line_and_exit_2() {
    let cases: [(&[&str], &[&str], &str); 6] = [
        (&[], &["jsonrpc-envelope-no-such-server"], "cannot start jsonrpc-envelope-no-such-server: "),
        (&[], &["sh", "-c", "exit 3"], "the server ended on server/discover (exit status 3)"),
        (&["--era", "legacy"], &["sh", "-c", "exit 3"], "the server ended on initialize (exit status 3)"),
        (&["--timeout", "0.2"], &["sh", "-c", "exec sleep 3"], "the server did not answer initialize in time"),
        (
            &["--timeout", "0.2", "--era", "modern"],
            &["sh", "-c", "exec sleep 3"],
            "the server did not answer server/discover in time: it does not speak the modern era",
        ),
        (&["--timeout", "0.2", "--era", "both"], &["sh", "-c", "exec sleep 3"], "the server speaks neither era: "),
    ];
    for (options, command, why) in cases {
        let command: Vec<String> = command.iter().map(|&a| a.to_owned()).collect();
        let (code, out, stderr) = probe(options, &command);
        assert_eq!(code, Some(2), "{command:?}: {stderr}");
        assert!(out.is_empty(), "{command:?}: {out}");
        // One line says why (under `both`, a progress line per era before it).
        let said: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("probe: ")).collect();
        assert_eq!(said.len(), 1, "{command:?}: {stderr}");
        assert!(said[0].starts_with(&format!("jsonrpc-envelope probe: {why}")), "{command:?}: {stderr}");
    }
}

#[test]
fn usage_errors_are_exit_2() {
    for (args, offending) in [
        (&["probe"][..], "<COMMAND>"),
        (&["probe", "--"], "<COMMAND>"),
        (&["probe", "--lines", "many", "--", "cat"], "'many' for '--lines <N>'"),
        (&["probe", "--seed", "-1", "--", "cat"], "'-1'"),
        (&["probe", "--profile", "json", "--", "cat"], "'json' for '--profile <NAME>'"),
        (&["probe", "--timeout", "0", "--", "cat"], "'0' for '--timeout <SECONDS>'"),
        (&["probe", "--timeout", "soon", "--", "cat"], "'soon' for '--timeout <SECONDS>'"),
        (&["probe", "--frobnicate", "--", "cat"], "'--frobnicate'"),
        (&["probe", "--fail-on", "all", "--", "cat"], "'all' for '--fail-on <GRADE>'"),
        (&["probe", "--era", "2025", "--", "cat"], "'2025' for '--era <ERA>'"),
        (&["probe", "--only", "3", "--", "cat"], "--replay"),
    ] {
        let (status, out, stderr) = run(args, b"");
        assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.is_empty(), "{args:?}");
        assert!(stderr.starts_with("error: ") && stderr.contains(offending), "{args:?}: {stderr}");
    }
    let (status, out, stderr) = run(&["probe", "--replay", "/nonexistent/report.json"], b"");
    assert_eq!((status.code(), out.is_empty()), (Some(2), true));
    assert!(stderr.starts_with("jsonrpc-envelope probe: cannot read /nonexistent/report.json: "), "{stderr}");
    let (status, out, _) = run(&["probe", "--help"], b"");
    assert!(status.success());
    let help = String::from_utf8(out).unwrap();
    for default in [
        "[default: mcp]",
        "[default: 1000]",
        "[default: 1]",
        "[default: 5]",
        "[default: auto]",
        "[default: nonconforming]",
    ] {
        assert!(help.contains(default), "{default} in {help}");
    }
}
