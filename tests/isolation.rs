//! Isolation between runs: nothing one run leaves behind (globals, module state,
//! prototype changes, pending promises) reaches the next, and failing runs leave
//! no threads and no temporary directories behind.
//!
//! This file holds a single test: it points the temporary directory at a
//! directory of its own to count what runs leave there.

mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use hookrun::manifest::Workflow;
use hookrun::run::{
    BundleSource, Case, JobRequest, ProviderResult, ResultSource, RunInput, RunReport, run,
};
use hookrun::sandbox::Limits;
use serde_json::Map;

/// Answers every request with a bundle whose result lacks what `applyResult` needs.
struct BrokenBundles(Vec<u8>);

impl ResultSource for BrokenBundles {
    fn result(&mut self, _job: &JobRequest) -> ProviderResult {
        ProviderResult::Succeeded {
            request_id: Some("run-broken".into()),
            result_json: None,
            bundle: Some(BundleSource::ZipBytes(self.0.clone())),
            extra: Map::new(),
        }
    }
}

fn broken_bundle() -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("result/result.json", options).unwrap();
    zip.write_all(br#"{"status": "succeeded", "data": {}}"#)
        .unwrap();
    zip.finish().unwrap().into_inner()
}

fn run_with(
    workflow: &Workflow,
    input: RunInput,
    source: &mut dyn ResultSource,
    limits: Limits,
) -> RunReport {
    let options = common::run_options().sandbox(common::sandbox_options().limits(limits));
    run(workflow, input, source, &options)
}

/// The ids of the process's threads.
fn threads() -> BTreeSet<String> {
    entries(Path::new("/proc/self/task")).into_iter().collect()
}

fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The literature-digest workflow with its own `applyResult`, in `dir`.
fn digest_with_apply(dir: &Path, apply: &str) -> Workflow {
    std::fs::create_dir_all(dir.join("hooks")).unwrap();
    std::fs::copy(
        common::fixture("workflows/literature-digest/workflow.json"),
        dir.join("workflow.json"),
    )
    .unwrap();
    std::fs::write(dir.join("hooks/applyResult.mjs"), apply).unwrap();
    let found = hookrun::manifest::discover(&dir.join("workflow.json"));
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    found.workflows.into_iter().next().unwrap()
}

/// The outcome of the hook that failed the run's first unit, and its message.
fn failure(report: &RunReport) -> (String, String) {
    let report = serde_json::to_value(report).unwrap();
    let hook = &report["units"][0]["errors"][0]["hook"];
    (
        hook["outcome"].as_str().unwrap_or_default().to_string(),
        hook["message"].as_str().unwrap_or_default().to_string(),
    )
}

const RUNS: usize = 1_000;

#[test]
fn failing_runs_share_no_state_and_leave_no_threads_or_temporary_directories() {
    let temp = tempfile::tempdir().unwrap();
    // SAFETY: this test binary holds this single test, and no thread it started
    // reads the environment concurrently.
    unsafe { std::env::set_var("TMPDIR", temp.path()) };
    assert_eq!(std::env::temp_dir(), temp.path());

    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let stateful = common::probe_workflow(
        &dir.path().join("stateful"),
        &[
            (
                "preflight",
                include_str!("../fixtures/sandbox/corpus/state.mjs"),
            ),
            (
                "applyResult",
                "export function applyResult() { return null; }",
            ),
        ],
    );
    let digest = common::workflow("workflows/literature-digest");
    let looping = digest_with_apply(
        &dir.path().join("looping"),
        "export function applyResult() { for (;;) {} }",
    );
    let hoarding = digest_with_apply(
        &dir.path().join("hoarding"),
        "export function applyResult() { const h = []; for (;;) h.push(new Array(100000).fill(1)); }",
    );
    let case = Case::load(&common::fixture(
        "workflows/literature-digest/cases/markdown-paper.json",
    ))
    .unwrap();
    let bundle = broken_bundle();
    let limits = Limits::default()
        .timeout_ms(100)
        .max_heap_bytes(32 * 1024 * 1024);
    // The memory bomb gets time enough to reach the heap cap on a loaded machine:
    // its outcome must be the cap, never the clock.
    let hoarding_limits = limits.timeout_ms(5_000);
    let clean_slate = r#"{"calls":1,"global":null,"prototype":null,"afterReturn":null}"#;
    let failing_run = |i: usize| {
        let (workflow, limits, expected) = match i % 40 {
            0 => (&looping, limits, ("timeout", "")),
            1 => (&hoarding, hoarding_limits, ("memory-limit", "")),
            n if n % 2 == 0 => (&stateful, limits, ("hook-error", clean_slate)),
            _ => (
                &digest,
                limits,
                ("hook-error", "literature-digest result has no digest_path"),
            ),
        };
        let input = if std::ptr::eq(workflow, &stateful) {
            common::probe_input(&["a parent"])
        } else {
            case.input(None).unwrap()
        };
        let mut bundles = BrokenBundles(bundle.clone());
        let report = run_with(workflow, input, &mut bundles, limits);
        let (outcome, message) = failure(&report);
        assert_eq!(outcome, expected.0, "run {i}: {message}");
        if !expected.1.is_empty() {
            assert_eq!(message, expected.1, "run {i}");
        }
    };

    // Warm up: the engine starts its process-wide threads on first use.
    for i in 0..4 {
        failing_run(i);
    }
    let (threads_before, temp_before) = (threads(), entries(temp.path()));
    // All runs on this one thread, as a long-lived host runs them.
    for i in 0..RUNS {
        failing_run(i);
    }
    // A joined watchdog may linger in /proc for a moment while the kernel
    // reaps it, so the check allows it that moment.
    let mut left = threads().difference(&threads_before).count();
    for _ in 0..50 {
        if left == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        left = threads().difference(&threads_before).count();
    }
    assert_eq!(left, 0, "threads left behind");
    assert_eq!(
        entries(temp.path()),
        temp_before,
        "temporary files left behind"
    );
    assert!(temp_before.is_empty(), "{temp_before:?}");
}
