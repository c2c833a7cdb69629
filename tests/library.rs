//! Workflow libraries over `fixtures/library` (three roots with overlapping ids and
//! versions): precedence, overrides as diagnostics, `id@version` and ranges, the scan
//! order, `hookrun list`, and locks, a stale one included.

use crate::common;

use std::fs;
use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::{Value, json};

use hookrun::manifest::{Category, Library, Lock, LockError, ResolveError};

use common::{copy_tree, fixture, hookrun_in_fixtures as hookrun, stdout_json};

fn roots(names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|n| fixture(&format!("library/{n}")))
        .collect()
}

fn all() -> Library {
    Library::open(&roots(&["official", "dev", "user"]))
}

/// `(id, version)` of the winners.
fn winners(library: &Library) -> Vec<(String, String)> {
    library
        .winners()
        .iter()
        .map(|e| (e.workflow.id.clone(), e.version().unwrap_or("").to_string()))
        .collect()
}

fn resolved(library: &Library, spec: &str) -> (String, String) {
    let r = library
        .resolve(spec)
        .unwrap_or_else(|e| panic!("{spec}: {e}"));
    let root = r.entry.workflow.manifest_path.to_string_lossy().to_string();
    let root = root
        .split("/library/")
        .nth(1)
        .unwrap_or("")
        .split('/')
        .next()
        .unwrap_or("")
        .to_string();
    (r.entry.version().unwrap_or("").to_string(), root)
}

#[test]
fn a_later_root_wins_and_every_override_is_a_warning() {
    let library = all();
    assert_eq!(
        winners(&library),
        [
            ("digest".to_string(), "2.1.0".to_string()),
            ("mineru".to_string(), "0.1.5".to_string()),
            ("tag-manager".to_string(), "1.1.0".to_string())
        ]
    );
    let overrides: Vec<&str> = library
        .diagnostics()
        .iter()
        .filter(|d| d.category == Category::WorkflowOverridden)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(overrides.len(), 3, "{overrides:#?}");
    let mineru = overrides
        .iter()
        .find(|m| m.contains("\"mineru\"") && m.contains("library/user;"))
        .unwrap();
    assert!(
        mineru.contains("version 0.1.5 at ") && mineru.contains("overrides version 0.2.0 at "),
        "{mineru}"
    );
    assert!(
        mineru.contains("library/user/mineru/workflow.json")
            && mineru.contains("library/dev/mineru/workflow.json")
    );
    assert!(
        library
            .diagnostics()
            .iter()
            .all(|d| d.level == hookrun::manifest::Level::Warning)
    );
}

#[test]
fn the_scan_order_within_a_root_is_the_reference_hosts() {
    // By bytes `Tag-manager/` (1.1.0) comes before `tag_manager/` (1.0.0) and would lose;
    // by localeCompare it comes after and wins.
    let official = Library::open(&roots(&["official"]));
    let tag = official.resolve("tag-manager").unwrap();
    assert_eq!(tag.entry.version(), Some("1.1.0"));
    assert!(
        tag.entry
            .workflow
            .manifest_path
            .ends_with("Tag-manager/workflow.json")
    );
    let duplicate = official
        .diagnostics()
        .iter()
        .find(|d| d.category == Category::ScanRuntimeWarning)
        .unwrap();
    assert!(
        duplicate
            .message
            .starts_with("Duplicate workflow id tag-manager: "),
        "{}",
        duplicate.message
    );
}

#[test]
fn versions_pin_exactly_across_roots_and_ranges_pick_the_highest() {
    let library = all();
    assert_eq!(
        resolved(&library, "mineru@0.2.0"),
        ("0.2.0".into(), "dev".into())
    );
    assert_eq!(
        resolved(&library, "mineru@0.1.0"),
        ("0.1.0".into(), "official".into())
    );
    assert_eq!(
        resolved(&library, "mineru@^0.1"),
        ("0.1.5".into(), "user".into())
    );
    assert_eq!(
        resolved(&library, "mineru@>=0.1.1"),
        ("0.2.0".into(), "dev".into())
    );
    assert_eq!(
        resolved(&library, "digest@2.0.0"),
        ("2.0.0".into(), "official".into())
    );
    match library.resolve("mineru@9.9.9") {
        Err(ResolveError::NoVersion { found, .. }) => {
            assert_eq!(found.len(), 3);
            assert!(
                found[0].starts_with("0.1.0 in ") && found[0].contains("library/official"),
                "{found:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        library.resolve("absent"),
        Err(ResolveError::UnknownId { .. })
    ));
    assert!(matches!(
        library.resolve("mineru@not a range!"),
        Err(ResolveError::BadSpec { .. })
    ));
}

#[test]
fn a_bare_id_says_which_version_was_chosen() {
    let library = all();
    let r = library.resolve("mineru").unwrap();
    assert_eq!(r.entry.version(), Some("0.1.5"));
    let note = r.note.unwrap();
    assert!(note.starts_with("mineru: using 0.1.5 in "), "{note}");
    assert!(
        note.contains("also found 0.1.0 in ") && note.contains("0.2.0 in "),
        "{note}"
    );
    let dev = Library::open(&roots(&["dev"]));
    assert!(dev.resolve("mineru").unwrap().note.is_none());
}

fn in_library() -> Command {
    let mut cmd = hookrun();
    cmd.current_dir(fixture("library"));
    cmd
}

fn run_args(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "run",
        "--selection",
        "../selections/canonical-parent.json",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// What the run's hook reported about the copy that ran.
fn ran(report: &Value) -> Value {
    report["units"][0]["jobs"][0]["apply"]["value"].clone()
}

#[test]
fn the_cli_takes_repeated_roots_and_versioned_names() {
    let three = [
        "--workflows",
        "official",
        "--workflows",
        "dev",
        "--workflows",
        "user",
    ];
    let mut args = run_args(&three);
    args.extend(["--workflow".into(), "mineru@0.2.0".into()]);
    let v = stdout_json(in_library().args(&args), 0);
    assert_eq!(ran(&v)["from"], "dev", "{v}");

    let mut args = run_args(&three);
    args.extend(["--workflow".into(), "mineru".into()]);
    in_library()
        .args(&args)
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "hookrun: mineru: using 0.1.5 in user",
        ));

    let mut args = run_args(&three);
    args.extend(["--workflow".into(), "mineru@7".into()]);
    in_library()
        .args(&args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no version of mineru matches 7; found 0.1.0 in official (official/mineru/workflow.json), 0.2.0 in dev",
        ));

    in_library()
        .args([
            "check",
            "--workflows",
            "official",
            "--workflows",
            "user",
            "--json",
        ])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "\"category\":\"workflow_overridden\"",
        ));
    in_library()
        .args(["check", "official", "--workflows", "user"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not both"));
}

#[test]
fn list_shows_every_workflow_and_who_overrides_it() {
    let v = stdout_json(
        in_library().args(["list", "official", "dev", "user", "--json"]),
        0,
    );
    let rows: Vec<(String, String, String, Value, Value)> = v["workflows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["version"].as_str().unwrap().to_string(),
                r["root"].as_str().unwrap().to_string(),
                r["package"].clone(),
                r["overriddenBy"].clone(),
            )
        })
        .collect();
    let mineru: Vec<_> = rows.iter().filter(|r| r.0 == "mineru").collect();
    assert_eq!(mineru.len(), 3);
    assert_eq!(mineru[0].4, json!("dev/mineru/workflow.json"));
    assert_eq!(mineru[1].4, json!("user/mineru/workflow.json"));
    assert_eq!(mineru[2].4, Value::Null);
    let digest = rows
        .iter()
        .find(|r| r.0 == "digest" && r.2 == "official")
        .unwrap();
    assert_eq!(digest.3, json!("reading-pack"));
    let row = &v["workflows"][0];
    for key in [
        "id",
        "version",
        "label",
        "provider",
        "root",
        "package",
        "path",
        "overriddenBy",
    ] {
        assert!(row.get(key).is_some(), "{key} missing in {row}");
    }
    in_library()
        .args(["list", "official"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("id "))
        .stdout(predicate::str::contains("overriddenBy"));
}

#[test]
fn a_lock_pins_the_workflows_and_a_stale_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for name in ["official", "dev"] {
        copy_tree(&fixture(&format!("library/{name}")), &root.join(name));
    }
    let bin = || {
        let mut cmd = Command::cargo_bin("hookrun").unwrap();
        cmd.current_dir(root);
        cmd
    };
    bin().args(["lock", "official", "dev"]).assert().code(0);
    let lock = Lock::read(&root.join("hookrun.lock.json")).unwrap();
    assert_eq!(lock.roots, ["official", "dev"]);
    assert_eq!(lock.workflows["mineru"].path, "dev/mineru/workflow.json");
    assert_eq!(lock.workflows["mineru"].version.as_deref(), Some("0.2.0"));

    let selection = fixture("selections/canonical-parent.json");
    let selection = selection.to_str().unwrap();
    let v = stdout_json(
        bin().args([
            "run",
            "--lock",
            "hookrun.lock.json",
            "--workflow",
            "mineru",
            "--selection",
            selection,
            "--json",
        ]),
        0,
    );
    assert_eq!(ran(&v)["from"], "dev");

    // A newer root does not sneak in: the lock's roots and paths decide.
    copy_tree(&fixture("library/user"), &root.join("user"));
    let library = lock.open(&root.join("hookrun.lock.json")).unwrap();
    assert_eq!(
        library.resolve("mineru").unwrap().entry.version(),
        Some("0.2.0")
    );

    fs::write(
        root.join("dev/mineru/hooks/applyResult.mjs"),
        "export function applyResult() { return {}; }\n",
    )
    .unwrap();
    bin()
        .args(["run", "--lock", "hookrun.lock.json", "--workflow", "mineru", "--selection", selection])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("hookrun.lock.json: workflow mineru at dev/mineru/workflow.json changed since it was locked"));
    bin()
        .args(["check", "--lock", "hookrun.lock.json"])
        .assert()
        .code(2);
    assert!(matches!(
        lock.open(&root.join("hookrun.lock.json")),
        Err(LockError::Changed { .. })
    ));

    fs::remove_dir_all(root.join("dev/mineru")).unwrap();
    assert!(matches!(
        lock.open(&root.join("hookrun.lock.json")),
        Err(LockError::Missing { .. })
    ));
}
