use serde_json::{Map, Value, json};

use crate::manifest::Workflow;
use crate::request::task_name::{declarative, fallback};
use crate::request::test_support::{fixture, load, manifest, selection};
use crate::request::unit::Unit;
use crate::selection::SelectionContext;

fn workflow(template: Option<&str>) -> Workflow {
    let mut m = manifest("pass-through");
    if let Some(template) = template {
        m["taskNameTemplate"] = json!(template);
        m["parameters"] = json!({"language": {"type": "string", "default": "en-US"}});
    }
    load(&m)
}

fn fallback_of(workflow: &Workflow, selection: &SelectionContext) -> String {
    let unit = Unit(selection);
    fallback(workflow, unit, unit.target().as_ref())
}

fn rendered(workflow: &Workflow, selection: &SelectionContext) -> String {
    let unit = Unit(selection);
    let params = workflow.parameters.effective(&Map::new());
    declarative(workflow, unit, unit.target().as_ref(), &params)
}

fn canonical(fact: Value) -> SelectionContext {
    selection(json!({"items": [fact], "sampledAt": "2026-01-01T00:00:00Z"}))
}

fn grouped(items: Value) -> SelectionContext {
    let mut items = items;
    for key in ["parents", "children", "attachments", "notes"] {
        if items.get(key).is_none() {
            items[key] = json!([]);
        }
    }
    selection(json!({"items": items, "sampledAt": "2026-01-01T00:00:00Z"}))
}

#[test]
fn canonical_fallbacks() {
    let w = workflow(None);
    let fact = |extra: Value| {
        let mut fact = json!({"kind": "parent", "ref": {"libraryId": 1, "key": "K1"},
            "itemType": "book"});
        if let (Some(f), Some(e)) = (fact.as_object_mut(), extra.as_object()) {
            f.extend(e.clone());
        }
        canonical(fact)
    };
    assert_eq!(
        fallback_of(&w, &fixture("canonical-single-pdf")),
        "cats.pdf"
    );
    assert_eq!(fallback_of(&w, &fact(json!({"title": "A Book"}))), "A Book");
    assert_eq!(
        fallback_of(&w, &fact(json!({"title": " ", "filename": ""}))),
        "item-K1"
    );
    assert_eq!(fallback_of(&w, &fact(json!({}))), "item-K1");
    assert_eq!(
        fallback_of(&w, &fixture("canonical-parent")),
        "Deep Learning for Cats"
    );
    assert_eq!(
        fallback_of(&w, &fixture("canonical-empty")),
        "Workflow: Demo"
    );
    let mut unlabelled = w.clone();
    unlabelled.label = " ".into();
    assert_eq!(
        fallback_of(&unlabelled, &fixture("canonical-empty")),
        "Task"
    );
}

#[test]
fn grouped_fallbacks() {
    let w = workflow(None);
    assert_eq!(fallback_of(&w, &fixture("grouped-single-pdf")), "cats.pdf");
    assert_eq!(
        fallback_of(&w, &fixture("grouped-parent-with-attachments-notes")),
        "Deep Learning for Cats"
    );
    assert_eq!(
        fallback_of(&w, &fixture("grouped-orphan-note")),
        "Loose thoughts"
    );
    let untitled = grouped(json!({"children": [{"item": {"id": 7}, "parent": null,
        "attachments": [], "notes": [], "tags": [], "collections": []}]}));
    assert_eq!(fallback_of(&w, &untitled), "item-7");
    let titled_data = grouped(
        json!({"notes": [{"item": {"id": 8, "data": {"title": "From data"}},
        "parent": null, "tags": [], "collections": []}]}),
    );
    assert_eq!(fallback_of(&w, &titled_data), "From data");
    assert_eq!(fallback_of(&w, &fixture("grouped-empty")), "Workflow: Demo");
}

#[test]
fn templates_render_for_both_shapes() {
    let w = workflow(Some(
        "{workflowLabel}: {sourceAttachmentStem} [{language}] {targetParentKey}",
    ));
    assert_eq!(
        rendered(&w, &fixture("canonical-single-pdf")),
        "Demo: cats [en-US] PARENT01"
    );
    assert_eq!(
        rendered(&w, &fixture("grouped-single-pdf")),
        "Demo: cats [en-US]"
    );
    let w = workflow(Some("{targetParentID} {source_attachment_path}"));
    assert_eq!(
        rendered(&w, &fixture("grouped-single-pdf")),
        "10 attachments/ATTPDF01/cats.pdf"
    );
    assert_eq!(rendered(&w, &fixture("canonical-single-pdf")), "cats.pdf");
}

#[test]
fn empty_renderings_fall_back() {
    let w = workflow(Some("{unknown}:"));
    assert_eq!(
        rendered(&w, &fixture("canonical-single-markdown")),
        "cats.md"
    );
    assert_eq!(
        rendered(&workflow(None), &fixture("grouped-single-pdf")),
        "cats.pdf"
    );
}
