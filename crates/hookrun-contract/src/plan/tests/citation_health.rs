//! The readiness of a citation analysis follows the References it was written
//! against (the reference host's `withCitationHealth` in its generated-note
//! readiness, and its canonical artifact projection test), and a note that
//! carries only a reserved managed marker is a legacy artifact on a current
//! host (its `legacy_artifact_requires_migration`).

use serde_json::{Value, json};

use super::filters::{kinds_absent, plan_in, with_filters};
use super::*;
use crate::host::world::digest;
use crate::plan::error::PlanError;

/// The References artifact of the host's artifact tests.
fn references() -> Value {
    serde_json::from_str(include_str!(
        "../../host/world/payloads/testdata/references.json"
    ))
    .unwrap()
}

/// The References with the first title changed.
fn changed() -> Value {
    let mut changed = references();
    changed["references"][0]["bibliography"]["title"] = json!("Changed");
    changed
}

/// A managed References note holding `value`.
fn references_note(value: Value) -> Value {
    json!({"noteKind": "references", "payload": value, "html": "<p>r</p>"})
}

/// A managed citation analysis written against the References basis `basis`.
fn citation_note(basis: &str) -> Value {
    json!({"noteKind": "citation-analysis", "html": "<p>c</p>",
        "payload": {"schema": "citation_analysis_artifact.v1", "referencesBasis": basis}})
}

/// A readiness filter ready when the citation analysis is available.
fn cites_ready(accept: &str) -> PlanningSpec {
    with_filters(
        "related",
        json!([{"kind": "generated-note-readiness", "phase": "availability",
            "artifacts": [{"id": "cites", "noteKinds": ["citation-analysis"],
                "payload": {"type": "citation", "requirements": [
                    {"pointer": "/referencesBasis", "type": "string"}]}}],
            "modes": [{"id": "ready", "allAvailable": ["cites"]}, {"id": "missing", "default": true}],
            "acceptModes": [accept]}]),
    )
}

/// The units of the readiness plan over a parent with `notes`.
fn ready_units(notes: Value, accept: &str) -> usize {
    let sel = selection("canonical-parent");
    plan_in(&cites_ready(accept), &sel, notes)
        .unwrap()
        .units
        .len()
}

#[test]
fn a_citation_analysis_is_ready_only_against_its_references() {
    let basis = digest(&references());
    let current = json!([references_note(references()), citation_note(&basis)]);
    // The analysis's value is read without its basis: a requirement on it fails.
    assert_eq!(ready_units(current.clone(), "ready"), 0);
    let plain = |accept| {
        let spec = with_filters(
            "related",
            json!([{"kind": "generated-note-readiness", "phase": "availability",
                "artifacts": [{"id": "cites", "noteKinds": ["citation-analysis"]}],
                "modes": [{"id": "ready", "allAvailable": ["cites"]}, {"id": "missing", "default": true}],
                "acceptModes": [accept]}]),
        );
        move |notes: Value| {
            plan_in(&spec, &selection("canonical-parent"), notes)
                .unwrap()
                .units
                .len()
        }
    };
    let ready = plain("ready");
    assert_eq!(ready(current.clone()), 3);
    // A References-only write leaves the analysis stale ...
    let stale = json!([references_note(changed()), citation_note(&basis)]);
    assert_eq!(ready(stale.clone()), 0);
    assert_eq!(plain("missing")(stale), 3);
    // ... until it is written again against them.
    let rewritten = json!([
        references_note(changed()),
        citation_note(&digest(&changed()))
    ]);
    assert_eq!(ready(rewritten), 3);
    for (case, notes) in [
        ("no References", json!([citation_note(&basis)])),
        (
            "two References",
            json!([
                references_note(references()),
                references_note(references()),
                citation_note(&basis)
            ]),
        ),
        (
            "References failing their contract",
            json!([
                references_note(json!({"references": []})),
                citation_note(&basis)
            ]),
        ),
        (
            "unreadable References",
            json!([{"noteKind": "references", "issue": "invalid_artifact", "html": "<p>r</p>"},
                citation_note(&basis)]),
        ),
        (
            "an empty basis",
            json!([references_note(references()), citation_note("")]),
        ),
    ] {
        assert_eq!(ready(notes), 0, "{case}");
    }
}

#[test]
fn a_reserved_marker_without_a_payload_is_a_legacy_artifact_on_a_current_host() {
    let sel = selection("canonical-parent");
    let marked =
        json!([{"html": "<div data-zs-note-kind=\"references\"><h1>References</h1></div>"}]);
    assert_eq!(
        plan_in(&kinds_absent(json!(["digest"])), &sel, marked.clone()).unwrap_err(),
        PlanError::InvalidNoteArtifact {
            note: "note:1:NOTEX000".into(),
            issue: "legacy_artifact_requires_migration".into()
        }
    );
    for html in [
        "<div data-zs-payload-anchor=\"digest-markdown\"></div>",
        "<div data-zs-payload='literature-score-json'></div>",
    ] {
        let error = plan_in(
            &kinds_absent(json!(["digest"])),
            &sel,
            json!([{"html": html}]),
        );
        assert!(
            matches!(error, Err(PlanError::InvalidNoteArtifact { ref issue, .. })
                if issue == "legacy_artifact_requires_migration"),
            "{html}"
        );
    }
    // Not a reserved value: an ordinary note.
    let plain = json!([{"html": "<div data-zs-note-kind=\"citation_analysis\"></div>"}]);
    assert_eq!(
        plan_in(&kinds_absent(json!(["digest"])), &sel, plain)
            .unwrap()
            .units
            .len(),
        3
    );
    // Readiness reads the legacy note as an issue that matches no artifact.
    let refs_ready = with_filters(
        "related",
        json!([{"kind": "generated-note-readiness", "phase": "availability",
            "artifacts": [{"id": "refs", "noteKinds": ["references"]}],
            "modes": [{"id": "ready", "allAvailable": ["refs"]}, {"id": "missing", "default": true}],
            "acceptModes": ["missing"]}]),
    );
    assert_eq!(plan_in(&refs_ready, &sel, marked).unwrap().units.len(), 3);
}
