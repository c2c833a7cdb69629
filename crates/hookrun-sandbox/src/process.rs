//! Process-wide engine settings the sandbox depends on.

/// The environment variable that turns the QuickJS engine's on-disk bytecode
/// cache off.
///
/// Left on, the engine writes the bytecode of every script and module it
/// compiles (hook modules included) to the user's cache directory
/// (`~/.cache/v8x/quickjs-bytecode`) and loads it back, unverified, by a 64-bit
/// non-cryptographic hash of name and source. Hook code would then persist on
/// disk across runs and processes, and a planted file, or one a hook makes
/// collide with the prelude's key, would run as trusted code.
pub const DISK_CACHE_OFF_VAR: &str = "V82JSC_NO_BC_CACHE";

/// Turns the engine's on-disk bytecode cache off for this process.
///
/// Every runtime start calls this, so a host need not; but the engine reads
/// the setting once, when the process compiles its first script, and setting
/// an environment variable is only sound while no other thread reads the
/// environment through C. A host that starts threads before its first
/// sandbox should call this (or set [`DISK_CACHE_OFF_VAR`] itself) at the top
/// of `main`, as the `hookrun` binary does. On V8 there is nothing to turn off.
pub fn disable_engine_disk_cache() {
    #[cfg(feature = "quickjs")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            if std::env::var_os(DISK_CACHE_OFF_VAR).is_none() {
                // SAFETY: the engine and the standard library read the
                // environment through Rust's locked accessors; the remaining
                // risk, a C library reading it on another thread at this very
                // moment, is why hosts are told to call this early in `main`.
                unsafe { std::env::set_var(DISK_CACHE_OFF_VAR, "1") };
            }
        });
    }
}
