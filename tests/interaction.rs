//! Members that need a person, through hooks: in an interactive run the
//! pickers throw their filters' refusal where they are called, the clipboard is
//! the run's, toasts and editor sessions are checked, and clipboard writes and
//! toasts are effects of the run; without a person every one is refused, the
//! denied toast logging the reference's line. A fixture answering a picker with
//! something else than a path is refused when `hookrun run` reads it.

use crate::common;

use std::path::Path;

use serde_json::{Value, json};

use hookrun::hooks::InvocationMode;
use hookrun::host::answers::HostAnswers;
use hookrun::run::{NoResults, RunReport, run};

const HOOK: &str = r#"export async function applyResult({ runtime }) {
  const api = runtime.hostApi;
  const out = {};
  try {
    api.file.pickFile({ filters: 5 }).catch((e) => {});
    out.picker = "a promise";
  } catch (e) {
    out.picker = ["thrown", e.name, e.code, e.details];
  }
  try {
    const settled = api.file.pickFiles({ filters: [{ label: "" }] });
    out.refused = await settled.then(() => "answered", (e) => `rejected ${e.code}`);
  } catch (e) {
    out.refused = `thrown ${e.code}`;
  }
  out.canceled = await api.file.pickFile({ title: "Digest" }).catch((e) => e.code);
  out.empty = await api.file.pickFiles({ title: "None" }).catch((e) => e.code);
  out.clipboard = [];
  for (const step of [() => api.clipboard.writeText("copied"), () => api.clipboard.readText(),
      () => api.clipboard.hasText(), () => api.clipboard.clear(), () => api.clipboard.hasText()]) {
    out.clipboard.push(await step().catch((e) => e.code));
  }
  try {
    api.notifications.toast({ text: " Done ", type: "success" });
    out.toast = "shown";
  } catch (e) {
    out.toast = e.code;
  }
  try { api.notifications.toast({ text: "hi", type: "warning" }); } catch (e) { out.badToast = [e.code, e.details]; }
  out.editor = await api.editor.openSession(null).catch((e) => [e.name, e.message]);
  return out;
}"#;

/// Runs [`HOOK`] in `mode` with the fixture's `answers`.
fn run_hook(mode: InvocationMode, answers: Value) -> (RunReport, Value) {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), &[("applyResult", HOOK)]);
    let mut input = common::probe_input(&["Cats"]);
    input.answers = HostAnswers {
        members: HostAnswers::parse_members(&answers).unwrap(),
        ..HostAnswers::default()
    };
    let mut options = common::run_options();
    options.runtime.invocation_mode = mode;
    let report = run(&workflow, input, &mut NoResults, &options);
    assert!(report.ok(), "{:?}", report.errors);
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    (report, value)
}

/// `(call, result, refused)` of each effect of `report`.
fn effects(report: &RunReport) -> Vec<(String, Value, bool)> {
    report
        .effects
        .iter()
        .map(|e| (e.call.clone(), e.result.clone(), e.error.is_some()))
        .collect()
}

#[test]
fn an_interactive_run_checks_answers_and_records_what_a_person_does() {
    let (report, found) = run_hook(
        InvocationMode::Interactive,
        json!({
            "file.pickFile": [{"args": [{"title": "Digest"}], "answer": null}],
            "file.pickFiles": [{"args": [{"title": "None"}], "answer": []}]
        }),
    );
    assert_eq!(
        found["picker"],
        json!(["thrown", "WorkflowHostError", "invalid_request",
            {"reason": "invalid_type", "field": "filters"}])
    );
    assert_eq!(found["refused"], "thrown invalid_request");
    assert_eq!(found["canceled"], Value::Null);
    assert_eq!(found["empty"], json!([]));
    assert_eq!(
        found["clipboard"],
        json!([null, "copied", true, null, false])
    );
    assert_eq!(found["toast"], "shown");
    assert_eq!(
        found["badToast"],
        json!(["invalid_request", {"reason": "invalid_value", "field": "type"}])
    );
    assert_eq!(
        found["editor"],
        json!([
            "TypeError",
            "Cannot read properties of null (reading 'initialState')"
        ])
    );
    assert_eq!(
        effects(&report),
        [
            ("clipboard.writeText".into(), Value::Null, false),
            ("clipboard.clear".into(), Value::Null, false),
            ("notifications.toast".into(), Value::Null, false),
        ]
    );
}

#[test]
fn without_a_person_each_member_is_refused_and_the_denied_toast_logs_its_line() {
    let (report, found) = run_hook(InvocationMode::NonInteractive, json!({}));
    assert_eq!(found["picker"], "a promise");
    assert_eq!(found["refused"], "rejected interaction_required");
    assert_eq!(found["canceled"], "interaction_required");
    assert_eq!(found["clipboard"], json!(vec!["interaction_required"; 5]));
    assert_eq!(found["toast"], "interaction_required");
    assert_eq!(found["editor"][0], "WorkflowHostError");
    let logs: Vec<(&str, &str)> = report.hooks[0]
        .logs
        .iter()
        .map(|l| (l.level.as_str(), l.message.as_str()))
        .collect();
    let denied = (
        "warn",
        "[workflow-host.notifications] Denied non-interactive workflow toast request",
    );
    assert_eq!(logs, [denied, denied]);
    assert_eq!(
        effects(&report),
        [
            ("notifications.toast".into(), Value::Null, true),
            ("notifications.toast".into(), Value::Null, true),
        ]
    );
}

#[test]
fn a_picker_answer_that_is_not_a_path_is_refused_when_the_case_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(&dir.path().join("wf"), &[("applyResult", HOOK)]);
    let case = json!({
        "selection": {"items": [{"kind": "parent", "ref": {"libraryId": 1, "key": "P0000000"},
            "itemType": "book", "title": "Cats"}], "sampledAt": "2026-01-01T00:00:00Z"},
        "hostAnswers": {"file.pickFile": [{"args": [{"title": "Digest"}], "answer": {"path": "/a.md"}}]}
    });
    let path = dir.path().join("case.json");
    std::fs::write(&path, case.to_string()).unwrap();
    let out = assert_cmd::Command::cargo_bin("hookrun")
        .unwrap()
        .arg("run")
        .arg(&workflow.manifest_path)
        .arg("--fixture")
        .arg(Path::new(&path))
        .arg("--interactive")
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("/hostAnswers/file.pickFile/0/answer")
            && stderr.contains(
                "file.pickFile answers a path (a string), or null when the person cancels"
            ),
        "{stderr}"
    );
}
