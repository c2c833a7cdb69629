//! `metadata.translateIdentifier` and the `literature.ingest` preview after the
//! reference host's broker suite
//! (`tests/zotero-host/102-zotero-host-broker-capability-api.test.ts`): every
//! lookup outcome carries the same evidence, the fixture standing in for the
//! translators; an ingest preview names its collection, its target and what it
//! requires without revisions.

use serde_json::{Map, Value, json};

use super::super::HookHost;
use crate::host::answers::HostAnswers;
use crate::host::world::HostWorld;

fn host(identifiers: Value) -> HookHost {
    let identifiers: Map<String, Value> = serde_json::from_value(identifiers).unwrap();
    let answers = HostAnswers {
        identifiers,
        ..HostAnswers::default()
    };
    let world = HostWorld::default()
        .with_library(&json!({"items": [],
            "collections": [{"key": "COLLPREV", "name": "Canonical Ingest Preview"}]}))
        .unwrap();
    HookHost::new(world, answers)
}

fn translate(host: &mut HookHost, kind: &str, value: &str) -> Value {
    let request = json!([{"type": kind, "value": value}]);
    host.call("metadata.translateIdentifier", request, None)
        .unwrap()
}

#[test]
fn a_lookup_without_a_candidate_carries_the_evidence_of_every_outcome() {
    let mut host = host(json!({}));
    let evidence = |normalized: &str| {
        json!({"outcome": "not_found", "reason": "no_candidate", "evidence": {
            "normalizedIdentifier": normalized, "candidateCount": 0,
            "matchingCandidateCount": 0, "translators": []}})
    };
    assert_eq!(
        translate(&mut host, "DOI", "https://doi.org/10.1000/TARGET"),
        evidence("10.1000/target")
    );
    assert_eq!(
        translate(&mut host, "ISBN", "0-306-40615-2"),
        evidence("9780306406157")
    );
    assert_eq!(
        translate(&mut host, "arXiv", "arXiv:2101.01234v2"),
        evidence("2101.01234")
    );
}

#[test]
fn a_fixture_outcome_is_the_translators_answer_as_given() {
    let matched = json!({"outcome": "matched", "item": {"fields": {"title": "Match"}},
        "evidence": {"normalizedIdentifier": "10.1000/target", "candidateCount": 2,
            "matchingCandidateCount": 1,
            "translators": [{"id": "metadata-translator", "label": "Metadata Translator"}]}});
    let mut host = host(json!({"DOI:https://doi.org/10.1000/target": matched}));
    assert_eq!(
        translate(&mut host, "DOI", "https://doi.org/10.1000/target"),
        matched
    );
}

#[test]
fn an_ingest_preview_names_its_collection_target_and_requirements_without_revisions() {
    let mut host = host(json!({}));
    let request = json!({"operation": "literature.ingest",
        "collectionRef": {"libraryId": 1, "key": "COLLPREV"},
        "paper": {"itemType": "journalArticle",
            "fields": {"title": "Bounded Ingest Preview", "publicationTitle": "Broker Journal"},
            "creators": [{"firstName": "Ada", "lastName": "Lovelace", "creatorType": "author"}],
            "identifiers": {"doi": "10.1000/bounded-preview"},
            "pdfUrl": "https://example.test/bounded-preview.pdf"}});
    let preview = host
        .call("mutations.preview", json!([request]), None)
        .unwrap();
    assert_eq!(preview["operation"], "literature.ingest");
    assert_eq!(preview["outcome"], "would_change");
    let plan = &preview["plan"];
    assert_eq!(plan["collectionRef"]["key"], "COLLPREV");
    assert_eq!(plan["target"], json!({"outcome": "created"}));
    assert_eq!(plan["required"]["itemType"], "journalArticle");
    assert_eq!(
        plan["required"]["identifiers"],
        json!({"doi": "10.1000/bounded-preview"})
    );
    assert_eq!(plan["enrichment"]["pdf"], "requested");
    for authority in ["collectionVersion", "existingVersion", "revision"] {
        assert!(plan.get(authority).is_none(), "{authority}");
    }
    assert!(preview.get("token").is_none());
}
