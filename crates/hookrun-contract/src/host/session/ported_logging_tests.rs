//! `logging.appendRuntimeLog` after the reference host's runtime log suite
//! (`tests/runtime/45-runtime-log-manager.test.ts`): "binds workflow log
//! identity and rejects unsafe input before storage" (the hook names its level,
//! stage, message, operation, phase and details, nothing of its identity; the
//! stored message and details are redacted; an entry past a bound is refused
//! whole) and "normalizes schema and redacts sensitive fields" (members named
//! like credentials are withheld at any depth). The bounds of `details` the
//! suite does not reach (values, bytes, strict JSON) and a non-string operation
//! or phase follow the reference's logging owner.

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
fn an_entry_with_operation_phase_and_details_is_logged_redacted_at_its_level() {
    let entry = json!({"level": "warn", "stage": "apply",
        "message": "Bearer secret-token failed at /home/alice/private.txt",
        "operation": "note.update", "phase": "commit",
        "details": {"token": "secret-token", "sourcePath": "/home/alice/private.txt", "visible": "ok"}});
    let line = log(entry).unwrap();
    assert_eq!(line["level"], "warn");
    assert_eq!(
        line["message"],
        "[apply] Bearer <redacted> failed at <redacted-path> \
         {\"token\":\"<redacted>\",\"sourcePath\":\"<redacted>\",\"visible\":\"ok\"}"
    );
}

#[test]
fn members_named_like_credentials_are_withheld_at_any_depth() {
    let entry = json!({"level": "error", "stage": "upload", "message": "provider failed",
        "details": {"authorization": "Bearer secret-token", "token": "abc",
            "nested": {"access_token": "xyz", "visible": "ok"}}});
    let line = log(entry).unwrap();
    assert_eq!(line["level"], "error");
    assert_eq!(
        line["message"],
        "[upload] provider failed {\"authorization\":\"<redacted>\",\"token\":\"<redacted>\",\
         \"nested\":{\"access_token\":\"<redacted>\",\"visible\":\"ok\"}}"
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

/// A `resource_limited` refusal of `resource`.
fn limited(message: &str, resource: &str, limit: u64, observed: u64) -> (String, String, Value) {
    (
        "resource_limited".into(),
        message.into(),
        json!({"resource": resource, "limit": limit, "observed": observed}),
    )
}

/// An entry with `details`.
fn with_details(details: Value) -> Value {
    json!({"level": "info", "stage": "apply", "message": "m", "details": details})
}

#[test]
fn a_non_string_operation_or_phase_is_measured_as_text() {
    let message = "Workflow log operation exceeds the character limit";
    let entry = json!({"level": "info", "stage": "apply", "message": "m", "operation": 12345});
    assert_eq!(refusal(entry), limited(message, "characters", 128, 5));
    let entry = json!({"level": "info", "stage": "apply", "message": "m", "phase": {"a": 1}});
    let message = "Workflow log phase exceeds the character limit";
    assert_eq!(refusal(entry), limited(message, "characters", 128, 15));
    let entry = json!({"level": "info", "stage": "apply", "message": "m", "phase": null});
    assert_eq!(refusal(entry), limited(message, "characters", 128, 4));
    let entry =
        json!({"level": "info", "stage": "apply", "message": "m", "phase": "p".repeat(128)});
    assert_eq!(log(entry).unwrap()["message"], "[apply] m");
}

#[test]
fn details_past_512_values_are_refused_by_count() {
    let message = "Workflow log details exceed the node limit";
    assert_eq!(
        refusal(with_details(json!(vec![0; 512]))),
        limited(message, "entries", 512, 513)
    );
    let pairs: Vec<Value> = (0..256).map(|i| json!([i])).collect();
    assert_eq!(
        refusal(with_details(json!(pairs))),
        limited(message, "entries", 512, 513)
    );
    assert!(log(with_details(json!(vec![0; 511]))).is_ok());
}

#[test]
fn details_past_64_kib_of_json_are_refused_by_size() {
    let message = "Workflow log details exceed the byte limit";
    let text = "x".repeat(64 * 1024);
    assert_eq!(
        refusal(with_details(json!(text))),
        limited(message, "bytes", 65536, 65538)
    );
    let text = "x".repeat(64 * 1024 - 2);
    let line = log(with_details(json!(text))).unwrap();
    assert_eq!(
        line["message"],
        format!("[apply] m \"{}...<truncated>\"", "x".repeat(4000))
    );
}

#[test]
fn details_past_the_strict_json_bounds_are_invalid() {
    let invalid = (
        "invalid_request".to_string(),
        "Workflow log details must be bounded strict JSON".to_string(),
        json!({"reason": "invalid_schema", "field": "details"}),
    );
    assert_eq!(refusal(with_details(json!(vec![0; 513]))), invalid);
    assert_eq!(
        refusal(with_details(json!("x".repeat(64 * 1024 + 1)))),
        invalid
    );
    let mut deep = json!(1);
    for _ in 0..9 {
        deep = json!([deep]);
    }
    assert_eq!(refusal(with_details(deep.clone())), invalid);
    assert!(log(with_details(deep[0].clone())).is_ok());
    let mut empty = json!([]);
    for _ in 0..8 {
        empty = json!([empty]);
    }
    assert!(log(with_details(empty)).is_ok());
}

#[test]
fn the_stored_stage_is_trimmed_and_a_long_message_cut() {
    let entry = json!({"level": "debug", "stage": "  apply\t", "message": "m"});
    assert_eq!(
        log(entry).unwrap(),
        json!({"level": "debug", "message": "[apply] m"})
    );
    let entry = json!({"level": "info", "stage": " ", "message": "m"});
    assert_eq!(log(entry).unwrap()["message"], "[unknown] m");
    let entry = json!({"level": "info", "stage": "apply", "message": "y".repeat(5000)});
    let stored = format!("[apply] {}...<truncated>", "y".repeat(4000));
    assert_eq!(log(entry).unwrap()["message"], stored);
}
