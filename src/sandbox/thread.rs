//! Running work that starts sandboxes on a thread of its own.
//!
//! QuickJS under deno_core can start only a bounded number of runtimes on one
//! thread (about 250; see SECURITY.md). Callers that start many sandboxes one
//! after another — a test suite, a check over many workflows — run each piece
//! of work on a fresh thread, which starts with a fresh budget.

/// Stack size of a thread that runs hooks: as large as a main thread's, so
/// deep hook recursion ends in a `RangeError` rather than a stack overflow.
pub(crate) const STACK_BYTES: usize = 8 * 1024 * 1024;

/// Runs `work` on a new thread, waits for it and returns its result; fails
/// only when the operating system refuses a thread. A panic in `work` is
/// resumed on the calling thread.
pub fn on_fresh_thread<T: Send>(work: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("hookrun-worker".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, work)?;
        Ok(handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_runs_on_another_thread_and_returns() {
        let here = std::thread::current().id();
        let (there, value) = on_fresh_thread(|| (std::thread::current().id(), 6 * 7)).unwrap();
        assert_ne!(here, there);
        assert_eq!(value, 42);
    }
}
