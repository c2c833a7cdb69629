//! The engine starts a bounded number of runtimes per thread (about 250, see
//! SECURITY.md). Commands that start a sandbox per workflow or per case must
//! not run into that bound, however many there are.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;

/// More sandboxes than one thread can start.
const COUNT: usize = 300;

#[test]
fn check_loads_hooks_of_more_workflows_than_a_thread_can_start_runtimes() {
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
fn test_runs_more_cases_than_a_thread_can_start_runtimes() {
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
