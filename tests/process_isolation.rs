//! `Isolation::Process`: a worker killed in the middle of a hook call ends that call
//! with `engine-crash` and the next call (or unit) gets a new worker; a worker past its
//! address-space limit or writing garbage to its pipe ends the same way; the host lives
//! on. (The sandbox and run suites run in worker processes too with
//! `HOOKRUN_TEST_ISOLATION=process`.)

use crate::common;

use std::path::Path;
use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};

use hookrun::run::{NoResults, RunOptions, run};
use hookrun::sandbox::{CallResult, Isolation, Limits, ProcessLimits, Sandbox, SandboxOptions};

use common::sandbox::assert_healthy;

/// The tests below find and kill worker processes; one at a time, so that none kills
/// another's worker.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn process_options(limits: Limits, process: ProcessLimits) -> SandboxOptions {
    hookrun::sandbox::set_worker_binary(env!("CARGO_BIN_EXE_hookrun"));
    SandboxOptions::default()
        .limits(limits)
        .isolation(Isolation::Process(process))
}

fn long_calls() -> SandboxOptions {
    process_options(
        Limits::default().timeout_ms(20_000),
        ProcessLimits::default(),
    )
}

/// Sends `signal` to process `pid` after `delay`, from another thread.
fn signal_later(pid: u32, signal: i32, delay: Duration) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        std::thread::sleep(delay);
        // SAFETY: kill only sends a signal to the given process.
        unsafe {
            libc::kill(pid as i32, signal);
        }
    })
}

fn crash(result: &CallResult) -> (&str, &str) {
    match result {
        CallResult::EngineCrash { cause, stderr_tail } => (cause.as_str(), stderr_tail.as_str()),
        other => panic!("expected engine-crash, got {other:?}"),
    }
}

#[test]
fn a_worker_killed_mid_call_is_an_engine_crash_and_the_next_call_gets_a_new_one() {
    let _serial = serial();
    for (signal, cause) in [
        (libc::SIGKILL, "signal 9 (SIGKILL)"),
        (libc::SIGSEGV, "signal 11 (SIGSEGV)"),
    ] {
        let mut sb = Sandbox::new(common::fixture("sandbox"), long_calls()).unwrap();
        sb.warm_up().unwrap();
        let pid = sb.worker_pid().unwrap();
        let killer = signal_later(pid, signal, Duration::from_millis(300));
        let outcome = sb.call(Path::new("hostile.mjs"), "endlessLoop", &Value::Null);
        killer.join().unwrap();
        assert_eq!(crash(&outcome.result).0, cause);
        assert_eq!(outcome.result.name(), "engine-crash");
        assert!(outcome.result.error_message().unwrap().contains(cause));
        assert!(!sb.is_warm());
        assert_healthy(&mut sb);
        assert_ne!(
            sb.worker_pid(),
            Some(pid),
            "a new worker serves the next call"
        );
    }
}

/// Pids of this process's children that run as workers.
fn workers() -> Vec<i32> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let parent = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1));
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if parent == Some(me.as_str())
            && String::from_utf8_lossy(&cmdline).contains(hookrun::sandbox::WORKER_ARG)
        {
            found.push(pid);
        }
    }
    found
}

#[test]
fn a_run_goes_on_after_its_worker_dies() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(
        dir.path(),
        &[(
            "applyResult",
            "export function applyResult({ parent }) {\n\
               if (parent.key === 'P0000000') { for (;;) {} }\n\
               return { done: parent.key };\n\
             }",
        )],
    );
    let input = common::probe_input(&["loops", "finishes"]);
    // Options no idle worker was started with, so the run starts a worker of its own.
    let options = RunOptions::default().sandbox(process_options(
        Limits::default().timeout_ms(20_001),
        ProcessLimits::default(),
    ));
    let before = workers();
    let killer = std::thread::spawn(move || {
        for _ in 0..200 {
            std::thread::sleep(Duration::from_millis(50));
            if let Some(pid) = workers().iter().find(|p| !before.contains(p)) {
                std::thread::sleep(Duration::from_millis(300));
                // SAFETY: kill only sends a signal to the given process.
                unsafe {
                    libc::kill(*pid, libc::SIGKILL);
                }
                return true;
            }
        }
        false
    });
    let report = run(&workflow, input, &mut NoResults, &options);
    assert!(killer.join().unwrap(), "no worker to kill");
    let units: Vec<(String, String)> = report
        .units
        .iter()
        .map(|u| {
            (
                u.unit_id.clone(),
                serde_json::to_value(u.status)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        units,
        [
            ("unit-1".to_string(), "failed".to_string()),
            ("unit-2".to_string(), "succeeded".to_string())
        ]
    );
    let record = report.hooks.iter().find(|h| h.unit_id == "unit-1").unwrap();
    assert_eq!(record.outcome, hookrun::sandbox::OutcomeKind::EngineCrash);
    let json = serde_json::to_value(&report.units[0]).unwrap();
    assert!(json.to_string().contains("signal 9 (SIGKILL)"), "{json}");
}

#[test]
fn a_hook_past_the_address_space_limit_ends_typed() {
    let _serial = serial();
    // No margin: the worker's own mappings already use part of the heap cap's worth
    // of address space, so the hook's buffers run out of it before the cap.
    let options = process_options(
        Limits::default().max_heap_bytes(768 * 1024 * 1024),
        ProcessLimits {
            address_space_margin_bytes: 0,
            ..ProcessLimits::default()
        },
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hog.mjs"),
        "export function hog() { const kept = []; for (let i = 0; i < 64; i++) kept.push(new Uint8Array(32 * 1024 * 1024).fill(1)); return kept.length; }\n\
         export function ok() { return 1; }\n",
    )
    .unwrap();
    let mut sb = Sandbox::new(dir.path(), options).unwrap();
    let outcome = sb.call(Path::new("hog.mjs"), "hog", &Value::Null);
    match &outcome.result {
        CallResult::EngineCrash { .. } | CallResult::MemoryLimit { .. } => {}
        CallResult::HookError(f) => assert!(f.message.contains("out of memory"), "{f:?}"),
        other => panic!("the address-space limit did not hold: {other:?}"),
    }
    let again = sb.call(Path::new("hog.mjs"), "ok", &Value::Null);
    assert_eq!(again.result, CallResult::Ok(json!(1)));
}

#[test]
fn a_worker_writing_garbage_is_an_engine_crash() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake-worker");
    // Answers `init` with a well-formed `ready` frame (a 27-byte header, no
    // attachment), then writes a length no frame may have.
    std::fs::write(
        &fake,
        "#!/bin/sh\nprintf '\\033\\000\\000\\000{\"op\":\"ready\",\"error\":null}\\000\\000\\000\\000\\377\\377\\377\\377garbage'\nexec /bin/sleep 5\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    Command::cargo_bin("hookrun")
        .unwrap()
        .current_dir(common::fixture("sandbox"))
        .env("HOOKRUN_WORKER", &fake)
        .args([
            "call",
            "happy.mjs",
            "--export",
            "greet",
            "--isolate",
            "process",
            "--json",
        ])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("\"engine-crash\""))
        .stdout(predicate::str::contains(
            "the worker wrote a frame length of 4294967295 bytes",
        ));
}

#[test]
fn both_modes_give_the_same_report_bytes() {
    let case = "workflows/mineru-package/pdf-split/cases/long-book.json";
    let bytes = |isolate: &str| {
        Command::cargo_bin("hookrun")
            .unwrap()
            .current_dir(common::fixture(""))
            .args([
                "run",
                "workflows/mineru-package",
                "--fixture",
                case,
                "--deterministic",
                "--json",
                "--isolate",
                isolate,
            ])
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone()
    };
    // What crossed differs: in process, a unit's selection crosses once and
    // later arguments refer to it; a worker gets every argument whole.
    let (in_process, process) = (bytes("in-process"), bytes("process"));
    let (in_process, crossed_in_process) = without_arg_bytes(&in_process);
    let (process, crossed_in_worker) = without_arg_bytes(&process);
    assert_eq!(in_process, process);
    assert!(crossed_in_process < crossed_in_worker);
    Command::cargo_bin("hookrun")
        .unwrap()
        .current_dir(common::fixture(""))
        .args(["test", "workflows", "--isolate", "process"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(" passed, 0 failed"));
    Command::cargo_bin("hookrun")
        .unwrap()
        .current_dir(common::fixture(""))
        .args(["check", "workflows", "--isolate", "process"])
        .assert()
        .code(0);
}

/// The report with every `"argBytes":N` written as `"argBytes":0`, and the sum
/// of the N.
fn without_arg_bytes(report: &[u8]) -> (String, u64) {
    const KEY: &str = "\"argBytes\":";
    let text = String::from_utf8_lossy(report);
    let (mut out, mut total) = (String::new(), 0);
    let mut rest: &str = &text;
    while let Some(at) = rest.find(KEY) {
        let (head, tail) = rest.split_at(at + KEY.len());
        let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        total += tail[..digits].parse::<u64>().unwrap_or(0);
        out.push_str(head);
        out.push('0');
        rest = &tail[digits..];
    }
    out.push_str(rest);
    (out, total)
}
