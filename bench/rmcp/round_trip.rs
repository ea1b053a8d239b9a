//! The same MCP tool call (tools/call of echo) over jsonrpc-envelope's rmcp
//! transports and over rmcp's own, in one run, in turns: two sessions open at
//! once, rmcp's client on `jsonrpc_envelope_rmcp::TokioChildProcess` with the
//! example server (examples/rust) on `jsonrpc_envelope_rmcp::stdio()`, and
//! rmcp's client on `rmcp::transport::TokioChildProcess` with the same server
//! on `rmcp::transport::stdio()` (`--sdk-transport`). Blocks of calls
//! alternate between them (ours first in even blocks), each call timed alone;
//! a round trip is two messages, each written by one transport and read by
//! the other. Also the CPU time each server process spent per call.
//!
//!   cargo run --release -p jsonrpc-envelope-rmcp --example round_trip -- SERVER BLOCKS CALLS_PER_BLOCK
//!
//! (`make bench-rmcp`: SERVER is the example server's release build.)

use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use tokio::process::Command;

type Client = RunningService<RoleClient, ()>;

/// Calls on each session before the measured ones.
const WARM_UP: usize = 5000;

/// A process's CPU time so far (user + system), in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(") ").map_or("", |(_, rest)| rest).split(' ').collect();
    let field = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    field(11) + field(12) // utime, stime (fields 14 and 15 of the whole line)
}

async fn call(client: &Client, request: &CallToolRequestParams) -> Duration {
    let started = Instant::now();
    let result = client.call_tool(request.clone()).await.expect("tools/call");
    let elapsed = started.elapsed();
    let text = serde_json::to_value(&result.content).expect("content");
    assert!(text.to_string().contains("hello through stdio"), "{text}");
    elapsed
}

fn at(sorted: &[Duration], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i].as_secs_f64() * 1e6
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [server, blocks, calls] =
        <[String; 3]>::try_from(args).expect("usage: round_trip SERVER BLOCKS CALLS_PER_BLOCK");
    let (blocks, calls): (usize, usize) = (blocks.parse().expect("BLOCKS"), calls.parse().expect("CALLS_PER_BLOCK"));

    let ours_transport = jsonrpc_envelope_rmcp::TokioChildProcess::new(Command::new(&server)).expect("spawn ours");
    let ours_pid = ours_transport.id().expect("pid");
    let mut sdk_command = Command::new(&server);
    sdk_command.arg("--sdk-transport");
    let sdk_transport = rmcp::transport::TokioChildProcess::new(sdk_command).expect("spawn the SDK's");
    let sdk_pid = sdk_transport.id().expect("pid");
    let ours: Client = ().serve(ours_transport).await.expect("initialize (ours)");
    let sdk: Client = ().serve(sdk_transport).await.expect("initialize (the SDK's)");

    let arguments = serde_json::json!({"text": "hello through stdio"});
    let request = CallToolRequestParams::new("echo").with_arguments(arguments.as_object().expect("object").clone());
    for _ in 0..WARM_UP {
        call(&ours, &request).await;
        call(&sdk, &request).await;
    }
    let (mut ours_times, mut sdk_times) = (Vec::new(), Vec::new());
    let (mut ours_ticks, mut sdk_ticks) = (0, 0);
    for block in 0..blocks {
        let order = if block % 2 == 0 { [true, false] } else { [false, true] };
        for is_ours in order {
            let (client, times, pid, ticks) = if is_ours {
                (&ours, &mut ours_times, ours_pid, &mut ours_ticks)
            } else {
                (&sdk, &mut sdk_times, sdk_pid, &mut sdk_ticks)
            };
            let before = cpu_ticks(pid);
            for _ in 0..calls {
                times.push(call(client, &request).await);
            }
            *ticks += cpu_ticks(pid) - before;
        }
    }
    ours_times.sort();
    sdk_times.sort();
    let tick_us = 1e6 / 100.0; // USER_HZ is 100 on Linux
    let per_call = |ticks: u64, n: usize| ticks as f64 * tick_us / n as f64;
    println!("rmcp 3.11; {blocks} blocks of {calls} calls each, in turns, after {WARM_UP} calls of warm-up\n");
    println!("| transports (client and server) | calls | median | p90 | server CPU per call |");
    println!("|---|---:|---:|---:|---:|");
    println!(
        "| jsonrpc-envelope-rmcp's | {} | {:.1} µs | {:.1} µs | {:.1} µs |",
        ours_times.len(),
        at(&ours_times, 0.5),
        at(&ours_times, 0.9),
        per_call(ours_ticks, ours_times.len())
    );
    println!(
        "| rmcp's own | {} | {:.1} µs | {:.1} µs | {:.1} µs |",
        sdk_times.len(),
        at(&sdk_times, 0.5),
        at(&sdk_times, 0.9),
        per_call(sdk_ticks, sdk_times.len())
    );
    println!("\nmedian ours / rmcp's: {:.2} (below 1: ours is faster)", at(&ours_times, 0.5) / at(&sdk_times, 0.5));
    ours.cancel().await.expect("close ours");
    sdk.cancel().await.expect("close the SDK's");
}
