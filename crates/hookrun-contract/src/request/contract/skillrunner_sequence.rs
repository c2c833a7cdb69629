//! The `skillrunner.sequence.v1` payload contract, in the reference host's order: steps
//! and `final_step_id` present, environment, each step in turn, then the step ids that
//! `final_step_id` and the handoff bindings refer to.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::rules::{Check, non_empty_array, non_empty_str, object, optional_non_empty_str, text};
use super::skillrunner_job::{EXECUTION_MODES, check_env};

/// Checks a sequence payload (already an object of this kind).
pub(super) fn check(payload: &Map<String, Value>) -> Check {
    let steps = non_empty_array(payload.get("steps"), "payload.steps")?;
    let final_step = payload.get("final_step_id");
    non_empty_str(final_step, "payload.final_step_id")?;
    if let Some(env) = object(payload.get("runtime_options")).and_then(|o| o.get("env")) {
        check_env(env)?;
    }
    let mut ids = HashSet::new();
    for (index, step) in steps.iter().enumerate() {
        check_step(step, index, &mut ids)?;
    }
    if !ids.contains(&text(final_step)) {
        return Err("payload.final_step_id must match a declared step id".into());
    }
    check_binding_steps(steps, &ids)
}

/// One step: id (unique), skill, mode, workspace, handoff, short circuit, apply options
/// and fetch type; its id is added to `ids`.
fn check_step(step: &Value, index: usize, ids: &mut HashSet<String>) -> Check {
    let at = format!("payload.steps[{index}]");
    let step = step
        .as_object()
        .ok_or_else(|| format!("{at} must be object"))?;
    let id = text(step.get("id"));
    if id.is_empty() {
        return Err(format!("{at}.id must be non-empty string"));
    }
    if !ids.insert(id.clone()) {
        return Err(format!("payload.steps contains duplicated id: {id}"));
    }
    non_empty_str(step.get("skill_id"), &format!("{at}.skill_id"))?;
    if !EXECUTION_MODES.contains(&text(step.get("mode")).as_str()) {
        return Err(format!("{at}.mode must be auto or interactive"));
    }
    if step.contains_key("workspace")
        && !["new", "reuse-workflow"].contains(&text(step.get("workspace")).as_str())
    {
        return Err(format!("{at}.workspace must be new or reuse-workflow"));
    }
    if let Some(handoff) = step.get("handoff") {
        check_handoff(handoff, &format!("{at}.handoff"))?;
    }
    if let Some(short_circuit) = step.get("short_circuit") {
        check_short_circuit(short_circuit, &format!("{at}.short_circuit"))?;
    }
    if let Some(apply) = step.get("apply_result") {
        check_apply_result(apply, &format!("{at}.apply_result"))?;
    }
    match step.get("fetch_type").map(Value::as_str) {
        None | Some(Some("bundle" | "result")) => Ok(()),
        Some(_) => Err(format!(
            "{at}.fetch_type must be bundle or result when provided"
        )),
    }
}

/// `handoff` (named `at`): `{bindings: [binding, …]}` with at least one binding.
fn check_handoff(handoff: &Value, at: &str) -> Check {
    let handoff = handoff
        .as_object()
        .ok_or_else(|| format!("{at} must be object"))?;
    let bindings = non_empty_array(handoff.get("bindings"), &format!("{at}.bindings"))?;
    for (index, binding) in bindings.iter().enumerate() {
        check_binding(binding, &format!("{at}.bindings[{index}]"))?;
    }
    Ok(())
}

/// One binding (named `at`): kind, target, then the optional source, step and required.
fn check_binding(binding: &Value, at: &str) -> Check {
    let binding = binding
        .as_object()
        .ok_or_else(|| format!("{at} must be object"))?;
    let is_file = match binding.get("kind").and_then(Value::as_str) {
        Some("value") => false,
        Some("file") => true,
        _ => return Err(format!("{at}.kind must be value or file")),
    };
    check_target(&text(binding.get("target")), is_file, at)?;
    optional_non_empty_str(binding.get("source"), &format!("{at}.source"))?;
    optional_non_empty_str(binding.get("step"), &format!("{at}.step"))?;
    if binding.get("required").is_some_and(|r| !r.is_boolean()) {
        return Err(format!("{at}.required must be boolean when provided"));
    }
    Ok(())
}

/// `target` starts with `/input/` or `/parameter/`; a file binding's target names one
/// input key (`/input/<key>`, empty segments ignored).
fn check_target(target: &str, is_file: bool, at: &str) -> Check {
    if target.is_empty() {
        return Err(format!("{at}.target must be non-empty string"));
    }
    if !(target.starts_with("/input/") || target.starts_with("/parameter/")) {
        return Err(format!(
            "{at}.target must start with /input/ or /parameter/"
        ));
    }
    let parts: Vec<&str> = target.split('/').filter(|s| !s.is_empty()).collect();
    if is_file && !matches!(parts.as_slice(), ["input", _]) {
        return Err(format!("{at}.target for file handoff must be /input/<key>"));
    }
    Ok(())
}

/// `short_circuit` (named `at`): `{when: {path, equals: scalar | null}, result: "step_output"}`.
fn check_short_circuit(short_circuit: &Value, at: &str) -> Check {
    let short_circuit = short_circuit
        .as_object()
        .ok_or_else(|| format!("{at} must be object"))?;
    let when =
        object(short_circuit.get("when")).ok_or_else(|| format!("{at}.when must be object"))?;
    non_empty_str(when.get("path"), &format!("{at}.when.path"))?;
    match when.get("equals") {
        None => return Err(format!("{at}.when.equals is required")),
        Some(Value::Array(_) | Value::Object(_)) => {
            return Err(format!(
                "{at}.when.equals must be string, number, boolean, or null"
            ));
        }
        Some(_) => {}
    }
    if short_circuit.get("result").and_then(Value::as_str) != Some("step_output") {
        return Err(format!("{at}.result must be step_output"));
    }
    Ok(())
}

/// `apply_result` (named `at`): optional `workflow_id` and `on_failure`.
fn check_apply_result(apply: &Value, at: &str) -> Check {
    let apply = apply
        .as_object()
        .ok_or_else(|| format!("{at} must be object"))?;
    optional_non_empty_str(apply.get("workflow_id"), &format!("{at}.workflow_id"))?;
    match apply.get("on_failure").map(Value::as_str) {
        None | Some(Some("continue" | "fail_sequence")) => Ok(()),
        Some(_) => Err(format!(
            "{at}.on_failure must be continue or fail_sequence when provided"
        )),
    }
}

/// After every step passed: each binding's `step`, when given, is a declared step id.
fn check_binding_steps(steps: &[Value], ids: &HashSet<String>) -> Check {
    for (index, step) in steps.iter().enumerate() {
        let bindings = object(step.get("handoff"))
            .and_then(|handoff| handoff.get("bindings"))
            .and_then(Value::as_array);
        for (position, binding) in bindings.into_iter().flatten().enumerate() {
            let source_step = text(binding.get("step"));
            if !source_step.is_empty() && !ids.contains(&source_step) {
                return Err(format!(
                    "payload.steps[{index}].handoff.bindings[{position}].step \
                     must match a declared step id"
                ));
            }
        }
    }
    Ok(())
}
