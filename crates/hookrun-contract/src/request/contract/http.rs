//! The `generic-http.request.v1` and `generic-http.steps.v1` payload contracts (neither
//! checks the payload's own `kind`).

use serde_json::{Map, Value};

use super::rules::{Check, non_empty_array, non_empty_str, object};

/// `request` an object whose `method` and `path` are non-blank strings.
pub(super) fn check_request(payload: &Map<String, Value>) -> Check {
    let request = object(payload.get("request"))
        .ok_or_else(|| "payload.request must be object".to_string())?;
    non_empty_str(request.get("method"), "payload.request.method")?;
    non_empty_str(request.get("path"), "payload.request.path")
}

/// `steps[]` must be non-empty.
pub(super) fn check_steps(payload: &Map<String, Value>) -> Check {
    non_empty_array(payload.get("steps"), "payload.steps").map(|_| ())
}
