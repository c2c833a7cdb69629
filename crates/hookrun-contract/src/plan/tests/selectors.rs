//! Every selector policy in both shapes.

use serde_json::{Map, json};

use super::*;
use crate::plan::PlanError;

fn member(kind: &str, source: &str) -> PlanningSpec {
    spec(json!({"inputs": {"member": {"kind": kind}},
                "validateSelection": {"select": {"policy": "input-member", "source": source}}}))
}

fn policy(name: &str, kind: &str) -> PlanningSpec {
    spec(json!({"inputs": {"member": {"kind": kind}},
                "validateSelection": {"select": {"policy": name}}}))
}

#[test]
fn input_member_selected_in_both_shapes() {
    for shape in ["grouped", "canonical"] {
        let sel = selection(&format!("{shape}-mixed-same-parent"));
        let p = run(&member("attachment", "selected"), &sel);
        assert_eq!(
            ids(&p),
            [
                "attachment:1:ATTMD001",
                "attachment:1:ATTPDF01",
                "attachment:1:ATTSNAP1"
            ]
        );
        let c = &p.candidates[1];
        assert_eq!(&*c.label, "Full Text PDF");
        assert_eq!(c.parent_identity.as_deref(), Some("parent:1:PARENT01"));
        assert_eq!(
            ids(&run(&member("note", "selected"), &sel)),
            ["note:1:NOTEDG01"]
        );
        assert_eq!(run(&member("parent", "selected"), &sel).candidates.len(), 0);
        assert_eq!(
            run(&member("generated-note", "selected"), &sel)
                .candidates
                .len(),
            0
        );
    }
}

#[test]
fn canonical_attachments_without_filename_are_hydrated() {
    let sel = SelectionContext::from_value(&json!({
        "items": [{"kind": "attachment", "ref": {"libraryId": 1, "key": "ATTPDF02"},
                   "itemType": "attachment", "parentRef": {"libraryId": 1, "key": "PARENT01"}}],
        "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let p = run(&member("attachment", "selected"), &sel);
    assert_eq!(&*p.candidates[0].label, "extra.pdf");
    assert_eq!(p.candidates[0].value.to_value()["filename"], "extra.pdf");
}

#[test]
fn related_attachments_of_a_parent() {
    let want = [
        "attachment:1:ATTPDF01",
        "attachment:1:ATTMD001",
        "attachment:1:ATTPDF02",
    ];
    for name in ["grouped-parent-with-attachments-notes", "canonical-parent"] {
        let p = run(&member("attachment", "related"), &selection(name));
        assert_eq!(ids(&p), want, "{name}");
        assert!(
            p.candidates
                .iter()
                .all(|c| c.parent_identity.as_deref() == Some("parent:1:PARENT01"))
        );
    }
    let grouped = run(
        &member("attachment", "related"),
        &selection("grouped-parent-with-attachments-notes"),
    );
    assert_eq!(
        grouped.candidates[0]
            .scoped_context
            .context()
            .counts()
            .attachments,
        1
    );
    assert_eq!(
        grouped.candidates[0].scoped_context.to_value()["selectionType"],
        "attachment"
    );
    let canonical = run(
        &member("attachment", "related"),
        &selection("canonical-parent"),
    );
    assert_eq!(
        canonical.candidates[0].value.to_value()["fileState"],
        "available"
    );
}

#[test]
fn related_attachments_are_deduplicated() {
    let mut v = fixture_json("grouped-parent-with-attachments-notes");
    let nested = v["items"]["parents"][0]["attachments"][0].clone();
    v["items"]["attachments"] = json!([nested]);
    let sel = SelectionContext::from_value(&v).unwrap();
    let p = run(&member("attachment", "related"), &sel);
    assert_eq!(
        ids(&p),
        [
            "attachment:1:ATTPDF01",
            "attachment:1:ATTMD001",
            "attachment:1:ATTPDF02"
        ]
    );
}

#[test]
fn related_parents() {
    let grouped = run(
        &member("parent", "related"),
        &selection("grouped-attachments-different-parents"),
    );
    assert_eq!(ids(&grouped), ["parent:1:PARENT01", "parent:1:PARENT02"]);
    assert_eq!(&*grouped.candidates[0].label, "Deep Learning for Cats");
    let mixed = run(
        &member("parent", "related"),
        &selection("grouped-mixed-same-parent"),
    );
    assert_eq!(ids(&mixed), ["parent:1:PARENT01"]);
    let canonical = run(&member("parent", "related"), &selection("canonical-parent"));
    assert_eq!(ids(&canonical), ["parent:1:PARENT01"]);
    let chain = SelectionContext::from_value(&json!({"items": [
        {"kind": "child", "ref": {"libraryId": 1, "key": "ANNOT001"}, "itemType": "annotation",
         "title": "highlight", "parentRef": {"libraryId": 1, "key": "ATTPDF01"}},
        {"kind": "attachment", "ref": {"libraryId": 1, "key": "ATTPDF01"}, "itemType": "attachment",
         "parentRef": {"libraryId": 1, "key": "PARENT01"}},
        {"kind": "parent", "ref": {"libraryId": 1, "key": "PARENT01"}, "itemType": "book"},
        {"kind": "note", "ref": {"libraryId": 1, "key": "LOOPNOTE"}, "itemType": "note",
         "parentRef": {"libraryId": 1, "key": "LOOPNOTE"}}],
        "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let walked = run(&member("parent", "related"), &chain);
    assert_eq!(ids(&walked), ["parent:1:PARENT01"]);
    assert_eq!(&*walked.candidates[0].label, "parent 1");
}

#[test]
fn related_notes_and_children() {
    for name in ["grouped-parent-with-attachments-notes", "canonical-parent"] {
        let p = run(&member("note", "related"), &selection(name));
        assert_eq!(ids(&p), ["note:1:NOTEDG01", "note:1:NOTERF01"], "{name}");
        assert_eq!(
            run(&member("child", "related"), &selection(name))
                .candidates
                .len(),
            0
        );
    }
    let mixed = run(
        &member("note", "related"),
        &selection("canonical-mixed-same-parent"),
    );
    assert_eq!(ids(&mixed), ["note:1:NOTEDG01"]);
}

#[test]
fn selection_policy_passes_the_whole_selection() {
    for name in [
        "grouped-mixed-same-parent",
        "canonical-mixed-same-parent",
        "canonical-empty",
    ] {
        let sel = selection(name);
        let s = spec(json!({"trigger": {"requiresSelection": false},
                            "inputs": {"member": {"kind": "selection"}, "grouping": {"mode": "all"}},
                            "validateSelection": {"select": {"policy": "selection"}}}));
        let p = run(&s, &sel);
        assert_eq!(ids(&p), ["selection:context"]);
        assert_eq!(units(&p), [("Test Workflow", "selection:context")]);
        assert_eq!(*p.units[0].selection_context.context(), sel);
        assert_eq!(value(&p.candidates[0]), sel.to_value());
        assert_eq!(p.units[0].target_parent_identity, None);
    }
}

#[test]
fn literature_source_picks_one_source_per_paper() {
    let s = policy("literature-source", "attachment");
    for shape in ["grouped", "canonical"] {
        let parent = if shape == "grouped" {
            "grouped-parent-with-attachments-notes"
        } else {
            "canonical-parent"
        };
        assert_eq!(ids(&run(&s, &selection(parent))), ["attachment:1:ATTMD001"]);
        let two = run(
            &s,
            &selection(&format!("{shape}-attachments-different-parents")),
        );
        assert_eq!(
            ids(&two),
            ["attachment:1:ATTPDF01", "attachment:1:ATTMD002"]
        );
        let pdf = run(&s, &selection(&format!("{shape}-single-pdf")));
        assert_eq!(ids(&pdf), ["attachment:1:ATTPDF01"]);
    }
}

fn attachments_of_one_parent(files: &[(&str, &str, &str, Option<&str>)]) -> SelectionContext {
    let items: Vec<_> = files
        .iter()
        .map(|(key, name, added, parent)| {
            let mut fact = json!({"kind": "attachment", "ref": {"libraryId": 1, "key": key},
                "itemType": "attachment", "filename": name, "createdAt": added});
            if let Some(p) = parent {
                fact["parentRef"] = json!({"libraryId": 1, "key": p});
            }
            fact
        })
        .collect();
    SelectionContext::from_value(&json!({"items": items, "sampledAt": "2026-03-01T09:00:00.000Z"}))
        .unwrap()
}

#[test]
fn literature_source_rules() {
    let s = policy("literature-source", "attachment");
    let p = Some("PAPER001");
    let pick = |files: &[(&str, &str, &str, Option<&str>)]| {
        let plan = run(&s, &attachments_of_one_parent(files));
        plan.candidates
            .iter()
            .map(|c| c.label.to_string())
            .collect::<Vec<_>>()
    };
    let stem_match = [
        ("K1", "zeta.md", "2024-01-01", p),
        ("K2", "Alpha.md", "2024-02-01", p),
        ("K3", "alpha.pdf", "2024-01-05", p),
        ("K4", "beta.pdf", "2024-03-01", p),
    ];
    assert_eq!(pick(&stem_match), ["Alpha.md"]);
    let no_match = [
        ("K1", "zeta.md", "2024-02-01", p),
        ("K2", "eta.md", "2024-01-01", p),
        ("K3", "other.pdf", "2024-01-05", p),
    ];
    assert_eq!(pick(&no_match), ["eta.md"]);
    let ties = [
        ("K1", "b.pdf", "2024-01-01", p),
        ("K2", "A.pdf", "2024-01-01", p),
    ];
    assert_eq!(pick(&ties), ["A.pdf"]);
    let neither = [("K1", "x.epub", "2024-01-01", p)];
    assert!(pick(&neither).is_empty());
    let orphan = [("K1", "x.pdf", "2024-01-01", None)];
    assert!(pick(&orphan).is_empty());
}

#[test]
fn generated_note_candidates_in_both_shapes() {
    let s = policy("generated-note-candidates", "generated-note");
    let grouped = run(&s, &selection("grouped-parent-with-attachments-notes"));
    assert_eq!(
        ids(&grouped),
        ["generated-note:1:NOTEDG01", "generated-note:1:NOTERF01"]
    );
    assert_eq!(
        value(&grouped.candidates[0]),
        json!({"noteItemID": 15, "noteItemKey": "NOTEDG01", "parentItemID": 10,
               "parentItemKey": "PARENT01", "noteKind": "digest", "parentTitle": "Deep Learning for Cats"})
    );
    assert_eq!(
        grouped.candidates[1].value.to_value()["noteKind"],
        "references"
    );
    let scoped = grouped.candidates[0].scoped_context.to_value();
    assert_eq!(
        scoped["exportCandidates"],
        json!([value(&grouped.candidates[0])])
    );
    assert_eq!(scoped["summary"]["noteCount"], 1);

    let canonical = run(&s, &selection("canonical-parent"));
    assert_eq!(
        ids(&canonical),
        ["generated-note:1:NOTEDG01", "generated-note:1:NOTERF01"]
    );
    assert_eq!(
        value(&canonical.candidates[0]),
        json!({"ref": {"libraryId": 1, "key": "NOTEDG01"}, "parentRef": {"libraryId": 1, "key": "PARENT01"},
               "noteKind": "digest", "parentTitle": "Deep Learning for Cats"})
    );
    let scoped = canonical.candidates[1].scoped_context.to_value();
    assert_eq!(scoped["items"][0]["kind"], "note");
    // A current host names a note without a managed payload `ordinary`, whatever
    // its heading says.
    assert_eq!(scoped["exportCandidates"][0]["noteKind"], "ordinary");

    assert!(
        run(&s, &selection("grouped-orphan-note"))
            .candidates
            .is_empty()
    );
    let orphan = run(&s, &selection("canonical-orphan-note"));
    assert_eq!(ids(&orphan), ["generated-note:1:NOTEORPH"]);
    assert_eq!(
        orphan.candidates[0].value.to_value()["noteKind"],
        "ordinary"
    );
    let both = run(&s, &selection("grouped-mixed-same-parent"));
    assert_eq!(ids(&both), ["generated-note:1:NOTEDG01"]);
}

#[test]
fn fatal_note_issue_fails_planning() {
    let sel = selection("canonical-parent");
    let library = json!({"items": [{"ref": {"libraryId": 1, "key": "BADNOTE1"}, "kind": "note",
        "parentRef": {"libraryId": 1, "key": "PARENT01"}, "issue": "legacy_artifact_requires_migration"}]});
    let w = HostWorld::from_selection(&sel)
        .with_library(&library)
        .unwrap();
    let err = crate::plan::plan(
        &policy("generated-note-candidates", "generated-note"),
        &sel,
        Mode::Execute,
        &Map::new(),
        &w,
    )
    .unwrap_err();
    assert!(
        matches!(err, PlanError::InvalidNoteArtifact { ref note, .. } if note == "note:1:BADNOTE1")
    );
}

#[test]
fn digest_representative_image() {
    let s = policy("digest-representative-image", "digest-image-target");
    let grouped = run(&s, &selection("grouped-parent-with-attachments-notes"));
    assert_eq!(ids(&grouped), ["digest-image-target:1:NOTEDG01"]);
    let target = json!({"kind": "digest-parent", "noteItemID": 15, "noteItemKey": "NOTEDG01",
        "parentItemID": 10, "parentItemKey": "PARENT01", "parentTitle": "Deep Learning for Cats"});
    assert_eq!(value(&grouped.candidates[0]), target);
    let ctx = grouped.units[0].selection_context.to_value();
    assert_eq!(ctx["digestRepresentativeImageTarget"], target);
    assert_eq!(ctx["summary"]["parentCount"], 1);

    let canonical = run(&s, &selection("canonical-parent"));
    assert_eq!(
        value(&canonical.candidates[0]),
        json!({"ref": {"libraryId": 1, "key": "NOTEDG01"}, "parentRef": {"libraryId": 1, "key": "PARENT01"},
               "noteKind": "digest", "parentTitle": "Deep Learning for Cats"})
    );
    assert_eq!(
        canonical.units[0].selection_context.to_value()["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let one_note = SelectionContext::from_value(&json!({"items": [
        {"kind": "note", "ref": {"libraryId": 1, "key": "NOTEDG01"}, "itemType": "note",
         "parentRef": {"libraryId": 1, "key": "PARENT01"}}], "sampledAt": "2026-03-01T09:00:00.000Z"})).unwrap();
    assert_eq!(ids(&run(&s, &one_note)), ["digest-image-target:1:NOTEDG01"]);
    let mut grouped_note = fixture_json("grouped-mixed-same-parent");
    grouped_note["items"]["attachments"] = json!([]);
    let grouped_note = SelectionContext::from_value(&grouped_note).unwrap();
    let p = run(&s, &grouped_note);
    assert_eq!(p.candidates[0].value.to_value()["kind"], "digest-note");

    for name in [
        "canonical-orphan-note",
        "canonical-mixed-same-parent",
        "grouped-orphan-note",
        "grouped-single-pdf",
        "canonical-attachments-different-parents",
    ] {
        assert!(run(&s, &selection(name)).candidates.is_empty(), "{name}");
    }
}

#[test]
fn children_are_selected_in_both_shapes() {
    let canonical = SelectionContext::from_value(&json!({"items": [
        {"kind": "child", "ref": {"libraryId": 1, "key": "ANNOT001"}, "itemType": "annotation",
         "title": "A highlight", "parentRef": {"libraryId": 1, "key": "ATTPDF01"}}],
        "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let mut grouped = fixture_json("grouped-empty");
    grouped["items"]["children"] = json!([{
        "item": {"id": 40, "key": "ANNOT001", "itemType": "annotation", "title": "A highlight",
                 "libraryID": 1, "parentItemID": 11, "data": null},
        "parent": null, "attachments": [], "notes": [], "tags": [], "collections": []}]);
    let grouped = SelectionContext::from_value(&grouped).unwrap();
    for (sel, parent) in [
        (&canonical, "parent:1:ATTPDF01"),
        (&grouped, "parent-id:11"),
    ] {
        for source in ["selected", "related"] {
            let p = run(&member("child", source), sel);
            assert_eq!(ids(&p), ["child:1:ANNOT001"]);
            assert_eq!(&*p.candidates[0].label, "A highlight");
            assert_eq!(p.candidates[0].parent_identity.as_deref(), Some(parent));
        }
    }
}

#[test]
fn mime_compatibility() {
    let accepting = |member_kind: &str, source: &str, mime: serde_json::Value| {
        spec(
            json!({"inputs": {"member": {"kind": member_kind, "accepts": {"mime": mime}}},
                    "validateSelection": {"select": {"source": source}}}),
        )
    };
    for shape in ["grouped", "canonical"] {
        let mixed = selection(&format!("{shape}-mixed-same-parent"));
        let md_by_extension = run(
            &accepting("attachment", "selected", json!(["text/x-markdown"])),
            &mixed,
        );
        assert_eq!(ids(&md_by_extension), ["attachment:1:ATTMD001"]);
        let plain = run(
            &accepting("attachment", "selected", json!(["text/plain"])),
            &mixed,
        );
        assert_eq!(ids(&plain), ["attachment:1:ATTMD001"]);
        let html = run(
            &accepting("attachment", "selected", json!(["text/html"])),
            &mixed,
        );
        assert_eq!(ids(&html), ["attachment:1:ATTSNAP1"]);
        let notes = run(
            &accepting("note", "selected", json!(["application/pdf"])),
            &mixed,
        );
        assert_eq!(skips(&notes), [("note:1:NOTEDG01", "mime-not-accepted")]);
        let parent_fixture = if shape == "grouped" {
            "grouped-parent-with-attachments-notes"
        } else {
            "canonical-parent"
        };
        let parents = run(
            &accepting("parent", "selected", json!(["application/pdf"])),
            &selection(parent_fixture),
        );
        assert_eq!(
            skips(&parents),
            [("parent:1:PARENT01", "mime-not-accepted")]
        );
    }
    let upper = attachments_of_one_parent(&[("K1", "SCAN.PDF", "2024-01-01", Some("P"))]);
    assert_eq!(
        run(
            &accepting("attachment", "selected", json!(["application/pdf"])),
            &upper
        )
        .units
        .len(),
        1
    );
}

/// A candidate's `value` as JSON.
fn value(candidate: &crate::plan::Candidate) -> serde_json::Value {
    candidate.value.to_value()
}
