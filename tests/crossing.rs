//! Large argument members cross into the engine only when a hook reads them.

mod common;

use hookrun::run::{NoResults, RunOptions, RunReport, run};
use serde_json::{Value, json};

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
        &RunOptions::default(),
    )
}

const APPLY: &str = "export function applyResult() { return 'applied'; }";

fn preflight_usage(report: &RunReport) -> Value {
    let record = report.hooks.iter().find(|h| h.hook == "preflight").unwrap();
    assert_eq!(record.outcome, "ok", "{:?}", report.errors);
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
