//! The worked example of contract §10, in both shapes.

use serde_json::json;

use super::*;

fn example_spec() -> PlanningSpec {
    spec(json!({
        "inputs": {"member": {"kind": "attachment", "accepts": {"mime": ["application/pdf"]}},
                   "grouping": {"mode": "each"}},
        "validateSelection": {"select": {"policy": "input-member", "source": "related"},
            "filters": [{"kind": "artifact-absent", "phase": "availability", "target": "mineru-markdown"}]}
    }))
}

fn check(plan: &Plan, label: &str) {
    assert_eq!(plan.stats.candidates.total, 3);
    assert_eq!(
        skips(plan),
        [
            ("attachment:1:EXAMPLEM", "mime-not-accepted"),
            ("attachment:1:EXAMPLEA", "artifact-absent")
        ]
    );
    assert_eq!(ids(plan), ["attachment:1:EXAMPLEB"]);
    assert_eq!(units(plan), [(label, "attachment:1:EXAMPLEB")]);
    let unit = &plan.units[0];
    assert_eq!(unit.unit_id, "unit-1");
    assert_eq!(
        unit.target_parent_identity.as_deref(),
        Some("parent:1:EXAMPLEP")
    );
    assert_eq!(
        serde_json::to_value(&plan.stats).unwrap(),
        json!({"candidates": {"total": 3, "accepted": 1, "skipped": 2,
                              "reasons": {"mime-not-accepted": 1, "artifact-absent": 1}},
               "units": {"total": 1, "executable": 1, "skipped": 0}})
    );
}

#[test]
fn worked_example_canonical() {
    let sel = SelectionContext::from_value(&json!({"items": [
        {"kind": "parent", "ref": {"libraryId": 1, "key": "EXAMPLEP"}, "itemType": "journalArticle",
         "title": "Example Paper"}], "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let attachment = |key: &str, name: &str, mime: &str, title: &str| {
        json!({
        "ref": {"libraryId": 1, "key": key}, "kind": "attachment", "title": title,
        "parentRef": {"libraryId": 1, "key": "EXAMPLEP"}, "filename": name,
        "contentType": mime, "path": format!("example/{name}")})
    };
    let library = json!({"items": [
        attachment("EXAMPLEA", "a.pdf", "application/pdf", "A"),
        attachment("EXAMPLEM", "a.md", "text/plain", "A markdown"),
        attachment("EXAMPLEB", "b.pdf", "application/pdf", "")]});
    let w = HostWorld::from_selection(&sel)
        .with_library(&library)
        .unwrap()
        .with_files_dir(format!("{FIXTURES}/files"));
    let p = crate::plan::plan(
        &example_spec(),
        &sel,
        Mode::Execute,
        &Default::default(),
        &w,
    )
    .unwrap();
    check(&p, "b.pdf");
    assert_eq!(
        p.units[0].target_parent,
        Some(crate::plan::TargetParent::Ref(
            crate::selection::PortableItemRef {
                library_id: 1,
                key: "EXAMPLEP".into()
            }
        ))
    );
}

#[test]
fn worked_example_grouped() {
    let parent = json!({"id": 50, "key": "EXAMPLEP", "itemType": "journalArticle",
        "title": "Example Paper", "libraryID": 1, "parentItemID": null, "data": null});
    let attachment = |id: i64, key: &str, name: &str, mime: &str, title: &str| {
        json!({
        "item": {"id": id, "key": key, "itemType": "attachment", "title": title, "libraryID": 1,
                 "parentItemID": 50, "data": {"contentType": mime, "path": format!("example/{name}")}},
        "parent": parent, "filePath": format!("example/{name}"), "mimeType": null})
    };
    let sel = SelectionContext::from_value(&json!({
        "selectionType": "parent",
        "items": {"parents": [{"item": parent, "notes": [], "tags": [], "collections": [], "children": [],
            "attachments": [attachment(51, "EXAMPLEA", "a.pdf", "application/pdf", "A"),
                            attachment(52, "EXAMPLEM", "a.md", "text/plain", "A markdown"),
                            attachment(53, "EXAMPLEB", "b.pdf", "application/pdf", "Paper B")]}],
                  "children": [], "attachments": [], "notes": []},
        "summary": {"parentCount": 1, "childCount": 0, "attachmentCount": 0, "noteCount": 0},
        "warnings": [], "sampledAt": "2026-03-01T09:00:00.000Z"})).unwrap();
    let p = run(&example_spec(), &sel);
    check(&p, "Paper B");
    assert_eq!(
        p.units[0].target_parent,
        Some(crate::plan::TargetParent::Id(50))
    );
    let ctx = p.units[0].selection_context.to_value();
    assert_eq!(ctx["selectionType"], "attachment");
    assert_eq!(ctx["items"]["attachments"][0]["item"]["key"], "EXAMPLEB");
}
