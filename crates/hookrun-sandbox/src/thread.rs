//! Threads that run hooks.

/// Stack size of a thread that runs hooks: as large as a main thread's, so
/// deep hook recursion ends in a `RangeError` rather than a stack overflow.
pub(crate) const STACK_BYTES: usize = 8 * 1024 * 1024;

/// Starts `f` on a new scoped thread named `name` that may run hooks: its stack
/// is 8 MiB (`STACK_BYTES`), and the engine's process-wide settings are made before the
/// thread exists (so it never races the environment).
pub fn spawn_scoped<'scope, 'env, F, T>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    name: String,
    f: F,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    super::process::disable_engine_disk_cache();
    std::thread::Builder::new()
        .name(name)
        .stack_size(STACK_BYTES)
        .spawn_scoped(scope, f)
}

/// Runs `future` to completion on the calling thread, with the executor the
/// engine's runtimes use.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    deno_core::futures::executor::block_on(future)
}
