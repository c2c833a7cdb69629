//! The sandbox through the library API: happy paths, hostile hooks, limits, and
//! a normal call succeeding after each hostile one in the same process.

use crate::common;

use std::path::Path;

use common::sandbox::{
    assert_healthy, assert_output_too_large, call, hook_error, load_error, sandbox, sandbox_with,
};
use hookrun::sandbox::{CallResult, Determinism, Limits, LogLevel, Sandbox};
use serde_json::{Value, json};

#[test]
fn sync_export_returns_its_value_and_captures_console() {
    let mut sb = sandbox();
    let outcome = call(
        &mut sb,
        "happy.mjs",
        "greet",
        json!({"name": "Ada", "items": [1, 2, 3]}),
    );
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"greeting": "Hello, Ada!", "total": 6}))
    );
    let logs: Vec<(LogLevel, &str)> = outcome
        .logs
        .iter()
        .map(|l| (l.level, l.message.as_str()))
        .collect();
    assert_eq!(
        logs,
        [
            (LogLevel::Log, "greeting Ada"),
            (LogLevel::Info, "{\"items\": 3}"),
            (LogLevel::Warn, "careful"),
            (LogLevel::Error, "not really an error"),
            (LogLevel::Debug, "debugging"),
        ]
    );
    assert_eq!(
        outcome.usage.log_bytes,
        logs.iter().map(|(_, m)| m.len() as u64).sum::<u64>()
    );
    assert!(outcome.usage.heap_used_bytes.is_some_and(|b| b > 0));
}

#[test]
fn async_exports_are_awaited() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "happy.mjs", "greetLater", json!({"name": "ada"}));
    assert_eq!(outcome.result, CallResult::Ok(json!({"value": "ADA"})));
}

#[test]
fn sibling_modules_load_statically_and_dynamically() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "happy.mjs", "dynamicSibling", Value::Null);
    assert_eq!(outcome.result, CallResult::Ok(json!(5)));
}

#[test]
fn module_state_persists_across_calls_of_one_sandbox_only() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, "happy.mjs", "counter", Value::Null).result,
        CallResult::Ok(json!(1))
    );
    assert_eq!(
        call(&mut sb, "happy.mjs", "counter", Value::Null).result,
        CallResult::Ok(json!(2))
    );
    let mut other = sandbox();
    assert_eq!(
        call(&mut other, "happy.mjs", "counter", Value::Null).result,
        CallResult::Ok(json!(1))
    );
}

#[test]
fn a_call_sees_the_export_a_module_has_now() {
    let mut sb = sandbox();
    let phase = |sb: &mut Sandbox| call(sb, "happy.mjs", "phase", Value::Null).result;
    assert_eq!(phase(&mut sb), CallResult::Ok(json!("first")));
    let missing = call(&mut sb, "happy.mjs", "later", Value::Null);
    assert_eq!(load_error(&missing).name, "ExportError");
    call(&mut sb, "happy.mjs", "swapPhase", Value::Null);
    assert_eq!(phase(&mut sb), CallResult::Ok(json!("second")));
    assert_eq!(
        call(&mut sb, "happy.mjs", "later", Value::Null).result,
        CallResult::Ok(json!("defined"))
    );
}

#[test]
fn limits_no_runtime_can_start_under_are_refused_up_front() {
    use hookrun::sandbox::SandboxError;
    for limits in [
        Limits::default().max_heap_bytes(1),
        Limits::default().max_heap_bytes(Limits::MIN_HEAP_BYTES - 1),
        Limits::default().timeout_ms(0),
    ] {
        let options = common::sandbox_options().limits(limits);
        let refused = Sandbox::new(common::fixture("sandbox"), options);
        assert!(
            matches!(refused, Err(SandboxError::Limits(_))),
            "{limits:?}"
        );
    }
    let options =
        common::sandbox_options().limits(Limits::default().max_heap_bytes(Limits::MIN_HEAP_BYTES));
    let mut sb = Sandbox::new(common::fixture("sandbox"), options).unwrap();
    assert_healthy(&mut sb);
}

#[test]
fn undefined_becomes_null() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, "happy.mjs", "nothing", Value::Null).result,
        CallResult::Ok(Value::Null)
    );
}

#[test]
fn determinism_freezes_the_clock_and_seeds_random() {
    let options = common::sandbox_options().determinism(Some(Determinism::default()));
    let run = || {
        let mut sb = Sandbox::new(common::fixture("sandbox"), options).unwrap();
        call(&mut sb, "happy.mjs", "clockAndDice", Value::Null).result
    };
    let first = run();
    let CallResult::Ok(value) = &first else {
        panic!("{first:?}")
    };
    assert_eq!(value["now"], json!(1_767_225_600_000_i64));
    assert_eq!(value["date"], json!("2026-01-01T00:00:00.000Z"));
    assert_ne!(value["dice"][0], value["dice"][1]);
    assert_eq!(first, run(), "the same seed gives the same numbers");
}

#[test]
fn runtimes_restored_from_one_snapshot_still_draw_their_own_random_numbers() {
    let dice = || {
        let mut sb = sandbox();
        match call(&mut sb, "happy.mjs", "clockAndDice", Value::Null).result {
            CallResult::Ok(value) => value["dice"].clone(),
            other => panic!("{other:?}"),
        }
    };
    assert_ne!(dice(), dice());
}

#[test]
fn missing_or_non_function_exports_are_load_errors() {
    let mut sb = sandbox();
    for export in ["doesNotExist", "notAFunction"] {
        let outcome = call(&mut sb, "happy.mjs", export, Value::Null);
        let f = load_error(&outcome);
        assert!(f.message.contains(export), "{}", f.message);
        assert!(f.message.contains("happy.mjs"), "{}", f.message);
    }
    assert_healthy(&mut sb);
}

#[test]
fn thrown_errors_carry_name_message_and_relative_location() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "throwingToString", Value::Null);
    let f = hook_error(&outcome);
    assert_eq!(
        f.name, "Error",
        "a throwing getter falls back to a safe name"
    );
    let outcome = call(&mut sb, "escapes/dynamic.mjs", "run", Value::Null);
    let f = hook_error(&outcome);
    assert_eq!(f.name, "TypeError");
    let loc = f.location.as_ref().unwrap();
    assert_eq!((loc.file.as_str(), loc.line), ("escapes/dynamic.mjs", 2));
    assert!(
        !f.stack.contains(env!("CARGO_MANIFEST_DIR")),
        "no host paths: {}",
        f.stack
    );
    assert!(
        !f.stack.contains("prelude"),
        "no prelude frames: {}",
        f.stack
    );
    assert_healthy(&mut sb);
}

#[test]
fn thrown_non_errors_are_hook_errors() {
    let mut sb = sandbox();
    let f = hook_error(&call(&mut sb, "hostile.mjs", "throwNumber", Value::Null)).clone();
    assert_eq!(f.message, "Uncaught 42");
    let f = hook_error(&call(&mut sb, "hostile.mjs", "throwNonError", Value::Null)).clone();
    assert_eq!(f.message, "{\"code\": 7}");
    assert_healthy(&mut sb);
}

#[test]
fn endless_sync_loop_times_out() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "endlessLoop", Value::Null);
    assert_eq!(outcome.result, CallResult::Timeout { limit_ms: 500 });
    assert_healthy(&mut sb);
}

#[test]
fn endless_async_loop_times_out() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "endlessAsyncLoop", Value::Null);
    assert_eq!(outcome.result, CallResult::Timeout { limit_ms: 500 });
    assert_healthy(&mut sb);
}

#[test]
fn a_getter_looping_during_serialisation_times_out() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "getterLoopOnOutput", Value::Null);
    assert_eq!(outcome.result, CallResult::Timeout { limit_ms: 500 });
    assert_healthy(&mut sb);
}

#[test]
fn a_timeout_never_leaks_into_the_next_call() {
    let mut sb = sandbox_with(Limits::default().timeout_ms(200));
    assert!(matches!(
        call(&mut sb, "hostile.mjs", "endlessLoop", Value::Null).result,
        CallResult::Timeout { .. }
    ));
    for _ in 0..20 {
        assert_healthy(&mut sb);
    }
}

#[test]
fn deep_recursion_is_a_range_error() {
    let mut sb = sandbox();
    let f = hook_error(&call(&mut sb, "hostile.mjs", "deepRecursion", Value::Null)).clone();
    assert_eq!(f.name, "RangeError");
    assert_healthy(&mut sb);
}

#[test]
fn memory_bomb_hits_the_heap_cap() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "memoryBomb", Value::Null);
    assert_eq!(
        outcome.result,
        CallResult::MemoryLimit {
            limit_bytes: 64 * 1024 * 1024
        }
    );
    assert_healthy(&mut sb);
}

#[test]
fn doubling_string_hits_the_heap_cap() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "hugeString", Value::Null);
    assert!(
        matches!(
            outcome.result,
            CallResult::MemoryLimit { .. } | CallResult::HookError(_)
        ),
        "{:?}",
        outcome.result
    );
    assert_healthy(&mut sb);
}

#[test]
fn oversized_output_is_refused() {
    assert_output_too_large("hostile.mjs", "hugeOutput");
}

#[test]
fn values_json_cannot_carry_are_invalid_output() {
    let mut sb = sandbox();
    for (export, needle) in [
        ("returnFunction", "function"),
        ("returnCycle", "circular"),
        ("returnBigInt", "BigInt"),
    ] {
        match call(&mut sb, "hostile.mjs", export, Value::Null).result {
            CallResult::InvalidOutput { message } => {
                assert!(message.contains(needle), "{export}: {message}")
            }
            other => panic!("{export}: expected invalid-output, got {other:?}"),
        }
    }
    assert_healthy(&mut sb);
}

/// A result is written as `JSON.stringify` writes it, getters and `toJSON`
/// methods run on the way (and may log), and each value JSON cannot carry is
/// refused with its key and what it is.
#[test]
fn results_are_written_and_checked_value_by_value() {
    let mut sb = sandbox();
    let outcome = call(
        &mut sb,
        "hostile.mjs",
        "returnLiveValues",
        json!({"items": [1, 2]}),
    );
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"counted": 2, "when": "1970-01-01T00:00:00.000Z",
            "boxed": "boxed", "proxied": {"q": 1}, "custom": ["custom"]}))
    );
    let logs: Vec<&str> = outcome.logs.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(logs, ["getter ran", "toJSON of custom"]);
    let cases = [
        (
            "nan",
            Some("x"),
            "property \"x\" is NaN, which JSON cannot represent",
        ),
        (
            "infinity",
            None,
            "the returned value is -Infinity, which JSON cannot represent",
        ),
        (
            "symbol",
            Some("s"),
            "property \"s\" is a symbol, which cannot cross the sandbox boundary as JSON",
        ),
        (
            "function",
            Some("0"),
            "property \"0\" is a function, which cannot cross the sandbox boundary as JSON",
        ),
        (
            "bigint",
            Some("b"),
            "property \"b\" is a BigInt; convert it to a number or string first",
        ),
        (
            "late",
            Some("later"),
            "property \"later\" is Infinity, which JSON cannot represent",
        ),
    ];
    for (kind, key, message) in cases {
        let arg = json!({"kind": kind, "key": key});
        assert_eq!(
            call(&mut sb, "hostile.mjs", "returnUnwritable", arg).result,
            CallResult::InvalidOutput {
                message: message.into()
            },
            "{kind}"
        );
    }
    let thrown = call(
        &mut sb,
        "hostile.mjs",
        "returnUnwritable",
        json!({"kind": "throwing", "key": "k"}),
    );
    let failure = hook_error(&thrown);
    assert_eq!(failure.name, "RangeError");
    assert_eq!(failure.message, "getter failed");
    assert_healthy(&mut sb);
}

#[test]
fn deno_and_host_globals_are_out_of_reach() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "reachForDeno", Value::Null);
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({
            "deno": "undefined", "core": "undefined", "fetch": "undefined",
            "setTimeout": "undefined", "bootstrap": "undefined",
            "snapshotBoot": "undefined", "hiddenGlobals": [],
            "viaFunction": "undefined", "viaEval": "undefined", "viaConstructor": true
        }))
    );
}

#[test]
fn unhandled_rejections_fail_the_call() {
    let mut sb = sandbox();
    let f = hook_error(&call(
        &mut sb,
        "hostile.mjs",
        "unhandledRejection",
        Value::Null,
    ))
    .clone();
    assert_eq!(f.message, "nobody listens");
    assert_healthy(&mut sb);
}

#[test]
fn a_promise_that_never_settles_fails_the_call() {
    let mut sb = sandbox();
    let f = hook_error(&call(&mut sb, "hostile.mjs", "neverSettles", Value::Null)).clone();
    assert_eq!(f.name, "PendingPromiseError");
    assert!(f.message.contains("never settles"), "{}", f.message);
    assert_healthy(&mut sb);
}

#[test]
fn polluted_prototypes_do_not_break_the_prelude() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, "hostile.mjs", "pollutePrototypes", Value::Null).result,
        CallResult::Ok(json!({"fine": true}))
    );
    assert_healthy(&mut sb);
}

#[test]
fn log_floods_are_truncated_with_a_marker() {
    let mut sb = sandbox_with(Limits::default().max_log_bytes(10_000).timeout_ms(30_000));
    let outcome = call(&mut sb, "hostile.mjs", "floodLogs", Value::Null);
    assert_eq!(outcome.result, CallResult::Ok(json!("flooded")));
    let kept: usize = outcome.logs.iter().map(|l| l.message.len()).sum();
    let marker = outcome.logs.last().unwrap();
    assert!(marker.message.contains("truncated"), "{}", marker.message);
    assert!(kept <= 10_000 + marker.message.len());
    assert_healthy(&mut sb);
}

#[test]
fn every_refused_import_form_is_a_load_error_naming_importer_and_specifier() {
    let mut sb = sandbox();
    for (module, specifier) in [
        ("bare", "lodash"),
        ("node", "node:fs"),
        ("npm", "npm:left-pad"),
        ("http", "https://example.com/x.mjs"),
        ("data", "data:text/javascript,export default 1"),
        ("fileurl", "file:///etc/passwd"),
        ("absolute", "/etc/hostname"),
        ("parent", "../../outside.mjs"),
        ("encoded", "./%2e%2e/%2e%2e/outside.mjs"),
        ("json", "./data.json"),
        ("missing", "./does-not-exist.mjs"),
    ] {
        let path = format!("escapes/{module}.mjs");
        let outcome = call(&mut sb, &path, "run", Value::Null);
        let f = load_error(&outcome);
        assert!(
            f.message.contains(&format!("\"{specifier}\"")),
            "{module}: {}",
            f.message
        );
        assert!(f.message.contains(&path), "{module}: {}", f.message);
    }
    assert_healthy(&mut sb);
}

#[test]
fn dynamic_import_of_a_computed_escape_is_refused() {
    let mut sb = sandbox();
    let f = hook_error(&call(
        &mut sb,
        "escapes/dynamic.mjs",
        "run",
        json!({"target": "etc/passwd.mjs"}),
    ))
    .clone();
    assert!(
        f.message.contains("leaves the workflow root"),
        "{}",
        f.message
    );
    assert_healthy(&mut sb);
}

#[test]
fn syntax_errors_and_throwing_top_level_code_are_load_errors_with_location() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "escapes/syntax.mjs", "run", Value::Null);
    let f = load_error(&outcome);
    assert_eq!(f.name, "SyntaxError");
    assert_eq!(
        f.location.as_ref().map(|l| (l.file.as_str(), l.line)),
        Some(("escapes/syntax.mjs", 2))
    );
    let outcome = call(&mut sb, "escapes/throws-on-load.mjs", "run", Value::Null);
    let f = load_error(&outcome);
    assert_eq!(f.name, "TypeError");
    assert_eq!(f.location.as_ref().map(|l| l.line), Some(2));
    assert_healthy(&mut sb);
}

#[test]
fn symlinks_leaving_the_root_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("secret.mjs"),
        "export function run() { return 'secret'; }",
    )
    .unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.mjs"),
        root.path().join("link.mjs"),
    )
    .unwrap();
    std::fs::write(
        root.path().join("main.mjs"),
        "import { run as r } from './link.mjs';\nexport function run() { return r(); }",
    )
    .unwrap();
    let mut sb = Sandbox::new(root.path(), common::sandbox_options()).unwrap();
    let f = load_error(&sb.call(Path::new("main.mjs"), "run", &Value::Null)).clone();
    assert!(
        f.message.contains("leaves the workflow root"),
        "{}",
        f.message
    );
    let f = load_error(&sb.call(Path::new("link.mjs"), "run", &Value::Null)).clone();
    assert!(
        f.message.contains("leaves the workflow root"),
        "{}",
        f.message
    );
    let f = load_error(&sb.call(&outside.path().join("secret.mjs"), "run", &Value::Null)).clone();
    assert!(
        f.message.contains("leaves the workflow root"),
        "{}",
        f.message
    );
}

#[test]
fn exports_lists_names_and_kinds_without_calling() {
    let mut sb = sandbox();
    let exports = sb.exports(Path::new("happy.mjs")).unwrap();
    assert!(exports.contains(&("greet".to_string(), true)));
    assert!(exports.contains(&("notAFunction".to_string(), false)));
}

#[test]
fn synchronous_calls_ignore_returned_promises_with_a_warning() {
    let mut sb = sandbox();
    let outcome = sb.run(
        hookrun::sandbox::Call::new(Path::new("happy.mjs"), "asyncSettings", &Value::Null)
            .synchronously(),
    );
    assert_eq!(outcome.result, CallResult::Ok(Value::Null));
    assert_eq!(outcome.logs.last().map(|l| l.level), Some(LogLevel::Warn));
    let awaited = call(&mut sb, "happy.mjs", "asyncSettings", Value::Null);
    assert_eq!(awaited.result, CallResult::Ok(json!({"patched": true})));
}

#[test]
fn object_literals_and_class_fields_define_properties_as_the_language_says() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "objects.mjs", "literalSemantics", Value::Null);
    assert_eq!(outcome.result, CallResult::Ok(json!([])));
}

#[test]
fn freezing_and_sealing_change_what_the_language_says() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "objects.mjs", "freezeSemantics", Value::Null);
    assert_eq!(outcome.result, CallResult::Ok(json!([])));
}
