//! Value tests shared by the per-kind payload checks. A failed rule yields the `detail`
//! text of the contract error, naming the field by its path from `payload`, e.g.
//! `payload.steps[0].id must be non-empty string`.
//!
//! The reference host compares most enumerated values after `String(value || "").trim()`;
//! [`text`] reproduces that conversion, so `5` reads as `"5"` and `null` as `""`.

use serde_json::{Map, Number, Value};

/// The outcome of one payload rule: `Err(detail)` when it fails.
pub(super) type Check = Result<(), String>;

/// Whether `value` is a string with a non-blank character.
pub(super) fn is_non_empty_str(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

/// `value` (named `label`) must be a non-blank string.
pub(super) fn non_empty_str(value: Option<&Value>, label: &str) -> Check {
    if is_non_empty_str(value) {
        Ok(())
    } else {
        Err(format!("{label} must be non-empty string"))
    }
}

/// `value` (named `label`), when present, must be a non-blank string.
pub(super) fn optional_non_empty_str(value: Option<&Value>, label: &str) -> Check {
    match value {
        Some(_) if !is_non_empty_str(value) => {
            Err(format!("{label} must be non-empty string when provided"))
        }
        _ => Ok(()),
    }
}

/// `value` (named `label`) must be an array with at least one element.
pub(super) fn non_empty_array<'a>(
    value: Option<&'a Value>,
    label: &str,
) -> Result<&'a Vec<Value>, String> {
    match value {
        Some(Value::Array(items)) if !items.is_empty() => Ok(items),
        _ => Err(format!("{label} must be non-empty array")),
    }
}

/// `value` as an object; `None` for anything else (absent, `null`, arrays, scalars).
pub(super) fn object(value: Option<&Value>) -> Option<&Map<String, Value>> {
    value.and_then(Value::as_object)
}

/// `String(value || "").trim()`: the text the reference compares enumerated values by.
pub(super) fn text(value: Option<&Value>) -> String {
    let falsy = match value {
        None | Some(Value::Null | Value::Bool(false)) => true,
        Some(Value::Number(n)) => n.as_f64().is_none_or(|f| f == 0.0),
        Some(Value::String(s)) => s.is_empty(),
        Some(_) => false,
    };
    match value {
        Some(value) if !falsy => js_string(value).trim().to_string(),
        _ => String::new(),
    }
}

/// JavaScript's `String(value)` for a JSON value (`null` inside an array joins as `""`).
fn js_string(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Bool(flag) => flag.to_string(),
        Value::Number(number) => js_number(number),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        Value::Object(_) => "[object Object]".to_string(),
    }
}

/// A JSON number as JavaScript prints it: integers without a fraction.
fn js_number(number: &Number) -> String {
    if number.is_f64() {
        number.as_f64().map(|f| f.to_string()).unwrap_or_default()
    } else {
        number.to_string()
    }
}

/// `value` trimmed, backslashes turned into `/`, and one leading `./` (with any slashes
/// after it) removed: how both upload-path rules read a path.
pub(super) fn relative_path(value: &str) -> String {
    let path = value.trim().replace('\\', "/");
    match path.strip_prefix("./") {
        Some(rest) => rest.trim_start_matches('/').to_string(),
        None => path,
    }
}

/// The entries of `map` in JavaScript's property order: array-index keys ascending
/// first, then the other keys in insertion order.
pub(super) fn js_entries(map: &Map<String, Value>) -> Vec<(&str, &Value)> {
    let mut entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
    entries.sort_by_key(|(key, _)| array_index(key).map_or((1, 0), |index| (0, index)));
    entries
}

/// `key` as an array index (`0`, `1`, … below 2³²−1, no leading zero), if it is one.
fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty());
    let index = key
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| key.parse::<u32>().ok())
        .flatten()?;
    (canonical && index < u32::MAX).then_some(index)
}
