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

/// Gives an enum its names, one C-string literal per variant: `name()`, as
/// the vectors, the CLI and records spell it, and `c_name()`, the same
/// NUL-terminated for the C ABI.
macro_rules! named {
    ($ty:ident { $($variant:ident => $name:literal,)* }) => {
        impl $ty {
            /// The name, as the vectors, the CLI and records spell it.
            pub fn name(self) -> &'static str {
                self.names().text
            }

            /// The same name, NUL-terminated, for the C ABI: every binding
            /// gets the names from here.
            pub(crate) fn c_name(self) -> &'static ::std::ffi::CStr {
                self.names().c
            }

            const fn names(self) -> $crate::names::Name {
                match self {
                    $($ty::$variant => const { $crate::names::Name::new($name) },)*
                }
            }
        }
    };
}
