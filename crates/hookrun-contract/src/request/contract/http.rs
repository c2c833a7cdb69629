//! The `generic-http.request.v1` and `generic-http.steps.v1` payload contracts.

use serde_json::{Map, Value};

use super::rules::{Check, non_empty_array, non_empty_str};

/// `request.method` and `request.path` must be non-empty strings.
pub(super) fn check_request(payload: &Map<String, Value>) -> Check {
    let request = payload
        .get("request")
        .and_then(Value::as_object)
        .ok_or("request must be an object")?;
    non_empty_str(request, "method", "request")?;
    non_empty_str(request, "path", "request")
}

/// `steps[]` must be non-empty.
pub(super) fn check_steps(payload: &Map<String, Value>) -> Check {
    non_empty_array(payload, "steps", "").map(|_| ())
}
