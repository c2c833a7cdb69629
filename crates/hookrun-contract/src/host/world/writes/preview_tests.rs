//! Tests of `mutations.preview`, driven through [`HookHost::call`] on a small
//! library: the envelope, the targets and their order, the digest, and the
//! domain plan of each operation. The cases follow the preview cases of the
//! reference host's broker capability suite, written for this fixture.

use serde_json::{Value, json};

use super::super::super::HostWorld;
use super::super::Prepared;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::session::HookHost;

/// A journal article with a note and a stored PDF in a collection, a book, a
/// trashed article and two collections.
fn library() -> HostWorld {
    HostWorld::default()
        .with_library(&json!({
            "items": [
                {"key": "PAPER001", "itemType": "journalArticle", "title": "Paper one",
                 "publicationTitle": "Journal", "issue": "3", "collections": ["COLLROOT"],
                 "tags": ["status:need-analysis", "keep"]},
                {"key": "PAPER002", "itemType": "book", "title": "Paper two"},
                {"key": "PAPER003", "itemType": "journalArticle", "title": "Gone", "deleted": true},
                {"key": "NOTE0001", "itemType": "note", "parentItem": "PAPER001", "note": "<p>kept</p>"},
                {"key": "ATTACH01", "itemType": "attachment", "parentItem": "PAPER001",
                 "title": "Paper PDF", "linkMode": "imported_file",
                 "path": "attachments/ATTACH01/a.pdf", "contentType": "application/pdf"},
            ],
            "collections": [
                {"key": "COLLROOT", "name": "Root"},
                {"key": "COLLSOLO", "name": "Solo"},
            ],
        }))
        .unwrap()
}

/// A host over [`library`].
fn host() -> HookHost {
    HookHost::new(library(), HostAnswers::default())
}

/// The ref of `key` in the user library.
fn r(key: &str) -> Value {
    json!({"libraryId": 1, "key": key})
}

/// A target of a plan: `{entity: {kind, ref}, state}`.
fn target(kind: &str, key: &str, state: &str) -> Value {
    json!({"entity": {"kind": kind, "ref": r(key)}, "state": state})
}

/// `mutations.preview(request)` through the host.
fn preview(host: &mut HookHost, request: Value) -> Result<Value, HostError> {
    host.call("mutations.preview", json!([request]), None)
}

/// The preview of `request`, which must be answered.
fn plan_of(host: &mut HookHost, request: Value) -> Value {
    preview(host, request).unwrap()
}

/// `mutations.execute` of `request` under the id `id`, which must succeed.
fn execute(host: &mut HookHost, id: &str, mut request: Value) -> Value {
    request["operationId"] = id.into();
    host.call("mutations.execute", json!([request]), None)
        .unwrap()
}

/// The keys of the object `value`, in order.
fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

/// The code, message and details of `error`.
fn code(error: &HostError) -> (&str, &str, &Value) {
    (
        error.fields["code"].as_str().unwrap_or_default(),
        error.message.as_str(),
        &error.fields["details"],
    )
}

#[test]
fn a_preview_has_the_reference_envelope_and_no_token_or_revision() {
    let mut host = host();
    let answer = plan_of(
        &mut host,
        json!({"operation": "item.updateMetadata", "itemRef": r("PAPER001"),
            "patch": {"fields": {"title": "Renamed"}}}),
    );
    assert_eq!(
        keys(&answer),
        [
            "schema",
            "operation",
            "outcome",
            "observedAt",
            "domainPlanDigest",
            "plan"
        ]
    );
    assert_eq!(answer["schema"], "zotero-agents.mutation-preview.v1");
    assert_eq!(answer["operation"], "item.updateMetadata");
    assert_eq!(answer["outcome"], "would_change");
    let digest = answer["domainPlanDigest"].as_str().unwrap();
    assert!(
        digest.starts_with("sha256:") && digest.len() == 71,
        "{digest}"
    );
    assert_eq!(
        keys(&answer["plan"]),
        ["operation", "targets", "itemRef", "fields"]
    );
    assert_eq!(
        answer["plan"],
        json!({"operation": "item.updateMetadata", "targets": [target("item", "PAPER001", "active")],
            "itemRef": r("PAPER001"), "fields": {"title": "Renamed"}})
    );
    // Nothing was written.
    let detail = host
        .call("library.getItemDetail", json!([r("PAPER001")]), None)
        .unwrap();
    assert_eq!(detail["item"]["title"], "Paper one");
    let error = preview(
        &mut host,
        json!({"operation": "item.updateMetadata", "operationId": "x", "itemRef": r("PAPER001"),
            "patch": {"fields": {"title": "Renamed"}}}),
    )
    .unwrap_err();
    assert_eq!(
        code(&error),
        (
            "invalid_request",
            "mutation preview request does not match the canonical schema",
            &json!({"reason": "invalid_schema", "field": "/operationId"})
        )
    );
}

#[test]
fn a_metadata_preview_keeps_the_type_s_fields_and_says_when_nothing_changes() {
    let mut host = host();
    let same = plan_of(
        &mut host,
        json!({"operation": "item.updateMetadata", "itemRef": r("PAPER002"),
            "patch": {"fields": {"title": "Paper two", "issue": "7"}}}),
    );
    assert_eq!(same["outcome"], "unchanged");
    assert_eq!(same["plan"]["fields"], json!({"title": "Paper two"}));
    let creators = json!([{"firstName": "Ada", "lastName": "Lovelace", "creatorType": "author"}]);
    let with_creators = plan_of(
        &mut host,
        json!({"operation": "item.updateMetadata", "itemRef": r("PAPER002"),
            "patch": {"creators": creators}}),
    );
    assert_eq!(with_creators["outcome"], "would_change");
    assert_eq!(
        with_creators["plan"],
        json!({"operation": "item.updateMetadata", "targets": [target("item", "PAPER002", "active")],
            "itemRef": r("PAPER002"), "fields": {}, "creators": creators})
    );
}

#[test]
fn a_note_preview_counts_utf8_bytes_and_always_changes() {
    let mut host = host();
    let answer = plan_of(
        &mut host,
        json!({"operation": "notes.create", "placement": {"kind": "child", "parentRef": r("PAPER001")},
            "content": {"format": "html", "value": "<p>é</p>"}}),
    );
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        keys(&answer["plan"]),
        [
            "operation",
            "targets",
            "placement",
            "format",
            "contentBytes",
            "imageCount",
            "tags"
        ]
    );
    assert_eq!(
        answer["plan"],
        json!({"operation": "notes.create", "targets": [target("item", "PAPER001", "active")],
            "placement": {"kind": "child", "parentRef": r("PAPER001")}, "format": "html",
            "contentBytes": 9, "imageCount": 0, "tags": []})
    );
    let top = plan_of(
        &mut host,
        json!({"operation": "notes.create",
            "placement": {"kind": "top_level", "collectionRefs": [r("COLLSOLO")]},
            "content": {"format": "text", "value": "plain"}, "initialTags": ["a"]}),
    );
    assert_eq!(
        top["plan"]["targets"],
        json!([target("collection", "COLLSOLO", "active")])
    );
    assert_eq!(
        (&top["plan"]["contentBytes"], &top["plan"]["tags"]),
        (&json!(5), &json!(["a"]))
    );
}

#[test]
fn membership_previews_list_only_real_additions_and_removals() {
    let mut host = host();
    let membership = |add: Value, remove: Value| {
        json!({"operation": "collection.updateMembership", "collectionRef": r("COLLROOT"),
            "add": add, "remove": remove})
    };
    let answer = plan_of(
        &mut host,
        membership(json!([r("PAPER001"), r("PAPER002")]), json!([])),
    );
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        answer["plan"],
        json!({"operation": "collection.updateMembership",
            "targets": [target("collection", "COLLROOT", "active"),
                target("item", "PAPER001", "active"), target("item", "PAPER002", "active")],
            "collectionRef": r("COLLROOT"), "added": [r("PAPER002")], "removed": []})
    );
    let already = plan_of(&mut host, membership(json!([r("PAPER001")]), json!([])));
    assert_eq!(already["outcome"], "unchanged");
    assert_eq!(
        (&already["plan"]["added"], &already["plan"]["removed"]),
        (&json!([]), &json!([]))
    );
    let out = plan_of(
        &mut host,
        membership(json!([]), json!([r("PAPER001"), r("PAPER002")])),
    );
    assert_eq!(out["outcome"], "would_change");
    assert_eq!(
        (&out["plan"]["added"], &out["plan"]["removed"]),
        (&json!([]), &json!([r("PAPER001")]))
    );
}

#[test]
fn a_status_transition_already_made_is_unchanged() {
    let mut host = host();
    let transition = |add: Value, remove: Value| json!({"operation": "statusTags.transition", "itemRef": r("PAPER001"), "add": add, "remove": remove});
    let answer = plan_of(&mut host, transition(json!(["need-analysis"]), json!([])));
    assert_eq!(answer["outcome"], "unchanged");
    assert_eq!(
        answer["plan"],
        json!({"operation": "statusTags.transition", "targets": [target("item", "PAPER001", "active")],
            "itemRef": r("PAPER001"), "added": [], "removed": []})
    );
    let answer = plan_of(
        &mut host,
        transition(json!(["need-fulltext"]), json!(["need-analysis"])),
    );
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        (&answer["plan"]["added"], &answer["plan"]["removed"]),
        (
            &json!(["status:need-fulltext"]),
            &json!(["status:need-analysis"])
        )
    );
    // A trashed item is a target in the trash.
    let trashed = plan_of(
        &mut host,
        json!({"operation": "statusTags.transition", "itemRef": r("PAPER003"), "add": ["need-fulltext"]}),
    );
    assert_eq!(
        trashed["plan"]["targets"],
        json!([target("item", "PAPER003", "trashed")])
    );
}

#[test]
fn an_item_removal_preview_lists_children_by_ref_and_kind_only() {
    let mut host = host();
    let answer = plan_of(
        &mut host,
        json!({"operation": "item.remove", "itemRef": r("PAPER001"),
            "disposition": "permanent", "childPolicy": "cascade"}),
    );
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        answer["plan"],
        json!({"itemRef": r("PAPER001"), "childPolicy": "cascade",
            "children": [{"ref": r("NOTE0001"), "kind": "note"}, {"ref": r("ATTACH01"), "kind": "attachment"}],
            "managedResources": {"storedFiles": 1, "noteImages": 0, "notePayloads": 0,
                "linkedFilesPreserved": 0},
            "relationInvalidations": []})
    );
    // The digest covers the children's revisions, which the public plan leaves out.
    let request = answer["plan"].clone();
    execute(
        &mut host,
        "n1",
        json!({"operation": "notes.updateContent", "noteRef": r("NOTE0001"),
            "content": {"format": "html", "value": "<p>edited</p>"}}),
    );
    let after = plan_of(
        &mut host,
        json!({"operation": "item.remove", "itemRef": r("PAPER001"),
            "disposition": "permanent", "childPolicy": "cascade"}),
    );
    assert_eq!(after["plan"], request);
    assert_ne!(after["domainPlanDigest"], answer["domainPlanDigest"]);
}

#[test]
fn the_digest_is_stable_for_a_world_and_follows_its_revisions() {
    let mut host = host();
    let request = json!({"operation": "statusTags.transition", "itemRef": r("PAPER001"),
        "add": ["need-analysis"]});
    let first = plan_of(&mut host, request.clone());
    let again = plan_of(&mut host, request.clone());
    assert_eq!(first["domainPlanDigest"], again["domainPlanDigest"]);
    execute(
        &mut host,
        "t1",
        json!({"operation": "item.updateTags", "itemRef": r("PAPER001"), "add": ["fresh"], "remove": []}),
    );
    let after = plan_of(&mut host, request);
    assert_eq!(after["plan"], first["plan"], "the plan itself is the same");
    assert_ne!(after["domainPlanDigest"], first["domainPlanDigest"]);
    // Another request over the same world has another digest.
    let other = plan_of(
        &mut host,
        json!({"operation": "statusTags.transition", "itemRef": r("PAPER001"), "add": ["need-markdown"]}),
    );
    assert_ne!(other["domainPlanDigest"], after["domainPlanDigest"]);
}

#[test]
fn item_creation_plans_its_request_with_targets_in_the_reference_order() {
    let mut host = host();
    let answer = plan_of(
        &mut host,
        json!({"operation": "item.create", "itemType": "book", "fields": {"title": "New"},
            "collectionRefs": [r("COLLSOLO")], "initialRelatedRefs": [r("PAPER002"), r("PAPER001")],
            "initialTags": ["t"]}),
    );
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        answer["plan"],
        json!({"operation": "item.create",
            "targets": [target("collection", "COLLSOLO", "active"),
                target("item", "PAPER001", "active"), target("item", "PAPER002", "active")],
            "itemType": "book", "fields": {"title": "New"}, "creators": [],
            "collectionRefs": [r("COLLSOLO")], "relatedRefs": [r("PAPER002"), r("PAPER001")],
            "tags": ["t"]})
    );
}

#[test]
fn a_tag_preview_adds_only_missing_tags_and_removes_only_present_ones() {
    let mut host = host();
    let answer = plan_of(
        &mut host,
        json!({"operation": "item.updateTags", "itemRef": r("PAPER001"),
            "add": ["keep", " fresh ", "fresh"], "remove": ["gone"]}),
    );
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        answer["plan"],
        json!({"operation": "item.updateTags", "targets": [target("item", "PAPER001", "active")],
            "itemRef": r("PAPER001"), "added": ["fresh"], "removed": []})
    );
    let none = plan_of(
        &mut host,
        json!({"operation": "item.updateTags", "itemRef": r("PAPER001"), "add": ["keep"], "remove": []}),
    );
    assert_eq!(none["outcome"], "unchanged");
}

#[test]
fn collection_previews_plan_creation_and_say_whether_an_update_changes() {
    let mut host = host();
    let created = plan_of(
        &mut host,
        json!({"operation": "collection.create", "name": "New",
            "placement": {"kind": "child", "parentRef": r("COLLROOT")},
            "initialMemberRefs": [r("PAPER002")]}),
    );
    assert_eq!(created["outcome"], "would_change");
    assert_eq!(
        created["plan"],
        json!({"operation": "collection.create",
            "targets": [target("collection", "COLLROOT", "active"), target("item", "PAPER002", "active")],
            "name": "New", "placement": {"kind": "child", "parentRef": r("COLLROOT")},
            "memberRefs": [r("PAPER002")]})
    );
    let same = plan_of(
        &mut host,
        json!({"operation": "collection.update", "collectionRef": r("COLLSOLO"),
            "patch": {"name": " Solo ", "parentRef": null}}),
    );
    assert_eq!(same["outcome"], "unchanged");
    assert_eq!(
        same["plan"],
        json!({"operation": "collection.update", "targets": [target("collection", "COLLSOLO", "active")],
            "collectionRef": r("COLLSOLO"), "patch": {"name": " Solo ", "parentRef": null}})
    );
    let moved = plan_of(
        &mut host,
        json!({"operation": "collection.update", "collectionRef": r("COLLSOLO"),
            "patch": {"parentRef": r("COLLROOT")}}),
    );
    assert_eq!(moved["outcome"], "would_change");
    assert_eq!(
        moved["plan"]["targets"],
        json!([
            target("collection", "COLLROOT", "active"),
            target("collection", "COLLSOLO", "active")
        ])
    );
}

#[test]
fn note_content_removal_and_payload_previews() {
    let mut host = host();
    let content = |value: &str| {
        json!({"operation": "notes.updateContent", "noteRef": r("NOTE0001"),
            "content": {"format": "html", "value": value}})
    };
    let same = plan_of(&mut host, content(" <p>kept</p> "));
    assert_eq!(same["outcome"], "unchanged");
    assert_eq!(
        same["plan"],
        json!({"operation": "notes.updateContent", "targets": [target("item", "NOTE0001", "active")],
            "noteRef": r("NOTE0001"), "format": "html", "contentBytes": 11, "imageCount": 0})
    );
    let other = plan_of(&mut host, content("<p>new</p>"));
    assert_eq!(
        (&other["outcome"], &other["plan"]["contentBytes"]),
        (&json!("would_change"), &json!(10))
    );
    let removal = plan_of(
        &mut host,
        json!({"operation": "notes.remove", "noteRef": r("NOTE0001"), "disposition": "permanent"}),
    );
    assert_eq!(
        (&removal["outcome"], &removal["plan"]),
        (
            &json!("would_change"),
            &json!({"operation": "notes.remove", "targets": [target("item", "NOTE0001", "active")],
                "noteRef": r("NOTE0001"), "disposition": "permanent"})
        )
    );
    let payload = json!({"operation": "notes.upsertPayload", "noteRef": r("NOTE0001"),
        "payload": {"payloadType": "example-json", "noteKind": "example", "schemaVersion": "1",
            "format": "json", "value": {"a": 1}}});
    let created = plan_of(&mut host, payload.clone());
    assert_eq!(created["outcome"], "would_change");
    assert_eq!(
        created["plan"],
        json!({"operation": "notes.upsertPayload", "targets": [target("item", "NOTE0001", "active")],
            "noteRef": r("NOTE0001"), "payloadType": "example-json", "noteKind": "example",
            "format": "json", "schemaVersion": "1", "outcome": "created"})
    );
    execute(&mut host, "p1", payload.clone());
    let again = plan_of(&mut host, payload);
    assert_eq!(
        (&again["outcome"], &again["plan"]["outcome"]),
        (&json!("unchanged"), &json!("unchanged"))
    );
}

#[test]
fn attachment_creation_previews_summarise_a_stored_file() {
    let mut host = host();
    let linked = plan_of(
        &mut host,
        json!({"operation": "attachments.create", "placement": {"kind": "child", "parentRef": r("PAPER002")},
            "source": {"kind": "linked_url", "url": "https://example.org/a"}}),
    );
    assert_eq!(
        linked["plan"],
        json!({"operation": "attachments.create", "targets": [target("item", "PAPER002", "active")],
            "placement": {"kind": "child", "parentRef": r("PAPER002")},
            "source": {"kind": "linked_url", "url": "https://example.org/a"}, "metadata": {}})
    );
    host.call(
        "file.writeText",
        json!(["out/summary.md", "# Summary"]),
        None,
    )
    .unwrap();
    let stored = plan_of(
        &mut host,
        json!({"operation": "attachments.create", "placement": {"kind": "child", "parentRef": r("PAPER002")},
            "source": {"kind": "stored_file", "main": {"source": {"kind": "local_path", "path": "out/summary.md"}}},
            "metadata": {"contentType": "text/markdown"}}),
    );
    assert_eq!(stored["outcome"], "would_change");
    assert_eq!(
        (&stored["plan"]["source"], &stored["plan"]["metadata"]),
        (
            &json!({"kind": "stored_file", "filename": "summary.md", "sizeBytes": 9, "companionCount": 0}),
            &json!({"contentType": "text/markdown"})
        )
    );
    let missing = preview(
        &mut host,
        json!({"operation": "attachments.create", "placement": {"kind": "child", "parentRef": r("PAPER002")},
            "source": {"kind": "stored_file", "main": {"source": {"kind": "local_path", "path": "out/none.md"}}}}),
    )
    .unwrap_err();
    assert_eq!(code(&missing).0, "not_found");
}

#[test]
fn attachment_metadata_move_and_removal_previews() {
    let mut host = host();
    let patch = |patch: Value| json!({"operation": "attachments.updateMetadata", "attachmentRef": r("ATTACH01"), "patch": patch});
    let same = plan_of(
        &mut host,
        patch(json!({"title": "Paper PDF", "contentType": "application/pdf"})),
    );
    assert_eq!(same["outcome"], "unchanged");
    assert_eq!(
        same["plan"],
        json!({"operation": "attachments.updateMetadata", "targets": [target("item", "ATTACH01", "active")],
            "attachmentRef": r("ATTACH01"), "patch": {"title": "Paper PDF", "contentType": "application/pdf"}})
    );
    let other = plan_of(&mut host, patch(json!({"charset": "utf-8"})));
    assert_eq!(other["outcome"], "would_change");
    let placement = |parent: &str| {
        json!({"operation": "attachments.move", "attachmentRef": r("ATTACH01"),
            "placement": {"kind": "child", "parentRef": r(parent)}})
    };
    let moved = plan_of(&mut host, placement("PAPER002"));
    assert_eq!(moved["outcome"], "would_change");
    assert_eq!(
        moved["plan"],
        json!({"operation": "attachments.move",
            "targets": [target("item", "ATTACH01", "active"), target("item", "PAPER002", "active")],
            "attachmentRef": r("ATTACH01"), "placement": {"kind": "child", "parentRef": r("PAPER002")}})
    );
    assert_eq!(
        plan_of(&mut host, placement("PAPER001"))["outcome"],
        "unchanged"
    );
    let removal = plan_of(
        &mut host,
        json!({"operation": "attachments.remove", "attachmentRef": r("ATTACH01"), "disposition": "permanent"}),
    );
    assert_eq!(
        (&removal["outcome"], &removal["plan"]),
        (
            &json!("would_change"),
            &json!({"operation": "attachments.remove", "targets": [target("item", "ATTACH01", "active")],
                "attachmentRef": r("ATTACH01"), "disposition": "permanent"})
        )
    );
}

#[test]
fn a_file_replacement_preview_compares_the_stored_bytes() {
    let mut host = host();
    host.call("file.writeText", json!(["out/b.pdf", "hello"]), None)
        .unwrap();
    let request = json!({"operation": "attachments.replaceFile", "attachmentRef": r("ATTACH01"),
        "source": {"main": {"source": {"kind": "local_path", "path": "out/b.pdf"}, "targetFilename": "b.pdf"}}});
    let answer = plan_of(&mut host, request.clone());
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        answer["plan"],
        json!({"operation": "attachments.replaceFile", "targets": [target("item", "ATTACH01", "active")],
            "attachmentRef": r("ATTACH01"), "filename": "b.pdf", "sizeBytes": 5, "companionCount": 0})
    );
    execute(&mut host, "f1", request.clone());
    assert_eq!(plan_of(&mut host, request)["outcome"], "unchanged");
}

#[test]
fn managed_note_previews_plan_the_kind_the_target_and_the_payload_bytes() {
    let mut host = host();
    let custom = json!({"operation": "managed_note.write_custom",
        "target": {"kind": "create", "parentRef": r("PAPER002")},
        "content": {"title": " Notes ", "markdown": "# hi é"}});
    let answer = plan_of(&mut host, custom.clone());
    assert_eq!(answer["outcome"], "would_change");
    assert_eq!(
        answer["plan"],
        json!({"operation": "managed_note.write_custom", "targets": [target("item", "PAPER002", "active")],
            "kind": "custom", "parentRef": r("PAPER002"), "outcome": "created",
            "payloadBytes": r##"{"title":"Notes","markdown":"# hi é"}"##.len()})
    );
    let written = execute(&mut host, "c1", custom);
    let note = written["result"]["note"]["ref"].clone();
    let update = json!({"operation": "managed_note.write_custom", "target": {"kind": "update", "noteRef": note},
        "content": {"title": "Notes", "markdown": "more"}});
    let answer = plan_of(&mut host, update);
    assert_eq!(
        answer["plan"],
        json!({"operation": "managed_note.write_custom",
            "targets": [{"entity": {"kind": "item", "ref": note}, "state": "active"}],
            "kind": "custom", "target": {"kind": "update", "noteRef": note},
            "payloadBytes": r#"{"title":"Notes","markdown":"more"}"#.len()})
    );
}

#[test]
fn artifact_previews_observe_the_parent_s_notes_and_say_created_or_replaced() {
    let mut host = host();
    let digest = json!({"operation": "literature_artifact.upsert_digest", "parentRef": r("PAPER001"),
        "markdown": "Digest"});
    let first = plan_of(&mut host, digest.clone());
    assert_eq!(
        first["plan"],
        json!({"operation": "literature_artifact.upsert_digest",
            "targets": [target("item", "NOTE0001", "active"), target("item", "PAPER001", "active")],
            "kind": "digest", "parentRef": r("PAPER001"), "outcome": "created",
            "payloadBytes": r#"{"markdown":"Digest"}"#.len()})
    );
    let written = execute(&mut host, "d1", digest.clone());
    let note = written["result"]["note"]["ref"]["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let second = plan_of(&mut host, digest);
    assert_eq!(second["outcome"], "would_change");
    assert_eq!(second["plan"]["outcome"], "replaced");
    assert_eq!(
        second["plan"]["targets"],
        json!([
            target("item", &note, "active"),
            target("item", "NOTE0001", "active"),
            target("item", "PAPER001", "active")
        ])
    );
}

#[test]
fn a_type_change_preview_moves_or_drops_what_the_target_type_lacks() {
    let mut host = host();
    let change = |target_type: &str, policy: &str| {
        json!({"operation": "item.changeType", "itemRef": r("PAPER001"),
            "targetItemType": target_type, "incompatibleData": policy})
    };
    let lacking = [
        json!({"kind": "field", "field": "publicationTitle", "value": "Journal"}),
        json!({"kind": "field", "field": "issue", "value": "3"}),
    ];
    let moved = plan_of(&mut host, change("book", "move_to_extra"));
    assert_eq!(moved["outcome"], "would_change");
    assert_eq!(
        moved["plan"],
        json!({"itemRef": r("PAPER001"), "sourceItemType": "journalArticle", "targetItemType": "book",
            "incompatibleData": "move_to_extra", "remappedFields": [],
            "movedToExtra": [
                {"source": lacking[0], "serializedLine": "publicationTitle: Journal"},
                {"source": lacking[1], "serializedLine": "issue: 3"}],
            "dropped": []})
    );
    let dropped = plan_of(&mut host, change("book", "drop"));
    assert_eq!(
        (
            &dropped["plan"]["movedToExtra"],
            &dropped["plan"]["dropped"]
        ),
        (&json!([]), &json!(lacking))
    );
    let rejected = plan_of(&mut host, change("book", "reject"));
    assert_eq!(
        (
            &rejected["plan"]["movedToExtra"],
            &rejected["plan"]["dropped"]
        ),
        (&json!([]), &json!([]))
    );
    assert_ne!(rejected["domainPlanDigest"], dropped["domainPlanDigest"]);
    let same = plan_of(&mut host, change("journalArticle", "reject"));
    assert_eq!(same["outcome"], "unchanged");
    let error = preview(&mut host, change("note", "reject")).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "invalid_request",
            "target item type is invalid",
            &json!({"reason": "unsupported_value", "field": "targetItemType", "operation": "item.changeType"})
        )
    );
}

#[test]
fn an_operation_without_a_domain_plan_is_unsupported() {
    let world = library();
    let facts = |_: &super::super::StoredFile| -> Result<(u64, bool), HostError> { Ok((0, false)) };
    let error = world
        .domain_plan(
            "notes.archive",
            &json!({}),
            &Prepared::new("notes.archive"),
            &facts,
        )
        .unwrap_err();
    assert_eq!(
        code(&error),
        (
            "unsupported_operation",
            "mutation preview has no domain plan",
            &json!({"memberOrOperation": "notes.archive"})
        )
    );
}
