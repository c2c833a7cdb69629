//! Units on several threads (`RunOptions::jobs`, `hookrun run --jobs`): the
//! report is the serial run's report, in unit order.

use crate::common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use assert_cmd::Command;
use hookrun::run::{Case, Phase, Progress, ProgressHook, RunOptions, RunReport, run};
use hookrun::sandbox::Determinism;
use serde_json::{Value, json};

fn options(jobs: usize) -> RunOptions {
    common::run_options()
        .sandbox(common::sandbox_options().determinism(Some(Determinism::default())))
        .jobs(jobs)
}

fn run_case(workflow: &Path, case: &Path, jobs: usize) -> RunReport {
    let found = hookrun::manifest::discover(workflow);
    let workflow = &found.workflows[0];
    let case = Case::load(case).unwrap();
    let options = options(jobs).mode(case.mode().unwrap());
    run(
        workflow,
        case.input(None).unwrap(),
        &mut case.result_source(),
        &options,
    )
}

/// The report's JSON with the keys of created items renamed in order of first
/// appearance: workers number created items from their own range, and a
/// report is equivalent when it uses its keys the same way.
fn canonical(report: &RunReport) -> String {
    canonical_keys(&without_key_digests(report.to_json(true)).to_string())
}

/// `value` with the `effectDigest` and `receiptId` of every receipt whose changes
/// name a created item set aside: as the reference host's, a receipt's digest
/// covers its changes, so it differs wherever the created keys do.
fn without_key_digests(mut value: Value) -> Value {
    match &mut value {
        Value::Object(members) => {
            let receipt = members.get("schema").and_then(Value::as_str)
                == Some("zotero-agents.mutation-receipt.v1");
            if receipt
                && members
                    .get("changes")
                    .is_some_and(|c| c.to_string().contains("\"NEW"))
            {
                for key in ["effectDigest", "receiptId"] {
                    members.insert(key.into(), "(derived from created keys)".into());
                }
            }
            for member in members.values_mut() {
                *member = without_key_digests(member.take());
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_key_digests(item.take());
            }
        }
        _ => {}
    }
    value
}

fn canonical_keys(text: &str) -> String {
    let mut seen: Vec<String> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\"NEW") {
        let digits = rest[at + 4..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(0);
        let key = &rest[at + 1..at + 4 + digits];
        let index = match seen.iter().position(|k| k == key) {
            Some(i) => i,
            None => {
                seen.push(key.to_string());
                seen.len() - 1
            }
        };
        out.push_str(&rest[..at]);
        out.push_str(&format!("\"CREATED-{index}"));
        rest = &rest[at + 4 + digits..];
    }
    out.push_str(rest);
    out
}

#[test]
fn every_fixture_case_reports_the_same_on_several_threads() {
    let cases = common::fixture_cases();
    assert!(cases.len() >= 10, "{cases:?}");
    for (workflow, case) in cases {
        let serial = canonical(&run_case(&workflow, &case, 1));
        for jobs in [2, 3, 8] {
            assert_eq!(
                canonical(&run_case(&workflow, &case, jobs)),
                serial,
                "{} with {jobs} jobs",
                case.display()
            );
        }
    }
}

const COUNTING_APPLY: &str = "let calls = 0;\n\
export async function applyResult({ parent, resultContext, runtime }) {\n\
  calls += 1;\n\
  const title = resultContext.resultJson.selectionContext.items[0].title;\n\
  const written = await runtime.hostApi.notes.create({\n\
    operationId: `note:${title}`,\n\
    placement: { kind: \"child\", parentRef: { libraryId: parent.libraryId, key: title === \"same\" ? \"P0000000\" : parent.key } },\n\
    content: { format: \"html\", value: `<p>${title}</p>` },\n\
  });\n\
  console.log(`${parent.key} ${calls}`);\n\
  return { calls, note: written.result.note.ref.key };\n\
}";

fn counting_run(dir: &Path, titles: &[&str], jobs: usize) -> RunReport {
    let workflow = common::probe_workflow(dir, &[("applyResult", COUNTING_APPLY)]);
    run(
        &workflow,
        common::probe_input(titles),
        &mut hookrun::run::NoResults,
        &options(jobs),
    )
}

fn applied(report: &RunReport) -> Vec<Value> {
    report
        .units
        .iter()
        .map(|u| serde_json::to_value(&u.jobs[0].apply).unwrap()["value"].clone())
        .collect()
}

#[test]
fn each_worker_keeps_its_own_module_state_and_units_stay_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let titles = ["a", "b", "c", "d", "e"];
    let serial = counting_run(dir.path(), &titles, 1);
    let parallel = counting_run(dir.path(), &titles, 2);
    let calls =
        |r: &RunReport| -> Vec<Value> { applied(r).iter().map(|v| v["calls"].clone()).collect() };
    assert_eq!(
        calls(&serial),
        [json!(1), json!(2), json!(3), json!(4), json!(5)]
    );
    // Parts of 3 and 2 units, one runtime each.
    assert_eq!(
        calls(&parallel),
        [json!(1), json!(2), json!(3), json!(1), json!(2)]
    );
    let units =
        |r: &RunReport| -> Vec<String> { r.units.iter().map(|u| u.unit_id.clone()).collect() };
    assert_eq!(units(&parallel), units(&serial));
    assert_eq!(
        common::hook_logs(&parallel),
        [
            "P0000000 1",
            "P0000001 2",
            "P0000002 3",
            "P0000003 1",
            "P0000004 2"
        ]
    );
}

#[test]
fn merged_effects_are_numbered_in_unit_order_and_replays_stay_on_one_worker() {
    let dir = tempfile::tempdir().unwrap();
    // Units 0 and 3 make the same write (operationId, parent, content); they land in
    // different workers' parts.
    let titles = ["same", "b", "c", "same", "e", "f"];
    let serial = counting_run(dir.path(), &titles, 1);
    let parallel = counting_run(dir.path(), &titles, 2);
    let units =
        |r: &RunReport| -> Vec<String> { r.effects.iter().map(|e| e.unit_id.clone()).collect() };
    // Serially the second write replays the first and is not recorded; in its
    // own worker's part it is answered and recorded, so the key it was given exists.
    let mut expected = units(&serial);
    expected.insert(3, parallel.units[3].unit_id.clone());
    assert_eq!(units(&serial).len(), 5);
    assert_eq!(units(&parallel), expected);
    assert_eq!(
        common::effect_units(&parallel)
            .iter()
            .map(|e| e.0)
            .collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    let keys: Vec<Value> = applied(&parallel)
        .iter()
        .map(|v| v["note"].clone())
        .collect();
    let mut distinct = keys.clone();
    distinct.sort_by_key(Value::to_string);
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        6,
        "created keys must not collide across workers: {keys:?}"
    );
    for key in keys {
        let created = parallel
            .effects
            .iter()
            .any(|e| e.result.pointer("/result/note/ref/key") == Some(&key));
        assert!(
            created,
            "{key} was handed to a hook but never recorded as created"
        );
    }
}

/// Runs `units` units on `jobs` workers and checks that progress counted each
/// unit of each phase once, in order.
fn assert_progress_counts(jobs: usize, units: usize) {
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), &[("applyResult", COUNTING_APPLY)]);
    let options = options(jobs).progress(Some(ProgressHook(Arc::new(move |p| {
        sink.lock().unwrap().push(p)
    }))));
    let titles: Vec<String> = (0..units).map(|i| format!("t{i}")).collect();
    let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
    let report = run(
        &workflow,
        common::probe_input(&titles),
        &mut hookrun::run::NoResults,
        &options,
    );
    assert!(report.ok(), "{:?}", report.errors);
    let seen = seen.lock().unwrap();
    for phase in [
        Phase::Preflight,
        Phase::Requests,
        Phase::Results,
        Phase::Apply,
    ] {
        let done: Vec<usize> = seen
            .iter()
            .filter(|p| p.phase == phase)
            .map(|p| p.done)
            .collect();
        assert_eq!(done, (1..=units).collect::<Vec<_>>(), "{phase:?}");
        assert!(seen.iter().all(|p| p.total == units));
    }
}

#[test]
fn progress_counts_every_unit_of_every_phase_across_workers() {
    assert_progress_counts(3, 7);
}

#[test]
fn progress_passed_on_in_batches_still_counts_every_unit() {
    // Workers pass progress on in batches; more units than a batch per worker.
    assert_progress_counts(2, 45);
}

#[test]
fn limits_no_runtime_can_start_with_fail_the_run_before_any_unit() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), &[("applyResult", COUNTING_APPLY)]);
    let options = common::unstartable_run_options(2);
    let report = run(
        &workflow,
        common::probe_input(&["a", "b"]),
        &mut hookrun::run::NoResults,
        &options,
    );
    assert!(!report.ok());
    assert!(report.units.is_empty());
    assert_eq!(report.errors[0].name, "SandboxError", "{:?}", report.errors);
    assert!(
        report.errors[0].message.contains("at least 8 MiB"),
        "{:?}",
        report.errors
    );
}

#[test]
fn the_cli_reports_the_same_with_jobs() {
    let report = |extra: &[&str]| -> String {
        let out = Command::cargo_bin("hookrun")
            .unwrap()
            .current_dir(common::fixture(""))
            .args([
                "run",
                "workflows/export-summary",
                "--fixture",
                "workflows/export-summary/cases/grouped-two-papers.json",
                "--deterministic",
                "--json",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        canonical_keys(&without_key_digests(printed).to_string())
    };
    assert_eq!(report(&["--jobs", "2"]), report(&[]));
    Command::cargo_bin("hookrun")
        .unwrap()
        .current_dir(common::fixture(""))
        .args(["run", "workflows/export-summary", "--jobs", "0"])
        .assert()
        .code(2);
}

/// A result source that answers every request and remembers which it was asked
/// for, in order.
#[derive(Default)]
struct Asked(Vec<(usize, String)>);

impl hookrun::run::ResultSource for Asked {
    fn result(&mut self, job: &hookrun::run::JobRequest) -> hookrun::run::ProviderResult {
        self.0.push((job.index, job.unit_id.clone()));
        hookrun::run::ProviderResult::Succeeded {
            request_id: Some(format!("asked-{}", job.index)),
            result_json: Some(json!({"answered": job.index})),
            bundle: None,
            extra: Default::default(),
        }
    }
}

#[test]
fn results_are_fetched_in_unit_order_while_workers_apply() {
    // A provider the caller answers: each part's results are fetched as soon
    // as it and the parts before it are built, and its worker applies them
    // while the next part's are fetched.
    let dir = tempfile::tempdir().unwrap();
    let apply = "export function applyResult({ runResult }) { return runResult.resultJson; }";
    let build = "export function buildRequest({ selectionContext }) {
        return { kind: \"probe\", title: selectionContext.items[0].title };
    }";
    let workflow = &common::probe_workflow_of(
        "skillrunner",
        dir.path(),
        &[("buildRequest", build), ("applyResult", apply)],
    );
    let titles: Vec<String> = (0..11).map(|i| format!("t{i}")).collect();
    let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
    let asked = |jobs: usize, window: usize| {
        let mut source = Asked::default();
        let options = options(jobs).window(window);
        let report = run(
            workflow,
            common::probe_input(&titles),
            &mut source,
            &options,
        );
        assert!(report.ok(), "{:?}", report.errors);
        let answered: Vec<Value> = applied(&report)
            .iter()
            .map(|v| v["answered"].clone())
            .collect();
        assert_eq!(answered, (0..11).map(Value::from).collect::<Vec<_>>());
        (source.0, canonical(&report))
    };
    let expected: Vec<(usize, String)> = (0..11).map(|i| (i, format!("unit-{}", i + 1))).collect();
    for (jobs, window) in [(2, 4), (3, 4), (2, 1), (3, 0)] {
        let (serial, serial_report) = asked(1, window);
        assert_eq!(serial, expected, "window {window}");
        let (threaded, report) = asked(jobs, window);
        assert_eq!(threaded, expected, "{jobs} jobs, window {window}");
        // Hook records are listed window by window, as a serial run lists them.
        assert!(
            report == serial_report,
            "{jobs} jobs, window {window}: the reports differ"
        );
    }
}
