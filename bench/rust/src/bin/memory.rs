//! Peak memory: the library classifying a 512 MiB line (its extra memory
//! beyond the line should be a small constant), and the CLI streaming a
//! 2 GiB capture (its peak should stay bounded by its line limit).
//!
//!   memory [PATH-TO-jsonrpc-envelope]

use std::io::Write;
use std::process::{Command, Stdio};

/// A field of /proc/self/status, in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.trim().strip_suffix("kB")?.trim().parse().ok())
        .expect("field in /proc/self/status")
}

fn big_line(bytes: usize) -> Vec<u8> {
    let head = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"data":""#;
    let tail = br#""}}"#;
    let mut line = Vec::with_capacity(bytes);
    line.extend_from_slice(head);
    line.resize(bytes - tail.len(), b'x');
    line.extend_from_slice(tail);
    line
}

fn library(out: &mut String) {
    let line = big_line(512 << 20);
    let before = status_kib("VmRSS:");
    let kind = jsonrpc_envelope::classify(&line).kind;
    let mut c = unsafe {
        jsonrpc_envelope::ffi::jsonrpc_classify(
            line.as_ptr(),
            line.len(),
            jsonrpc_envelope::ffi::JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32,
        )
    };
    unsafe { jsonrpc_envelope::ffi::jsonrpc_classification_free(&mut c) };
    let peak = status_kib("VmHWM:");
    out.push_str(&format!(
        "classify, 512 MiB line ({kind:?}), Rust and C ABI: RSS before {} MiB, peak {} MiB, extra {} KiB\n",
        before >> 10,
        peak >> 10,
        peak.saturating_sub(before)
    ));
}

fn cli(path: &str, out: &mut String) {
    const TOTAL: usize = 2 << 30;
    let medium = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../out/medium.jsonl")).expect("corpus");
    // Written a MiB at a time: the parent's own memory stays small, since a
    // child's peak RSS counts what it shared with its parent before exec.
    let mebibyte = vec![b'x'; 1 << 20];
    let mut child = Command::new(path)
        .args(["classify", "--max-line", &(16 << 20).to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start the CLI");
    let mut stdin = child.stdin.take().unwrap();
    let mut sent = 0;
    let mut round = 0;
    while sent < TOTAL {
        if round % 50 == 49 {
            for _ in 0..100 {
                stdin.write_all(&mebibyte).expect("write to the CLI");
            }
            stdin.write_all(b"\n").expect("write to the CLI");
            sent += 100 << 20;
        } else {
            stdin.write_all(&medium).expect("write to the CLI");
            sent += medium.len();
        }
        round += 1;
    }
    drop(stdin);
    let status = child.wait().expect("CLI exits");
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    out.push_str(&format!(
        "CLI classify, {} MiB streamed (100 MiB lines among them) with --max-line 16 MiB: peak RSS {} MiB ({status})\n",
        sent >> 20,
        usage.ru_maxrss >> 10
    ));
}

fn main() {
    let mut out = String::new();
    // The CLI first, while this process is small (see `cli`).
    if let Some(path) = std::env::args().nth(1) {
        cli(&path, &mut out);
    }
    library(&mut out);
    print!("{out}");
}
