//! Shape detection, parsing errors, serialisation, counts, identities, conversions.

use serde_json::{Value, json};

use super::*;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/selections");

const PAIRS: &[&str] = &[
    "single-pdf",
    "single-markdown",
    "attachments-different-parents",
    "mixed-same-parent",
    "orphan-note",
    "empty",
];

fn raw(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{FIXTURES}/{name}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn parse(name: &str) -> SelectionContext {
    SelectionContext::from_value(&raw(name)).unwrap()
}

/// A reader handing out its text a few bytes at a time, as a pipe may, that
/// can go back (for [`SelectionContext::from_seekable`]).
struct Trickle<'a>(std::io::Cursor<&'a [u8]>);

impl<'a> Trickle<'a> {
    fn new(text: &'a [u8]) -> Self {
        Self(std::io::Cursor::new(text))
    }
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(7);
        self.0.read(&mut buf[..n])
    }
}

impl std::io::Seek for Trickle<'_> {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        self.0.seek(to)
    }
}

/// `text` read from a seekable trickling reader and from a whole cursor,
/// checked to agree with the one-pass reader's result and error.
fn seekable(text: &str) -> Result<SelectionContext, String> {
    let one_pass = SelectionContext::from_reader(text.as_bytes()).map_err(|e| e.to_string());
    let trickled =
        SelectionContext::from_seekable(Trickle::new(text.as_bytes())).map_err(|e| e.to_string());
    let whole = SelectionContext::from_seekable(std::io::Cursor::new(text.as_bytes()))
        .map_err(|e| e.to_string());
    let threaded = SelectionContext::from_seekable_threaded(Trickle::new(text.as_bytes()))
        .map_err(|e| e.to_string());
    assert_eq!(trickled, one_pass, "{text}");
    assert_eq!(whole, one_pass, "{text}");
    assert_eq!(threaded, one_pass, "{text}");
    one_pass
}

/// `value` read borrowed, owned, from its text and from a trickling reader,
/// each result as a string; all four must agree.
fn read_all_ways(value: &Value, label: &str) -> Result<SelectionContext, String> {
    let borrowed = SelectionContext::from_value(value).map_err(|e| e.to_string());
    let owned = SelectionContext::from_owned(value.clone()).map_err(|e| e.to_string());
    let text = value.to_string();
    let streamed = SelectionContext::from_json_str(&text).map_err(|e| e.to_string());
    let trickled =
        SelectionContext::from_reader(Trickle::new(text.as_bytes())).map_err(|e| e.to_string());
    assert_eq!(owned, borrowed, "{label}: {value}");
    assert_eq!(streamed, borrowed, "{label}: {value}");
    assert_eq!(trickled, borrowed, "{label}: {value}");
    assert_eq!(seekable(&text), borrowed, "{label}: {value}");
    let pretty = serde_json::to_string_pretty(value).unwrap();
    assert_eq!(seekable(&pretty), borrowed, "{label}: {value}");
    borrowed
}

/// The error of `value`, the same whichever way it is read.
fn error(value: Value) -> String {
    read_all_ways(&value, "an invalid selection").unwrap_err()
}

#[test]
fn owned_and_streamed_parsing_read_what_borrowed_parsing_reads() {
    let mut names: Vec<String> = std::fs::read_dir(FIXTURES)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() > 10);
    // Valid or not, every way reads the same (`read_all_ways` compares).
    let same = |value: &Value, name: &str| drop(read_all_ways(value, name));
    for name in names {
        let mut value = raw(&name);
        same(&value, &name);
        // Without selectionType (absent or null), it is computed from the
        // entries read; with two faults, the same one is reported first.
        if value.get("items").is_some_and(Value::is_object) {
            value["selectionType"] = Value::Null;
            same(&value, &name);
            value.as_object_mut().unwrap().remove("selectionType");
            same(&value, &name);
            value["summary"] = json!({"parentCount": -1});
            if let Some(Value::Array(parents)) = value["items"].get_mut("parents") {
                parents.push(json!({"item": 7}));
            }
            same(&value, &name);
        }
    }
}

#[test]
fn fixtures_parse_and_serialise_back_unchanged() {
    let names = PAIRS
        .iter()
        .flat_map(|n| [format!("grouped-{n}"), format!("canonical-{n}")])
        .chain([
            "grouped-parent-with-attachments-notes".into(),
            "canonical-parent".into(),
        ]);
    for name in names {
        let sel = parse(&name);
        assert_eq!(
            matches!(sel, SelectionContext::Grouped(_)),
            name.starts_with("grouped")
        );
        assert_eq!(sel.to_value(), raw(&name), "{name}");
        assert_eq!(
            serde_json::to_string(&sel).unwrap(),
            serde_json::to_string(&sel.to_value()).unwrap()
        );
        // Written from its text, an entry is what its value would be in any format.
        assert_eq!(
            serde_json::to_string_pretty(&sel).unwrap(),
            serde_json::to_string_pretty(&sel.to_value()).unwrap()
        );
        assert_eq!(serde_json::to_value(&sel).unwrap(), sel.to_value());
    }
}

#[test]
fn a_failing_writer_s_error_comes_back_as_it_was() {
    /// Takes `room` bytes, then fails as a closed pipe does.
    struct Pipe(usize);
    impl std::io::Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0 < buf.len() {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            self.0 -= buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let sel = parse("grouped-parent-with-attachments-notes");
    let len = serde_json::to_string(&sel).unwrap().len();
    for room in (0..len).step_by(7) {
        let e = serde_json::to_writer(Pipe(room), &sel).unwrap_err();
        assert_eq!(
            e.io_error_kind(),
            Some(std::io::ErrorKind::BrokenPipe),
            "{room}"
        );
    }
    serde_json::to_writer(Pipe(len), &sel).unwrap();
}

#[test]
fn counts_and_target_refs() {
    let mixed = parse("grouped-mixed-same-parent");
    let want = SelectionCounts {
        parents: 0,
        children: 0,
        attachments: 3,
        notes: 1,
        total: 4,
    };
    assert_eq!(mixed.counts(), want);
    assert_eq!(parse("canonical-mixed-same-parent").counts(), want);
    assert_eq!(want.kinds_present(), 2);
    let parent = PortableItemRef {
        library_id: 1,
        key: "PARENT01".into(),
    };
    for name in [
        "grouped-mixed-same-parent",
        "canonical-mixed-same-parent",
        "canonical-parent",
        "grouped-parent-with-attachments-notes",
    ] {
        assert_eq!(parse(name).target_ref(), Some(parent.clone()), "{name}");
    }
    let orphan = PortableItemRef {
        library_id: 1,
        key: "NOTEORPH".into(),
    };
    assert_eq!(parse("grouped-orphan-note").target_ref(), Some(orphan));
    assert_eq!(parse("canonical-empty").target_ref(), None);
    assert_eq!(parent.identity(), "1:PARENT01");
    assert_eq!(parent.kind_identity("attachment"), "attachment:1:PARENT01");
}

#[test]
fn grouped_identities() {
    let item = |v: Value| ItemBase::parse(&v, "").unwrap();
    assert_eq!(
        item(json!({"id": 3, "key": "K", "libraryID": 2})).identity("note", 0),
        "note:2:K"
    );
    assert_eq!(
        item(json!({"id": 3, "key": "K"})).identity("note", 0),
        "note:K"
    );
    assert_eq!(item(json!({"id": 3})).identity("note", 0), "note-id:3");
    assert_eq!(item(json!({})).identity("note", 7), "note-index:7");
    assert_eq!(
        item(json!({"id": 3})).parent_identity().as_deref(),
        Some("parent-id:3")
    );
    let entry = GroupedEntry::parse(
        ItemKind::Note,
        &json!({"item": {"id": 4, "parentItemID": 9}}),
        "",
    )
    .unwrap();
    assert_eq!(entry.parent_identity().as_deref(), Some("parent-id:9"));
    assert_eq!(entry.target_parent_id(), Some(9));
}

#[test]
fn items_read_their_strings_from_their_text_or_keep_escaped_ones() {
    let item = |v: Value| ItemBase::parse(&v, "").unwrap();
    let data = json!({"title": "D", "path": "a/b.pdf", "contentType": "application/pdf",
        "dateAdded": "2026-01-01", "extra": "x"});
    let plain = item(json!({"key": "K", "itemType": "book", "title": "T", "data": data}));
    // One string written with escapes keeps all of them apart; they read the same.
    let escaped = item(json!({"key": "K", "itemType": "book", "title": "\"T\"\n", "data": data}));
    for (i, it) in [plain, escaped].iter().enumerate() {
        assert_eq!(it.key(), Some("K"));
        assert_eq!(it.item_type(), Some("book"));
        assert_eq!(it.title(), Some(["T", "\"T\"\n"][i]));
        assert_eq!(it.data_title(), Some("D"));
        assert_eq!(it.data_path(), Some("a/b.pdf"));
        assert_eq!(it.data_content_type(), Some("application/pdf"));
        assert_eq!(it.data_date_added(), Some("2026-01-01"));
    }
    // Members of other types, and `data` members outside `data`, read as absent.
    let other = item(json!({"key": "K", "path": "top", "data": {"title": 5, "path": ["p"]}}));
    assert_eq!((other.data_title(), other.data_path()), (None, None));
    assert_eq!((other.title(), other.item_type()), (None, None));
    let unchecked = json!({"data": "not an object", "title": "é"});
    let nested_data = ItemBase::of_map(unchecked.as_object().unwrap());
    assert_eq!(
        (nested_data.data_title(), nested_data.title()),
        (None, Some("é"))
    );
}

#[test]
fn a_shared_item_fits_the_allocator_s_128_byte_class() {
    // Two of them a unit at 100,000 units: the next class is 160 bytes.
    let arc_counts = 2 * size_of::<usize>();
    assert!(size_of::<ItemBase>() + arc_counts <= 128);
}

#[test]
fn entries_read_their_file_path_and_type_from_their_text() {
    let entry = |v: Value| GroupedEntry::parse(ItemKind::Attachment, &v, "").unwrap();
    let item = json!({"id": 2, "key": "A", "data": {"path": "d.pdf", "contentType": "text/plain"}});
    let plain = entry(json!({"item": item, "filePath": "a/b.pdf", "mimeType": "application/pdf"}));
    // A Windows path is written with escapes: the strings are kept apart.
    let windows =
        entry(json!({"item": item, "filePath": "C:\\p\\b.pdf", "mimeType": "application/pdf"}));
    let bare = entry(json!({"item": item}));
    assert_eq!(
        (plain.file_path(), plain.mime_type()),
        (Some("a/b.pdf"), Some("application/pdf"))
    );
    assert_eq!(windows.file_path(), Some("C:\\p\\b.pdf"));
    assert_eq!(windows.filename(), Some("b.pdf"));
    assert_eq!((bare.file_path(), bare.mime_type()), (None, None));
    assert_eq!(
        (bare.path(), bare.content_type()),
        (Some("d.pdf"), Some("text/plain"))
    );
    assert_eq!(plain.to_map()["filePath"], "a/b.pdf");
}

#[test]
fn malformed_selections_name_the_pointer() {
    let t = "2026-01-01T00:00:00Z";
    let grouped = |items: Value| json!({"selectionType": "none", "items": items, "warnings": [], "sampledAt": t});
    let empty_arrays = json!({"parents": [], "children": [], "attachments": [], "notes": []});
    let mut bad_key = empty_arrays.clone();
    bad_key["attachments"] = json!([{"item": {"key": 5}}]);
    let mut no_item = empty_arrays.clone();
    no_item["notes"] = json!([{"parent": null}]);
    let mut bad_parent = empty_arrays.clone();
    bad_parent["children"] = json!([{"item": {}, "parent": "x"}]);
    let mut nested = empty_arrays.clone();
    nested["parents"] = json!([{"item": {}, "attachments": [{"item": {"id": "x"}}]}]);
    let mut extra = empty_arrays.clone();
    extra["attachments"] = json!([{"item": {}, "surprise": 1}]);
    let fact = |patch: Value| {
        let mut f = json!({"kind": "attachment", "ref": {"libraryId": 1, "key": "K"}, "itemType": "attachment"});
        for (k, v) in patch.as_object().unwrap() {
            f[k] = v.clone();
        }
        json!({"items": [f], "sampledAt": t})
    };
    let cases = [
        (json!(5), ": expected an object"),
        (json!({}), "Canonical locked selection is required"),
        (
            json!({"items": "x", "sampledAt": t}),
            "Canonical locked selection is required",
        ),
        (json!({"items": []}), "/sampledAt: is required"),
        (
            json!({"items": [], "sampledAt": 3}),
            "/sampledAt: expected a string",
        ),
        (
            json!({"items": [], "sampledAt": t, "extra": 1}),
            "/extra: unknown field",
        ),
        (
            json!({"items": [7], "sampledAt": t}),
            "/items/0: expected an object",
        ),
        (
            fact(json!({"kind": "book"})),
            "/items/0/kind: expected one of parent, child, attachment, note",
        ),
        (
            fact(json!({"ref": {"libraryId": 0, "key": "K"}})),
            "/items/0/ref: Expected a complete portable item reference",
        ),
        (
            fact(json!({"ref": {"libraryId": 1, "key": ""}})),
            "/items/0/ref: Expected a complete portable item reference",
        ),
        (
            fact(json!({"ref": {"libraryId": 1}})),
            "/items/0/ref: Expected a complete portable item reference",
        ),
        (
            fact(json!({"parentRef": {"libraryId": 1, "key": "P", "x": 1}})),
            "/items/0/parentRef: Expected a complete portable item reference",
        ),
        (
            fact(json!({"itemType": null})),
            "/items/0/itemType: expected a string",
        ),
        (
            fact(json!({"fileState": "gone"})),
            "/items/0/fileState: expected one of available, missing, not_applicable",
        ),
        (
            fact(json!({"filename": 1})),
            "/items/0/filename: expected a string",
        ),
        (fact(json!({"a/b": 1})), "/items/0/a~1b: unknown field"),
        (
            json!({"items": [], "sampledAt": t, "exportCandidates": [{"ref": {"libraryId": 1, "key": "N"}}]}),
            "/exportCandidates/0/noteKind: is required",
        ),
        (
            grouped(json!({"parents": []})),
            "/items/children: is required",
        ),
        (
            grouped(bad_key),
            "/items/attachments/0/item/key: expected a string",
        ),
        (grouped(no_item), "/items/notes/0/item: is required"),
        (
            grouped(bad_parent),
            "/items/children/0/parent: expected an object",
        ),
        (
            grouped(nested),
            "/items/parents/0/attachments/0/item/id: expected an integer",
        ),
        (
            grouped(extra),
            "/items/attachments/0/surprise: unknown field",
        ),
        (
            json!({"items": empty_arrays, "sampledAt": t, "summary": {"noteCount": -1}}),
            "/summary/noteCount: expected an integer ≥ 0",
        ),
        (
            json!({"items": empty_arrays, "sampledAt": t, "warnings": [1]}),
            "/warnings/0: expected a string",
        ),
    ];
    for (value, want) in cases {
        assert_eq!(error(value.clone()), want, "{value}");
    }
}

#[test]
fn text_reads_as_its_parsed_value_reads() {
    let t = "\"sampledAt\": \"t\"";
    let arrays = "\"parents\": [], \"children\": [], \"notes\": []";
    let entry = r#"{"item": {"id": 2, "key": "A", "libraryID": 1}}"#;
    let texts = [
        "[1, [2]]".to_owned(),
        "\"x\"".to_owned(),
        "3.5".to_owned(),
        "null".to_owned(),
        format!("{{{t}}}"),
        format!("{{\"items\": 7, {t}}}"),
        format!("{{\"items\": null, {t}}}"),
        format!("{{\"items\": [{{\"kind\": \"book\"}}], {t}}}"),
        format!("{{\"items\": {{{arrays}, \"attachments\": {{\"a\": 1}}}}, {t}}}"),
        format!("{{\"items\": {{{arrays}, \"attachments\": \"x\"}}, {t}}}"),
        format!("{{\"items\": {{{arrays}, \"attachments\": [{entry}, 5, {{}}]}}, {t}}}"),
        // A later duplicate replaces the earlier value, in the earlier one's place.
        format!(
            "{{\"items\": {{{arrays}, \"attachments\": [5], \"attachments\": [{entry}]}}, {t}}}"
        ),
        format!("{{\"items\": {{{arrays}, \"attachments\": [{entry}], \"attachments\": 1}}, {t}}}"),
        format!("{{\"items\": [], \"items\": {{{arrays}, \"attachments\": [{entry}]}}, {t}}}"),
        format!("{{\"items\": {{{arrays}, \"attachments\": []}}, \"items\": [], {t}}}"),
        format!("{{\"x\": 1, \"items\": {{{arrays}, \"attachments\": [5]}}, {t}}}"),
        format!("{{\"items\": {{\"odd\": 1, {arrays}, \"attachments\": [5]}}, {t}}}"),
    ];
    for text in &texts {
        let value: Value = serde_json::from_str(text).unwrap();
        let want = SelectionContext::from_value(&value).map_err(|e| e.to_string());
        let got = SelectionContext::from_json_str(text).map_err(|e| e.to_string());
        assert_eq!(got, want, "{text}");
        let read =
            SelectionContext::from_reader(Trickle::new(text.as_bytes())).map_err(|e| e.to_string());
        assert_eq!(read, want, "{text}");
        assert_eq!(seekable(text), want, "{text}");
    }
    for bad in [
        "{\"items\": {\"attachments\": [1,]}}",
        "{\"items\": {}} x",
        "{\"items\": {\"attachments\": [{}, {\"a\": }]}}",
    ] {
        let e = SelectionContext::from_json_str(bad)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(": invalid JSON: "), "{bad}: {e}");
        let e = SelectionContext::from_reader(bad.as_bytes()).unwrap_err();
        assert!(matches!(e, ReadError::Json(_)), "{bad}: {e}");
        // Text held in memory fails as a reader of it does, at the same place.
        let held = SelectionContext::from_text(bad).unwrap_err();
        assert!(matches!(held, ReadError::Json(_)), "{bad}: {held}");
        assert_eq!(held.to_string(), e.to_string(), "{bad}");
        assert_eq!(seekable(bad).unwrap_err(), e.to_string(), "{bad}");
    }
    // Reading from a slice places some errors a column apart from the one-pass
    // reader (a number out of range): a seekable reader reports the latter's.
    for text in [
        "{\"items\": [1e999]}",
        "\n  [1e999]",
        "{\"items\": {\"notes\": [{\"item\": {\"id\": 1e999}}]}}",
    ] {
        let e = seekable(text).unwrap_err();
        assert!(e.contains("number out of range"), "{text}: {e}");
    }
}

#[test]
fn deep_and_huge_inputs_do_not_panic() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(
        SelectionContext::from_json_str(&deep)
            .unwrap_err()
            .to_string()
            .starts_with(": invalid JSON")
    );
    let mut data = json!(1);
    for _ in 0..100 {
        data = json!({"d": data});
    }
    let sel = json!({"items": {"parents": [{"item": {"id": 1, "data": data}}], "children": [],
                     "attachments": [], "notes": []}, "sampledAt": "t"});
    assert_eq!(
        SelectionContext::from_value(&sel).unwrap().counts().parents,
        1
    );
    let items: Vec<Value> = (0..100_000)
        .map(|i| json!({"kind": "note", "ref": {"libraryId": 1, "key": format!("N{i}")}, "itemType": "note"}))
        .collect();
    let mut huge = json!({"items": items, "sampledAt": "t"});
    assert_eq!(
        SelectionContext::from_value(&huge).unwrap().counts().notes,
        100_000
    );
    huge["items"][99_999]["ref"] = json!(null);
    assert_eq!(
        error(huge),
        "/items/99999/ref: Expected a complete portable item reference"
    );
}

#[test]
fn grouped_to_canonical_matches_the_canonical_fixtures() {
    for name in PAIRS {
        let grouped = parse(&format!("grouped-{name}"));
        let converted = grouped.to_canonical(&|_| true).unwrap();
        assert_eq!(
            SelectionContext::Canonical(converted),
            parse(&format!("canonical-{name}")),
            "{name}"
        );
    }
    let missing = parse("grouped-single-pdf")
        .to_canonical(&|_| false)
        .unwrap();
    assert_eq!(missing.items[0].file_state, Some(FileState::Missing));
    let mut no_key = raw("grouped-single-pdf");
    no_key["items"]["attachments"][0]["item"]["key"] = json!(null);
    let err = SelectionContext::from_value(&no_key)
        .unwrap()
        .to_canonical(&|_| true)
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("/items/attachments/0/item: expected libraryID")
    );
}

#[test]
fn canonical_round_trips_through_grouped() {
    for name in PAIRS
        .iter()
        .map(|n| format!("canonical-{n}"))
        .chain(["canonical-parent".into()])
    {
        let canonical = parse(&name);
        let grouped = SelectionContext::Grouped(canonical.to_grouped());
        let reparsed = SelectionContext::from_value(&grouped.to_value()).unwrap();
        let back = reparsed.to_canonical(&|_| true).unwrap();
        assert_eq!(SelectionContext::Canonical(back), canonical, "{name}");
    }
    let grouped = parse("canonical-mixed-same-parent").to_grouped();
    assert_eq!(grouped.selection_type, "mixed");
    assert_eq!(
        grouped.attachments[1].path(),
        Some("attachments/ATTPDF01/cats.pdf")
    );
    assert_eq!(grouped.attachments[1].item.id, Some(3));
    assert_eq!(grouped.attachments[1].target_parent_id(), Some(2));
    assert_eq!(grouped.notes[0].parent.as_ref().and_then(|p| p.id), Some(2));
    let orphan = parse("grouped-orphan-note");
    assert_eq!(Some(&orphan.to_grouped()), orphan.as_grouped());
    assert_eq!(orphan.as_canonical(), None);
}

#[test]
fn merge_unions_by_identity() {
    let a = parse("canonical-single-pdf");
    let b = parse("canonical-attachments-different-parents");
    let merged = SelectionContext::merge(&[&a, &b]).unwrap();
    assert_eq!(merged.counts().attachments, 2);
    let g = parse("grouped-mixed-same-parent");
    let g2 =
        parse("grouped-single-pdf").with_extras(Some(vec![json!({"x": 1})]), Some(json!({"t": 1})));
    let merged = SelectionContext::merge(&[&g, &g2, &a]).unwrap().to_value();
    assert_eq!(merged["summary"]["attachmentCount"], 3);
    assert_eq!(merged["selectionType"], "mixed");
    assert_eq!(merged["exportCandidates"], json!([{"x": 1}]));
    assert_eq!(merged["digestRepresentativeImageTarget"], json!({"t": 1}));
    assert_eq!(SelectionContext::merge(&[]), None);
}
