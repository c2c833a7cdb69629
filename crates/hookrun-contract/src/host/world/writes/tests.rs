//! Tests of the operations simulated in the run's world beyond notes and item
//! metadata: permanent removals, the trash, related items, collection removal and
//! top-level notes. The cases follow the reference host's own tests (its broker
//! capability suite and its trash suite) on a small library fixture.

use serde_json::{Value, json};

use super::super::{HostWorld, NoteFormat, PageRequest};
use super::{Keys, Prepared};
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::members::Member;
use crate::host::session::HookHost;
use crate::selection::PortableItemRef;

/// A library of two papers in nested collections: `PAPER001` has a note and a
/// stored PDF with an annotation; `PAPER003` is in the trash with its note.
fn library() -> HostWorld {
    let item = |key: &str, extra: Value| {
        let mut item =
            json!({"key": key, "itemType": "journalArticle", "title": format!("Paper {key}")});
        item.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        item
    };
    HostWorld::default()
        .with_library(&json!({
            "items": [
                item("PAPER001", json!({"collections": ["COLLROOT"]})),
                item("PAPER002", json!({"collections": ["COLLCHLD", "COLLSOLO"]})),
                item("PAPER003", json!({"deleted": true})),
                item("PAPER004", json!({})),
                {"key": "NOTE0001", "itemType": "note", "parentItem": "PAPER001", "note": "<p>kept</p>"},
                {"key": "ATTACH01", "itemType": "attachment", "parentItem": "PAPER001",
                 "linkMode": "imported_file", "path": "attachments/ATTACH01/a.pdf"},
                {"key": "ANNOT001", "itemType": "annotation", "parentItem": "ATTACH01"},
                {"key": "NOTE0003", "itemType": "note", "parentItem": "PAPER003", "note": "<p>t</p>",
                 "deleted": true},
            ],
            "collections": [
                {"key": "COLLROOT", "name": "Root"},
                {"key": "COLLCHLD", "name": "Child", "parentCollection": "COLLROOT"},
                {"key": "COLLGRND", "name": "Grandchild", "parentCollection": "COLLCHLD"},
                {"key": "COLLSOLO", "name": "Solo"},
            ],
        }))
        .unwrap()
}

fn r(key: &str) -> Value {
    json!({"libraryId": 1, "key": key})
}

fn pref(key: &str) -> PortableItemRef {
    PortableItemRef {
        library_id: 1,
        key: key.into(),
    }
}

/// `mutations.execute` of `request`, applied when it succeeds.
fn execute(world: &mut HostWorld, request: Value) -> Result<Prepared, HostError> {
    let mut request = request;
    request["operationId"] = "op".into();
    let mut keys = Keys { used: 0 };
    let prepared = world.prepare_write(Member::MutationsExecute, &request, &mut keys)?;
    world.commit(&prepared);
    Ok(prepared)
}

fn code(error: &HostError) -> (&str, &Value) {
    (
        error.fields["code"].as_str().unwrap_or_default(),
        &error.fields["details"],
    )
}

fn effects(prepared: &Prepared) -> Vec<(String, String)> {
    prepared
        .changes
        .iter()
        .map(|c| {
            let key = c["entity"]["ref"]["key"].as_str().unwrap_or_default();
            (key.to_owned(), c["effect"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn listed_keys(world: &HostWorld) -> Vec<String> {
    let page = world.list_items(&json!({})).unwrap();
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["ref"]["key"].as_str().unwrap().to_owned())
        .collect()
}

fn state(world: &HostWorld, key: &str) -> Value {
    world.get_item_detail(&pref(key)).unwrap()["item"]["state"].clone()
}

#[test]
fn a_permanent_cascading_removal_takes_the_item_and_everything_under_it() {
    let mut world = library();
    let removal = json!({"operation": "item.remove", "itemRef": r("PAPER001"),
        "disposition": "permanent", "childPolicy": "cascade"});
    let done = execute(&mut world, removal).unwrap();
    assert!(done.changed);
    assert_eq!(
        done.result,
        json!({"itemRef": r("PAPER001"), "outcome": "permanently_deleted"})
    );
    let keys: Vec<String> = effects(&done).into_iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["PAPER001", "NOTE0001", "ATTACH01", "ANNOT001"]);
    for change in &done.changes {
        assert_eq!(change["effect"], "deleted");
        assert_eq!(change["before"]["state"], "active");
        assert_eq!(change["after"]["state"], "deleted");
    }
    for key in ["PAPER001", "NOTE0001", "ATTACH01", "ANNOT001"] {
        assert!(world.get_item_detail(&pref(key)).is_err(), "{key}");
    }
    assert!(!listed_keys(&world).contains(&"PAPER001".to_string()));
    // A paper with one note: two changes, as the reference's own case has it.
    let mut world = library();
    execute(
        &mut world,
        json!({"operation": "item.remove", "itemRef": r("ATTACH01"),
        "disposition": "permanent", "childPolicy": "cascade"}),
    )
    .unwrap();
    let done = execute(
        &mut world,
        json!({"operation": "item.remove", "itemRef": r("PAPER001"),
        "disposition": "permanent", "childPolicy": "cascade"}),
    )
    .unwrap();
    assert_eq!(done.changes.len(), 2);
}

#[test]
fn a_removal_that_rejects_children_keeps_an_item_that_has_them() {
    let mut world = library();
    let request = |key: &str| {
        json!({"operation": "item.remove", "itemRef": r(key),
            "disposition": "permanent", "childPolicy": "reject_if_present"})
    };
    let error = execute(&mut world, request("PAPER001")).unwrap_err();
    assert_eq!(
        error.message,
        "item has children and childPolicy rejects removal"
    );
    assert_eq!(
        code(&error),
        (
            "conflict",
            &json!({"reason": "ambiguous_state", "kind": "item"})
        )
    );
    assert!(world.get_item_detail(&pref("PAPER001")).is_ok());
    // Without children it goes; a trashed item can be removed for good too.
    let done = execute(&mut world, request("PAPER004")).unwrap();
    assert_eq!(effects(&done), [("PAPER004".into(), "deleted".into())]);
    let done = execute(&mut world, request("NOTE0003")).unwrap();
    assert_eq!(done.changes[0]["before"]["state"], "trashed");
}

#[test]
fn an_item_removal_is_checked_by_its_canonical_schema() {
    let mut world = library();
    let base = json!({"operation": "item.remove", "itemRef": r("PAPER004"),
        "disposition": "permanent", "childPolicy": "cascade"});
    for (change, field) in [
        (json!({"disposition": "trash"}), "/disposition"),
        (json!({"childPolicy": "orphan"}), "/childPolicy"),
        (json!({"expectedRevision": "1"}), "/expectedRevision"),
        (json!({"itemRef": "PAPER004"}), "/itemRef"),
    ] {
        let mut request = base.clone();
        request
            .as_object_mut()
            .unwrap()
            .extend(change.as_object().unwrap().clone());
        let error = execute(&mut world, request).unwrap_err();
        assert_eq!(
            error.message,
            "mutation request does not match the canonical schema"
        );
        assert_eq!(code(&error).1["field"], field);
    }
    let mut missing = base.clone();
    missing["itemRef"] = r("GONE0001");
    let error = execute(&mut world, missing).unwrap_err();
    assert_eq!(code(&error).0, "not_found");
    assert!(world.get_item_detail(&pref("PAPER004")).is_ok());
}

#[test]
fn trashing_an_item_changes_its_state_and_takes_it_out_of_listings() {
    let mut world = library();
    assert!(!listed_keys(&world).contains(&"PAPER003".to_string()));
    assert_eq!(state(&world, "PAPER003"), "trashed");
    let request = |keys: &[&str], state: &str| {
        json!({"operation": "trash.setItemsState",
            "itemRefs": keys.iter().map(|k| r(k)).collect::<Vec<_>>(), "state": state})
    };
    let done = execute(&mut world, request(&["PAPER004", "NOTE0001"], "trashed")).unwrap();
    assert_eq!(
        effects(&done),
        [
            ("PAPER004".into(), "trashed".into()),
            ("NOTE0001".into(), "trashed".into())
        ]
    );
    assert_eq!(done.changes[0]["before"]["state"], "active");
    assert_eq!(done.changes[0]["after"]["state"], "trashed");
    assert_ne!(
        done.changes[0]["before"]["revision"],
        done.changes[0]["after"]["revision"]
    );
    assert_eq!(
        done.result,
        json!({"state": "trashed", "explicitRefs": [r("PAPER004"), r("NOTE0001")],
        "expandedRefs": [r("PAPER004"), r("NOTE0001")]})
    );
    assert_eq!(state(&world, "PAPER004"), "trashed");
    assert!(!listed_keys(&world).contains(&"PAPER004".to_string()));
    let notes = world
        .get_item_notes(&pref("PAPER001"), &PageRequest::from_value(None))
        .unwrap();
    assert_eq!(notes["notes"], json!([]));
    // Trashing it again changes nothing.
    let again = execute(&mut world, request(&["PAPER004"], "trashed")).unwrap();
    assert!(!again.changed);
    assert_eq!(again.result["expandedRefs"], json!([]));
    // A trashed parent takes no new notes.
    let note = json!({"operation": "notes.create",
        "placement": {"kind": "child", "parentRef": r("PAPER004")},
        "content": {"format": "html", "value": "<p>x</p>"}});
    let error = execute(&mut world, note).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "invalid_ref",
            &json!({"kind": "item", "reason": "wrong_kind"})
        )
    );
}

#[test]
fn restoring_a_parent_restores_its_trashed_children_unless_one_is_named() {
    let restore = |keys: &[&str]| {
        let mut world = library();
        let request = json!({"operation": "trash.setItemsState", "state": "active",
            "itemRefs": keys.iter().map(|k| r(k)).collect::<Vec<_>>()});
        let done = execute(&mut world, request).unwrap();
        (world, done)
    };
    let (mut world, done) = restore(&["PAPER003"]);
    assert_eq!(
        done.result["expandedRefs"],
        json!([r("PAPER003"), r("NOTE0003")])
    );
    assert_eq!(done.result["explicitRefs"], json!([r("PAPER003")]));
    assert_eq!(
        effects(&done),
        [
            ("PAPER003".into(), "updated".into()),
            ("NOTE0003".into(), "updated".into())
        ]
    );
    let notes = world
        .get_item_notes(&pref("PAPER003"), &PageRequest::from_value(None))
        .unwrap();
    assert_eq!(notes["notes"][0]["ref"], r("NOTE0003"));
    assert!(listed_keys(&world).contains(&"PAPER003".to_string()));
    // The same restore again finds nothing to change.
    let again = json!({"operation": "trash.setItemsState", "state": "active",
        "itemRefs": [r("PAPER003")]});
    assert!(!execute(&mut world, again).unwrap().changed);
    let (_, done) = restore(&["PAPER003", "NOTE0003"]);
    assert_eq!(
        done.result["expandedRefs"],
        json!([r("PAPER003"), r("NOTE0003")])
    );
    let (world, done) = restore(&["NOTE0003"]);
    assert_eq!(done.result["expandedRefs"], json!([r("NOTE0003")]));
    assert_eq!(state(&world, "PAPER003"), "trashed");
    // Restoring what is active changes nothing.
    let (_, done) = restore(&["PAPER004"]);
    assert!(!done.changed);
    assert!(done.changes.is_empty());
}

#[test]
fn a_trash_scope_is_checked_before_any_item_is_looked_up() {
    let mut world = library();
    let request = |refs: Value| json!({"operation": "trash.setItemsState", "itemRefs": refs, "state": "active"});
    let many: Vec<Value> = (0..101).map(|i| r(&format!("T{i:07}"))).collect();
    for (refs, code_, details) in [
        (
            json!([r("TARGET01"), r("TARGET01")]),
            "invalid_request",
            json!({"reason": "duplicate_value", "field": "itemRefs"}),
        ),
        (
            json!(many),
            "resource_limited",
            json!({"resource": "items", "limit": 100, "observed": 101}),
        ),
        (
            json!([]),
            "invalid_request",
            json!({"reason": "invalid_value", "field": "itemRefs"}),
        ),
        (
            json!([r("TARGET01"), {"libraryId": 2, "key": "TARGET02"}]),
            "invalid_request",
            json!({"reason": "invalid_combination", "field": "itemRefs"}),
        ),
        (
            json!([r("target01")]),
            "invalid_request",
            json!({"reason": "invalid_value", "field": "itemRefs"}),
        ),
    ] {
        let error = execute(&mut world, request(refs)).unwrap_err();
        assert_eq!(code(&error), (code_, &details));
    }
    let error = execute(&mut world, request(json!([r("TARGET01")]))).unwrap_err();
    assert_eq!(
        (error.message.as_str(), code(&error).0),
        ("Trash target is unavailable", "not_found")
    );
    let error = execute(&mut world, request(json!([r("ANNOT001")]))).unwrap_err();
    assert_eq!(code(&error).1["reason"], "invalid_combination");
    let mut bad_state = request(json!([r("PAPER003")]));
    bad_state["state"] = "deleted".into();
    let error = execute(&mut world, bad_state).unwrap_err();
    assert_eq!(code(&error).1["field"], "/state");
}

#[test]
fn related_items_are_added_and_removed_on_both_sides() {
    let mut world = library();
    let relate = |op: &str| json!({"operation": op, "sourceRef": r("PAPER001"), "relatedRefs": [r("PAPER002"), r("PAPER002")]});
    let outcomes = |p: &Prepared| -> Vec<Value> {
        let relations = p.result["relations"].as_array().unwrap();
        relations.iter().map(|e| e["outcome"].clone()).collect()
    };
    let added = execute(&mut world, relate("item.addRelated")).unwrap();
    assert!(added.changed);
    assert_eq!(outcomes(&added), [json!("added")]);
    assert_eq!(added.result["relatedRefs"], json!([r("PAPER002")]));
    assert!(!added.result["sourceRevision"].as_str().unwrap().is_empty());
    for (from, to) in [("PAPER001", "PAPER002"), ("PAPER002", "PAPER001")] {
        let detail = world.get_item_detail(&pref(from)).unwrap();
        assert_eq!(detail["item"]["relatedRefs"], json!([r(to)]), "{from}");
    }
    let revision = world.get_item_detail(&pref("PAPER001")).unwrap()["item"]["revision"].clone();
    assert_eq!(added.result["sourceRevision"], revision);
    let present = execute(&mut world, relate("item.addRelated")).unwrap();
    assert!(!present.changed);
    assert_eq!(outcomes(&present), [json!("already_present")]);
    let removed = execute(&mut world, relate("item.removeRelated")).unwrap();
    assert!(removed.changed);
    assert_eq!(outcomes(&removed), [json!("removed")]);
    let detail = world.get_item_detail(&pref("PAPER002")).unwrap();
    assert_eq!(detail["item"]["relatedRefs"], json!([]));
    let absent = execute(&mut world, relate("item.removeRelated")).unwrap();
    assert!(!absent.changed);
    assert_eq!(outcomes(&absent), [json!("already_absent")]);
}

#[test]
fn related_item_endpoints_are_refused_as_the_reference_refuses_them() {
    let mut world = library();
    let relate = |related: Value| json!({"operation": "item.addRelated", "sourceRef": r("PAPER001"), "relatedRefs": related});
    let refused = |world: &mut HostWorld, related: Value| {
        let error = execute(world, relate(related)).unwrap_err();
        let (code, details) = code(&error);
        (code.to_owned(), details.clone())
    };
    let (c, d) = refused(&mut world, json!([r("PAPER001")]));
    assert_eq!(
        (c.as_str(), &d["reason"]),
        ("invalid_request", &json!("invalid_combination"))
    );
    let (c, d) = refused(&mut world, json!([{"libraryId": 2, "key": "PAPER002"}]));
    assert_eq!(
        (c.as_str(), &d["reason"]),
        ("invalid_request", &json!("invalid_combination"))
    );
    let (c, d) = refused(&mut world, json!([r("PAPER003")]));
    assert_eq!(c, "invalid_request");
    assert_eq!(d["field"], "relatedRefs");
    let (c, d) = refused(&mut world, json!([]));
    assert_eq!(
        (c.as_str(), &d["reason"]),
        ("invalid_request", &json!("missing_field"))
    );
    let many: Vec<Value> = (0..101).map(|i| r(&format!("R{i:07}"))).collect();
    let (c, d) = refused(&mut world, json!(many));
    assert_eq!(c, "resource_limited");
    assert_eq!(
        d,
        json!({"resource": "entries", "limit": 100, "observed": 101})
    );
    let (c, d) = refused(&mut world, json!(r("PAPER002")));
    assert_eq!(
        (c.as_str(), &d["field"]),
        ("invalid_request", &json!("/relatedRefs"))
    );
    let trashed_source = json!({"operation": "item.addRelated", "sourceRef": r("PAPER003"), "relatedRefs": [r("PAPER002")]});
    let error = execute(&mut world, trashed_source).unwrap_err();
    assert_eq!(code(&error).1["field"], "sourceRef");
    assert_eq!(error.message, "source item is deleted or trashed");
}

#[test]
fn a_cascading_collection_removal_takes_its_subtree_and_keeps_its_items() {
    let mut world = library();
    let request = json!({"operation": "collection.remove", "collectionRef": r("COLLROOT"),
        "childPolicy": "cascade"});
    let done = execute(&mut world, request).unwrap();
    assert_eq!(done.result, json!({"removedRef": r("COLLROOT")}));
    assert_eq!(
        effects(&done),
        [
            ("COLLROOT".into(), "deleted".into()),
            ("COLLCHLD".into(), "deleted".into()),
            ("COLLGRND".into(), "deleted".into()),
            ("PAPER001".into(), "updated".into()),
            ("PAPER002".into(), "updated".into()),
        ]
    );
    let names: Vec<Value> = world.list_collections(&json!({})).unwrap()["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert_eq!(names, [json!("Solo")]);
    for (key, left) in [
        ("PAPER001", json!([])),
        ("PAPER002", json!([r("COLLSOLO")])),
    ] {
        let detail = world.get_item_detail(&pref(key)).unwrap();
        assert_eq!(detail["item"]["state"], "active");
        assert_eq!(detail["item"]["collectionRefs"], left, "{key}");
    }
}

#[test]
fn a_collection_removal_that_rejects_children_keeps_a_collection_that_has_them() {
    let mut world = library();
    let request = |key: &str| json!({"operation": "collection.remove", "collectionRef": r(key), "childPolicy": "reject_if_present"});
    let error = execute(&mut world, request("COLLCHLD")).unwrap_err();
    assert_eq!(
        error.message,
        "collection has descendants and childPolicy rejects removal"
    );
    assert_eq!(
        code(&error),
        (
            "conflict",
            &json!({"reason": "ambiguous_state", "kind": "collection"})
        )
    );
    // Members alone do not stop it: they leave the collection.
    let done = execute(&mut world, request("COLLSOLO")).unwrap();
    assert_eq!(
        effects(&done),
        [
            ("COLLSOLO".into(), "deleted".into()),
            ("PAPER002".into(), "updated".into())
        ]
    );
    let mut missing = request("COLLSOLO");
    missing["childPolicy"] = "cascade".into();
    assert_eq!(
        code(&execute(&mut world, missing).unwrap_err()).0,
        "not_found"
    );
    let error = execute(
        &mut world,
        json!({"operation": "collection.remove", "collectionRef": r("COLLROOT")}),
    )
    .unwrap_err();
    assert_eq!(code(&error).1["field"], "/childPolicy");
}

#[test]
fn a_top_level_note_has_no_parent_and_sits_in_its_collections() {
    let mut world = library();
    let note = |placement: Value| {
        json!({"operation": "notes.create", "placement": placement,
            "content": {"format": "html", "value": "<p>Loose thoughts</p>"}})
    };
    let done = execute(
        &mut world,
        note(json!({"kind": "top_level", "collectionRefs": [r("COLLSOLO")]})),
    )
    .unwrap();
    let created = done.result["note"]["ref"].clone();
    assert!(done.result["note"].get("parent").is_none());
    let reference = PortableItemRef::parse(&created, "").unwrap();
    let detail = world.get_note_detail(&reference, NoteFormat::Html).unwrap();
    assert_eq!(detail["parentRef"], Value::Null);
    let record = world
        .records
        .iter()
        .find(|r| r.reference.as_ref() == Some(&reference))
        .unwrap();
    assert_eq!(record.zotero.get().collections, ["COLLSOLO"]);
    assert!(!listed_keys(&world).contains(&reference.key));
    let error = execute(
        &mut world,
        note(json!({"kind": "top_level", "collectionRefs": [r("NOCOLL01")]})),
    )
    .unwrap_err();
    assert_eq!(code(&error).0, "not_found");
    let error = execute(
        &mut world,
        note(json!({"kind": "top_level", "libraryId": 2, "collectionRefs": [r("COLLSOLO")]})),
    )
    .unwrap_err();
    assert_eq!(code(&error).1["reason"], "invalid_combination");
}

/// `mutations.preview` of `request` through the host.
fn preview(world: HostWorld, request: Value) -> Result<Value, HostError> {
    let mut host = HookHost::new(world, HostAnswers::default());
    host.call("mutations.preview", json!([request]), None)
}

#[test]
fn previews_of_removals_plan_them_completely_without_changing_anything() {
    let item = preview(
        library(),
        json!({"operation": "item.remove", "itemRef": r("PAPER001"),
        "disposition": "permanent", "childPolicy": "cascade"}),
    )
    .unwrap();
    assert_eq!(item["schema"], "zotero-agents.mutation-preview.v1");
    assert_eq!(item["outcome"], "would_change");
    assert!(item.get("token").is_none());
    assert!(
        item["domainPlanDigest"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    let plan = &item["plan"];
    assert_eq!(
        (&plan["itemRef"], &plan["childPolicy"]),
        (&r("PAPER001"), &json!("cascade"))
    );
    assert_eq!(
        plan["children"],
        json!([{"ref": r("NOTE0001"), "kind": "note"}, {"ref": r("ATTACH01"), "kind": "attachment"}])
    );
    assert_eq!(plan["managedResources"]["storedFiles"], 1);
    assert_eq!(plan["relationInvalidations"], json!([]));
    let collection = preview(
        library(),
        json!({"operation": "collection.remove", "collectionRef": r("COLLROOT"),
        "childPolicy": "cascade"}),
    )
    .unwrap();
    let plan = &collection["plan"];
    assert_eq!(plan["deletedCollections"].as_array().unwrap().len(), 3);
    assert_eq!(
        plan["detachedMemberships"],
        json!([{"collectionRef": r("COLLROOT"), "itemRef": r("PAPER001")},
        {"collectionRef": r("COLLCHLD"), "itemRef": r("PAPER002")}])
    );
    let error = preview(
        library(),
        json!({"operation": "item.remove", "itemRef": r("PAPER001"),
        "disposition": "trash", "childPolicy": "cascade"}),
    )
    .unwrap_err();
    assert_eq!(
        error.message,
        "mutation preview request does not match the canonical schema"
    );
}

#[test]
fn previews_of_relations_and_the_trash_say_whether_they_would_change() {
    let related = json!({"operation": "item.addRelated", "sourceRef": r("PAPER001"),
        "relatedRefs": [r("PAPER002")]});
    let answer = preview(library(), related).unwrap();
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        answer["plan"],
        json!({"sourceRef": r("PAPER001"), "relatedRefs": [r("PAPER002")],
        "relations": [{"relatedRef": r("PAPER002"), "outcome": "added"}]})
    );
    let removal = json!({"operation": "item.removeRelated", "sourceRef": r("PAPER001"),
        "relatedRefs": [r("PAPER002")]});
    assert_eq!(preview(library(), removal).unwrap()["outcome"], "unchanged");
    let trash = |state: &str| json!({"operation": "trash.setItemsState", "itemRefs": [r("PAPER003")], "state": state});
    let answer = preview(library(), trash("trashed")).unwrap();
    assert_eq!(answer["outcome"], "unchanged");
    assert_eq!(
        answer["plan"],
        json!({"state": "trashed", "explicitRefs": [r("PAPER003")], "expandedRefs": []})
    );
    let answer = preview(library(), trash("active")).unwrap();
    assert_eq!(answer["outcome"], "would_change");
}

#[test]
fn the_item_relation_and_collection_operations_run_in_sequence() {
    let mut world = library();
    for request in [
        json!({"operation": "item.updateTags", "itemRef": r("PAPER004"), "add": ["canonical:map"], "remove": []}),
        json!({"operation": "item.addRelated", "sourceRef": r("PAPER004"), "relatedRefs": [r("PAPER001")]}),
        json!({"operation": "item.removeRelated", "sourceRef": r("PAPER004"), "relatedRefs": [r("PAPER001")]}),
        json!({"operation": "collection.updateMembership", "collectionRef": r("COLLSOLO"),
            "add": [r("PAPER004")], "remove": []}),
        json!({"operation": "trash.setItemsState", "itemRefs": [r("PAPER004")], "state": "trashed"}),
    ] {
        let done = execute(&mut world, request.clone()).unwrap();
        assert_eq!(done.operation, request["operation"].as_str().unwrap());
        assert!(done.changed, "{request}");
    }
    assert_eq!(state(&world, "PAPER004"), "trashed");
    let in_solo = world
        .list_items(&json!({"collectionRef": r("COLLSOLO")}))
        .unwrap();
    let keys: Vec<&Value> = in_solo["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["ref"]["key"])
        .collect();
    assert_eq!(keys, [&json!("PAPER002")]);
}

#[test]
fn attachments_go_top_level_into_collections_and_move_between_places() {
    let mut world = library();
    let created = execute(
        &mut world,
        json!({"operation": "attachments.create",
            "placement": {"kind": "top_level", "collectionRefs": [r("COLLSOLO"), r("COLLSOLO")]},
            "source": {"kind": "linked_url", "url": "https://example.org/a"},
            "metadata": {"title": "A link"}}),
    )
    .unwrap();
    let attachment = &created.result["attachment"];
    assert_eq!(attachment["parentRef"], Value::Null);
    assert_eq!(attachment["title"], "A link");
    let key = attachment["ref"]["key"].as_str().unwrap().to_owned();
    let detail = world.get_item_detail(&pref(&key)).unwrap();
    assert_eq!(detail["kind"], "attachment");
    // Under a parent it leaves its collections; back at the top it joins those named.
    let moved = execute(
        &mut world,
        json!({"operation": "attachments.move", "attachmentRef": r(&key),
            "placement": {"kind": "child", "parentRef": r("PAPER004")}}),
    )
    .unwrap();
    assert_eq!(moved.result["outcome"], "moved");
    assert_eq!(moved.result["attachment"]["parentRef"], r("PAPER004"));
    let back = execute(
        &mut world,
        json!({"operation": "attachments.move", "attachmentRef": r(&key),
            "placement": {"kind": "top_level", "collectionRefs": [r("COLLROOT")]}}),
    )
    .unwrap();
    assert_eq!(back.result["outcome"], "moved");
    assert_eq!(back.result["attachment"]["parentRef"], Value::Null);
    let crossing = execute(
        &mut world,
        json!({"operation": "attachments.create",
            "placement": {"kind": "top_level", "libraryId": 2, "collectionRefs": [r("COLLSOLO")]},
            "source": {"kind": "linked_url", "url": "https://example.org/b"}}),
    )
    .unwrap_err();
    assert_eq!(crossing.message, "attachment placement crosses libraries");
    assert_eq!(
        code(&crossing),
        (
            "invalid_request",
            &json!({"reason": "invalid_combination", "operation": "attachments.create"})
        )
    );
}
