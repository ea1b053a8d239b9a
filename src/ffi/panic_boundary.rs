//! The panic boundary every entry point of the C ABI runs inside.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs one entry point's body; a panic becomes `on_panic()`. Since Rust
/// 1.81 an unwind out of an `extern "C"` function aborts the host, so this
/// boundary is what keeps a bug in the library an error result instead.
pub(super) fn boundary<T>(on_panic: impl FnOnce() -> T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| on_panic())
}

/// The input that makes an entry point panic inside, in a library built
/// with the `panic-test` feature (never a release build), so that a test
/// can show from C that the boundary turns a panic into an error result.
#[cfg(feature = "panic-test")]
pub const PANIC_TEST_INPUT: &[u8] = b"jsonrpc-envelope panic-test: panic here";

/// Panics on `PANIC_TEST_INPUT` when built for the panic test; nothing
/// otherwise.
#[inline(always)]
pub(super) fn test_hook(_bytes: &[u8]) {
    #[cfg(feature = "panic-test")]
    if _bytes == PANIC_TEST_INPUT {
        panic!("the panic test's panic, inside the library");
    }
}

#[cfg(test)]
mod tests {
    use super::boundary;

    #[test]
    fn a_panic_becomes_the_fallback_value() {
        assert_eq!(boundary(|| -1, || -> i32 { panic!("inside the library") }), -1);
        assert_eq!(boundary(|| -1, || 7), 7);
    }
}
