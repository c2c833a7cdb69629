//! Threads that run hooks.

/// Stack size of a thread that runs hooks: as large as a main thread's, so
/// deep hook recursion ends in a `RangeError` rather than a stack overflow.
pub(crate) const STACK_BYTES: usize = 8 * 1024 * 1024;
