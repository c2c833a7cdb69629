//! Receipts as the reference host's executors make them: the effect digest over
//! the changes too, collection revisions that cover their members, the order of a
//! collection write's changes, `before: null` for what a write creates, and the
//! revision of a deleted entity naming the write's `operationId`.

use serde_json::{Value, json};

use super::super::HostWorld;
use super::super::dto::digest;
use crate::host::HookHost;
use crate::host::answers::HostAnswers;

/// Two papers, `PAPER001` in `COLLSOLO`, and a note under `PAPER002`.
fn library() -> HostWorld {
    HostWorld::default()
        .with_library(&json!({
            "items": [
                {"key": "PAPER001", "itemType": "journalArticle", "title": "One",
                 "collections": ["COLLSOLO"]},
                {"key": "PAPER002", "itemType": "journalArticle", "title": "Two"},
                {"key": "NOTE0002", "itemType": "note", "parentItem": "PAPER002", "note": "<p>n</p>"},
            ],
            "collections": [{"key": "COLLSOLO", "name": "Solo"}, {"key": "COLLTWO0", "name": "Two"}],
        }))
        .unwrap()
}

fn r(key: &str) -> Value {
    json!({"libraryId": 1, "key": key})
}

fn host() -> HookHost {
    HookHost::new(library(), HostAnswers::default())
}

fn execute(host: &mut HookHost, id: &str, mut request: Value) -> Value {
    request["operationId"] = id.into();
    host.call("mutations.execute", json!([request]), None)
        .unwrap()
}

/// The keys `library.listCollections` lists, in its order.
fn listed_keys(host: &mut HookHost) -> Vec<Value> {
    let page = host
        .call("library.listCollections", json!([{}]), None)
        .unwrap();
    let listed = page["collections"].as_array().unwrap().iter();
    listed.map(|c| c["ref"]["key"].clone()).collect()
}

/// The revision `library.listCollections` shows for `key`.
fn listed_revision(host: &mut HookHost, key: &str) -> Value {
    let page = host
        .call("library.listCollections", json!([{}]), None)
        .unwrap();
    let found = page["collections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["ref"]["key"] == key);
    found.unwrap()["revision"].clone()
}

#[test]
fn the_effect_digest_covers_what_changed() {
    let mut host = host();
    let tags = json!({"operation": "item.updateTags", "itemRef": r("PAPER002"), "add": ["x"],
        "remove": []});
    let first = execute(&mut host, "t1", tags.clone());
    let receipt = &first["receipt"];
    let mut asked = tags.clone();
    asked["operationId"] = "t1".into();
    let expected = digest(
        &json!({"operation": "item.updateTags", "semanticInput": asked,
        "outcome": "committed", "changes": receipt["changes"]}),
    );
    assert_eq!(receipt["effectDigest"], expected.as_str());
    // The same request again under another id changes nothing, and says so.
    let second = execute(&mut host, "t2", tags);
    assert_eq!(second["outcome"], "unchanged");
    let change = &second["receipt"]["changes"][0];
    assert_eq!(change["effect"], "unchanged");
    assert_eq!(change["before"], change["after"]);
    assert_ne!(second["receipt"]["receiptId"], receipt["receiptId"]);
    assert_ne!(second["receipt"]["effectDigest"], receipt["effectDigest"]);
}

#[test]
fn a_membership_change_changes_the_collection_revision_first() {
    let mut host = host();
    let r0 = listed_revision(&mut host, "COLLSOLO");
    let add = json!({"operation": "collection.updateMembership", "collectionRef": r("COLLSOLO"),
        "add": [r("PAPER002")], "remove": []});
    let done = execute(&mut host, "m1", add);
    let r1 = listed_revision(&mut host, "COLLSOLO");
    assert_ne!(r0, r1);
    // The collection itself stays where it was.
    assert_eq!(
        listed_keys(&mut host),
        [json!("COLLSOLO"), json!("COLLTWO0")]
    );
    let changes = done["receipt"]["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2);
    assert_eq!(
        changes[0],
        json!({"entity": {"kind": "collection", "ref": r("COLLSOLO")}, "effect": "updated",
            "before": {"revision": r0, "state": "active"}, "after": {"revision": r1, "state": "active"}})
    );
    assert_eq!(
        changes[1]["entity"],
        json!({"kind": "item", "ref": r("PAPER002")})
    );
    assert_eq!(changes[1]["effect"], "updated");
    assert_eq!(
        done["result"],
        json!({"collection": {"ref": r("COLLSOLO"), "revision": r1, "name": "Solo", "parentRef": null},
            "addedRefs": [r("PAPER002")], "removedRefs": []})
    );
    // Members already there: the collection is unchanged and no item is named.
    let again = json!({"operation": "collection.updateMembership", "collectionRef": r("COLLSOLO"),
        "add": [r("PAPER001"), r("PAPER002")], "remove": []});
    let done = execute(&mut host, "m2", again);
    assert_eq!(done["outcome"], "unchanged");
    let changes = done["receipt"]["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0]["effect"], "unchanged");
    assert_eq!(changes[0]["after"]["revision"], r1);
    // Removing one takes the revision back to what it was.
    let remove = json!({"operation": "collection.updateMembership", "collectionRef": r("COLLSOLO"),
        "add": [], "remove": [r("PAPER002")]});
    let done = execute(&mut host, "m3", remove);
    assert_eq!(done["receipt"]["changes"][0]["after"]["revision"], r0);
    assert_eq!(done["result"]["removedRefs"], json!([r("PAPER002")]));
}

#[test]
fn a_created_collection_comes_first_with_no_before_and_its_members_after() {
    let mut host = host();
    let create = json!({"operation": "collection.create", "name": "New",
        "placement": {"kind": "root"}, "initialMemberRefs": [r("PAPER002")]});
    let done = execute(&mut host, "c1", create);
    let changes = done["receipt"]["changes"].as_array().unwrap();
    let key = done["result"]["collection"]["ref"]["key"].as_str().unwrap();
    assert_eq!(
        changes[0]["entity"],
        json!({"kind": "collection", "ref": r(key)})
    );
    assert_eq!(
        (&changes[0]["effect"], &changes[0]["before"]),
        (&json!("created"), &Value::Null)
    );
    assert_eq!(
        changes[0]["after"]["revision"],
        listed_revision(&mut host, key)
    );
    assert_eq!(changes[1]["entity"]["ref"], r("PAPER002"));
    assert_eq!(changes[1]["effect"], "updated");
    // A new name is a new revision.
    let rename = json!({"operation": "collection.update", "collectionRef": r(key),
        "patch": {"name": "Renamed"}});
    let renamed = execute(&mut host, "c2", rename);
    let change = &renamed["receipt"]["changes"][0];
    assert_eq!(change["effect"], "updated");
    assert_ne!(change["before"]["revision"], change["after"]["revision"]);
}

#[test]
fn a_created_note_has_no_before() {
    let mut host = host();
    let create = json!({"operation": "notes.create",
        "placement": {"kind": "child", "parentRef": r("PAPER001")},
        "content": {"format": "html", "value": "<p>new</p>"}});
    let done = execute(&mut host, "n1", create);
    let change = &done["receipt"]["changes"][0];
    assert_eq!(change["effect"], "created");
    assert_eq!(change["before"], Value::Null);
    assert_eq!(change["after"]["state"], "active");
}

#[test]
fn a_deleted_revision_names_the_operation() {
    let mut host = host();
    let remove = json!({"operation": "notes.remove", "noteRef": r("NOTE0002"),
        "disposition": "permanent"});
    let done = execute(&mut host, "gone-1", remove);
    let change = &done["receipt"]["changes"][0];
    assert_eq!(change["effect"], "deleted");
    let expected =
        digest(&json!({"ref": r("NOTE0002"), "state": "deleted", "operationId": "gone-1"}));
    assert_eq!(
        change["after"],
        json!({"revision": expected, "state": "deleted"})
    );
    // A removed collection's too.
    let remove = json!({"operation": "collection.remove", "collectionRef": r("COLLSOLO"),
        "childPolicy": "cascade"});
    let done = execute(&mut host, "gone-2", remove);
    let change = &done["receipt"]["changes"][0];
    let expected =
        digest(&json!({"ref": r("COLLSOLO"), "state": "deleted", "operationId": "gone-2"}));
    assert_eq!(change["after"]["revision"], expected.as_str());
    assert_eq!(change["before"]["state"], "active");
}
