//! Library pages after the reference host's page query suite
//! (`tests/zotero-host/185-zotero-library-page-query.test.ts`): pages of a
//! listing in stable order up to the last, the literal criteria of a listing
//! (`%` and `_` are characters, not wildcards) shared by every page, a damaged
//! cursor refused, and the pages of notes, annotations and collections.

use serde_json::{Value, json};

use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::session::HookHost;
use crate::host::world::HostWorld;

fn host(library: Value) -> HookHost {
    let world = HostWorld::default().with_library(&library).unwrap();
    HookHost::new(world, HostAnswers::default())
}

fn list(host: &mut HookHost, input: Value) -> Result<Value, HostError> {
    host.call("library.listItems", json!([input]), None)
}

/// The keys of a page's `member` list.
fn keys(page: &Value, member: &str) -> Vec<String> {
    let listed = page[member].as_array().unwrap().iter();
    listed
        .map(|i| i["ref"]["key"].as_str().unwrap().to_owned())
        .collect()
}

fn book(key: &str) -> Value {
    json!({"key": key, "itemType": "book", "title": key})
}

#[test]
fn a_listing_pages_in_stable_order_to_its_last_page() {
    let items: Vec<Value> = ["ITEM0001", "ITEM0002", "ITEM0003", "ITEM0004", "ITEM0005"]
        .into_iter()
        .map(book)
        .collect();
    let mut host = host(json!({"items": items}));
    let mut pages = Vec::new();
    let mut cursor = Value::Null;
    loop {
        let page = list(
            &mut host,
            json!({"libraryId": 1, "limit": 2, "cursor": cursor}),
        )
        .unwrap();
        let next = page["nextCursor"].clone();
        pages.push((
            keys(&page, "items"),
            page["returned"].clone(),
            page["hasMore"].clone(),
            page["totalScanned"].clone(),
        ));
        if next.is_null() {
            break;
        }
        let text = next.as_str().unwrap();
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        );
        cursor = next;
    }
    let page = |keys: &[&str], more: bool| {
        let listed: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        (listed, json!(keys.len()), json!(more), json!(5))
    };
    assert_eq!(
        pages,
        [
            page(&["ITEM0001", "ITEM0002"], true),
            page(&["ITEM0003", "ITEM0004"], true),
            page(&["ITEM0005"], false),
        ]
    );
}

/// What the literal listing below must find, once, among look-alikes: the same
/// paper in another library, as a child, trashed, in another collection, and
/// titles that `%` or `_` would match as wildcards.
fn literal_library() -> Value {
    let matching = json!({"key": "LITERAL1", "libraryID": 2, "itemType": "book",
        "title": "A 100%_literal result", "collections": ["GCOLL007"],
        "tags": [{"tag": "Topic:Exact"}, {"tag": "100%_literal"}],
        "creators": [{"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"}],
        "date": "2026", "publicationTitle": "Query Journal", "abstractNote": "Field-local evidence"});
    let like = |key: &str, change: Value| {
        let mut item = matching.clone();
        item["key"] = key.into();
        for (k, v) in change.as_object().unwrap() {
            item[k] = v.clone();
        }
        item
    };
    let decoy_tags = json!([{"tag": "Topic:Exact"}]);
    json!({"items": [
        matching,
        like("USERLIB1", json!({"libraryID": 1, "collections": []})),
        like("CHILD001", json!({"itemType": "attachment", "parentItem": "LITERAL1"})),
        like("TRASHED1", json!({"deleted": true})),
        like("OTHERCOL", json!({"collections": ["GCOLL008"]})),
        like("PERCENT1", json!({"title": "A 100X_literal result", "tags": decoy_tags})),
        like("UNDERSC1", json!({"title": "A 100%Xliteral result", "tags": decoy_tags})),
    ], "collections": [
        {"key": "GCOLL007", "name": "Seven", "libraryID": 2},
        {"key": "GCOLL008", "name": "Eight", "libraryID": 2},
    ]})
}

#[test]
fn criteria_are_literal_and_every_page_shares_them() {
    let mut host = host(literal_library());
    let criteria = json!({"libraryId": 2, "collectionRef": {"libraryId": 2, "key": "GCOLL007"},
        "tag": "topic:exact", "itemType": "book", "filter": "100%_literal", "limit": 10});
    let page = list(&mut host, criteria).unwrap();
    assert_eq!(keys(&page, "items"), ["LITERAL1"]);
    assert_eq!(page["totalScanned"], 1);
    assert_eq!(
        page["criteria"],
        json!({"libraryId": 2, "collectionRef": {"libraryId": 2, "key": "GCOLL007"},
            "tag": "topic:exact", "itemType": "book", "filter": "100%_literal",
            "order": "stable_identity"})
    );
    // The filter reads the creators, the date and the abstract too.
    for filter in ["lovelace", "2026", "field-local"] {
        let input = json!({"libraryId": 2, "filter": filter, "itemType": "book"});
        let found = keys(&list(&mut host, input).unwrap(), "items");
        assert!(found.contains(&"LITERAL1".to_string()), "{filter}");
    }
}

#[test]
fn a_damaged_cursor_is_refused() {
    let mut host = host(json!({"items": [book("ITEM0001"), book("ITEM0002")]}));
    let reply = list(&mut host, json!({"limit": 1, "cursor": "damaged!"}));
    let error = reply.unwrap_err();
    assert_eq!(error.name, "ZoteroHostCapabilityError");
    assert_eq!(
        reply_code(&Err(error)),
        (
            "invalid_request".into(),
            json!({"reason": "invalid_value", "field": "cursor"})
        )
    );
}

#[test]
fn notes_annotations_and_collections_page_too() {
    let mut host = host(json!({"items": [
        book("PARENT01"),
        {"key": "NOTE0101", "itemType": "note", "parentItem": "PARENT01", "note": "<p>1</p>"},
        {"key": "NOTE0102", "itemType": "note", "parentItem": "PARENT01", "note": "<p>2</p>"},
        {"key": "NOTE0103", "itemType": "note", "parentItem": "PARENT01", "note": "<p>3</p>"},
        {"key": "ATTACH02", "itemType": "attachment", "parentItem": "PARENT01",
         "linkMode": "imported_file", "path": "attachments/ATTACH02/a.pdf"},
        {"key": "ANNOT003", "itemType": "annotation", "parentItem": "ATTACH02", "annotationSortIndex": "0001"},
        {"key": "ANNOT004", "itemType": "annotation", "parentItem": "ATTACH02", "annotationSortIndex": "0001"},
    ], "collections": [{"key": "COLLB009", "name": "same"}, {"key": "COLLC010", "name": "same"}]}));
    let parent = json!({"libraryId": 1, "key": "PARENT01"});
    let notes = host.call("library.getItemNotes", json!([parent, {"limit": 2}]), None);
    let notes = notes.unwrap();
    assert_eq!(keys(&notes, "notes"), ["NOTE0101", "NOTE0102"]);
    assert_eq!(
        (notes["hasMore"].clone(), notes["total"].clone()),
        (json!(true), json!(3))
    );
    let rest = json!([parent, {"limit": 2, "cursor": notes["nextCursor"]}]);
    let rest = host.call("library.getItemNotes", rest, None).unwrap();
    assert_eq!(keys(&rest, "notes"), ["NOTE0103"]);
    let attachment = json!({"libraryId": 1, "key": "ATTACH02"});
    for owner in [parent, attachment] {
        let first = host.call(
            "library.listAnnotations",
            json!([owner, {"limit": 1}]),
            None,
        );
        let first = first.unwrap();
        assert_eq!(keys(&first, "annotations"), ["ANNOT003"]);
        let last = json!([owner, {"limit": 1, "cursor": first["nextCursor"]}]);
        let last = host.call("library.listAnnotations", last, None).unwrap();
        assert_eq!(keys(&last, "annotations"), ["ANNOT004"]);
        assert_eq!(last["hasMore"], false);
    }
    let collections = host.call("library.listCollections", json!([{"limit": 1}]), None);
    let collections = collections.unwrap();
    assert_eq!(keys(&collections, "collections"), ["COLLB009"]);
    assert_eq!(collections["collections"][0]["name"], "same");
    assert_eq!(collections["hasMore"], true);
}
