//! The `hookrun` command-line tool.

mod cli;

fn main() -> std::process::ExitCode {
    // Exit quietly when the reader of our output goes away (`hookrun … | head`).
    // SAFETY: called before any other thread exists; restores the default action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
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
