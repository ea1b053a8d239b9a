use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs one entry point's body; a panic becomes `on_panic()`. Since Rust
/// 1.81 an unwind out of an `extern "C"` function aborts the host, so this
/// guard is what keeps a bug in the library an error result instead.
pub(super) fn guard<T>(on_panic: impl FnOnce() -> T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| on_panic())
}

#[cfg(test)]
mod tests {
    use super::guard;

    #[test]
    fn a_panic_becomes_the_fallback_value() {
        assert_eq!(guard(|| -1, || -> i32 { panic!("inside the library") }), -1);
        assert_eq!(guard(|| -1, || 7), 7);
    }
}
