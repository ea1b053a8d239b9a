//! Classifies one corpus size ROUNDS times: a steady target for callgrind
//! (instruction counts do not depend on the machine's load).
//!
//!   profile_one small|medium|large [ROUNDS]
fn main() {
    let size = std::env::args().nth(1).unwrap_or_else(|| "small".into());
    let rounds: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let lines = jsonrpc_envelope_bench::corpus(&size);
    let requests: usize = (0..rounds)
        .map(|_| lines.iter().filter(|l| jsonrpc_envelope::classify(l).kind == jsonrpc_envelope::Kind::Request).count())
        .sum();
    println!("{requests}");
}
