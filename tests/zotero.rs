//! Runs against a Zotero data directory: databases built at test time
//! (`hookrun_zotero::testdb`), read through `--zotero`/`--select` and through
//! the library's `ZoteroWorld`.

use std::path::Path;

use hookrun::run::{NoResults, RunOptions, run};
use hookrun::zotero::{OpenOptions, ZoteroWorld};
use hookrun_zotero::testdb::{Layout, TestDb, write_storage_file};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common;

/// A library: a collection "To read" with two papers (the first with a stored
/// PDF and a note), a trashed paper in it, a paper outside it, and a group
/// library's paper.
fn library(dir: &Path) -> TestDb {
    let mut db = TestDb::create(dir, Layout::default()).unwrap();
    db.collection("COLL2345", "To read").insert().unwrap();
    for (key, title) in [("PAPER234", "Cats"), ("PAPER345", "Dogs")] {
        db.item(key, "journalArticle")
            .field("title", title)
            .creator("author", "Ada", "Lovelace")
            .tag("animals", 0)
            .in_collection("COLL2345")
            .insert()
            .unwrap();
    }
    db.item("PDF23456", "attachment")
        .parent("PAPER234")
        .attachment(0, Some("application/pdf"), Some("storage:cats.pdf"))
        .insert()
        .unwrap();
    write_storage_file(dir, "PDF23456", "cats.pdf", b"%PDF-1.4 cats").unwrap();
    // A linked file, outside the storage directory.
    let linked = dir.join("elsewhere/dogs.txt");
    std::fs::create_dir_all(linked.parent().unwrap()).unwrap();
    std::fs::write(&linked, "woof").unwrap();
    db.item("LINK2345", "attachment")
        .parent("PAPER345")
        .attachment(2, Some("text/plain"), linked.to_str())
        .insert()
        .unwrap();
    db.item("NOTE2345", "note")
        .parent("PAPER234")
        .note("<p>Purr</p>")
        .insert()
        .unwrap();
    db.item("TRASH234", "journalArticle")
        .field("title", "Gone")
        .in_collection("COLL2345")
        .trashed()
        .insert()
        .unwrap();
    db.item("OTHER234", "book")
        .field("title", "Birds")
        .insert()
        .unwrap();
    let group = db.add_group(77, "Lab").unwrap();
    db.item("GROUP234", "book")
        .field("title", "Fish")
        .library(group)
        .insert()
        .unwrap();
    db
}

/// The bytes of every file in `dir`, by name.
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

fn digest(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// `hookrun <args>` run in `fixtures/`: exit code, stdout as JSON (or null), stderr.
fn hookrun(args: &[&str]) -> (i32, Value, String) {
    let out = common::hookrun_in_fixtures().args(args).output().unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_collection_runs_from_the_database_which_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    drop(library(dir.path()));
    let before = files_of(dir.path());
    let data = dir.path().to_str().unwrap();
    let (code, report, stderr) = hookrun(&[
        "run",
        "workflows/export-summary",
        "--zotero",
        data,
        "--select",
        "collection:To read",
        "--json",
        "--deterministic",
    ]);
    assert_eq!(code, 0, "{stderr}");
    // The trashed paper is not selected; each paper is a unit.
    let units: Vec<&Value> = report["units"].as_array().unwrap().iter().collect();
    assert_eq!(units.len(), 2, "{report}");
    let written: Vec<&Value> = report["effects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["call"] == "notes.create")
        .collect();
    assert_eq!(written.len(), 2, "{report}");
    let text = report.to_string();
    assert!(
        text.contains("cats.pdf (available)"),
        "the stored PDF: {text}"
    );
    assert!(
        text.contains("dogs.txt (available)"),
        "the linked file: {text}"
    );
    assert!(
        !text.contains("elsewhere"),
        "no host path reaches a hook: {text}"
    );
    assert!(!text.contains("Gone") && !text.contains("Fish"), "{text}");
    // No journal, WAL or shared-memory file, and the same bytes.
    assert_eq!(files_of(dir.path()), before);
    assert_eq!(
        digest(&std::fs::read(dir.path().join("zotero.sqlite")).unwrap()),
        digest(&before.iter().find(|(n, _)| n == "zotero.sqlite").unwrap().1)
    );
}

#[test]
fn a_run_reads_the_database_while_another_process_holds_it_locked() {
    let dir = tempfile::tempdir().unwrap();
    let db = library(dir.path());
    db.connection()
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let data = dir.path().to_str().unwrap();
    let (code, report, stderr) = hookrun(&[
        "plan",
        "workflows/export-summary",
        "--zotero",
        data,
        "--select",
        "item:PAPER345",
        "--select",
        "tag:animals",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(report["state"], "enabled", "{report}");
    assert_eq!(report["units"].as_array().unwrap().len(), 2, "{report}");
    drop(db);
}

#[test]
fn bad_data_directories_and_specs_exit_2_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    drop(library(dir.path()));
    let data = dir.path().to_str().unwrap();
    let missing = dir.path().join("nowhere");
    let not_sqlite = tempfile::tempdir().unwrap();
    std::fs::write(not_sqlite.path().join("zotero.sqlite"), "not a database").unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec![
                "--zotero",
                missing.to_str().unwrap(),
                "--select",
                "tag:animals",
            ],
            "nowhere".into(),
        ),
        (
            vec![
                "--zotero",
                not_sqlite.path().to_str().unwrap(),
                "--select",
                "tag:animals",
            ],
            "zotero.sqlite".into(),
        ),
        (
            vec!["--zotero", data, "--select", "shelf:top"],
            "shelf:top".into(),
        ),
        (
            vec!["--zotero", data, "--select", "item:NOPE2345"],
            "NOPE2345".into(),
        ),
        (
            vec!["--zotero", data, "--select", "item:TRASH234"],
            "TRASH234".into(),
        ),
        (
            vec!["--zotero", data, "--select", "library:99"],
            "99".into(),
        ),
        (vec!["--zotero", data], "--select".into()),
        (vec!["--select", "tag:animals"], "--zotero".into()),
    ];
    for (args, named) in cases {
        let mut all = vec!["plan", "workflows/export-summary"];
        all.extend(&args);
        let (code, _, stderr) = hookrun(&all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains(&named),
            "{args:?} should name {named}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn a_group_library_is_picked_by_its_id_and_never_leaks_into_the_user_library() {
    let dir = tempfile::tempdir().unwrap();
    let db = library(dir.path());
    let group = db
        .connection()
        .query_row("SELECT libraryID FROM groups WHERE groupID = 77", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap();
    drop(db);
    let data = dir.path().to_str().unwrap();
    let spec = format!("library:{group}");
    let (code, plan, stderr) = hookrun(&[
        "plan",
        "workflows/export-summary",
        "--zotero",
        data,
        "--select",
        &spec,
        "--select",
        "item:GROUP234",
        "--json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(plan.to_string().contains("Fish"), "{plan}");
    let (code, _, stderr) = hookrun(&[
        "plan",
        "workflows/export-summary",
        "--zotero",
        data,
        "--select",
        "item:GROUP234",
        "--json",
    ]);
    assert_eq!(
        code, 2,
        "the group's item is not in the user library: {stderr}"
    );
}

#[test]
fn hooks_read_the_rest_of_the_library_lazily() {
    let dir = tempfile::tempdir().unwrap();
    drop(library(dir.path()));
    let probe = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(
        probe.path(),
        &[(
            "applyResult",
            r#"export async function applyResult({ runtime }) {
  const api = runtime.hostApi;
  const page = await api.library.listItems({ limit: 50 });
  const notes = await api.library.getItemNotes({ libraryId: 1, key: "PAPER234" });
  return { titles: page.items.map((i) => i.title).sort(), notes: notes.notes.map((n) => JSON.stringify(n).includes("Purr")) };
}"#,
        )],
    );
    let specs = ["item:PAPER345".parse().unwrap()];
    let zotero = ZoteroWorld::open(dir.path(), &OpenOptions::new(), &specs).unwrap();
    let options = RunOptions::default().sandbox(common::sandbox_options());
    let report = run(
        &workflow,
        zotero.run_input().unwrap(),
        &mut NoResults,
        &options,
    );
    assert!(report.ok(), "{:?}", report.errors);
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    assert_eq!(
        value,
        json!({"titles": ["Birds", "Cats", "Dogs"], "notes": [true]}),
        "every regular item of the user library, none trashed or of the group"
    );
}

/// Copies the directory `from` (files and directories) to `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn a_captured_case_reproduces_the_run_without_the_database() {
    let dir = tempfile::tempdir().unwrap();
    drop(library(dir.path()));
    let data = dir.path().to_str().unwrap();
    let work = tempfile::tempdir().unwrap();
    let workflow = work.path().join("export-summary");
    copy_tree(&common::fixture("workflows/export-summary"), &workflow);
    std::fs::remove_dir_all(workflow.join("cases")).unwrap();
    let case = workflow.join("cases/captured.json");
    std::fs::create_dir_all(case.parent().unwrap()).unwrap();
    let (wf, case_s) = (workflow.to_str().unwrap(), case.to_str().unwrap());
    let zotero = ["--zotero", data, "--select", "collection:To read"];
    let mut args = vec!["case", "capture", wf, "--out", case_s];
    args.extend(zotero);
    let (code, _, stderr) = hookrun(&args);
    assert_eq!(code, 0, "{stderr}");
    let captured: Value = serde_json::from_slice(&std::fs::read(&case).unwrap()).unwrap();
    assert_eq!(captured["files"], "captured-files", "{captured}");
    assert!(
        workflow
            .join("cases/captured-files/PDF23456/cats.pdf")
            .is_file()
    );
    assert!(
        workflow
            .join("cases/captured-files/LINK2345/dogs.txt")
            .is_file()
    );
    // Without --force an existing capture is kept.
    let (code, _, stderr) = hookrun(&args);
    assert_eq!(code, 2, "{stderr}");
    // The same report from the case as from the database; its expectations hold.
    let mut live = vec!["run", wf, "--json", "--deterministic"];
    live.extend(zotero);
    let (code, from_database, stderr) = hookrun(&live);
    assert_eq!(code, 0, "{stderr}");
    let (code, from_case, stderr) =
        hookrun(&["run", wf, "--fixture", case_s, "--json", "--deterministic"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(from_case, from_database);
    let (code, tested, stderr) = hookrun(&["test", wf, "--json"]);
    assert_eq!(code, 0, "{tested} {stderr}");
}

#[test]
fn linked_files_under_the_base_directory_are_found_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = library(dir.path());
    let base = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(base.path().join("papers")).unwrap();
    std::fs::write(base.path().join("papers/birds.txt"), "tweet").unwrap();
    db.item("BASE2345", "attachment")
        .parent("OTHER234")
        .attachment(2, Some("text/plain"), Some("attachments:papers/birds.txt"))
        .insert()
        .unwrap();
    drop(db);
    let data = dir.path().to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "workflows/export-summary",
            "--zotero",
            data,
            "--select",
            "item:OTHER234",
            "--json",
        ];
        args.extend(extra);
        let (code, report, stderr) = hookrun(&args);
        assert_eq!(code, 0, "{stderr}");
        report.to_string()
    };
    assert!(run(&[]).contains("birds.txt (missing)"));
    let with_base = run(&["--attachment-base", base.path().to_str().unwrap()]);
    assert!(with_base.contains("birds.txt (available)"), "{with_base}");
}
