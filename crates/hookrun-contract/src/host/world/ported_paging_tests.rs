//! Library pages after the reference host's page query suite
//! (`tests/zotero-host/185-zotero-library-page-query.test.ts`): pages of a
//! listing in stable order up to the last, the literal criteria of a listing
//! (`%` and `_` are characters, not wildcards) shared by every page, a damaged
//! cursor refused, and the pages of notes, annotations and collections; and
//! the keyset cursors of a listing: bound to their criteria, strings only, and
//! resuming after the last row even when rows leave or join between pages.

use serde_json::{Value, json};

use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::session::HookHost;
use crate::host::world::HostWorld;
use crate::host::{Budget, HostError};
use crate::selection::SelectionContext;

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

/// The code, details and message of a refused listing.
fn refusal(reply: Result<Value, HostError>) -> (String, Value, String) {
    let message = reply.as_ref().err().map(|e| e.message.clone());
    let (code, details) = reply_code(&reply);
    (code, details, message.unwrap_or_default())
}

fn cursor_refusal(message: &str) -> (String, Value, String) {
    let details = json!({"reason": "invalid_value", "field": "cursor"});
    let message = format!("library.listItems: {message}");
    ("invalid_request".into(), details, message)
}

#[test]
fn a_cursor_is_bound_to_its_criteria_and_must_be_a_string() {
    let items = ["ITEM0001", "ITEM0002"].map(book);
    let mut host = host(json!({"items": items}));
    let first = list(&mut host, json!({"filter": "item", "limit": 1})).unwrap();
    let cursor = first["nextCursor"].clone();
    let same = list(
        &mut host,
        json!({"filter": " ITEM ", "limit": 1, "cursor": cursor}),
    );
    assert_eq!(keys(&same.unwrap(), "items"), ["ITEM0002"]);
    let other = list(&mut host, json!({"filter": "different", "cursor": cursor}));
    let mismatch = "library cursor does not match the current criteria";
    assert_eq!(refusal(other), cursor_refusal(mismatch));
    let numeric = list(&mut host, json!({"filter": "item", "cursor": 1}));
    assert_eq!(
        refusal(numeric),
        cursor_refusal("library cursor must be a string")
    );
    let damaged = list(&mut host, json!({"filter": "item", "cursor": "damaged!"}));
    assert_eq!(
        refusal(damaged),
        cursor_refusal("library cursor is malformed")
    );
    let mut body: Value = serde_json::from_slice(
        &base64::Engine::decode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            cursor.as_str().unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(body["afterKey"], "ITEM0001");
    body["version"] = 2.into();
    let newer = base64::Engine::encode(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        body.to_string(),
    );
    let newer = list(&mut host, json!({"filter": "item", "cursor": newer}));
    assert_eq!(
        refusal(newer),
        cursor_refusal("library cursor version is unsupported")
    );
}

/// The keys of the second page (`limit` 2) of `after`, read with the cursor of
/// the first page of `before`.
fn second_page(before: Value, after: Value) -> Vec<String> {
    let first = list(&mut host(before), json!({"limit": 2})).unwrap();
    assert_eq!(first["hasMore"], true);
    let input = json!({"limit": 2, "cursor": first["nextCursor"]});
    keys(&list(&mut host(after), input).unwrap(), "items")
}

#[test]
fn a_row_leaving_before_the_cursor_does_not_skip_one() {
    let world = |keys: &[&str]| json!({"items": keys.iter().map(|k| book(k)).collect::<Vec<_>>()});
    let before = world(&["ITEM0001", "ITEM0002", "ITEM0003"]);
    let after = world(&["ITEM0002", "ITEM0003", "ITEM0004"]);
    assert_eq!(second_page(before, after), ["ITEM0003", "ITEM0004"]);
    // Trashed, the cursor's own row still places the next page.
    let mut trashed = world(&["ITEM0001", "ITEM0002", "ITEM0003"]);
    trashed["items"][1]["deleted"] = true.into();
    let before = world(&["ITEM0001", "ITEM0002", "ITEM0003"]);
    assert_eq!(second_page(before, trashed), ["ITEM0003"]);
}

/// A world of selected regular items with these Zotero item ids.
fn numbered(ids: &[i64]) -> HostWorld {
    let parents: Vec<Value> = ids
        .iter()
        .map(|id| {
            let item = json!({"id": id, "key": format!("ITEM000{id}"), "itemType": "book",
                "libraryID": 1, "data": {"title": "T"}});
            json!({"item": item, "attachments": [], "notes": []})
        })
        .collect();
    let value = json!({"items": {"parents": parents, "children": [], "attachments": [],
        "notes": []}, "sampledAt": "t"});
    HostWorld::from_selection(&SelectionContext::from_value(&value).unwrap())
}

#[test]
fn a_cursor_row_gone_from_the_world_resumes_by_item_id() {
    let first = numbered(&[1, 2, 3])
        .list_items(&json!({"limit": 2}))
        .unwrap();
    assert_eq!(keys(&first, "items"), ["ITEM0001", "ITEM0002"]);
    let input = json!({"limit": 2, "cursor": first["nextCursor"]});
    let erased = numbered(&[1, 3, 4]).list_items(&input).unwrap();
    assert_eq!(keys(&erased, "items"), ["ITEM0003", "ITEM0004"]);
    assert_eq!(
        (erased["hasMore"].clone(), erased["totalScanned"].clone()),
        (json!(false), json!(3))
    );
}

#[test]
fn a_traversal_resumes_with_the_listing_cursor() {
    let items = ["ITEM0001", "ITEM0002", "ITEM0003"].map(book);
    let world = HostWorld::default()
        .with_library(&json!({"items": items}))
        .unwrap();
    let input = json!({"scope": "top-level-regular", "pageSize": 2, "maxItems": 2});
    let (_, ending) = world
        .traverse_items(&input, &Budget::unlimited(), "T")
        .unwrap();
    assert_eq!(ending["outcome"], "resource_limited");
    let listed = world.list_items(&json!({"limit": 2})).unwrap();
    assert_eq!(ending["resumeCursor"], listed["nextCursor"]);
    let mut resumed = input.clone();
    resumed["resumeCursor"] = ending["resumeCursor"].clone();
    let (batches, ending) = world
        .traverse_items(&resumed, &Budget::unlimited(), "T")
        .unwrap();
    assert_eq!(keys(&batches[0][0], "items"), ["ITEM0003"]);
    assert_eq!(ending["outcome"], "completed");
    resumed["resumeCursor"] = "3".into();
    let refused = world.traverse_items(&resumed, &Budget::unlimited(), "T");
    assert_eq!(
        refused.unwrap_err().to_string(),
        "library cursor is malformed"
    );
}

/// A parent with the notes `keys` (and a second parent with one note).
fn notes_library(keys: &[&str]) -> Value {
    let mut items = vec![book("PARENT01"), book("PARENT02")];
    for key in keys {
        items.push(
            json!({"key": key, "itemType": "note", "parentItem": "PARENT01", "note": "<p>n</p>"}),
        );
    }
    items.push(json!({"key": "NOTE0201", "itemType": "note", "parentItem": "PARENT02", "note": "<p>n</p>"}));
    json!({"items": items})
}

#[test]
fn a_child_page_cursor_is_bound_to_its_listing_and_resumes_after_its_row() {
    let parent = |key: &str| json!({"libraryId": 1, "key": key});
    let mut before = host(notes_library(&["NOTE0101", "NOTE0102", "NOTE0103"]));
    let first = json!([parent("PARENT01"), {"limit": 2}]);
    let first = before.call("library.getItemNotes", first, None).unwrap();
    let cursor = first["nextCursor"].clone();
    // Rows 1-3, pages of 2: with 1 removed and 4 added, the second page is 3 and 4.
    let mut after = host(notes_library(&["NOTE0102", "NOTE0103", "NOTE0104"]));
    let next = json!([parent("PARENT01"), {"limit": 2, "cursor": cursor}]);
    let next = after.call("library.getItemNotes", next, None).unwrap();
    assert_eq!(keys(&next, "notes"), ["NOTE0103", "NOTE0104"]);
    let refused = |host: &mut HookHost, member: &str, owner: &str, message: &str| {
        let args = json!([parent(owner), {"cursor": cursor}]);
        let expected = (
            "invalid_request".to_string(),
            json!({"reason": "invalid_value", "field": "cursor"}),
            format!("{member}: {message}"),
        );
        assert_eq!(refusal(host.call(member, args, None)), expected);
    };
    let other = "source cursor does not match the query";
    refused(&mut after, "library.getItemNotes", "PARENT02", other);
    refused(&mut after, "library.getItemAttachments", "PARENT01", other);
    // The cursor's own row gone, a note page cannot place it.
    let mut gone = host(notes_library(&["NOTE0101", "NOTE0103"]));
    let invalid = "source cursor position is invalid";
    refused(&mut gone, "library.getItemNotes", "PARENT01", invalid);
    let damaged = json!([parent("PARENT01"), {"cursor": "damaged!"}]);
    let damaged = refusal(gone.call("library.getItemNotes", damaged, None));
    assert_eq!(
        damaged.2,
        "library.getItemNotes: source cursor is malformed"
    );
}
