//! Expectations of fixture cases: the parts of a run report a case may pin down
//! (`plan`, `units`, `requests`, `effects`, `products`, `errors`), compared
//! structurally.
//!
//! Object key order never matters, and volatile data (timings, heap figures,
//! logs) is not part of any expectation.

use serde_json::{Map, Value, json};

use crate::manifest::Workflow;
use crate::run::report::{ApplyReport, RunError, RunReport, UnitReport};

/// The expectation keys, in the order they are written and compared.
pub const KEYS: &[&str] = &["plan", "units", "requests", "effects", "products", "errors"];

/// What a product record holds that differs between runs of the same input.
const VOLATILE_PRODUCT_FIELDS: &[&str] = &["storageRevision", "createdAt", "updatedAt"];

/// One expectation that the run did not meet.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Which expectation (`units`, `effects`, …).
    pub key: String,
    /// What the case expects.
    pub expected: Value,
    /// What the run produced.
    pub actual: Value,
}

fn apply_value(apply: &ApplyReport) -> Value {
    match apply {
        ApplyReport::Succeeded { value } => json!({"status": "succeeded", "value": value}),
        ApplyReport::Failed { error } => json!({"status": "failed", "message": error.message}),
        ApplyReport::Deferred => json!({"status": "deferred"}),
        ApplyReport::NotRun => json!({"status": "not-run"}),
    }
}

/// Every expectation the report meets, keyed as in [`KEYS`].
pub fn actual(report: &RunReport) -> Map<String, Value> {
    let mut out = Map::new();
    let plan = report.plan.as_ref().map(plan_value);
    out.insert("plan".into(), plan.unwrap_or(Value::Null));
    let units: Vec<Value> = report.units.iter().map(unit_value).collect();
    out.insert("units".into(), Value::Array(units));
    let requests: Vec<Value> = report
        .units
        .iter()
        .flat_map(|u| u.jobs.iter().filter_map(|j| j.request.clone()))
        .collect();
    out.insert("requests".into(), Value::Array(requests));
    let effects: Vec<Value> = report
        .effects
        .iter()
        .map(|e| json!({"unitId": e.unit_id, "hook": e.hook, "call": e.call, "args": e.args}))
        .collect();
    out.insert("effects".into(), Value::Array(effects));
    if !report.products.is_empty() {
        out.insert("products".into(), products_value(report));
    }
    let errors: Vec<Value> = report.errors.iter().map(error_value).collect();
    out.insert("errors".into(), Value::Array(errors));
    out
}

/// The `products` expectation: the registered products by id, without
/// their storage revisions and dates.
fn products_value(report: &RunReport) -> Value {
    let products = report.products.iter().map(|(id, record)| {
        let mut record = record.clone();
        if let Some(fields) = record.as_object_mut() {
            VOLATILE_PRODUCT_FIELDS.iter().for_each(|f| {
                fields.remove(*f);
            });
        }
        (id.clone(), record)
    });
    Value::Object(products.collect())
}

/// The `plan` expectation: the plan's state, its units' identities and what
/// it skipped (and why, when it says).
fn plan_value(plan: &Value) -> Value {
    let units: Vec<Value> = plan["units"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|u| json!({"unitId": u["unitId"], "taskName": u["taskName"], "memberIdentities": u["memberIdentities"]}))
        .collect();
    let mut p = json!({"state": plan["state"], "units": units, "skipped": plan["skipped"]});
    if let Some(reason) = plan.get("reasonCode") {
        p["reasonCode"] = reason.clone();
    }
    p
}

/// One entry of the `units` expectation: the unit's status, preflight kind,
/// skip reason and how each of its applies ended.
fn unit_value(u: &UnitReport) -> Value {
    let mut unit = json!({"unitId": u.unit_id, "status": u.status});
    if let Some(preflight) = &u.preflight {
        unit["preflight"] = serde_json::to_value(preflight)
            .map(|p| p["kind"].clone())
            .unwrap_or_default();
    }
    if let Some(reason) = &u.skip_reason {
        unit["skipReason"] = json!(reason);
    }
    unit["applies"] = u.jobs.iter().map(|j| apply_value(&j.apply)).collect();
    if let Some(aggregate) = &u.aggregate {
        unit["aggregate"] = apply_value(&aggregate.apply);
    }
    unit
}

/// One entry of the `errors` expectation: the error's stage, name and
/// message, with its unit, and for a hook's error the hook and where it
/// failed: the frame that threw, its module (`file`, relative to the module
/// root: the workflow directory, or the package root for a package's
/// workflow) and its `line`; without one (a timeout, a value that broke the
/// hook's contract), the hook's module as the manifest names it.
fn error_value(e: &RunError) -> Value {
    let mut error = json!({"stage": e.stage, "name": e.name, "message": e.message});
    if let Some(unit) = &e.unit_id {
        error["unitId"] = json!(unit);
    }
    if let Some(hook) = &e.hook {
        error["hook"] = json!(hook.hook);
        match &hook.location {
            Some(loc) => {
                error["file"] = json!(loc.file);
                error["line"] = json!(loc.line);
            }
            None => error["file"] = json!(hook.file),
        }
    }
    error
}

/// Compares the expectations a case declares with the report; keys the case
/// leaves out are not compared.
pub fn compare(expect: &Map<String, Value>, report: &RunReport) -> Vec<Mismatch> {
    compared(expect, report, None)
}

/// [`compare`] for a run of `workflow`, which also reads the `errors` a case
/// recorded before they named the module that threw (the hook's file with the
/// throwing module's line).
pub fn compare_for(
    expect: &Map<String, Value>,
    report: &RunReport,
    workflow: &Workflow,
) -> Vec<Mismatch> {
    compared(expect, report, Some(workflow))
}

/// [`compare`], reading the expected errors for `workflow` when given.
fn compared(
    expect: &Map<String, Value>,
    report: &RunReport,
    workflow: Option<&Workflow>,
) -> Vec<Mismatch> {
    let actual = actual(report);
    KEYS.iter()
        .filter_map(|key| {
            let mut expected = expect.get(*key)?.clone();
            if let Some(workflow) = workflow.filter(|_| *key == "errors") {
                name_frames_by_module(&mut expected, report, workflow);
            }
            let got = actual.get(*key).cloned().unwrap_or(Value::Null);
            (expected != got).then(|| Mismatch {
                key: key.to_string(),
                expected,
                actual: got,
            })
        })
        .collect()
}

/// Reads the expected `errors` as the report names them where an entry's
/// `file` is the failing hook's module as its manifest names it, and the hook
/// threw in that module (expectations recorded before `file` named the frame
/// that threw, relative to the module root, named the hook's file so): the
/// same module, under the name the report gives it.
fn name_frames_by_module(expected: &mut Value, report: &RunReport, workflow: &Workflow) {
    let Some(entries) = expected.as_array_mut() else {
        return;
    };
    for (entry, error) in entries.iter_mut().zip(&report.errors) {
        let Some(hook) = &error.hook else {
            continue;
        };
        let Some(loc) = &hook.location else {
            continue;
        };
        let names_hook = entry.get("file").and_then(Value::as_str) == Some(hook.file.as_str());
        if names_hook && module_of(workflow, &hook.hook).as_deref() == Some(loc.file.as_str()) {
            entry["file"] = json!(loc.file);
        }
    }
}

/// The module of `workflow`'s hook `export`, relative to its module root
/// with `/` separators, as the frames of a run name it.
fn module_of(workflow: &Workflow, export: &str) -> Option<String> {
    let hook = workflow.hooks.iter().find(|h| h.export == export)?;
    let relative = hook.path.strip_prefix(&workflow.jail_root).ok()?;
    let names: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    Some(names.join("/"))
}

/// `value` with every object's keys sorted, for stable display.
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_never_matters_and_sorted_is_stable() {
        let a = json!({"a": 1, "b": {"c": 2, "d": [ {"x": 1, "y": 2} ]}});
        let b: Value =
            serde_json::from_str(r#"{"b": {"d": [{"y": 2, "x": 1}], "c": 2}, "a": 1}"#).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            sorted(&b).to_string(),
            r#"{"a":1,"b":{"c":2,"d":[{"x":1,"y":2}]}}"#
        );
    }
}
