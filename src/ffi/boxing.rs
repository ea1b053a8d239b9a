//! The heap objects a caller holds (`JsonRpcReader`, `JsonRpcSession`):
//! made without aborting when memory runs out, and freed once.

use crate::fallible::OutOfMemory;

/// `value` moved to the heap, as `Box::into_raw(Box::new(value))` but
/// failing instead of aborting; `Box::from_raw` frees it.
pub(super) fn boxed<T>(value: T) -> Result<*mut T, OutOfMemory> {
    let layout = std::alloc::Layout::new::<T>();
    const { assert!(size_of::<T>() != 0) };
    // SAFETY: the layout has a non-zero size (asserted above).
    let ptr = unsafe { std::alloc::alloc(layout) }.cast::<T>();
    if ptr.is_null() {
        return Err(OutOfMemory);
    }
    // SAFETY: `ptr` is a fresh allocation of `T`'s layout from the global
    // allocator, which is how `Box` allocates, so `Box::from_raw` may free it.
    unsafe { ptr.write(value) };
    Ok(ptr)
}

/// Frees what `boxed` made; NULL is ignored.
///
/// # Safety
/// `ptr` is NULL or a pointer from `boxed` not freed before.
pub(super) unsafe fn unboxed<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: `boxed` allocates as `Box` does (see there).
        drop(unsafe { Box::from_raw(ptr) });
    }
}
