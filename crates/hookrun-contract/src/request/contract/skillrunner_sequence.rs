//! The `skillrunner.sequence.v1` payload contract.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::rules::{
    Check, item, non_empty_array, non_empty_str, object, one_of, optional_array,
    optional_non_empty_str, optional_object, optional_one_of, path,
};
use super::skillrunner_job::{EXECUTION_MODES, FETCH_TYPES};

/// Checks the steps, their handoff bindings, short circuits and apply options, the fetch
/// type and `final_step_id`.
pub(super) fn check(payload: &Map<String, Value>) -> Check {
    let steps = non_empty_array(payload, "steps", "")?;
    let mut ids = HashSet::new();
    let mut checked = Vec::with_capacity(steps.len());
    for (index, step) in steps.iter().enumerate() {
        let at = item("steps", index);
        let step = object(step, &at)?;
        non_empty_str(step, "id", &at)?;
        let id = step.get("id").and_then(Value::as_str).unwrap_or_default();
        if !ids.insert(id) {
            return Err(format!("{at}.id duplicated: {id}"));
        }
        checked.push((step, at));
    }
    for (step, at) in checked {
        check_step(step, &at, &ids)?;
    }
    optional_one_of(payload, "fetch_type", &FETCH_TYPES, "")?;
    match payload.get("final_step_id") {
        None => Ok(()),
        Some(Value::String(id)) if ids.contains(id.as_str()) => Ok(()),
        Some(_) => Err("final_step_id must name a step".into()),
    }
}

fn check_step(step: &Map<String, Value>, at: &str, ids: &HashSet<&str>) -> Check {
    non_empty_str(step, "skill_id", at)?;
    one_of(step, "mode", &EXECUTION_MODES, at)?;
    optional_one_of(step, "workspace", &["new", "reuse-workflow"], at)?;
    optional_one_of(step, "fetch_type", &FETCH_TYPES, at)?;
    if let Some(handoff) = optional_object(step, "handoff", at)? {
        check_bindings(handoff, &path(at, "handoff"), ids)?;
    }
    if let Some(short_circuit) = optional_object(step, "short_circuit", at)? {
        check_short_circuit(short_circuit, &path(at, "short_circuit"))?;
    }
    if let Some(apply) = optional_object(step, "apply_result", at)? {
        let at = path(at, "apply_result");
        optional_non_empty_str(apply, "workflow_id", &at)?;
        optional_one_of(apply, "on_failure", &["continue", "fail_sequence"], &at)?;
    }
    Ok(())
}

fn check_bindings(handoff: &Map<String, Value>, at: &str, ids: &HashSet<&str>) -> Check {
    let Some(bindings) = optional_array(handoff, "bindings", at)? else {
        return Ok(());
    };
    for (index, binding) in bindings.iter().enumerate() {
        let at = item(&path(at, "bindings"), index);
        let binding = object(binding, &at)?;
        one_of(binding, "kind", &["value", "file"], &at)?;
        check_target(binding, &at)?;
        optional_non_empty_str(binding, "source", &at)?;
        optional_non_empty_str(binding, "step", &at)?;
        if binding.get("required").is_some_and(|r| !r.is_boolean()) {
            return Err(format!("{at}.required must be a boolean"));
        }
        if let Some(step) = binding.get("step").and_then(Value::as_str)
            && !ids.contains(step)
        {
            return Err(format!("{at}.step must name a step: {step}"));
        }
    }
    Ok(())
}

/// `target` starts with `/input/` or `/parameter/`; a `file` binding's target is exactly
/// `/input/<key>`.
fn check_target(binding: &Map<String, Value>, at: &str) -> Check {
    let target = binding
        .get("target")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !(target.starts_with("/input/") || target.starts_with("/parameter/")) {
        return Err(format!(
            "{at}.target must start with /input/ or /parameter/"
        ));
    }
    let is_file = binding.get("kind").and_then(Value::as_str) == Some("file");
    let single_input_key = target
        .strip_prefix("/input/")
        .is_some_and(|key| !key.is_empty() && !key.contains('/'));
    if is_file && !single_input_key {
        return Err(format!(
            "{at}.target of a file binding must be /input/<key>"
        ));
    }
    Ok(())
}

/// `{when: {path, equals: scalar | null}, result: "step_output"}`.
fn check_short_circuit(short_circuit: &Map<String, Value>, at: &str) -> Check {
    let when_at = path(at, "when");
    let when = short_circuit
        .get("when")
        .and_then(Value::as_object)
        .ok_or_else(|| format!("{when_at} must be an object"))?;
    non_empty_str(when, "path", &when_at)?;
    let scalar_or_null = when
        .get("equals")
        .is_some_and(|v| !(v.is_object() || v.is_array()));
    if !scalar_or_null {
        return Err(format!("{when_at}.equals must be a scalar or null"));
    }
    one_of(short_circuit, "result", &["step_output"], at)
}
