//! Classifies one corpus size ROUNDS times: a steady target for callgrind
//! (instruction counts do not depend on the machine's load).
//!
//!   profile_one small|medium|large [ROUNDS] [rust|c]
use jsonrpc_envelope::ffi::{JsonRpcClassification, JsonRpcKind, jsonrpc_classification_free, jsonrpc_classify_into};

fn main() {
    let size = std::env::args().nth(1).unwrap_or_else(|| "small".into());
    let rounds: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let through_c = std::env::args().nth(3).as_deref() == Some("c");
    let lines = jsonrpc_envelope_bench::corpus(&size);
    let mut scratch = [0u8; 1024];
    let mut is_request = |line: &[u8]| {
        if !through_c {
            return jsonrpc_envelope::classify(line).kind == jsonrpc_envelope::Kind::Request;
        }
        let mut out = std::mem::MaybeUninit::<JsonRpcClassification>::uninit();
        unsafe {
            jsonrpc_classify_into(line.as_ptr(), line.len(), out.as_mut_ptr(), scratch.as_mut_ptr(), scratch.len());
            let c = out.assume_init_mut();
            let request = c.kind == JsonRpcKind::JSONRPC_KIND_REQUEST;
            jsonrpc_classification_free(c);
            request
        }
    };
    let requests: usize = (0..rounds).map(|_| lines.iter().filter(|l| is_request(l)).count()).sum();
    println!("{requests}");
}
