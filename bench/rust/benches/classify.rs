//! `cargo bench` in bench/rust: classify against serde_json and the floors,
//! on the same lines, in one run, per corpus size.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jsonrpc_envelope_bench::{Corpus, IMPLEMENTATIONS};

fn bench_size(c: &mut Criterion, size: &str) {
    let corpus = Corpus::new(size);
    let mut group = c.benchmark_group(size);
    group.throughput(Throughput::Bytes(corpus.bytes() as u64));
    if size == "large" {
        group.sample_size(20);
    }
    for (name, run) in IMPLEMENTATIONS {
        group.bench_function(name, |b| b.iter(|| run(&corpus)));
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    for size in ["small", "medium", "large"] {
        bench_size(c, size);
    }
}

criterion_group!(name = classify_benches; config = Criterion::default(); targets = benches);
criterion_main!(classify_benches);
