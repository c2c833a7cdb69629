//! The completion evidence of `library.traverseItems`, worked out by hand from the
//! reference host's formula (its "traversal evidence" cases of the broker
//! capability suite) and compared with what the world answers.

use serde_json::{Value, json};

use super::dto::hex_sha256;
use super::writes::Keys;
use super::{HostWorld, iso_from_millis};
use crate::host::Budget;
use crate::host::answers::HostAnswers;
use crate::host::members::Member;
use crate::host::{HookHost, HostSettings};

/// The SHA-256 of no bytes: the coverage of a traversal that visited nothing.
const NOTHING: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const AT: &str = "2026-02-03T04:05:06.000Z";

fn unfiltered() -> Value {
    json!({"scope": "top-level-regular"})
}

/// `BBBBBBBB` (version 3, tagged `b`, `a`, `a`) before `AAAAAAAA` (version 7, untagged).
fn two_papers() -> HostWorld {
    HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "BBBBBBBB", "itemType": "journalArticle", "title": "B", "version": 3,
             "tags": ["b", "a", {"tag": "a"}]},
            {"key": "AAAAAAAA", "itemType": "journalArticle", "title": "A", "version": 7},
        ]}))
        .unwrap()
}

fn traverse(world: &HostWorld, input: &Value) -> (Vec<Value>, Value) {
    world
        .traverse_items(input, &Budget::unlimited(), AT)
        .unwrap()
}

fn keys_of(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// The digest of criteria text as the reference writes it, `filter` and `tag`
/// as given.
fn criteria_text(tag: &str) -> String {
    format!(
        r#"{{"libraryId":1,"collectionRef":null,"tag":{tag},"itemType":null,"filter":null,"order":"stable_identity","scope":"top-level-regular"}}"#
    )
}

#[test]
fn an_empty_traversal_covers_no_bytes_and_names_its_criteria() {
    let (batches, ending) = traverse(&HostWorld::default(), &unfiltered());
    assert!(batches.is_empty());
    assert_eq!(
        keys_of(&ending),
        [
            "outcome",
            "libraryId",
            "scope",
            "visitedItems",
            "visitedBatches",
            "completionEvidence"
        ]
    );
    assert_eq!(
        (
            &ending["outcome"],
            &ending["visitedItems"],
            &ending["visitedBatches"]
        ),
        (&json!("completed"), &json!(0), &json!(0))
    );
    let evidence = &ending["completionEvidence"];
    assert_eq!(
        keys_of(evidence),
        [
            "evidenceId",
            "criteriaDigest",
            "coverageDigest",
            "completedAt"
        ]
    );
    assert_eq!(evidence["coverageDigest"], NOTHING);
    let criteria = hex_sha256(criteria_text("null").as_bytes());
    assert_eq!(evidence["criteriaDigest"], criteria.as_str());
    assert_eq!(evidence["completedAt"], AT);
    let id = format!(
        r#"{{"criteriaDigest":"{criteria}","coverageDigest":"{NOTHING}","completedAt":"{AT}","sequence":1}}"#
    );
    assert_eq!(evidence["evidenceId"], hex_sha256(id.as_bytes()).as_str());
}

#[test]
fn coverage_is_over_revisions_and_tag_digests_in_key_order() {
    let world = two_papers();
    let (batches, ending) = traverse(
        &world,
        &json!({"scope": "top-level-regular", "pageSize": 1}),
    );
    assert_eq!(batches.len(), 2);
    assert_eq!(ending["visitedBatches"], 2);
    let items: Vec<&Value> = batches.iter().map(|b| &b[0]["items"][0]).collect();
    let tagged = items
        .iter()
        .find(|i| i["ref"]["key"] == "BBBBBBBB")
        .unwrap();
    assert_eq!(tagged["tags"], json!(["a", "b"]));
    let ab = hex_sha256(br#"["a","b"]"#);
    assert_eq!(tagged["tagDigest"], ab.as_str());
    assert_eq!(keys_of(tagged).last(), Some(&"tagDigest"));
    let none = hex_sha256(b"[]");
    let lines = format!(
        "[{{\"libraryId\":1,\"key\":\"AAAAAAAA\"}},\"7\",\"{none}\"]\n[{{\"libraryId\":1,\"key\":\"BBBBBBBB\"}},\"3\",\"{ab}\"]\n"
    );
    assert_eq!(
        ending["completionEvidence"]["coverageDigest"],
        hex_sha256(lines.as_bytes()).as_str()
    );
}

#[test]
fn criteria_are_hashed_as_normalised_and_each_evidence_is_new() {
    let world = two_papers();
    let (_, whole) = traverse(&world, &unfiltered());
    let (_, tagged) = traverse(&world, &json!({"scope": "top-level-regular", "tag": " A "}));
    assert_eq!(tagged["visitedItems"], 1);
    let digest = |ending: &Value| ending["completionEvidence"]["criteriaDigest"].clone();
    assert_ne!(digest(&whole), digest(&tagged));
    let text = criteria_text(r#""a""#);
    assert_eq!(digest(&tagged), hex_sha256(text.as_bytes()).as_str());
    // The same traversal again is evidence of its own.
    let (_, again) = traverse(&world, &unfiltered());
    assert_eq!(digest(&again), digest(&whole));
    assert_ne!(
        again["completionEvidence"]["evidenceId"],
        whole["completionEvidence"]["evidenceId"]
    );
    // The caller's collectionRef and `filter` are echoed as given.
    let input = json!({"scope": "top-level-regular", "filter": "x",
        "collectionRef": {"libraryId": 1, "key": "COLL0001"}});
    let (_, filtered) = traverse(&world, &input);
    let text = r#"{"libraryId":1,"collectionRef":{"libraryId":1,"key":"COLL0001"},"tag":null,"itemType":null,"filter":"x","order":"stable_identity","scope":"top-level-regular"}"#;
    assert_eq!(digest(&filtered), hex_sha256(text.as_bytes()).as_str());
}

#[test]
fn a_tag_edit_changes_the_coverage_not_the_criteria() {
    let mut world = two_papers();
    let (_, before) = traverse(&world, &unfiltered());
    let request = json!({"operation": "item.updateTags", "operationId": "t1",
        "itemRef": {"libraryId": 1, "key": "AAAAAAAA"}, "add": ["c"], "remove": []});
    let prepared = world
        .prepare_write(Member::MutationsExecute, &request, &mut Keys { used: 0 })
        .unwrap();
    world.commit(&prepared);
    let (_, after) = traverse(&world, &unfiltered());
    let of = |ending: &Value, key: &str| ending["completionEvidence"][key].clone();
    assert_eq!(of(&before, "criteriaDigest"), of(&after, "criteriaDigest"));
    assert_ne!(of(&before, "coverageDigest"), of(&after, "coverageDigest"));
}

#[test]
fn a_host_stamps_the_evidence_with_its_clock() {
    let host = HookHost::new(two_papers(), HostAnswers::default());
    let mut host = host.with_settings(HostSettings {
        clock_ms: Some(1_000),
        ..HostSettings::default()
    });
    let plan = host
        .call(
            "library.traverseItems",
            json!([unfiltered(), {}, null]),
            None,
        )
        .unwrap();
    let evidence = &plan["result"]["completionEvidence"];
    assert_eq!(evidence["completedAt"], iso_from_millis(1_000).as_str());
    assert_eq!(evidence["evidenceId"].as_str().map(str::len), Some(64));
}
