//! Shared by the benchmarks: the corpus, read from bench/out (made by
//! bench/corpus.py), and the naive reference a host would otherwise write.

use std::path::PathBuf;

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
