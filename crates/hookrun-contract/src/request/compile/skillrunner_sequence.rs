//! `skillrunner.sequence.v1` (`04-requests-and-bundles.md` §4.3).

use serde_json::{Map, Value};

use super::context::{Context, with_target};
use crate::manifest::Provider;
use crate::request::error::RequestError;

/// `{kind, taskName, <sources>, steps, final_step_id, parameter, poll: {interval_ms},
/// <target>?}`. Steps are shallow copies without `include_if` (steps are not filtered).
pub(super) fn compile(ctx: &Context<'_>) -> Result<Map<String, Value>, RequestError> {
    let steps = ctx.spec("sequence")["steps"]
        .as_array()
        .filter(|steps| !steps.is_empty())
        .ok_or_else(|| ctx.requires("request.sequence.steps[]"))?;
    if !matches!(ctx.workflow.provider, Provider::Acp | Provider::SkillRunner) {
        return Err(ctx.requires("provider acp or skillrunner"));
    }
    let final_step_id = ctx.workflow.manifest["result"]["final_step_id"]
        .as_str()
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| ctx.requires("result.final_step_id"))?;
    let target = ctx.required_target()?;
    let mut request = ctx.head(target.as_ref());
    request.insert(
        "steps".into(),
        steps.iter().map(without_include_if).collect(),
    );
    request.insert("final_step_id".into(), final_step_id.into());
    request.insert("parameter".into(), Value::Object(ctx.params.clone()));
    request.insert("poll".into(), ctx.poll(false));
    Ok(with_target(request, target.as_ref()))
}

fn without_include_if(step: &Value) -> Value {
    let mut step = step.clone();
    if let Some(step) = step.as_object_mut() {
        step.shift_remove("include_if");
    }
    step
}
