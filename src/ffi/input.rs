use crate::{Classification, ParseError, classify};

/// Borrows the caller's `(pointer, length)` as bytes: `(NULL, 0)` is empty
/// (`slice::from_raw_parts` is undefined on NULL even for length 0), and a
/// pair no buffer can be is the error that says so.
///
/// # Safety
/// A non-NULL `ptr` must be valid for reads of `len` bytes for `'a`.
pub(super) unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], ParseError> {
    if ptr.is_null() {
        return if len == 0 { Ok(&[]) } else { Err(ParseError::NullPointer(len)) };
    }
    if len > isize::MAX as usize {
        return Err(ParseError::TooLarge(len));
    }
    // SAFETY: non-NULL, length within isize, and readable by the contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Classifies the caller's line; a pointer and length that cannot be a line
/// make a `parse_error` whose reason says so (SPEC §7).
///
/// # Safety
/// As for [`bytes`].
pub(super) unsafe fn classify_line<'a>(ptr: *const u8, len: usize) -> Classification<'a> {
    // SAFETY: passed on from the caller.
    match unsafe { bytes(ptr, len) } {
        Ok(line) => classify(line),
        Err(error) => Classification::parse_error(error),
    }
}
