//! A run's report handed over as it is made (`run_observed`, `RunObserver`,
//! `JsonReportWriter`, `hookrun run --json`): the same report, window by window.

mod common;

use std::path::Path;

use hookrun::hooks::HookRecord;
use hookrun::host::effects::Effect;
use hookrun::plan::Plan;
use hookrun::run::{
    Case, JsonReportWriter, NoResults, RunError, RunObserver, RunOptions, RunReport,
    SettingsReport, Summary, UnitReport, run, run_observed,
};
use hookrun::sandbox::{Determinism, SandboxOptions};

fn options(jobs: usize, window: usize) -> RunOptions {
    RunOptions {
        sandbox: SandboxOptions {
            determinism: Some(Determinism::default()),
            ..common::sandbox_options()
        },
        jobs,
        window,
        ..common::run_options()
    }
}

/// The case's report, collected and written at the end, and written as it
/// went.
fn both_ways(workflow: &Path, case: &Path, options: &RunOptions) -> (Vec<u8>, Vec<u8>) {
    let found = hookrun::manifest::discover(workflow);
    let workflow = &found.workflows[0];
    let case = Case::load(case).unwrap();
    let options = RunOptions {
        mode: case.mode().unwrap(),
        ..options.clone()
    };
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
        for (jobs, window) in [(1, 0), (1, 1), (2, 1)] {
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
             parentRef: resultContext.resultJson.selectionContext.items[0].ref,\n\
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

#[derive(Default)]
struct Recorder(Vec<Seen>);

impl RunObserver for Recorder {
    fn settings(&mut self, _: &SettingsReport) {
        self.0.push(Seen::Settings);
    }
    fn plan(&mut self, plan: &Plan) {
        self.0.push(Seen::Plan(plan.units.len()));
    }
    fn unit(&mut self, unit: UnitReport) {
        self.0.push(Seen::Unit(unit.unit_id));
    }
    fn effect(&mut self, effect: Effect) {
        self.0.push(Seen::Effect(effect.seq, effect.unit_id));
    }
    fn hook(&mut self, record: HookRecord) {
        let logs: Vec<String> = record.logs.into_iter().map(|l| l.message).collect();
        self.0.push(Seen::Hook(logs.join("|")));
    }
    fn error(&mut self, error: RunError) {
        self.0.push(Seen::Error(error.name));
    }
    fn finish(&mut self, summary: Summary) {
        self.0.push(Seen::Finish(summary));
    }
}

fn observed(titles: &[&str], jobs: usize, window: usize) -> Vec<Seen> {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), COUNTING);
    let mut recorder = Recorder::default();
    run_observed(
        &workflow,
        common::probe_input(titles),
        &mut NoResults,
        &options(jobs, window),
        &mut recorder,
    );
    recorder.0
}

fn hook(message: &str) -> Seen {
    Seen::Hook(message.to_string())
}

#[test]
fn each_window_is_handed_over_before_the_next_one_starts() {
    use Seen::*;
    let seen = observed(&["a", "b", "c"], 1, 2);
    let unit = |n: u32| Unit(format!("unit-{n}"));
    let effect = |seq: u64, n: u32| Effect(seq, format!("unit-{n}"));
    let summary = Summary {
        units: 3,
        succeeded: 3,
        skipped: 0,
        failed: 0,
        requests: 3,
        effects: 3,
    };
    assert_eq!(
        seen,
        [
            Settings,
            Plan(3),
            hook("preflight a"),
            hook("preflight b"),
            hook("apply a"),
            hook("apply b"),
            effect(1, 1),
            effect(2, 2),
            unit(1),
            unit(2),
            hook("preflight c"),
            hook("apply c"),
            effect(3, 3),
            unit(3),
            Finish(summary),
        ]
    );
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
        recorder.0,
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
