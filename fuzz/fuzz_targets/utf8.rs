//! The line-as-text check (whose vector ASCII check licenses an unchecked
//! conversion) agrees with `std::str::from_utf8`, at every alignment.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut backing = vec![0u8; data.len() + 32];
    for align in [0, 1, 7, 31] {
        backing[align..align + data.len()].copy_from_slice(data);
        assert!(jsonrpc_envelope::scan::utf8_agrees(&backing[align..align + data.len()]));
    }
});
