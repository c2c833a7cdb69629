//! Loading and planning as the reference host's loader does: a workflow shaped like its
//! builtin `literature-analysis` (a readiness artifact of note kind `literature-score`)
//! loads and plans one unit per paper, and a rejected manifest is reported with the
//! loader's own message.

use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};

use common::{hookrun_in_fixtures as hookrun, stdout_json};

#[test]
fn a_readiness_artifact_may_name_the_literature_score_note_kind() {
    let v = stdout_json(
        hookrun().args(["check", "workflows/literature-analysis", "--json"]),
        0,
    );
    assert_eq!(v["diagnostics"], json!([]), "{v}");
    assert_eq!(v["workflows"][0]["ok"], true);
}

/// The four source-selection cases of the reference host's literature-analysis tests:
/// each selection plans exactly one unit, whose member is the paper's source.
#[test]
fn literature_analysis_plans_one_unit_per_paper_with_its_source() {
    for (selection, source) in [
        ("markdown-matching-earliest-pdf", "MDPAPER1"),
        ("markdown-fallback", "MDONLY01"),
        ("pdf-fallback", "PDFFIRST"),
        ("parent-selected", "PSRCPDF1"),
    ] {
        let v = stdout_json(
            hookrun().args([
                "plan",
                "workflows/literature-analysis",
                "--selection",
                &format!("workflows/literature-analysis/selections/{selection}.json"),
                "--json",
            ]),
            0,
        );
        assert_eq!(v["state"], "enabled", "{selection}: {v}");
        assert_eq!(
            v["units"].as_array().map(Vec::len),
            Some(1),
            "{selection}: {v}"
        );
        assert_eq!(
            v["units"][0]["memberIdentities"],
            json!([format!("attachment:1:{source}")]),
            "{selection}"
        );
    }
}

#[test]
fn a_rejected_manifest_is_reported_first_with_the_loaders_message() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = std::fs::read_to_string(common::fixture(
        "workflows/literature-analysis/workflow.json",
    ))
    .unwrap()
    .replace("\"literature-source\"", "\"earliest-source\"");
    std::fs::create_dir_all(dir.path().join("hooks")).unwrap();
    std::fs::write(
        dir.path().join("hooks/applyResult.mjs"),
        "export function applyResult() {}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("workflow.json"), manifest).unwrap();
    let path = dir.path().canonicalize().unwrap().join("workflow.json");
    let v = stdout_json(
        Command::cargo_bin("hookrun")
            .unwrap()
            .args(["check", "--json"])
            .arg(dir.path()),
        1,
    );
    let lead = &v["diagnostics"][0];
    assert_eq!(
        lead["message"].as_str().unwrap(),
        format!("Invalid workflow manifest: {}", path.display()),
        "{v}"
    );
    assert_eq!(lead["category"], "manifest_validation_error");
    // `hookrun check` reports every problem of a workflow it was asked about as an error.
    assert_eq!(lead["level"], "error");
    assert_eq!(lead["workflowId"], Value::Null);
    assert!(
        lead["reason"].as_str().unwrap().contains(
            "/validateSelection/select/policy must be equal to one of the allowed values"
        ),
        "{lead}"
    );
    assert_eq!(
        v["diagnostics"][1]["pointer"], "/validateSelection/select/policy",
        "{v}"
    );
    Command::cargo_bin("hookrun")
        .unwrap()
        .arg("check")
        .arg(dir.path())
        .assert()
        .stdout(predicate::str::contains("Invalid workflow manifest: "));
}
