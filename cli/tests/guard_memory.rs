//! The guard's memory stays within its line limit plus its buffers (SPEC
//! §8), whatever the traffic: a 1 GiB line goes through with the default
//! limit of 16 MiB, dropped as it arrives, and the guard's own peak
//! resident memory (VmHWM, read while it still runs) stays near the limit.

mod support;

use support::{Session, split_stderr};

const GIB: usize = 1 << 30;
const LIMIT: u64 = 16 << 20;
/// The guard's own code, stack and buffers beside the line.
const SLACK: u64 = 8 << 20;

fn peak_rss(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:")?.trim().strip_suffix("kB")?.trim().parse().ok())
        .expect("VmHWM");
    kib << 10
}

#[test]
fn a_1_gib_line_is_dropped_as_it_arrives_and_memory_stays_within_the_limit() {
    let mut session = Session::guard(&["guard", "--", "cat"]);
    let pid = session.pid();
    let mebibyte = vec![b'x'; 1 << 20];
    for _ in 0..GIB / mebibyte.len() {
        session.send(&mebibyte);
    }
    let after = r#"{"jsonrpc":"2.0","method":"after"}"#;
    session.send(format!("\n{after}\n").as_bytes());
    // The next line through proves the long one is behind the guard.
    assert_eq!(session.text_line(), after);
    let peak = peak_rss(pid);
    assert!(peak <= LIMIT + SLACK, "the guard's peak RSS is {} MiB", peak >> 20);
    let (status, stderr) = session.finish();
    assert!(status.success());
    let (ours, _) = split_stderr(&stderr);
    assert_eq!(
        ours,
        [format!("to_server line 1: too_long, dropped (longer than the line limit): a line of {GIB} bytes")]
    );
}
