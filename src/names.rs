//! Names are written once, as C strings (the C ABI hands them to every
//! binding), and read as `&str` in Rust from the same bytes.

use std::ffi::CStr;

/// `name` without its NUL. The names are ASCII, so this never fails.
pub(crate) const fn text(name: &'static CStr) -> &'static str {
    match std::str::from_utf8(name.to_bytes()) {
        Ok(text) => text,
        Err(_) => "",
    }
}
