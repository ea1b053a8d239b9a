//! Classifies one corpus size ROUNDS times, one way: a steady target for
//! callgrind (instruction counts do not depend on the machine's load).
//! `make bench-callgrind` builds it without `-C target-cpu=native`
//! (valgrind has no AVX-512) and runs it.
//!
//!   profile_one small|medium|large [ROUNDS] [NAME]
//!
//! NAME is one of bench/rust/src/lib.rs's IMPLEMENTATIONS (default
//! `classify`).
use jsonrpc_envelope_bench::{Corpus, IMPLEMENTATIONS};

fn main() {
    let size = std::env::args().nth(1).unwrap_or_else(|| "small".into());
    let rounds: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let name = std::env::args().nth(3).unwrap_or_else(|| "classify".into());
    let Some(&(_, run)) = IMPLEMENTATIONS.iter().find(|(n, _)| *n == name) else {
        panic!("no implementation named {name}");
    };
    let corpus = Corpus::new(&size);
    let keep: usize = (0..rounds).map(|_| run(&corpus)).sum();
    println!("{keep}");
}
