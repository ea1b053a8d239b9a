//! The same implementations as the criterion benches, timed in turns: each
//! round runs every implementation once over the whole corpus, and each
//! keeps its fastest round. On a shared machine whose speed drifts from one
//! second to the next, criterion's runs (one implementation after another)
//! can be minutes apart; turns of a fraction of a second see the same
//! machine, so the ratios between implementations hold.
//!
//!   interleaved [ROUNDS [NAME...]]
//!
//! Writes JSON to stdout: size -> name -> ns per pass over the corpus. With
//! NAMEs, only those implementations run (bench/compare.py runs two builds
//! of this program in turns, one round at a time).

use std::time::Instant;

use jsonrpc_envelope_bench::{Corpus, IMPLEMENTATIONS, Run};

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(25);
    let names: Vec<String> = args.collect();
    let chosen: Vec<(&str, Run)> =
        IMPLEMENTATIONS.into_iter().filter(|(name, _)| names.is_empty() || names.iter().any(|n| n == name)).collect();
    let mut sizes = Vec::new();
    for size in ["small", "medium", "large"] {
        let corpus = Corpus::new(size);
        // Passes per turn: enough for a turn of some milliseconds.
        let passes = match size {
            "small" => 20,
            "medium" => 4,
            _ => 1,
        };
        let mut best = vec![f64::MAX; chosen.len()];
        let mut keep = 0;
        for _ in 0..rounds {
            for (slot, (_, run)) in best.iter_mut().zip(&chosen) {
                let start = Instant::now();
                for _ in 0..passes {
                    keep += run(&corpus);
                }
                *slot = slot.min(start.elapsed().as_nanos() as f64 / passes as f64);
            }
        }
        std::hint::black_box(keep);
        let fields: Vec<String> =
            chosen.iter().zip(&best).map(|((name, _), ns)| format!("\"{name}\": {ns:.0}")).collect();
        sizes.push(format!("  \"{size}\": {{{}}}", fields.join(", ")));
    }
    println!("{{\n{}\n}}", sizes.join(",\n"));
}
