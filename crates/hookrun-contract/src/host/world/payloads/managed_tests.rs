//! Managed notes and literature artifacts written and read as the reference
//! host's owners write and read them (`zoteroManagedNotes`, the broker's managed
//! semantic writes and `getNoteDetail`), on a small library of our own.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::super::{HostWorld, Keys, NoteFormat, PageRequest, Prepared};
use super::validators::tests::citation;
use crate::host::HostError;
use crate::host::members::Member;
use crate::plan::ItemLocator;
use crate::selection::PortableItemRef;

fn r(key: &str) -> PortableItemRef {
    PortableItemRef {
        library_id: 1,
        key: key.into(),
    }
}

/// A note under `parent` holding `text` inline as a payload of `payload_type`.
fn inline_note(key: &str, parent: &str, payload_type: &str, text: &str) -> Value {
    json!({"key": key, "itemType": "note", "parentItem": parent,
        "note": format!("<div><h1>{key}</h1><span data-zs-block=\"payload\" data-zs-payload=\"{payload_type}\" \
                         data-zs-value=\"{}\"></span></div>", STANDARD.encode(text))})
}

/// Papers: one bare, one with two digests, one with a citation analysis and no
/// References, one with 101 notes.
fn library() -> HostWorld {
    let mut items = vec![
        json!({"key": "PAPER001", "itemType": "journalArticle", "title": "Bare"}),
        json!({"key": "PAPER002", "itemType": "journalArticle", "title": "Two digests"}),
        json!({"key": "PAPER003", "itemType": "journalArticle", "title": "Citations only"}),
        json!({"key": "PAPER004", "itemType": "journalArticle", "title": "Many notes"}),
        inline_note("DIGEST01", "PAPER002", "digest-markdown", "One"),
        inline_note("DIGEST02", "PAPER002", "digest-markdown", "Two"),
        inline_note(
            "CITATION",
            "PAPER003",
            "citation-analysis-json",
            &citation().to_string(),
        ),
    ];
    for i in 0..101 {
        items.push(
            json!({"key": format!("MANY{i:04}"), "itemType": "note", "parentItem": "PAPER004",
            "note": "<p>note</p>"}),
        );
    }
    HostWorld::default()
        .with_library(&json!({"items": items}))
        .unwrap()
}

fn write(
    world: &mut HostWorld,
    keys: &mut Keys,
    member: &str,
    request: Value,
) -> Result<Prepared, HostError> {
    let prepared = world.prepare_write(Member::parse(member).unwrap(), &request, keys)?;
    world.commit(&prepared);
    Ok(prepared)
}

fn code(error: &HostError) -> (&str, &str, &Value) {
    (
        error.fields["code"].as_str().unwrap_or_default(),
        error.message.as_str(),
        &error.fields["details"],
    )
}

fn effects(prepared: &Prepared) -> Vec<Value> {
    prepared
        .changes
        .iter()
        .map(|c| json!([c["entity"]["ref"]["key"], c["effect"]]))
        .collect()
}

fn custom(target: Value, markdown: &str) -> Value {
    json!({"operationId": "c", "target": target, "content": {"title": " Plan ", "markdown": markdown}})
}

#[test]
fn a_custom_note_is_the_structured_html_and_a_carrier_of_its_markdown() {
    let (mut world, mut keys) = (library(), Keys { used: 0 });
    let markdown = "# Steps\n\n- one\n- two";
    let target = json!({"kind": "create", "parentRef": {"libraryId": 1, "key": "PAPER001"}});
    let written = write(
        &mut world,
        &mut keys,
        "managedNotes.writeCustom",
        custom(target.clone(), markdown),
    )
    .unwrap();
    assert_eq!(written.operation, "managed_note.write_custom");
    assert_eq!(
        effects(&written),
        [
            json!(["NEW00001", "created"]),
            json!(["NEW00002", "created"])
        ]
    );
    let payload = json!({"title": "Plan", "markdown": markdown});
    let detail = world
        .get_note_detail(&r("NEW00001"), NoteFormat::Html)
        .unwrap();
    assert_eq!(written.result["note"], detail);
    assert_eq!(
        json!([
            detail["kind"],
            detail["noteKind"],
            detail["title"],
            detail["payload"],
            detail["payloadBytes"],
            detail["health"],
            detail["parentRef"]
        ]),
        json!(["managed", "custom", "Plan", payload, payload.to_string().len(), {"state": "current"},
            {"libraryId": 1, "key": "PAPER001"}])
    );
    assert_eq!(
        detail["detailBytes"],
        detail.to_string().len(),
        "the detail's own size"
    );
    let html = world
        .find(&ItemLocator::Ref(r("NEW00001")))
        .unwrap()
        .html
        .clone()
        .unwrap();
    assert_eq!(
        html,
        "<div data-zs-note-kind=\"custom\">\n<h1>Plan</h1>\n<div data-zs-view=\"custom-html\">\n<h1>Steps</h1>\n\
         <ul>\n<li>one</li>\n<li>two</li>\n</ul>\n</div>\n\n<p data-zs-payload-anchor-container=\"1\">\
         <img data-attachment-key=\"NEW00002\" data-zs-payload-anchor=\"custom-markdown\" alt=\"ZA\" \
         title=\"Zotero Agents artifact payload\" width=\"32\" height=\"32\"></p></div>"
    );
    let page = world
        .list_note_payloads(&r("NEW00001"), &PageRequest::default())
        .unwrap();
    assert_eq!(
        page["payloads"],
        json!([{"payloadType": "custom-markdown", "noteKind": "custom", "version": "managed_note.custom.v1",
            "format": "text", "encoding": "embedded-image-attachment", "estimatedBytes": markdown.len(),
            "source": {"kind": "embedded_attachment", "attachmentRef": {"libraryId": 1, "key": "NEW00002"}},
            "state": "available", "issues": []}])
    );
    let again = write(
        &mut world,
        &mut keys,
        "managedNotes.writeCustom",
        custom(target, markdown),
    )
    .unwrap();
    assert!(
        !again.changed,
        "the parent's custom note is written in place, its value unchanged"
    );
    assert_eq!(effects(&again), [json!(["NEW00001", "unchanged"])]);
    let notes = world
        .get_item_notes(&r("PAPER001"), &PageRequest::default())
        .unwrap();
    assert_eq!(notes["total"], 1);
    // As the reference host leaves it: the rewritten HTML holds the value inline
    // again, and the carrier lost its anchor.
    let page = world
        .list_note_payloads(&r("NEW00001"), &PageRequest::default())
        .unwrap();
    let states: Vec<Value> = page["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!([p["source"]["kind"], p["state"]]))
        .collect();
    assert_eq!(
        states,
        [
            json!(["inline", "available"]),
            json!(["embedded_attachment", "stale"])
        ]
    );
    assert_eq!(
        world
            .get_note_detail(&r("NEW00001"), NoteFormat::Html)
            .unwrap()["payload"],
        payload
    );
}

#[test]
fn a_conversation_note_keeps_its_markdown_in_a_conversation_payload() {
    let (mut world, mut keys) = (library(), Keys { used: 0 });
    let request = custom(
        json!({"kind": "create", "parentRef": {"libraryId": 1, "key": "PAPER001"}}),
        "Hello",
    );
    let written = write(
        &mut world,
        &mut keys,
        "managedNotes.writeConversation",
        request,
    )
    .unwrap();
    assert_eq!(written.operation, "managed_note.write_conversation");
    assert_eq!(
        written.result["note"]["payload"],
        json!({"title": "Plan", "markdown": "Hello"})
    );
    let stored = world
        .get_note_payload(&r("NEW00001"), "conversation-note-markdown")
        .unwrap();
    assert_eq!(
        stored["value"],
        json!({"version": 1, "path": "mcp/conversation-note.md", "format": "markdown", "content": "Hello"})
    );
    assert_eq!(
        json!([stored["summary"]["format"], stored["summary"]["version"]]),
        json!(["json", "managed_note.conversation.v1"])
    );
    let mismatch = json!({"operationId": "u", "target": {"kind": "update", "noteRef": {"libraryId": 1, "key": "NEW00001"}},
        "content": {"title": "T", "markdown": "M"}});
    let error = write(&mut world, &mut keys, "managedNotes.writeCustom", mismatch).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "conflict",
            "managed note kind does not match the writer",
            &json!({"reason": "ambiguous_state", "kind": "note"})
        )
    );
    let blank = custom(
        json!({"kind": "create", "parentRef": {"libraryId": 1, "key": "PAPER001"}}),
        "  ",
    );
    let error = write(&mut world, &mut keys, "managedNotes.writeCustom", blank).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "invalid_request",
            "managed note content is invalid",
            &json!({"reason": "invalid_value", "field": "content.markdown"})
        )
    );
}

fn digest(parent: &str, markdown: &str) -> Value {
    json!({"operationId": "d", "parentRef": {"libraryId": 1, "key": parent}, "markdown": markdown})
}

#[test]
fn artifacts_are_one_per_parent_and_bounded() {
    let (mut world, mut keys) = (library(), Keys { used: 0 });
    let written = write(
        &mut world,
        &mut keys,
        "literatureArtifacts.upsertDigest",
        digest("PAPER001", "# Digest\n\nCats."),
    )
    .unwrap();
    assert_eq!(
        written.result["note"]["payload"],
        json!({"markdown": "Cats."}),
        "the title heading is dropped"
    );
    assert_eq!(written.result["note"]["title"], "Digest");
    let stored = world
        .get_note_payload(&r("NEW00001"), "digest-markdown")
        .unwrap();
    assert_eq!(
        (stored["value"].clone(), stored["summary"]["format"].clone()),
        (json!("Cats."), json!("text"))
    );
    let ambiguous = write(
        &mut world,
        &mut keys,
        "literatureArtifacts.upsertDigest",
        digest("PAPER002", "New"),
    )
    .unwrap_err();
    assert_eq!(
        code(&ambiguous),
        (
            "conflict",
            "managed artifact is ambiguous",
            &json!({"reason": "ambiguous_state", "kind": "note"})
        )
    );
    let many = write(
        &mut world,
        &mut keys,
        "literatureArtifacts.upsertDigest",
        digest("PAPER004", "New"),
    )
    .unwrap_err();
    assert_eq!(
        code(&many),
        (
            "resource_limited",
            "managed note scan is too large",
            &json!({"resource": "items", "limit": 100, "observed": 101})
        )
    );
    let large = "x".repeat(800_000);
    let error = write(
        &mut world,
        &mut keys,
        "literatureArtifacts.upsertDigest",
        digest("PAPER001", &large),
    )
    .unwrap_err();
    let (code, message, details) = code(&error);
    assert_eq!(
        (code, message),
        (
            "resource_limited",
            "managed note write exceeds the Broker limit"
        )
    );
    assert_eq!(
        (details["resource"].clone(), details["limit"].clone()),
        (json!("bytes"), json!(1_048_576))
    );
    assert!(details["observed"].as_u64().unwrap() > 1_048_576);
    let blank = write(
        &mut world,
        &mut keys,
        "literatureArtifacts.upsertDigest",
        digest("PAPER001", " "),
    )
    .unwrap_err();
    assert_eq!(blank.message, "digest markdown is empty");
}

#[test]
fn a_digest_preview_names_its_parent_and_replaces_the_digest_there() {
    use crate::host::answers::HostAnswers;
    use crate::host::session::HookHost;
    let mut host = HookHost::new(library(), HostAnswers::default());
    let parent = json!({"libraryId": 1, "key": "PAPER001"});
    let request = |id: Option<&str>| {
        let mut r = json!({"operation": "literature_artifact.upsert_digest", "parentRef": parent,
            "markdown": "Cats."});
        if let Some(id) = id {
            r["operationId"] = id.into();
        }
        json!([r])
    };
    host.call("mutations.execute", request(Some("d1")), None)
        .unwrap();
    let preview = host.call("mutations.preview", request(None), None).unwrap();
    assert_eq!(preview["outcome"], "would_change");
    assert_eq!(
        preview["plan"],
        json!({"operation": "literature_artifact.upsert_digest",
            "targets": [{"entity": {"kind": "item", "ref": {"libraryId": 1, "key": "NEW00001"}}, "state": "active"},
                {"entity": {"kind": "item", "ref": parent}, "state": "active"}],
            "kind": "digest", "parentRef": parent, "outcome": "replaced",
            "payloadBytes": json!({"markdown": "Cats."}).to_string().len()})
    );
}

#[path = "artifact_tests.rs"]
mod artifacts;
