//! `hookrun migrate` over the legacy fixtures (one per contract generation): what it
//! reports, what it writes, that the written manifests pass `check`, that a second run
//! changes nothing, and the hint `check` gives for a pre-v2 manifest.

use crate::common;

use std::fs;
use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};

use common::{copy_tree, fixture, hookrun_in_fixtures as hookrun, stdout_json};

/// A copy of `fixtures/legacy` in a fresh temporary directory.
fn legacy_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("legacy");
    copy_tree(&fixture("legacy"), &root);
    (dir, root)
}

fn bin() -> Command {
    Command::cargo_bin("hookrun").unwrap()
}

/// `{relative path: file}` of a `migrate --json` report.
fn by_path(report: &Value) -> Vec<(String, Value)> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let path = f["path"].as_str().unwrap();
            let short = path[path.find("legacy/").unwrap() + 7..].to_string();
            (short, f.clone())
        })
        .collect()
}

#[test]
fn reports_every_generation_without_writing() {
    let before = fs::read(fixture("legacy/g0-digest/workflow.json")).unwrap();
    let report = stdout_json(hookrun().args(["migrate", "legacy", "--json"]), 1);
    let files = by_path(&report);
    let summary: Vec<(&str, Value, Value)> = files
        .iter()
        .map(|(p, f)| (p.as_str(), f["generation"].clone(), f["status"].clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                "g2-translate-package/workflow-package.json",
                Value::Null,
                json!("needs-attention")
            ),
            (
                "g2-translate-package/translate/workflow.json",
                json!("G2"),
                json!("migrated")
            ),
            (
                "g0-digest/workflow.json",
                json!("G0"),
                json!("needs-attention")
            ),
            (
                "g1-tag-suggest/workflow.json",
                json!("G1"),
                json!("migrated")
            ),
            (
                "g1plus-collect/workflow.json",
                json!("G1+"),
                json!("migrated")
            ),
            (
                "g2b-import-notes/workflow.json",
                json!("G2b"),
                json!("migrated")
            ),
        ]
    );
    assert_eq!(
        fs::read(fixture("legacy/g0-digest/workflow.json")).unwrap(),
        before
    );

    let g0 = &files[2].1;
    let change = g0["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rule"] == "backend-skill-id")
        .unwrap();
    assert_eq!(change["pointer"], "/request/create/skill_id");
    assert_eq!(change["to"], "literature-digest");
    let manual: Vec<String> = g0["manual"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| match (&m["file"], &m["line"], &m["pointer"]) {
            (Value::String(f), Value::Number(l), _) => {
                format!("{}:{l}", &f[f.find("hooks/").unwrap()..])
            }
            (_, _, Value::String(p)) => p.clone(),
            _ => panic!("{m}"),
        })
        .collect();
    assert_eq!(
        manual,
        [
            "/hooks/filterInputs",
            "hooks/applyResult.js:2",
            "hooks/applyResult.js:6",
            "hooks/filterInputs.js:5"
        ]
    );
}

#[test]
fn written_manifests_pass_check_and_a_second_run_changes_nothing() {
    let (_dir, root) = legacy_copy();
    bin()
        .arg("migrate")
        .arg(&root)
        .arg("--write")
        .assert()
        .code(1);
    let check = stdout_json(bin().arg("check").arg(&root).arg("--json"), 0);
    let ok: Vec<(Value, Value)> = check["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["id"].clone(), w["ok"].clone()))
        .collect();
    assert_eq!(ok.len(), 5, "{check}");
    assert!(ok.iter().all(|(_, ok)| *ok == true), "{check}");
    let levels: Vec<&Value> = check["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["level"])
        .collect();
    assert!(levels.iter().all(|l| *l == "warning"), "{check}");

    let manifests = || -> Vec<Vec<u8>> {
        [
            "g0-digest",
            "g1-tag-suggest",
            "g2-translate-package/translate",
        ]
        .iter()
        .map(|d| fs::read(root.join(d).join("workflow.json")).unwrap())
        .collect()
    };
    let snapshot = manifests();
    let again = stdout_json(
        bin().arg("migrate").arg(&root).arg("--json").arg("--write"),
        1,
    );
    for (path, file) in by_path(&again) {
        assert_eq!(file["changes"], json!([]), "{path}");
        let expected = if path.starts_with("g0-") || path.ends_with("workflow-package.json") {
            "needs-attention"
        } else {
            "already-v2"
        };
        assert_eq!(file["status"], expected, "{path}");
    }
    assert_eq!(snapshot, manifests());
}

#[test]
fn writing_keeps_key_order_indentation_and_one_line_containers() {
    let (_dir, root) = legacy_copy();
    let manifest = root.join("g1-tag-suggest/workflow.json");
    let tabbed = fs::read_to_string(&manifest).unwrap().replace("  ", "\t");
    fs::write(&manifest, &tabbed).unwrap();
    bin()
        .arg("migrate")
        .arg(&manifest)
        .arg("--write")
        .assert()
        .code(0);
    let written = fs::read_to_string(&manifest).unwrap();
    assert!(
        written
            .lines()
            .skip(1)
            .all(|l| l.is_empty() || l.starts_with('\t') || l == "}"),
        "{written}"
    );
    let keys: Vec<String> = serde_json::from_str::<Value>(&written)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        keys,
        [
            "schemaVersion",
            "id",
            "label",
            "provider",
            "trigger",
            "parameters",
            "inputs",
            "validateSelection",
            "request",
            "execution",
            "result",
            "hooks"
        ]
    );
    assert!(
        written.contains("\t\"result\": { \"fetch\": { \"type\": \"result\" } },\n"),
        "{written}"
    );
    assert!(
        written.contains("\t\"trigger\": { \"requiresSelection\": true },\n"),
        "{written}"
    );
}

#[test]
fn without_write_prints_a_unified_diff_per_manifest() {
    hookrun()
        .args(["migrate", "legacy/g1-tag-suggest"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "--- a/legacy/g1-tag-suggest/workflow.json\n+++ b/legacy/g1-tag-suggest/workflow.json\n@@ ",
        ))
        .stdout(predicate::str::contains("-  \"inputs\": { \"unit\": \"parent\" },\n"))
        .stdout(predicate::str::contains("+  \"schemaVersion\": 2,\n"))
        .stderr(predicate::str::contains(
            "legacy/g1-tag-suggest/workflow.json: generation G1: migrated, not written (pass --write) (5 change(s))",
        ));
}

#[test]
fn exit_codes_separate_done_attention_and_bad_usage() {
    hookrun()
        .args(["migrate", "legacy/g2b-import-notes", "--json"])
        .assert()
        .code(0);
    hookrun()
        .args(["migrate", "legacy/g0-digest", "--json"])
        .assert()
        .code(1);
    hookrun()
        .args(["migrate", "legacy/absent"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read legacy/absent"));
    hookrun()
        .args(["migrate", "selections"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no workflow.json or workflow-package.json under selections",
        ));
    hookrun()
        .args(["migrate", "legacy/README.md"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a workflow manifest"));
    // Already v2: nothing to do.
    let v = stdout_json(
        hookrun().args(["migrate", "workflows/skip-processed", "--json"]),
        0,
    );
    assert_eq!(v["files"][0]["status"], "already-v2");
}

#[test]
fn check_names_the_generation_and_the_command_first() {
    let v = stdout_json(
        hookrun().args(["check", "legacy/g1-tag-suggest", "--json"]),
        1,
    );
    let first = &v["diagnostics"][0];
    assert_eq!(first["category"], "legacy_manifest", "{v}");
    assert_eq!(
        first["message"],
        "legacy/g1-tag-suggest/workflow.json is a pre-v2 manifest (generation G1); run hookrun migrate legacy/g1-tag-suggest/workflow.json"
    );
    let hooks = stdout_json(hookrun().args(["check", "legacy/g0-digest", "--json"]), 1);
    let warnings: Vec<(String, Value)> = hooks["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["category"] == "legacy_hook_api")
        .map(|d| {
            (
                d["message"].as_str().unwrap().to_string(),
                d["line"].clone(),
            )
        })
        .collect();
    assert_eq!(warnings.len(), 3, "{hooks}");
    assert_eq!(
        warnings[0],
        (
            "runtime.handlers.parent.addNote is not provided by v2 hosts; use hostApi.notes.create({operationId, placement: {kind: \"child\", parentRef}, content})".to_string(),
            json!(6)
        )
    );
}

#[test]
fn the_library_migrates_a_package_and_its_workflows() {
    let files =
        hookrun::manifest::migrate::migrate_path(&fixture("legacy/g2-translate-package")).unwrap();
    assert_eq!(files.len(), 2);
    let package: Value = serde_json::from_str(&files[0].migrated).unwrap();
    assert_eq!(package["workflows"], json!(["translate/workflow.json"]));
    let workflow: Value = serde_json::from_str(&files[1].migrated).unwrap();
    assert!(hookrun::manifest::validate_document(&workflow).is_empty());
    assert_eq!(
        workflow["validateSelection"]["filters"][1],
        json!({"kind": "artifact-absent", "phase": "execute", "target": "translator-markdown", "parameter": "target_language"})
    );
}
