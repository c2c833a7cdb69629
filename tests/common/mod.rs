//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod sandbox;

/// Where the tests' sandboxes run their engine: in process, or in worker processes
/// when `HOOKRUN_TEST_ISOLATION=process` (CI runs the sandbox and run suites both ways).
pub fn isolation() -> hookrun::sandbox::Isolation {
    match std::env::var("HOOKRUN_TEST_ISOLATION").as_deref() {
        Ok("process") => {
            hookrun::sandbox::set_worker_binary(env!("CARGO_BIN_EXE_hookrun"));
            hookrun::sandbox::Isolation::process()
        }
        _ => hookrun::sandbox::Isolation::InProcess,
    }
}

/// The default sandbox options with the isolation under test.
pub fn sandbox_options() -> hookrun::sandbox::SandboxOptions {
    hookrun::hooks::sandbox_options(
        hookrun::sandbox::SandboxOptions::default().isolation(isolation()),
    )
}

/// The default run options with the isolation under test.
pub fn run_options() -> hookrun::run::RunOptions {
    hookrun::run::RunOptions::default().sandbox(sandbox_options())
}

/// The `hookrun` binary, run in `fixtures/`.
pub fn hookrun_in_fixtures() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("hookrun").unwrap();
    cmd.current_dir(fixture(""));
    cmd
}

/// Runs `cmd`, expects exit `code`, and parses its standard output as JSON.
pub fn stdout_json(cmd: &mut assert_cmd::Command, code: i32) -> serde_json::Value {
    let out = cmd.assert().code(code).get_output().stdout.clone();
    serde_json::from_slice(&out).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}",
            String::from_utf8_lossy(&out)
        )
    })
}

/// Copies the directory tree `from` to `to` (created).
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// `fixtures/<rel>` in the repository.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// Loads the single workflow at `fixtures/<rel>`.
pub fn workflow(rel: &str) -> hookrun::manifest::Workflow {
    let found = hookrun::manifest::discover(&fixture(rel));
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    assert_eq!(found.workflows.len(), 1);
    found.workflows.into_iter().next().unwrap()
}

/// Runs the case `fixtures/<case>` of the workflow `fixtures/<workflow>`
/// through the library, deterministically.
pub fn run_case(workflow_rel: &str, case_rel: &str) -> hookrun::run::RunReport {
    use hookrun::run::{Case, run};
    use hookrun::sandbox::Determinism;
    let workflow = workflow(workflow_rel);
    let case = Case::load(&fixture(case_rel)).unwrap();
    let input = case.input(None).unwrap();
    let options = run_options()
        .mode(case.mode().unwrap())
        .sandbox(sandbox_options().determinism(Some(Determinism::default())));
    run(&workflow, input, &mut case.result_source(), &options)
}

/// A pass-through workflow over parents whose titles drive the hooks.
pub fn probe_workflow(
    dir: &std::path::Path,
    hooks: &[(&str, &str)],
) -> hookrun::manifest::Workflow {
    probe_workflow_of("pass-through", dir, hooks)
}

/// [`probe_workflow`] with another provider (a `skillrunner` one asks the
/// run's result source for its results).
pub fn probe_workflow_of(
    provider: &str,
    dir: &std::path::Path,
    hooks: &[(&str, &str)],
) -> hookrun::manifest::Workflow {
    let mut declared = serde_json::Map::new();
    std::fs::create_dir_all(dir.join("hooks")).unwrap();
    for (name, source) in hooks {
        std::fs::write(dir.join(format!("hooks/{name}.mjs")), source).unwrap();
        declared.insert(
            name.to_string(),
            serde_json::json!(format!("hooks/{name}.mjs")),
        );
    }
    let manifest = serde_json::json!({
        "schemaVersion": 2, "id": "probe", "label": "Probe", "provider": provider,
        "trigger": {"requiresSelection": true},
        "inputs": {"member": {"kind": "parent"}, "grouping": {"mode": "each"}},
        "validateSelection": {"select": {"policy": "input-member", "source": "selected"}, "filters": []},
        "hooks": declared
    });
    std::fs::write(dir.join("workflow.json"), manifest.to_string()).unwrap();
    let found = hookrun::manifest::discover(&dir.join("workflow.json"));
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    found.workflows.into_iter().next().unwrap()
}

/// The run input of [`probe_workflow`]: one parent per title, in a world that
/// knows only the selection.
pub fn probe_input(titles: &[&str]) -> hookrun::run::RunInput {
    let items: Vec<serde_json::Value> = titles
        .iter()
        .enumerate()
        .map(|(i, t)| serde_json::json!({"kind": "parent", "ref": {"libraryId": 1, "key": format!("P{i:07}")}, "itemType": "book", "title": t}))
        .collect();
    let selection = hookrun::selection::SelectionContext::from_value(
        &serde_json::json!({"items": items, "sampledAt": "2026-01-01T00:00:00Z"}),
    )
    .unwrap();
    hookrun::run::RunInput {
        world: hookrun::host::world::HostWorld::from_selection(&selection),
        selection,
        settings: hookrun::run::Settings::default(),
        answers: Default::default(),
    }
}

/// A canonical selection of `count` PDF attachments, each of its own paper,
/// written to `dir/selection.json`: a run of `fixtures/bench/pass-through`
/// over it has `count` units.
pub fn attachments_selection(dir: &std::path::Path, count: usize) -> PathBuf {
    let items: Vec<serde_json::Value> = (0..count)
        .map(|i| {
            serde_json::json!({"kind": "attachment", "ref": {"libraryId": 1, "key": format!("A{i:07}")},
                "itemType": "attachment", "title": "T", "parentRef": {"libraryId": 1, "key": format!("P{i:07}")},
                "filename": "a.pdf", "contentType": "application/pdf", "fileState": "available"})
        })
        .collect();
    let path = dir.join("selection.json");
    std::fs::write(
        &path,
        serde_json::json!({"items": items, "sampledAt": "2026-01-01T00:00:00Z"}).to_string(),
    )
    .unwrap();
    path
}

/// Whether the JSON file at `path` is a case, by the rule `hookrun test` uses.
fn is_case(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap();
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(members)) => {
            hookrun::run::Case::has_case_members(members.keys().map(String::as_str))
        }
        _ => true,
    }
}

/// Every fixture case with the workflow it belongs to.
pub fn fixture_cases() -> Vec<(PathBuf, PathBuf)> {
    let mut found = Vec::new();
    let mut dirs = vec![fixture("workflows")];
    while let Some(dir) = dirs.pop() {
        let cases = dir.join("cases");
        if dir.join("workflow.json").is_file() && cases.is_dir() {
            for entry in std::fs::read_dir(&cases).unwrap() {
                let case = entry.unwrap().path();
                let name = case.file_name().unwrap().to_string_lossy().into_owned();
                // Files beside the cases that they name (libraries, selections,
                // answers) are not cases: a case has a member only cases have.
                if name.ends_with(".json") && is_case(&case) {
                    found.push((dir.clone(), case));
                }
            }
        }
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && path.file_name().is_some_and(|n| n != "cases") {
                dirs.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The console lines of every hook call of `report`, in call order.
pub fn hook_logs(report: &hookrun::run::RunReport) -> Vec<String> {
    report
        .hooks
        .iter()
        .flat_map(|h| h.logs.iter().map(|l| l.message.clone()))
        .collect()
}

/// Each effect of `report` as its number and unit.
pub fn effect_units(report: &hookrun::run::RunReport) -> Vec<(u64, String)> {
    report
        .effects
        .iter()
        .map(|e| (e.seq, e.unit_id.clone()))
        .collect()
}

/// Run options whose heap limit no runtime can start with, on `jobs` threads.
pub fn unstartable_run_options(jobs: usize) -> hookrun::run::RunOptions {
    run_options()
        .sandbox(sandbox_options().limits(hookrun::sandbox::Limits::default().max_heap_bytes(1)))
        .jobs(jobs)
}
