//! The mutation authority as the reference host's own suite for it describes it
//! (`tests/zotero-host/241-zotero-host-mutation-authority.test.ts`), with the
//! stored-file replays of its stored attachment suite
//! (`tests/workflows/90-workflow-stored-attachment-import.test.ts`): one
//! `operationId`, one write; a repeat answered from what the first write left,
//! never worked out again; a refused request reserving nothing; another request
//! under a bound id refused as `idempotency_conflict`. Written against a small
//! library and files directory of our own.

use serde_json::{Value, json};

use super::super::HookHost;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::world::HostWorld;

/// A paper with a note, a second paper, an image its note owns, and the files
/// directory `dir` holding `in/paper.pdf` and `in/other.pdf`.
fn host(dir: &tempfile::TempDir) -> HookHost {
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("paper.pdf"), b"%PDF-1 paper").unwrap();
    std::fs::write(input.join("other.pdf"), b"%PDF-1 other").unwrap();
    let world = HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "One"},
            {"key": "PAPER002", "itemType": "journalArticle", "title": "Two"},
            {"key": "NOTE0001", "itemType": "note", "parentItem": "PAPER001", "note": "<p>kept</p>"},
            {"key": "IMAGE001", "itemType": "attachment", "parentItem": "NOTE0001",
             "linkMode": "embedded_image", "title": "Note Image"},
        ]}))
        .unwrap()
        .with_files_dir(dir.path());
    let mut host = HookHost::new(world, HostAnswers::default());
    host.set_site("unit-1", "applyResult");
    host
}

fn r(key: &str) -> Value {
    json!({"libraryId": 1, "key": key})
}

fn call(host: &mut HookHost, member: &str, request: Value) -> Result<Value, HostError> {
    host.call(member, json!([request]), None)
}

/// The members of the recorded effects, refused ones marked.
fn recorded(host: &mut HookHost) -> Vec<String> {
    let effects = host.take_effects().into_iter();
    effects
        .map(|e| match e.error {
            Some(error) => format!("{} refused: {}", e.call, error["code"]),
            None => e.call,
        })
        .collect()
}

fn idempotency_conflict(reply: Result<Value, HostError>) {
    let error = reply.unwrap_err();
    assert_eq!(error.name, "ZoteroHostCapabilityError");
    assert_eq!(
        error.message,
        "operationId is already bound to different semantic input"
    );
    assert_eq!(
        reply_code(&Err(error)),
        ("conflict".into(), json!({"reason": "idempotency_conflict"}))
    );
}

fn operation(host: &mut HookHost, id: &str) -> Value {
    call(host, "mutations.getOperation", json!({"operationId": id})).unwrap()
}

/// A stored-file attachment of `path` under `parent`, titled `title`.
fn stored(id: &str, parent: &str, path: &str, title: &str) -> Value {
    json!({"operationId": id, "placement": {"kind": "child", "parentRef": r(parent)},
           "source": {"kind": "stored_file", "main": {"source": {"kind": "local_path", "path": path},
                      "targetFilename": "paper.pdf"}},
           "metadata": {"title": title}})
}

#[test]
fn a_repeated_write_answers_what_the_first_left_without_working_it_out_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let remove =
        json!({"operationId": "remove-once", "noteRef": r("NOTE0001"), "disposition": "permanent"});
    let first = call(&mut host, "notes.remove", remove.clone()).unwrap();
    assert_eq!(first["outcome"], "committed");
    assert_eq!(
        first["result"],
        json!({"noteRef": r("NOTE0001"), "outcome": "permanently_deleted"})
    );
    // The note is gone: worked out again, the request would be `not_found`.
    let gone = call(&mut host, "library.getNoteDetail", r("NOTE0001"));
    assert!(gone.is_err());
    assert_eq!(call(&mut host, "notes.remove", remove).unwrap(), first);
    assert_eq!(recorded(&mut host), ["notes.remove"]);
}

#[test]
fn a_failed_attempt_is_answered_again_and_never_dispatched_twice() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let hijack = json!({"operationId": "failed-once", "attachmentRef": r("IMAGE001"),
                        "patch": {"title": "Hijacked Title"}});
    let first = call(&mut host, "attachments.updateMetadata", hijack.clone()).unwrap();
    assert_eq!(first["outcome"], "failed");
    assert_eq!(first["attempt"]["status"], "failed");
    assert_eq!(first["attempt"]["error"]["code"], "invalid_ref");
    let replay = call(&mut host, "attachments.updateMetadata", hijack).unwrap();
    assert_eq!(replay, first);
    assert_eq!(recorded(&mut host), ["attachments.updateMetadata"]);
    assert_eq!(
        operation(&mut host, "failed-once"),
        json!({"state": "settled", "result": first})
    );
}

#[test]
fn a_nested_value_of_the_request_is_part_of_what_the_id_is_bound_to() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let upsert = |token: &str| {
        json!({"operationId": "nested-binding", "noteRef": r("NOTE0001"), "payload": {
            "payloadType": "probe-json", "noteKind": "probe", "schemaVersion": "probe.v1",
            "format": "json", "value": {"item": "A", "payload": {"previewToken": token}}}})
    };
    let first = call(&mut host, "notes.upsertPayload", upsert("user-value-a")).unwrap();
    assert_eq!(first["outcome"], "committed");
    idempotency_conflict(call(
        &mut host,
        "notes.upsertPayload",
        upsert("user-value-b"),
    ));
    let kept = host.call(
        "library.getNotePayload",
        json!([r("NOTE0001"), {"payloadType": "probe-json"}]),
        None,
    );
    assert_eq!(
        kept.unwrap()["value"],
        json!({"item": "A", "payload": {"previewToken": "user-value-a"}})
    );
    assert_eq!(
        recorded(&mut host),
        [
            "notes.upsertPayload",
            "notes.upsertPayload refused: \"conflict\""
        ]
    );
}

#[test]
fn a_request_refused_before_its_write_reserves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let note = |value: &str| {
        json!({"operationId": "preflight-retry", "placement": {"kind": "child", "parentRef": r("PAPER002")},
               "content": {"format": "text", "value": value}})
    };
    let refused = call(&mut host, "notes.create", note("")).unwrap_err();
    assert_eq!(reply_code(&Err(refused)).0, "invalid_request");
    assert_eq!(
        operation(&mut host, "preflight-retry"),
        json!({"state": "unavailable"})
    );
    let created = call(&mut host, "notes.create", note("written")).unwrap();
    assert_eq!(created["outcome"], "committed");
    assert_eq!(recorded(&mut host), ["notes.create"]);
}

#[test]
fn an_operation_is_unavailable_until_its_write_settles_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let id = "observe-operation";
    assert_eq!(operation(&mut host, id), json!({"state": "unavailable"}));
    let tags = json!({"operation": "item.updateTags", "operationId": id, "itemRef": r("PAPER001"),
                      "add": ["observed"], "remove": []});
    let result = call(&mut host, "mutations.execute", tags).unwrap();
    assert_eq!(result["outcome"], "committed");
    assert_eq!(
        operation(&mut host, id),
        json!({"state": "settled", "result": result})
    );
}

#[test]
fn a_bound_id_refuses_another_request_before_working_it_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let title = |title: &str| {
        json!({"operation": "item.updateMetadata", "operationId": "bound-operation",
               "itemRef": r("PAPER001"), "patch": {"fields": {"title": title}}})
    };
    let first = call(&mut host, "mutations.execute", title("Renamed")).unwrap();
    assert_eq!(first["result"]["item"]["title"], "Renamed");
    idempotency_conflict(call(&mut host, "mutations.execute", title("Other")));
    let detail = call(&mut host, "library.getItemDetail", r("PAPER001")).unwrap();
    assert_eq!(detail["item"]["title"], "Renamed");
}

#[test]
fn a_stored_attachment_bound_to_an_id_refuses_other_placements_metadata_and_operations() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let id = "stored-attachment-binding";
    let created = call(
        &mut host,
        "attachments.create",
        stored(id, "PAPER001", "in/paper.pdf", "Original"),
    );
    assert_eq!(created.unwrap()["outcome"], "committed");
    for changed in [
        stored(id, "PAPER001", "in/paper.pdf", "Changed"),
        stored(id, "PAPER002", "in/paper.pdf", "Original"),
        json!({"operationId": id, "placement": {"kind": "child", "parentRef": r("PAPER001")},
               "source": {"kind": "stored_url", "url": "https://example.invalid/a"},
               "metadata": {"title": "Original"}}),
    ] {
        idempotency_conflict(call(&mut host, "attachments.create", changed));
    }
    let replace = json!({"operationId": id, "attachmentRef": r("NEW00001"),
        "source": {"kind": "stored_file", "main": {"source": {"kind": "local_path", "path": "in/paper.pdf"}}}});
    idempotency_conflict(call(&mut host, "attachments.replaceFile", replace));
}

#[test]
fn a_settled_stored_attachment_replays_without_reading_its_source_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let request = stored(
        "stored-file-settled",
        "PAPER001",
        "in/paper.pdf",
        "Original",
    );
    let first = call(&mut host, "attachments.create", request.clone()).unwrap();
    assert_eq!(first["outcome"], "committed");
    assert_eq!(first["result"]["attachment"]["filename"], "paper.pdf");
    let removed = host.call("file.remove", json!([{"path": "in/paper.pdf"}]), None);
    assert_eq!(removed.unwrap(), json!({"removed": true}));
    assert_eq!(
        call(&mut host, "attachments.create", request).unwrap(),
        first
    );
    // A source the first write did not read is not read either: the file's
    // location is no part of what the id is bound to.
    for path in ["in/other.pdf", "in/must-not-read.pdf"] {
        let elsewhere = stored("stored-file-settled", "PAPER001", path, "Original");
        assert_eq!(
            call(&mut host, "attachments.create", elsewhere).unwrap(),
            first
        );
    }
    assert_eq!(recorded(&mut host), ["attachments.create", "file.remove"]);
}

/// A stored-file write with `companions` (`[(source, targetRelativePath)]`).
fn with_companions(id: &str, companions: &[(&str, &str)]) -> Value {
    let mut request = stored(id, "PAPER001", "in/paper.pdf", "Original");
    request["source"]["companions"] = companions
        .iter()
        .map(|(path, target)| {
            json!({"source": {"kind": "local_path", "path": path}, "targetRelativePath": target})
        })
        .collect();
    request
}

#[test]
fn unsafe_or_colliding_companion_targets_are_refused_before_anything_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let climbing = with_companions("climbing", &[("in/other.pdf", "../data.bin")]);
    let error = call(&mut host, "attachments.create", climbing).unwrap_err();
    assert_eq!(
        reply_code(&Err(error)),
        (
            "invalid_request".into(),
            json!({"reason": "unsafe_path", "field": "targetFilename"})
        )
    );
    for (id, companions, collides) in [
        (
            "colliding",
            vec![
                ("in/other.pdf", "assets/Data.bin"),
                ("in/paper.pdf", "assets/data.bin"),
            ],
            "assets/data.bin",
        ),
        ("main", vec![("in/other.pdf", "Paper.PDF")], "Paper.PDF"),
    ] {
        let request = with_companions(id, &companions);
        let error = call(&mut host, "attachments.create", request).unwrap_err();
        assert_eq!(
            error.message,
            format!("Stored attachment targets collide: {collides}")
        );
        assert_eq!(
            reply_code(&Err(error)),
            (
                "invalid_request".into(),
                json!({"reason": "duplicate_value", "field": "targetRelativePath"})
            )
        );
    }
    assert!(recorded(&mut host).is_empty());
    let listed = call(&mut host, "library.getItemAttachments", r("PAPER001")).unwrap();
    assert_eq!(listed["attachments"], json!([]));
}
