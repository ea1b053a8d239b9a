//! Allocation that fails with an error instead of aborting. The library is
//! loaded into other people's processes, where an allocation failure must
//! become an error result (SPEC §7), so every allocation on the C ABI's
//! path goes through these.

use std::collections::TryReserveError;

/// An allocation the library needed could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("out of memory")]
pub struct OutOfMemory;

impl From<TryReserveError> for OutOfMemory {
    fn from(_: TryReserveError) -> OutOfMemory {
        OutOfMemory
    }
}

/// Appends `items` to `vec`, or leaves it unchanged when it cannot grow.
pub(crate) fn extend<T: Copy>(vec: &mut Vec<T>, items: &[T]) -> Result<(), OutOfMemory> {
    vec.try_reserve(items.len())?;
    vec.extend_from_slice(items);
    Ok(())
}

/// Appends `item` to `vec`, or leaves it unchanged when it cannot grow.
pub(crate) fn push<T>(vec: &mut Vec<T>, item: T) -> Result<(), OutOfMemory> {
    vec.try_reserve(1)?;
    vec.push(item);
    Ok(())
}

/// For the infallible Rust API: what `Vec` does when it cannot grow.
#[cold]
pub(crate) fn abort() -> ! {
    std::alloc::handle_alloc_error(std::alloc::Layout::new::<u8>())
}
