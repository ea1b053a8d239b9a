//! `cargo bench` in bench/rust: classify against serde_json and the floors,
//! on the same lines, in one run, per corpus size.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jsonrpc_envelope::ffi::{
    JsonRpcClassification, JsonRpcLineState, jsonrpc_classification_free, jsonrpc_classify, jsonrpc_classify_into,
    jsonrpc_classify_lines, jsonrpc_lines_free,
};
use jsonrpc_envelope::{Kind, classify};
use jsonrpc_envelope_bench::{corpus, serde_ignored, serde_value_envelope};

fn bench_size(c: &mut Criterion, size: &str) {
    let lines = corpus(size);
    let stream: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
    let bytes: usize = lines.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group(size);
    group.throughput(Throughput::Bytes(bytes as u64));
    if size == "large" {
        group.sample_size(20);
    }

    group.bench_function("classify", |b| {
        b.iter(|| lines.iter().filter(|l| classify(black_box(l)).kind == Kind::Request).count())
    });
    group.bench_function("c_abi_classify_free", |b| {
        b.iter(|| {
            lines
                .iter()
                .map(|l| unsafe {
                    let mut c = jsonrpc_classify(black_box(l.as_ptr()), l.len());
                    let kind = c.kind as u32;
                    jsonrpc_classification_free(&mut c);
                    kind
                })
                .sum::<u32>()
        })
    });
    group.bench_function("c_abi_classify_into", |b| {
        let mut scratch = [0u8; 1024];
        let mut out = std::mem::MaybeUninit::<JsonRpcClassification>::uninit();
        b.iter(|| {
            lines
                .iter()
                .map(|l| unsafe {
                    jsonrpc_classify_into(black_box(l.as_ptr()), l.len(), out.as_mut_ptr(), scratch.as_mut_ptr(), 1024);
                    let c = out.assume_init_mut();
                    let kind = c.kind as u32;
                    if !c.storage.is_null() {
                        jsonrpc_classification_free(c);
                    }
                    kind
                })
                .sum::<u32>()
        })
    });
    group.bench_function("c_abi_classify_lines", |b| {
        b.iter(|| unsafe {
            let mut state = JsonRpcLineState { max_line: 0, too_long_bytes: 0 };
            let mut result = jsonrpc_classify_lines(black_box(stream.as_ptr()), stream.len(), true, &mut state);
            let count = result.count;
            jsonrpc_lines_free(&mut result);
            count
        })
    });
    group.bench_function("serde_json_value", |b| {
        b.iter(|| lines.iter().map(|l| serde_value_envelope(black_box(l))).sum::<usize>())
    });
    group.bench_function("serde_json_ignored_any", |b| {
        b.iter(|| lines.iter().filter(|l| serde_ignored(black_box(l))).count())
    });
    group.bench_function("utf8_check", |b| {
        b.iter(|| lines.iter().filter(|l| std::str::from_utf8(black_box(l)).is_ok()).count())
    });
    group.bench_function("memchr_newlines", |b| b.iter(|| memchr::memchr_iter(b'\n', black_box(&stream)).count()));
    group.finish();
}

fn benches(c: &mut Criterion) {
    for size in ["small", "medium", "large"] {
        bench_size(c, size);
    }
}

criterion_group!(name = classify_benches; config = Criterion::default(); targets = benches);
criterion_main!(classify_benches);
