//! A host starts runtimes for as long as it lives: per run, per unit, per
//! pool slot, on whatever thread it calls from. None of that may hit a limit
//! of the engine layer, leak what a dropped runtime held, or end in anything
//! but a typed error when the operating system runs out (docs/engine-patches.md).

mod common;

use std::path::Path;

use assert_cmd::Command;
use hookrun::sandbox::{CallResult, Sandbox, SandboxError, SandboxOptions};
use predicates::prelude::*;
use serde_json::json;

/// More than the engine layer used to start on one thread (about 150 before
/// a call failed, about 300 before the process crashed).
const COUNT: usize = 300;

fn hook_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hook.mjs"),
        "let calls = 0;\nexport function ping(x) { calls += 1; return { x, calls }; }\n",
    )
    .unwrap();
    dir
}

fn ping(sandbox: &mut Sandbox, i: usize) {
    let outcome = sandbox.call("hook.mjs".as_ref(), "ping", &json!(i));
    match outcome.result {
        CallResult::Ok(value) => assert_eq!(value, json!({"x": i, "calls": 1}), "runtime {i}"),
        other => panic!("runtime {i}: {other:?}"),
    }
}

fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Starts `count` runtimes one after another on this thread, each making one `call`
/// and dropped, and asserts that resident memory after the last ones stays within
/// 32 MiB of what it was after the first tenth (a leak of the ~0.5 MB heap each runtime
/// has would be hundreds of MiB).
fn assert_runtimes_are_released(dir: &Path, count: usize, call: impl Fn(&mut Sandbox, usize)) {
    let mut after_warm_up = 0;
    for i in 0..count {
        let mut sandbox = Sandbox::new(dir, SandboxOptions::default()).unwrap();
        call(&mut sandbox, i);
        drop(sandbox);
        if i + 1 == count / 10 {
            after_warm_up = resident_bytes();
        }
    }
    let grown = resident_bytes().saturating_sub(after_warm_up);
    assert!(
        grown < 32 * 1024 * 1024,
        "resident memory grew by {grown} bytes over {} runtimes",
        count - count / 10
    );
}

/// Each dropped runtime used to keep about 0.5 MB (its whole heap, held by
/// module handles and table entries of the engine layer), and the engine's
/// function table ran out after about 150 runtimes on a thread.
#[test]
fn two_thousand_fresh_runtimes_start_one_after_another_on_one_thread_without_growing() {
    let dir = hook_dir();
    assert_runtimes_are_released(dir.path(), 2_000, ping);
}

/// A runtime that imported a module dynamically used to keep its whole heap after it
/// was dropped (the engine layer's import helper held a function of its realm).
#[test]
fn runtimes_that_imported_dynamically_are_released_too() {
    let dir = hook_dir();
    std::fs::write(dir.path().join("dep.mjs"), "export const value = 7;\n").unwrap();
    std::fs::write(
        dir.path().join("importing.mjs"),
        "export async function f() { return (await import(\"./dep.mjs\")).value; }\n",
    )
    .unwrap();
    assert_runtimes_are_released(dir.path(), 1_000, |sandbox, i| {
        let outcome = sandbox.call("importing.mjs".as_ref(), "f", &json!(null));
        assert_eq!(outcome.result, CallResult::Ok(json!(7)), "runtime {i}");
    });
}

/// Runtimes alive at the same time on one thread, started and dropped in
/// interleaved order: more than a 16-bit function index could number, and
/// every table entry released by one runtime reused by the next.
#[test]
fn hundreds_of_runtimes_live_at_once_on_one_thread() {
    let dir = hook_dir();
    let mut live = Vec::new();
    for i in 0..COUNT {
        let mut sandbox = Sandbox::new(dir.path(), SandboxOptions::default()).unwrap();
        ping(&mut sandbox, i);
        live.push(sandbox);
        if i % 3 == 2 {
            // Drop one from the middle: its entries are freed while others live.
            live.swap_remove(live.len() / 2);
        }
    }
    for (i, sandbox) in live.iter_mut().enumerate() {
        let outcome = sandbox.call("hook.mjs".as_ref(), "ping", &json!(i));
        let CallResult::Ok(value) = outcome.result else {
            panic!("live runtime {i}: {:?}", outcome.result);
        };
        assert_eq!(value["calls"], 2, "live runtime {i}");
    }
}

#[test]
fn check_loads_the_hooks_of_hundreds_of_workflows_in_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let manifest =
        std::fs::read_to_string(common::fixture("workflows/export-summary/workflow.json")).unwrap();
    for i in 0..COUNT {
        let wf = dir.path().join(format!("w{i:03}"));
        std::fs::create_dir_all(wf.join("hooks")).unwrap();
        std::fs::write(
            wf.join("hooks/applyResult.mjs"),
            "export function applyResult() {}\n",
        )
        .unwrap();
        std::fs::write(
            wf.join("workflow.json"),
            manifest.replace("\"export-summary\"", &format!("\"w{i:03}\"")),
        )
        .unwrap();
    }
    let report = hookrun::hooks::check(dir.path(), Default::default());
    assert_eq!(report.workflows.len(), COUNT);
    assert!(
        report.workflows.iter().all(|w| w.ok),
        "{:?}",
        report.diagnostics.first()
    );
}

#[test]
fn test_runs_hundreds_of_cases_in_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("many");
    Command::cargo_bin("hookrun")
        .unwrap()
        .arg("new")
        .arg(&root)
        .assert()
        .code(0);
    let case = std::fs::read_to_string(root.join("cases/example.json")).unwrap();
    for i in 1..COUNT {
        std::fs::write(root.join(format!("cases/copy-{i:03}.json")), &case).unwrap();
    }
    Command::cargo_bin("hookrun")
        .unwrap()
        .args(["test", "--quiet"])
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(format!(
            "{COUNT} passed, 0 failed"
        )));
}

/// Set in the child process of the exhaustion test.
const EXHAUSTED_CHILD: &str = "HOOKRUN_TEST_THREADS_EXHAUSTED";

/// Starts sandboxes and keeps them until the operating system refuses a
/// thread: the start that fails returns a typed error, and the runtimes
/// already started keep serving calls.
#[test]
fn running_out_of_threads_is_a_typed_error_and_spares_the_runtimes_already_started() {
    let Some(root) = std::env::var_os(EXHAUSTED_CHILD) else {
        return exhaust_threads_in_a_child();
    };
    let mut live = Vec::new();
    let refused = loop {
        assert!(live.len() < 1_000, "the thread limit was never reached");
        let mut sandbox = Sandbox::new(&root, SandboxOptions::default()).unwrap();
        match sandbox.warm_up() {
            Ok(()) => live.push(sandbox),
            Err(e) => break e,
        }
    };
    assert!(
        matches!(refused, SandboxError::Engine(_)),
        "{refused:?} after {} runtimes",
        live.len()
    );
    assert!(!live.is_empty());
    for (i, sandbox) in live.iter_mut().enumerate() {
        ping(sandbox, i);
    }
}

/// Runs the test above in a child process whose user may have only a few
/// threads (`RLIMIT_NPROC`; root is not bound by it, so a root parent starts
/// the child as `nobody`). The child fails the test if it aborts.
fn exhaust_threads_in_a_child() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;

    let dir = hook_dir();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // A copy of this test binary that `nobody` can run wherever the checkout lives.
    let binary = dir.path().join("many_runtimes");
    std::fs::copy(std::env::current_exe().unwrap(), &binary).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut child = std::process::Command::new(&binary);
    child
        .args([
            "--exact",
            "running_out_of_threads_is_a_typed_error_and_spares_the_runtimes_already_started",
            "--test-threads=1",
        ])
        .env(EXHAUSTED_CHILD, dir.path())
        .current_dir(dir.path());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        child.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 24,
                rlim_max: 24,
            };
            if libc::setrlimit(libc::RLIMIT_NPROC, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::geteuid() == 0 && (libc::setgid(65534) != 0 || libc::setuid(65534) != 0) {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let output = child.output().unwrap();
    assert!(
        output.status.success(),
        "child: {:?}\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("1 passed"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}
