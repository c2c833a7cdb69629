//! A run's report handed over as it is made (`run_observed`, `RunObserver`,
//! `JsonReportWriter`, `hookrun run --json`): the same report, unit by unit.

use crate::common;

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use hookrun::hooks::HookRecord;
use hookrun::host::effects::Effect;
use hookrun::plan::Plan;
use hookrun::run::{
    Case, EncodedUnit, JsonReportWriter, NoResults, RunError, RunObserver, RunOptions, RunReport,
    SettingsReport, Summary, UnitEncoder, UnitReport, run, run_observed,
};
use hookrun::sandbox::Determinism;

fn options(jobs: usize, window: usize) -> RunOptions {
    common::run_options()
        .sandbox(common::sandbox_options().determinism(Some(Determinism::default())))
        .jobs(jobs)
        .window(window)
}

/// The case's report, collected and written at the end, and written as it
/// went.
fn both_ways(workflow: &Path, case: &Path, options: &RunOptions) -> (Vec<u8>, Vec<u8>) {
    let found = hookrun::manifest::discover(workflow);
    let workflow = &found.workflows[0];
    let case = Case::load(case).unwrap();
    let options = options.clone().mode(case.mode().unwrap());
    let report = run(
        workflow,
        case.input(None).unwrap(),
        &mut case.result_source(),
        &options,
    );
    let mut collected = Vec::new();
    report.write_json(&mut collected, true).unwrap();
    let mut writer = JsonReportWriter::new(Vec::new(), &workflow.id, true);
    let summary = run_observed(
        workflow,
        case.input(None).unwrap(),
        &mut case.result_source(),
        &options,
        &mut writer,
    );
    assert_eq!(summary, report.summary);
    assert_eq!(writer.errors(), report.errors.len());
    (collected, writer.into_inner().unwrap())
}

#[test]
fn the_written_report_has_the_collected_reports_bytes_for_every_fixture_case() {
    let cases = common::fixture_cases();
    assert!(cases.len() >= 10, "{cases:?}");
    for (workflow, case) in cases {
        for (jobs, window) in [(1, 0), (1, 1), (2, 0), (3, 2)] {
            let (collected, written) = both_ways(&workflow, &case, &options(jobs, window));
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(collected).unwrap(),
                "{} with {jobs} job(s), window {window}",
                case.display()
            );
        }
    }
}

/// A report written with references resolves to the report written without
/// them, and refers to what repeats, whichever thread ran the unit it
/// repeats.
#[test]
fn every_fixture_cases_report_with_refs_resolves_to_its_report() {
    let mut referred = 0;
    for (path, case) in common::fixture_cases() {
        let found = hookrun::manifest::discover(&path);
        let workflow = &found.workflows[0];
        let loaded = Case::load(&case).unwrap();
        let mut counts = Vec::new();
        for jobs in [1, 2] {
            let (collected, _) = both_ways(&path, &case, &options(jobs, 2));
            let options = (options(jobs, 2)).mode(loaded.mode().unwrap());
            let mut writer = JsonReportWriter::new(Vec::new(), &workflow.id, true).with_refs();
            run_observed(
                workflow,
                loaded.input(None).unwrap(),
                &mut loaded.result_source(),
                &options,
                &mut writer,
            );
            let written = writer.into_inner().unwrap();
            assert!(written.len() <= collected.len(), "{}", case.display());
            counts.push(
                String::from_utf8_lossy(&written)
                    .matches("{\"$ref\":")
                    .count(),
            );
            let written: serde_json::Value = serde_json::from_slice(&written).unwrap();
            let collected: serde_json::Value = serde_json::from_slice(&collected).unwrap();
            let resolved = hookrun::run::refs::resolve_refs(&written).unwrap();
            assert!(
                resolved == collected,
                "{} with {jobs} job(s)",
                case.display()
            );
        }
        assert_eq!(counts[0], counts[1], "{}", case.display());
        referred += counts[0];
    }
    assert!(referred > 10, "{referred} references in all the cases");
}

const COUNTING: &[(&str, &str)] = &[
    (
        "preflight",
        "export function preflight({ selectionContext }) {\n\
           console.log(`preflight ${selectionContext.items[0].title}`);\n\
           return { kind: \"continue\" };\n\
         }",
    ),
    (
        "applyResult",
        "let calls = 0;\n\
         export async function applyResult({ resultContext, runtime }) {\n\
           calls += 1;\n\
           const title = resultContext.resultJson.selectionContext.items[0].title;\n\
           console.log(`apply ${title}`);\n\
           await runtime.hostApi.notes.create({\n\
             operationId: `note:${title}`,\n\
             placement: { kind: \"child\", parentRef: resultContext.resultJson.selectionContext.items[0].ref },\n\
             content: { format: \"html\", value: `<p>${title}</p>` },\n\
           });\n\
           return { calls };\n\
         }",
    ),
];

/// What an observer saw, in the order it saw it.
#[derive(Debug, PartialEq)]
enum Seen {
    Settings,
    Plan(usize),
    Unit(String),
    Effect(u64, String),
    Hook(String),
    Error(String),
    Finish(Summary),
}

/// Notes what it sees; with an encoder, also which units came encoded.
#[derive(Default)]
struct Recorder {
    seen: Vec<Seen>,
    encoder: Option<Arc<Refusing>>,
    encoded: Vec<String>,
}

impl RunObserver for Recorder {
    fn settings(&mut self, _: &SettingsReport) {
        self.seen.push(Seen::Settings);
    }
    fn plan(&mut self, plan: &Plan) {
        self.seen.push(Seen::Plan(plan.units.len()));
    }
    fn unit(&mut self, unit: UnitReport) {
        self.seen.push(Seen::Unit(unit.unit_id));
    }
    fn effect(&mut self, effect: Effect) {
        self.seen.push(Seen::Effect(effect.seq, effect.unit_id));
    }
    fn hook(&mut self, record: HookRecord) {
        let logs: Vec<String> = record.logs.into_iter().map(|l| l.message).collect();
        self.seen.push(Seen::Hook(logs.join("|")));
    }
    fn error(&mut self, error: RunError) {
        self.seen.push(Seen::Error(error.name));
    }
    fn finish(&mut self, summary: Summary) {
        self.seen.push(Seen::Finish(summary));
    }
    fn encoder(&self) -> Option<Arc<dyn UnitEncoder>> {
        self.encoder
            .clone()
            .map(|encoder| encoder as Arc<dyn UnitEncoder>)
    }
    fn encoded(&mut self, unit: EncodedUnit) {
        let report: serde_json::Value = serde_json::from_slice(&unit.bytes).unwrap();
        assert_eq!(report["unitId"], unit.unit_id);
        assert_eq!(report["status"], serde_json::to_value(unit.status).unwrap());
        assert_eq!(report["jobs"].as_array().unwrap().len(), unit.requests);
        self.encoded.push(unit.unit_id.clone());
        self.seen.push(Seen::Unit(unit.unit_id));
    }
}

fn observed(titles: &[&str], jobs: usize, window: usize) -> Vec<Seen> {
    observed_with(COUNTING, titles, jobs, window)
}

fn observed_with(hooks: &[(&str, &str)], titles: &[&str], jobs: usize, window: usize) -> Vec<Seen> {
    recorded(hooks, titles, jobs, window, Recorder::default()).seen
}

/// `recorder` after a run of a workflow of `hooks` over `titles`.
fn recorded(
    hooks: &[(&str, &str)],
    titles: &[&str],
    jobs: usize,
    window: usize,
    mut recorder: Recorder,
) -> Recorder {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), hooks);
    run_observed(
        &workflow,
        common::probe_input(titles),
        &mut NoResults,
        &options(jobs, window),
        &mut recorder,
    );
    recorder
}

fn hook(message: &str) -> Seen {
    Seen::Hook(message.to_string())
}

fn unit(n: u32) -> Seen {
    Seen::Unit(format!("unit-{n}"))
}

fn effect(seq: u64, n: u32) -> Seen {
    Seen::Effect(seq, format!("unit-{n}"))
}

/// The summary of a run whose units all succeeded.
fn succeeded(units: usize, requests: usize, effects: usize) -> Summary {
    Summary {
        units,
        succeeded: units,
        skipped: 0,
        failed: 0,
        requests,
        effects,
    }
}

#[test]
fn each_unit_is_handed_over_after_its_apply_and_each_window_before_the_next() {
    use Seen::*;
    let seen = observed(&["a", "b", "c"], 1, 2);
    let summary = succeeded(3, 3, 3);
    assert_eq!(
        seen,
        [
            Settings,
            Plan(3),
            hook("preflight a"),
            hook("preflight b"),
            hook("apply a"),
            effect(1, 1),
            unit(1),
            hook("apply b"),
            effect(2, 2),
            unit(2),
            hook("preflight c"),
            hook("apply c"),
            effect(3, 3),
            unit(3),
            Finish(summary),
        ]
    );
}

/// `b` expands into two jobs applied together by an aggregate; the others
/// apply one job each and create a note.
const AGGREGATING: &[(&str, &str)] = &[
    (
        "preflight",
        "export function preflight({ selectionContext }) {\n\
           const title = selectionContext.items[0].title;\n\
           console.log(`preflight ${title}`);\n\
           if (title !== \"b\") return { kind: \"continue\" };\n\
           return { kind: \"expand\", units: [{ id: \"b1\" }, { id: \"b2\" }],\n\
             aggregate: { id: \"agg-b\", mode: \"single-apply\", applyWhen: \"all-succeeded\",\n\
                          orderBy: \"unit.order\" } };\n\
         }",
    ),
    (
        "applyResult",
        "export async function applyResult({ resultContext, runtime }) {\n\
           if (resultContext.aggregate) {\n\
             console.log(`aggregate ${resultContext.aggregate.id}`);\n\
             return null;\n\
           }\n\
           const item = resultContext.resultJson.selectionContext.items[0];\n\
           console.log(`apply ${item.title}`);\n\
           await runtime.hostApi.notes.create({\n\
             operationId: `note:${item.title}`, placement: { kind: \"child\", parentRef: item.ref },\n\
             content: { format: \"html\", value: `<p>${item.title}</p>` },\n\
           });\n\
           return null;\n\
         }",
    ),
];

#[test]
fn units_after_one_that_waits_for_its_aggregate_are_handed_over_after_the_aggregates() {
    use Seen::*;
    let titles = ["a", "b", "c", "d"];
    let seen = observed_with(AGGREGATING, &titles, 1, 0);
    let summary = succeeded(4, 5, 3);
    assert_eq!(
        seen,
        [
            Settings,
            Plan(4),
            hook("preflight a"),
            hook("preflight b"),
            hook("preflight c"),
            hook("preflight d"),
            hook("apply a"),
            effect(1, 1),
            unit(1),
            hook("apply c"),
            hook("apply d"),
            effect(2, 3),
            effect(3, 4),
            hook("aggregate agg-b"),
            unit(2),
            unit(3),
            unit(4),
            Finish(summary),
        ]
    );
    // Worker threads whose parts split the held units from the others, or
    // put the aggregate's unit last in a part, hand over the same.
    for (jobs, window) in [(2, 0), (2, 4), (3, 0), (4, 0), (2, 3)] {
        assert_eq!(
            observed_with(AGGREGATING, &titles, jobs, window),
            observed_with(AGGREGATING, &titles, 1, window),
            "{jobs} jobs, window {window}"
        );
    }
}

#[test]
fn worker_threads_hand_windows_over_as_a_serial_run_does() {
    // The workers build a window while the one before is handed over; what
    // they record still comes after it.
    let titles = ["a", "b", "c", "d", "e"];
    for (jobs, window) in [(2, 2), (2, 1), (3, 2)] {
        assert_eq!(
            observed(&titles, jobs, window),
            observed(&titles, 1, window),
            "{jobs} jobs, window {window}"
        );
    }
}

#[test]
fn windows_change_when_hooks_run_not_what_the_units_report() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), COUNTING);
    let titles = ["a", "b", "c", "d", "e"];
    let report = |window: usize| -> RunReport {
        run(
            &workflow,
            common::probe_input(&titles),
            &mut NoResults,
            &options(1, window),
        )
    };
    let whole = report(0);
    let windowed = report(2);
    assert!(whole.ok() && windowed.ok(), "{:?}", windowed.errors);
    // Module state lives on across windows: the counter runs 1 to 5.
    let calls: Vec<serde_json::Value> = windowed
        .units
        .iter()
        .map(|u| serde_json::to_value(&u.jobs[0].apply).unwrap()["value"]["calls"].clone())
        .collect();
    assert_eq!(
        calls,
        (1..=5).map(serde_json::Value::from).collect::<Vec<_>>()
    );
    assert_eq!(windowed.units, whole.units);
    assert_eq!(windowed.summary, whole.summary);
    assert_eq!(
        common::effect_units(&windowed),
        common::effect_units(&whole)
    );
    assert_eq!(
        common::hook_logs(&whole),
        [
            "preflight a",
            "preflight b",
            "preflight c",
            "preflight d",
            "preflight e",
            "apply a",
            "apply b",
            "apply c",
            "apply d",
            "apply e"
        ]
    );
    assert_eq!(
        common::hook_logs(&windowed),
        [
            "preflight a",
            "preflight b",
            "apply a",
            "apply b",
            "preflight c",
            "preflight d",
            "apply c",
            "apply d",
            "preflight e",
            "apply e"
        ]
    );
}

#[test]
fn threaded_windows_hand_over_the_serial_runs_parts_in_the_same_order() {
    for window in [1, 2, 3] {
        assert_eq!(
            observed(&["a", "b", "c", "d", "e"], 2, window),
            observed(&["a", "b", "c", "d", "e"], 1, window),
            "window {window}"
        );
    }
}

/// Logs each apply; `b`'s apply throws.
const FAILING_B: &[(&str, &str)] = &[(
    "applyResult",
    "export async function applyResult({ resultContext }) {\n\
       const title = resultContext.resultJson.selectionContext.items[0].title;\n\
       console.log(`apply ${title}`);\n\
       if (title === \"b\") throw new TypeError(\"no b\");\n\
       return null;\n\
     }",
)];

/// Encodes units as JSON, counting its calls; refuses the unit `refused`.
struct Refusing {
    calls: AtomicUsize,
    refused: &'static str,
}

impl UnitEncoder for Refusing {
    fn encode(&self, unit: &UnitReport) -> io::Result<Vec<u8>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if unit.unit_id == self.refused {
            return Err(io::Error::other("refused"));
        }
        Ok(serde_json::to_vec(unit)?)
    }
}

/// What a [`Recorder`] with an encoder saw of a run of `FAILING_B` over `titles`,
/// which units came encoded, and how many the encoder was asked to encode.
fn encoded_run(
    titles: &[&str],
    jobs: usize,
    window: usize,
    refused: &'static str,
) -> (Vec<Seen>, Vec<String>, usize) {
    let encoder = Arc::new(Refusing {
        calls: AtomicUsize::new(0),
        refused,
    });
    let with_encoder = Recorder {
        encoder: Some(encoder.clone()),
        ..Recorder::default()
    };
    let observer = recorded(FAILING_B, titles, jobs, window, with_encoder);
    let calls = encoder.calls.load(Ordering::SeqCst);
    (observer.seen, observer.encoded, calls)
}

#[test]
fn workers_encode_their_own_units_and_the_observer_sees_a_serial_run() {
    let titles = ["a", "b", "c", "d", "e"];
    let serial = observed_with(FAILING_B, &titles, 1, 2);
    let Some(Seen::Finish(summary)) = serial.last() else {
        panic!("{serial:?}")
    };
    assert_eq!((summary.failed, summary.succeeded), (1, 4));
    assert!(
        serial.contains(&Seen::Error("TypeError".into())),
        "{serial:?}"
    );
    // Units run on the caller's thread are never encoded.
    let (seen, encoded, calls) = encoded_run(&titles, 1, 2, "");
    assert_eq!((seen, encoded, calls), (serial, vec![], 0));
    // Each window's last part is a worker's; the refused unit comes unencoded,
    // and a failed unit's errors follow it either way.
    let cases: [(usize, usize, &str, &[&str], usize); 4] = [
        (2, 2, "", &["unit-2", "unit-4"], 2),
        (2, 2, "unit-4", &["unit-2"], 2),
        (2, 0, "unit-4", &["unit-5"], 2),
        (3, 0, "", &["unit-3", "unit-4", "unit-5"], 3),
    ];
    for (jobs, window, refused, workers, asked) in cases {
        let (seen, encoded, calls) = encoded_run(&titles, jobs, window, refused);
        let what = format!("{jobs} jobs, window {window}, refusing {refused:?}");
        assert_eq!(seen, observed_with(FAILING_B, &titles, 1, window), "{what}");
        assert_eq!(encoded, workers, "{what}");
        assert_eq!(calls, asked, "{what}");
    }
}

#[test]
fn a_run_that_cannot_start_hands_over_its_error_and_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), COUNTING);
    let options = common::unstartable_run_options(1);
    let mut recorder = Recorder::default();
    let summary = run_observed(
        &workflow,
        common::probe_input(&["a"]),
        &mut NoResults,
        &options,
        &mut recorder,
    );
    assert_eq!(summary, Summary::default());
    assert_eq!(
        recorder.seen,
        [
            Seen::Error("SandboxError".into()),
            Seen::Finish(Summary::default())
        ]
    );
}

#[test]
fn the_cli_ends_a_run_whose_report_cannot_be_written_with_an_error() {
    // `/dev/full` refuses every write.
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookrun"))
        .current_dir(common::fixture(""))
        .args([
            "run",
            "workflows/export-summary",
            "--fixture",
            "workflows/export-summary/cases/grouped-two-papers.json",
            "--json",
        ])
        .stdout(full)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("No space left on device"), "{stderr}");
}

#[test]
fn snapshot_ids_count_the_runs_effects_across_phases_and_windows() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(
        dir.path(),
        &[
            (
                "preflight",
                "export async function preflight({ selectionContext, runtime }) {\n\
                   const item = selectionContext.items[0];\n\
                   await runtime.hostApi.notes.create({\n\
                     operationId: `note:${item.title}`, placement: { kind: \"child\", parentRef: item.ref },\n\
                     content: { format: \"html\", value: `<p>${item.title}</p>` },\n\
                   });\n\
                   return { kind: \"continue\" };\n\
                 }",
            ),
            (
                "applyResult",
                "export async function applyResult({ runtime }) {\n\
                   const done = await runtime.hostApi.library.withItemSnapshot(\n\
                     { libraryId: 1 }, {}, async () => {});\n\
                   return done.completionEvidence.snapshotId;\n\
                 }",
            ),
        ],
    );
    let snapshots = |window: usize| -> Vec<serde_json::Value> {
        let report = run(
            &workflow,
            common::probe_input(&["a", "b"]),
            &mut NoResults,
            &options(1, window),
        );
        assert!(report.ok(), "{:?}", report.errors);
        report
            .units
            .iter()
            .map(|u| serde_json::to_value(&u.jobs[0].apply).unwrap()["value"].clone())
            .collect()
    };
    // Both notes come first in one window; one each before its apply in windows of one.
    assert_eq!(snapshots(0), ["snapshot-3", "snapshot-3"]);
    assert_eq!(snapshots(1), ["snapshot-2", "snapshot-3"]);
}

/// Output shared with the test while a writer holds it.
#[derive(Clone, Default)]
struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Hands one run to a collector and a writer, and checks that each unit is
/// written as soon as the writer has it.
struct Tee {
    collector: hookrun::run::Collector,
    writer: JsonReportWriter<Shared>,
    out: Shared,
}

impl RunObserver for Tee {
    fn settings(&mut self, settings: &SettingsReport) {
        self.collector.settings(settings);
        self.writer.settings(settings);
    }
    fn plan(&mut self, plan: &Plan) {
        self.collector.plan(plan);
        self.writer.plan(plan);
    }
    fn unit(&mut self, unit: UnitReport) {
        let id = format!("\"unitId\":\"{}\"", unit.unit_id);
        self.collector.unit(unit.clone());
        self.writer.unit(unit);
        let written = String::from_utf8(self.out.0.borrow().clone()).unwrap();
        assert!(written.contains(&id), "{id} is not written yet");
        assert!(!written.contains("\"summary\""));
    }
    fn effect(&mut self, effect: Effect) {
        self.collector.effect(effect.clone());
        self.writer.effect(effect);
    }
    fn hook(&mut self, record: HookRecord) {
        self.collector.hook(record.clone());
        self.writer.hook(record);
    }
    fn error(&mut self, error: RunError) {
        self.collector.error(error.clone());
        self.writer.error(error);
    }
    fn finish(&mut self, summary: Summary) {
        self.collector.finish(summary);
        self.writer.finish(summary);
    }
}

/// One run written as it goes and collected, in both modes: the same bytes.
fn assert_written_as_collected(
    workflow: &hookrun::manifest::Workflow,
    input: impl Fn() -> hookrun::run::RunInput,
    options: &RunOptions,
) {
    for deterministic in [true, false] {
        let out = Shared::default();
        let mut tee = Tee {
            collector: hookrun::run::Collector::new(&workflow.id),
            writer: JsonReportWriter::new(out.clone(), &workflow.id, deterministic),
            out: out.clone(),
        };
        run_observed(workflow, input(), &mut NoResults, options, &mut tee);
        let Tee {
            collector, writer, ..
        } = tee;
        writer.into_inner().unwrap();
        let mut collected = Vec::new();
        collector
            .into_report()
            .write_json(&mut collected, deterministic)
            .unwrap();
        assert_eq!(
            String::from_utf8(out.0.borrow().clone()).unwrap(),
            String::from_utf8(collected).unwrap(),
            "deterministic: {deterministic}"
        );
    }
}

#[test]
fn units_are_written_as_they_are_done_with_the_collected_bytes_on_every_path() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), COUNTING);
    let titles = ["a", "b", "c", "d", "e"];
    let input = || common::probe_input(&titles);
    // Timings included, serial and threaded, windows of two.
    assert_written_as_collected(&workflow, input, &options(1, 2));
    assert_written_as_collected(&workflow, input, &options(2, 2));
    // No runtime can start: an error and nothing else.
    assert_written_as_collected(&workflow, input, &common::unstartable_run_options(1));
    // Nothing selected: a disabled plan and its error.
    assert_written_as_collected(&workflow, || common::probe_input(&[]), &options(1, 0));
    // Every apply fails: each unit with its error, in every window.
    let failing = common::probe_workflow(
        dir.path(),
        &[(
            "applyResult",
            "export function applyResult() { throw new Error(\"boom\"); }",
        )],
    );
    assert_written_as_collected(&failing, input, &options(1, 2));
}
