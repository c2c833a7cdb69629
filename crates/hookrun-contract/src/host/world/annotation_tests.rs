//! `library.listAnnotations` over the scope the reference host lists: an
//! attachment's annotations, or those of every attachment of a regular item, in
//! `sortIndex` order; an annotation of a top-level attachment names that
//! attachment as its item.

use serde_json::{Value, json};

use super::{HostWorld, HostWorldError, PageRequest};
use crate::selection::PortableItemRef;

/// `PAPER001` with two PDFs (the second's annotation listed first in the
/// fixture), a note, and a top-level PDF with an annotation of its own.
fn library() -> HostWorld {
    let annotation = |key: &str, parent: &str, index: &str| {
        json!({"key": key, "itemType": "annotation", "parentItem": parent,
            "annotationType": "highlight", "annotationText": key, "annotationSortIndex": index})
    };
    let pdf = |key: &str, parent: Option<&str>| {
        let mut item = json!({"key": key, "itemType": "attachment", "linkMode": "imported_file",
            "contentType": "application/pdf", "path": format!("attachments/{key}/a.pdf")});
        if let Some(parent) = parent {
            item["parentItem"] = parent.into();
        }
        item
    };
    HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "One"},
            pdf("ATTACH01", Some("PAPER001")),
            pdf("ATTACH02", Some("PAPER001")),
            annotation("ANNOT002", "ATTACH02", "00001|000200|00010"),
            annotation("ANNOT001", "ATTACH01", "00000|000100|00005"),
            {"key": "NOTE0001", "itemType": "note", "parentItem": "PAPER001", "note": "<p>n</p>"},
            pdf("ATTACH03", None),
            annotation("ANNOT003", "ATTACH03", "00000|000000|00000"),
        ]}))
        .unwrap()
}

fn item(key: &str) -> PortableItemRef {
    PortableItemRef {
        library_id: 1,
        key: key.into(),
    }
}

fn page(limit: Option<u64>, cursor: Option<&Value>) -> PageRequest {
    PageRequest {
        limit: limit.map(Value::from),
        cursor: cursor.and_then(Value::as_str).map(str::to_owned),
    }
}

fn keys(listed: &Value) -> Vec<&str> {
    listed["annotations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["ref"]["key"].as_str().unwrap())
        .collect()
}

#[test]
fn a_regular_item_lists_the_annotations_of_all_its_attachments_by_sort_index() {
    let world = library();
    let listed = world
        .list_annotations(&item("PAPER001"), &page(None, None))
        .unwrap();
    assert_eq!(keys(&listed), ["ANNOT001", "ANNOT002"]);
    assert_eq!(listed["total"], 2);
    let first = &listed["annotations"][0];
    assert_eq!(first["itemRef"]["key"], "PAPER001");
    assert_eq!(first["attachmentRef"]["key"], "ATTACH01");
}

#[test]
fn an_attachment_lists_only_its_own_annotations() {
    let world = library();
    let listed = world
        .list_annotations(&item("ATTACH02"), &page(None, None))
        .unwrap();
    assert_eq!(keys(&listed), ["ANNOT002"]);
    assert_eq!(listed["total"], 1);
}

#[test]
fn a_top_level_attachment_is_its_annotations_item() {
    let world = library();
    let listed = world
        .list_annotations(&item("ATTACH03"), &page(None, None))
        .unwrap();
    let annotation = &listed["annotations"][0];
    assert_eq!(
        annotation["itemRef"],
        json!({"libraryId": 1, "key": "ATTACH03"})
    );
    assert_eq!(
        annotation["attachmentRef"],
        json!({"libraryId": 1, "key": "ATTACH03"})
    );
}

#[test]
fn a_note_has_no_annotations_to_list() {
    let world = library();
    let error = world
        .list_annotations(&item("NOTE0001"), &page(None, None))
        .unwrap_err();
    assert_eq!(error.code(), "invalid_ref");
    assert!(matches!(&error, HostWorldError::WrongKind { kind, .. } if kind == "item"));
    assert_eq!(
        error.to_string(),
        "annotation listing requires a regular item or attachment"
    );
}

#[test]
fn annotations_page_across_attachments() {
    let world = library();
    let first = world
        .list_annotations(&item("PAPER001"), &page(Some(1), None))
        .unwrap();
    assert_eq!(keys(&first), ["ANNOT001"]);
    assert_eq!(first["hasMore"], true);
    assert!(first["nextCursor"].is_string());
    let second = world
        .list_annotations(
            &item("PAPER001"),
            &page(Some(1), Some(&first["nextCursor"])),
        )
        .unwrap();
    assert_eq!(keys(&second), ["ANNOT002"]);
    assert_eq!(second["hasMore"], false);
}

#[test]
fn annotations_keep_their_members_and_order_by_sort_index_across_attachments() {
    let world = HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "One"},
            {"key": "ATTACH01", "itemType": "attachment", "parentItem": "PAPER001",
             "linkMode": "imported_file", "contentType": "application/pdf"},
            {"key": "ATTACH02", "itemType": "attachment", "parentItem": "PAPER001",
             "linkMode": "imported_file", "contentType": "application/pdf"},
            {"key": "ANNOTLAT", "itemType": "annotation", "parentItem": "ATTACH01",
             "annotationType": "note", "annotationComment": "later", "annotationColor": "#ffd400",
             "annotationPageLabel": "7", "annotationSortIndex": "00006|001000|00100",
             "annotationPosition": "{\"pageIndex\":6}"},
            {"key": "ANNOTEAR", "itemType": "annotation", "parentItem": "ATTACH02",
             "annotationType": "highlight", "annotationText": "earlier",
             "annotationSortIndex": "00001|000010|00001"},
        ]}))
        .unwrap();
    let listed = world
        .list_annotations(&item("PAPER001"), &page(None, None))
        .unwrap();
    assert_eq!(keys(&listed), ["ANNOTEAR", "ANNOTLAT"]);
    let later = &listed["annotations"][1];
    assert_eq!(later["annotationType"], "note");
    assert_eq!(later["comment"], "later");
    assert_eq!(later["color"], "#ffd400");
    assert_eq!(
        later["location"],
        json!({"pageIndex": null, "pageLabel": "7", "sortIndex": "00006|001000|00100",
               "position": "{\"pageIndex\":6}"})
    );
}
