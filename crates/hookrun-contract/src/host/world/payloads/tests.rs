//! Note payloads read and written as the reference host reads and writes them,
//! case by case after its payload cases (`notePayloadCodec`,
//! `zoteroNotePayloadResolver`, the broker's `listNotePayloads`,
//! `getNotePayload` and `notes.upsertPayload`), on a small library of our own.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::super::HostWorld;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::session::HookHost;

/// `text` as an inline payload span of `payload_type`.
fn span(payload_type: &str, text: &str) -> String {
    format!(
        "<span data-zs-block=\"payload\" data-zs-payload=\"{payload_type}\" data-zs-version=\"1\" \
         data-zs-encoding=\"base64\" data-zs-value=\"{}\"></span>",
        STANDARD.encode(text)
    )
}

/// A carrier envelope of `payload_type` holding `payload`.
fn envelope(payload_type: &str, payload: Value) -> Value {
    json!({"schemaVersion": 1, "payloadStorageVersion": 2,
        "kind": "zotero-skills-workbench-note-payload", "noteKey": "NOTEANCH",
        "noteKind": "k", "payloadType": payload_type, "logicalSchemaVersion": "x.v1",
        "format": "json", "payload": payload})
}

/// A paper with notes: an inline custom block, two inline blocks of one type,
/// a carrier its note anchors and one whose anchor names another attachment,
/// plain text and undecodable blocks.
fn library() -> HostWorld {
    let inline = format!(
        "<div data-zs-note-kind=\"custom\"><h1>Hi</h1>{}</div>",
        span("custom-markdown", "hi")
    );
    let twice = format!("<p>two</p>{}{}", span("x.data", "1"), span("x.data", "2"));
    let mixed = format!(
        "<p>mixed</p>{}{}<span data-zs-payload=\"x.bad\" data-zs-value=\"@@\"></span>\
         <span data-zs-payload='x.plain' data-zs-encoding=\"PLAIN\" data-zs-value=\"a &amp; b\"></span>",
        span("x.json", "{\"a\":1}"),
        span("x.text", "not json")
    );
    HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "Paper"},
            {"key": "NOTEINLN", "itemType": "note", "parentItem": "PAPER001", "note": inline},
            {"key": "NOTETWIC", "itemType": "note", "parentItem": "PAPER001", "note": twice},
            {"key": "NOTEMIXD", "itemType": "note", "parentItem": "PAPER001", "note": mixed},
            {"key": "NOTEANCH", "itemType": "note", "parentItem": "PAPER001",
             "note": "<p>anchored</p><p><img data-zs-payload-anchor=\"x.data\" data-attachment-key=\"CARRIER1\"></p>\
                      <p><img data-zs-payload-anchor=\"x.other\" data-attachment-key=\"ELSEWHER\"></p>"},
            {"key": "IMAGE001", "itemType": "attachment", "parentItem": "NOTEANCH",
             "linkMode": "embedded_image"},
            {"key": "CARRIER1", "itemType": "attachment", "parentItem": "NOTEANCH",
             "payloadEnvelope": envelope("x.data", json!({"a": 1}))},
            {"key": "CARRIER2", "itemType": "attachment", "parentItem": "NOTEANCH",
             "payloadEnvelope": envelope("x.other", json!([1, 2]))},
            {"key": "NOTEPLAN", "itemType": "note", "parentItem": "PAPER001", "note": "<p>plain</p>"},
        ]}))
        .unwrap()
}

fn host() -> HookHost {
    HookHost::new(library(), HostAnswers::default())
}

fn r(key: &str) -> Value {
    json!({"libraryId": 1, "key": key})
}

fn call(host: &mut HookHost, member: &str, args: Value) -> Result<Value, HostError> {
    host.call(member, args, None)
}

fn code(error: &HostError) -> (&str, &Value) {
    (
        error.fields["code"].as_str().unwrap_or_default(),
        &error.fields["details"],
    )
}

fn list(host: &mut HookHost, note: &str, page: Value) -> Value {
    call(host, "library.listNotePayloads", json!([r(note), page])).unwrap()
}

#[test]
fn an_inline_block_is_summarised_from_the_note_html() {
    let mut host = host();
    let page = list(&mut host, "NOTEINLN", json!({}));
    assert_eq!(
        page,
        json!({"payloads": [{"payloadType": "custom-markdown", "noteKind": "custom", "version": "1",
            "format": "markdown", "encoding": "base64", "estimatedBytes": 2,
            "source": {"kind": "inline"}, "state": "available", "issues": []}],
            "limit": 25, "scanned": 1, "total": null, "returned": 1, "hasMore": false,
            "nextCursor": null})
    );
    let value = call(
        &mut host,
        "library.getNotePayload",
        json!([r("NOTEINLN"), {"payloadType": "custom-markdown"}]),
    )
    .unwrap();
    assert_eq!(value["value"], "hi");
}

#[test]
fn block_formats_follow_the_type_and_the_decoded_text() {
    let mut host = host();
    let page = list(&mut host, "NOTEMIXD", json!({}));
    let facts: Vec<Value> = page["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            json!([
                p["payloadType"],
                p["format"],
                p["encoding"],
                p["estimatedBytes"],
                p["state"]
            ])
        })
        .collect();
    assert_eq!(
        facts,
        [
            json!(["x.json", "json", "base64", 7, "available"]),
            json!(["x.text", "text", "base64", 8, "available"]),
            json!(["x.bad", "text", "base64", 2, "invalid"]),
            json!(["x.plain", "text", "plain", 5, "available"]),
        ]
    );
    assert_eq!(
        page["payloads"][2]["issues"],
        json!([{"code": "content_invalid", "retryable": false}])
    );
    assert_eq!(page["payloads"][0]["noteKind"], "");
    let get = |host: &mut HookHost, t: &str| {
        call(
            host,
            "library.getNotePayload",
            json!([r("NOTEMIXD"), {"payloadType": t}]),
        )
    };
    assert_eq!(get(&mut host, "x.json").unwrap()["value"], json!({"a": 1}));
    assert_eq!(get(&mut host, "x.plain").unwrap()["value"], "a & b");
    let bad = get(&mut host, "x.bad").unwrap_err();
    assert_eq!(
        code(&bad),
        (
            "execution_failed",
            &json!({"phase": "read", "recovery": "manual_repair"})
        )
    );
    assert_eq!(bad.fields["retryable"], false);
}

#[test]
fn carriers_follow_the_inline_blocks_with_their_anchor_status() {
    let mut host = host();
    let page = list(&mut host, "NOTEANCH", json!({}));
    assert_eq!(page["scanned"], 3, "the embedded image is looked at too");
    assert_eq!(
        page["payloads"],
        json!([
            {"payloadType": "x.data", "noteKind": "k", "version": "x.v1", "format": "json",
             "encoding": "embedded-image-attachment", "estimatedBytes": 7,
             "source": {"kind": "embedded_attachment", "attachmentRef": r("CARRIER1")},
             "state": "available", "issues": []},
            {"payloadType": "x.other", "noteKind": "k", "version": "x.v1", "format": "json",
             "encoding": "embedded-image-attachment", "estimatedBytes": 5,
             "source": {"kind": "embedded_attachment", "attachmentRef": r("CARRIER2")},
             "state": "stale", "issues": [{"code": "anchor_stale", "retryable": true}]},
        ])
    );
    let stale = call(
        &mut host,
        "library.getNotePayload",
        json!([r("NOTEANCH"), {"payloadType": "x.other"}]),
    )
    .unwrap_err();
    assert_eq!(
        code(&stale),
        (
            "execution_failed",
            &json!({"phase": "read", "recovery": "retry_same_operation"})
        )
    );
    assert_eq!(stale.fields["retryable"], true);
    assert_eq!(stale.message, "note payload is unavailable");
    let attachments = call(
        &mut host,
        "library.getItemAttachments",
        json!([r("NOTEANCH")]),
    )
    .unwrap();
    let roles: Vec<&Value> = attachments["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["role"])
        .collect();
    assert_eq!(roles, ["note_image", "note_payload", "note_image"]);
}

#[test]
fn pages_take_inline_blocks_then_attachments_and_are_bounded() {
    let mut host = host();
    let first = list(&mut host, "NOTEMIXD", json!({"limit": 3}));
    assert_eq!(
        (first["returned"].clone(), first["hasMore"].clone()),
        (json!(3), json!(true))
    );
    let cursor = first["nextCursor"].clone();
    let second = list(
        &mut host,
        "NOTEMIXD",
        json!({"limit": 3, "cursor": cursor.clone()}),
    );
    assert_eq!(second["payloads"][0]["payloadType"], "x.plain");
    assert_eq!(
        (second["scanned"].clone(), second["hasMore"].clone()),
        (json!(1), json!(false))
    );
    let exact = list(&mut host, "NOTEMIXD", json!({"limit": 4}));
    assert_eq!(
        exact["hasMore"], true,
        "a full page of inline blocks leaves the attachments"
    );
    let rest = list(
        &mut host,
        "NOTEMIXD",
        json!({"limit": 4, "cursor": exact["nextCursor"]}),
    );
    assert_eq!(
        (rest["returned"].clone(), rest["hasMore"].clone()),
        (json!(0), json!(false))
    );
    let carriers = list(&mut host, "NOTEANCH", json!({"limit": "2"}));
    assert_eq!(
        (carriers["scanned"].clone(), carriers["returned"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(carriers["limit"], 2);
    let too_many = call(
        &mut host,
        "library.listNotePayloads",
        json!([r("NOTEANCH"), {"limit": 101}]),
    )
    .unwrap_err();
    assert_eq!(
        code(&too_many),
        (
            "resource_limited",
            &json!({"resource": "items", "limit": 100, "observed": 101})
        )
    );
    for (cursor, message) in [("!", "malformed"), ("AAAA", "invalid")] {
        let error = call(
            &mut host,
            "library.listNotePayloads",
            json!([r("NOTEANCH"), {"cursor": cursor}]),
        )
        .unwrap_err();
        assert_eq!(
            code(&error),
            (
                "invalid_request",
                &json!({"reason": "invalid_value", "field": "cursor"})
            )
        );
        assert!(error.message.contains(message), "{}", error.message);
    }
    let foreign = call(
        &mut host,
        "library.listNotePayloads",
        json!([r("NOTEANCH"), {"cursor": cursor}]),
    )
    .unwrap_err();
    assert!(
        foreign.message.contains("does not match source"),
        "{}",
        foreign.message
    );
}

#[test]
fn get_note_payload_checks_the_type_then_the_note_then_the_blocks() {
    let mut host = host();
    let error = call(
        &mut host,
        "library.getNotePayload",
        json!([{"key": "bad"}, {"payloadType": "  "}]),
    )
    .unwrap_err();
    assert_eq!(
        code(&error),
        (
            "invalid_request",
            &json!({"reason": "missing_field", "field": "payloadType"})
        )
    );
    assert_eq!(error.message, "payload type is required");
    let missing = call(
        &mut host,
        "library.getNotePayload",
        json!([r("NOTEPLAN"), {"payloadType": "x.none"}]),
    )
    .unwrap_err();
    assert_eq!(
        code(&missing),
        (
            "not_found",
            &json!({"kind": "note", "opaqueKey": "NOTEPLAN"})
        )
    );
    assert_eq!(missing.message, "note not found");
    let twice = call(
        &mut host,
        "library.getNotePayload",
        json!([r("NOTETWIC"), {"payloadType": "x.data"}]),
    )
    .unwrap_err();
    assert_eq!(
        code(&twice),
        (
            "conflict",
            &json!({"reason": "ambiguous_state", "kind": "note"})
        )
    );
    assert_eq!(twice.message, "note payload is ambiguous");
    let not_a_note = call(
        &mut host,
        "library.getNotePayload",
        json!([r("PAPER001"), {"payloadType": "x"}]),
    )
    .unwrap_err();
    assert_eq!(
        code(&not_a_note),
        (
            "invalid_ref",
            &json!({"kind": "note", "reason": "wrong_kind"})
        )
    );
}

fn upsert(id: &str, schema_version: &str, value: Value) -> Value {
    json!([{"operationId": id, "noteRef": r("NOTEPLAN"), "payload": {"payloadType": "x.data",
        "noteKind": "k", "schemaVersion": schema_version, "format": "json", "value": value}}])
}

#[test]
fn an_upserted_payload_is_stored_in_a_carrier_the_note_anchors() {
    let mut host = host();
    let written = call(
        &mut host,
        "notes.upsertPayload",
        upsert("p1", "x.v1", json!({"a": 1})),
    )
    .unwrap();
    assert_eq!(written["outcome"], "committed");
    assert_eq!(written["result"]["outcome"], "created");
    let carrier = json!({"libraryId": 1, "key": "NEW00001"});
    assert_eq!(
        written["result"]["payload"],
        json!({"payloadType": "x.data", "noteKind": "k", "version": "x.v1", "format": "json",
            "encoding": "embedded-image-attachment", "estimatedBytes": 7,
            "source": {"kind": "embedded_attachment", "attachmentRef": carrier},
            "state": "available", "issues": []})
    );
    let effects: Vec<Value> = written["receipt"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| json!([c["entity"]["ref"]["key"], c["effect"]]))
        .collect();
    assert_eq!(
        effects,
        [
            json!(["NOTEPLAN", "updated"]),
            json!(["NEW00001", "created"])
        ]
    );
    let read = call(
        &mut host,
        "library.getNotePayload",
        json!([r("NOTEPLAN"), {"payloadType": "x.data"}]),
    )
    .unwrap();
    assert_eq!(read["value"], json!({"a": 1}));
    assert_eq!(read["summary"]["source"]["kind"], "embedded_attachment");
    assert_eq!(read["summary"]["version"], "x.v1");
    let attachments = call(
        &mut host,
        "library.getItemAttachments",
        json!([r("NOTEPLAN")]),
    )
    .unwrap();
    let only = &attachments["attachments"][0];
    assert_eq!(attachments["total"], 1);
    assert_eq!(
        json!([
            only["role"],
            only["linkMode"],
            only["contentType"],
            only["filename"]
        ]),
        json!(["note_payload", "embedded_image", "image/png", "image.png"])
    );
    // The carrier's file is there to read, its envelope naming the payload.
    assert_eq!(only["file"]["path"], "attachments/NEW00001/image.png");
    let png = call(
        &mut host,
        "file.readBytes",
        json!(["attachments/NEW00001/image.png"]),
    )
    .unwrap();
    let png = STANDARD.decode(png["$bytes"].as_str().unwrap()).unwrap();
    let text = String::from_utf8_lossy(&png);
    assert!(
        text.contains("zsPL{") && text.contains("\"payloadType\":\"x.data\""),
        "{text}"
    );
    let detail = call(
        &mut host,
        "library.getNoteDetail",
        json!([r("NOTEPLAN"), {"format": "html"}]),
    )
    .unwrap();
    assert_eq!(detail["kind"], "ordinary");
    assert!(
        detail["content"]
            .as_str()
            .unwrap()
            .ends_with("<p data-zs-payload-anchor-container=\"1\"><img data-attachment-key=\"NEW00001\" \
                        data-zs-payload-anchor=\"x.data\" alt=\"ZA\" title=\"Zotero Agents artifact payload\" \
                        width=\"32\" height=\"32\"></p>"),
        "{detail}"
    );
}

#[test]
fn repeats_are_unchanged_and_new_values_or_versions_replace_the_carrier() {
    let mut host = host();
    call(
        &mut host,
        "notes.upsertPayload",
        upsert("p1", "x.v1", json!({"a": 1})),
    )
    .unwrap();
    let again = call(
        &mut host,
        "notes.upsertPayload",
        upsert("p2", "x.v1", json!({"a": 1})),
    )
    .unwrap();
    assert_eq!(
        (again["outcome"].clone(), again["result"]["outcome"].clone()),
        (json!("unchanged"), json!("unchanged"))
    );
    let value = call(
        &mut host,
        "notes.upsertPayload",
        upsert("p3", "x.v1", json!({"a": 2})),
    )
    .unwrap();
    assert_eq!(value["result"]["outcome"], "replaced");
    let effects: Vec<Value> = value["receipt"]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| json!([c["entity"]["ref"]["key"], c["effect"]]))
        .collect();
    assert_eq!(
        effects,
        [
            json!(["NOTEPLAN", "updated"]),
            json!(["NEW00002", "created"]),
            json!(["NEW00001", "deleted"])
        ]
    );
    let version = call(
        &mut host,
        "notes.upsertPayload",
        upsert("p4", "x.v2", json!({"a": 2})),
    )
    .unwrap();
    assert_eq!(
        version["result"]["outcome"], "replaced",
        "a schema version alone is a change"
    );
    assert_eq!(version["result"]["payload"]["version"], "x.v2");
    let attachments = call(
        &mut host,
        "library.getItemAttachments",
        json!([r("NOTEPLAN")]),
    )
    .unwrap();
    assert_eq!(attachments["total"], 1, "one carrier is left");
    let ambiguous = json!([{"operationId": "t", "noteRef": r("NOTETWIC"), "payload": {"payloadType": "x.data",
        "noteKind": "k", "schemaVersion": "v", "format": "json", "value": 1}}]);
    let error = call(&mut host, "notes.upsertPayload", ambiguous).unwrap_err();
    assert_eq!(
        code(&error),
        (
            "conflict",
            &json!({"reason": "ambiguous_state", "kind": "note"})
        )
    );
}

#[test]
fn an_upsert_replaces_an_inline_block_of_its_type() {
    let mut host = host();
    let request = json!([{"operationId": "i", "noteRef": r("NOTEMIXD"), "payload": {"payloadType": "x.json",
        "noteKind": "k", "schemaVersion": "v1", "format": "json", "value": {"a": 1}}}]);
    let written = call(&mut host, "notes.upsertPayload", request).unwrap();
    assert_eq!(
        written["result"]["outcome"], "replaced",
        "an inline block has no logical version"
    );
    let page = list(&mut host, "NOTEMIXD", json!({}));
    let types: Vec<&Value> = page["payloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["payloadType"])
        .collect();
    assert_eq!(
        types,
        ["x.text", "x.bad", "x.plain", "x.json"],
        "the inline block gave way to a carrier"
    );
}

#[test]
fn payloads_past_a_mebibyte_are_refused() {
    let zeros = Value::Array(vec![json!(0); 300_000]);
    let world = HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle"},
            {"key": "NOTEWIDE", "itemType": "note", "parentItem": "PAPER001",
             "note": "<img data-zs-payload-anchor=\"x.zeros\" data-attachment-key=\"CARRIER1\">"},
            {"key": "CARRIER1", "itemType": "attachment", "parentItem": "NOTEWIDE",
             "payloadEnvelope": envelope("x.zeros", zeros)},
            {"key": "NOTEHUGE", "itemType": "note", "parentItem": "PAPER001",
             "note": format!("<p>{}</p>", "x".repeat(1_048_576))},
        ]}))
        .unwrap();
    let mut host = HookHost::new(world, HostAnswers::default());
    let wide = call(
        &mut host,
        "library.getNotePayload",
        json!([r("NOTEWIDE"), {"payloadType": "x.zeros"}]),
    )
    .unwrap_err();
    assert_eq!(
        (code(&wide), wide.message.as_str()),
        (
            (
                "resource_limited",
                &json!({"resource": "bytes", "limit": 1_048_576})
            ),
            "note payload exceeds the limit"
        ),
        "written out indented, the value passes the limit"
    );
    let huge = call(
        &mut host,
        "library.listNotePayloads",
        json!([r("NOTEHUGE")]),
    )
    .unwrap_err();
    assert_eq!(
        code(&huge),
        (
            "resource_limited",
            &json!({"resource": "bytes", "limit": 1_048_576})
        )
    );
    let huge = call(
        &mut host,
        "library.getNotePayload",
        json!([r("NOTEHUGE"), {"payloadType": "x"}]),
    )
    .unwrap_err();
    assert_eq!(huge.message, "note payload html exceeds 1048576 bytes");
}

/// A digest known only by its inline payload block (no fixture `noteKind`).
fn digest_by_payload() -> HookHost {
    let note = format!(
        "<div data-zs-note-kind=\"digest\"><h1>Digest</h1><p>Owls hunt at night.</p>{}</div>",
        span("digest-markdown", "Owls hunt at night.")
    );
    let world = HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "Birds"},
            {"key": "NOTEDIGS", "itemType": "note", "parentItem": "PAPER001", "note": note}]}))
        .unwrap();
    HookHost::new(world, HostAnswers::default())
}

#[test]
fn a_note_managed_by_its_payload_is_an_analysis_to_searches_and_previews() {
    let mut host = digest_by_payload();
    let found = call(
        &mut host,
        "library.searchItems",
        json!([{"query": "owls", "sourceKinds": ["analysis"]}]),
    )
    .unwrap();
    assert_eq!(
        found["results"][0]["matches"][0]["source"],
        json!({"kind": "analysis", "artifactType": "digest", "noteRef": r("NOTEDIGS")})
    );
    let preview = call(
        &mut host,
        "mutations.preview",
        json!([{"operation": "literature_artifact.upsert_digest", "parentRef": r("PAPER001"),
                "markdown": "Owls sleep by day."}]),
    )
    .unwrap();
    assert_eq!(preview["plan"]["outcome"], "replaced");
}

#[test]
fn a_carrier_file_is_a_png_whose_zspl_chunk_holds_the_envelope() {
    let mut host = host();
    let attachments = call(
        &mut host,
        "library.getItemAttachments",
        json!([r("NOTEANCH")]),
    )
    .unwrap();
    let carrier = attachments["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["ref"]["key"] == "CARRIER1")
        .unwrap();
    let path = carrier["file"]["path"].as_str().unwrap().to_owned();
    assert_eq!(path, "attachments/CARRIER1/image.png");
    let read = call(&mut host, "file.readBytes", json!([path])).unwrap();
    let bytes = STANDARD.decode(read["$bytes"].as_str().unwrap()).unwrap();
    assert_eq!(carrier["file"]["sizeBytes"], bytes.len());
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // Chunks in order; the envelope is the zsPL chunk's data, before IEND.
    let mut at = 8;
    let mut kinds = Vec::new();
    let mut found = None;
    while at < bytes.len() {
        let length = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = String::from_utf8(bytes[at + 4..at + 8].to_vec()).unwrap();
        let data = &bytes[at + 8..at + 8 + length];
        let crc = u32::from_be_bytes(bytes[at + 8 + length..at + 12 + length].try_into().unwrap());
        assert_eq!(
            crc,
            crc32fast::hash(&bytes[at + 4..at + 8 + length]),
            "{kind}"
        );
        if kind == "zsPL" {
            found = Some(serde_json::from_slice::<Value>(data).unwrap());
        }
        kinds.push(kind);
        at += 12 + length;
    }
    assert_eq!(kinds, ["IHDR", "IDAT", "zsPL", "IEND"]);
    assert_eq!(found.unwrap(), envelope("x.data", json!({"a": 1})));
}
