//! `generic-http.request.v1` (`04-requests-and-bundles.md` §4.4).

use serde_json::{Map, Value, json};

use super::context::{Context, with_target};
use crate::request::error::RequestError;

/// `{kind, taskName, <sources>, request: {method, path, headers?, json}, timeout_ms?,
/// <target>?}`. The body is `{workflow_id, workflow_label, <attachment sources>,
/// <target>?}`; an object `http.json` is merged over it (its fields win), any other
/// `http.json` is added as `input`.
pub(super) fn compile(ctx: &Context<'_>) -> Result<Map<String, Value>, RequestError> {
    let http = ctx.spec("http");
    let text = |field: &str| http[field].as_str().map(str::trim).unwrap_or_default();
    let (method, path) = (text("method").to_uppercase(), text("path"));
    if method.is_empty() || path.is_empty() {
        return Err(ctx.requires("request.http.method and request.http.path"));
    }
    let target = ctx.required_target()?;
    let mut body = Map::new();
    body.insert("workflow_id".into(), ctx.workflow.id.clone().into());
    body.insert("workflow_label".into(), ctx.workflow.label.clone().into());
    body.insert(ctx.unit.sources_body_field().into(), ctx.unit.sources());
    if let Some(target) = &target {
        body.insert(target.body_field().into(), target.value());
    }
    match http.get("json") {
        None => {}
        Some(Value::Object(extra)) => body.extend(extra.clone()),
        Some(other) => {
            body.insert("input".into(), other.clone());
        }
    }
    let mut call = json!({"method": method, "path": path});
    if let Some(headers) = http.get("headers").filter(|h| !h.is_null()) {
        call["headers"] = headers.clone();
    }
    call["json"] = Value::Object(body);
    let mut request = ctx.head(target.as_ref());
    request.insert("request".into(), call);
    let timeout = Some(&http["timeout_ms"])
        .filter(|t| t.is_number())
        .or_else(|| Some(ctx.execution("timeout_ms")).filter(|t| !t.is_null()));
    if let Some(timeout) = timeout {
        request.insert("timeout_ms".into(), timeout.clone());
    }
    Ok(with_target(request, target.as_ref()))
}
