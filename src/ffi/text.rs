use std::ffi::c_char;
use std::ptr;

/// A string inside a result, as a pointer and a length in bytes. It is
/// borrowed: the result that holds it owns it, and it stays valid until that
/// result is freed. `ptr` is NULL when the string is absent; a present string
/// (even an empty one) has a non-NULL `ptr`, is followed by a NUL byte for
/// C's convenience, and may itself contain NUL bytes: `len` is the truth.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct JsonRpcStr {
    pub ptr: *const c_char,
    pub len: usize,
}

impl JsonRpcStr {
    pub(super) const ABSENT: JsonRpcStr = JsonRpcStr { ptr: ptr::null(), len: 0 };

    /// A static C string, for texts the library writes when it cannot
    /// allocate.
    pub(super) fn from_static(text: &'static std::ffi::CStr) -> JsonRpcStr {
        JsonRpcStr { ptr: text.as_ptr(), len: text.to_bytes().len() }
    }
}

/// A string the caller owns, as a pointer and a length in bytes, followed by
/// a NUL byte. Free it with `jsonrpc_string_free`, once. `ptr` is NULL when
/// there is no string (see the function that returned it).
#[repr(C)]
#[derive(Debug)]
pub struct JsonRpcString {
    pub ptr: *mut c_char,
    pub len: usize,
}

impl JsonRpcString {
    pub(super) const NONE: JsonRpcString = JsonRpcString { ptr: ptr::null_mut(), len: 0 };

    /// Copies `text` into a new `malloc` block with a NUL after it; `NONE`
    /// when `malloc` fails.
    pub(super) fn new(text: &[u8]) -> JsonRpcString {
        let mut store = Store::with_capacity(text.len() + 1);
        match store.push(text) {
            Some(view) => {
                let ptr = store.into_raw().cast::<c_char>();
                JsonRpcString { ptr, len: view.len }
            }
            None => JsonRpcString::NONE,
        }
    }
}

/// Frees a string the library returned, and sets it to `{NULL, 0}` so that a
/// second call does nothing. NULL, and a string whose `ptr` is NULL, are
/// ignored. Never pass a `JsonRpcStr` (it belongs to its result).
///
/// # Safety
/// `string` is NULL or points to a `JsonRpcString` that the library returned
/// and that has not been freed since, or that was set to `{NULL, 0}`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jsonrpc_string_free(string: *mut JsonRpcString) {
    super::guard::guard(
        || (),
        || {
            if string.is_null() {
                return;
            }
            // SAFETY: by the contract, `string` points to a library string,
            // whose `ptr` is NULL or a live `malloc` block of ours.
            unsafe {
                let owned = ptr::replace(string, JsonRpcString::NONE);
                libc::free(owned.ptr.cast());
            }
        },
    )
}

/// One block holding several NUL-terminated strings, so that a result costs
/// one allocation however many strings it carries, and is freed by one
/// `free` of its base pointer. The block is a `malloc` block of ours, or a
/// caller's scratch buffer, which is never freed here.
pub(super) struct Store {
    base: *mut u8,
    capacity: usize,
    used: usize,
    owned: bool,
}

impl Store {
    /// A block for `capacity` bytes (NULs included); none when 0 bytes.
    pub(super) fn with_capacity(capacity: usize) -> Store {
        let base = if capacity == 0 {
            ptr::null_mut()
        } else {
            // SAFETY: malloc has no preconditions; NULL is handled by `push`.
            unsafe { libc::malloc(capacity).cast::<u8>() }
        };
        Store { base, capacity, used: 0, owned: true }
    }

    /// The caller's buffer of `capacity` bytes at `base`.
    ///
    /// # Safety
    /// `base` must be valid for writes of `capacity` bytes while the store
    /// and the strings written into it are in use.
    pub(super) unsafe fn borrowed(base: *mut u8, capacity: usize) -> Store {
        Store { base, capacity, used: 0, owned: false }
    }

    /// Whether the block could not be allocated.
    pub(super) fn failed(&self) -> bool {
        self.capacity > 0 && self.base.is_null()
    }

    /// Copies `text` and a NUL in; `None` if the block is missing or full.
    pub(super) fn push(&mut self, text: &[u8]) -> Option<JsonRpcStr> {
        if self.base.is_null() || self.capacity - self.used < text.len() + 1 {
            return None;
        }
        // SAFETY: `used + text.len() + 1 <= capacity` bytes of the block are
        // ours, and `text` cannot overlap a block we just allocated.
        unsafe {
            let at = self.base.add(self.used);
            ptr::copy_nonoverlapping(text.as_ptr(), at, text.len());
            *at.add(text.len()) = 0;
            self.used += text.len() + 1;
            Some(JsonRpcStr { ptr: at.cast_const().cast(), len: text.len() })
        }
    }

    /// Copies `bytes` in as they are, at the start of an empty block sized
    /// for them; returns where they start (dangling when there are none), or
    /// `None` if the block is missing.
    pub(super) fn push_block(&mut self, bytes: &[u8]) -> Option<*const c_char> {
        if bytes.is_empty() {
            return Some(ptr::NonNull::dangling().as_ptr());
        }
        if self.base.is_null() || self.used != 0 || self.capacity < bytes.len() {
            return None;
        }
        // SAFETY: the block holds `capacity >= bytes.len()` bytes of ours,
        // and `bytes` cannot overlap a block we just allocated.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), self.base, bytes.len()) };
        self.used = bytes.len();
        Some(self.base.cast_const().cast())
    }

    /// Hands an owned block to the result that will free it; NULL for a
    /// borrowed one, which the result must not free.
    pub(super) fn into_raw(self) -> *mut u8 {
        let base = if self.owned { self.base } else { ptr::null_mut() };
        std::mem::forget(self);
        base
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        if self.owned {
            // SAFETY: `base` is NULL or our own live malloc block.
            unsafe { libc::free(self.base.cast()) }
        }
    }
}
