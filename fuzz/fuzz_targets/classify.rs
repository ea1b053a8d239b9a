//! Arbitrary bytes: the kind agrees with serde_json's reading of the JSON
//! and a plain reading of SPEC §2; spans, ids and replies keep their rules.
#![no_main]

libfuzzer_sys::fuzz_target!(|line: &[u8]| jsonrpc_envelope_fuzz::check_line(line));
