//! A library of 10,000 items opens and lists without reading its items.

use crate::testdb::{Layout, TestDb};
use crate::{LibraryChoice, SelectSpec, open};

#[test]
fn a_library_of_ten_thousand_items_opens_and_pages() {
    let root = tempfile::tempdir().unwrap();
    let mut db = TestDb::create(root.path(), Layout::default()).unwrap();
    db.connection().execute_batch("BEGIN").unwrap();
    db.collection("COLLEVRY", "Everything").insert().unwrap();
    for i in 0..10_000 {
        db.item(&format!("ITEM{i:04}"), "book")
            .field("title", &format!("Book {i}"))
            .in_collection("COLLEVRY")
            .insert()
            .unwrap();
    }
    db.connection().execute_batch("COMMIT").unwrap();
    drop(db);
    let library = open(root.path(), LibraryChoice::User).unwrap();
    assert_eq!(library.item_count().unwrap(), 10_000);
    let keys = library.item_keys().unwrap();
    assert_eq!(keys.len(), 10_000);
    assert_eq!(keys[0], "ITEM0000");
    let page = library.item_keys_after(Some("ITEM4999"), 3).unwrap();
    assert_eq!(page, ["ITEM5000", "ITEM5001", "ITEM5002"]);
    assert_eq!(
        library.item("ITEM9999").unwrap().title.as_deref(),
        Some("Book 9999")
    );
    let selection = library
        .select(&["collection:Everything".parse::<SelectSpec>().unwrap()])
        .unwrap();
    assert_eq!(selection.items.len(), 10_000);
}
