//! The `pass-through.run.v1` payload contract.

use serde_json::{Map, Value};

use super::rules::Check;

/// The key `selectionContext` must be present (any value, `null` included).
pub(super) fn check(payload: &Map<String, Value>) -> Check {
    if payload.contains_key("selectionContext") {
        Ok(())
    } else {
        Err("payload.selectionContext is required".to_string())
    }
}
