//! The error a host member answers a hook with: the contract's
//! `WorkflowHostError` and the plain errors the host raises.

mod contract;

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
    /// Never retryable: the reference host retries only when the member that
    /// raises the error asks (see [`retryable`](Self::retryable)).
    pub fn workflow(code: &str, message: impl Into<String>, details: Value) -> HostError {
        let mut fields = Map::new();
        fields.insert("schema".into(), json!(HOST_ERROR_SCHEMA));
        fields.insert("code".into(), json!(code));
        fields.insert("retryable".into(), json!(false));
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

    /// The same error marked retryable, as the reference host allows it: only
    /// `unavailable`, and `execution_failed` whose recovery is
    /// `retry_same_operation`; any other stays not retryable.
    pub fn retryable(mut self) -> HostError {
        let code = self.fields.get("code").and_then(Value::as_str);
        let recovery = self
            .fields
            .get("details")
            .and_then(|d| d.get("recovery"))
            .and_then(Value::as_str);
        let allowed = code == Some("unavailable")
            || code == Some("execution_failed") && recovery == Some("retry_same_operation");
        self.fields.insert("retryable".into(), json!(allowed));
        self
    }

    /// Whether the error is one the reference host could raise: a contract
    /// error's `code` is one of its codes and its `details` has exactly the
    /// members that code allows, their values from the reference's closed sets.
    /// Errors of other names (a `TypeError`, a bundle reader's `Error`) pass.
    pub fn conformance(&self) -> Result<(), String> {
        let Some(code) = self.fields.get("schema").and(self.fields.get("code")) else {
            return Ok(());
        };
        let code = code.as_str().unwrap_or_default();
        let Some(rule) = contract::rule(code) else {
            return Err(format!("unknown code {code:?}"));
        };
        let Some(Value::Object(details)) = self.fields.get("details") else {
            return Err(format!("{code}: details is not an object"));
        };
        rule.check(details)
            .map_err(|why| format!("{code}: {why} in {}", Value::Object(details.clone())))
    }

    /// A write refused because the run's recorded writes would pass `limit_bytes`:
    /// `resource_limited`. A bridge that returns it also reports the limit through
    /// the sandbox bridge's `take_write_limit`, which ends the call.
    pub fn write_limit(member: &str, limit_bytes: u64, observed: u64) -> HostError {
        HostError::workflow(
            "resource_limited",
            format!("{member}: the run's recorded writes would pass {limit_bytes} bytes"),
            json!({"resource": "bytes", "limit": limit_bytes, "observed": observed}),
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
            json!({"reason": "runtime"}),
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
            json!({"phase": "adapter", "recovery": "none"}),
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

/// A reply's error code and details, or `ok` and null: what the tests of the
/// members compare.
#[cfg(test)]
pub(crate) fn reply_code(reply: &Result<Value, HostError>) -> (String, Value) {
    match reply {
        Ok(_) => ("ok".into(), Value::Null),
        Err(e) => (
            e.fields["code"].as_str().unwrap_or(&e.name).to_string(),
            e.fields.get("details").cloned().unwrap_or(Value::Null),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_errors_follow_the_reference_rules_for_their_details() {
        let ok = HostError::workflow(
            "resource_limited",
            "m",
            json!({"resource": "bytes", "limit": 5, "observed": 6}),
        );
        assert_eq!(ok.conformance(), Ok(()));
        for (code, details) in [
            ("resource_limited", json!({"resource": "time", "limit": 5})),
            ("resource_limited", json!({"resource": "bytes"})),
            ("not_found", json!({"kind": "file", "opaqueKey": "a"})),
            ("invalid_request", json!({"reason": "bad"})),
            (
                "invalid_request",
                json!({"reason": "invalid_value", "extra": 1}),
            ),
            (
                "execution_failed",
                json!({"phase": "host", "recovery": "none"}),
            ),
            ("nope", json!({})),
        ] {
            let error = HostError::workflow(code, "m", details.clone());
            assert!(error.conformance().is_err(), "{code} {details}");
        }
        assert_eq!(HostError::plain("TypeError", "x").conformance(), Ok(()));
    }

    #[test]
    fn errors_are_not_retryable_unless_the_reference_allows_it() {
        let unavailable = HostError::workflow("unavailable", "m", json!({"reason": "runtime"}));
        assert_eq!(unavailable.fields["retryable"], false);
        assert_eq!(unavailable.retryable().fields["retryable"], true);
        let read = HostError::workflow(
            "execution_failed",
            "m",
            json!({"phase": "read", "recovery": "retry_same_operation"}),
        );
        assert_eq!(read.retryable().fields["retryable"], true);
        let conflict = HostError::workflow("conflict", "m", json!({"reason": "ambiguous_state"}));
        assert_eq!(conflict.retryable().fields["retryable"], false);
    }
}
