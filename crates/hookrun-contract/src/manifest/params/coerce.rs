//! Normalisation of parameter values against their schema (§6.2).

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::manifest::params::{ParamType, ParameterSchema, Parameters};

/// What normalisation did to one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ParamWarningKind {
    /// The value was converted (e.g. `"yes"` → `true`, an array cleaned).
    Coerced,
    /// The value was invalid and replaced by the declared default.
    ReplacedByDefault,
    /// The value was invalid and had no valid default; the key was dropped.
    Dropped,
    /// The key is not declared; it was dropped.
    UndeclaredDropped,
    /// `integer: true` is declared but a fractional number was kept (not enforced).
    IntegerNotEnforced,
}

/// A note about one parameter value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParamWarning {
    /// Parameter key.
    pub parameter: String,
    /// What happened.
    pub kind: ParamWarningKind,
    /// Human-readable explanation.
    pub message: String,
}

/// Result of [`Parameters::normalize`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Normalized {
    /// The surviving values, in declaration order (input order when nothing is declared).
    pub values: Map<String, Value>,
    /// What was coerced, replaced or dropped.
    pub warnings: Vec<ParamWarning>,
    /// Required, visible parameters without a usable value, in declaration order.
    pub missing_required: Vec<String>,
}

impl Normalized {
    /// Fails with [`MissingRequiredParameters`] when a required parameter is missing.
    pub fn check_required(&self) -> Result<(), MissingRequiredParameters> {
        if self.missing_required.is_empty() {
            Ok(())
        } else {
            Err(MissingRequiredParameters {
                required_fields: self.missing_required.clone(),
            })
        }
    }
}

/// The host's required-parameter error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(rename_all = "camelCase")]
#[error("Missing required workflow parameter(s): {}", .required_fields.join(", "))]
pub struct MissingRequiredParameters {
    /// The missing keys.
    pub required_fields: Vec<String>,
}

impl MissingRequiredParameters {
    /// The host error code.
    pub const CODE: &'static str = "missing_required_workflow_parameter";

    /// The host error code, `missing_required_workflow_parameter`.
    pub fn code(&self) -> &'static str {
        Self::CODE
    }
}

pub(super) fn normalize(params: &Parameters, input: &Map<String, Value>) -> Normalized {
    if params.is_empty() {
        return Normalized {
            values: input.clone(),
            ..Normalized::default()
        };
    }
    let mut out = Normalized::default();
    for key in input.keys().filter(|k| params.get(k).is_none()) {
        out.warn(
            key,
            ParamWarningKind::UndeclaredDropped,
            "undeclared parameter dropped".into(),
        );
    }
    for (key, schema) in &params.entries {
        if let Some(raw) = input.get(key) {
            normalize_one(&mut out, key, schema, raw);
        }
    }
    for (key, schema) in &params.entries {
        if schema.required && visible(params, &out.values, schema) && !usable(out.values.get(key)) {
            out.missing_required.push(key.clone());
        }
    }
    out
}

impl Normalized {
    fn warn(&mut self, key: &str, kind: ParamWarningKind, message: String) {
        self.warnings.push(ParamWarning {
            parameter: key.to_string(),
            kind,
            message,
        });
    }
}

fn normalize_one(out: &mut Normalized, key: &str, schema: &ParameterSchema, raw: &Value) {
    if let Some(value) = coerce(schema, raw) {
        if value != *raw {
            out.warn(
                key,
                ParamWarningKind::Coerced,
                format!("coerced {raw} to {value}"),
            );
        }
        if schema.integer && value.as_f64().is_some_and(|n| n.fract() != 0.0) {
            out.warn(
                key,
                ParamWarningKind::IntegerNotEnforced,
                format!("{value} is not an integer; kept because integer is not enforced"),
            );
        }
        out.values.insert(key.to_string(), value);
        return;
    }
    match schema.default.as_ref().and_then(|d| coerce(schema, d)) {
        Some(default) => {
            out.warn(
                key,
                ParamWarningKind::ReplacedByDefault,
                format!("invalid value {raw} replaced by the default {default}"),
            );
            out.values.insert(key.to_string(), default);
        }
        None => out.warn(
            key,
            ParamWarningKind::Dropped,
            format!("invalid value {raw} dropped (no valid default)"),
        ),
    }
}

/// The coerced value, or `None` when `raw` is invalid for `schema`.
fn coerce(schema: &ParameterSchema, raw: &Value) -> Option<Value> {
    let value = match schema.kind {
        ParamType::Boolean => Value::Bool(match raw {
            Value::Bool(b) => *b,
            Value::String(s) => is_truthy_string(s),
            _ => return None,
        }),
        ParamType::Number => Value::Number(number(raw)?),
        ParamType::String => Value::String(raw.as_str()?.to_string()),
        ParamType::Array => Value::Array(clean_list(raw.as_array()?)),
    };
    (in_enum(schema, &value) && in_bounds(schema, &value)).then_some(value)
}

fn is_truthy_string(text: &str) -> bool {
    matches!(
        text.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

fn number(raw: &Value) -> Option<Number> {
    match raw {
        Value::Number(n) => Some(n.clone()),
        Value::String(s) if !s.trim().is_empty() => {
            let parsed: f64 = s.trim().parse().ok()?;
            if !parsed.is_finite() {
                return None;
            }
            if parsed.fract() == 0.0 && parsed.abs() < 9.0e15 {
                Some(Number::from(parsed as i64))
            } else {
                Number::from_f64(parsed)
            }
        }
        _ => None,
    }
}

/// Keeps trimmed, non-empty, distinct strings.
fn clean_list(items: &[Value]) -> Vec<Value> {
    let mut seen = HashSet::new();
    items
        .iter()
        .filter_map(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty() && seen.insert(*s))
        .map(|s| Value::String(s.to_string()))
        .collect()
}

fn in_enum(schema: &ParameterSchema, value: &Value) -> bool {
    let Some(allowed) = &schema.enum_values else {
        return true;
    };
    if schema.kind == ParamType::String && schema.allow_custom {
        return true;
    }
    let member = |v: &Value| allowed.iter().any(|a| same(a, v));
    match value {
        Value::Array(items) => items.iter().all(member),
        other => member(other),
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

fn in_bounds(schema: &ParameterSchema, value: &Value) -> bool {
    let Some(n) = value.as_f64() else {
        return true;
    };
    schema.min.is_none_or(|min| n >= min) && schema.max.is_none_or(|max| n <= max)
}

/// `visible_if` holds (or is absent). The controlling value is the normalised one, else
/// that parameter's default; a missing or non-boolean value counts as `false`.
fn visible(params: &Parameters, values: &Map<String, Value>, schema: &ParameterSchema) -> bool {
    let Some(condition) = &schema.visible_if else {
        return true;
    };
    let current = values.get(&condition.parameter).or_else(|| {
        params
            .get(&condition.parameter)
            .and_then(|s| s.default.as_ref())
    });
    current.and_then(Value::as_bool).unwrap_or(false) == condition.equals
}

/// A non-blank string, finite number, boolean or non-empty array.
fn usable(value: Option<&Value>) -> bool {
    match value {
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Number(n)) => n.as_f64().is_some_and(f64::is_finite),
        Some(Value::Bool(_)) => true,
        Some(Value::Array(items)) => !items.is_empty(),
        _ => false,
    }
}
