//! The guard's recording is never behind the wire (SPEC §8, `--record`):
//! a line's entry is in the file before the line, or the guard's text in
//! its place, reaches a peer. A host that kills the guard's whole process
//! group the moment an answer arrives finds every line it read already in
//! the recording, whatever the moment.

mod support;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;
use support::{binary, scratch};

/// Sessions killed, each at a point of its own.
const KILLS: usize = 50;
/// Answers a session would get if it were not killed.
const ANSWERS: u64 = 200;
/// Most lines the host sends at once.
const BURST: u64 = 24;

/// A server that answers what it reads in one write per read: a request
/// `ping` with a response the guard forwards, `bad` with one it substitutes
/// (its result is no object), and `first`, the one request outstanding,
/// with an error that names no request, which it attributes. Its banner is
/// diverted and never reaches the host.
const SERVER: &str = r#"
import json, os
os.write(1, b"server: ready\n")
pending = b""
while True:
    data = os.read(0, 65536)
    if not data:
        break
    *lines, pending = (pending + data).split(b"\n")
    answers = []
    for line in lines:
        message = json.loads(line)
        id, method = message["id"], message["method"]
        if method == "first":
            answers.append('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no id"}}')
        elif method == "bad":
            answers.append('{"jsonrpc":"2.0","id":%d,"result":[]}' % id)
        else:
            answers.append('{"jsonrpc":"2.0","id":%d,"result":{"n":%d}}' % (id, id))
    if answers:
        os.write(1, ("\n".join(answers) + "\n").encode())
"#;

/// xorshift64*: the kill points, reproducible from the seed a failure names.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

fn request(id: u64, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}"}}"#)
}

/// What one session showed: the lines the host read, the requests it sent
/// by id, and the recording.
struct Killed {
    read: Vec<u8>,
    requests: HashMap<u64, String>,
    recording: String,
}

/// A guarded session whose host sends requests (and lines the guard
/// answers itself) in bursts, reads the answers as they arrive, and
/// SIGKILLs the guard's process group as soon as it has read `kill_at`.
fn session(recording: &std::path::Path, kill_at: u64, rng: &mut Rng) -> Killed {
    let _ = std::fs::remove_file(recording);
    let mut guard = Command::new(binary())
        .args(["guard", "--quiet", "--record", recording.to_str().unwrap(), "--", "python3", "-c", SERVER])
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the guard");
    let group = guard.id() as libc::pid_t;
    let mut to_guard = guard.stdin.take().unwrap();
    let mut from_guard = guard.stdout.take().unwrap();
    let mut requests = HashMap::new();
    let (mut read, mut chunk) = (Vec::new(), vec![0; 1 << 16]);
    let (mut sent, mut received) = (0, 0);
    while received < kill_at {
        if received == sent {
            let burst = if sent == 0 { 1 } else { (1 + rng.below(BURST)).min(ANSWERS - sent) };
            let mut lines = String::new();
            for _ in 0..burst {
                let line = match (sent, rng.below(8)) {
                    (0, _) => request(0, "first"),
                    // Answered by the guard: the server never sees it.
                    (_, 0) => "not json".to_owned(),
                    (id, 1) => request(id, "bad"),
                    (id, _) => request(id, "ping"),
                };
                requests.insert(sent, line.clone());
                lines.push_str(&line);
                lines.push('\n');
                sent += 1;
            }
            to_guard.write_all(lines.as_bytes()).expect("write to the guard");
        }
        let n = from_guard.read(&mut chunk).expect("read from the guard");
        assert!(n > 0, "the guard's stdout ended before the kill");
        read.extend_from_slice(&chunk[..n]);
        received = read.iter().filter(|&&b| b == b'\n').count() as u64;
    }
    // SAFETY: kill(2) with the process group this test started (the guard
    // leads it; its child is in it), whose leader is not yet reaped.
    assert_eq!(unsafe { libc::kill(-group, libc::SIGKILL) }, 0);
    guard.wait().expect("wait for the guard");
    // What the guard wrote before it died was delivered too.
    from_guard.read_to_end(&mut read).expect("read the rest");
    let recording = std::fs::read_to_string(recording).unwrap_or_default();
    Killed { read, requests, recording }
}

/// The lines the host read that the recording lacks, and the requests
/// answered by the server that it does not hold as forwarded: empty when
/// the recording is not behind the wire.
fn missing(killed: &Killed) -> Vec<String> {
    // Entries whole (a kill may end the file inside one, after the lines
    // that count were recorded).
    let complete = killed.recording.rfind('\n').map_or("", |end| &killed.recording[..=end]);
    let entries: Vec<Value> = complete.lines().map(|l| serde_json::from_str(l).expect("an entry is JSON")).collect();
    let text = |entry: &Value, field: &str| entry[field].as_str().map(str::to_owned);
    // What the guard sent the host, by the recording: lines it handed on
    // from the server, and its answers to the host's lines.
    let mut to_host: HashMap<String, usize> = HashMap::new();
    let mut to_server = Vec::new();
    for entry in &entries {
        let sent = match (entry["dir"].as_str().unwrap(), entry["action"].as_str().unwrap()) {
            ("to_host", "forwarded") => text(entry, "line"),
            ("to_host", "substituted" | "attributed") | ("to_server", "answered") => text(entry, "reply"),
            ("to_server", "forwarded") => {
                to_server.extend(text(entry, "line"));
                None
            }
            _ => None,
        };
        if let Some(sent) = sent {
            *to_host.entry(sent).or_default() += 1;
        }
    }
    let mut missing = Vec::new();
    let whole = killed.read.iter().rposition(|&b| b == b'\n').map_or(&[][..], |end| &killed.read[..=end]);
    for line in String::from_utf8(whole.to_vec()).expect("UTF-8").lines() {
        match to_host.get_mut(line) {
            Some(count) if *count > 0 => *count -= 1,
            _ => missing.push(format!("to_host: {line}")),
        }
        // An answer from the server proves its request reached it.
        let answer: Value = serde_json::from_str(line).expect("the host reads JSON");
        if let Some(id) = answer["id"].as_u64() {
            let request = &killed.requests[&id];
            if !to_server.contains(request) {
                missing.push(format!("to_server: {request}"));
            }
        }
    }
    missing
}

#[test]
fn a_session_killed_as_an_answer_arrives_has_recorded_every_line_the_host_read() {
    // Never 0, which xorshift keeps at 0.
    let seed = std::env::var("GUARD_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64)
        | 1;
    let mut rng = Rng(seed);
    let dir = scratch("kill");
    let recording = dir.join("session.jsonl");
    let mut behind = Vec::new();
    for run in 0..KILLS {
        let kill_at = 1 + rng.below(ANSWERS);
        let killed = session(&recording, kill_at, &mut rng);
        let missing = missing(&killed);
        if !missing.is_empty() {
            behind.push(format!(
                "run {run} (killed after {kill_at} answers): {} line(s) read but not recorded, the first {}",
                missing.len(),
                missing[0]
            ));
        }
    }
    assert!(
        behind.is_empty(),
        "the recording was behind the wire in {} of {KILLS} sessions (GUARD_KILL_SEED={seed}):\n{}",
        behind.len(),
        behind.join("\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
