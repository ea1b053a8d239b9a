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

/// A name as C reads it and as Rust reads it, from one literal. Made in
/// `const { }` blocks, so the `&str` costs nothing at run time (names are
/// read per line, by the CLI and the guard).
#[derive(Clone, Copy)]
pub(crate) struct Name {
    pub c: &'static CStr,
    pub text: &'static str,
}

impl Name {
    pub(crate) const fn new(c: &'static CStr) -> Name {
        Name { c, text: text(c) }
    }
}
