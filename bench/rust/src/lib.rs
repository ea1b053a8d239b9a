//! Shared by the benchmarks: the corpus, read from bench/out (made by
//! bench/corpus.py), the naive reference a host would otherwise write, and
//! the implementations every benchmark runs on the same lines.

use std::hint::black_box;
use std::path::PathBuf;

use jsonrpc_envelope::ffi::{
    JsonRpcBatch, JsonRpcClassification, JsonRpcProfile, JsonRpcRole, JsonRpcStatus, jsonrpc_classification_free,
    jsonrpc_classify, jsonrpc_classify_into, jsonrpc_reader_end, jsonrpc_reader_feed, jsonrpc_reader_free,
    jsonrpc_reader_new, jsonrpc_session_end, jsonrpc_session_feed, jsonrpc_session_free, jsonrpc_session_new,
};
use jsonrpc_envelope::{Kind, Line, Profile, Reader, classify};
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

/// sonic-rs validation alone.
pub fn sonic_ignored(line: &[u8]) -> bool {
    sonic_rs::from_slice::<serde::de::IgnoredAny>(line).is_ok()
}

/// simd-json's tape (its stage 1 and 2: validation and the structure,
/// strings unescaped): its input must be mutable and is copied into
/// reused buffers, as a host holding a borrowed line would.
pub struct SimdJson {
    input: Vec<u8>,
    buffers: simd_json::Buffers,
    tape: Option<simd_json::tape::Tape<'static>>,
}

impl Default for SimdJson {
    fn default() -> SimdJson {
        SimdJson {
            input: Vec::new(),
            buffers: simd_json::Buffers::default(),
            tape: Some(simd_json::tape::Tape::null()),
        }
    }
}

impl SimdJson {
    /// Whether `line` is valid, and its tape's length.
    pub fn tape(&mut self, line: &[u8]) -> usize {
        self.input.clear();
        self.input.extend_from_slice(line);
        let mut tape = self.tape.take().unwrap_or_else(simd_json::tape::Tape::null).reset();
        let len = match simd_json::fill_tape(&mut self.input, &mut self.buffers, &mut tape) {
            Ok(()) => tape.0.len(),
            Err(_) => 0,
        };
        self.tape = Some(tape.reset());
        len
    }
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

/// Every implementation, by the name its benchmark has: the project's
/// (one line at a time, then streams), then its peers, then the floors.
pub const IMPLEMENTATIONS: [(&str, Run); 16] = [
    ("classify", run_classify),
    ("classify_mcp", |c| c.lines.iter().filter(|l| Profile::Mcp.classify(black_box(l)).kind == Kind::Request).count()),
    ("c_abi_classify_free", run_classify_free),
    ("c_abi_classify_into", run_classify_into),
    ("reader", run_reader),
    ("c_abi_reader_16k", |c| run_c_reader(c, 16 << 10)),
    ("c_abi_reader_64k", |c| run_c_reader(c, 64 << 10)),
    ("c_abi_session_64k", |c| run_c_session(c, 64 << 10)),
    ("serde_json_value", |c| c.lines.iter().map(|l| serde_value_envelope(black_box(l))).sum()),
    ("serde_json_ignored_any", |c| c.lines.iter().filter(|l| serde_ignored(black_box(l))).count()),
    ("sonic_rs_ignored_any", |c| c.lines.iter().filter(|l| sonic_ignored(black_box(l))).count()),
    ("simd_json_tape", run_simd_json),
    ("utf8_check", |c| c.lines.iter().filter(|l| std::str::from_utf8(black_box(l)).is_ok()).count()),
    ("simdutf8_check", |c| c.lines.iter().filter(|l| simdutf8::basic::from_utf8(black_box(l)).is_ok()).count()),
    ("memchr_newlines", |c| memchr::memchr_iter(b'\n', black_box(&c.stream)).count()),
    ("none", |c| c.lines.iter().map(|l| black_box(l).len()).sum()),
];

/// The stream's bytes in chunks of `size`, as a host reads a pipe.
fn chunks(c: &Corpus, size: usize) -> std::slice::Chunks<'_, u8> {
    black_box(&c.stream[..]).chunks(size)
}

fn run_classify(c: &Corpus) -> usize {
    c.lines.iter().filter(|l| classify(black_box(l)).kind == Kind::Request).count()
}

fn run_classify_free(c: &Corpus) -> usize {
    c.lines
        .iter()
        .map(|l| unsafe {
            let mut c =
                jsonrpc_classify(black_box(l.as_ptr()), l.len(), JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32);
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
            jsonrpc_classify_into(
                black_box(l.as_ptr()),
                l.len(),
                JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32,
                out.as_mut_ptr(),
                scratch.as_mut_ptr(),
                1024,
            );
            let c = out.assume_init_mut();
            let kind = c.kind as usize;
            if !c.storage.is_null() {
                jsonrpc_classification_free(c);
            }
            kind
        })
        .sum()
}

/// The Rust `Reader` over the stream in 64 KiB chunks.
fn run_reader(c: &Corpus) -> usize {
    let mut reader = Reader::default();
    let mut requests = 0;
    let mut count = |line: Line<'_>| {
        if let Line::Complete { classification, .. } = line {
            requests += usize::from(classification.kind == Kind::Request);
        }
    };
    for chunk in chunks(c, 64 << 10) {
        reader.feed(chunk).expect("memory").for_each(&mut count);
    }
    reader.end().expect("memory").for_each(&mut count);
    requests
}

/// The C ABI's reader over the stream in chunks of `size`.
fn run_c_reader(c: &Corpus, size: usize) -> usize {
    let mut batch = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
    let mut lines = 0;
    unsafe {
        let reader = jsonrpc_reader_new(0, JsonRpcProfile::JSONRPC_PROFILE_JSONRPC as u32);
        for chunk in chunks(c, size) {
            let status = jsonrpc_reader_feed(reader, chunk.as_ptr(), chunk.len(), batch.as_mut_ptr());
            assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
            lines += batch.assume_init_ref().count;
        }
        assert_eq!(jsonrpc_reader_end(reader, batch.as_mut_ptr()), JsonRpcStatus::JSONRPC_STATUS_OK);
        lines += batch.assume_init_ref().count;
        jsonrpc_reader_free(reader);
    }
    lines
}

/// The C ABI's session (MCP profile, role server: what a transport runs)
/// over the stream in chunks of `size`.
fn run_c_session(c: &Corpus, size: usize) -> usize {
    let mut batch = std::mem::MaybeUninit::<JsonRpcBatch>::uninit();
    let mut lines = 0;
    unsafe {
        let session =
            jsonrpc_session_new(JsonRpcRole::JSONRPC_ROLE_SERVER as u32, JsonRpcProfile::JSONRPC_PROFILE_MCP as u32, 0);
        for chunk in chunks(c, size) {
            let status = jsonrpc_session_feed(session, chunk.as_ptr(), chunk.len(), batch.as_mut_ptr());
            assert_eq!(status, JsonRpcStatus::JSONRPC_STATUS_OK);
            lines += batch.assume_init_ref().count;
        }
        assert_eq!(jsonrpc_session_end(session, batch.as_mut_ptr()), JsonRpcStatus::JSONRPC_STATUS_OK);
        lines += batch.assume_init_ref().count;
        jsonrpc_session_free(session);
    }
    lines
}

fn run_simd_json(c: &Corpus) -> usize {
    let mut simd_json = SimdJson::default();
    c.lines.iter().map(|l| simd_json.tape(black_box(l))).sum()
}
