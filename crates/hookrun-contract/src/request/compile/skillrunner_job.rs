//! `skillrunner.job.v1` (`04-requests-and-bundles.md` §4.2).

use serde_json::{Map, Value, json};

use super::context::{Context, with_target};
use super::upload;
use crate::request::contract::EXECUTION_MODES;
use crate::request::error::RequestError;

/// `{kind, taskName, <sources>, skill_id, skill_source, runtime_options: {execution_mode},
/// upload_files?, parameter, input?, poll, fetch_type, <target>?}`. Grouped units add
/// `poll.timeout_ms`.
pub(super) fn compile(ctx: &Context<'_>) -> Result<Map<String, Value>, RequestError> {
    let create = ctx.spec("create");
    let skill_id = create["skill_id"]
        .as_str()
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| ctx.requires("request.create.skill_id"))?;
    let mode = create["mode"]
        .as_str()
        .filter(|mode| EXECUTION_MODES.contains(mode))
        .ok_or_else(|| ctx.requires("request.create.mode"))?;
    let skill_source = match create["skill_source"].as_str().map(str::trim) {
        Some("installed") => "installed",
        _ => "local-package",
    };
    let target = ctx.required_target()?;
    let uploads = upload::resolve(ctx)?;
    let mut request = ctx.head(target.as_ref());
    request.insert("skill_id".into(), skill_id.into());
    request.insert("skill_source".into(), skill_source.into());
    request.insert("runtime_options".into(), json!({"execution_mode": mode}));
    if !uploads.files.is_empty() {
        request.insert("upload_files".into(), Value::Array(uploads.files));
    }
    request.insert("parameter".into(), Value::Object(ctx.params.clone()));
    if !uploads.input.is_empty() {
        request.insert("input".into(), Value::Object(uploads.input));
    }
    request.insert("poll".into(), ctx.poll(ctx.unit.is_grouped()));
    let fetch_type = match ctx.workflow.manifest["result"]["fetch"]["type"].as_str() {
        Some("result") => "result",
        _ => "bundle",
    };
    request.insert("fetch_type".into(), fetch_type.into());
    Ok(with_target(request, target.as_ref()))
}
