//! Field rules shared by the per-kind payload checks. A failed rule yields the `detail`
//! text of the contract error, naming the field by its path in the payload.

use serde_json::{Map, Value};

/// The outcome of one payload rule: `Err(detail)` when it fails.
pub(super) type Check = Result<(), String>;

/// `field` below `at` (`at` is empty at the top level), e.g. `steps[0].id`.
pub(super) fn path(at: &str, field: &str) -> String {
    if at.is_empty() {
        field.to_string()
    } else {
        format!("{at}.{field}")
    }
}

/// `at[index]`.
pub(super) fn item(at: &str, index: usize) -> String {
    format!("{at}[{index}]")
}

/// Whether `value` is a string with a non-blank character.
pub(super) fn is_non_empty_str(value: Option<&Value>) -> bool {
    value
        .and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

/// `obj[field]` must be a non-blank string.
pub(super) fn non_empty_str(obj: &Map<String, Value>, field: &str, at: &str) -> Check {
    if is_non_empty_str(obj.get(field)) {
        Ok(())
    } else {
        Err(format!("{} must be a non-empty string", path(at, field)))
    }
}

/// `obj[field]`, when present, must be a non-blank string.
pub(super) fn optional_non_empty_str(obj: &Map<String, Value>, field: &str, at: &str) -> Check {
    match obj.get(field) {
        None => Ok(()),
        Some(_) => non_empty_str(obj, field, at),
    }
}

/// `obj[field]` must be one of `allowed`.
pub(super) fn one_of(obj: &Map<String, Value>, field: &str, allowed: &[&str], at: &str) -> Check {
    match obj.get(field).and_then(Value::as_str) {
        Some(value) if allowed.contains(&value) => Ok(()),
        _ => Err(format!(
            "{} must be one of {}",
            path(at, field),
            allowed.join(", ")
        )),
    }
}

/// `obj[field]`, when present, must be one of `allowed`.
pub(super) fn optional_one_of(
    obj: &Map<String, Value>,
    field: &str,
    allowed: &[&str],
    at: &str,
) -> Check {
    match obj.get(field) {
        None => Ok(()),
        Some(_) => one_of(obj, field, allowed, at),
    }
}

/// `obj[field]` as an object; `Ok(None)` when absent.
pub(super) fn optional_object<'a>(
    obj: &'a Map<String, Value>,
    field: &str,
    at: &str,
) -> Result<Option<&'a Map<String, Value>>, String> {
    match obj.get(field) {
        None => Ok(None),
        Some(Value::Object(map)) => Ok(Some(map)),
        Some(_) => Err(format!("{} must be an object", path(at, field))),
    }
}

/// `obj[field]` as an array; `Ok(None)` when absent.
pub(super) fn optional_array<'a>(
    obj: &'a Map<String, Value>,
    field: &str,
    at: &str,
) -> Result<Option<&'a Vec<Value>>, String> {
    match obj.get(field) {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(_) => Err(format!("{} must be an array", path(at, field))),
    }
}

/// `obj[field]` must be a non-empty array.
pub(super) fn non_empty_array<'a>(
    obj: &'a Map<String, Value>,
    field: &str,
    at: &str,
) -> Result<&'a Vec<Value>, String> {
    match obj.get(field) {
        Some(Value::Array(items)) if !items.is_empty() => Ok(items),
        _ => Err(format!("{} must be a non-empty array", path(at, field))),
    }
}

/// `value` (found at `at`) must be an object.
pub(super) fn object<'a>(value: &'a Value, at: &str) -> Result<&'a Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{at} must be an object"))
}
