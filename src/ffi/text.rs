//! Strings handed to C: borrowed views (`JsonRpcStr`), owned strings
//! (`JsonRpcString`), and the places their bytes are written to. Every
//! string is sized before it is written, so each result costs at most one
//! allocation, and a failed one is an error result, never an abort.

use std::ffi::c_char;
use std::fmt;
use std::mem::MaybeUninit;
use std::ptr;

use crate::fallible::OutOfMemory;

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

    /// A new `malloc` block holding `len` bytes, which `fill` writes, and a
    /// NUL after them.
    pub(super) fn new(len: usize, fill: impl FnOnce(&mut Cursor<'_>)) -> Result<JsonRpcString, OutOfMemory> {
        let mut block = Block::alloc(len.checked_add(1).ok_or(OutOfMemory)?)?;
        let text = block.place(len, fill);
        let ptr = block.into_raw().cast::<c_char>();
        Ok(JsonRpcString { ptr, len: text.len })
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
    super::panic_boundary::boundary(
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

/// Writes text into the room a place gave it. Writing more than that room
/// is an error, and sizes are computed before placing, so it never is.
pub(super) struct Cursor<'a> {
    room: &'a mut [MaybeUninit<u8>],
    len: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(room: &'a mut [MaybeUninit<u8>]) -> Cursor<'a> {
        Cursor { room, len: 0 }
    }

    pub(super) fn write_bytes(&mut self, bytes: &[u8]) -> fmt::Result {
        let to = self.room.get_mut(self.len..self.len + bytes.len()).ok_or(fmt::Error)?;
        // SAFETY: `to` is `bytes.len()` writable bytes of ours, and `bytes`,
        // a shared borrow, cannot overlap them.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), to.as_mut_ptr().cast::<u8>(), bytes.len()) };
        self.len += bytes.len();
        Ok(())
    }

    /// The bytes written so far.
    pub(super) fn written(&self) -> &[u8] {
        // SAFETY: the first `len` bytes of `room` were initialised by
        // `write_bytes`, and stay borrowed from the cursor.
        unsafe { std::slice::from_raw_parts(self.room.as_ptr().cast::<u8>(), self.len) }
    }
}

impl fmt::Write for Cursor<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.write_bytes(text.as_bytes())
    }
}

/// Counts the bytes a text needs, without writing it.
#[derive(Default)]
pub(super) struct Counter(pub usize);

impl fmt::Write for Counter {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.0 += text.len();
        Ok(())
    }
}

/// A text formatted on the stack, for the few texts that need formatting
/// (reasons and reply messages): the longest is about 120 bytes.
pub(super) struct Formatted {
    bytes: [MaybeUninit<u8>; 192],
    len: usize,
}

impl Formatted {
    /// `value` formatted; `None` only if it is longer than the room, which
    /// none of the library's texts is.
    pub(super) fn of(value: &impl fmt::Display) -> Option<Formatted> {
        let mut formatted = Formatted { bytes: [MaybeUninit::uninit(); 192], len: 0 };
        let mut cursor = Cursor::new(&mut formatted.bytes);
        fmt::write(&mut cursor, format_args!("{value}")).ok()?;
        formatted.len = cursor.len;
        Some(formatted)
    }

    pub(super) fn as_str(&self) -> &str {
        // SAFETY: the first `len` bytes were initialised by the cursor, and
        // stay borrowed from `self`.
        let bytes = unsafe { std::slice::from_raw_parts(self.bytes.as_ptr().cast::<u8>(), self.len) };
        // Written by `fmt::write`, so whole UTF-8 text.
        std::str::from_utf8(bytes).unwrap_or_default()
    }
}

/// Where a result's strings go, each followed by a NUL, one after another.
pub(super) trait Place {
    /// Places a string of exactly `len` bytes, which `fill` writes, and its
    /// NUL; returns the string as the result will find it. The caller has
    /// made room for every string it places.
    fn place(&mut self, len: usize, fill: impl FnOnce(&mut Cursor<'_>)) -> JsonRpcStr;

    /// Places `text` as it stands, and its NUL: the common case, one copy.
    fn place_text(&mut self, text: &[u8]) -> JsonRpcStr;
}

/// One block holding several NUL-terminated strings, so that a result costs
/// one allocation however many strings it carries, and is freed by one
/// `free` of its base pointer. The block is a `malloc` block of ours, or a
/// caller's scratch buffer, which is never freed here.
pub(super) struct Block {
    base: *mut u8,
    capacity: usize,
    used: usize,
    owned: bool,
}

impl Block {
    /// A `malloc` block for `capacity` bytes (NULs included); none when 0.
    pub(super) fn alloc(capacity: usize) -> Result<Block, OutOfMemory> {
        if capacity == 0 {
            return Ok(Block { base: ptr::null_mut(), capacity, used: 0, owned: true });
        }
        // SAFETY: malloc has no preconditions.
        let base = unsafe { libc::malloc(capacity) }.cast::<u8>();
        if base.is_null() {
            return Err(OutOfMemory);
        }
        Ok(Block { base, capacity, used: 0, owned: true })
    }

    /// The caller's buffer of `capacity` bytes at `base`.
    ///
    /// # Safety
    /// `base` must be non-NULL and valid for writes of `capacity` bytes
    /// while the block and the strings placed in it are in use, and must not
    /// overlap any bytes that are read while strings are placed.
    pub(super) unsafe fn borrowed(base: *mut u8, capacity: usize) -> Block {
        Block { base, capacity, used: 0, owned: false }
    }

    /// Hands an owned block to the result that will free it; NULL for a
    /// borrowed one, which the result must not free.
    pub(super) fn into_raw(self) -> *mut u8 {
        let base = if self.owned { self.base } else { ptr::null_mut() };
        std::mem::forget(self);
        base
    }
}

impl Place for Block {
    fn place(&mut self, len: usize, fill: impl FnOnce(&mut Cursor<'_>)) -> JsonRpcStr {
        let room = self.capacity - self.used;
        assert!(!self.base.is_null() && len < room, "a string placed without room");
        // SAFETY: `base` is valid for writes of `capacity` bytes (our malloc
        // block, or the caller's buffer by `borrowed`'s contract), of which
        // `used..capacity` are not yet handed out; nothing else refers to
        // them while the cursor writes.
        let room = unsafe { std::slice::from_raw_parts_mut(self.base.add(self.used).cast::<MaybeUninit<u8>>(), room) };
        let (text, nul) = room.split_at_mut(len);
        let mut cursor = Cursor::new(text);
        fill(&mut cursor);
        assert_eq!(cursor.len, len, "a string not of the size it was given");
        nul[0].write(0);
        let ptr = text.as_ptr().cast::<c_char>();
        self.used += len + 1;
        JsonRpcStr { ptr, len }
    }

    fn place_text(&mut self, text: &[u8]) -> JsonRpcStr {
        let len = text.len();
        assert!(!self.base.is_null() && len < self.capacity - self.used, "a string placed without room");
        // SAFETY: `base` is valid for writes of `capacity` bytes (as in
        // `place`), of which `used..used + len + 1` are not yet handed out;
        // `text` is the line or the library's own, never this block's room.
        let to = unsafe {
            let to = self.base.add(self.used);
            copy_text(text, to);
            to.add(len).write(0);
            to
        };
        self.used += len + 1;
        JsonRpcStr { ptr: to.cast::<c_char>(), len }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        if self.owned {
            // SAFETY: `base` is NULL or our own live malloc block.
            unsafe { libc::free(self.base.cast()) }
        }
    }
}

/// Copies `from` to `to`. Most strings of a result are ids and methods of a
/// few bytes, which two overlapping moves copy without a call to `memcpy`.
///
/// # Safety
/// `to` must be valid for writes of `from.len()` bytes that do not overlap
/// `from`.
#[inline(always)]
unsafe fn copy_text(from: &[u8], to: *mut u8) {
    let (n, p) = (from.len(), from.as_ptr());
    // SAFETY: each copy reads and writes `k` bytes at an offset of at most
    // `n - k`, so within the first `n` bytes of both, by the contract.
    unsafe {
        let two = |k: usize| {
            ptr::copy_nonoverlapping(p, to, k);
            ptr::copy_nonoverlapping(p.add(n - k), to.add(n - k), k);
        };
        match n {
            0 => {}
            1..4 => {
                *to = *p;
                *to.add(n / 2) = *p.add(n / 2);
                *to.add(n - 1) = *p.add(n - 1);
            }
            4..8 => two(4),
            8..=16 => two(8),
            17..=32 => two(16),
            _ => ptr::copy_nonoverlapping(p, to, n),
        }
    }
}

/// Strings placed one after another in a growing buffer, each pointing at
/// its offset (plus one, so that none is NULL) until the buffer is done
/// growing and `JsonRpcStr::at` puts them in place.
impl Place for Vec<u8> {
    fn place(&mut self, len: usize, fill: impl FnOnce(&mut Cursor<'_>)) -> JsonRpcStr {
        let at = self.len();
        assert!(self.capacity() - at > len, "a string placed without room");
        let room = &mut self.spare_capacity_mut()[..len + 1];
        let (text, nul) = room.split_at_mut(len);
        let mut cursor = Cursor::new(text);
        fill(&mut cursor);
        assert_eq!(cursor.len, len, "a string not of the size it was given");
        nul[0].write(0);
        // SAFETY: `len + 1` more bytes are initialised: the text and its NUL.
        unsafe { self.set_len(at + len + 1) };
        JsonRpcStr { ptr: ptr::without_provenance(at + 1), len }
    }

    fn place_text(&mut self, text: &[u8]) -> JsonRpcStr {
        let (at, len) = (self.len(), text.len());
        assert!(self.capacity() - at > len, "a string placed without room");
        // SAFETY: the spare capacity holds more than `len` bytes (asserted),
        // which `text`, a shared borrow, cannot overlap; once the text and
        // its NUL are written, `len + 1` more bytes are initialised.
        unsafe {
            let to = self.spare_capacity_mut().as_mut_ptr().cast::<u8>();
            copy_text(text, to);
            to.add(len).write(0);
            self.set_len(at + len + 1);
        }
        JsonRpcStr { ptr: ptr::without_provenance(at + 1), len }
    }
}

impl JsonRpcStr {
    /// A string placed in a `Vec<u8>` that now lives at `base`.
    pub(super) fn at(self, base: *const c_char) -> JsonRpcStr {
        if self.ptr.is_null() {
            return self;
        }
        // The offset (plus one) the Vec placement gave it; `base` holds at
        // least offset + len + 1 bytes, so the result stays inside it.
        JsonRpcStr { ptr: base.wrapping_add(self.ptr.addr() - 1), len: self.len }
    }
}
