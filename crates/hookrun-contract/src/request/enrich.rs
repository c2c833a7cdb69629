//! Enrichment of built requests (`03-hooks.md` §3 step 2).

use serde_json::{Map, Value};

use crate::manifest::Workflow;
use crate::request::task_name;
use crate::request::unit::{Target, Unit};

/// Adds what the request lacks, keeping what it has:
/// - the target parent, when the request has none of the right type: canonical
///   `targetParentRef` (an object); grouped `targetParentID` (a number) and, when the
///   selection's target ref is known, `targetParentRef`;
/// - the sources, when the field is not an array: canonical `sourceAttachmentRefs`,
///   grouped de-duplicated `sourceAttachmentPaths`;
/// - `taskName`, when it is blank or not a string (see [`task_name::fallback`]).
pub(crate) fn enrich(request: &mut Map<String, Value>, workflow: &Workflow, unit: Unit<'_>) {
    let target = unit.target();
    if let Some(target) = &target
        && !has_target(request, target)
    {
        request.insert(target.field().into(), target.value());
    }
    if unit.is_grouped()
        && let Some(reference) = unit.0.target_ref()
        && !has_target(request, &Target::Ref(reference.clone()))
    {
        request.insert("targetParentRef".into(), reference.to_value());
    }
    if !request
        .get(unit.sources_field())
        .is_some_and(Value::is_array)
    {
        request.insert(unit.sources_field().into(), unit.sources());
    }
    let named = request
        .get("taskName")
        .and_then(Value::as_str)
        .is_some_and(|name| !name.trim().is_empty());
    if !named {
        let name = task_name::fallback(workflow, unit, target.as_ref());
        request.insert("taskName".into(), name.into());
    }
}

/// Whether `request` already holds a target of `target`'s kind.
fn has_target(request: &Map<String, Value>, target: &Target) -> bool {
    let present = request.get(target.field());
    match target {
        Target::Ref(_) => present.is_some_and(Value::is_object),
        Target::Id(_) => present.is_some_and(Value::is_number),
    }
}
