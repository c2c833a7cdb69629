//! Databases of each supported `userdata` version, with the columns and tables
//! Zotero's own schema has at that version.

use serde_json::{Value, json};

use super::sample;
use crate::testdb::{Layout, TestDb};
use crate::{LibraryChoice, open};

fn layout(userdata: i64) -> Layout {
    Layout {
        userdata,
        ..Layout::default()
    }
}

fn columns(db: &TestDb, table: &str) -> Vec<String> {
    let mut stmt = db
        .connection()
        .prepare("SELECT name FROM pragma_table_info(?1)")
        .unwrap();
    stmt.query_map([table], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

#[test]
fn test_databases_have_the_columns_of_their_version() {
    for (userdata, has_last_read, has_normalized, has_client_version) in [
        (120, false, false, false),
        (124, true, false, false),
        (126, true, true, false),
        (129, true, true, true),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let db = TestDb::create(dir.path(), layout(userdata)).unwrap();
        let has = |table: &str, column: &str| columns(&db, table).iter().any(|c| c == column);
        assert_eq!(
            has("itemAttachments", "lastRead"),
            has_last_read,
            "{userdata}"
        );
        assert_eq!(has("itemAnnotations", "textNormalized"), has_normalized);
        assert_eq!(has("tags", "nameNormalized"), has_normalized);
        assert_eq!(has("items", "clientVersion"), has_client_version);
        assert!(has("libraries", "archived"));
    }
}

#[test]
fn every_supported_version_reads_the_sample_alike() {
    let read = |userdata: i64| {
        let s = sample(layout(userdata));
        let library = s.open();
        assert_eq!(library.schema_versions().userdata, userdata);
        let keys = library.item_keys().unwrap();
        // Linked files are under each sample's own temporary directory.
        let root = s._root.path().to_str().unwrap().to_owned();
        let items: Vec<String> = keys
            .iter()
            .map(|k| {
                library
                    .item_json(k)
                    .unwrap()
                    .to_string()
                    .replace(&root, "<root>")
            })
            .collect();
        (keys, items)
    };
    let first = read(120);
    assert!(first.0.iter().any(|k| k == "ANNOT001"));
    for userdata in [123, 124, 125, 126, 129] {
        assert_eq!(read(userdata), first, "{userdata}");
    }
}

fn pdf_read_at(userdata: i64, library: Option<i64>) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let mut db = TestDb::create(dir.path(), layout(userdata)).unwrap();
    let lib = match library {
        Some(group) => db.add_group(group, "Lab").unwrap(),
        None => db.user_library(),
    };
    db.item("PAPER001", "book").library(lib).insert().unwrap();
    let mut pdf = db
        .item("ATTPDF01", "attachment")
        .library(lib)
        .parent("PAPER001")
        .attachment(0, Some("application/pdf"), Some("storage:a.pdf"));
    if userdata >= 124 {
        pdf = pdf.last_read(1_760_000_000);
    }
    pdf.insert().unwrap();
    drop(db);
    let choice = library.map_or(LibraryChoice::User, |_| LibraryChoice::Id(lib as u64));
    let json = open(dir.path(), choice)
        .unwrap()
        .item_json("ATTPDF01")
        .unwrap();
    json.get("lastRead").cloned().unwrap_or(Value::Null)
}

#[test]
fn last_read_is_exported_from_the_versions_recording_it_in_the_user_library() {
    assert_eq!(pdf_read_at(129, None), json!(1_760_000_000));
    assert_eq!(pdf_read_at(124, None), json!(1_760_000_000));
    // No column before 124; Zotero keeps group libraries' reads elsewhere.
    assert_eq!(pdf_read_at(123, None), Value::Null);
    assert_eq!(pdf_read_at(129, Some(77)), Value::Null);
}

#[test]
fn items_in_my_publications_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = TestDb::create(dir.path(), Layout::default()).unwrap();
    db.item("PUBLISH1", "book")
        .field("title", "Mine")
        .in_publications()
        .insert()
        .unwrap();
    db.item("PRIVATE1", "book").insert().unwrap();
    drop(db);
    let library = open(dir.path(), LibraryChoice::User).unwrap();
    let json = library.item_json("PUBLISH1").unwrap();
    assert_eq!(json["inPublications"], json!(true));
    let members: Vec<&String> = json.as_object().unwrap().keys().collect();
    let at = members.iter().position(|m| *m == "inPublications").unwrap();
    assert_eq!(members[at - 1], "relations");
    assert_eq!(members[at + 1], "dateAdded");
    let private = library.item_json("PRIVATE1").unwrap();
    assert!(private.get("inPublications").is_none());
}

#[test]
fn an_attachment_note_has_no_parent_in_the_notes_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut db = TestDb::create(dir.path(), Layout::default()).unwrap();
    db.item("PAPER001", "book").insert().unwrap();
    db.item("ATTPDF01", "attachment")
        .parent("PAPER001")
        .attachment(0, Some("application/pdf"), Some("storage:a.pdf"))
        .note("<p>about it</p>")
        .insert()
        .unwrap();
    let parent: Option<i64> = db
        .connection()
        .query_row(
            "SELECT parentItemID FROM itemNotes n JOIN items i ON i.itemID = n.itemID \
             WHERE i.key = 'ATTPDF01'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(parent, None);
    drop(db);
    let library = open(dir.path(), LibraryChoice::User).unwrap();
    let json = library.item_json("ATTPDF01").unwrap();
    assert_eq!(json["parentItem"], json!("PAPER001"));
    assert_eq!(json["note"], json!("<p>about it</p>"));
    assert_eq!(library.children("PAPER001").unwrap(), ["ATTPDF01"]);
}
