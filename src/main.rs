//! The `hookrun` command-line tool.

mod cli;

/// A run makes about 1,700 short-lived allocations a unit (JSON values,
/// strings, the engine's argument buffers); with mimalloc serving them a run
/// takes 13 % fewer instructions (docs/performance.md). Built without
/// transparent huge pages, whose 2 MiB pages would count whole against the
/// peak RSS.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // Exit quietly when the reader of our output goes away (`hookrun … | head`).
    // SAFETY: called before any other thread exists; restores the default action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // The engine's large blocks still come from glibc, whose per-thread arenas
    // (`--jobs`) grow and shrink a few pages at a time: one `mprotect` per few
    // allocations. A generous pad and trim threshold let the arenas grow in
    // large steps and keep what they freed for the next window of units.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called before any other thread exists and before any allocation
    // depends on these settings; both are plain glibc tunables.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
    // Before any thread exists: hook bytecode must never be cached on disk.
    hookrun::sandbox::disable_engine_disk_cache();
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == hookrun::sandbox::WORKER_ARG)
    {
        return hookrun::sandbox::worker::serve(&[&hookrun::hooks::STARTUP]);
    }
    cli::main()
}
