//! Classifies one corpus size many times: a target for callgrind or perf.
fn main() {
    let size = std::env::args().nth(1).unwrap_or_else(|| "medium".into());
    let rounds: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let lines = jsonrpc_envelope_bench::corpus(&size);
    let mut requests = 0;
    for _ in 0..rounds {
        requests += lines.iter().filter(|l| jsonrpc_envelope::classify(l).kind == jsonrpc_envelope::Kind::Request).count();
    }
    println!("{requests}");
}
