//! `logging.appendRuntimeLog` after the workflow logging case of the reference
//! host's runtime log suite (`tests/runtime/45-runtime-log-manager.test.ts`,
//! "binds workflow log identity and rejects unsafe input before storage"): the
//! hook names its level, stage, message, operation, phase and details, nothing
//! of its identity, and an entry past a bound is refused whole.

use serde_json::{Value, json};

use super::super::HookHost;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::world::HostWorld;

fn log(input: Value) -> Result<Value, HostError> {
    let mut host = HookHost::new(HostWorld::default(), HostAnswers::default());
    host.set_site("unit-1", "applyResult");
    host.call("logging.appendRuntimeLog", json!([input]), None)
}

/// The code, message and details of a refusal.
fn refusal(input: Value) -> (String, String, Value) {
    let error = log(input).unwrap_err();
    let message = error.message.clone();
    let (code, details) = reply_code(&Err(error));
    (code, message, details)
}

#[test]
fn an_entry_with_operation_phase_and_details_is_logged_at_its_level() {
    let entry = json!({"level": "warn", "stage": "apply", "message": "note update failed",
        "operation": "note.update", "phase": "commit", "details": {"visible": "ok"}});
    let line = log(entry).unwrap();
    assert_eq!(line["level"], "warn");
    assert_eq!(
        line["message"],
        "[apply] note update failed {\"visible\":\"ok\"}"
    );
}

#[test]
fn an_unsafe_entry_is_refused_before_anything_is_logged() {
    assert_eq!(
        refusal(json!({"level": "info", "stage": "x".repeat(129), "message": "oversized stage"})),
        (
            "resource_limited".into(),
            "Workflow log stage exceeds the character limit".into(),
            json!({"resource": "characters", "limit": 128, "observed": 129})
        )
    );
    assert_eq!(
        refusal(json!({"level": "info", "stage": "apply", "message": "x".repeat(16 * 1024 + 1)})),
        (
            "resource_limited".into(),
            "Workflow log message exceeds the byte limit".into(),
            json!({"resource": "bytes", "limit": 16384, "observed": 16385})
        )
    );
    let invalid = (
        "invalid_request".to_string(),
        "Workflow log request is invalid".to_string(),
        json!({"reason": "invalid_schema", "field": "input"}),
    );
    for identity in ["runId", "workflowId", "requestId", "jobId", "backendId"] {
        let mut entry = json!({"level": "info", "stage": "apply", "message": "identity injection"});
        entry[identity] = json!("caller-run");
        assert_eq!(refusal(entry), invalid, "{identity}");
    }
    let unknown_level = json!({"level": "trace", "stage": "apply", "message": "m"});
    assert_eq!(refusal(unknown_level), invalid);
}
