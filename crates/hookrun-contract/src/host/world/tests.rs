//! Host world tests over the fixtures.

use std::fs;
use std::sync::Arc;

use serde_json::{Value, json};

use super::files::iso_from_millis;
use super::writes::{Keys, Prepared, StoredFile};
use super::*;
use crate::host::Budget;
use crate::host::members::Member;
use crate::plan::{ItemLocator, World};
use crate::selection::{PortableItemRef, SelectionContext};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures");

fn load(name: &str) -> Value {
    let text = fs::read_to_string(format!("{FIXTURES}/selections/{name}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn world(name: &str) -> HostWorld {
    let sel = SelectionContext::from_value(&load(name)).unwrap();
    HostWorld::from_selection(&sel).with_files_dir(format!("{FIXTURES}/files"))
}

#[test]
fn building_a_world_from_a_selection_reads_no_item_data() {
    // Attachments with their parents, as a library-wide selection has them.
    let entry = |i: u32| {
        json!({"item": {"id": 2 * i + 2, "key": format!("A{i}"), "itemType": "attachment", "libraryID": 1,
            "parentItemID": 2 * i + 1, "data": {"key": format!("A{i}"), "contentType": "application/pdf",
            "path": format!("a{i}.pdf"), "tags": [], "relations": {}}},
          "parent": {"id": 2 * i + 1, "key": format!("P{i}"), "itemType": "journalArticle", "libraryID": 1,
            "data": {"title": "T", "abstractNote": "A", "creators": [{"lastName": "L", "creatorType": "author"}],
              "tags": [], "collections": [], "relations": {}}},
          "filePath": format!("a{i}.pdf"), "mimeType": "application/pdf"})
    };
    let value = json!({"items": {"parents": [], "children": [], "notes": [],
        "attachments": (0..3).map(entry).collect::<Vec<_>>()}, "sampledAt": "t"});
    let world = HostWorld::from_selection(&SelectionContext::from_value(&value).unwrap());
    assert_eq!(world.records.len(), 6);
    assert!(world.records.iter().all(|r| !r.zotero.is_read()));
    assert!(world.records.iter().all(|r| !r.fields.is_read()));
    // What hooks read is still there, read on demand.
    let parent = world.records.iter().find(|r| r.id == Some(1)).unwrap();
    assert_eq!(parent.zotero.get().field("abstractNote"), Some("A"));
    assert_eq!(parent.zotero.get().creators.len(), 1);
    assert_eq!(parent.title.as_deref(), Some("T"));
    let attachment = world.records.iter().find(|r| r.id == Some(2)).unwrap();
    assert_eq!(
        (attachment.filename.as_deref(), attachment.path.as_deref()),
        (Some("a0.pdf"), Some("a0.pdf"))
    );
    assert_eq!(attachment.content_type.as_deref(), Some("application/pdf"));
    let read: Vec<_> = world.records.iter().map(|r| r.fields.is_read()).collect();
    assert_eq!(read, [true, true, false, false, false, false]);
    // A change keeps what was read and what was not.
    let mut changed = world.records[3].clone();
    changed.title = Some("New".into());
    assert_eq!(changed.title.as_deref(), Some("New"));
    assert_eq!(changed.path.as_deref(), Some("a1.pdf"));
    assert_ne!(changed, world.records[3]);
    assert_eq!(world.records[4], world.records[4].clone());
}

fn r(key: &str) -> PortableItemRef {
    PortableItemRef {
        library_id: 1,
        key: key.into(),
    }
}

#[test]
fn grouped_nested_data_is_readable() {
    let w = world("grouped-parent-with-attachments-notes");
    let detail = w.get_item_detail(&r("ATTPDF01")).unwrap();
    let size = fs::metadata(format!("{FIXTURES}/files/attachments/ATTPDF01/cats.pdf"))
        .unwrap()
        .len();
    assert_eq!(
        detail,
        json!({"kind": "attachment", "item": {"ref": {"libraryId": 1, "key": "ATTPDF01"},
            "parentRef": {"libraryId": 1, "key": "PARENT01"}, "revision": "1",
            "title": "Full Text PDF", "filename": "cats.pdf", "contentType": "application/pdf",
            "charset": null, "url": null, "linkMode": "stored_file", "role": "ordinary",
            "createdAt": "2026-02-01T10:05:00Z",
            "file": {"state": "available", "path": "attachments/ATTPDF01/cats.pdf",
                     "sizeBytes": size, "modifiedAt": null}}})
    );
    assert_eq!(
        w.get_item_detail(&r("PARENT01")).unwrap()["kind"],
        "regular"
    );
    let notes = w
        .get_item_notes(&r("PARENT01"), &PageRequest::default())
        .unwrap();
    assert_eq!(notes["notes"].as_array().unwrap().len(), 2);
    let note = w.get_note_detail(&r("NOTERF01"), NoteFormat::Html).unwrap();
    assert_eq!(note["kind"], "ordinary");
    assert_eq!(note["format"], "html");
    assert_eq!(note["revision"], "1");
    assert!(
        note["content"]
            .as_str()
            .unwrap()
            .starts_with("<h1>References")
    );
    let text = w.get_note_detail(&r("NOTERF01"), NoteFormat::Text).unwrap();
    assert!(
        text["content"].as_str().unwrap().starts_with("References"),
        "{text}"
    );
    let by_id = w.item_attachments(&ItemLocator::GroupedId(10)).unwrap();
    assert_eq!(by_id.len(), 3);
    assert_eq!(
        w.get_item_detail(&r("NOPE")).unwrap_err().code(),
        "not_found"
    );
    assert_eq!(
        w.get_note_detail(&r("ATTPDF01"), NoteFormat::Html)
            .unwrap_err()
            .fields["code"],
        "invalid_ref",
        "an attachment is not a note"
    );
}

#[test]
fn canonical_inputs_use_the_library_and_the_path_convention() {
    let w = world("canonical-parent")
        .with_library(&load("library-cats-and-dogs"))
        .unwrap();
    let page = w
        .get_item_attachments(&r("PARENT01"), &PageRequest::default())
        .unwrap();
    assert_eq!(page["attachments"].as_array().unwrap().len(), 3);
    assert_eq!(page["hasMore"], false);
    let digest = w.get_note_detail(&r("NOTEDG01"), NoteFormat::Html).unwrap();
    assert_eq!(digest["health"]["state"], "current");
    assert!(
        digest.get("content").is_none(),
        "managed notes carry their payload"
    );
    assert_eq!(digest["kind"], "managed");
    assert_eq!(digest["noteKind"], "digest");
    let single = world("canonical-single-pdf");
    let detail = single.get_item_detail(&r("ATTPDF01")).unwrap();
    assert_eq!(
        detail["item"]["file"]["path"],
        "attachments/ATTPDF01/cats.pdf"
    );
    let no_files = HostWorld::from_selection(
        &SelectionContext::from_value(&load("canonical-single-pdf")).unwrap(),
    );
    assert_eq!(
        no_files.get_item_detail(&r("ATTPDF01")).unwrap()["item"]["file"],
        json!({"state": "missing"})
    );
}

#[test]
fn paging() {
    let items: Vec<Value> = (0..130)
        .map(|i| {
            json!({"ref": {"libraryId": 1, "key": format!("A{i:03}")}, "kind": "attachment",
                        "parentRef": {"libraryId": 1, "key": "P"}, "filename": "x.pdf"})
        })
        .collect();
    let mut all = vec![json!({"ref": {"libraryId": 1, "key": "P"}})];
    all.extend(items);
    let w = HostWorld::default()
        .with_library(&json!({"items": all}))
        .unwrap();
    let first = w
        .get_item_attachments(&r("P"), &PageRequest::default())
        .unwrap();
    assert_eq!(first["attachments"].as_array().unwrap().len(), 25);
    assert_eq!(first["hasMore"], true);
    let after_first = first["nextCursor"].as_str().map(str::to_owned);
    let big = PageRequest {
        limit: Some(json!(500)),
        cursor: after_first.clone(),
    };
    // As the reference host: a page past its largest size is refused, naming it.
    let err = w.get_item_attachments(&r("P"), &big).unwrap_err();
    assert!(
        matches!(&err, HostWorldError::ResourceLimited { limit: 100, observed, .. } if *observed == json!(500)),
        "{err:?}"
    );
    let second = PageRequest {
        limit: Some(json!("100")),
        cursor: after_first.clone(),
    };
    let second = w.get_item_attachments(&r("P"), &second).unwrap();
    assert_eq!(second["attachments"].as_array().unwrap().len(), 100);
    assert_eq!(second["attachments"][0]["ref"]["key"], "A025");
    let last = PageRequest {
        limit: Some(json!(100)),
        cursor: second["nextCursor"].as_str().map(str::to_owned),
    };
    let third = w.get_item_attachments(&r("P"), &last).unwrap();
    assert_eq!(
        (
            third["attachments"].as_array().unwrap().len(),
            third["hasMore"].clone()
        ),
        (5, json!(false))
    );
    assert_eq!(third["attachments"][0]["ref"]["key"], "A125");
    assert_eq!(third["nextCursor"], Value::Null);
    for (bad, code) in [
        (
            PageRequest {
                limit: Some(json!(0)),
                cursor: None,
            },
            "resource_limited",
        ),
        (
            PageRequest {
                limit: Some(json!("many")),
                cursor: None,
            },
            "resource_limited",
        ),
        (
            PageRequest {
                limit: None,
                cursor: Some("x".into()),
            },
            "invalid_request",
        ),
        (
            PageRequest {
                limit: None,
                cursor: Some("25".into()),
            },
            "invalid_request",
        ),
    ] {
        assert_eq!(
            w.get_item_attachments(&r("P"), &bad).unwrap_err().code(),
            code
        );
    }
}

#[test]
fn library_errors_name_the_pointer() {
    let bad = [
        (json!({}), "/items: expected an array"),
        (json!({"items": [5]}), "/items/0: expected an object"),
        (
            json!({"items": [{"kind": "regular"}]}),
            "/items/0: ref (or key) is required",
        ),
        (
            json!({"items": [{"ref": {"libraryId": 1, "key": "K"}, "kind": "book"}]}),
            "/items/0: kind: expected regular, attachment, note or annotation",
        ),
        (
            json!({"items": [{"ref": {"libraryId": 1, "key": "K"}, "title": 1}]}),
            "/items/0: title: expected a string",
        ),
        (
            json!({"items": [{"ref": {"libraryId": 1}}]}),
            "/items/0/ref: Expected a complete portable item reference",
        ),
    ];
    for (value, want) in bad {
        assert_eq!(
            HostWorld::default()
                .with_library(&value)
                .unwrap_err()
                .to_string(),
            want
        );
    }
}

#[test]
fn files_stay_inside_the_files_dir() {
    let w = world("grouped-single-pdf");
    assert_eq!(
        w.read_text("attachments/ATTMD001/cats.md").unwrap(),
        "# Cats\n"
    );
    assert_eq!(w.read_bytes("example/a.pdf").unwrap(), b"%PDF-1.4 a\n");
    assert!(w.file_exists("attachments"));
    for unsafe_path in [
        "../selections/grouped-empty.json",
        "/etc/hostname",
        "a/../../x",
        "C:\\x",
    ] {
        assert!(!w.file_exists(unsafe_path));
        assert_eq!(
            w.read_text(unsafe_path).unwrap_err().code(),
            "invalid_request"
        );
    }
    let stat = w.stat("example/a.md").unwrap();
    assert_eq!(
        (stat["kind"].clone(), stat["sizeBytes"].clone()),
        (json!("file"), json!(4))
    );
    assert!(stat["modifiedAt"].as_str().unwrap().ends_with('Z'));
    let listing = w.list("example", false, None).unwrap();
    let names: Vec<_> = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["relativePath"].clone())
        .collect();
    assert_eq!(names, [json!("a.md"), json!("a.pdf"), json!("b.pdf")]);
    assert_eq!(listing["totalFileBytes"], 4 + 11 + 11);
    let deep = w.list(".", true, Some(2)).unwrap();
    assert!(
        deep["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["relativePath"] == "attachments/ATTPDF01")
    );
    assert!(
        !deep["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["relativePath"] == "attachments/ATTPDF01/cats.pdf")
    );
    assert!(HostWorld::default().read_text("x").is_err());
}

#[test]
fn iso_dates() {
    assert_eq!(iso_from_millis(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(
        iso_from_millis(1_709_251_199_123),
        "2024-02-29T23:59:59.123Z"
    );
    assert_eq!(iso_from_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
}

#[test]
fn recursive_listings_survive_link_loops_and_refuse_trees_past_the_bounds() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("papers/sub")).unwrap();
    std::fs::write(dir.path().join("papers/sub/a.md"), "a").unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("papers"),
        dir.path().join("papers/sub/loop"),
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.path(), dir.path().join("papers/root")).unwrap();
    let w = HostWorld::default().with_files_dir(dir.path());
    let listing = w.list("papers", true, None).unwrap();
    let names: Vec<_> = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["relativePath"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["root", "root/papers", "sub", "sub/a.md", "sub/loop"]
    );

    let deep: std::path::PathBuf = (0..80).map(|i| format!("d{i}")).collect();
    std::fs::create_dir_all(dir.path().join("deep").join(&deep)).unwrap();
    let err = w.list("deep", true, None).unwrap_err();
    assert_eq!(err.code(), "invalid_request");
    let text = err.to_string();
    assert!(text.contains("deeper than 64 levels"), "{text}");
    assert!(!text.contains(&dir.path().display().to_string()), "{text}");
    // A depth the caller asks for is a cut-off, not an error.
    assert!(w.list("deep", true, Some(10)).is_ok());
}

#[test]
fn library_items_in_zotero_export_shape_answer_in_the_reference_shapes() {
    let library = json!({"items": [
        {"key": "PAPER001", "itemType": "journalArticle", "title": "Cats",
         "DOI": "10.1000/cats", "date": "2021-05-01", "publicationTitle": "Feline Review",
         "creators": [{"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"},
                      {"creatorType": "author", "name": "Cat Society"}],
         "tags": [{"tag": "cats"}], "collections": ["COLL0001"],
         "relations": {"dc:relation": ["http://zotero.org/users/1/items/PAPER002"]},
         "dateAdded": "2021-01-01T00:00:00Z", "dateModified": "2021-02-01T00:00:00Z", "version": 7},
        {"ref": {"libraryId": 1, "key": "PAPER002"}, "itemType": "book",
         "fields": {"title": "Dogs", "ISBN": "978-0"}},
        {"key": "NOTE0001", "parentItem": "PAPER001", "itemType": "note", "note": "<p>Hello <b>cats</b></p>"}
    ]});
    let w = HostWorld::default().with_library(&library).unwrap();
    let detail = w.get_item_detail(&r("PAPER001")).unwrap();
    let item = &detail["item"];
    assert_eq!(detail["kind"], "regular");
    assert_eq!(item["fields"]["DOI"], "10.1000/cats");
    assert_eq!(item["year"], "2021");
    assert_eq!(item["publicationTitle"], "Feline Review");
    assert_eq!(item["revision"], "7");
    assert_eq!(item["tags"], json!(["cats"]));
    assert_eq!(
        item["collectionRefs"],
        json!([{"libraryId": 1, "key": "COLL0001"}])
    );
    assert_eq!(
        item["relatedRefs"],
        json!([{"libraryId": 1, "key": "PAPER002"}])
    );
    assert_eq!(
        item["childCounts"],
        json!({"notes": 1, "attachments": 0, "annotations": 0})
    );
    assert_eq!(item["createdAt"], "2021-01-01T00:00:00Z");
    assert_eq!(item["modifiedAt"], "2021-02-01T00:00:00Z");
    assert_eq!(
        item["creators"],
        json!([{"representation": "two_field", "creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"},
               {"representation": "single_field", "creatorType": "author", "name": "Cat Society"}])
    );
    let notes = w
        .get_item_notes(&r("PAPER001"), &PageRequest::default())
        .unwrap();
    assert_eq!(notes["notes"][0]["textExcerpt"], "Hello cats");
    assert_eq!(notes["total"], 1);
    assert_eq!(notes["nextCursor"], Value::Null);
    let exported = w
        .export_portable_items(
            &json!([{"libraryId": 1, "key": "PAPER002"}]),
            &Budget::unlimited(),
        )
        .unwrap();
    assert_eq!(exported[0]["fields"]["ISBN"], "978-0");
    assert_eq!(
        exported[0]["schema"],
        "zotero-agents.portable-regular-item.v1"
    );
    // `query` is not a criterion of the reference's listing: everything is listed.
    let listed = w.list_items(&json!({"query": "lovelace"})).unwrap();
    assert_eq!(listed["returned"], 2);
    assert_eq!(listed["criteria"]["filter"], Value::Null);
    assert!(listed["criteria"].get("query").is_none());
    let listed = w.list_items(&json!({"filter": "  LoveLace "})).unwrap();
    assert_eq!(listed["returned"], 1);
    assert_eq!(listed["items"][0]["ref"]["key"], "PAPER001");
    assert_eq!(listed["criteria"]["filter"], "lovelace");
    for (input, reason) in [
        (json!({"filter": 5}), "invalid_type"),
        (json!({"tag": "x".repeat(4001)}), "invalid_value"),
    ] {
        let err = w.list_items(&input).unwrap_err();
        assert!(
            matches!(&err, HostWorldError::InvalidField { reason: r, .. } if *r == reason),
            "{err:?}"
        );
    }
    let err = w
        .export_portable_items(
            &json!([{"libraryId": 1, "key": "NOTE0001"}]),
            &Budget::unlimited(),
        )
        .unwrap_err();
    assert_eq!(err.code(), "invalid_ref");
}

#[test]
fn library_members_zotero_does_not_know_are_refused_with_their_pointer() {
    for (item, want) in [
        (
            json!({"key": "K", "doi": "10.1/x"}),
            "/items/0/doi: unknown member",
        ),
        (
            json!({"key": "K", "fields": {"Doi": "x"}}),
            "/items/0/fields/Doi: Doi is not a Zotero field",
        ),
        (
            json!({"key": "K", "creators": [{"last": "x"}]}),
            "/items/0/creators/0: unknown creator member last",
        ),
    ] {
        let err = HostWorld::default()
            .with_library(&json!({"items": [item]}))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(want), "{err}");
    }
}

fn paper_world() -> HostWorld {
    HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "Cats", "DOI": "10.1/cats",
             "publicationTitle": "Feline Review", "tags": ["status:need-analysis"]}
        ]}))
        .unwrap()
}

fn write(world: &mut HostWorld, keys: &mut Keys, member: &str, request: Value) -> Prepared {
    let prepared = world
        .prepare_write(Member::parse(member).unwrap(), &request, keys)
        .unwrap();
    world.commit(&prepared);
    prepared
}

#[test]
fn managed_artifacts_are_singletons_per_parent_and_repeats_change_nothing() {
    let mut w = paper_world();
    let mut keys = Keys { used: 0 };
    let parent = json!({"libraryId": 1, "key": "PAPER001"});
    let digest = json!({"operationId": "d1", "parentRef": parent, "markdown": "# Digest\n\nCats."});
    let first = write(
        &mut w,
        &mut keys,
        "literatureArtifacts.upsertDigest",
        digest.clone(),
    );
    assert!(first.changed);
    assert_eq!(first.operation, "literature_artifact.upsert_digest");
    assert_eq!(first.result["note"]["kind"], "managed");
    assert_eq!(first.result["note"]["noteKind"], "digest");
    let again = write(
        &mut w,
        &mut keys,
        "literatureArtifacts.upsertDigest",
        digest,
    );
    assert!(!again.changed, "the same payload is unchanged");
    let notes = w
        .get_item_notes(&r("PAPER001"), &PageRequest::default())
        .unwrap();
    assert_eq!(notes["total"], 1, "one digest per parent");
    let both = write(
        &mut w,
        &mut keys,
        "literatureArtifacts.applyAnalysis",
        json!({"operationId": "a1", "parentRef": parent, "digest": {"markdown": "# Digest 2"},
            "score": serde_json::from_str::<Value>(include_str!("payloads/testdata/score.json")).unwrap()}),
    );
    assert_eq!(both.operation, "managed_note.apply_parent_set");
    assert_eq!(both.result["notes"].as_array().unwrap().len(), 2);
    let notes = w
        .get_item_notes(&r("PAPER001"), &PageRequest::default())
        .unwrap();
    assert_eq!(
        notes["total"], 2,
        "the digest was replaced, the score added"
    );
    assert_eq!(keys.used, 5, "two notes and three payload carriers");
}

#[test]
fn attachments_created_from_a_stored_file_are_listed_and_available() {
    let mut w = paper_world();
    let mut keys = Keys { used: 0 };
    let created = write(
        &mut w,
        &mut keys,
        "attachments.create",
        json!({"operationId": "a", "placement": {"kind": "child", "parentRef": {"libraryId": 1, "key": "PAPER001"}},
               "source": {"kind": "stored_file", "main": {"source": {"kind": "local_path", "path": "out/cats.md"}}},
               "metadata": {"contentType": "text/markdown"}}),
    );
    assert_eq!(
        created.files,
        [StoredFile {
            source: "out/cats.md".into(),
            target: "attachments/NEW00001/cats.md".into()
        }]
    );
    let listed = w
        .get_item_attachments(&r("PAPER001"), &PageRequest::default())
        .unwrap();
    let attachment = &listed["attachments"][0];
    assert_eq!(attachment["filename"], "cats.md");
    assert_eq!(attachment["linkMode"], "stored_file");
    assert_eq!(attachment["file"]["state"], "available");
    let err = w
        .prepare_write(Member::AttachmentsCreate, &json!({"operationId": "b", "placement": {"kind": "child",
            "parentRef": {"libraryId": 1, "key": "NOPE0001"}}, "source": {"kind": "linked_url", "url": "x"}}), &mut keys)
        .unwrap_err();
    assert_eq!(err.fields["code"], "not_found");
    assert_eq!(err.name, "ZoteroHostCapabilityError");
}

#[test]
fn item_mutations_change_fields_tags_and_type() {
    // A journal article with a field book sections lack (PMID; DOI they have since
    // schema 41).
    let mut w = HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "Cats", "DOI": "10.1/cats",
             "PMID": "12345", "publicationTitle": "Feline Review", "tags": ["status:need-analysis"]}
        ]}))
        .unwrap();
    let mut keys = Keys { used: 0 };
    let item = json!({"libraryId": 1, "key": "PAPER001"});
    let tags = write(
        &mut w,
        &mut keys,
        "mutations.execute",
        json!({"operation": "item.updateTags", "operationId": "t", "itemRef": item, "add": ["cats"], "remove": []}),
    );
    assert_eq!(
        tags.result["item"]["tags"],
        json!(["status:need-analysis", "cats"])
    );
    let typed = write(
        &mut w,
        &mut keys,
        "mutations.execute",
        json!({"operation": "item.changeType", "operationId": "c", "itemRef": item,
               "targetItemType": "bookSection", "incompatibleData": "move_to_extra"}),
    );
    let detail = w.get_item_detail(&r("PAPER001")).unwrap();
    assert_eq!(detail["item"]["itemType"], "bookSection");
    assert_eq!(
        detail["item"]["fields"]["bookTitle"], "Feline Review",
        "same base field"
    );
    assert_eq!(detail["item"]["fields"]["DOI"], "10.1/cats", "{detail}");
    assert!(
        detail["item"]["fields"]["extra"]
            .as_str()
            .unwrap()
            .contains("PMID: 12345"),
        "{detail}"
    );
    assert_eq!(typed.operation, "item.changeType");
}

#[test]
fn collections_are_listed_and_memberships_change_the_items() {
    let mut w = paper_world()
        .with_library(&json!({"items": [{"key": "PAPER002", "itemType": "book", "title": "Dogs",
                                         "collections": ["COLL0002"]}],
                              "collections": [{"key": "COLL0001", "name": "Pets"},
                                              {"key": "COLL0002", "name": "Dogs", "parentCollection": "COLL0001"}]}))
        .unwrap();
    let listed = w.list_collections(&json!({})).unwrap();
    assert_eq!(listed["collections"][1]["path"], json!(["Pets", "Dogs"]));
    let mut keys = Keys { used: 0 };
    let coll = json!({"libraryId": 1, "key": "COLL0001"});
    let request = json!({"operation": "collection.updateMembership", "operationId": "m",
        "collectionRef": coll, "add": [{"libraryId": 1, "key": "PAPER001"}], "remove": []});
    let added = write(&mut w, &mut keys, "mutations.execute", request.clone());
    assert_eq!(
        added.result["addedRefs"],
        json!([{"libraryId": 1, "key": "PAPER001"}])
    );
    let members = w.list_items(&json!({"collectionRef": coll})).unwrap();
    assert_eq!(members["returned"], 1);
    // A bare `collectionKey` is no criterion of the reference's: the whole library.
    let everything = w.list_items(&json!({"collectionKey": "COLL0001"})).unwrap();
    assert_eq!(everything["returned"], 2);
    assert_eq!(everything["criteria"]["collectionRef"], Value::Null);
    let again = write(&mut w, &mut keys, "mutations.execute", request);
    assert!(!again.changed, "already a member");
    let err = HostWorld::default()
        .with_library(&json!({"items": [], "searches": []}))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("/searches: unknown member"), "{err}");
}

#[test]
fn attachments_move_only_under_regular_items_and_keep_record_order() {
    let mut w = paper_world()
        .with_library(&json!({"items": [
            {"key": "PAPER002", "itemType": "book", "title": "Dogs"},
            {"key": "FILE0001", "itemType": "attachment", "parentItem": "PAPER001", "title": "a.pdf"},
            {"key": "FILE0002", "itemType": "attachment", "parentItem": "PAPER002", "title": "b.pdf"},
            {"key": "NOTE0001", "itemType": "note", "parentItem": "PAPER001", "note": "<p>n</p>"}
        ]}))
        .unwrap();
    let mut keys = Keys { used: 0 };
    let under = |key: &str| json!({"kind": "child", "parentRef": {"libraryId": 1, "key": key}});
    let err = w
        .prepare_write(
            Member::AttachmentsMove,
            &json!({"operationId": "m0", "attachmentRef": {"libraryId": 1, "key": "FILE0002"}, "placement": under("NOTE0001")}),
            &mut keys,
        )
        .unwrap_err();
    assert_eq!(err.fields["code"], "invalid_ref");
    write(
        &mut w,
        &mut keys,
        "attachments.move",
        json!({"operationId": "m1", "attachmentRef": {"libraryId": 1, "key": "FILE0002"}, "placement": under("PAPER001")}),
    );
    let titles = |w: &HostWorld| -> Vec<Value> {
        w.get_item_attachments(&r("PAPER001"), &PageRequest::default())
            .unwrap()["attachments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["title"].clone())
            .collect()
    };
    assert_eq!(titles(&w), [json!("a.pdf"), json!("b.pdf")]);
    // A removal reindexes the world: the order stays the same.
    write(
        &mut w,
        &mut keys,
        "notes.remove",
        json!({"operationId": "r", "noteRef": {"libraryId": 1, "key": "NOTE0001"}, "disposition": "permanent"}),
    );
    assert_eq!(titles(&w), [json!("a.pdf"), json!("b.pdf")]);
}

#[test]
fn a_grouped_entrys_own_tags_and_collections_reach_its_item() {
    let value = json!({"items": {"parents": [
        {"item": {"id": 1, "key": "PARENT01", "itemType": "journalArticle", "libraryID": 1,
                  "data": {"title": "Cats"}},
         "tags": [{"tag": "entry-tag"}], "collections": ["COLL0001"],
         "attachments": [], "notes": []},
        {"item": {"id": 2, "key": "PARENT02", "itemType": "journalArticle", "libraryID": 1,
                  "data": {"title": "Dogs", "tags": [{"tag": "own"}]}},
         "attachments": [], "notes": []}],
        "children": [], "attachments": [], "notes": []}, "sampledAt": "t"});
    let world = HostWorld::from_selection(&SelectionContext::from_value(&value).unwrap());
    let tags = |key: &str| world.get_item_detail(&r(key)).unwrap()["item"]["tags"].clone();
    assert_eq!(tags("PARENT01"), json!(["entry-tag"]));
    assert_eq!(tags("PARENT02"), json!(["own"]));
    let detail = world.get_item_detail(&r("PARENT01")).unwrap();
    assert_eq!(
        detail["item"]["collectionRefs"],
        json!([{"libraryId": 1, "key": "COLL0001"}])
    );
}

#[test]
fn a_parent_s_notes_are_shared_with_their_records_and_read_when_asked() {
    let value = json!({"items": {"parents": [{"item": {"id": 1, "key": "P", "libraryID": 1},
        "notes": [{"id": 2, "key": "N", "libraryID": 1, "note": "<p>Hi</p>",
                   "data": {"tags": [{"tag": "t"}]}}]}],
        "children": [], "notes": [], "attachments": []}, "sampledAt": "t"});
    let selection = SelectionContext::from_value(&value).unwrap();
    let world = HostWorld::from_selection(&selection);
    let note = world.records.iter().find(|r| r.id == Some(2)).unwrap();
    assert!(!note.fields.is_read() && !note.zotero.is_read());
    let SelectionContext::Grouped(grouped) = &selection else {
        panic!("a grouped selection");
    };
    let shared = &grouped.parents[0].notes()[0];
    let (_, source) = note.zotero.parts();
    assert!(source.is_some_and(|item| Arc::ptr_eq(item, shared)));
    assert_eq!(note.html.as_deref(), Some("<p>Hi</p>"));
    assert_eq!(note.zotero.get().tags, ["t"]);
    assert_eq!(note.parent_id, Some(1));
}

#[test]
fn a_record_takes_176_bytes() {
    // Two a unit in a selection of attachments with their parents: the world of
    // 100,000 units was 44.8 MB of records at 224 bytes.
    assert!(size_of::<super::record::Record>() <= 176);
}

/// A world of `n` regular items with parents only.
fn wide_world(n: u32) -> HostWorld {
    let parent = |i: u32| {
        json!({"item": {"id": i + 1, "key": format!("P{i:07}"), "itemType": "journalArticle",
            "libraryID": 1, "data": {"title": "T", "tags": [], "collections": [], "relations": {}}}})
    };
    let value = json!({"items": {"parents": (0..n).map(parent).collect::<Vec<_>>(),
        "children": [], "notes": [], "attachments": []}, "sampledAt": "t"});
    HostWorld::from_selection(&SelectionContext::from_value(&value).unwrap())
}

#[test]
fn a_traversal_shapes_only_what_it_visits_and_stops_at_the_deadline() {
    let world = wide_world(600);
    let input = json!({"scope": "top-level-regular", "pageSize": 100, "maxItems": 250});
    let (batches, ending) = world
        .traverse_items(&input, &Budget::unlimited(), "t")
        .unwrap();
    assert_eq!(batches.len(), 3);
    assert_eq!(ending["outcome"], "resource_limited");
    assert_eq!(ending["visitedItems"], 250);
    assert_eq!(ending["reason"], "max_items");
    let past = Budget::new(
        Some(std::time::Instant::now() - std::time::Duration::from_millis(1)),
        u64::MAX,
    );
    let input = json!({"scope": "top-level-regular"});
    assert!(world.traverse_items(&input, &past, "t").is_err());
    assert_eq!(past.exhausted(), Some(crate::host::Breach::Deadline));
}

#[test]
fn a_portable_export_is_bounded_in_refs() {
    let world = world("grouped-parent-with-attachments-notes");
    let refs: Vec<Value> = (0..=MAX_PORTABLE_ITEMS)
        .map(|_| json!({"libraryId": 1, "key": "PARENT01"}))
        .collect();
    let err = world
        .export_portable_items(&json!(refs), &Budget::unlimited())
        .unwrap_err();
    assert_eq!(err.code(), "resource_limited");
    assert!(
        matches!(err, HostWorldError::ResourceLimited { ref resource, limit, .. } if resource == "items" && limit == MAX_PORTABLE_ITEMS)
    );
    let err = world
        .export_portable_items(&json!({"not": "a list"}), &Budget::unlimited())
        .unwrap_err();
    assert_eq!(err.code(), "resource_limited");
}

#[test]
fn a_listing_reads_one_library_the_user_library_unless_named() {
    let w = HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "GROUP001", "itemType": "book", "title": "Group", "libraryID": 2,
             "collections": ["GCOLL001"]},
            {"key": "USER0001", "itemType": "book", "title": "User"}],
            "collections": [{"key": "GCOLL001", "name": "Shared", "libraryID": 2}]}))
        .unwrap();
    let keys = |listed: &Value| -> Vec<String> {
        listed["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["ref"]["key"].as_str().unwrap().to_owned())
            .collect()
    };
    let user = w.list_items(&json!({})).unwrap();
    assert_eq!(keys(&user), ["USER0001"]);
    assert_eq!(user["criteria"]["libraryId"], 1);
    let group = w.list_items(&json!({"libraryId": 2})).unwrap();
    assert_eq!(keys(&group), ["GROUP001"]);
    let shared = json!({"libraryId": 2, "key": "GCOLL001"});
    let by_collection = w.list_items(&json!({"collectionRef": shared})).unwrap();
    assert_eq!(keys(&by_collection), ["GROUP001"]);
    assert_eq!(by_collection["criteria"]["libraryId"], 2);
    let foreign = w
        .list_items(&json!({"libraryId": 1, "collectionRef": shared}))
        .unwrap_err();
    assert_eq!(foreign.code(), "invalid_ref");
    assert_eq!(
        foreign.to_string(),
        "collection is outside the requested library"
    );
}
