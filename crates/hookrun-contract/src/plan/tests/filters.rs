//! Every filter, first-skip-reason-wins and world failures.

use serde_json::json;

use super::*;

fn with_filters(source: &str, filters: serde_json::Value) -> PlanningSpec {
    spec(json!({"validateSelection": {"select": {"source": source}, "filters": filters}}))
}

#[test]
fn candidates_per_parent() {
    for shape in ["grouped", "canonical"] {
        let sel = selection(&format!("{shape}-mixed-same-parent"));
        let at_most = |n: u64| {
            with_filters(
                "selected",
                json!([
            {"kind": "candidates-per-parent", "phase": "availability", "counts": {"max": n}}]),
            )
        };
        let p = run(&at_most(2), &sel);
        assert!(p.candidates.is_empty());
        assert!(skips(&p).iter().all(|(_, r)| *r == "candidates-per-parent"));
        assert_eq!(p.skipped.len(), 3);
        assert_eq!(run(&at_most(3), &sel).units.len(), 3);
    }
    let loose = SelectionContext::from_value(&json!({"items": [
        {"kind": "attachment", "ref": {"libraryId": 1, "key": "LOOSE001"}, "itemType": "attachment"}],
        "sampledAt": "2026-03-01T09:00:00.000Z"})).unwrap();
    let s = with_filters(
        "selected",
        json!([
        {"kind": "candidates-per-parent", "phase": "availability", "counts": {"min": 1}}]),
    );
    assert_eq!(
        skips(&run(&s, &loose)),
        [("attachment:1:LOOSE001", "missing-parent")]
    );
}

fn source_file_exists() -> PlanningSpec {
    with_filters(
        "selected",
        json!([{"kind": "source-file-exists", "phase": "availability"}]),
    )
}

#[test]
fn source_file_exists_in_both_shapes() {
    for name in [
        "grouped-attachments-different-parents",
        "canonical-attachments-different-parents",
    ] {
        assert_eq!(
            run(&source_file_exists(), &selection(name)).units.len(),
            2,
            "{name}"
        );
    }
    let canonical = selection("canonical-single-pdf");
    let by_convention =
        HostWorld::from_selection(&canonical).with_files_dir(format!("{FIXTURES}/files"));
    let p = crate::plan::plan(
        &source_file_exists(),
        &canonical,
        Mode::Execute,
        &Default::default(),
        &by_convention,
    );
    assert_eq!(p.unwrap().units.len(), 1);
    let no_files = HostWorld::from_selection(&canonical);
    let p = crate::plan::plan(
        &source_file_exists(),
        &canonical,
        Mode::Execute,
        &Default::default(),
        &no_files,
    );
    assert_eq!(
        skips(&p.unwrap()),
        [("attachment:1:ATTPDF01", "source-file-exists")]
    );
}

fn grouped_pdf_at(path: &str) -> SelectionContext {
    let mut v = fixture_json("grouped-single-pdf");
    v["items"]["attachments"][0]["filePath"] = json!(path);
    v["items"]["attachments"][0]["item"]["data"]["path"] = json!(path);
    SelectionContext::from_value(&v).unwrap()
}

#[test]
fn unsafe_or_missing_paths_count_as_missing() {
    for path in [
        "attachments/NOPE/x.pdf",
        "../selections/grouped-empty.json",
        "/etc/hostname",
        "attachments/../../selections/grouped-empty.json",
        "C:\\x.pdf",
        "",
    ] {
        let p = run(&source_file_exists(), &grouped_pdf_at(path));
        assert_eq!(
            skips(&p),
            [("attachment:1:ATTPDF01", "source-file-exists")],
            "{path}"
        );
    }
    assert_eq!(
        run(
            &source_file_exists(),
            &grouped_pdf_at("attachments\\ATTPDF01\\cats.pdf")
        )
        .units
        .len(),
        1
    );
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_files_dir_are_missing() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.pdf"), "x").unwrap();
    let files = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(files.path().join("attachments/ATTPDF01")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.pdf"),
        files.path().join("attachments/ATTPDF01/cats.pdf"),
    )
    .unwrap();
    let sel = selection("grouped-single-pdf");
    let w = HostWorld::from_selection(&sel).with_files_dir(files.path());
    let p = crate::plan::plan(
        &source_file_exists(),
        &sel,
        Mode::Execute,
        &Default::default(),
        &w,
    )
    .unwrap();
    assert_eq!(skips(&p), [("attachment:1:ATTPDF01", "source-file-exists")]);
    std::fs::remove_file(files.path().join("attachments/ATTPDF01/cats.pdf")).unwrap();
    std::fs::write(files.path().join("attachments/ATTPDF01/cats.pdf"), "%PDF").unwrap();
    let p = crate::plan::plan(
        &source_file_exists(),
        &sel,
        Mode::Execute,
        &Default::default(),
        &w,
    )
    .unwrap();
    assert_eq!(p.units.len(), 1);
}

#[test]
fn generated_note_kinds_absent() {
    let kinds = |list: serde_json::Value| {
        with_filters(
            "related",
            json!([
        {"kind": "generated-note-kinds-absent", "phase": "availability", "noteKinds": list}]),
        )
    };
    for name in ["grouped-parent-with-attachments-notes", "canonical-parent"] {
        let sel = selection(name);
        assert!(
            run(&kinds(json!(["digest"])), &sel).candidates.is_empty(),
            "{name}"
        );
        let both = run(&kinds(json!(["digest", "references"])), &sel);
        assert_eq!(
            both.stats.candidates.reasons["generated-note-kinds-absent"],
            3
        );
        assert_eq!(
            run(&kinds(json!(["digest", "citation-analysis"])), &sel)
                .units
                .len(),
            3
        );
    }
    let dogs = run(
        &kinds(json!(["digest"])),
        &selection("canonical-attachments-different-parents"),
    );
    assert_eq!(ids(&dogs), ["attachment:1:ATTMD002"]);
    let loose = SelectionContext::from_value(&json!({"items": [
        {"kind": "attachment", "ref": {"libraryId": 1, "key": "LOOSE001"}, "itemType": "attachment"}],
        "sampledAt": "2026-03-01T09:00:00.000Z"})).unwrap();
    assert_eq!(
        skips(&run(&kinds(json!(["digest"])), &loose)),
        [("attachment:1:LOOSE001", "generated-note-kinds-absent")]
    );
}

fn readiness(minimum_version: u64, accept: &str) -> PlanningSpec {
    with_filters(
        "related",
        json!([{
        "kind": "generated-note-readiness", "phase": "availability",
        "artifacts": [
            {"id": "digest", "noteKinds": ["digest"], "payload": {"type": "digest", "requirements": [
                {"pointer": "/version", "type": "number", "minimum": minimum_version},
                {"pointer": "/sections", "length": 2}]}},
            {"id": "refs", "noteKinds": ["references"]},
            {"id": "cites", "noteKinds": ["citation-analysis"]}],
        "modes": [
            {"id": "fresh", "default": true},
            {"id": "full", "allAvailable": ["digest", "refs"], "allUnavailable": ["cites"]},
            {"id": "partial", "allAvailable": ["refs"]}],
        "acceptModes": [accept]}]),
    )
}

#[test]
fn generated_note_readiness() {
    let canonical = selection("canonical-parent");
    assert_eq!(run(&readiness(2, "full"), &canonical).units.len(), 3);
    assert_eq!(run(&readiness(3, "full"), &canonical).units.len(), 0);
    assert_eq!(run(&readiness(3, "partial"), &canonical).units.len(), 3);
    let grouped = selection("grouped-parent-with-attachments-notes");
    assert_eq!(run(&readiness(2, "full"), &grouped).units.len(), 3);
    let without_payloads = HostWorld::from_selection(&grouped);
    let plan_with = |s: &PlanningSpec| {
        crate::plan::plan(
            s,
            &grouped,
            Mode::Execute,
            &Default::default(),
            &without_payloads,
        )
        .unwrap()
    };
    let p = plan_with(&readiness(2, "full"));
    assert_eq!(p.stats.candidates.reasons["generated-note-readiness"], 3);
    assert_eq!(plan_with(&readiness(2, "partial")).units.len(), 3);
    let nothing = selection("canonical-attachments-different-parents");
    let p = run(&readiness(2, "fresh"), &nothing);
    assert_eq!(
        skips(&p),
        [("attachment:1:ATTPDF01", "generated-note-readiness")]
    );
    assert_eq!(ids(&p), ["attachment:1:ATTMD002"]);
}

#[test]
fn first_skip_reason_wins() {
    let mut v = fixture_json("grouped-mixed-same-parent");
    v["items"]["attachments"][0]["filePath"] = json!("attachments/NOPE/cats.md");
    v["items"]["attachments"][0]["item"]["data"]["path"] = json!("attachments/NOPE/cats.md");
    let sel = SelectionContext::from_value(&v).unwrap();
    let s = with_filters(
        "selected",
        json!([
        {"kind": "source-file-exists", "phase": "availability"},
        {"kind": "candidates-per-parent", "phase": "availability", "counts": {"min": 5}}]),
    );
    let p = run(&s, &sel);
    assert_eq!(
        skips(&p),
        [
            ("attachment:1:ATTMD001", "source-file-exists"),
            ("attachment:1:ATTPDF01", "candidates-per-parent"),
            ("attachment:1:ATTSNAP1", "candidates-per-parent")
        ]
    );
    assert_eq!(p.stats.candidates.skipped, 3);
}

#[test]
fn artifact_absent_targets() {
    let html = with_filters(
        "selected",
        json!([
        {"kind": "artifact-absent", "phase": "availability", "target": "deep-reading-html"}]),
    );
    assert_eq!(run(&html, &selection("grouped-single-pdf")).units.len(), 1);
    let md = with_filters(
        "selected",
        json!([
        {"kind": "artifact-absent", "phase": "availability", "target": "mineru-markdown"}]),
    );
    let p = run(&md, &selection("canonical-single-markdown"));
    assert_eq!(skips(&p), [("attachment:1:ATTMD001", "artifact-absent")]);
}
