//! Literature artifacts checked against their contracts when written and when
//! read, and the health of a citation analysis against the References it cites
//! (the reference host's managed-note owner, its broker's artifact writes and
//! `getNoteDetail`, and its canonical artifact projection test).

use serde_json::{Value, json};

use super::super::super::dto::digest;
use super::super::super::{HostWorld, Keys, NoteFormat};
use super::super::citation_report::render;
use super::super::validators::tests::{citation, references, score};
use super::{code, inline_note, library, r, write};
use crate::plan::{ItemLocator, World};

/// A request of an `upsert*` write for `PAPER001`.
fn upsert(member: &str, value: &Value) -> Value {
    json!({"operationId": "u", "parentRef": {"libraryId": 1, "key": "PAPER001"}, member: value})
}

/// An `applyAnalysis` request for `PAPER001` with `parts`.
fn analysis(parts: Value) -> Value {
    let mut request = json!({"operationId": "a", "parentRef": {"libraryId": 1, "key": "PAPER001"}});
    request
        .as_object_mut()
        .unwrap()
        .extend(parts.as_object().unwrap().clone());
    request
}

/// The References of the tests with the first title changed.
fn changed_references() -> Value {
    let mut changed = references();
    changed["references"][0]["bibliography"]["title"] = json!("Changed");
    changed
}

#[test]
fn artifacts_failing_their_contracts_are_refused_before_anything_is_written() {
    let (mut world, mut keys) = (library(), Keys { used: 0 });
    let member = "literatureArtifacts.upsertReferences";
    let error = write(
        &mut world,
        &mut keys,
        member,
        upsert("references", &json!({"references": []})),
    );
    assert_eq!(
        code(&error.unwrap_err()),
        (
            "invalid_request",
            "references artifact is invalid",
            &json!({"reason": "invalid_value", "field": "references",
                "operation": "literature_artifact.upsert_references"})
        )
    );
    let mut no_meta = citation();
    no_meta.as_object_mut().unwrap().remove("meta");
    let member = "literatureArtifacts.upsertCitationAnalysis";
    let error = write(
        &mut world,
        &mut keys,
        member,
        upsert("citationAnalysis", &no_meta),
    );
    assert_eq!(
        code(&error.unwrap_err()),
        (
            "invalid_request",
            "citation analysis artifact is invalid",
            &json!({"reason": "invalid_value", "field": "citationAnalysis",
                "operation": "literature_artifact.upsert_citation_analysis"})
        )
    );
    let member = "literatureArtifacts.upsertScore";
    let error = write(
        &mut world,
        &mut keys,
        member,
        upsert("score", &json!({"overall_score": 70})),
    );
    assert_eq!(
        code(&error.unwrap_err()),
        (
            "invalid_request",
            "mutation request does not match the canonical schema",
            &json!({"reason": "invalid_schema"})
        )
    );
    assert_eq!(keys.used, 0, "nothing was written");
    let stored = write(&mut world, &mut keys, member, upsert("score", &score())).unwrap();
    assert_eq!(stored.result["note"]["payload"], score());
}

#[test]
fn a_citation_analysis_is_current_only_against_the_references_it_was_written_for() {
    let (mut world, mut keys) = (library(), Keys { used: 0 });
    let cite = |world: &mut HostWorld, keys: &mut Keys, value: &Value| {
        let member = "literatureArtifacts.upsertCitationAnalysis";
        write(world, keys, member, upsert("citationAnalysis", value))
    };
    let put_references = |world: &mut HostWorld, keys: &mut Keys, value: &Value| {
        let member = "literatureArtifacts.upsertReferences";
        write(world, keys, member, upsert("references", value)).unwrap()
    };
    let missing = cite(&mut world, &mut keys, &citation()).unwrap_err();
    assert_eq!(
        code(&missing),
        (
            "conflict",
            "citation analysis requires references",
            &json!({"reason": "basis_mismatch", "kind": "note"})
        )
    );
    let basis = digest(&references());
    let refs = put_references(&mut world, &mut keys, &references());
    assert_eq!(refs.result["referencesBasis"], basis);
    let mut unknown = citation();
    unknown["items"][1]["sourceReferenceId"] = json!("missing");
    assert_eq!(
        code(&cite(&mut world, &mut keys, &unknown).unwrap_err()),
        (
            "conflict",
            "citation analysis references are stale",
            &json!({"reason": "basis_mismatch", "kind": "note"})
        )
    );
    let cited = cite(&mut world, &mut keys, &citation()).unwrap();
    let note = &cited.result["note"];
    assert_eq!(cited.result["referencesBasis"], basis);
    assert_eq!(
        json!([
            note["payload"],
            note["provenance"],
            note["health"],
            note["derived"]
        ]),
        json!([citation(), {"referencesBasis": basis},
            {"state": "current", "currentReferencesBasis": basis},
            {"markdown": render(&citation(), &references()).unwrap()}])
    );
    let citation_ref = r(note["ref"]["key"].as_str().unwrap());
    let changed = put_references(&mut world, &mut keys, &changed_references());
    assert_eq!(changed.result["dependentStale"], true);
    let detail = world
        .get_note_detail(&citation_ref, NoteFormat::Html)
        .unwrap();
    assert_eq!(
        detail["health"],
        json!({"state": "stale", "currentReferencesBasis": digest(&changed_references())})
    );
    assert!(
        detail["derived"]["markdown"]
            .as_str()
            .unwrap()
            .contains("2024: Changed")
    );
    // Writing back the very References the analysis was written for makes it
    // current again.
    let restored = put_references(&mut world, &mut keys, &references());
    assert_eq!(restored.result.get("dependentStale"), None);
    let detail = world
        .get_note_detail(&citation_ref, NoteFormat::Text)
        .unwrap();
    assert_eq!(
        detail["health"],
        json!({"state": "current", "currentReferencesBasis": basis})
    );
    let orphan = world
        .get_note_detail(&r("CITATION"), NoteFormat::Text)
        .unwrap();
    assert_eq!(
        json!([orphan["noteKind"], orphan["health"], orphan.get("derived")]),
        json!(["citation-analysis", {"state": "stale"}, null])
    );
}

/// A library of one paper whose notes hold `notes` (key, payload type, value).
fn paper_with(notes: &[(&str, &str, Value)]) -> HostWorld {
    let mut items = vec![json!({"key": "PAPER009", "itemType": "journalArticle", "title": "P"})];
    for (key, payload_type, value) in notes {
        items.push(inline_note(
            key,
            "PAPER009",
            payload_type,
            &value.to_string(),
        ));
    }
    HostWorld::default()
        .with_library(&json!({"items": items}))
        .unwrap()
}

#[test]
fn a_stored_artifact_failing_its_contract_is_an_invalid_artifact() {
    for (payload_type, kind, value, message) in [
        (
            "references-json",
            "references",
            json!({"references": []}),
            "references artifact is invalid",
        ),
        (
            "citation-analysis-json",
            "citation-analysis",
            json!({"items": []}),
            "citation analysis artifact is invalid",
        ),
        (
            "literature-score-json",
            "literature-score",
            json!({"overall_score": 70}),
            "literature score artifact is invalid",
        ),
    ] {
        let world = paper_with(&[("BROKEN01", payload_type, value)]);
        let error = world
            .get_note_detail(&r("BROKEN01"), NoteFormat::Html)
            .unwrap_err();
        assert_eq!(
            (
                error.name.as_str(),
                error.message.as_str(),
                &error.fields["code"],
                &error.fields["details"]
            ),
            (
                "ZoteroManagedArtifactDiagnostic",
                message,
                &json!("invalid_artifact"),
                &json!({"managedType": kind, "noteKind": kind})
            ),
            "{kind}"
        );
    }
    let mut stored = citation();
    stored["referencesBasis"] = json!(digest(&references()));
    let world = paper_with(&[
        ("REFS0001", "references-json", json!({"references": []})),
        ("CITE0001", "citation-analysis-json", stored.clone()),
    ]);
    let detail = world
        .get_note_detail(&r("CITE0001"), NoteFormat::Html)
        .unwrap();
    assert_eq!(
        json!([detail["health"], detail.get("derived")]),
        json!([{"state": "stale"}, null])
    );
    stored["referencesBasis"] = json!(7);
    let world = paper_with(&[("CITE0002", "citation-analysis-json", stored)]);
    let error = world
        .get_note_detail(&r("CITE0002"), NoteFormat::Html)
        .unwrap_err();
    assert_eq!(error.message, "citation analysis artifact is invalid");
    let wrapped =
        json!({"version": 1, "format": "json", "entry": "s.json", "literature_score": score()});
    let world = paper_with(&[("SCORE001", "literature-score-json", wrapped)]);
    let detail = world
        .get_note_detail(&r("SCORE001"), NoteFormat::Html)
        .unwrap();
    assert_eq!(detail["payload"], score());
}

#[test]
fn an_analysis_write_checks_its_artifacts_as_the_owner_does() {
    let (mut world, mut keys) = (library(), Keys { used: 0 });
    let member = "literatureArtifacts.applyAnalysis";
    let cases = [
        (
            json!({"references": {"references": []}}),
            "references artifact is invalid",
            json!({"reason": "invalid_schema", "field": "references"}),
        ),
        (
            json!({"citationAnalysis": null}),
            "citation analysis artifact is invalid",
            json!({"reason": "invalid_schema", "field": "citationAnalysis"}),
        ),
        (
            json!({"score": {"overall_score": 70}}),
            "literature score artifact is invalid",
            json!({"reason": "invalid_schema", "field": "score"}),
        ),
        (
            json!({"digest": null}),
            "digest must be an object",
            json!({"reason": "invalid_type", "field": "digest"}),
        ),
        (
            json!({"extra": 1}),
            "literatureArtifacts.applyAnalysis contains an unknown field",
            json!({"reason": "unsupported_value", "field": "literatureArtifacts.applyAnalysis.extra"}),
        ),
        (
            json!({}),
            "literature artifact request has no semantic entries",
            json!({"reason": "missing_field", "field": "digest|references|citationAnalysis|score"}),
        ),
    ];
    for (parts, message, details) in cases {
        let error = write(&mut world, &mut keys, member, analysis(parts)).unwrap_err();
        assert_eq!(
            code(&error),
            ("invalid_request", message, &details),
            "{message}"
        );
    }
    let mut unknown = citation();
    unknown["timeline"]["mid"]["sourceReferenceIds"] = json!(["missing"]);
    let stale = write(
        &mut world,
        &mut keys,
        member,
        analysis(json!({"references": references(), "citationAnalysis": unknown})),
    )
    .unwrap_err();
    assert_eq!(code(&stale).1, "citation analysis references are stale");
    let both = write(
        &mut world,
        &mut keys,
        member,
        analysis(json!({"references": changed_references(), "citationAnalysis": citation()})),
    )
    .unwrap();
    let basis = digest(&changed_references());
    assert_eq!(
        json!([
            both.result["referencesBasis"],
            both.result.get("dependentStale")
        ]),
        json!([basis, null])
    );
    let cited = &both.result["notes"][1];
    assert_eq!(
        cited["health"],
        json!({"state": "current", "currentReferencesBasis": basis})
    );
    assert!(
        cited["derived"]["markdown"]
            .as_str()
            .unwrap()
            .contains("2024: Changed")
    );
    let refs_only = write(
        &mut world,
        &mut keys,
        member,
        analysis(json!({"references": references()})),
    )
    .unwrap();
    assert_eq!(refs_only.result["dependentStale"], true);
}

#[test]
fn planning_reads_the_basis_of_a_citation_analysis_beside_its_value() {
    let (mut world, mut keys) = (library(), Keys { used: 0 });
    write(
        &mut world,
        &mut keys,
        "literatureArtifacts.applyAnalysis",
        analysis(
            json!({"references": references(), "citationAnalysis": citation(), "score": score()}),
        ),
    )
    .unwrap();
    let notes = world.item_notes(&ItemLocator::Ref(r("PAPER001"))).unwrap();
    let facts: Vec<Value> = notes
        .iter()
        .map(|n| {
            json!([
                n.note_kind,
                n.references_basis,
                n.current_basis,
                n.payload == Some(citation())
            ])
        })
        .collect();
    let basis = digest(&references());
    assert_eq!(
        facts,
        [
            json!(["references", null, basis, false]),
            json!(["citation-analysis", basis, null, true]),
            json!(["literature-score", null, null, false])
        ]
    );
    assert_eq!(notes[2].payload, Some(score()));
    let digests = world.item_notes(&ItemLocator::Ref(r("PAPER002"))).unwrap();
    assert_eq!(
        (digests[0].note_kind.as_deref(), &digests[0].payload),
        (Some("digest"), &Some(json!({"markdown": "One"})))
    );
    let marked = HostWorld::default()
        .with_library(
            &json!({"items": [{"key": "PAPER009", "itemType": "journalArticle"},
            {"key": "MARKED01", "itemType": "note", "parentItem": "PAPER009",
             "note": "<div data-zs-note-kind=\"references\"><h1>References</h1></div>"}]}),
        )
        .unwrap();
    let note = marked
        .note_detail(&ItemLocator::Ref(r("MARKED01")))
        .unwrap();
    assert_eq!(
        (note.legacy_marker, &note.issue, &note.note_kind),
        (true, &None, &None)
    );
    assert_eq!(
        note.issue_on(true),
        Some("legacy_artifact_requires_migration")
    );
    assert_eq!(note.issue_on(false), None);
}
