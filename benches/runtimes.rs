//! Runtime lifecycle soak: starts runtimes one after another on the caller's
//! thread, calls a trivial export once in each and drops it, and prints the
//! resident memory as it goes. A host that starts a runtime per run, per unit
//! or per prewarmed pool slot does exactly this for days.
//!
//! Run with `cargo bench --bench runtimes -- [COUNT] [--pool]` (default
//! 100,000). `--pool` serves every call from a `SandboxPool` that never
//! reuses a runtime and is prewarmed with 4 between calls, instead of
//! starting a `Sandbox` per call. Prints one row per tenth and exits non-zero
//! on the first call that does not succeed.

use std::time::{Duration, Instant};

use hookrun::sandbox::{CallResult, PoolOptions, Sandbox, SandboxOptions, SandboxPool};
use serde_json::json;

/// Resident set size of this process, in bytes (Linux; 0 elsewhere).
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(100_000);
    let pooled = args.iter().any(|a| a == "--pool");
    hookrun::sandbox::disable_engine_disk_cache();
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(
        dir.path().join("hook.mjs"),
        "let calls = 0;\nexport function ping(x) { calls += 1; return { x, calls }; }\n",
    )
    .expect("hook module");
    let pool = SandboxPool::new(PoolOptions {
        reuse: false,
        idle_timeout: Duration::from_secs(3600),
        ..PoolOptions::default()
    });
    let options = SandboxOptions::default();
    let arg = json!({"unit": 1});
    let tenth = (count / 10).max(1);
    let started = Instant::now();
    let mut after_first_tenth = 0;
    println!(
        "{} runtimes, each called once, on one thread",
        if pooled {
            "pooled (reuse: false, prewarm 4)"
        } else {
            "fresh"
        }
    );
    println!("| runtimes | resident MiB | runtimes/s |");
    println!("|---:|---:|---:|");
    for i in 1..=count {
        let outcome = if pooled {
            pool.prewarm(dir.path(), options, 4).expect("prewarm");
            let mut sandbox = pool.acquire(dir.path(), options).expect("loan");
            sandbox.call("hook.mjs".as_ref(), "ping", &arg)
        } else {
            let mut sandbox = Sandbox::new(dir.path(), options).expect("sandbox root");
            sandbox.call("hook.mjs".as_ref(), "ping", &arg)
        };
        if !matches!(outcome.result, CallResult::Ok(_)) {
            eprintln!("runtime {i} failed: {:?}", outcome.result);
            std::process::exit(1);
        }
        if i == tenth {
            after_first_tenth = rss_bytes();
        }
        if i % tenth == 0 || i == count {
            let rate = i as f64 / started.elapsed().as_secs_f64();
            println!("| {i} | {:.1} | {rate:.0} |", mib(rss_bytes()));
        }
    }
    println!(
        "\nresident growth after the first {tenth}: {:+.1} MiB",
        mib(rss_bytes()) - mib(after_first_tenth)
    );
}
