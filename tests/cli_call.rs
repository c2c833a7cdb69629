//! `hookrun call` as a process: JSON shape, human output, exit codes.

use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};

fn hookrun() -> Command {
    Command::cargo_bin("hookrun").unwrap()
}

fn json_of(output: &[u8]) -> Value {
    serde_json::from_slice(output).expect("stdout is one JSON object")
}

#[test]
fn ok_call_prints_one_json_object_and_exits_zero() {
    let out = hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .args(["--export", "greet", "--json", "--input"])
        .arg(common::fixture("sandbox/greet-input.json"))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v = json_of(&out);
    assert_eq!(v["outcome"], "ok");
    assert_eq!(v["value"], json!({"greeting": "Hello, Ada!", "total": 6}));
    assert_eq!(
        v["logs"][0],
        json!({"level": "log", "message": "greeting Ada"})
    );
    assert!(v["usage"]["wallMs"].is_u64());
    assert!(v["usage"]["logBytes"].is_u64());
    assert!(v["usage"]["opCalls"].is_u64());
    assert!(v.get("error").is_none());
}

#[test]
fn input_can_come_from_stdin() {
    hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .args(["--export", "greetLater", "--input", "-"])
        .write_stdin(r#"{"name": "grace"}"#)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("\"GRACE\""));
}

#[test]
fn hook_errors_exit_three_with_error_fields() {
    let out = hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/escapes/dynamic.mjs"))
        .args(["--export", "run", "--json", "--root"])
        .arg(common::fixture("sandbox"))
        .assert()
        .code(3)
        .get_output()
        .stdout
        .clone();
    let v = json_of(&out);
    assert_eq!(v["outcome"], "hook-error");
    assert_eq!(v["error"]["name"], "TypeError");
    assert_eq!(v["error"]["file"], "escapes/dynamic.mjs");
    assert_eq!(v["error"]["line"], 2);
    assert!(v["error"]["column"].is_u64());
    assert!(
        v["error"]["stack"]
            .as_str()
            .unwrap()
            .contains("escapes/dynamic.mjs:2:")
    );
}

#[test]
fn human_output_shows_a_code_frame_of_the_failing_line() {
    hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/escapes/throws-on-load.mjs"))
        .args(["--export", "run"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("load-error: TypeError"))
        // The location opens from where hookrun ran (the crate root here).
        .stderr(predicate::str::contains(
            "--> fixtures/sandbox/escapes/throws-on-load.mjs:2:",
        ))
        .stderr(predicate::str::contains(
            "2 | export const value = config.missing;",
        ))
        .stderr(predicate::str::contains("^"));
}

#[test]
fn every_outcome_kind_is_named_in_json() {
    let cases = [
        ("endlessLoop", "timeout", vec!["--timeout-ms", "300"]),
        ("memoryBomb", "memory-limit", vec!["--max-heap-mb", "32"]),
        (
            "hugeOutput",
            "output-too-large",
            vec!["--max-output-bytes", "1000"],
        ),
        ("returnFunction", "invalid-output", vec![]),
        ("throwNumber", "hook-error", vec![]),
        ("missingExport", "load-error", vec![]),
    ];
    for (export, outcome, extra) in cases {
        let out = hookrun()
            .arg("call")
            .arg(common::fixture("sandbox/hostile.mjs"))
            .args(["--export", export, "--json"])
            .args(&extra)
            .assert()
            .code(3)
            .get_output()
            .stdout
            .clone();
        let v = json_of(&out);
        assert_eq!(v["outcome"], outcome, "{export}");
        assert!(v["error"]["message"].is_string(), "{export}: {v}");
    }
}

#[test]
fn deterministic_flag_freezes_time() {
    hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .args(["--export", "clockAndDice", "--deterministic", "--json"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("2026-01-01T00:00:00.000Z"));
}

#[test]
fn bad_usage_and_unreadable_input_exit_two() {
    hookrun().arg("call").assert().code(2);
    hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--export"));
    hookrun()
        .args(["call", "no/such/module.mjs", "--export", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/module.mjs"));
    hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .args(["--export", "greet", "--input"])
        .arg(common::fixture("sandbox/README.md"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not valid JSON"));
    hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .args(["--export", "greet", "--timeout-ms", "0"])
        .assert()
        .code(2);
    hookrun()
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .args(["--export", "greet", "--max-heap-mb", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at least 8 MiB"));
}

/// The engine would cache every compiled script and hook module as bytecode in
/// the user's cache directory and load it back by a hash of its source.
#[test]
fn no_compiled_hook_code_is_written_to_or_read_from_the_users_cache() {
    let home = tempfile::tempdir().unwrap();
    hookrun()
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .env_remove(hookrun::sandbox::DISK_CACHE_OFF_VAR)
        .env_remove("V82JSC_BC_CACHE_DIR")
        .arg("call")
        .arg(common::fixture("sandbox/happy.mjs"))
        .args(["--export", "greet", "--input"])
        .arg(common::fixture("sandbox/greet-input.json"))
        .assert()
        .code(0);
    let mut dirs = vec![home.path().to_path_buf()];
    let mut written = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                written.push(path);
            }
        }
    }
    assert!(written.is_empty(), "{written:?}");
}
