//! Value tests shared by the per-kind payload checks. A failed rule yields the `detail`
//! text of the contract error, naming the field by its path from `payload`, e.g.
//! `payload.steps[0].id must be non-empty string`.
//!
//! The reference host compares most enumerated values after `String(value || "").trim()`;
//! [`text`] reproduces that conversion, so `5` reads as `"5"` and `null` as `""`.

use serde_json::{Map, Value};

use crate::host::js_value::{js_text, js_trim};

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
    js_trim(&js_text(value)).to_owned()
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
