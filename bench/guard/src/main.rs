//! What the guard costs a session (issue #14), against the same child
//! without it, measured in turns in one run:
//!
//! - throughput: the small corpus, repeated, through `cat` as the child,
//!   from the first byte written to the end of the output; lines per second
//!   are the corpus lines sent per second; CPU per line is what the child
//!   (and the guard, with its child) spent, user and system;
//! - latency: one request at a time through `cat`, the round trip from
//!   writing a line to reading its echo; p50 and p99; then again with this
//!   process and its children held to one CPU.
//!
//! A third side is a bare relay (this program run as `bench-guard --relay`:
//! two threads copying bytes to and from `cat`, no rules): any process
//! between host and server costs its hops through pipes and the wake-ups
//! of its threads, and the relay shows that floor, so the guard's own
//! share is the difference from it. The guard runs twice: as it runs by
//! default, by the MCP profile (SPEC §10), and with `--profile jsonrpc`,
//! which reads lines by JSON-RPC 2.0 alone and tracks no request ids.
//!
//!   bench-guard [PATH-TO-jsonrpc-envelope]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Copies of the small corpus per throughput run.
const REPEAT: usize = 250;
/// Throughput runs per side, alternating.
const ROUNDS: usize = 9;
/// Round trips per side, in blocks that alternate between the sides.
const TRIPS: usize = 20_000;
const BLOCK: usize = 500;

/// What sits between the host (this program) and `cat`.
#[derive(Clone, Copy)]
enum Side<'a> {
    Direct,
    Relay,
    /// The guard by its default profile (MCP).
    Guard(&'a str),
    /// The guard with `--profile jsonrpc`.
    GuardJsonRpc(&'a str),
}

impl Side<'_> {
    fn name(self) -> &'static str {
        match self {
            Side::Direct => "cat alone",
            Side::Relay => "bare relay -- cat",
            Side::Guard(_) => "guard -- cat",
            Side::GuardJsonRpc(_) => "guard --profile jsonrpc -- cat",
        }
    }
}

fn spawn(side: Side) -> Child {
    let mut command = match side {
        Side::Direct => Command::new("cat"),
        Side::Relay => {
            let mut command = Command::new(std::env::current_exe().expect("this program's path"));
            command.arg("--relay");
            command
        }
        Side::Guard(path) => {
            let mut command = Command::new(path);
            command.args(["guard", "--quiet", "--", "cat"]);
            command
        }
        Side::GuardJsonRpc(path) => {
            let mut command = Command::new(path);
            command.args(["guard", "--quiet", "--profile", "jsonrpc", "--", "cat"]);
            command
        }
    };
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("start the child")
}

/// The bare relay: stdin to `cat` and `cat` to stdout, a thread each, as
/// the guard has, each read written on at once.
fn relay() {
    let mut child = Command::new("cat").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start cat");
    let (mut to_cat, mut from_cat) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
    let back = thread::spawn(move || copy(&mut from_cat, &mut std::io::stdout()));
    copy(&mut std::io::stdin(), &mut to_cat);
    drop(to_cat);
    back.join().unwrap();
    child.wait().unwrap();
}

fn copy(from: &mut impl Read, to: &mut impl Write) {
    let mut buf = vec![0; 64 << 10];
    loop {
        match from.read(&mut buf).expect("read") {
            0 => return,
            n => to.write_all(&buf[..n]).and_then(|()| to.flush()).expect("write"),
        }
    }
}

/// Holds this process, and the children it starts from now on, to one CPU.
fn pin_to_one_cpu() {
    // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET and
    // sched_setaffinity(2) get a valid pointer to it and its size.
    let pinned = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(0, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    };
    assert!(pinned, "sched_setaffinity");
}

/// CPU time (user and system) of the children waited for so far.
fn children_cpu() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage(2) fills the rusage it is given, and cannot fail for RUSAGE_CHILDREN.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// One run: the time from the first write to the end of the output, and the
/// CPU time the child spent (the guard's includes its own child's).
fn throughput_run(side: Side, input: &'static [u8]) -> (Duration, Duration) {
    let cpu_before = children_cpu();
    let mut child = spawn(side);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let writer = thread::spawn(move || {
        let start = Instant::now();
        for chunk in input.chunks(64 << 10) {
            stdin.write_all(chunk).expect("write");
        }
        start
    });
    let mut buf = vec![0; 64 << 10];
    while stdout.read(&mut buf).expect("read") > 0 {}
    let end = Instant::now();
    let start = writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    (end - start, children_cpu() - cpu_before)
}

struct Echo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
}

impl Echo {
    fn new(side: Side) -> Echo {
        let mut child = spawn(side);
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Echo { child, stdin, stdout, line: Vec::new() }
    }

    fn round_trip(&mut self, request: &[u8]) -> Duration {
        let start = Instant::now();
        self.stdin.write_all(request).unwrap();
        self.line.clear();
        self.stdout.read_until(b'\n', &mut self.line).unwrap();
        let took = start.elapsed();
        assert_eq!(self.line, request, "the echo");
        took
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// p50 and p99 round trips of each side, in blocks taken in turns.
fn latency(sides: &[Side], request: &[u8]) -> Vec<(Duration, Duration)> {
    let mut echoes: Vec<Echo> = sides.iter().map(|&side| Echo::new(side)).collect();
    for echo in &mut echoes {
        for _ in 0..BLOCK {
            echo.round_trip(request);
        }
    }
    let mut trips = vec![Vec::with_capacity(TRIPS); sides.len()];
    while trips[0].len() < TRIPS {
        for (echo, trips) in echoes.iter_mut().zip(&mut trips) {
            for _ in 0..BLOCK {
                trips.push(echo.round_trip(request));
            }
        }
    }
    for mut echo in echoes {
        drop(echo.stdin);
        assert!(echo.child.wait().unwrap().success());
    }
    trips
        .iter_mut()
        .map(|trips| {
            trips.sort();
            (percentile(trips, 0.5), percentile(trips, 0.99))
        })
        .collect()
}

fn print_latency(title: &str, sides: &[Side], results: &[(Duration, Duration)]) {
    println!("{title}");
    println!("| | p50 µs | p99 µs |");
    println!("|---|---:|---:|");
    for (side, (p50, p99)) in sides.iter().zip(results) {
        println!("| {} | {:.1} | {:.1} |", side.name(), micros(*p50), micros(*p99));
    }
    for guard in [2, 3] {
        let added = |k: usize| {
            (micros(results[guard].0) - micros(results[k].0), micros(results[guard].1) - micros(results[k].1))
        };
        let ((over_cat50, over_cat99), (over_relay50, over_relay99)) = (added(0), added(1));
        println!(
            "added by {}: p50 {over_cat50:.1} µs (target: at most 50), p99 {over_cat99:.1} µs; over the bare relay: p50 {over_relay50:.1} µs, p99 {over_relay99:.1} µs",
            sides[guard].name()
        );
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--relay") {
        return relay();
    }
    let guard = std::env::args().nth(1).unwrap_or_else(|| "target/release/jsonrpc-envelope".into());
    let corpus = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../out/small.jsonl")).expect("corpus");
    let lines = corpus.iter().filter(|&&b| b == b'\n').count() * REPEAT;
    let input: &'static [u8] = corpus.repeat(REPEAT).leak();
    let sides = [Side::Direct, Side::Relay, Side::Guard(&guard), Side::GuardJsonRpc(&guard)];

    let (mut walls, mut cpus) = (vec![Vec::new(); sides.len()], vec![Vec::new(); sides.len()]);
    for _ in 0..ROUNDS {
        for (k, &side) in sides.iter().enumerate() {
            let (wall, cpu) = throughput_run(side, input);
            walls[k].push(wall);
            cpus[k].push(cpu);
        }
    }
    let median = |times: &mut Vec<Duration>| {
        times.sort();
        times[ROUNDS / 2]
    };
    let rate = |d: Duration| lines as f64 / d.as_secs_f64();
    let per_line = |d: Duration| d.as_secs_f64() * 1e9 / lines as f64;
    let mib = input.len() as f64 / (1 << 20) as f64;
    println!(
        "throughput: bench/out/small.jsonl x {REPEAT} ({lines} lines, {mib:.0} MiB) through `cat`, median of {ROUNDS} runs each, in turns"
    );
    println!("| | lines/s | MiB/s | CPU ns/line |");
    println!("|---|---:|---:|---:|");
    let mut rates = Vec::new();
    for (k, side) in sides.iter().enumerate() {
        let (wall, cpu) = (median(&mut walls[k]), median(&mut cpus[k]));
        rates.push(rate(wall));
        println!(
            "| {} | {:.0} | {:.0} | {:.0} |",
            side.name(),
            rate(wall),
            rate(wall) / lines as f64 * mib,
            per_line(cpu)
        );
    }
    println!(
        "guard / direct: {:.2} (target: at least 0.50); bare relay / direct: {:.2}; guard / bare relay: {:.2}; guard --profile jsonrpc / direct: {:.2}",
        rates[2] / rates[0],
        rates[1] / rates[0],
        rates[2] / rates[1],
        rates[3] / rates[0]
    );
    println!();

    let request = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}}\n";
    let what = format!(
        "one {}-byte request at a time echoed by `cat`, {TRIPS} round trips each, in blocks of {BLOCK} in turns",
        request.len()
    );
    print_latency(&format!("latency: {what}"), &sides, &latency(&sides, request));
    println!();
    pin_to_one_cpu();
    print_latency(
        &format!("latency, everything held to one CPU (no wake-up crosses CPUs): {what}"),
        &sides,
        &latency(&sides, request),
    );
}
