//! Task names: `taskNameTemplate` rendering and the fallbacks (`01-manifest.md` §7,
//! `03-hooks.md` §3 step 2).

use serde_json::{Map, Value};

use crate::manifest::{Workflow, render_task_name, task_name_values};
use crate::request::unit::{Target, Unit};
use crate::selection::{GroupedSelection, ItemBase, SelectionContext};

/// The declarative task name: the rendered `taskNameTemplate`, or [`fallback`] when there
/// is no template or it renders empty.
pub(crate) fn declarative(
    workflow: &Workflow,
    unit: Unit<'_>,
    target: Option<&Target>,
    params: &Map<String, Value>,
) -> String {
    workflow
        .task_name_template
        .as_deref()
        .map(|template| {
            render_task_name(template, &template_values(workflow, unit, target, params))
        })
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| fallback(workflow, unit, target))
}

/// The template values. Canonical units offer `targetParentKey`; grouped units offer
/// `targetParentID` and `sourceAttachmentPath` instead. Parameters come last and replace
/// built-ins of the same name.
fn template_values(
    workflow: &Workflow,
    unit: Unit<'_>,
    target: Option<&Target>,
    params: &Map<String, Value>,
) -> Map<String, Value> {
    let primary = unit.primary();
    let name = primary.and_then(|a| a.name());
    let key = match target {
        Some(Target::Ref(reference)) => Some(reference.key.as_str()),
        _ => None,
    };
    let mut values = task_name_values(&workflow.id, &workflow.label, key, name, &Map::new());
    if unit.is_grouped() {
        let id = match target {
            Some(Target::Id(id)) => Value::from(*id),
            _ => Value::from(""),
        };
        let path = unit.sources().get(0).cloned().unwrap_or(Value::from(""));
        values.insert("targetParentID".into(), id);
        values.insert("sourceAttachmentPath".into(), path);
    }
    values.extend(params.iter().map(|(k, v)| (k.clone(), v.clone())));
    values
}

/// The fallback task name. Canonical: the first selection item's `filename`, else its
/// `title`, else `item-<key>`. Grouped: the first source file's base name, else the first
/// parent/child/note title, else `item-<targetParentID>`. Then `Workflow: <label>`, then
/// `Task`.
pub(crate) fn fallback(workflow: &Workflow, unit: Unit<'_>, target: Option<&Target>) -> String {
    let from_selection = match unit.0 {
        SelectionContext::Canonical(c) => c.items.first().map(|first| {
            [&first.filename, &first.title]
                .into_iter()
                .flatten()
                .find(|name| !name.trim().is_empty())
                .cloned()
                .unwrap_or_else(|| format!("item-{}", first.reference.key))
        }),
        SelectionContext::Grouped(g) => unit
            .primary()
            .and_then(|a| a.name())
            .or_else(|| grouped_title(g))
            .map(str::to_string)
            .or_else(|| match target {
                Some(Target::Id(id)) => Some(format!("item-{id}")),
                _ => None,
            }),
    };
    from_selection
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .or_else(|| {
            let label = workflow.label.trim();
            (!label.is_empty()).then(|| format!("Workflow: {label}"))
        })
        .unwrap_or_else(|| "Task".to_string())
}

/// The first title of: the first attachment's parent, the first parent, the first child's
/// parent, the first child, the first note's parent, the first note.
fn grouped_title(selection: &GroupedSelection) -> Option<&str> {
    let first_attachment = selection.attachments.first();
    let first_child = selection.children.first();
    let first_note = selection.notes.first();
    let candidates: [Option<&ItemBase>; 6] = [
        first_attachment.and_then(|e| e.parent.as_deref()),
        selection.parents.first().map(|e| &*e.item),
        first_child.and_then(|e| e.parent.as_deref()),
        first_child.map(|e| &*e.item),
        first_note.and_then(|e| e.parent.as_deref()),
        first_note.map(|e| &*e.item),
    ];
    candidates
        .into_iter()
        .flatten()
        .find_map(|item| item.display_title().filter(|t| !t.trim().is_empty()))
}
