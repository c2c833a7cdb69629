//! Selections: specs to items, to a canonical SelectionContext.

use hookrun_contract::selection::{ItemKind, SelectionContext};
use serde_json::json;

use super::sample;
use crate::testdb::Layout;
use crate::{Error, SelectSpec, Selection};

fn specs(list: &[&str]) -> Vec<SelectSpec> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

fn keys(selection: &Selection) -> Vec<&str> {
    selection
        .items
        .iter()
        .map(|s| s.reference.key.as_str())
        .collect()
}

#[test]
fn an_item_spec_selects_the_item_with_its_parent_named() {
    let s = sample(Layout::default());
    let library = s.open();
    let selection = library.select(&specs(&["item:ATTPDF01"])).unwrap();
    assert_eq!(keys(&selection), ["ATTPDF01"]);
    let selected = &selection.items[0];
    assert_eq!(selected.kind, ItemKind::Attachment);
    assert_eq!(selected.parent.as_ref().unwrap().key, "PAPER001");
    assert_eq!(selection.keys_to_read(), ["ATTPDF01", "PAPER001"]);
    let note = library.select(&specs(&["item:NOTE0001"])).unwrap();
    assert_eq!(note.items[0].kind, ItemKind::Note);
    assert_eq!(note.keys_to_read(), ["NOTE0001", "PAPER001"]);
    let annotation = library.select(&specs(&["item:ANNOT001"])).unwrap();
    assert_eq!(annotation.items[0].kind, ItemKind::Child);
    assert_eq!(annotation.keys_to_read(), ["ANNOT001", "ATTPDF01"]);
}

#[test]
fn collections_by_key_or_name_and_tags_select_in_a_stable_order() {
    let s = sample(Layout::default());
    let library = s.open();
    let by_name = library.select(&specs(&["collection:Reading"])).unwrap();
    let by_key = library.select(&specs(&["collection:COLLREAD"])).unwrap();
    assert_eq!(by_name, by_key);
    assert_eq!(keys(&by_name), ["PAPER002", "PAPER001"]);
    let tagged = library.select(&specs(&["tag:cats"])).unwrap();
    // Trashed items and other libraries' never appear.
    assert_eq!(
        keys(&tagged),
        ["PAPER001", "NOTESTD1", "ANNOT001", "ATTWEB01"]
    );
    let kinds: Vec<ItemKind> = tagged.items.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        [
            ItemKind::Parent,
            ItemKind::Note,
            ItemKind::Child,
            ItemKind::Attachment
        ]
    );
}

#[test]
fn combined_specs_are_a_union_in_the_order_given() {
    let s = sample(Layout::default());
    let library = s.open();
    let selection = library
        .select(&specs(&[
            "item:PAPER001",
            "collection:COLLCATS",
            "tag:cats",
            "item:CASE0001",
        ]))
        .unwrap();
    assert_eq!(
        keys(&selection),
        ["PAPER001", "NOTESTD1", "ATTWEB01", "ANNOT001", "CASE0001"]
    );
    assert_eq!(
        selection.keys_to_read(),
        [
            "PAPER001", "NOTESTD1", "ATTWEB01", "ANNOT001", "ATTPDF01", "CASE0001"
        ]
    );
}

#[test]
fn what_the_library_does_not_have_is_named() {
    let s = sample(Layout::default());
    let library = s.open();
    let cases: [(&str, &str); 6] = [
        ("item:NOPE0001", "item NOPE0001 is not in library 1"),
        ("item:TRASHED1", "item TRASHED1 is not in library 1"),
        ("item:GROUPIT1", "item GROUPIT1 is not in library 1"),
        ("collection:Nope", "collection Nope is not in library 1"),
        (
            "collection:COLLOLD1",
            "collection COLLOLD1 is not in library 1",
        ),
        ("tag:nope", "tag \"nope\" is on no item of library 1"),
    ];
    for (spec, message) in cases {
        let err = library.select(&specs(&[spec])).unwrap_err();
        assert!(err.to_string().starts_with(message), "{spec}: {err}");
    }
    // A tag only a trashed item has is on no item.
    assert!(matches!(
        library.select(&specs(&["tag:gone"])),
        Err(Error::TagNotFound { .. })
    ));
    let err = "collections:X".parse::<SelectSpec>().unwrap_err();
    assert!(matches!(err, Error::UnknownSpec { .. }));
}

#[test]
fn ambiguous_collection_names_list_their_keys() {
    let root = tempfile::tempdir().unwrap();
    let mut db = crate::testdb::TestDb::create(root.path(), Layout::default()).unwrap();
    db.collection("COLLAAAA", "Reading").insert().unwrap();
    db.collection("COLLBBBB", "Reading").insert().unwrap();
    drop(db);
    let library = crate::open(root.path(), Default::default()).unwrap();
    let err = library.select(&specs(&["collection:Reading"])).unwrap_err();
    assert!(
        matches!(&err, Error::AmbiguousCollection { keys, .. } if keys == &["COLLAAAA", "COLLBBBB"]),
        "{err}"
    );
    // By key it is one.
    assert!(library.select(&specs(&["collection:COLLBBBB"])).is_ok());
}

#[test]
fn a_selection_becomes_a_canonical_context() {
    let s = sample(Layout::default());
    let library = s.open();
    let selection = library
        .select(&specs(&[
            "item:PAPER001",
            "item:ATTPDF01",
            "item:ATTGONE1",
            "item:NOTE0001",
        ]))
        .unwrap();
    let context = library
        .selection_context(&selection, "2026-03-01T09:00:00.000Z")
        .unwrap();
    let value = context.to_value();
    assert_eq!(
        value,
        json!({"items": [
            {"kind": "parent", "ref": {"libraryId": 1, "key": "PAPER001"},
             "itemType": "journalArticle", "title": "Deep Learning for Cats"},
            {"kind": "attachment", "ref": {"libraryId": 1, "key": "ATTPDF01"},
             "itemType": "attachment", "title": "Full Text PDF",
             "parentRef": {"libraryId": 1, "key": "PAPER001"}, "filename": "cats.pdf",
             "contentType": "application/pdf", "createdAt": "2024-01-01T10:05:00Z",
             "fileState": "available"},
            {"kind": "attachment", "ref": {"libraryId": 1, "key": "ATTGONE1"},
             "itemType": "attachment", "parentRef": {"libraryId": 1, "key": "PAPER002"},
             "filename": "gone.pdf", "contentType": "application/pdf",
             "createdAt": "2024-01-01T10:02:00Z", "fileState": "missing"},
            {"kind": "note", "ref": {"libraryId": 1, "key": "NOTE0001"}, "itemType": "note",
             "title": "Digest", "parentRef": {"libraryId": 1, "key": "PAPER001"}}
        ], "sampledAt": "2026-03-01T09:00:00.000Z"})
    );
    assert_eq!(SelectionContext::from_value(&value).unwrap(), context);
}
