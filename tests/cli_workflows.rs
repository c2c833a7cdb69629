//! `hookrun check`, `hookrun plan` and `hookrun run` as processes.

use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};

use common::{hookrun_in_fixtures as hookrun, stdout_json};

#[test]
fn check_accepts_the_example_workflows() {
    let v = stdout_json(hookrun().args(["check", "workflows", "--json"]), 0);
    let ids: Vec<_> = v["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].clone())
        .collect();
    assert_eq!(
        ids,
        [
            json!("coverage-example"),
            json!("export-summary"),
            json!("literature-analysis"),
            json!("literature-digest"),
            json!("metadata-curator"),
            json!("pdf-split"),
            json!("settings-normalizer"),
            json!("skip-processed"),
            json!("typed-example")
        ]
    );
    assert!(
        v["workflows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|w| w["ok"] == true)
    );
    assert_eq!(v["diagnostics"], json!([]));
    hookrun()
        .args(["check", "workflows"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "9 workflow(s) checked, 0 error(s)",
        ));
}

#[test]
fn check_reports_manifest_import_and_export_problems_and_exits_one() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let manifest = |id: &str, hook: &str| {
        json!({
            "schemaVersion": 2, "id": id, "label": id, "provider": "pass-through",
            "trigger": {"requiresSelection": true},
            "inputs": {"member": {"kind": "parent"}, "grouping": {"mode": "each"}},
            "validateSelection": {"select": {"policy": "input-member", "source": "selected"}, "filters": []},
            "hooks": {"applyResult": hook}
        })
        .to_string()
    };
    write("good/workflow.json", &manifest("good", "apply.mjs"));
    write("good/apply.mjs", "export function applyResult() {}");
    write("syntax/workflow.json", &manifest("syntax", "apply.mjs"));
    write(
        "syntax/apply.mjs",
        "export function applyResult() {\n  return {;\n}",
    );
    write("noexport/workflow.json", &manifest("noexport", "apply.mjs"));
    write("noexport/apply.mjs", "export const applyResult = 1;");
    write("escape/workflow.json", &manifest("escape", "apply.mjs"));
    write(
        "escape/apply.mjs",
        "import x from 'node:fs';\nexport function applyResult() {}",
    );
    write("broken/workflow.json", "{\"schemaVersion\": 2, \"id\": ");
    write(
        "invalid/workflow.json",
        &manifest("invalid", "apply.mjs").replace("\"each\"", "\"every\""),
    );
    let v = stdout_json(
        Command::cargo_bin("hookrun")
            .unwrap()
            .args(["check", "--json"])
            .arg(dir.path()),
        1,
    );
    let by_category = |category: &str| -> Vec<Value> {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["category"] == category)
            .cloned()
            .collect()
    };
    let import = by_category("hook_import_error");
    assert_eq!(import.len(), 2, "{v}");
    let syntax = import.iter().find(|d| d["workflowId"] == "syntax").unwrap();
    assert_eq!(
        syntax["message"],
        "Skip workflow syntax: Hook import failed: apply.mjs"
    );
    assert_eq!(
        (syntax["line"].clone(), syntax["level"].clone()),
        (json!(2), json!("error"))
    );
    let escape = import.iter().find(|d| d["workflowId"] == "escape").unwrap();
    assert!(
        escape["reason"].as_str().unwrap().contains("node:fs"),
        "{escape}"
    );
    let export = by_category("hook_export_error");
    assert_eq!(
        export[0]["message"],
        "Skip workflow noexport: Hook export applyResult() not found: apply.mjs"
    );
    assert_eq!(by_category("manifest_parse_error").len(), 1);
    let invalid = by_category("manifest_validation_error");
    assert!(
        invalid
            .iter()
            .any(|d| d["pointer"] == "/inputs/grouping/mode"),
        "{invalid:?}"
    );
    let ok: Vec<_> = v["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["ok"] == true)
        .map(|w| w["id"].clone())
        .collect();
    assert_eq!(ok, [json!("good")]);
    Command::cargo_bin("hookrun")
        .unwrap()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("apply.mjs:2:"))
        .stdout(predicate::str::contains("/inputs/grouping/mode"));
    hookrun().args(["check", "no/such/dir"]).assert().code(2);
}

#[test]
fn plan_prints_units_and_skips_and_exits_by_state() {
    let v = stdout_json(
        hookrun().args([
            "plan",
            "workflows/skip-processed",
            "--selection",
            "selections/grouped-mixed-same-parent.json",
            "--json",
        ]),
        0,
    );
    for key in [
        "state",
        "selectionCounts",
        "candidates",
        "skipped",
        "units",
        "stats",
    ] {
        assert!(v.get(key).is_some(), "{key} missing: {v}");
    }
    assert_eq!(v["units"][0]["unitId"], "unit-1");
    assert_eq!(
        v["units"][0]["memberIdentities"],
        json!(["attachment:1:ATTMD001"])
    );
    hookrun()
        .args([
            "plan",
            "workflows/literature-digest",
            "--selection",
            "selections/grouped-mixed-same-parent.json",
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("no-valid-input-units"))
        .stdout(predicate::str::contains("source-file-exists"));
    hookrun()
        .args([
            "plan",
            "workflows/literature-digest",
            "--selection",
            "selections/grouped-mixed-same-parent.json",
            "--files",
            "files",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("unit-1"));
    hookrun()
        .args([
            "plan",
            "workflows/literature-digest",
            "--selection",
            "workflows/literature-digest/workflow.json",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a valid SelectionContext"));
}

#[test]
fn plan_can_convert_the_selection_explicitly() {
    let v = stdout_json(
        hookrun().args([
            "plan",
            "workflows/skip-processed",
            "--selection",
            "selections/grouped-mixed-same-parent.json",
            "--convert",
            "canonical",
            "--json",
        ]),
        0,
    );
    assert!(
        v["units"][0]["selectionContext"]["items"].is_array(),
        "canonical units: {v}"
    );
    let grouped = stdout_json(
        hookrun().args([
            "plan",
            "workflows/skip-processed",
            "--selection",
            "selections/grouped-mixed-same-parent.json",
            "--json",
        ]),
        0,
    );
    assert!(
        grouped["units"][0]["selectionContext"]["items"]["attachments"].is_array(),
        "grouped units: {grouped}"
    );
}

#[test]
fn run_prints_the_report_and_exits_by_outcome() {
    let v = stdout_json(
        hookrun().args([
            "run",
            "workflows/mineru-package",
            "--fixture",
            "workflows/mineru-package/pdf-split/cases/long-book.json",
            "--json",
            "--deterministic",
        ]),
        0,
    );
    assert_eq!(
        v["summary"],
        json!({"units": 1, "succeeded": 1, "skipped": 0, "failed": 0, "requests": 3, "effects": 9})
    );
    assert!(
        v["hooks"][0]["usage"].get("wallMs").is_none(),
        "deterministic reports carry no timings"
    );
    hookrun()
        .args([
            "run",
            "workflows/skip-processed",
            "--fixture",
            "workflows/skip-processed/cases/two-papers.json",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("skipped unit-1"))
        .stdout(predicate::str::contains("#1 unit-2 statusTags.transition"));
    hookrun()
        .args([
            "run",
            "workflows/literature-digest",
            "--fixture",
            "workflows/literature-digest/cases/provider-failure.json",
        ])
        .assert()
        .code(1)
        // Results on standard output; errors beside the hook logs on standard error.
        .stdout(predicate::str::contains("FAILED"))
        .stdout(predicate::str::contains("quota exceeded").not())
        .stderr(predicate::str::contains("quota exceeded"));
}

#[test]
fn run_flags_override_the_fixture() {
    let v = stdout_json(
        hookrun().args([
            "run",
            "workflows/export-summary",
            "--fixture",
            "workflows/export-summary/cases/grouped-two-papers.json",
            "--selection",
            "selections/canonical-parent.json",
            "--library",
            "selections/library-cats-and-dogs.json",
            "--json",
        ]),
        0,
    );
    assert_eq!(v["summary"]["units"], 1);
    assert_eq!(v["units"][0]["jobs"][0]["apply"]["value"]["attachments"], 3);
    hookrun()
        .args([
            "run",
            "workflows/export-summary",
            "--fixture",
            "workflows/export-summary/cases/canonical-parent.json",
            "--settings",
            "no-such-settings.json",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-settings.json"));
}

#[test]
fn run_reports_bad_usage_with_exit_two() {
    hookrun()
        .args(["run", "workflows/export-summary"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--selection"));
    hookrun()
        .args([
            "run",
            "workflows",
            "--selection",
            "selections/canonical-parent.json",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--workflow <id>"));
    hookrun()
        .args([
            "run",
            "workflows/export-summary",
            "--fixture",
            "selections/README.md",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("README.md"));
}

/// `--refs` writes a repeated value once; resolved, the report and the plan
/// are the ones written without it.
#[test]
fn refs_write_repeats_once_and_resolve_to_the_full_report_and_plan() {
    let args = |command: &'static str| {
        let mut args = vec![
            command,
            "workflows/skip-processed",
            "--fixture",
            "workflows/skip-processed/cases/two-papers.json",
            "--json",
        ];
        if command == "run" {
            args.push("--deterministic");
        }
        args
    };
    for (command, status) in [("run", 0), ("plan", 0)] {
        let full = stdout_json(hookrun().args(args(command)), status);
        let output = hookrun()
            .args(args(command))
            .arg("--refs")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(status));
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.contains("{\"$ref\":\"/"), "{command}: {text}");
        assert!(text.len() < serde_json::to_string(&full).unwrap().len());
        let written: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            hookrun::run::refs::resolve_refs(&written).unwrap(),
            full,
            "{command}"
        );
    }
    // References belong to the JSON output.
    hookrun()
        .args(["plan", "workflows/skip-processed", "--fixture"])
        .arg("workflows/skip-processed/cases/two-papers.json")
        .arg("--refs")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--json"));
}
