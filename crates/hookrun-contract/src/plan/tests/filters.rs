//! Every filter, first-skip-reason-wins and world failures.

use serde_json::json;

use super::*;

pub(super) fn with_filters(source: &str, filters: serde_json::Value) -> PlanningSpec {
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

pub(super) fn kinds_absent(list: serde_json::Value) -> PlanningSpec {
    with_filters(
        "related",
        json!([
        {"kind": "generated-note-kinds-absent", "phase": "availability", "noteKinds": list}]),
    )
}

#[test]
fn generated_note_kinds_absent() {
    for name in ["grouped-parent-with-attachments-notes", "canonical-parent"] {
        let sel = selection(name);
        assert!(
            run(&kinds_absent(json!(["digest"])), &sel)
                .candidates
                .is_empty(),
            "{name}"
        );
        assert_eq!(
            run(&kinds_absent(json!(["digest", "citation-analysis"])), &sel)
                .units
                .len(),
            3
        );
    }
    // The heading-only `References` note counts as references on an older host
    // only; a current host names it `ordinary`.
    let grouped = run(
        &kinds_absent(json!(["digest", "references"])),
        &selection("grouped-parent-with-attachments-notes"),
    );
    assert_eq!(
        grouped.stats.candidates.reasons["generated-note-kinds-absent"],
        3
    );
    let canonical = run(
        &kinds_absent(json!(["digest", "references"])),
        &selection("canonical-parent"),
    );
    assert_eq!(canonical.units.len(), 3);
    let dogs = run(
        &kinds_absent(json!(["digest"])),
        &selection("canonical-attachments-different-parents"),
    );
    assert_eq!(ids(&dogs), ["attachment:1:ATTMD002"]);
    let loose = SelectionContext::from_value(&json!({"items": [
        {"kind": "attachment", "ref": {"libraryId": 1, "key": "LOOSE001"}, "itemType": "attachment"}],
        "sampledAt": "2026-03-01T09:00:00.000Z"})).unwrap();
    assert_eq!(
        skips(&run(&kinds_absent(json!(["digest"])), &loose)),
        [("attachment:1:LOOSE001", "generated-note-kinds-absent")]
    );
}

/// The fixture library with the notes of `PARENT01` replaced by `notes`.
fn parent_with_notes(selection: &SelectionContext, notes: serde_json::Value) -> HostWorld {
    let mut library = fixture_json("library-cats-and-dogs");
    let items = library["items"].as_array_mut().unwrap();
    items.retain(|i| !(i["kind"] == "note" && i["parentRef"]["key"] == "PARENT01"));
    for (n, mut note) in notes.as_array().unwrap().clone().into_iter().enumerate() {
        note["ref"] = json!({"libraryId": 1, "key": format!("NOTEX{n:03}")});
        note["kind"] = json!("note");
        note["parentRef"] = json!({"libraryId": 1, "key": "PARENT01"});
        items.push(note);
    }
    HostWorld::from_selection(selection)
        .with_library(&library)
        .unwrap()
        .with_files_dir(format!("{FIXTURES}/files"))
}

/// Plans `selection` in a world whose `PARENT01` has `notes`.
pub(super) fn plan_in(
    spec: &PlanningSpec,
    selection: &SelectionContext,
    notes: serde_json::Value,
) -> Result<Plan, crate::plan::error::PlanError> {
    let world = parent_with_notes(selection, notes);
    crate::plan::plan(spec, selection, Mode::Execute, &Default::default(), &world)
}

#[test]
fn a_note_with_an_unreadable_payload_fails_kinds_absent_and_names_itself() {
    let sel = selection("canonical-parent");
    let error = plan_in(
        &kinds_absent(json!(["digest"])),
        &sel,
        json!([{"noteKind": "digest", "payload": {"markdown": "x"}, "html": "<p>d</p>"},
               {"issue": "invalid_artifact", "html": "<p>broken</p>"}]),
    )
    .unwrap_err();
    assert_eq!(
        error,
        crate::plan::error::PlanError::InvalidNoteArtifact {
            note: "note:1:NOTEX001".into(),
            issue: "invalid_artifact".into()
        }
    );
    // A plain note is `ordinary` on a current host: it is not a custom note.
    let plain = plan_in(
        &kinds_absent(json!(["custom"])),
        &sel,
        json!([{"html": "<p>plain</p>"}]),
    )
    .unwrap();
    assert_eq!(plain.units.len(), 3);
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
    let mut library = fixture_json("library-cats-and-dogs");
    for item in library["items"].as_array_mut().unwrap() {
        if item["ref"]["key"] == "NOTERF01" {
            item["noteKind"] = json!("references");
        }
    }
    let managed_refs = HostWorld::from_selection(&canonical)
        .with_library(&library)
        .unwrap();
    let run_managed = |s: &PlanningSpec| {
        crate::plan::plan(
            s,
            &canonical,
            Mode::Execute,
            &Default::default(),
            &managed_refs,
        )
        .unwrap()
    };
    assert_eq!(run_managed(&readiness(2, "full")).units.len(), 3);
    assert_eq!(run_managed(&readiness(3, "full")).units.len(), 0);
    assert_eq!(run_managed(&readiness(3, "partial")).units.len(), 3);
    // With the fixture's own library the heading-only `References` note is not
    // managed on a current host: no references artifact.
    assert_eq!(run(&readiness(2, "full"), &canonical).units.len(), 0);
    assert_eq!(run(&readiness(2, "fresh"), &canonical).units.len(), 3);
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
    let nothing_world = HostWorld::from_selection(&nothing)
        .with_library(&library)
        .unwrap();
    let p = crate::plan::plan(
        &readiness(2, "fresh"),
        &nothing,
        Mode::Execute,
        &Default::default(),
        &nothing_world,
    )
    .unwrap();
    assert_eq!(
        skips(&p),
        [("attachment:1:ATTPDF01", "generated-note-readiness")]
    );
    assert_eq!(ids(&p), ["attachment:1:ATTMD002"]);
}

/// A readiness filter with one `digest` artifact, ready when it is available.
fn digest_ready(requirements: serde_json::Value, accept: &str) -> PlanningSpec {
    let payload = if requirements.is_null() {
        json!(null)
    } else {
        json!({"type": "digest", "requirements": requirements})
    };
    let mut artifact = json!({"id": "digest", "noteKinds": ["digest"]});
    if !payload.is_null() {
        artifact["payload"] = payload;
    }
    with_filters(
        "related",
        json!([{"kind": "generated-note-readiness", "phase": "availability",
            "artifacts": [artifact],
            "modes": [{"id": "ready", "allAvailable": ["digest"]}, {"id": "missing", "default": true}],
            "acceptModes": [accept]}]),
    )
}

#[test]
fn readiness_wants_exactly_one_readable_managed_note() {
    let sel = selection("canonical-parent");
    let digest = json!({"noteKind": "digest", "payload": {"version": 3}, "html": "<p>d</p>"});
    let units = |notes: serde_json::Value, accept: &str| {
        plan_in(&digest_ready(json!(null), accept), &sel, notes)
            .unwrap()
            .units
            .len()
    };
    assert_eq!(units(json!([digest.clone()]), "ready"), 3);
    // A heading is not a payload on a current host.
    assert_eq!(units(json!([{"html": "<h1>Digest</h1>"}]), "ready"), 0);
    // Two digests are an ambiguous state, not an available artifact.
    assert_eq!(units(json!([digest.clone(), digest.clone()]), "ready"), 0);
    // An unreadable note matches nothing, and does not fail the plan here.
    let broken = json!([{"noteKind": "digest", "issue": "invalid_artifact", "html": "<p>x</p>"}]);
    assert_eq!(units(broken.clone(), "ready"), 0);
    assert_eq!(units(broken, "missing"), 3);
}

#[test]
fn payload_requirements_hold_as_the_reference_checks_them() {
    let sel = selection("canonical-parent");
    let notes = json!([{"noteKind": "digest", "html": "<p>d</p>",
        "payload": {"version": 3, "sections": ["a", "b"], "title": "x"}}]);
    for (requirement, holds) in [
        (
            json!({"pointer": "/version", "type": "number", "minimum": 2}),
            true,
        ),
        (
            json!({"pointer": "/version", "type": "number", "minimum": 4}),
            false,
        ),
        (json!({"pointer": "/title", "minimum": 5}), true),
        (json!({"pointer": "/sections", "length": 3}), true),
        (
            json!({"pointer": "/sections", "type": "array", "length": 3}),
            false,
        ),
        (
            json!({"pointer": "/sections", "type": "array", "length": 2}),
            true,
        ),
        (
            json!({"pointer": "/title", "type": "string", "length": 9}),
            true,
        ),
        (json!({"pointer": "/missing"}), true),
        (json!({"pointer": "/missing", "type": "string"}), false),
        (json!({"pointer": "/version", "const": 3}), true),
        (json!({"pointer": "/version", "const": 4}), false),
        (json!({"pointer": "/", "type": "object"}), true),
    ] {
        let plan = plan_in(
            &digest_ready(json!([requirement.clone()]), "ready"),
            &sel,
            notes.clone(),
        )
        .unwrap();
        assert_eq!(plan.units.len() == 3, holds, "{requirement}");
    }
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
