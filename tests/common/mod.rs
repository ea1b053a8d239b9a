//! Reading the shared vectors in tests/vectors (format in its README).
#![allow(dead_code)] // each test file uses its own part of this module

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The library's tests/vectors, from the library's tests or the CLI's.
pub fn vectors_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("JSONRPC_ENVELOPE_VECTORS_DIR") {
        return PathBuf::from(dir);
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    [here.join("tests/vectors"), here.join("../tests/vectors")]
        .into_iter()
        .find(|dir| dir.is_dir())
        .expect("tests/vectors beside the crate")
}

/// One case of envelope.jsonl: its input bytes and the expected record.
pub struct EnvelopeCase {
    pub name: String,
    pub line: Vec<u8>,
    pub expected: Value,
}

/// One case of log_value.jsonl.
pub struct LogCase {
    pub name: String,
    pub input: Vec<u8>,
    pub output: String,
}

fn records(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(vectors_dir().join(file)).expect("read vectors");
    text.lines().map(|l| serde_json::from_str(l).expect("vector is JSON")).collect()
}

fn bytes(record: &Value, text_key: &str, hex_key: &str) -> Vec<u8> {
    match (record.get(text_key), record.get(hex_key)) {
        (Some(Value::String(text)), _) => text.as_bytes().to_vec(),
        (_, Some(Value::String(hex))) => {
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect()
        }
        _ => panic!("vector without input: {record}"),
    }
}

pub fn envelope_cases() -> Vec<EnvelopeCase> {
    cases("envelope.jsonl")
}

/// The cases of mcp.jsonl: the MCP profile's (SPEC §10), with `substitute`.
pub fn mcp_cases() -> Vec<EnvelopeCase> {
    cases("mcp.jsonl")
}

fn cases(file: &str) -> Vec<EnvelopeCase> {
    records(file)
        .into_iter()
        .map(|mut record| {
            let line = bytes(&record, "line", "line_hex");
            let object = record.as_object_mut().expect("object");
            let name = object.remove("name").and_then(|n| n.as_str().map(str::to_owned)).expect("name");
            object.remove("line");
            object.remove("line_hex");
            EnvelopeCase { name, line, expected: record }
        })
        .collect()
}

pub fn log_cases() -> Vec<LogCase> {
    records("log_value.jsonl")
        .into_iter()
        .map(|record| LogCase {
            name: record["name"].as_str().expect("name").to_owned(),
            input: bytes(&record, "input", "input_hex"),
            output: record["output"].as_str().expect("output").to_owned(),
        })
        .collect()
}

/// Checks `actual` (a record in the vectors' form) against a case. The
/// reason of a parse error is the implementation's own text: only its
/// presence is checked.
pub fn assert_record(case: &EnvelopeCase, mut actual: Value) {
    if case.expected["kind"] == "parse_error" {
        let reason = actual["reason"].as_str().unwrap_or_default();
        assert!(!reason.is_empty(), "{}: a parse error needs a reason", case.name);
        actual["reason"] = case.expected["reason"].clone();
    }
    assert_eq!(actual, case.expected, "vector {:?}", case.name);
}
