//! Values a caller shares across calls (`Call::shared`): they reach the hook
//! frozen and as one object wherever they recur, cross back equal, count
//! toward the output limit, and nothing a hook returns can pose as one. Under
//! process isolation they cross as copies.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::sandbox::{sandbox, sandbox_with};
use hookrun::sandbox::{Call, CallResult, Isolation, Limits, Outcome, Sandbox};
use serde_json::{Value, json};

fn selection(key: &str) -> Arc<Value> {
    Arc::new(json!({
        "selectionType": "attachment",
        "items": {"parents": [], "attachments": [{"key": key, "title": "Paper", "tags": []}]},
        "warnings": [],
        "sampledAt": "2026-03-01T09:00:00.000Z"
    }))
}

fn run(sb: &mut Sandbox, export: &str, arg: &Value, shared: &[Arc<Value>]) -> Outcome {
    sb.run(Call::new(Path::new("shared.mjs"), export, arg).shared(shared))
}

/// Calls `echo` sharing `value` and checks that both references came back equal.
fn assert_echoed(sb: &mut Sandbox, value: &Arc<Value>) {
    let arg = json!({"selection": **value});
    let outcome = run(sb, "echo", &arg, std::slice::from_ref(value));
    let expected = json!({"request": {"selectionContext": **value, "label": "x"},
                          "again": [**value]});
    assert_eq!(outcome.result, CallResult::Ok(expected));
}

#[test]
fn shared_parts_arrive_deeply_frozen_and_as_one_object() {
    let mut sb = sandbox();
    let shared = [selection("A")];
    let arg = json!({"selection": *shared[0], "copy": *shared[0]});
    for _ in 0..2 {
        // The second call refers to the value the first one kept.
        let outcome = run(&mut sb, "inspect", &arg, &shared);
        assert_eq!(
            outcome.result,
            CallResult::Ok(json!({"frozen": true, "same": true, "write": "TypeError",
                                  "deepWrite": "TypeError"}))
        );
    }
}

#[test]
fn without_sharing_parts_are_plain_copies() {
    let mut sb = sandbox();
    let value = selection("A");
    let arg = json!({"selection": *value, "copy": *value});
    let outcome = run(&mut sb, "inspect", &arg, &[]);
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"frozen": false, "same": false, "write": "written",
                              "deepWrite": "written"}))
    );
    // A value too small to keep crosses as it is, too.
    let small = Arc::new(json!({"items": {"attachments": [{"key": "A"}]}}));
    let arg = json!({"selection": *small, "copy": *small});
    let outcome = run(&mut sb, "inspect", &arg, &[small]);
    assert!(matches!(outcome.result, CallResult::Ok(v) if v["same"] == json!(false)));
}

#[test]
fn a_returned_shared_value_crosses_back_equal() {
    let mut sb = sandbox();
    assert_echoed(&mut sb, &selection("A"));
}

#[test]
fn a_value_kept_by_an_earlier_call_crosses_back_by_content() {
    let mut sb = sandbox();
    let shared = [selection("A")];
    let arg = json!({"selection": *shared[0]});
    let stashed = run(&mut sb, "stash", &arg, &shared);
    assert_eq!(stashed.result, CallResult::Ok(Value::Null));
    let other = [selection("B")];
    let outcome = run(
        &mut sb,
        "returnStashed",
        &json!({"selection": *other[0]}),
        &other,
    );
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"stashed": *shared[0]}))
    );
}

#[test]
fn references_weigh_what_they_refer_to() {
    let limit = 256 * 1024;
    let mut sb = sandbox_with(Limits::default().max_output_bytes(limit));
    let shared = [selection("A")];
    let arg = json!({"selection": *shared[0]});
    let outcome = run(&mut sb, "amplify", &arg, &shared);
    assert_eq!(
        outcome.result,
        CallResult::OutputTooLarge { limit_bytes: limit }
    );
    let outcome = run(&mut sb, "deepen", &arg, &shared);
    assert!(
        matches!(&outcome.result, CallResult::InvalidOutput { message } if message.contains("nested more than 100")),
        "{:?}",
        outcome.result
    );
}

#[test]
fn a_string_shaped_like_a_reference_stays_a_string() {
    let mut sb = sandbox();
    let shared = [selection("A")];
    let kept = run(&mut sb, "stash", &json!({"selection": *shared[0]}), &shared);
    assert_eq!(kept.result, CallResult::Ok(Value::Null));
    let outcome = run(&mut sb, "forge", &Value::Null, &shared);
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!(format!("\u{0}{}:1", "0".repeat(32))))
    );
}

#[test]
fn many_units_keep_a_bounded_table_and_stay_correct() {
    let mut sb = sandbox();
    // More values than a runtime keeps: the oldest are dropped, and cross again
    // when they are shared again.
    let values: Vec<Arc<Value>> = (0..600).map(|i| selection(&format!("K{i}"))).collect();
    for value in values.iter().chain(&values[..50]) {
        assert_echoed(&mut sb, value);
    }
}

#[test]
fn a_runtime_keeps_a_bounded_table_of_paths_and_stays_correct() {
    let mut sb = sandbox();
    let shared = [selection("A")];
    // A new path at every call: the table the engine keeps of them starts
    // over after 1,024, and every hole is still filled with the kept value.
    for i in 0..1_100 {
        let arg = json!({"selection": *shared[0], format!("member{i}"): {"inner": *shared[0]}});
        let outcome = run(&mut sb, "twice", &arg, &shared);
        assert_eq!(
            outcome.result,
            CallResult::Ok(json!({"same": true, "value": *shared[0]})),
            "call {i}"
        );
    }
}

#[test]
fn polluted_prototypes_do_not_reach_the_kept_values() {
    let mut sb = sandbox();
    let polluted = run(&mut sb, "pollute", &Value::Null, &[]);
    assert_eq!(polluted.result, CallResult::Ok(Value::Null));
    for key in ["A", "B"] {
        let value = selection(key);
        // Kept by the first call, referred to by the second.
        assert_echoed(&mut sb, &value);
        assert_echoed(&mut sb, &value);
    }
}

#[test]
fn kept_values_leave_the_calls_their_heap() {
    // 400 live values of about 24 KB of JSON each: keeping them all would take
    // more than the whole 16 MiB heap; the runtime keeps what fits its budget.
    let mut sb = sandbox_with(
        Limits::default()
            .max_heap_bytes(16 * 1024 * 1024)
            .timeout_ms(5_000),
    );
    let values: Vec<Arc<Value>> = (0..400)
        .map(|i| {
            let tags: Vec<Value> = (0..400)
                .map(|t| json!({"tag": format!("t{i}-{t}")}))
                .collect();
            let mut value = (*selection(&format!("K{i}"))).clone();
            value["items"]["attachments"][0]["tags"] = Value::Array(tags);
            Arc::new(value)
        })
        .collect();
    for value in &values {
        assert_echoed(&mut sb, value);
    }
}

#[test]
fn under_process_isolation_shared_parts_cross_as_copies() {
    hookrun::sandbox::set_worker_binary(env!("CARGO_BIN_EXE_hookrun"));
    let options = common::sandbox_options().isolation(Isolation::process());
    let mut sb = Sandbox::new(common::fixture("sandbox"), options).unwrap();
    let shared = [selection("A")];
    let arg = json!({"selection": *shared[0], "copy": *shared[0]});
    let outcome = run(&mut sb, "inspect", &arg, &shared);
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"frozen": false, "same": false, "write": "written",
                              "deepWrite": "written"}))
    );
    assert_echoed(&mut sb, &shared[0]);
}

/// A copied value (`Call::copied`) reaches each call as a fresh, changeable
/// copy equal to it, one per place it fills, and what a call changes never
/// reaches the next call; a result that returns part of it crosses by value.
#[test]
fn copied_values_reach_each_call_as_fresh_copies() {
    let manifest = Arc::new(json!({
        "id": "w", "hooks": {"preflight": "p.mjs", "applyResult": "a.mjs"},
        "list": ["a", {"b": [1, 2]}, [], null, true, 3],
        "params": {"zeta": 1, "alpha": {"x": "y"}, "mid": "m"}
    }));
    let arg = json!({"manifest": null, "again": null});
    let placed: &[(&str, &Value)] = &[("manifest", &*manifest), ("again", &*manifest)];
    for isolation in [Isolation::InProcess, Isolation::process()] {
        hookrun::sandbox::set_worker_binary(env!("CARGO_BIN_EXE_hookrun"));
        let options = common::sandbox_options().isolation(isolation);
        let mut sb = Sandbox::new(common::fixture("sandbox"), options).unwrap();
        for _ in 0..3 {
            let outcome = sb.run(
                Call::new(Path::new("shared.mjs"), "change", &arg)
                    .placed(placed)
                    .copied(std::slice::from_ref(&manifest)),
            );
            assert_eq!(
                outcome.result,
                CallResult::Ok(json!({
                    "seen": {"frozen": false, "same": false, "keys": "id,hooks,list,params",
                             "order": "zeta,alpha,mid", "list": 6,
                             "before": manifest.to_string()},
                    "returned": {"preflight": "changed.mjs", "applyResult": "a.mjs"}
                })),
                "{isolation:?}"
            );
        }
    }
}
