//! Warnings and errors recorded by the result context.

use serde::Serialize;
use serde_json::Value;

/// One entry of `resultContext.warnings` or `resultContext.errors`:
/// `{code, message, details?}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    /// A stable code such as `result_json_unavailable` or `artifact_not_found`.
    pub code: String,
    /// A human-readable message.
    pub message: String,
    /// Structured details, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

impl Diagnostic {
    /// A diagnostic with `code`, `message` and optional `details`.
    pub fn new(code: &str, message: impl Into<String>, details: Option<Value>) -> Self {
        Self {
            code: code.to_string(),
            message: message.into(),
            details,
        }
    }
}
