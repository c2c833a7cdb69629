//! Hook authoring: the scaffold, the type declarations against what the runtime
//! really passes, and `hookrun test` with its diff, bless and failure output.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use assert_cmd::Command;
use hookrun::sandbox::{Call, CallResult, Sandbox};
use predicates::prelude::*;
use serde_json::{Value, json};

fn hookrun() -> Command {
    Command::cargo_bin("hookrun").unwrap()
}

/// A scaffolded workflow `demo` in `dir`: its root, and the text of its
/// `preflight` hook before `statement` was put in front of its log line.
fn scaffold_failing_at(dir: &Path, statement: &str) -> (std::path::PathBuf, String) {
    let root = dir.join("demo");
    hookrun().arg("new").arg(&root).assert().code(0);
    let hook = root.join("hooks/preflight.mjs");
    let source = std::fs::read_to_string(&hook).unwrap();
    let broken = source.replace("  console.log(", &format!("  {statement}\n  console.log("));
    std::fs::write(&hook, broken).unwrap();
    (root, source)
}

fn files_under(root: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                out.insert(rel, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    out
}

#[test]
fn the_scaffold_is_the_committed_typed_example_and_passes_check_and_test() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("typed-example");
    hookrun()
        .arg("new")
        .arg(&target)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("created workflow typed-example"));
    assert_eq!(
        files_under(&target),
        files_under(&common::fixture("workflows/typed-example")),
        "fixtures/workflows/typed-example must be exactly what `hookrun new` writes; regenerate it"
    );
    hookrun().arg("check").arg(&target).assert().code(0);
    hookrun()
        .arg("test")
        .arg(&target)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1 passed, 0 failed"));
    hookrun()
        .arg("new")
        .arg(&target)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not empty"));
}

#[test]
fn scaffolds_for_other_providers_pass_their_own_tests() {
    for provider in ["skillrunner", "generic-http"] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join(format!("with-{provider}"));
        hookrun()
            .args(["new", "--provider", provider])
            .arg(&target)
            .assert()
            .code(0);
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(target.join("workflow.json")).unwrap())
                .unwrap();
        assert_eq!(manifest["provider"], provider);
        hookrun()
            .arg("test")
            .arg(&target)
            .assert()
            .code(0)
            .stdout(predicate::str::contains("1 passed, 0 failed"));
    }
}

/// Names declared in `interface <name> { … }` of js/hookrun.d.ts: the fields
/// at nesting depth one, and for object-typed fields their own members.
fn declared(interface: &str) -> (Vec<String>, BTreeMap<String, Vec<String>>) {
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("js/hookrun.d.ts"))
            .unwrap();
    let start = source
        .find(&format!("export interface {interface} {{"))
        .unwrap();
    let body = &source[start..];
    let (mut depth, mut fields, mut members) =
        (0usize, Vec::new(), BTreeMap::<String, Vec<String>>::new());
    let mut current: Option<String> = None;
    for line in body.lines() {
        let trimmed = line.trim();
        let name = trimmed
            .trim_start_matches("readonly ")
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .next()
            .unwrap_or("")
            .to_string();
        if depth == 1
            && !name.is_empty()
            && !trimmed.starts_with("//")
            && !trimmed.starts_with('*')
            && !trimmed.starts_with("/*")
        {
            fields.push(name.clone());
            if trimmed.ends_with('{') {
                current = Some(name.clone());
            }
        } else if depth == 2
            && let Some(ns) = &current
            && trimmed.contains('(')
            && !name.is_empty()
        {
            members.entry(ns.clone()).or_default().push(name);
        }
        depth += line.matches('{').count();
        depth -= line.matches('}').count();
        if depth == 1 {
            current = None;
        }
        if depth == 0 && line.contains('}') {
            break;
        }
    }
    (fields, members)
}

#[test]
fn declared_types_match_what_the_runtime_passes() {
    let mut sandbox = Sandbox::new(common::fixture("sandbox"), common::sandbox_options()).unwrap();
    let live = json!([{"path": ["runtime"], "kind": "runtime", "hookName": "preflight"}]);
    let outcome = sandbox.run(
        Call::new(
            Path::new("introspect.mjs"),
            "runtimeShape",
            &json!({"runtime": null}),
        )
        .live(&live),
    );
    let CallResult::Ok(shape) = outcome.result else {
        panic!("{:?}", outcome.result)
    };

    let (mut runtime_fields, _) = declared("HookRuntime");
    runtime_fields.sort();
    assert_eq!(
        shape["runtime"],
        json!(runtime_fields),
        "HookRuntime fields"
    );

    // The members of each namespace are checked against the declaration in
    // tests/host_api.rs.
    let (host_fields, _) = declared("HostApi");
    let passed = shape["hostApi"].as_object().unwrap();
    let mut passed_names: Vec<&String> = passed.keys().collect();
    passed_names.sort();
    let mut declared_names: Vec<&String> = host_fields.iter().collect();
    declared_names.sort();
    assert_eq!(passed_names, declared_names, "HostApi namespaces");
}

#[test]
fn test_reports_diffs_code_frames_and_blesses() {
    let dir = tempfile::tempdir().unwrap();
    let (root, _) = scaffold_failing_at(dir.path(), "if (attachments.length === 1) null.boom;");
    let failing = hookrun().arg("test").arg(&root).assert().code(1);
    let out = failing.get_output();
    // The verdict and its diff are the results (standard output); the hook's
    // failure with its code frame is a diagnostic (standard error).
    let text = String::from_utf8_lossy(&out.stdout);
    let diagnostics = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("FAIL    demo/example"), "{text}");
    assert!(
        text.contains("errors differ (- expected, + actual):"),
        "{text}"
    );
    assert!(
        text.contains("+     \"message\": \"Cannot read properties of null (reading 'boom')\","),
        "{text}"
    );
    let shown = root.join("hooks/preflight.mjs");
    assert!(
        diagnostics.contains(&format!("--> {}:19:", shown.display())),
        "{diagnostics}"
    );
    assert!(
        !text.contains('\x1b') && !diagnostics.contains('\x1b'),
        "{text}"
    );
    assert!(
        diagnostics.contains("19 |   if (attachments.length === 1) null.boom;"),
        "{diagnostics}"
    );
    assert!(!text.contains("null.boom;"), "{text}");
    assert!(text.contains("0 passed, 1 failed"), "{text}");

    let json_out = hookrun()
        .arg("test")
        .arg(&root)
        .arg("--json")
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&json_out).unwrap();
    assert_eq!(
        (v["passed"].clone(), v["failed"].clone()),
        (json!(0), json!(1))
    );
    let keys: Vec<_> = v["cases"][0]["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["key"].clone())
        .collect();
    assert_eq!(
        keys,
        [
            json!("units"),
            json!("requests"),
            json!("effects"),
            json!("errors")
        ]
    );

    hookrun()
        .arg("test")
        .arg(&root)
        .arg("--bless")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("blessed"));
    hookrun()
        .arg("test")
        .arg(&root)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("1 passed, 0 failed"));
    hookrun()
        .arg("test")
        .arg(&root)
        .args(["--filter", "nothing-matches"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 passed, 0 failed"));
}

/// Every location `hookrun test` prints opens from where it ran: relative to
/// the current directory inside it, absolute outside it; colour follows
/// `--color`, `NO_COLOR` and `CLICOLOR_FORCE`.
#[test]
fn failures_print_locations_that_open_and_colour_as_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (root, _) = scaffold_failing_at(dir.path(), "null.boom;");
    let run = |dir: &Path, path: &str, env: &[(&str, &str)], args: &[&str]| {
        let mut cmd = hookrun();
        cmd.current_dir(dir).args(["test", path]).args(args);
        cmd.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.assert().code(1).get_output().clone();
        (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (_, diagnostics) = run(dir.path(), "demo", &[], &[]);
    let location = "demo/hooks/preflight.mjs:19:";
    assert!(
        diagnostics.contains(&format!("--> {location}")),
        "{diagnostics}"
    );
    assert!(
        diagnostics.contains("(demo/hooks/preflight.mjs:19:"),
        "{diagnostics}"
    );
    assert!(dir.path().join("demo/hooks/preflight.mjs").is_file());
    // The editor's problem matcher reads the error line, then the location
    // right below it.
    let lines: Vec<&str> = diagnostics.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("error[preflight]"))
        .unwrap();
    assert!(
        lines[at + 1].trim_start().starts_with("--> demo/"),
        "{diagnostics}"
    );
    let (_, inside) = run(&root.join("hooks"), "..", &[], &[]);
    assert!(inside.contains("--> preflight.mjs:19:"), "{inside}");

    let coloured = |(out, err): (String, String)| out.contains("\x1b[") && err.contains("\x1b[");
    assert!(coloured(run(
        dir.path(),
        "demo",
        &[],
        &["--color", "always"]
    )));
    assert!(coloured(run(
        dir.path(),
        "demo",
        &[("CLICOLOR_FORCE", "1")],
        &[]
    )));
    assert!(coloured(run(
        dir.path(),
        "demo",
        &[("NO_COLOR", "1")],
        &["--color", "always"]
    )));
    for (env, args) in [
        (&[][..], &[][..]),
        (&[("CLICOLOR_FORCE", "1")][..], &["--color", "never"][..]),
        (
            &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")][..],
            &["--color", "never"][..],
        ),
    ] {
        let (out, err) = run(dir.path(), "demo", env, args);
        assert!(
            !out.contains('\x1b') && !err.contains('\x1b'),
            "{env:?} {args:?}: {out}"
        );
    }
    let (out, _) = run(dir.path(), "demo", &[], &["--color", "always"]);
    assert!(out.contains("\x1b[1m\x1b[31mFAIL"), "{out:?}");
}

/// `hookrun new --editor` gives an existing workflow the scaffold's editor
/// support: the schemas and types, and `.vscode` entries added beside the
/// author's own; a directory without a workflow is refused.
#[test]
fn editor_support_is_added_to_an_existing_workflow() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("existing");
    hookrun().arg("new").arg(&root).assert().code(0);
    let scaffolded = files_under(&root);
    for file in [
        "types/case.schema.json",
        ".vscode/settings.json",
        ".vscode/tasks.json",
    ] {
        std::fs::remove_file(root.join(file)).unwrap();
    }
    std::fs::write(
        root.join(".vscode/settings.json"),
        r#"{"editor.tabSize": 2, "json.schemas": [{"fileMatch": ["x.json"], "url": "./x.json"}]}"#,
    )
    .unwrap();
    hookrun()
        .args(["new", "--editor"])
        .arg(&root)
        .assert()
        .code(0);
    let added = files_under(&root);
    assert_eq!(
        added["types/case.schema.json"],
        scaffolded["types/case.schema.json"]
    );
    assert_eq!(
        added[".vscode/tasks.json"],
        scaffolded[".vscode/tasks.json"]
    );
    let settings: Value = serde_json::from_str(&added[".vscode/settings.json"]).unwrap();
    assert_eq!(settings["editor.tabSize"], 2);
    assert_eq!(
        settings["json.schemas"],
        json!([{"fileMatch": ["x.json"], "url": "./x.json"},
               {"fileMatch": ["cases/*.json"], "url": "./types/case.schema.json"}])
    );
    // Again: nothing is added twice.
    hookrun()
        .args(["new", "--editor"])
        .arg(&root)
        .assert()
        .code(0);
    assert_eq!(files_under(&root), added);
    hookrun()
        .args(["new", "--editor"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no workflow.json"));
}

#[test]
fn test_runs_every_example_case_and_quiet_hides_logs() {
    let run = hookrun()
        .arg("test")
        .arg(common::fixture("workflows"))
        .assert()
        .code(0);
    let out = run.get_output();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("14 passed, 0 failed"), "{text}");
    // Hook logs go where `hookrun run` puts them: standard error.
    let logs = String::from_utf8_lossy(&out.stderr);
    assert!(
        logs.contains("[unit-1 applyResult log] exporting"),
        "{logs}"
    );
    assert!(!text.contains("exporting"), "{text}");
    let quiet = hookrun()
        .arg("test")
        .arg(common::fixture("workflows"))
        .arg("--quiet")
        .assert()
        .code(0);
    assert!(!String::from_utf8_lossy(&quiet.get_output().stderr).contains("exporting"));
    hookrun().args(["test", "no/such/path"]).assert().code(2);
}

/// `hookrun test --watch` runs, runs again when a hook or a fixture file the
/// cases read changes (outside the workflow too), keeps going after failures,
/// and ends cleanly on Ctrl-C. Every wait is bounded.
#[test]
fn watch_runs_again_when_what_the_cases_read_changes() {
    use std::io::BufRead;
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    hookrun().arg("new").arg(&root).assert().code(0);
    let hook = root.join("hooks/preflight.mjs");
    let source = std::fs::read_to_string(&hook).unwrap();
    // The case's selection moves to a file beside the workflow.
    let case_path = root.join("cases/example.json");
    let mut case: Value =
        serde_json::from_str(&std::fs::read_to_string(&case_path).unwrap()).unwrap();
    std::fs::write(
        dir.path().join("selection.json"),
        case["selection"].to_string(),
    )
    .unwrap();
    case["selection"] = json!("../../selection.json");
    std::fs::write(&case_path, case.to_string()).unwrap();

    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookrun"))
        .args(["test", "--watch"])
        .arg(&root)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (lines, seen) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let wait_for = |text: &str| {
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let mut got = Vec::new();
        while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
            match seen.recv_timeout(left) {
                Ok(line) if line.contains(text) => return,
                Ok(line) => got.push(line),
                Err(_) => break,
            }
        }
        panic!("no {text:?} within 60 s: {got:?}");
    };
    wait_for("1 passed, 0 failed");
    wait_for("watching for changes");
    std::fs::write(
        &hook,
        source.replace("  console.log(", "  null.boom;\n  console.log("),
    )
    .unwrap();
    wait_for("preflight.mjs changed");
    wait_for("0 passed, 1 failed");
    wait_for("watching for changes");
    std::fs::write(&hook, &source).unwrap();
    wait_for("1 passed, 0 failed");
    wait_for("watching for changes");
    // A fixture file outside the workflow: the selection loses its attachment.
    std::fs::write(
        dir.path().join("selection.json"),
        json!({"items": [], "sampledAt": "2026-01-01T00:00:00.000Z"}).to_string(),
    )
    .unwrap();
    wait_for("selection.json changed");
    wait_for("0 passed, 1 failed");
    wait_for("watching for changes");
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    wait_for("stopped watching");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("still running 30 s after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
}

/// `hookrun test --coverage` writes LCOV of the workflow's own modules only,
/// with counts summed over its cases: a branch taken once per case, one never
/// taken, a function never called (`fixtures/workflows/coverage-example`).
#[test]
fn coverage_counts_every_case_of_the_workflow_s_own_modules() {
    let dir = tempfile::tempdir().unwrap();
    let lcov = dir.path().join("lcov.info");
    let workflow = common::fixture("workflows/coverage-example");
    hookrun()
        .arg("test")
        .arg(&workflow)
        .arg("--coverage")
        .arg(&lcov)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("2 passed, 0 failed"));
    let hooks = workflow.canonicalize().unwrap().join("hooks");
    let expected = format!(
        "TN:\nSF:{apply}\nFN:3,applyResult\nFNDA:2,applyResult\nFNF:1\nFNH:1\nBRF:0\nBRH:0\n\
         DA:1,2\nDA:3,2\nDA:4,2\nDA:5,2\nLF:4\nLH:4\nend_of_record\n\
         TN:\nSF:{lib}\nFN:2,label\nFN:9,unused\nFNDA:2,label\nFNDA:0,unused\nFNF:2\nFNH:1\n\
         BRDA:5,0,0,0\nBRF:1\nBRH:0\n\
         DA:2,2\nDA:3,2\nDA:4,2\nDA:5,2\nDA:6,0\nDA:7,2\nDA:9,2\nDA:10,0\nDA:11,0\nLF:9\nLH:6\nend_of_record\n",
        apply = hooks.join("applyResult.mjs").display(),
        lib = hooks.join("lib.mjs").display(),
    );
    assert_eq!(std::fs::read_to_string(&lcov).unwrap(), expected);
    // One case: the counts halve.
    hookrun()
        .arg("test")
        .arg(&workflow)
        .args(["--filter", "paper-1", "--coverage"])
        .arg(&lcov)
        .assert()
        .code(0);
    let one = std::fs::read_to_string(&lcov).unwrap();
    assert!(
        one.contains("FNDA:1,label\n") && one.contains("DA:3,1\n"),
        "{one}"
    );
}
