//! `preflight` outcomes: validation of what the hook returned, with the
//! contract's exact messages (contract 03 §2.1–§2.2).

use serde::Serialize;
use serde_json::{Map, Value};

/// A validated preflight outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum PreflightOutcome {
    /// Build one request for the unit.
    Continue {
        /// Context handed to `buildRequest` and `applyResult`.
        #[serde(skip_serializing_if = "Option::is_none")]
        context: Option<Map<String, Value>>,
    },
    /// No request for the unit.
    Skip {
        /// Why, as the hook said.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// No request; `applyResult` runs with the given result (`short-circuit-apply`).
    ShortCircuit {
        /// What to apply.
        apply: Box<ShortCircuitApply>,
        /// Context handed to `applyResult`.
        #[serde(skip_serializing_if = "Option::is_none")]
        context: Option<Map<String, Value>>,
    },
    /// One request per replacement unit (`replace-units`).
    Expand {
        /// The replacement units, in array order.
        units: Vec<ReplacementUnit>,
        /// Apply once after all children succeeded, when declared.
        #[serde(skip_serializing_if = "Option::is_none")]
        aggregate: Option<Aggregate>,
        /// Context shared by every replacement unit.
        #[serde(skip_serializing_if = "Option::is_none")]
        context: Option<Map<String, Value>>,
    },
}

/// `apply` of a short-circuit outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShortCircuitApply {
    /// The result JSON `applyResult` sees (`null` when the hook gave none).
    pub result_json: Value,
    /// The request to record instead of the synthetic one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<Value>,
    /// Extra run-result fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_result: Option<Map<String, Value>>,
    /// The parent to apply to (ref, id or key); the unit's target when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<Value>,
}

/// One replacement unit of an expand outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplacementUnit {
    /// Non-empty id.
    pub id: String,
    /// `order` when it is a number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<serde_json::Number>,
    /// Display label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Selection for this unit's request, when an object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection_context: Option<Value>,
    /// Unit context, merged over the outcome's context.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<Map<String, Value>>,
}

/// `aggregate` of an expand outcome (always single-apply, all-succeeded, by unit order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Aggregate {
    /// Non-empty id.
    pub id: String,
}

/// What a runner may want to tell the hook author about an accepted outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lint(pub String);

/// Validates a preflight return value. Errors carry the contract's exact message.
pub fn parse_outcome(value: &Value) -> Result<(PreflightOutcome, Vec<Lint>), String> {
    let obj = value
        .as_object()
        .ok_or_else(|| "preflight must return an object outcome".to_string())?;
    let context = obj.get("context").and_then(Value::as_object).cloned();
    let mut lints = Vec::new();
    let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("");
    let outcome = match kind {
        "continue" => PreflightOutcome::Continue { context },
        "skip" => PreflightOutcome::Skip {
            reason: obj
                .get("reason")
                .and_then(Value::as_str)
                .map(str::to_string),
        },
        "short-circuit-apply" | "short-circuit" => {
            let apply = obj.get("apply").and_then(Value::as_object).ok_or_else(|| {
                "preflight short-circuit-apply outcome requires apply".to_string()
            })?;
            if apply.contains_key("result") && !apply.contains_key("resultJson") {
                lints.push(Lint(
                    "preflight short-circuit apply has `result` but no `resultJson`; the result JSON is read from `apply.resultJson`"
                        .into(),
                ));
            }
            PreflightOutcome::ShortCircuit {
                apply: Box::new(ShortCircuitApply {
                    result_json: apply.get("resultJson").cloned().unwrap_or(Value::Null),
                    request: apply.get("request").filter(|v| !v.is_null()).cloned(),
                    run_result: apply.get("runResult").and_then(Value::as_object).cloned(),
                    parent: apply.get("parent").cloned(),
                }),
                context,
            }
        }
        "replace-units" | "expand" => PreflightOutcome::Expand {
            units: parse_units(obj.get("units"))?,
            aggregate: obj.get("aggregate").map(parse_aggregate).transpose()?,
            context,
        },
        "" => return Err("Unsupported preflight outcome kind: <empty>".into()),
        other => return Err(format!("Unsupported preflight outcome kind: {other}")),
    };
    Ok((outcome, lints))
}

fn parse_units(units: Option<&Value>) -> Result<Vec<ReplacementUnit>, String> {
    let units = units
        .and_then(Value::as_array)
        .filter(|u| !u.is_empty())
        .ok_or_else(|| "preflight replace-units outcome requires units[]".to_string())?;
    units
        .iter()
        .enumerate()
        .map(|(i, unit)| {
            let id = unit
                .get("id")
                .and_then(Value::as_str)
                .filter(|id| !id.trim().is_empty())
                .ok_or_else(|| {
                    format!("preflight replace-units units[{i}].id must be non-empty")
                })?;
            Ok(ReplacementUnit {
                id: id.to_string(),
                order: unit.get("order").and_then(Value::as_number).cloned(),
                label: unit
                    .get("label")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                selection_context: unit
                    .get("selectionContext")
                    .filter(|v| v.is_object())
                    .cloned(),
                context: unit.get("context").and_then(Value::as_object).cloned(),
            })
        })
        .collect()
}

fn parse_aggregate(aggregate: &Value) -> Result<Aggregate, String> {
    let field = |name: &str| aggregate.get(name).and_then(Value::as_str).unwrap_or("");
    let id = field("id");
    if id.trim().is_empty() {
        return Err("preflight aggregate.id must be non-empty".into());
    }
    if field("mode") != "single-apply" {
        return Err("preflight aggregate.mode must be single-apply".into());
    }
    if field("applyWhen") != "all-succeeded" {
        return Err("preflight aggregate.applyWhen must be all-succeeded".into());
    }
    if field("orderBy") != "unit.order" {
        return Err("preflight aggregate.orderBy must be unit.order".into());
    }
    Ok(Aggregate { id: id.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn aggregate() -> Value {
        json!({"id": "agg", "mode": "single-apply", "applyWhen": "all-succeeded", "orderBy": "unit.order"})
    }

    #[test]
    fn every_invalid_outcome_has_the_contract_message() {
        let cases = [
            (json!("continue"), "preflight must return an object outcome"),
            (json!([]), "preflight must return an object outcome"),
            (json!({}), "Unsupported preflight outcome kind: <empty>"),
            (
                json!({"kind": "explode"}),
                "Unsupported preflight outcome kind: explode",
            ),
            (
                json!({"kind": "replace-units"}),
                "preflight replace-units outcome requires units[]",
            ),
            (
                json!({"kind": "expand", "units": {}}),
                "preflight replace-units outcome requires units[]",
            ),
            (
                json!({"kind": "replace-units", "units": [{"id": "a"}, {"id": " "}]}),
                "preflight replace-units units[1].id must be non-empty",
            ),
            (
                json!({"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": ""}}),
                "preflight aggregate.id must be non-empty",
            ),
            (
                json!({"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": "x", "mode": "each"}}),
                "preflight aggregate.mode must be single-apply",
            ),
            (
                json!({"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": "x", "mode": "single-apply", "applyWhen": "any"}}),
                "preflight aggregate.applyWhen must be all-succeeded",
            ),
            (
                json!({"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": "x", "mode": "single-apply", "applyWhen": "all-succeeded", "orderBy": "id"}}),
                "preflight aggregate.orderBy must be unit.order",
            ),
            (
                json!({"kind": "short-circuit-apply"}),
                "preflight short-circuit-apply outcome requires apply",
            ),
            (
                json!({"kind": "short-circuit", "apply": 1}),
                "preflight short-circuit-apply outcome requires apply",
            ),
        ];
        for (value, message) in cases {
            assert_eq!(parse_outcome(&value).unwrap_err(), message, "{value}");
        }
    }

    #[test]
    fn valid_outcomes_and_aliases_parse() {
        let (o, _) = parse_outcome(&json!({"kind": "continue", "context": {"a": 1}})).unwrap();
        assert_eq!(
            o,
            PreflightOutcome::Continue {
                context: json!({"a": 1}).as_object().cloned()
            }
        );
        let (o, _) = parse_outcome(&json!({"kind": "skip", "reason": "done"})).unwrap();
        assert_eq!(
            o,
            PreflightOutcome::Skip {
                reason: Some("done".into())
            }
        );
        for kind in ["replace-units", "expand"] {
            let (o, _) = parse_outcome(&json!({
                "kind": kind, "aggregate": aggregate(),
                "units": [{"id": "part-1", "order": 1, "context": {"page_ranges": "1-150"}}]
            }))
            .unwrap();
            let PreflightOutcome::Expand {
                units, aggregate, ..
            } = o
            else {
                panic!()
            };
            assert_eq!(units[0].order, Some(1.into()));
            assert_eq!(aggregate, Some(Aggregate { id: "agg".into() }));
        }
        for kind in ["short-circuit-apply", "short-circuit"] {
            let (o, lints) =
                parse_outcome(&json!({"kind": kind, "apply": {"resultJson": {"x": 1}}})).unwrap();
            assert!(lints.is_empty());
            let PreflightOutcome::ShortCircuit { apply, .. } = o else {
                panic!()
            };
            assert_eq!(apply.result_json, json!({"x": 1}));
        }
    }

    #[test]
    fn apply_result_without_result_json_is_linted() {
        let (_, lints) =
            parse_outcome(&json!({"kind": "short-circuit-apply", "apply": {"result": {}}}))
                .unwrap();
        assert_eq!(lints.len(), 1);
    }
}
