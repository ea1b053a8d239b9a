//! Arbitrary bytes, at every offset in a 64-byte block: the structural
//! scanner (with each set of byte classes the CPU has, SWAR, and byte by
//! byte, each with its UTF-8 check) takes exactly the lines that are UTF-8
//! and that the stepwise scanner finds valid, with the same root, depth,
//! huge numbers and members (those of opened objects too), and the facts
//! it reports for the MCP rules (a backslash, a surrogate escape, control
//! whitespace) as simple references find them.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&shift, line)) = data.split_first() else { return };
    let mut shifted = vec![b' '; usize::from(shift % 64)];
    shifted.extend_from_slice(line);
    for candidate in [line, &shifted] {
        assert!(jsonrpc_envelope::scan::scanners_agree(candidate), "{:?}", String::from_utf8_lossy(candidate));
    }
});
