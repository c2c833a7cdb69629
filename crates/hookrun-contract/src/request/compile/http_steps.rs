//! `generic-http.steps.v1` (`04-requests-and-bundles.md` §4.5).

use serde_json::{Map, Value};

use super::context::{Context, with_target};
use crate::request::error::RequestError;
use crate::request::unit::{Attachment, stem};

/// `{kind, taskName, <sources>, context, steps (verbatim), poll: {interval_ms,
/// timeout_ms}, <target>?}`.
pub(super) fn compile(ctx: &Context<'_>) -> Result<Map<String, Value>, RequestError> {
    let steps = ctx
        .spec("steps")
        .as_array()
        .filter(|steps| !steps.is_empty())
        .ok_or_else(|| ctx.requires("request.steps[]"))?;
    let target = ctx.required_target()?;
    let mut context = ctx.params.clone();
    context.insert("workflow_id".into(), ctx.workflow.id.clone().into());
    context.insert("workflow_label".into(), ctx.workflow.label.clone().into());
    context.extend(source_fields(ctx));
    if let Some(declared) = ctx.spec("context").as_object() {
        context.extend(declared.clone());
    }
    if let Some(target) = &target {
        context.insert(target.body_field().into(), target.value());
    }
    let mut request = ctx.head(target.as_ref());
    request.insert("context".into(), Value::Object(context));
    request.insert("steps".into(), Value::Array(steps.clone()));
    request.insert("poll".into(), ctx.poll(true));
    Ok(with_target(request, target.as_ref()))
}

/// The source attachment variables. Canonical: `source_attachment_ref` (or `null`),
/// `source_attachment_name`, `source_attachment_stem`. Grouped: `source_attachment_path`,
/// `source_attachment_name`, `source_attachment_stem`, `source_attachment_item_id` (or
/// `null`) and `source_attachment_item_key`. Without an attachment, names are empty.
fn source_fields(ctx: &Context<'_>) -> Map<String, Value> {
    let primary = ctx.unit.primary();
    let name = primary.and_then(|a| a.name()).unwrap_or_default();
    let mut fields = Map::new();
    let mut put = |key: &str, value: Value| {
        fields.insert(key.into(), value);
    };
    if ctx.unit.is_grouped() {
        let entry = match primary {
            Some(Attachment::Entry(entry)) => Some(entry),
            _ => None,
        };
        let path = entry.and_then(|e| e.path()).unwrap_or_default().trim();
        put("source_attachment_path", path.into());
        put("source_attachment_name", name.into());
        put("source_attachment_stem", stem(name).into());
        put(
            "source_attachment_item_id",
            entry.and_then(|e| e.item.id).into(),
        );
        let key = entry.and_then(|e| e.item.key()).unwrap_or_default();
        put("source_attachment_item_key", key.into());
    } else {
        let reference = match primary {
            Some(Attachment::Fact(fact)) => fact.reference.to_value(),
            _ => Value::Null,
        };
        put("source_attachment_ref", reference);
        put("source_attachment_name", name.into());
        put("source_attachment_stem", stem(name).into());
    }
    fields
}
