//! How long after its deadline a hook call ends: every export of the builtins
//! corpus (`fixtures/sandbox/corpus/builtins.mjs`: one engine builtin call each,
//! far longer than the timeout if the builtin never polled the interrupt) is
//! called with a short timeout, in process and in a worker process, at the
//! default heap cap and a larger one, and the time from the call to its
//! outcome is compared with the timeout.
//!
//! Run with `cargo bench --bench deadline -- [TIMEOUT_MS]` (default 250).
//! Prints one row per export and configuration and, per configuration, the
//! largest overshoot. SECURITY.md and docs/hardening.md quote its figures.

use std::path::Path;
use std::time::Instant;

use hookrun::sandbox::{CallResult, Isolation, Limits, Sandbox, SandboxOptions};
use serde_json::Value;

const MODULE: &str = "corpus/builtins.mjs";

/// The corpus's exported function names, in source order.
fn exports(root: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(root.join(MODULE)).expect("builtins corpus");
    source
        .lines()
        .filter_map(|line| line.strip_prefix("export function "))
        .filter_map(|rest| rest.split('(').next())
        .map(str::to_string)
        .collect()
}

fn outcome_name(result: &CallResult) -> &'static str {
    match result {
        CallResult::Ok(_) => "ok",
        CallResult::Timeout { .. } => "timeout",
        CallResult::MemoryLimit { .. } => "memory-limit",
        CallResult::HookError(_) => "hook-error",
        _ => "other",
    }
}

fn main() {
    let timeout_ms: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(250);
    hookrun::sandbox::set_worker_binary(env!("CARGO_BIN_EXE_hookrun"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sandbox");
    let exports = exports(&root);
    println!("timeout {timeout_ms} ms; overshoot = time from call to outcome - timeout");
    println!(
        "| isolation | heap cap | export | outcome | ms to outcome | overshoot ms |\n|---|---:|---|---|---:|---:|"
    );
    let mut worst = Vec::new();
    for (isolation, label) in [
        (Isolation::InProcess, "in process"),
        (Isolation::process(), "worker"),
    ] {
        for heap_mib in [128u64, 512] {
            let mut most = 0i64;
            for export in &exports {
                // A fresh sandbox each: a timed-out runtime is replaced anyway.
                let mut sandbox = Sandbox::new(
                    root.clone(),
                    hookrun::hooks::sandbox_options(SandboxOptions::default())
                        .limits(
                            Limits::default()
                                .timeout_ms(timeout_ms)
                                .max_heap_bytes(heap_mib * 1024 * 1024),
                        )
                        .isolation(isolation),
                )
                .expect("sandbox");
                let started = Instant::now();
                let outcome = sandbox.call(Path::new(MODULE), export, &Value::Null);
                let elapsed = started.elapsed().as_millis() as i64;
                let over = elapsed - timeout_ms as i64;
                if matches!(outcome.result, CallResult::Timeout { .. }) {
                    most = most.max(over);
                }
                println!(
                    "| {label} | {heap_mib} MiB | {export} | {} | {elapsed} | {} |",
                    outcome_name(&outcome.result),
                    if over > 0 {
                        over.to_string()
                    } else {
                        "-".into()
                    }
                );
            }
            worst.push(format!(
                "{label}, {heap_mib} MiB cap: largest overshoot of a timed-out call {most} ms"
            ));
        }
    }
    println!();
    for line in worst {
        println!("{line}");
    }
}
