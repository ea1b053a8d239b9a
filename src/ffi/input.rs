//! The caller's `(pointer, length)` pairs as bytes.

/// A `(pointer, length)` pair that no buffer can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(super) enum InputError {
    #[error("a NULL pointer with a non-zero length ({0} bytes)")]
    NullPointer(usize),
    #[error("a length of {0} bytes, more than any buffer can hold")]
    TooLarge(usize),
}

/// Borrows the caller's `(pointer, length)` as bytes: `(NULL, 0)` is empty
/// (`slice::from_raw_parts` is undefined on NULL even for length 0), and a
/// pair no buffer can be is the error that says so.
///
/// # Safety
/// A non-NULL `ptr` must be valid for reads of `len` bytes for `'a`.
pub(super) unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], InputError> {
    if ptr.is_null() {
        return if len == 0 { Ok(&[]) } else { Err(InputError::NullPointer(len)) };
    }
    if len > isize::MAX as usize {
        return Err(InputError::TooLarge(len));
    }
    // SAFETY: non-NULL, length within isize, and readable by the contract.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    super::panic_boundary::test_hook(bytes);
    Ok(bytes)
}
