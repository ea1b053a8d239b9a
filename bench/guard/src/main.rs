//! What the guard costs a session (issue #14), against the same child
//! without it, measured in turns in one run:
//!
//! - throughput: the small corpus, repeated, through `cat` as the child,
//!   from the first byte written to the end of the output; lines per second
//!   are the corpus lines sent per second; CPU per line is what the child
//!   (and the guard, with its child) spent, user and system;
//! - latency: one request at a time through `cat`, the round trip from
//!   writing a line to reading its echo; p50 and p99.
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

fn command(guard: Option<&str>) -> Command {
    match guard {
        None => Command::new("cat"),
        Some(path) => {
            let mut command = Command::new(path);
            command.args(["guard", "--quiet", "--", "cat"]);
            command
        }
    }
}

fn spawn(guard: Option<&str>) -> Child {
    command(guard).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("start the child")
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
fn throughput_run(guard: Option<&str>, input: &'static [u8]) -> (Duration, Duration) {
    let cpu_before = children_cpu();
    let mut child = spawn(guard);
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
    fn new(guard: Option<&str>) -> Echo {
        let mut child = spawn(guard);
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

fn main() {
    let guard = std::env::args().nth(1).unwrap_or_else(|| "target/release/jsonrpc-envelope".into());
    let corpus = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../out/small.jsonl")).expect("corpus");
    let lines = corpus.iter().filter(|&&b| b == b'\n').count() * REPEAT;
    let input: &'static [u8] = corpus.repeat(REPEAT).leak();

    let (mut direct, mut guarded) = (Vec::new(), Vec::new());
    let (mut direct_cpu, mut guarded_cpu) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let (wall, cpu) = throughput_run(None, input);
        direct.push(wall);
        direct_cpu.push(cpu);
        let (wall, cpu) = throughput_run(Some(&guard), input);
        guarded.push(wall);
        guarded_cpu.push(cpu);
    }
    for times in [&mut direct, &mut guarded, &mut direct_cpu, &mut guarded_cpu] {
        times.sort();
    }
    let rate = |d: Duration| lines as f64 / d.as_secs_f64();
    let (direct_rate, guarded_rate) = (rate(direct[ROUNDS / 2]), rate(guarded[ROUNDS / 2]));
    let per_line = |d: Duration| d.as_secs_f64() * 1e9 / lines as f64;

    let request = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hi\"}}}\n";
    let (mut plain, mut through) = (Echo::new(None), Echo::new(Some(&guard)));
    for _ in 0..BLOCK {
        plain.round_trip(request);
        through.round_trip(request);
    }
    let (mut direct_trips, mut guarded_trips) = (Vec::new(), Vec::new());
    while direct_trips.len() < TRIPS {
        for _ in 0..BLOCK {
            direct_trips.push(plain.round_trip(request));
        }
        for _ in 0..BLOCK {
            guarded_trips.push(through.round_trip(request));
        }
    }
    for mut echo in [plain, through] {
        drop(echo.stdin);
        assert!(echo.child.wait().unwrap().success());
    }
    direct_trips.sort();
    guarded_trips.sort();
    let (d50, d99) = (percentile(&direct_trips, 0.5), percentile(&direct_trips, 0.99));
    let (g50, g99) = (percentile(&guarded_trips, 0.5), percentile(&guarded_trips, 0.99));

    let mib = input.len() as f64 / (1 << 20) as f64;
    println!(
        "throughput: bench/out/small.jsonl x {REPEAT} ({lines} lines, {mib:.0} MiB) through `cat`, median of {ROUNDS} runs each, in turns"
    );
    println!("| | lines/s | MiB/s | CPU ns/line |");
    println!("|---|---:|---:|---:|");
    for (name, rate, cpu) in
        [("cat alone", direct_rate, direct_cpu[ROUNDS / 2]), ("guard -- cat", guarded_rate, guarded_cpu[ROUNDS / 2])]
    {
        println!("| {name} | {:.0} | {:.0} | {:.0} |", rate, rate / lines as f64 * mib, per_line(cpu));
    }
    println!("guard / direct: {:.2} (target: at least 0.50)", guarded_rate / direct_rate);
    println!();
    println!(
        "latency: one {}-byte request at a time echoed by `cat`, {TRIPS} round trips each, in blocks of {BLOCK} in turns",
        request.len()
    );
    println!("| | p50 µs | p99 µs |");
    println!("|---|---:|---:|");
    println!("| cat alone | {:.1} | {:.1} |", micros(d50), micros(d99));
    println!("| guard -- cat | {:.1} | {:.1} |", micros(g50), micros(g99));
    println!(
        "added by the guard: p50 {:.1} µs (target: at most 50), p99 {:.1} µs",
        micros(g50) - micros(d50),
        micros(g99) - micros(d99)
    );
}
