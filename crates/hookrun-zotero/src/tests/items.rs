//! Items in Zotero's JSON export shape, lists, trash and library isolation, files.

use hookrun_contract::host::world::HostWorld;
use hookrun_contract::selection::FileState;
use serde_json::{Value, json};

use super::{linked_file, sample};
use crate::testdb::{Layout, TestDb};
use crate::{Error, ItemClass, LibraryChoice, LinkMode, open};

#[test]
fn a_regular_item_reads_as_zotero_exports_it() {
    let s = sample(Layout::default());
    let library = s.open();
    let item = library.item("PAPER001").unwrap();
    assert_eq!(item.class, ItemClass::Regular);
    assert_eq!(item.title.as_deref(), Some("Deep Learning for Cats"));
    assert_eq!(item.date_added.as_deref(), Some("2024-01-01T10:00:00Z"));
    assert_eq!(
        Value::Object(item.json),
        json!({
            "key": "PAPER001", "libraryID": 1, "version": 5, "itemType": "journalArticle",
            "title": "Deep Learning for Cats", "volume": "7", "date": "May 1, 2020",
            "DOI": "10.1/cats", "accessDate": "2024-02-03T04:05:06Z", "PMID": "12345",
            "creators": [
                {"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"},
                {"creatorType": "editor", "name": "The Cat Society"}],
            "tags": [{"tag": "cats"}, {"tag": "ml", "type": 1}],
            "collections": ["COLLREAD"],
            "relations": {
                "dc:relation": ["http://zotero.org/users/local/abc/items/CASE0001",
                                "http://zotero.org/users/local/abc/items/PAPER002"],
                "owl:sameAs": "http://zotero.org/groups/1/items/X"},
            "dateAdded": "2024-01-01T10:00:00Z", "dateModified": "2024-01-02T10:00:00Z"
        })
    );
    // Fields keep their type's order.
    let keys: Vec<String> = library
        .item("PAPER001")
        .unwrap()
        .json
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys[4..9], ["title", "volume", "date", "DOI", "accessDate"]);
}

#[test]
fn type_specific_fields_stand_for_their_base_fields() {
    let s = sample(Layout::default());
    let library = s.open();
    let case = library.item("CASE0001").unwrap();
    assert_eq!(case.title.as_deref(), Some("Cat v. Dog"));
    assert_eq!(case.json["dateDecided"], "1999");
    assert_eq!(
        library.item("PAPER002").unwrap().json["eventPlace"],
        "Vienna"
    );
}

#[test]
fn notes_are_html_without_the_storage_wrapper() {
    let s = sample(Layout::default());
    let library = s.open();
    let note = library.item("NOTE0001").unwrap();
    assert_eq!(note.class, ItemClass::Note);
    assert_eq!(
        Value::Object(note.json),
        json!({"key": "NOTE0001", "libraryID": 1, "version": 0, "itemType": "note",
            "parentItem": "PAPER001", "title": "Digest",
            "note": "<h1>Digest</h1><p>x &amp; y</p>",
            "tags": [], "relations": {},
            "dateAdded": "2024-01-01T11:00:00Z", "dateModified": "2024-01-02T10:00:00Z"})
    );
    // A standalone plain-text note: paragraphs, its collections listed.
    let old = library.item("NOTESTD1").unwrap();
    assert_eq!(old.json["note"], "<p>old note</p><p>line two</p>");
    assert_eq!(old.json["collections"], json!(["COLLCATS"]));
    assert_eq!(old.parent, None);
}

#[test]
fn attachments_of_every_link_mode_locate_their_files() {
    let s = sample(Layout::default());
    let library = s.open();
    let storage = library.storage_dir();
    let pdf = library.item("ATTPDF01").unwrap();
    let file = pdf.file.clone().unwrap();
    assert_eq!(file.link_mode, LinkMode::ImportedFile);
    assert_eq!(file.state, FileState::Available);
    assert_eq!(file.path, Some(storage.join("ATTPDF01/cats.pdf")));
    assert_eq!(
        Value::Object(pdf.json),
        json!({"key": "ATTPDF01", "libraryID": 1, "version": 0, "itemType": "attachment",
            "parentItem": "PAPER001", "title": "Full Text PDF", "linkMode": "imported_file",
            "contentType": "application/pdf", "filename": "cats.pdf", "path": "ATTPDF01/cats.pdf",
            "tags": [], "relations": {},
            "dateAdded": "2024-01-01T10:05:00Z", "dateModified": "2024-01-02T10:00:00Z"})
    );
    // An imported URL is in storage like an imported file.
    let url = library.item("ATTURL01").unwrap();
    assert_eq!(url.json["linkMode"], "imported_url");
    assert_eq!(url.json["charset"], "utf-8");
    assert_eq!(url.json["path"], "ATTURL01/index.html");
    assert_eq!(url.file.unwrap().state, FileState::Available);
    // Linked files: absolute, or under the base directory.
    let linked = library.item("ATTLNK01").unwrap();
    let expected = linked_file(s.data.parent().unwrap());
    assert_eq!(linked.json["path"], expected.to_string_lossy().as_ref());
    assert_eq!(linked.file.unwrap().state, FileState::Available);
    let relative = library.item("ATTREL01").unwrap().file.unwrap();
    assert_eq!(relative.path, Some(s.base.join("sub").join("d.pdf")));
    assert_eq!(relative.state, FileState::Available);
    let without_base = open(&s.data, LibraryChoice::User)
        .unwrap()
        .item("ATTREL01")
        .unwrap();
    assert_eq!(without_base.file.unwrap().state, FileState::Missing);
    assert_eq!(without_base.json.get("path"), None);
    assert_eq!(without_base.json["filename"], "d.pdf");
    // Missing, a linked URL, an embedded image.
    let gone = library.item("ATTGONE1").unwrap();
    assert_eq!(gone.file.unwrap().state, FileState::Missing);
    let web = library.item("ATTWEB01").unwrap();
    assert_eq!(web.file.as_ref().unwrap().state, FileState::NotApplicable);
    assert_eq!(web.json["linkMode"], "linked_url");
    assert_eq!(web.json.get("filename"), None);
    let image = library.item("IMGEMB01").unwrap();
    assert_eq!(image.json["linkMode"], "embedded_image");
    assert_eq!(image.json["path"], "IMGEMB01/image.png");
    assert_eq!(image.parent.unwrap().key, "NOTE0001");
    for member in ["tags", "collections", "relations"] {
        assert_eq!(image.json.get(member), None, "{member}");
    }
}

#[test]
fn annotations_read_with_their_type_and_text() {
    let s = sample(Layout::default());
    let library = s.open();
    let highlight = library.item("ANNOT001").unwrap();
    assert_eq!(highlight.class, ItemClass::Annotation);
    assert_eq!(highlight.parent.as_ref().unwrap().key, "ATTPDF01");
    let json = Value::Object(highlight.json);
    for (member, value) in [
        ("annotationType", json!("highlight")),
        ("annotationAuthorName", json!("Ada")),
        ("annotationText", json!("purr")),
        ("annotationComment", json!("nice")),
        ("annotationColor", json!("#ffd400")),
        ("annotationPageLabel", json!("1")),
        ("annotationSortIndex", json!("00000|000000|00000")),
        (
            "annotationPosition",
            json!("{\"pageIndex\":0,\"rects\":[[1,2,3,4]]}"),
        ),
        ("tags", json!([{"tag": "cats", "type": 1}])),
    ] {
        assert_eq!(json[member], value, "{member}");
    }
    let note = library.item("ANNOT002").unwrap();
    assert_eq!(note.json["annotationType"], "note");
    assert_eq!(note.json.get("annotationText"), None);
}

#[test]
fn lists_leave_out_the_trash_and_other_libraries() {
    let s = sample(Layout::default());
    let library = s.open();
    let keys = library.item_keys().unwrap();
    for hidden in ["TRASHED1", "TRCHILD1", "TRIMG001", "GROUPIT1", "FEEDIT01"] {
        assert!(!keys.contains(&hidden.to_string()), "{hidden}");
        assert!(
            matches!(library.item(hidden), Err(Error::ItemNotFound { key, .. }) if key == hidden)
        );
        assert!(!library.contains(hidden).unwrap());
    }
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert_eq!(library.item_count().unwrap(), keys.len() as u64);
    // Paged, the same keys.
    let mut paged = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = library.item_keys_after(after.as_deref(), 4).unwrap();
        if page.is_empty() {
            break;
        }
        after = page.last().cloned();
        paged.extend(page);
    }
    assert_eq!(paged, keys);
    // The group library sees its own items only, its PAPER001 its own.
    let group = open(&s.data, LibraryChoice::Id(s.group as u64)).unwrap();
    assert_eq!(group.item_keys().unwrap(), ["GROUPIT1", "PAPER001"]);
    let own = group.item("PAPER001").unwrap();
    assert_eq!(own.json["itemType"], "book");
    assert_eq!(own.reference.library_id, s.group as u64);
    assert_eq!(own.json["libraryID"], s.group);
    assert_eq!(own.json["collections"], json!(["COLLREAD"]));
    assert_eq!(
        group.item("GROUPIT1").unwrap().title.as_deref(),
        Some("Group page")
    );
}

#[test]
fn children_come_in_the_order_they_were_added() {
    let s = sample(Layout::default());
    let library = s.open();
    assert_eq!(
        library.children("PAPER001").unwrap(),
        ["ATTPDF01", "ATTURL01", "NOTE0001"]
    );
    assert_eq!(
        library.children("ATTPDF01").unwrap(),
        ["ANNOT001", "ANNOT002"]
    );
    assert_eq!(library.children("NOTE0001").unwrap(), ["IMGEMB01"]);
    assert!(matches!(
        library.children("TRASHED1"),
        Err(Error::ItemNotFound { .. })
    ));
}

#[test]
fn collections_form_a_tree_without_the_trash() {
    let s = sample(Layout::default());
    let library = s.open();
    let all = library.collections().unwrap();
    let keys: Vec<&str> = all.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["COLLCATS", "COLLREAD"]);
    let read = library.collection("Reading").unwrap();
    assert_eq!(read.children, ["COLLCATS"]);
    assert_eq!(
        library.collection("COLLCATS").unwrap().parent.as_deref(),
        Some("COLLREAD")
    );
    assert_eq!(
        library.collection_items("COLLREAD").unwrap(),
        ["PAPER002", "PAPER001"]
    );
    assert_eq!(
        library.collection_items("COLLCATS").unwrap(),
        ["NOTESTD1", "ATTWEB01"]
    );
    for trashed in ["COLLOLD1", "COLLOLD2", "Old"] {
        assert!(matches!(
            library.collection(trashed),
            Err(Error::CollectionNotFound { .. })
        ));
    }
    // The item of a trashed collection is still an item, in no collection.
    assert_eq!(
        library.item("OLDITEM1").unwrap().json["collections"],
        json!([])
    );
}

#[test]
fn ids_differing_between_profiles_read_the_same() {
    let plain = sample(Layout::default());
    let shuffled = sample(Layout {
        shuffled_ids: true,
        combined_tables: false,
        ..Layout::default()
    });
    let (a, b) = (plain.open(), shuffled.open());
    assert_ne!(a.library_id(), b.library_id());
    let keys = a.item_keys().unwrap();
    assert_eq!(keys, b.item_keys().unwrap());
    for key in &keys {
        let (mut x, mut y) = (a.item_json(key).unwrap(), b.item_json(key).unwrap());
        for v in [&mut x, &mut y] {
            let obj = v.as_object_mut().unwrap();
            obj.remove("libraryID");
            // Each sample links a file of its own directory.
            if obj.get("linkMode") == Some(&json!("linked_file")) {
                obj.remove("path");
            }
        }
        assert_eq!(x, y, "{key}");
    }
    assert_eq!(a.collections().unwrap(), b.collections().unwrap());
    for key in ["PAPER001", "ATTPDF01"] {
        assert_eq!(a.children(key).unwrap(), b.children(key).unwrap());
    }
    // The ids really differ.
    let id = |s: &super::Sample, sql: &str| -> i64 {
        let conn = rusqlite::Connection::open(s.data.join("zotero.sqlite")).unwrap();
        conn.query_row(sql, [], |r| r.get(0)).unwrap()
    };
    for sql in [
        "SELECT itemTypeID FROM itemTypes WHERE typeName = 'journalArticle'",
        "SELECT fieldID FROM fields WHERE fieldName = 'title'",
        "SELECT creatorTypeID FROM creatorTypes WHERE creatorType = 'author'",
        "SELECT itemID FROM items WHERE key = 'NOTE0001'",
    ] {
        assert_ne!(id(&plain, sql), id(&shuffled, sql), "{sql}");
    }
}

#[test]
fn every_item_and_collection_is_accepted_by_the_fixture_world() {
    let s = sample(Layout::default());
    for library in [
        s.open(),
        open(&s.data, LibraryChoice::Id(s.group as u64)).unwrap(),
    ] {
        let items: Vec<Value> = library
            .item_keys()
            .unwrap()
            .iter()
            .map(|k| library.item_json(k).unwrap())
            .collect();
        let collections: Vec<Value> = library
            .collections()
            .unwrap()
            .iter()
            .map(|c| c.to_json(library.library_id()))
            .collect();
        let description = json!({"items": items, "collections": collections});
        if let Err(e) = HostWorld::default().with_library(&description) {
            panic!("the world refused the library: {e}");
        }
    }
}

#[test]
fn numbers_and_empty_values_in_the_database_read_as_zotero_reads_them() {
    let root = tempfile::tempdir().unwrap();
    let mut db = TestDb::create(root.path(), Layout::default()).unwrap();
    db.item("BOOK0001", "book")
        .field_number("numPages", 300)
        .field("title", "")
        .insert()
        .unwrap();
    db.item("NOTE0001", "note").raw_note("").insert().unwrap();
    db.connection()
        .execute_batch("UPDATE itemNotes SET note = 42")
        .unwrap();
    drop(db);
    let library = open(root.path(), LibraryChoice::User).unwrap();
    let book = library.item("BOOK0001").unwrap();
    assert_eq!(book.json["numPages"], "300");
    assert_eq!(book.json.get("title"), None);
    assert_eq!(book.title, None);
    assert_eq!(library.item("NOTE0001").unwrap().json["note"], "<p>42</p>");
}

#[test]
fn rows_contradicting_the_data_model_are_named() {
    let root = tempfile::tempdir().unwrap();
    let mut db = TestDb::create(root.path(), Layout::default()).unwrap();
    db.item("ATT00001", "attachment")
        .attachment(9, None, None)
        .insert()
        .unwrap();
    db.item("BOOK0001", "book").insert().unwrap();
    db.connection()
        .execute_batch("UPDATE items SET itemTypeID = 999 WHERE key = 'BOOK0001'")
        .unwrap();
    drop(db);
    let library = open(root.path(), LibraryChoice::User).unwrap();
    let err = library.item("ATT00001").unwrap_err();
    assert!(matches!(err, Error::Inconsistent { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("attachment ATT00001 has link mode 9"),
        "{err}"
    );
    let err = library.item("BOOK0001").unwrap_err();
    assert!(err.to_string().contains("item type id 999"), "{err}");
}
