//! The hostile hook corpus (`fixtures/sandbox/corpus`): every attack ends in its
//! documented typed outcome, and a normal call in the same process still succeeds
//! afterwards. Attacks already covered by `tests/sandbox.rs` (plain loops, array
//! and string bombs, huge outputs, log floods, static import escapes) are not
//! repeated here.

use crate::common;

use std::path::Path;

use common::sandbox::{assert_healthy, assert_output_too_large, call, hook_error, sandbox};
use hookrun::sandbox::{CallResult, LogLevel, Sandbox};
use serde_json::{Value, json};

const EXHAUST: &str = "corpus/exhaust.mjs";
const POLLUTE: &str = "corpus/pollute.mjs";
const REACH: &str = "corpus/reach.mjs";

/// Calls `export` of `module` in a fresh default sandbox, asserts `expected`,
/// then asserts the same sandbox still serves a normal call.
fn assert_outcome(module: &str, export: &str, expected: CallResult) {
    let mut sb = sandbox();
    let outcome = call(&mut sb, module, export, Value::Null);
    assert_eq!(outcome.result, expected, "{module} {export}");
    assert_healthy(&mut sb);
}

const TIMEOUT: CallResult = CallResult::Timeout { limit_ms: 500 };
const MEMORY: CallResult = CallResult::MemoryLimit {
    limit_bytes: 64 * 1024 * 1024,
};

#[test]
fn loops_anywhere_hookrun_runs_hook_code_time_out() {
    for export in [
        "endlessGenerator",
        "endlessToJSON",
        "endlessProxyTrap",
        "endlessToPrimitive",
        "endlessStackGetter",
        "endlessMicrotasks",
        "regexBacktracking",
    ] {
        assert_outcome(EXHAUST, export, TIMEOUT);
    }
}

#[test]
fn buffer_and_typed_array_bombs_hit_the_heap_cap() {
    for export in ["arrayBufferBomb", "typedArrayBomb"] {
        assert_outcome(EXHAUST, export, MEMORY);
    }
}

/// Errors thrown while the heap fills up make the engine build backtraces at
/// the cap, where QuickJS-ng used to free a value twice and crash the process
/// on the first breach (see `crates/hookrun-sandbox/src/breach.rs`).
#[test]
fn error_bombs_hit_the_heap_cap_without_taking_the_host_down() {
    for (export, times) in [
        ("errorBomb", 3),
        ("preparedErrorBomb", 2),
        ("namedErrorBomb", 1),
    ] {
        // The named bomb spends each step in the allocator near the cap (a failed
        // allocation and a collection per thrown error); the engine polls for the
        // termination after each (docs/engine-patches.md). Without that it took 30 s
        // to stop, which in a worker process (HOOKRUN_TEST_ISOLATION=process) is past
        // the wall timeout and would end as `timeout`.
        for _ in 0..times {
            assert_outcome(EXHAUST, export, MEMORY);
        }
    }
}

/// Between the breach and the termination taking effect the hook still runs;
/// whatever it reads or returns then, the call ends as a breach.
#[test]
fn stacks_read_after_a_breach_change_nothing_but_the_doomed_runtime() {
    for _ in 0..3 {
        assert_outcome(EXHAUST, "stacksAfterBreach", MEMORY);
    }
}

#[test]
fn results_nested_too_deep_are_invalid_output_naming_the_limit() {
    assert_outcome(
        EXHAUST,
        "deepOutput",
        CallResult::InvalidOutput {
            message:
                "property \"0\" is nested more than 100 levels deep; flatten the returned value"
                    .into(),
        },
    );
}

#[test]
fn escaping_inflation_cannot_slip_past_the_output_limit() {
    assert_output_too_large(EXHAUST, "escapedOutput");
}

#[test]
fn an_error_larger_than_the_output_limit_is_output_too_large() {
    assert_output_too_large(EXHAUST, "hugeErrorMessage");
}

#[test]
fn a_promise_that_never_settles_is_a_pending_promise_error() {
    let mut sb = sandbox();
    let f = hook_error(&call(&mut sb, EXHAUST, "neverSettles", Value::Null)).clone();
    assert_eq!(f.name, "PendingPromiseError");
    assert!(f.message.contains("never settles"), "{}", f.message);
    assert_healthy(&mut sb);
}

#[test]
fn thrown_values_whose_inspection_throws_are_still_hook_errors() {
    let mut sb = sandbox();
    let f = hook_error(&call(&mut sb, EXHAUST, "throwingProxy", Value::Null)).clone();
    assert_eq!(
        (f.name.as_str(), f.message.as_str()),
        ("Error", "through a proxy")
    );
    let f = hook_error(&call(
        &mut sb,
        EXHAUST,
        "throwingToStringError",
        Value::Null,
    ))
    .clone();
    assert_eq!((f.name.as_str(), f.message.as_str()), ("Error", ""));
    assert_healthy(&mut sb);
}

#[test]
fn logging_objects_that_throw_on_inspection_records_placeholders() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, EXHAUST, "logObjectsThatFightBack", Value::Null);
    assert_eq!(outcome.result, CallResult::Ok(json!("logged")));
    let messages: Vec<&str> = outcome.logs.iter().map(|l| l.message.as_str()).collect();
    assert_eq!(
        messages,
        ["proxy [unprintable]", "getter [unprintable]", "Symbol(s)"]
    );
    assert_healthy(&mut sb);
}

#[test]
fn replaced_intrinsics_change_neither_serialisation_nor_log_records() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, POLLUTE, "replaceIntrinsics", Value::Null);
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"list": [1, 2, 3], "nested": {"ok": true}}))
    );
    assert_eq!(outcome.logs.len(), 1);
    assert_eq!(outcome.logs[0].level, LogLevel::Log);
    assert_eq!(outcome.logs[0].message, "after [1, 2] {\"a\": 1} Symbol(s)");
}

#[test]
fn prototype_pollution_stays_in_its_own_sandbox() {
    let mut polluted = sandbox();
    assert_eq!(
        call(&mut polluted, POLLUTE, "pollutePrototypes", Value::Null).result,
        CallResult::Ok(json!("string"))
    );
    assert_healthy(&mut polluted);
    let mut fresh = sandbox();
    assert_eq!(
        call(&mut fresh, POLLUTE, "readPollution", Value::Null).result,
        CallResult::Ok(
            json!({"object": "undefined", "array": "undefined", "kind": "undefined", "marker": "undefined"})
        )
    );
}

#[test]
fn a_limit_breach_discards_globals_and_prototype_changes() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, POLLUTE, "leaveGlobals", Value::Null).result,
        CallResult::Ok(json!("left"))
    );
    assert_eq!(
        call(&mut sb, EXHAUST, "endlessToJSON", Value::Null).result,
        TIMEOUT
    );
    assert_eq!(
        call(&mut sb, POLLUTE, "readPollution", Value::Null).result,
        CallResult::Ok(
            json!({"object": "undefined", "array": "undefined", "kind": "undefined", "marker": "undefined"})
        )
    );
}

#[test]
fn hook_defined_prepare_stack_trace_never_receives_call_sites() {
    let mut sb = sandbox();
    for export in ["customPrepareStackTrace", "replacedErrorGlobal"] {
        let outcome = call(&mut sb, REACH, export, Value::Null);
        let CallResult::Ok(value) = &outcome.result else {
            panic!("{export}: {:?}", outcome.result)
        };
        assert_eq!(value["calls"], json!(0), "{export}");
        if export == "customPrepareStackTrace" {
            assert_eq!(
                value["kept"], "function",
                "the hook reads back what it assigned"
            );
        }
        let stack = value["stack"].as_str().unwrap();
        assert!(
            stack.starts_with("Error: probe\n    at "),
            "{export}: {stack}"
        );
        assert!(
            stack.contains(&format!("{export} (corpus/reach.mjs:")),
            "{stack}"
        );
    }
    assert_healthy(&mut sb);
}

#[test]
fn no_symbol_keyed_globals_survive_the_prelude() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, REACH, "symbolGlobals", Value::Null).result,
        CallResult::Ok(json!([]))
    );
}

#[test]
fn eval_and_function_constructors_work_in_the_same_deny_by_default_global() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, REACH, "constructorChains", Value::Null).result,
        CallResult::Ok(json!({
            "sameGlobal": true, "deno": "undefined", "generator": "undefined",
            "asyncIsPromise": true, "evalDeno": "undefined",
            "indirectEval": "undefinedundefined", "newFunction": 5
        }))
    );
}

#[test]
fn stacks_a_hook_reads_hold_only_its_frames_with_relative_paths() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, REACH, "ownStack", Value::Null).result,
        CallResult::Ok(json!(
            "Error: mine\n    at inner (corpus/reach.mjs:41:29)\n    at corpus/reach.mjs:42:24\n    at ownStack (corpus/reach.mjs:42:14)"
        ))
    );
    assert_eq!(
        call(&mut sb, REACH, "engineErrorStack", Value::Null).result,
        CallResult::Ok(json!(
            "TypeError: Cannot read properties of null (reading 'field')\n    at engineErrorStack (corpus/reach.mjs:47:10)"
        ))
    );
    assert_eq!(
        call(&mut sb, REACH, "importMeta", Value::Null).result,
        CallResult::Ok(json!("hookrun:///corpus/reach.mjs"))
    );
}

#[test]
fn reported_stacks_hold_only_hook_frames_with_relative_paths() {
    let mut sb = sandbox();
    let f = hook_error(&call(
        &mut sb,
        "hostile.mjs",
        "throwingToString",
        Value::Null,
    ))
    .clone();
    assert!(!f.stack.is_empty());
    for line in f.stack.lines() {
        assert!(line.starts_with("    at "), "{line}");
        assert!(line.contains("hostile.mjs:"), "{line}");
        assert!(!line.contains("hookrun:"), "{line}");
        assert!(!line.contains(env!("CARGO_MANIFEST_DIR")), "{line}");
    }
}

#[test]
fn computed_dynamic_imports_cannot_leave_the_root() {
    let mut sb = sandbox();
    for (specifier, refusal) in [
        ("../HAPPY.MJS", "only .mjs and .js modules"),
        ("../Happy.mjs", "cannot find module"),
        ("./\u{2024}\u{2024}/happy.mjs", "cannot find module"),
        ("\u{ff0e}\u{ff0e}/happy.mjs", "bare module names"),
        (
            "./%2e%2e/%2e%2e/%2e%2e/etc/passwd.mjs",
            "leaves the workflow root",
        ),
        (
            "./%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd.mjs",
            "leaves the workflow root",
        ),
        ("./..%5c..%5cx.mjs", "leaves the workflow root"),
        ("./x.mjs%00.js", "leaves the workflow root"),
        ("..%2f..%2fx.mjs", "bare module names"),
        ("hookrun:///../../../etc/passwd.mjs", "URL imports"),
        ("hookrun:prelude", "URL imports"),
        ("ext:core/mod.js", "URL imports"),
        ("/proc/self/environ", "absolute paths"),
    ] {
        let outcome = call(
            &mut sb,
            REACH,
            "dynamicImport",
            json!({"specifier": specifier}),
        );
        let CallResult::Ok(Value::String(message)) = &outcome.result else {
            panic!("{specifier}: {:?}", outcome.result)
        };
        assert!(message.contains(refusal), "{specifier}: {message}");
    }
    assert_eq!(
        call(
            &mut sb,
            REACH,
            "dynamicImport",
            json!({"specifier": "../lib/math.mjs"})
        )
        .result,
        CallResult::Ok(json!("imported"))
    );
}

#[test]
fn symlinked_directories_and_case_variants_leaving_the_root_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.mjs"), "export const x = 1;").unwrap();
    std::os::unix::fs::symlink(outside.path(), root.path().join("linked")).unwrap();
    std::fs::write(
        root.path().join("main.mjs"),
        "export async function run(s) { try { await import(s); return 'imported'; } catch (e) { return e.message; } }",
    )
    .unwrap();
    let mut sb = Sandbox::new(root.path(), common::sandbox_options()).unwrap();
    for specifier in ["./linked/x.mjs", "./linked/../main.mjs/../linked/x.mjs"] {
        let outcome = sb.call(Path::new("main.mjs"), "run", &json!(specifier));
        let CallResult::Ok(Value::String(message)) = &outcome.result else {
            panic!("{specifier}: {:?}", outcome.result)
        };
        assert!(
            message.contains("leaves the workflow root"),
            "{specifier}: {message}"
        );
    }
    let outcome = sb.call(Path::new("main.mjs"), "run", &json!("./main.mjs"));
    assert_eq!(outcome.result, CallResult::Ok(json!("imported")));
}

#[test]
fn module_top_level_code_that_never_finishes_is_typed() {
    assert_outcome("corpus/top-level-loop.mjs", "run", TIMEOUT);
    let mut sb = sandbox();
    let outcome = call(&mut sb, "corpus/top-level-pending.mjs", "run", Value::Null);
    let CallResult::LoadError(f) = &outcome.result else {
        panic!("{:?}", outcome.result)
    };
    assert_eq!(f.message, "Top-level await promise never resolved");
    assert_healthy(&mut sb);
}

#[test]
fn forged_stack_lines_naming_host_paths_or_internals_are_dropped() {
    let mut sb = sandbox();
    let f = hook_error(&call(&mut sb, EXHAUST, "forgedStack", Value::Null)).clone();
    assert_eq!((f.message.as_str(), f.stack.as_str()), ("forged", ""));
    assert_eq!(f.location, None);
}

/// A flood of console entries without text is capped like one of long entries: the
/// log closes, later calls cost nothing, and the call ends well within its timeout.
#[test]
fn log_floods_of_empty_entries_are_capped_by_entry_count() {
    let limits = hookrun::sandbox::Limits::default()
        .timeout_ms(5_000)
        .max_log_bytes(64 * 1024);
    for export in [
        "emptyLogs",
        "emptyStrings",
        "undefinedDebug",
        "oneCharacterInfo",
    ] {
        let mut sb = common::sandbox::sandbox_with(limits);
        let outcome = call(&mut sb, "corpus/floods.mjs", export, Value::Null);
        assert_eq!(outcome.result, CallResult::Ok(json!("done")), "{export}");
        // Each kept entry costs at least 32 bytes of the 64 KiB.
        assert!(
            outcome.logs.len() <= 64 * 1024 / 32 + 1,
            "{export}: {}",
            outcome.logs.len()
        );
        assert!(
            outcome.logs.len() > 100,
            "{export}: the log kept too little"
        );
        assert_eq!(
            outcome.logs.last().map(|l| l.level),
            Some(LogLevel::Warn),
            "{export}: the truncation marker ends the log"
        );
        assert_healthy(&mut sb);
    }
}

/// Exactly these globals (the standard ones, `console` and the reference host's
/// `__zsHostApi` pair), and nothing an engine layer adds: hooks have no threads,
/// so `SharedArrayBuffer` (memory outside the heap cap) and `Atomics` (waits the
/// watchdog cannot interrupt) are absent.
#[test]
fn hooks_see_the_standard_globals_and_nothing_else() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "globalNames", Value::Null);
    let expected = [
        "AggregateError",
        "Array",
        "ArrayBuffer",
        "BigInt",
        "BigInt64Array",
        "BigUint64Array",
        "Boolean",
        "DataView",
        "Date",
        "Error",
        "EvalError",
        "FinalizationRegistry",
        "Float16Array",
        "Float32Array",
        "Float64Array",
        "Function",
        "Infinity",
        "Int16Array",
        "Int32Array",
        "Int8Array",
        "Intl",
        "Iterator",
        "JSON",
        "Map",
        "Math",
        "NaN",
        "Number",
        "Object",
        "Promise",
        "Proxy",
        "RangeError",
        "ReferenceError",
        "Reflect",
        "RegExp",
        "Set",
        "String",
        "SuppressedError",
        "Symbol",
        "SyntaxError",
        "TextDecoder",
        "TextEncoder",
        "TypeError",
        "URIError",
        "URL",
        "URLSearchParams",
        "Uint16Array",
        "Uint32Array",
        "Uint8Array",
        "Uint8ClampedArray",
        "WeakMap",
        "WeakRef",
        "WeakSet",
        "__zsHostApi",
        "__zsHostApiVersion",
        "atob",
        "btoa",
        "console",
        "decodeURI",
        "decodeURIComponent",
        "encodeURI",
        "encodeURIComponent",
        "escape",
        "eval",
        "globalThis",
        "isFinite",
        "isNaN",
        "parseFloat",
        "parseInt",
        "queueMicrotask",
        "structuredClone",
        "undefined",
        "unescape",
    ];
    assert_eq!(outcome.result, CallResult::Ok(json!(expected.to_vec())));
    let outcome = call(&mut sb, "hostile.mjs", "sharedMemory", Value::Null);
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"sab": "undefined", "atomics": "undefined"}))
    );
}

/// Source text reaches the engine as written: nothing rewrites `import.defer(` or
/// V8 natives inside it (string literals included), and no internal global appears.
#[test]
fn hook_sources_are_compiled_as_written() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, "hostile.mjs", "phaseImportText", Value::Null);
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({
            "text": "import.defer(x) import.source(y) %OptimizeFunctionOnNextCall(f)",
            "internals": []
        }))
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("defer.mjs"),
        "export async function f() { return typeof (await import.defer(\"./defer.mjs\")); }\n",
    )
    .unwrap();
    let mut sb = Sandbox::new(dir.path(), common::sandbox_options()).unwrap();
    let outcome = sb.call(Path::new("defer.mjs"), "f", &Value::Null);
    assert!(
        matches!(outcome.result, CallResult::LoadError(_)),
        "{:?}",
        outcome.result
    );
}

const INTERNALS: &str = "corpus/internals/engine.mjs";

/// Every method of the builtins the engine layer and deno_core might use, replaced by
/// one that throws or one that lies, then every operation that reaches their code:
/// whatever the outcome, the host survives and the next sandbox works.
#[test]
fn replaced_builtins_never_take_the_host_down() {
    for target in [
        "Array",
        "ArrayPrototype",
        "Object",
        "ObjectPrototype",
        "Function",
        "FunctionPrototype",
        "Promise",
        "PromisePrototype",
        "Error",
        "ErrorPrototype",
        "Symbol",
        "SymbolPrototype",
        "JSON",
        "Reflect",
    ] {
        for lie in [false, true] {
            let mut sb = sandbox();
            let outcome = call(
                &mut sb,
                INTERNALS,
                "replaced",
                json!({"target": target, "lie": lie}),
            );
            assert!(
                !matches!(outcome.result, CallResult::LoadError(_)),
                "{target} {lie}: {:?}",
                outcome.result
            );
        }
    }
    assert_healthy(&mut sandbox());
}

/// The paths that used to abort the process (a deno_core assert, unwraps, a 240 GB
/// allocation, a rusty_v8 unwrap) end in typed outcomes (docs/engine-patches.md).
#[test]
fn engine_internals_fed_hook_values_end_in_typed_outcomes() {
    let refused = |outcome: &hookrun::sandbox::Outcome| match &outcome.result {
        CallResult::Ok(Value::String(s)) => s.clone(),
        other => panic!("{other:?}"),
    };
    let mut sb = sandbox();
    assert_eq!(
        refused(&call(&mut sb, INTERNALS, "replacedPush", Value::Null)),
        "threw"
    );
    for export in ["mapWithThrowingIndex", "forgedWasmFrames"] {
        let outcome = call(&mut sandbox(), INTERNALS, export, Value::Null);
        assert!(
            matches!(outcome.result, CallResult::Ok(_)),
            "{export}: {:?}",
            outcome.result
        );
    }
    let outcome = call(
        &mut sandbox(),
        INTERNALS,
        "dynamicImportsOfThrowingModules",
        Value::Null,
    );
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!(["caught", "caught", "caught", "caught"]))
    );
    let outcome = call(
        &mut sandbox(),
        INTERNALS,
        "thrownValuesWithoutAMessage",
        Value::Null,
    );
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!(["caught", "caught", "caught"]))
    );
    let outcome = call(
        &mut sandbox(),
        INTERNALS,
        "replacedPromiseMethods",
        Value::Null,
    );
    assert_eq!(
        outcome.result,
        CallResult::Ok(json!({"kind": "data", "ran": true, "refused": "yes"}))
    );
    let outcome = call(
        &mut sandbox(),
        "corpus/internals/top-level-trapped.mjs",
        "f",
        Value::Null,
    );
    assert!(
        matches!(outcome.result, CallResult::LoadError(_)),
        "{:?}",
        outcome.result
    );
    assert_healthy(&mut sb);
}

/// Builtins that walk every index of a sparse array of length 2³²−1 poll the
/// watchdog like any loop (a QuickJS-ng patch, docs/engine-patches.md).
#[test]
fn builtins_walking_huge_sparse_arrays_time_out() {
    for export in [
        "sparseJoin",
        "sparseToString",
        "sparseIncludes",
        "sparseIndexOf",
        "sparseLastIndexOf",
        "sparseSort",
        "sparseReverse",
        "sparseEvery",
        "sparseFind",
    ] {
        assert_outcome(EXHAUST, export, TIMEOUT);
    }
}

/// A `JSON.parse` syntax error names no engine-internal frame: its stack starts
/// at the hook's call of `JSON.parse`, and the failure points at that line (a
/// QuickJS-ng patch, docs/engine-patches.md).
#[test]
fn json_parse_errors_point_at_the_hook_not_an_engine_frame() {
    let mut sb = sandbox();
    let outcome = call(&mut sb, REACH, "jsonParseStack", Value::Null);
    let CallResult::Ok(Value::String(stack)) = &outcome.result else {
        panic!("{:?}", outcome.result);
    };
    assert!(!stack.contains("<input>"), "{stack}");
    assert!(
        stack
            .lines()
            .nth(1)
            .is_some_and(|l| l.contains("jsonParseStack")),
        "{stack}"
    );
    let outcome = call(&mut sb, REACH, "jsonParseThrown", Value::Null);
    let failure = hook_error(&outcome);
    assert_eq!(failure.name, "SyntaxError");
    assert!(!failure.stack.contains("<input>"), "{}", failure.stack);
    let location = failure.location.as_ref().expect("a location in the hook");
    assert!(location.file.ends_with("reach.mjs"), "{location:?}");
}

/// A hook's throwing setters on `Array.prototype` indexes never run while its
/// result crosses back (a QuickJS-ng patch, docs/engine-patches.md).
#[test]
fn throwing_index_setters_do_not_break_the_crossing_of_a_result() {
    let mut sb = sandbox();
    assert_eq!(
        call(&mut sb, POLLUTE, "throwingIndexSetters", Value::Null).result,
        CallResult::Ok(
            json!({"list": [1, 2, 3], "nested": [[4], {"a": [5, {"b": [6]}]}], "text": "t"})
        )
    );
}

const BUILTINS: &str = "corpus/builtins.mjs";

/// Builtins that loop over a length a hook chooses poll the interrupt as they
/// go, so one call of them ends with the call's timeout (QuickJS-ng and v8x
/// patches, docs/engine-patches.md): naive string searches, long-string
/// compares in sorts and searches, a Proxy's key checks and walks of a shared
/// graph. Without the patches each runs for minutes.
#[test]
fn builtins_whose_work_a_hook_chooses_end_with_the_timeout() {
    for export in [
        "stringIndexOf",
        "stringLastIndexOf",
        "stringIncludes",
        "stringSplit",
        "stringReplaceAll",
        "sortLongStrings",
        "indexOfLongStrings",
        "lastIndexOfLongStrings",
        "includesLongStrings",
        "proxyOwnKeys",
        "stringifySharedGraph",
        "sortTypedArray",
        "decodeForever",
        "encodeForever",
        "serializeFormForever",
        "parseUrlForever",
    ] {
        assert_outcome(BUILTINS, export, TIMEOUT);
    }
    // A shared graph is walked once per object, not once per path: the clone
    // answers (or times out), never runs on past its limits.
    let mut sb = sandbox();
    let outcome = call(&mut sb, BUILTINS, "cloneSharedGraph", Value::Null);
    assert!(
        matches!(
            outcome.result,
            CallResult::Ok(_) | CallResult::Timeout { .. }
        ),
        "{:?}",
        outcome.result
    );
}

/// A value nested too deeply to be cloned object by object is refused with a
/// `DataCloneError`, never by overflowing the host's stack (a v8x patch).
#[test]
fn structured_clones_nested_too_deeply_are_refused_not_a_crash() {
    let mut sb = sandbox();
    for (export, refusal) in [
        ("deepCloneWithHostObject", "nests too deeply"),
        // Each reference copied again would hold 1.5 GiB outside the heap cap.
        ("repeatedReferencesWithHostObject", "referenced twice"),
    ] {
        let outcome = call(&mut sb, REACH, export, Value::Null);
        match &outcome.result {
            CallResult::Ok(Value::String(text)) => assert!(text.contains(refusal), "{text}"),
            other => panic!("{export}: {other:?}"),
        }
    }
    assert_healthy(&mut sb);
}
