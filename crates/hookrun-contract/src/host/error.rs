//! The error a host member answers a hook with: the contract's
//! `WorkflowHostError` and the plain errors the host raises.

use serde_json::{Map, Value, json};

/// A host error as hooks see it: a rejected promise carrying these fields.
///
/// The shape follows the contract's `WorkflowHostError`
/// (`schema`, `code`, `retryable`, `details`), with `message` and `name`.
#[derive(Debug, Clone, PartialEq)]
pub struct HostError {
    /// The error's `name` (`WorkflowHostError` for contract errors).
    pub name: String,
    /// The error's `message`.
    pub message: String,
    /// Further properties set on the JS error object (`code`, `details`, …).
    pub fields: Map<String, Value>,
}

/// The schema id carried by contract host errors.
pub const HOST_ERROR_SCHEMA: &str = "zotero-agents.workflow-host-error.v1";

impl HostError {
    /// A contract `WorkflowHostError` with `code`, `details` and `retryable`.
    pub fn workflow(code: &str, message: impl Into<String>, details: Value) -> HostError {
        let mut fields = Map::new();
        fields.insert("schema".into(), json!(HOST_ERROR_SCHEMA));
        fields.insert("code".into(), json!(code));
        fields.insert("retryable".into(), json!(code == "unavailable"));
        fields.insert("details".into(), details);
        HostError {
            name: "WorkflowHostError".into(),
            message: message.into(),
            fields,
        }
    }

    /// A host error as the reference host's Zotero broker raises it (library reads
    /// and writes): a [`workflow`](Self::workflow) error named
    /// `ZoteroHostCapabilityError`.
    pub fn capability(code: &str, message: impl Into<String>, details: Value) -> HostError {
        let mut error = HostError::workflow(code, message, details);
        error.name = "ZoteroHostCapabilityError".into();
        error
    }

    /// A write refused because the run's recorded writes would pass `limit_bytes`:
    /// `resource_limited`. A bridge that returns it also reports the limit through
    /// the sandbox bridge's `take_write_limit`, which ends the call.
    pub fn write_limit(member: &str, limit_bytes: u64, observed: u64) -> HostError {
        HostError::workflow(
            "resource_limited",
            format!("{member}: the run's recorded writes would pass {limit_bytes} bytes"),
            json!({"resource": "recorded-write-bytes", "limit": limit_bytes, "observed": observed}),
        )
    }

    /// An error of any name with no further fields (e.g. a bundle reader's error).
    pub fn plain(name: &str, message: impl Into<String>) -> HostError {
        HostError {
            name: name.into(),
            message: message.into(),
            fields: Map::new(),
        }
    }

    /// `unavailable`: no host is attached to this call.
    pub fn unavailable(member: &str) -> HostError {
        HostError::workflow(
            "unavailable",
            format!("{member} is unavailable: no Workflow Host is attached to this call"),
            json!({"reason": "runtime", "kind": member}),
        )
    }

    /// `invalid_request`: the arguments could not be read.
    pub fn invalid_request(member: &str, why: &str) -> HostError {
        HostError::workflow(
            "invalid_request",
            format!("{member}: invalid request: {why}"),
            json!({"reason": "invalid_value", "operation": member}),
        )
    }

    /// `execution_failed`: the host failed while answering (a defect of the host, not
    /// of the hook).
    pub fn internal(member: &str, why: &str) -> HostError {
        HostError::workflow(
            "execution_failed",
            format!("{member} failed inside the host ({why}); please report it"),
            json!({"phase": "host", "recovery": "none"}),
        )
    }

    /// The error as JSON, as hooks see it thrown: `fields` with `name` and `message`.
    pub fn to_json(&self) -> Value {
        let mut out = self.fields.clone();
        out.insert("name".into(), json!(self.name));
        out.insert("message".into(), json!(self.message));
        Value::Object(out)
    }
}
