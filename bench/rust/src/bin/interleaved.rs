//! The same implementations as the criterion benches, timed in turns: each
//! round runs every implementation once over the whole corpus, and each
//! keeps its fastest round. On a shared machine whose speed drifts from one
//! second to the next, criterion's runs (one implementation after another)
//! can be minutes apart; turns of a fraction of a second see the same
//! machine, so the ratios between implementations hold.
//!
//!   interleaved [ROUNDS]    (writes JSON to stdout: size -> name -> ns per pass)

use std::time::Instant;

use jsonrpc_envelope_bench::{Corpus, IMPLEMENTATIONS};

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(25);
    let mut sizes = Vec::new();
    for size in ["small", "medium", "large"] {
        let corpus = Corpus::new(size);
        // Passes per turn: enough for a turn of some milliseconds.
        let passes = match size {
            "small" => 20,
            "medium" => 4,
            _ => 1,
        };
        let mut best = [f64::MAX; IMPLEMENTATIONS.len()];
        let mut keep = 0;
        for _ in 0..rounds {
            for (slot, (_, run)) in best.iter_mut().zip(IMPLEMENTATIONS) {
                let start = Instant::now();
                for _ in 0..passes {
                    keep += run(&corpus);
                }
                *slot = slot.min(start.elapsed().as_nanos() as f64 / passes as f64);
            }
        }
        std::hint::black_box(keep);
        let fields: Vec<String> =
            IMPLEMENTATIONS.iter().zip(best).map(|((name, _), ns)| format!("\"{name}\": {ns:.0}")).collect();
        sizes.push(format!("  \"{size}\": {{{}}}", fields.join(", ")));
    }
    println!("{{\n{}\n}}", sizes.join(",\n"));
}
