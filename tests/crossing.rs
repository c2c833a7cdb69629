//! Arguments reach hooks exactly as `JSON.parse` would build them, a heap cap
//! holds while they are built, and large members cross into the engine only
//! when a hook reads them.

use crate::common;

use common::sandbox::{assert_healthy, call, sandbox, sandbox_with};
use hookrun::run::{NoResults, RunReport, run};
use hookrun::sandbox::{CallResult, Limits};
use serde_json::{Map, Value, json};

/// Values at the corners of the engine's own object format: array-index
/// keys and keys that only look like them, keys the engine knows already,
/// `__proto__`, every string width, integers at the 32-bit edges, doubles,
/// negative zero, strings of each length modulo four, deep nesting.
fn corner_values() -> Vec<Value> {
    let mut deep = json!("bottom");
    for _ in 0..100 {
        deep = json!([deep]);
    }
    let mut values = vec![
        json!({"b": 1, "1": 2, "a": 3, "0": 4, "01": 5, "2147483647": 6, "2147483648": 7,
               "4294967294": 8, "4294967295": 9, "-1": 10, "1.5": 11, " 1": 12}),
        json!({"__proto__": {"polluted": true}, "constructor": 1, "length": 2, "toString": "x",
               "prototype": null}),
        json!({"é": 1, "😀": 2, "": 3, "日本": [4], "a\u{0}b": 5}),
        json!([
            0,
            -0.0,
            1.0,
            0.1,
            2147483647,
            2147483648i64,
            -2147483648i64,
            -2147483649i64,
            9007199254740993u64,
            u64::MAX,
            i64::MIN,
            1e300,
            5e-324,
            -1.5e-10
        ]),
        json!([
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "é",
            "ÿ",
            "Ā",
            "日本語",
            "😀",
            "a\u{0}b",
            "\u{ffff}",
            "é😀",
            "ÿĀ",
            "\"quoted\" \\ back"
        ]),
        json!([{}, [], null, true, false, {"": {}}]),
        deep,
    ];
    values.extend(["", "x", "é", "😀"].map(|s| json!(s)));
    values.extend([json!(null), json!(7), json!(-7), json!(1e21)]);
    values
}

/// The next number of a xorshift sequence.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// `pieces` random pieces of text, each of one to four UTF-8 bytes.
fn text(state: &mut u64, pieces: u64) -> String {
    const PIECES: [&str; 10] = ["a", "key", "é", "ÿ", "Ā", "😀", "0", "12", "\u{0}", "\""];
    (0..pieces)
        .map(|_| PIECES[(next(state) % 10) as usize])
        .collect()
}

/// A deterministic random JSON value, biased to the corners above.
fn random_value(state: &mut u64, depth: u32) -> Value {
    match next(state) % if depth > 4 { 5 } else { 7 } {
        0 => Value::Null,
        1 => json!(next(state).is_multiple_of(2)),
        2 => json!((next(state) as i64) >> (next(state) % 64)),
        3 => json!(f64::from_bits(next(state)).clamp(-1e308, 1e308)),
        4 => {
            let pieces = next(state) % 9;
            json!(text(state, pieces))
        }
        5 => Value::Array(
            (0..next(state) % 6)
                .map(|_| random_value(state, depth + 1))
                .collect(),
        ),
        _ => {
            let mut map = Map::new();
            for _ in 0..next(state) % 6 {
                let pieces = next(state) % 4;
                map.insert(text(state, pieces), random_value(state, depth + 1));
            }
            Value::Object(map)
        }
    }
}

/// The corner values and 300 random ones from `seed`.
fn test_values(seed: u64) -> Vec<Value> {
    let mut state = seed;
    let mut values = corner_values();
    values.extend((0..300).map(|_| random_value(&mut state, 0)));
    values
}

#[test]
fn arguments_reach_hooks_as_json_parse_builds_them() {
    let mut sb = sandbox();
    for value in test_values(0x9e37_79b9_7f4a_7c15) {
        let text = serde_json::to_string(&value).unwrap();
        let arg = json!({"value": value, "text": text});
        let outcome = call(&mut sb, "crossing.mjs", "sameAsJsonParse", arg);
        assert_eq!(outcome.result, CallResult::Ok(json!([])), "{text}");
    }
}

#[test]
fn results_cross_back_as_the_engine_writes_them() {
    let mut sb = sandbox();
    fn nesting(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
            Value::Object(members) => 1 + members.values().map(nesting).max().unwrap_or(0),
            _ => 0,
        }
    }
    // A result may nest 100 levels; the echo adds one.
    let values = test_values(0x2545_f491_4f6c_dd1d);
    for value in values.into_iter().filter(|v| nesting(v) < 100) {
        // ASCII and wider text alike: the result read back equals the text
        // the engine wrote of the same value.
        let (read_back, written) = echo_with_text(&mut sb, &value);
        assert_eq!(read_back, written, "{value}");
    }
}

/// `value` as a hook returns it, and as the engine writes it with
/// `JSON.stringify`, parsed.
fn echo_with_text(sb: &mut hookrun::sandbox::Sandbox, value: &Value) -> (Value, Value) {
    let outcome = call(
        sb,
        "crossing.mjs",
        "echoWithText",
        json!({ "value": value }),
    );
    let CallResult::Ok(mut result) = outcome.result else {
        panic!("{value}: {:?}", outcome.result)
    };
    let written = serde_json::from_str(result["text"].as_str().unwrap()).unwrap();
    (result["value"].take(), written)
}

#[test]
fn keys_cross_as_themselves_whether_the_runtime_holds_them_or_not() {
    let mut sb = sandbox();
    // Names of the engine's own (`length`, `prototype`), one-byte beyond
    // ASCII, two-byte, empty, and new ones; each call after the first finds
    // them all held by the runtime.
    for round in 0..3 {
        let value = json!({"length": 1, "prototype": [2], "café": {"length": "x", "café": 3},
            "键": 4, "": 5, format!("fresh{round}"): 6, "nested": {"键": {"": null}}});
        let (read_back, written) = echo_with_text(&mut sb, &value);
        assert_eq!(read_back, value);
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&written), keys(&value), "order as written");
    }
}

#[test]
fn objects_of_one_layout_stay_apart_when_one_changes() {
    let mut sb = sandbox();
    // Objects of one layout share how the engine lays them out; three widths
    // (the reader takes objects of up to 32 keys whole), and each call again,
    // against the layouts the runtime holds from the call before.
    for width in [3, 32, 33] {
        let row: Map<String, Value> = (0..width).map(|i| (format!("k{i}"), json!(i))).collect();
        for _ in 0..2 {
            let rows = vec![Value::Object(row.clone()); 8];
            let outcome = call(
                &mut sb,
                "crossing.mjs",
                "sameLayoutsStayApart",
                json!({ "rows": rows }),
            );
            assert_eq!(outcome.result, CallResult::Ok(json!([])), "{width} keys");
        }
    }
}

#[test]
fn an_argument_larger_than_the_heap_cap_ends_the_call_at_the_cap() {
    let cap = 16 * 1024 * 1024;
    let mut sb = sandbox_with(Limits::default().timeout_ms(5_000).max_heap_bytes(cap));
    let items: Vec<String> = (0..40_000).map(|i| format!("{i:0>1000}")).collect();
    let outcome = call(&mut sb, "happy.mjs", "nothing", json!({ "items": items }));
    assert_eq!(outcome.result, CallResult::MemoryLimit { limit_bytes: cap });
    assert_healthy(&mut sb);
}

/// A workflow whose one unit holds every selected parent, with `preflight`.
fn run_all_in_one_unit(preflight: &str, apply: &str, parents: usize) -> RunReport {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("hooks")).unwrap();
    std::fs::write(dir.path().join("hooks/preflight.mjs"), preflight).unwrap();
    std::fs::write(dir.path().join("hooks/applyResult.mjs"), apply).unwrap();
    let manifest = json!({
        "schemaVersion": 2, "id": "crossing", "label": "Crossing", "provider": "pass-through",
        "trigger": {"requiresSelection": true},
        "inputs": {"member": {"kind": "parent"}, "grouping": {"mode": "all"}},
        "validateSelection": {"select": {"policy": "input-member", "source": "selected"}, "filters": []},
        "hooks": {"preflight": "hooks/preflight.mjs", "applyResult": "hooks/applyResult.mjs"}
    });
    std::fs::write(dir.path().join("workflow.json"), manifest.to_string()).unwrap();
    let found = hookrun::manifest::discover(&dir.path().join("workflow.json"));
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    let titles: Vec<String> = (0..parents).map(|i| format!("paper {i}")).collect();
    let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
    run(
        &found.workflows[0],
        common::probe_input(&titles),
        &mut NoResults,
        &common::run_options(),
    )
}

const APPLY: &str = "export function applyResult() { return 'applied'; }";

fn preflight_usage(report: &RunReport) -> Value {
    let record = report.hooks.iter().find(|h| h.hook == "preflight").unwrap();
    assert_eq!(
        record.outcome,
        hookrun::sandbox::OutcomeKind::Ok,
        "{:?}",
        report.errors
    );
    serde_json::to_value(record.usage).unwrap()
}

#[test]
fn a_hook_that_never_reads_a_10000_item_selection_never_receives_it() {
    let report = run_all_in_one_unit(
        "export function preflight() { return { kind: 'continue' }; }",
        APPLY,
        10_000,
    );
    assert!(report.ok(), "{:?}", report.errors);
    let usage = preflight_usage(&report);
    assert!(usage["argBytes"].as_u64().unwrap() < 4096, "{usage}");
    assert_eq!(usage["opCalls"], 0);
}

#[test]
fn a_hook_reading_it_gets_the_whole_selection_frozen_on_first_read() {
    let preflight = "export function preflight(arg) {\n\
        const keys = Object.keys(arg).join(',');\n\
        const { items } = arg.selectionContext;\n\
        const same = arg.selectionContext.items === items;\n\
        const frozen = Object.isFrozen(items) && Object.isFrozen(items[9999]);\n\
        return { kind: 'skip', reason: `${items.length} ${items[9999].title} ${same} ${frozen} ${keys}` };\n\
    }";
    let report = run_all_in_one_unit(preflight, APPLY, 10_000);
    assert_eq!(
        report.units[0].skip_reason.as_deref(),
        Some("10000 paper 9999 true true selectionContext,manifest,executionOptions,runtime"),
        "{:?}",
        report.errors
    );
    let usage = preflight_usage(&report);
    assert!(usage["argBytes"].as_u64().unwrap() < 4096, "{usage}");
    assert_eq!(usage["opCalls"], 1, "read once, then a plain property");
}

#[test]
fn small_selections_cross_with_the_argument() {
    let report = run_all_in_one_unit(
        "export function preflight({ selectionContext }) { return { kind: 'skip', reason: String(selectionContext.items.length) }; }",
        APPLY,
        3,
    );
    assert_eq!(report.units[0].skip_reason.as_deref(), Some("3"));
    assert_eq!(preflight_usage(&report)["opCalls"], 0);
}

#[test]
fn a_deferred_member_kept_past_its_call_names_itself_when_read_later() {
    let preflight = "export let kept;\n\
        export function preflight(arg) { kept = arg; return { kind: 'continue' }; }";
    let apply = "import { kept } from './preflight.mjs';\n\
        export function applyResult() { return kept.selectionContext; }";
    let report = run_all_in_one_unit(preflight, apply, 5_000);
    let error = &report.units[0].errors[0];
    assert_eq!(
        error.message,
        "selectionContext was handed to an earlier hook call and is no longer available: read it during the call that received it",
        "{error:?}"
    );
}

#[test]
fn a_hook_may_freeze_its_argument_or_pollute_prototypes_and_still_read_it() {
    let preflight = "export function preflight(arg) {\n\
        Object.prototype.get = function () { return 'polluted'; };\n\
        Object.prototype.value = 'polluted';\n\
        Object.freeze(arg);\n\
        const first = arg.selectionContext.items.length;\n\
        const again = arg.selectionContext.items.length;\n\
        return { kind: 'continue', context: { counts: `${first} ${again}` } };\n\
    }";
    let apply = "export function applyResult({ resultContext }) { return resultContext.preflight.context.counts; }";
    let report = run_all_in_one_unit(preflight, apply, 5_000);
    assert!(report.ok(), "{:?}", report.errors);
    let applied = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap();
    assert_eq!(applied["value"], "5000 5000", "{applied}");
}
