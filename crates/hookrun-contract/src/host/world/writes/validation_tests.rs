//! Requests of the note, attachment, collection and identifier members checked as
//! the reference host checks them, case by case after its broker capability suite
//! (`tests/zotero-host/102-zotero-host-broker-capability-api.test.ts`), on a small
//! library fixture of our own.

use serde_json::{Value, json};

use super::super::HostWorld;
use super::Keys;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::members::Member;
use crate::host::session::HookHost;

/// Two papers (one trashed), a note with an embedded image, a stored and a
/// linked attachment, an annotation, a nested pair of collections and one
/// collection of another library.
fn library() -> HostWorld {
    HostWorld::default()
        .with_library(&json!({
            "items": [
                {"key": "PAPER001", "itemType": "journalArticle", "title": "Kept"},
                {"key": "PAPER002", "itemType": "journalArticle", "title": "Binned", "deleted": true},
                {"key": "NOTE0001", "itemType": "note", "parentItem": "PAPER001", "note": "<p>kept</p>"},
                {"key": "IMAGE001", "itemType": "attachment", "parentItem": "NOTE0001",
                 "linkMode": "embedded_image", "title": "Note Image"},
                {"key": "ATTACH01", "itemType": "attachment", "parentItem": "PAPER001",
                 "linkMode": "imported_file", "path": "attachments/ATTACH01/a.pdf"},
                {"key": "LINKED01", "itemType": "attachment", "parentItem": "PAPER001",
                 "linkMode": "linked_file", "path": "/elsewhere/old.pdf"},
                {"key": "ANNOT001", "itemType": "annotation", "parentItem": "ATTACH01"},
            ],
            "collections": [
                {"key": "COLLROOT", "name": "Root"},
                {"key": "COLLCHLD", "name": "Child", "parentCollection": "COLLROOT"},
                {"key": "COLLFRGN", "name": "Foreign", "libraryID": 2},
            ],
        }))
        .unwrap()
}

fn r(key: &str) -> Value {
    json!({"libraryId": 1, "key": key})
}

fn host() -> HookHost {
    HookHost::new(library(), HostAnswers::default())
}

fn call(host: &mut HookHost, member: &str, request: Value) -> Result<Value, HostError> {
    host.call(member, json!([request]), None)
}

fn code(error: &HostError) -> (&str, &Value) {
    (
        error.fields["code"].as_str().unwrap_or_default(),
        &error.fields["details"],
    )
}

/// The note keys under `PAPER001`.
fn notes_of_paper(host: &mut HookHost) -> usize {
    let page = call(host, "library.getItemNotes", r("PAPER001")).unwrap();
    page["notes"].as_array().unwrap().len()
}

#[test]
fn identifier_lookups_are_closed_before_any_translator_runs() {
    let mut host = host();
    for request in [
        json!({"type": "DOI", "normalized": "10.1000/legacy"}),
        json!({"type": "HANDLE", "value": "10.1000/open-type"}),
        json!({"type": "DOI", "value": "10.1000/knob", "limit": 1}),
        json!({"type": "DOI", "value": format!("10.1000/{}", "x".repeat(2_049))}),
        json!({"type": "ISBN", "value": "978-0-306-40615-8"}),
    ] {
        let error = call(&mut host, "metadata.translateIdentifier", request.clone()).unwrap_err();
        assert_eq!(code(&error).0, "invalid_request", "{request}");
        assert_eq!(error.fields["retryable"], false);
    }
    let error = call(
        &mut host,
        "metadata.translateIdentifier",
        json!({"type": "ISBN", "value": "978-0-306-40615-8"}),
    )
    .unwrap_err();
    assert_eq!(code(&error).1["reason"], "checksum_failed");
}

fn text_note(placement: Value) -> Value {
    json!({"operationId": "n", "placement": placement, "content": {"format": "text", "value": "body"}})
}

#[test]
fn notes_go_top_level_or_under_a_parent_through_the_placement_union() {
    let mut request = text_note(json!({"kind": "top_level", "collectionRefs": [r("COLLROOT")]}));
    request["initialTags"] = json!(["placed", "placed"]);
    let mut keys = Keys { used: 0 };
    let prepared = library()
        .prepare_write(Member::NotesCreate, &request, &mut keys)
        .unwrap();
    let note = &prepared.upserts[0];
    assert_eq!(note.parent_ref, None);
    assert_eq!(note.zotero.get().tags, ["placed"]);
    assert_eq!(note.zotero.get().collections, ["COLLROOT"]);
    assert_eq!(note.reference.as_ref().unwrap().library_id, 1);
    let mut host = host();
    let created = call(&mut host, "notes.create", request).unwrap();
    assert_eq!(created["outcome"], "committed");
    let mut child = text_note(json!({"kind": "child", "parentRef": r("PAPER001")}));
    child["operationId"] = "c".into();
    assert_eq!(
        call(&mut host, "notes.create", child).unwrap()["outcome"],
        "committed"
    );
    assert_eq!(notes_of_paper(&mut host), 2);
}

#[test]
fn invalid_note_placements_tags_and_content_are_refused_before_anything_is_written() {
    let child = json!({"kind": "child", "parentRef": r("PAPER001")});
    let content = json!({"format": "text", "value": "invalid"});
    let cases = [
        (
            json!({"parentRef": r("PAPER001"), "content": content}),
            "invalid_request",
        ),
        (
            json!({"placement": child, "title": "t", "content": content}),
            "invalid_request",
        ),
        (
            json!({"placement": {"kind": "child", "parentRef": r("PAPER001"), "libraryId": 1}, "content": content}),
            "invalid_request",
        ),
        (
            json!({"placement": {"kind": "child", "parentRef": r("PAPER001"), "collectionRefs": []}, "content": content}),
            "invalid_request",
        ),
        (
            json!({"placement": {"kind": "top_level", "collectionRefs": [r("MISSING1")]}, "content": content}),
            "not_found",
        ),
        (
            json!({"placement": {"kind": "top_level", "libraryId": 1,
                "collectionRefs": [{"libraryId": 2, "key": "COLLFRGN"}]}, "content": content}),
            "invalid_request",
        ),
        (
            json!({"placement": child, "content": {"format": "text", "value": ""}}),
            "invalid_request",
        ),
        (
            json!({"placement": child, "content": {"format": "text", "value": "x".repeat(50_001)}}),
            "invalid_request",
        ),
        (
            json!({"placement": child, "content": content, "initialTags": [""]}),
            "invalid_request",
        ),
    ];
    let mut host = host();
    for (mut request, expected) in cases {
        request["operationId"] = "bad".into();
        let error = call(&mut host, "notes.create", request.clone()).unwrap_err();
        assert_eq!(code(&error).0, expected, "{request}");
    }
    assert_eq!(notes_of_paper(&mut host), 1);
    let foreign = json!({"operationId": "f", "content": content,
        "placement": {"kind": "top_level", "collectionRefs": [{"libraryId": 2, "key": "COLLFRGN"}]}});
    let error = call(&mut host, "notes.create", foreign).unwrap_err();
    assert_eq!(code(&error).1["reason"], "invalid_combination");
}

#[test]
fn ordinary_note_writes_keep_away_from_managed_markers_and_payload_types() {
    let mut host = host();
    let marked = json!({"operationId": "m", "placement": {"kind": "child", "parentRef": r("PAPER001")},
        "content": {"format": "html", "value": "<div data-zs-note-kind=\"digest\"><p>reserved</p></div>"}});
    let error = call(&mut host, "notes.create", marked).unwrap_err();
    assert_eq!(code(&error), ("invalid_request", &error.fields["details"]));
    assert_eq!(code(&error).1["reason"], "unsupported_value");
    for (kind, payload_type) in [
        ("custom", "custom-markdown"),
        ("conversation-note", "conversation-note-markdown"),
        ("digest", "digest-markdown"),
        ("references", "references-json"),
        ("citation-analysis", "citation-analysis-json"),
        ("literature-score", "literature-score-json"),
    ] {
        let request = json!({"operationId": format!("p-{kind}"), "noteRef": r("NOTE0001"),
            "payload": {"payloadType": payload_type, "noteKind": kind, "schemaVersion": "test.v1",
                "format": "json", "value": {}}});
        let error = call(&mut host, "notes.upsertPayload", request).unwrap_err();
        assert_eq!(code(&error).0, "conflict", "{payload_type}");
    }
    let detail = host
        .call(
            "library.getNoteDetail",
            json!([r("NOTE0001"), {"format": "html"}]),
            None,
        )
        .unwrap();
    assert_eq!(detail["kind"], "ordinary");
}

#[test]
fn ordinary_content_never_updates_a_managed_note() {
    let mut host = host();
    let written = call(
        &mut host,
        "managedNotes.writeCustom",
        json!({"operationId": "w", "target": {"kind": "create", "parentRef": r("PAPER001")},
            "content": {"title": "Custom", "markdown": "Custom markdown"}}),
    )
    .unwrap();
    let managed = written["result"]["note"]["ref"].clone();
    let update = json!({"operationId": "u", "noteRef": managed,
        "content": {"format": "text", "value": "replace"}});
    let error = call(&mut host, "notes.updateContent", update).unwrap_err();
    assert_eq!(code(&error).0, "conflict");
}

#[test]
fn analysis_writes_refuse_fields_they_do_not_declare() {
    let mut host = host();
    for (i, extra) in [
        json!({"references": {"schema": "source_reference_artifact.v1", "references": []},
            "referencesBasis": "caller-authority"}),
        json!({"digest": {"markdown": "Body", "path": "/caller/path"}}),
        json!({"digest": {"markdown": "Body", "expectedRevision": "caller-revision"}}),
    ]
    .into_iter()
    .enumerate()
    {
        let mut request = json!({"operationId": format!("a-{i}"), "parentRef": r("PAPER001")});
        request
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let error = call(&mut host, "literatureArtifacts.applyAnalysis", request).unwrap_err();
        assert_eq!(code(&error).0, "invalid_request", "{i}");
    }
    assert_eq!(notes_of_paper(&mut host), 1);
}

fn payload_write(id: &str, payload: Value) -> Value {
    json!({"operationId": id, "noteRef": r("NOTE0001"), "payload": payload})
}

fn payload(format: &str, value: Value) -> Value {
    json!({"payloadType": "validation-json", "noteKind": "digest",
        "schemaVersion": "validation.v1", "format": format, "value": value})
}

#[test]
fn unsafe_logical_payloads_are_refused_before_the_write() {
    let mut host = host();
    let mut encoded = payload_write("e", payload("json", json!({"value": 1})));
    encoded["encoding"] = "base64".into();
    let error = call(&mut host, "notes.upsertPayload", encoded).unwrap_err();
    assert_eq!(code(&error).0, "invalid_request");
    let markdown = payload_write("m", payload("markdown", json!({"value": 1})));
    let error = call(&mut host, "notes.upsertPayload", markdown).unwrap_err();
    assert_eq!(code(&error).0, "invalid_request");
    assert_eq!(code(&error).1["field"], "payload.value");
    let large = payload_write("l", payload("text", json!("x".repeat(1024 * 1024 + 1))));
    let error = call(&mut host, "notes.upsertPayload", large).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "resource_limited",
            &json!({"resource": "bytes", "limit": 1_048_576, "observed": 1_048_577})
        )
    );
    for bad in [
        json!({"payloadType": "Upper", "noteKind": "digest", "schemaVersion": "v1", "format": "json", "value": 1}),
        json!({"payloadType": "ok", "noteKind": "d".repeat(81), "schemaVersion": "v1", "format": "json", "value": 1}),
        json!({"payloadType": "ok", "noteKind": "digest", "schemaVersion": "v1", "format": "yaml", "value": 1}),
        json!({"payloadType": "ok", "noteKind": "digest", "schemaVersion": "v1", "format": "json"}),
    ] {
        let error = call(
            &mut host,
            "notes.upsertPayload",
            payload_write("b", bad.clone()),
        );
        assert_eq!(code(&error.unwrap_err()).0, "invalid_request", "{bad}");
    }
}

#[test]
fn logical_payloads_are_created_left_unchanged_and_replaced() {
    let mut host = host();
    let first = payload("json", json!({"value": 1}));
    let created = call(
        &mut host,
        "notes.upsertPayload",
        payload_write("c", first.clone()),
    )
    .unwrap();
    assert_eq!(created["outcome"], "committed");
    let mut keys: Vec<&String> = created["result"].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["note", "outcome", "payload"]);
    assert_eq!(created["result"]["outcome"], "created");
    assert_eq!(
        created["result"]["payload"]["payloadType"],
        "validation-json"
    );
    let unchanged = call(
        &mut host,
        "notes.upsertPayload",
        payload_write("u", first.clone()),
    )
    .unwrap();
    assert_eq!(unchanged["outcome"], "unchanged");
    assert_eq!(unchanged["result"]["outcome"], "unchanged");
    let second = payload("json", json!({"value": 2}));
    let replaced = call(&mut host, "notes.upsertPayload", payload_write("r", second)).unwrap();
    assert_eq!(replaced["result"]["outcome"], "replaced");
}

fn execute(host: &mut HookHost, id: &str, mut request: Value) -> Result<Value, HostError> {
    request["operationId"] = id.into();
    call(host, "mutations.execute", request)
}

#[test]
fn collection_parents_never_make_a_cycle_or_cross_libraries() {
    let mut host = host();
    let update = |parent: Value| json!({"operation": "collection.update", "collectionRef": r("COLLROOT"), "patch": {"parentRef": parent}});
    for (id, parent) in [
        ("cycle", r("COLLCHLD")),
        ("self", r("COLLROOT")),
        ("foreign", json!({"libraryId": 2, "key": "COLLCHLD"})),
    ] {
        let error = execute(&mut host, id, update(parent)).unwrap_err();
        assert_eq!(code(&error).0, "invalid_request", "{id}");
        assert_eq!(code(&error).1["reason"], "invalid_combination", "{id}");
    }
    let to_root = json!({"operation": "collection.update", "collectionRef": r("COLLCHLD"),
        "patch": {"parentRef": null, "name": " Loose "}});
    let moved = execute(&mut host, "root", to_root).unwrap();
    assert_eq!(moved["outcome"], "committed");
    assert_eq!(moved["result"]["collection"]["parentRef"], Value::Null);
    assert_eq!(moved["result"]["collection"]["name"], "Loose");
    let flat =
        json!({"operation": "collection.update", "collectionRef": r("COLLCHLD"), "name": "Flat"});
    assert_eq!(
        code(&execute(&mut host, "flat", flat).unwrap_err()).0,
        "invalid_request"
    );
    let blank = json!({"operation": "collection.update", "collectionRef": r("COLLCHLD"), "patch": {"name": " "}});
    let error = execute(&mut host, "blank", blank).unwrap_err();
    assert_eq!(code(&error).1["field"], "patch.name");
}

fn create(members: Value) -> Value {
    json!({"operation": "collection.create", "name": "Created",
        "placement": {"kind": "root", "libraryId": 1}, "initialMemberRefs": members})
}

#[test]
fn created_collections_take_only_active_items_or_notes_of_their_library() {
    let mut host = host();
    let error = execute(&mut host, "kind", create(json!([r("ATTACH01")]))).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "invalid_ref",
            &json!({"kind": "item", "reason": "wrong_kind"})
        )
    );
    let error = execute(&mut host, "trashed", create(json!([r("PAPER002")]))).unwrap_err();
    assert_eq!(code(&error).0, "invalid_request");
    let foreign = create(json!([{"libraryId": 2, "key": "PAPER001"}]));
    let error = execute(&mut host, "foreign", foreign).unwrap_err();
    assert_eq!(code(&error).1["reason"], "invalid_combination");
    let created = execute(
        &mut host,
        "ok",
        create(json!([r("PAPER001"), r("PAPER001")])),
    )
    .unwrap();
    assert_eq!(created["outcome"], "committed");
    assert_eq!(created["receipt"]["changes"].as_array().unwrap().len(), 2);
    let key = created["result"]["collection"]["ref"].clone();
    let detail = call(&mut host, "library.getItemDetail", r("PAPER001")).unwrap();
    assert_eq!(detail["item"]["collectionRefs"], json!([key]));
    let child = json!({"operation": "collection.create", "name": "Nested",
        "placement": {"kind": "child", "parentRef": r("COLLROOT")}});
    let nested = execute(&mut host, "nested", child).unwrap();
    assert_eq!(nested["result"]["collection"]["parentRef"], r("COLLROOT"));
    let flat =
        json!({"operation": "collection.create", "name": "Flat", "parentRef": r("COLLROOT")});
    assert_eq!(
        code(&execute(&mut host, "flat", flat).unwrap_err()).0,
        "invalid_request"
    );
}

#[test]
fn membership_changes_are_checked_and_repeat_as_unchanged() {
    let mut host = host();
    let change = |add: Value, remove: Value| {
        json!({"operation": "collection.updateMembership", "collectionRef": r("COLLROOT"),
            "add": add, "remove": remove})
    };
    let added = execute(
        &mut host,
        "add",
        change(json!([r("PAPER001"), r("NOTE0001")]), json!([])),
    );
    assert_eq!(added.unwrap()["outcome"], "committed");
    let again = execute(
        &mut host,
        "again",
        change(json!([r("PAPER001")]), json!([])),
    )
    .unwrap();
    assert_eq!(again["outcome"], "unchanged");
    for (id, add, remove, expected) in [
        ("empty", json!([]), json!([]), "invalid_request"),
        (
            "overlap",
            json!([r("PAPER001")]),
            json!([r("PAPER001")]),
            "invalid_request",
        ),
        (
            "annotation",
            json!([r("ANNOT001")]),
            json!([]),
            "invalid_ref",
        ),
        (
            "trashed",
            json!([r("PAPER002")]),
            json!([]),
            "invalid_request",
        ),
    ] {
        let error = execute(&mut host, id, change(add, remove)).unwrap_err();
        assert_eq!(code(&error).0, expected, "{id}");
    }
    let missing = json!({"operation": "collection.updateMembership", "collectionRef": r("COLLROOT"),
        "add": [r("PAPER001")]});
    assert_eq!(
        code(&execute(&mut host, "missing", missing).unwrap_err()).0,
        "invalid_request"
    );
}

#[test]
fn a_linked_file_is_never_a_replacement() {
    let mut host = host();
    let request = json!({"operation": "attachments.replaceFile", "attachmentRef": r("LINKED01"),
        "source": {"kind": "linked_file", "path": "/elsewhere/old.pdf"}});
    let error = execute(&mut host, "linked", request).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "unsupported_operation",
            &json!({"memberOrOperation": "attachments.replaceFile"})
        )
    );
}

#[test]
fn attachments_a_note_owns_fail_metadata_move_and_removal_writes() {
    let mut host = host();
    let image = r("IMAGE001");
    for (member, request) in [
        (
            "attachments.updateMetadata",
            json!({"operationId": "g1", "attachmentRef": image, "patch": {"title": "Hijacked Title"}}),
        ),
        (
            "attachments.move",
            json!({"operationId": "g2", "attachmentRef": image, "placement": {"kind": "top_level"}}),
        ),
        (
            "attachments.remove",
            json!({"operationId": "g3", "attachmentRef": image, "disposition": "permanent"}),
        ),
    ] {
        let answer = call(&mut host, member, request).unwrap();
        assert_eq!(answer["outcome"], "failed", "{member}");
        let error = &answer["attempt"]["error"];
        assert_eq!(error["code"], "invalid_ref", "{member}");
        assert_eq!(
            error["details"],
            json!({"kind": "attachment", "reason": "wrong_kind"})
        );
        assert_eq!(error["phase"], "read");
    }
    let detail = call(&mut host, "library.getItemDetail", image).unwrap();
    assert_eq!(detail["item"]["title"], "Note Image");
    assert_eq!(detail["item"]["parentRef"], r("NOTE0001"));
}
