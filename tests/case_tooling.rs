//! How `hookrun test`, `run`, `plan` and `check` find and read cases and
//! workflows: which files of a `cases` directory are cases, where a hook's error
//! is said to be, a package's workflow named by its own directory, answers kept
//! in another file, the hint of an unanswered call, and a package file's
//! legacy-API warnings. The workflows are `fixtures/tooling/package`.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common;
use common::{copy_tree, hookrun_in_fixtures as hookrun, stdout_json};

/// The fixture package copied into `dir`; its root.
fn package_copy(dir: &Path) -> PathBuf {
    let root = dir.join("package");
    copy_tree(&common::fixture("tooling/package"), &root);
    root
}

/// `name → status` of the cases of a `hookrun test --json` report.
fn statuses(report: &Value) -> Vec<(String, String)> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let status = c["status"].as_str().unwrap().to_string();
            (c["name"].as_str().unwrap().to_string(), status)
        })
        .collect()
}

/// `list` as owned pairs, to compare with [`statuses`].
fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// The package's cases, all passing, whichever way the workflow is named.
const PASSING: [(&str, &str); 4] = [
    ("notes/figure-answered", "passed"),
    ("notes/library-first-paper", "passed"),
    ("notes/refused-by-hook", "passed"),
    ("notes/refused-by-lib", "passed"),
];

/// Named by its directory or manifest, the package's workflow imports from the package's `lib/`.
#[test]
fn a_package_workflow_named_by_its_directory_loads_with_the_package_root() {
    for named in [
        "tooling/package",
        "tooling/package/notes",
        "tooling/package/notes/workflow.json",
    ] {
        let report = stdout_json(hookrun().args(["test", named, "--json"]), 0);
        assert_eq!(statuses(&report), pairs(&PASSING), "{named}");
    }
    let case = "tooling/package/notes/cases/library-first-paper.json";
    let run = ["run", "tooling/package/notes", "--fixture", case, "--json"];
    let report = stdout_json(hookrun().args(run).arg("--deterministic"), 0);
    assert_eq!(report["units"][0]["status"], "succeeded");
    let plan = ["plan", "tooling/package/notes", "--fixture", case, "--json"];
    assert_eq!(stdout_json(hookrun().args(plan), 0)["state"], "enabled");
    let check = stdout_json(
        hookrun().args(["check", "tooling/package/notes", "--json"]),
        0,
    );
    assert_eq!(check["workflows"][0]["id"], "notes");
    assert_eq!(check["workflows"][0]["ok"], true);
    assert_eq!(check["diagnostics"], json!([]));
}

/// An import that leaves the package root is refused as before.
#[test]
fn the_package_root_still_jails_imports() {
    let dir = tempfile::tempdir().unwrap();
    let root = package_copy(dir.path());
    std::fs::write(dir.path().join("outside.mjs"), "export const x = 1;\n").unwrap();
    let hook = root.join("notes/hooks/applyResult.mjs");
    let text = std::fs::read_to_string(&hook).unwrap();
    let escaping = format!("import {{ x }} from \"../../../outside.mjs\";\n{text}");
    std::fs::write(&hook, escaping).unwrap();
    let check = stdout_json(
        hookrun().arg("check").arg(root.join("notes")).arg("--json"),
        1,
    );
    let problem = check["diagnostics"][0]["reason"].as_str().unwrap();
    assert!(
        problem.contains("import of \"../../../outside.mjs\"")
            && problem.contains("it leaves the workflow root"),
        "{problem}"
    );
}

/// A case named `library-…` runs, the files cases name do not, other JSON files are noted.
#[test]
fn cases_are_told_by_their_members_and_other_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = package_copy(dir.path());
    let cases = root.join("notes/cases");
    std::fs::write(cases.join("stray.json"), r#"{"items": []}"#).unwrap();
    std::fs::write(cases.join("list.json"), "[1, 2]").unwrap();
    std::fs::write(cases.join("broken.json"), "{\"selection\": ").unwrap();
    std::fs::write(cases.join("notes.txt"), "not JSON, not looked at").unwrap();
    let report = stdout_json(hookrun().arg("test").arg(&root).arg("--json"), 1);
    let mut expected = pairs(&PASSING);
    expected.insert(0, ("notes/broken".into(), "failed".into()));
    assert_eq!(statuses(&report), expected);
    assert_eq!(
        report["notCases"],
        json!([
            {"path": cases.join("list.json"), "reason": "it is not a JSON object"},
            {"path": cases.join("stray.json"), "reason": "it has none of a case's members"}
        ])
    );
    let out = hookrun().arg("test").arg(&root).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let note = format!(
        "note: {} is not a case (it has none of a case's members) and no case names it; not run",
        cases.join("stray.json").display()
    );
    assert!(stderr.contains(&note), "{stderr}");
    assert!(!stderr.contains("library.json"), "{stderr}");
    // --filter selects the notes as it selects the cases.
    let filtered = stdout_json(
        hookrun()
            .arg("test")
            .arg(&root)
            .args(["--filter", "library", "--json"]),
        0,
    );
    assert_eq!(filtered["notCases"], json!([]));
    assert_eq!(
        statuses(&filtered),
        pairs(&[("notes/library-first-paper", "passed")])
    );
}

/// Expected errors pair the module that threw, from the package root, with its line.
#[test]
fn errors_name_the_module_that_threw_with_its_line() {
    let case = "tooling/package/notes/cases/refused-by-lib.json";
    let report = stdout_json(
        hookrun().args(["run", "tooling/package/notes", "--fixture", case, "--json"]),
        1,
    );
    let hook = &report["errors"][0]["hook"];
    assert_eq!(hook["file"], "hooks/applyResult.mjs");
    assert_eq!(
        (&hook["location"]["file"], &hook["location"]["line"]),
        (&json!("lib/shared.mjs"), &json!(8))
    );
    // Blessing writes the frame's module, relative to the package root.
    let dir = tempfile::tempdir().unwrap();
    let root = package_copy(dir.path());
    let cases = root.join("notes/cases");
    let blessed = |name: &str| -> Value {
        let text = std::fs::read_to_string(cases.join(name)).unwrap();
        let case: Value = serde_json::from_str(&text).unwrap();
        let error = &case["expect"]["errors"][0];
        json!([error["hook"], error["file"], error["line"]])
    };
    hookrun()
        .arg("test")
        .arg(&root)
        .arg("--bless")
        .assert()
        .code(0);
    assert_eq!(
        blessed("refused-by-lib.json"),
        json!(["applyResult", "lib/shared.mjs", 8])
    );
    assert_eq!(
        blessed("refused-by-hook.json"),
        json!(["applyResult", "notes/hooks/applyResult.mjs", 8])
    );
}

/// The hook's file with the line of a module it imports no longer matches.
#[test]
fn a_hook_file_with_another_modules_line_no_longer_passes() {
    let dir = tempfile::tempdir().unwrap();
    let root = package_copy(dir.path());
    let path = root.join("notes/cases/refused-by-lib.json");
    let text = std::fs::read_to_string(&path).unwrap();
    // What expectations recorded before said: the hook's file, the library's line.
    let paired = text.replace("\"lib/shared.mjs\"", "\"hooks/applyResult.mjs\"");
    assert_ne!(paired, text);
    std::fs::write(&path, paired).unwrap();
    let report = stdout_json(
        hookrun()
            .arg("test")
            .arg(&root)
            .args(["--filter", "refused-by-lib", "--json"]),
        1,
    );
    let detail = &report["cases"][0]["detail"][0];
    assert_eq!(detail["key"], "errors");
    assert_eq!(detail["expected"][0]["file"], "hooks/applyResult.mjs");
    assert_eq!(detail["actual"][0]["file"], "lib/shared.mjs");
}

/// `hostAnswers` as `file.json#/pointer` fails at the member when nothing is there.
#[test]
fn host_answers_given_by_reference_must_point_at_something() {
    let dir = tempfile::tempdir().unwrap();
    let root = package_copy(dir.path());
    let path = root.join("notes/cases/figure-answered.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("answers.json#/figure", "answers.json#/none"),
    )
    .unwrap();
    let report = stdout_json(
        hookrun()
            .arg("test")
            .arg(&root)
            .args(["--filter", "figure", "--json"]),
        1,
    );
    let detail = report["cases"][0]["detail"].as_str().unwrap();
    assert_eq!(
        detail,
        format!(
            "{} at /hostAnswers: answers.json has nothing at /none",
            path.display()
        )
    );
}

/// The entry the unanswered call's message shows, pasted into a case, answers the call.
#[test]
fn the_hint_of_an_unanswered_call_is_an_entry_that_answers_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = package_copy(dir.path());
    let cases = root.join("notes/cases");
    let unanswered = cases.join("figure-unanswered.json");
    let case = json!({"selection": "selections.json#/figure", "library": "library.json"});
    std::fs::write(&unanswered, case.to_string()).unwrap();
    let run = |case: &Path| {
        let mut cmd = hookrun();
        cmd.env("TMPDIR", "/tmp")
            .arg("run")
            .arg(root.join("notes"))
            .arg("--fixture")
            .arg(case)
            .args(["--json", "--deterministic"]);
        cmd
    };
    let report = stdout_json(&mut run(&unanswered), 1);
    let message = report["errors"][0]["message"].as_str().unwrap().to_string();
    let (_, hint) = message
        .split_once("answer it in the case's hostAnswers: ")
        .unwrap_or_else(|| panic!("{message}"));
    let answer = json!({"mimeType": "image/png", "dataUrl": "data:,"});
    let entry: Value = serde_json::from_str(&hint.replace('…', &answer.to_string())).unwrap();
    assert_eq!(
        entry["images.prepareForNoteEmbedding"][0]["args"],
        json!([{"sourcePath": "/tmp/hookrun/archive-1/figure.png"}]),
        "the run's own temporary directory as the hook knows it, even under a system /tmp"
    );
    let answered = cases.join("figure-from-hint.json");
    let case = json!({"selection": "selections.json#/figure", "library": "library.json", "hostAnswers": entry});
    std::fs::write(&answered, case.to_string()).unwrap();
    let report = stdout_json(&mut run(&answered), 0);
    assert_eq!(
        report["units"][0]["jobs"][0]["apply"],
        json!({"status": "succeeded", "value": {"image": answer}})
    );
}

/// A package file used by two workflows has its legacy-API lines reported once each.
#[test]
fn check_reports_each_legacy_line_of_a_package_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = package_copy(dir.path());
    // A second workflow of the package, and a package file written for pre-v2 hosts.
    copy_tree(&root.join("notes"), &root.join("more-notes"));
    let manifest = root.join("more-notes/workflow.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace("\"id\": \"notes\"", "\"id\": \"more-notes\""),
    )
    .unwrap();
    let package = json!({"id": "tooling-package", "version": "1.0.0",
        "workflows": ["notes/workflow.json", "more-notes/workflow.json"]});
    std::fs::write(root.join("workflow-package.json"), package.to_string()).unwrap();
    let legacy = "export function titleOf(runtime, ref) {\n  return runtime.helpers.resolveItemRef(ref).title;\n}\nexport const zotero = (runtime) => runtime.zotero;\n";
    std::fs::write(root.join("lib/legacy.mjs"), legacy).unwrap();
    for named in [root.clone(), root.join("notes")] {
        let check = stdout_json(hookrun().arg("check").arg(&named).arg("--json"), 0);
        let warnings: Vec<Value> = check["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["category"] == "legacy_hook_api")
            .map(|d| {
                json!([
                    Path::new(d["path"].as_str().unwrap()).ends_with("lib/legacy.mjs"),
                    d["line"],
                    d["column"]
                ])
            })
            .collect();
        assert_eq!(
            warnings,
            [json!([true, 2, 10]), json!([true, 4, 36])],
            "{}",
            named.display()
        );
    }
}
