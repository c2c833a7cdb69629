//! Sandbox helpers shared by the sandbox test files.

use std::path::Path;

use hookrun::sandbox::{CallResult, JsFailure, Limits, Outcome, Sandbox};
use serde_json::{Value, json};

/// A sandbox over `fixtures/sandbox` with `limits`.
pub fn sandbox_with(limits: Limits) -> Sandbox {
    Sandbox::new(
        super::fixture("sandbox"),
        super::sandbox_options()
            .limits(limits)
            .determinism(None)
            .measure_heap(true),
    )
    .unwrap()
}

/// A sandbox over `fixtures/sandbox` with a 500 ms timeout and a 64 MiB heap.
pub fn sandbox() -> Sandbox {
    sandbox_with(
        Limits::default()
            .timeout_ms(500)
            .max_heap_bytes(64 * 1024 * 1024),
    )
}

/// Calls `export` of `module` (relative to `fixtures/sandbox`).
pub fn call(sb: &mut Sandbox, module: &str, export: &str, arg: Value) -> Outcome {
    sb.call(Path::new(module), export, &arg)
}

/// Asserts that a normal call still succeeds in `sb`.
pub fn assert_healthy(sb: &mut Sandbox) {
    let outcome = call(
        sb,
        "happy.mjs",
        "greet",
        json!({"name": "Ada", "items": [1, 2, 3]}),
    );
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"greeting": "Hello, Ada!", "total": 6})),
        "a normal call after a hostile one must still succeed"
    );
}

/// The failure of a hook-error outcome.
pub fn hook_error(outcome: &Outcome) -> &JsFailure {
    match &outcome.result {
        CallResult::HookError(f) => f,
        other => panic!("expected hook-error, got {other:?}"),
    }
}

/// The failure of a load-error outcome.
pub fn load_error(outcome: &Outcome) -> &JsFailure {
    match &outcome.result {
        CallResult::LoadError(f) => f,
        other => panic!("expected load-error, got {other:?}"),
    }
}

/// Asserts that `export` of `module` ends with `output-too-large` under a 1 MiB
/// output limit, and that the sandbox stays healthy.
pub fn assert_output_too_large(module: &str, export: &str) {
    let mut sb = sandbox_with(Limits::default().max_output_bytes(1024 * 1024));
    let outcome = call(&mut sb, module, export, Value::Null);
    assert_eq!(
        outcome.result,
        CallResult::OutputTooLarge {
            limit_bytes: 1024 * 1024
        },
        "{module} {export}"
    );
    assert_healthy(&mut sb);
}
