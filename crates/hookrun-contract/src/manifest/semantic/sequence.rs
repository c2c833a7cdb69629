//! Sequence checks (§5.1), only for `skillrunner.sequence.v1`. As in the reference
//! checker, values are trimmed first: the schema has already refused empty strings, so
//! these checks catch names that are only white space and references to other steps.

use std::collections::HashSet;

use serde_json::Value;

use crate::manifest::schema::SKILLRUNNER_SEQUENCE;
use crate::manifest::semantic::{Failure, failure};

const STEPS: &str = "/request/sequence/steps";

pub(super) fn check(manifest: &Value) -> Vec<Failure> {
    let mut out = Vec::new();
    if manifest.pointer("/request/kind").and_then(Value::as_str) != Some(SKILLRUNNER_SEQUENCE) {
        return out;
    }
    let has_build_hook = manifest.pointer("/hooks/buildRequest").is_some();
    let steps: &[Value] = manifest
        .pointer(STEPS)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let final_step = manifest
        .pointer("/result/final_step_id")
        .and_then(Value::as_str)
        .map_or("", str::trim);
    if steps.is_empty() && !has_build_hook {
        out.push(failure(STEPS, "must be non-empty"));
    }
    if final_step.is_empty() && !has_build_hook {
        out.push(failure(
            "/result/final_step_id",
            "is required for skillrunner.sequence.v1",
        ));
    }
    let mut ids = HashSet::new();
    for (i, step) in steps.iter().enumerate() {
        let id = step.get("id").and_then(Value::as_str).map_or("", str::trim);
        if id.is_empty() {
            out.push(failure(format!("{STEPS}/{i}/id"), "must be non-empty"));
        } else if !ids.insert(id) {
            out.push(failure(STEPS, format!("contains duplicated id: {id}")));
        }
    }
    if !final_step.is_empty() && !steps.is_empty() && !ids.contains(final_step) {
        out.push(failure(
            "/result/final_step_id",
            "must match a declared sequence step",
        ));
    }
    for (i, step) in steps.iter().enumerate() {
        step_references(&mut out, i, step, &ids);
    }
    out
}

fn step_references(out: &mut Vec<Failure>, i: usize, step: &Value, ids: &HashSet<&str>) {
    let bindings = step
        .pointer("/handoff/bindings")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (j, binding) in bindings.iter().enumerate() {
        if let Some(target) = binding.get("step").and_then(Value::as_str).map(str::trim)
            && !target.is_empty()
            && !ids.contains(target)
        {
            out.push(failure(
                format!("{STEPS}/{i}/handoff/bindings/{j}/step"),
                "must match a declared sequence step",
            ));
        }
    }
    let Some(short_circuit) = step.get("short_circuit") else {
        return;
    };
    let path = short_circuit
        .pointer("/when/path")
        .and_then(Value::as_str)
        .map(str::trim);
    if path.is_none_or(str::is_empty) {
        out.push(failure(
            format!("{STEPS}/{i}/short_circuit/when/path"),
            "must be non-empty",
        ));
    }
    if short_circuit
        .get("result")
        .and_then(Value::as_str)
        .map(str::trim)
        != Some("step_output")
    {
        out.push(failure(
            format!("{STEPS}/{i}/short_circuit/result"),
            "must be step_output",
        ));
    }
}
