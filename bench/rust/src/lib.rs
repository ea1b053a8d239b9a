//! Shared by the benchmarks: the corpus, read from bench/out (made by
//! bench/corpus.py), the naive reference a host would otherwise write, and
//! the implementations every benchmark runs on the same lines.

use std::hint::black_box;
use std::path::PathBuf;

use jsonrpc_envelope::ffi::{
    JsonRpcClassification, JsonRpcLineState, jsonrpc_classification_free, jsonrpc_classify, jsonrpc_classify_into,
    jsonrpc_classify_lines, jsonrpc_lines_free,
};
use jsonrpc_envelope::{Kind, classify};
use serde_json::Value;

/// The lines of bench/out/<size>.jsonl.
pub fn corpus(size: &str) -> Vec<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../out").join(format!("{size}.jsonl"));
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run `python3 bench/corpus.py` first)", path.display()));
    bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
}

/// The naive way: parse the whole line into a DOM, then read the members.
/// Returns something derived from every member so nothing is optimised out.
pub fn serde_value_envelope(line: &[u8]) -> usize {
    let Ok(value) = serde_json::from_slice::<Value>(line) else { return 0 };
    let Some(object) = value.as_object() else { return 1 };
    let method = object.get("method").and_then(Value::as_str).map_or(0, str::len);
    let id = object.get("id").map_or(0, |id| id.is_string() as usize + id.is_number() as usize);
    method + id + object.contains_key("result") as usize + object.contains_key("error") as usize
}

/// serde_json validation alone.
pub fn serde_ignored(line: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok()
}

/// A corpus as the implementations take it: its lines, and the same lines
/// as one LF-separated stream.
pub struct Corpus {
    pub lines: Vec<Vec<u8>>,
    pub stream: Vec<u8>,
}

impl Corpus {
    pub fn new(size: &str) -> Corpus {
        let lines = corpus(size);
        let stream = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
        Corpus { lines, stream }
    }

    /// The bytes of all lines, LFs excluded.
    pub fn bytes(&self) -> usize {
        self.lines.iter().map(Vec::len).sum()
    }
}

/// One pass of an implementation over a whole corpus; the result only keeps
/// the work from being optimised out.
pub type Run = fn(&Corpus) -> usize;

/// Every implementation, by the name its benchmark has.
pub const IMPLEMENTATIONS: [(&str, Run); 8] = [
    ("classify", run_classify),
    ("c_abi_classify_free", run_classify_free),
    ("c_abi_classify_into", run_classify_into),
    ("c_abi_classify_lines", run_classify_lines),
    ("serde_json_value", |c| c.lines.iter().map(|l| serde_value_envelope(black_box(l))).sum()),
    ("serde_json_ignored_any", |c| c.lines.iter().filter(|l| serde_ignored(black_box(l))).count()),
    ("utf8_check", |c| c.lines.iter().filter(|l| std::str::from_utf8(black_box(l)).is_ok()).count()),
    ("memchr_newlines", |c| memchr::memchr_iter(b'\n', black_box(&c.stream)).count()),
];

fn run_classify(c: &Corpus) -> usize {
    c.lines.iter().filter(|l| classify(black_box(l)).kind == Kind::Request).count()
}

fn run_classify_free(c: &Corpus) -> usize {
    c.lines
        .iter()
        .map(|l| unsafe {
            let mut c = jsonrpc_classify(black_box(l.as_ptr()), l.len());
            let kind = c.kind as usize;
            jsonrpc_classification_free(&mut c);
            kind
        })
        .sum()
}

fn run_classify_into(c: &Corpus) -> usize {
    let mut scratch = [0u8; 1024];
    let mut out = std::mem::MaybeUninit::<JsonRpcClassification>::uninit();
    c.lines
        .iter()
        .map(|l| unsafe {
            jsonrpc_classify_into(black_box(l.as_ptr()), l.len(), out.as_mut_ptr(), scratch.as_mut_ptr(), 1024);
            let c = out.assume_init_mut();
            let kind = c.kind as usize;
            if !c.storage.is_null() {
                jsonrpc_classification_free(c);
            }
            kind
        })
        .sum()
}

fn run_classify_lines(c: &Corpus) -> usize {
    unsafe {
        let mut state = JsonRpcLineState { max_line: 0, too_long_bytes: 0 };
        let mut result = jsonrpc_classify_lines(black_box(c.stream.as_ptr()), c.stream.len(), true, &mut state);
        let count = result.count;
        jsonrpc_lines_free(&mut result);
        count
    }
}
