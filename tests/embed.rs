//! The async embedding API: workflows run on hookrun's threads while the
//! host's async source answers on the host's runtime, traced through the
//! host's `tracing` subscriber.

use std::future::Future;
use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use hookrun::run::{
    Case, FixtureResults, JobRequest, ProviderResult, ResultSource, RunOptions, SendResultSource,
    run, run_async,
};

use crate::common;

/// Answers from a case's fixture results, after a turn of the runtime.
struct Provider(FixtureResults);

impl SendResultSource for Provider {
    fn result(
        &mut self,
        job: JobRequest,
    ) -> Pin<Box<dyn Future<Output = ProviderResult> + Send + '_>> {
        Box::pin(async move {
            tokio::task::yield_now().await;
            self.0.result(&job)
        })
    }
}

/// What a `tracing` subscriber writes, kept.
#[derive(Clone, Default)]
struct Written(Arc<Mutex<Vec<u8>>>);

impl Write for Written {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn options() -> RunOptions {
    common::run_options().sandbox(
        common::sandbox_options().determinism(Some(hookrun::sandbox::Determinism::default())),
    )
}

/// Two workflows at once on one host thread: each report is the report of a
/// blocking run of the same case, and the host's subscriber sees every run's
/// spans (run, window, unit, hook with its outcome) under the host's span.
#[test]
fn workflows_run_concurrently_on_an_async_host_and_are_traced_by_it() {
    let cases = [
        ("workflows/literature-digest", "markdown-paper.json"),
        ("workflows/export-summary", "grouped-two-papers.json"),
    ];
    let prepared: Vec<_> = cases
        .iter()
        .map(|(dir, case)| {
            let workflow = common::workflow(dir);
            let case = Case::load(&common::fixture(dir).join("cases").join(case)).unwrap();
            (workflow, case)
        })
        .collect();
    let expected: Vec<_> = prepared
        .iter()
        .map(|(workflow, case)| {
            let input = case.input(None).unwrap();
            run(workflow, input, &mut case.result_source(), &options())
        })
        .collect();

    let written = Written::default();
    let sink = written.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || sink.clone())
        .with_ansi(false)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .finish();
    let _traced = tracing::subscriber::set_default(subscriber);
    let host = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let reports = host.block_on(async {
        let _host_span = tracing::info_span!("host").entered();
        let mut runs = Vec::new();
        for (workflow, case) in &prepared {
            let input = case.input(None).unwrap();
            let source = Provider(case.result_source());
            runs.push(run_async(workflow.clone(), input, source, options()));
        }
        let second = runs.pop().unwrap();
        let first = runs.pop().unwrap();
        let (a, b) = tokio::join!(first, second);
        vec![a, b]
    });
    // The same report but for timings (what a case's expectations compare).
    for (report, expected) in reports.iter().zip(&expected) {
        assert_eq!(
            hookrun::run::expect::actual(report),
            hookrun::run::expect::actual(expected)
        );
        assert_eq!(report.summary, expected.summary);
    }
    let text = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
    for shown in [
        "host:run{workflow=\"literature-digest\"}",
        "host:run{workflow=\"export-summary\"}",
        ":window{index=0 units=",
        ":unit{unit=\"unit-1\"}",
        "hook{workflow=\"export-summary\" hook=\"applyResult\" unit=\"unit-1\" outcome=\"ok\"",
    ] {
        assert!(text.contains(shown), "{shown} not in:\n{text}");
    }
}

/// A hook call that passes a limit is a warning event inside its hook span.
#[test]
fn a_hook_call_past_its_limit_is_a_warning_event() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(
        dir.path(),
        &[(
            "applyResult",
            "export function applyResult() { for (;;) {} }",
        )],
    );
    let written = Written::default();
    let sink = written.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || sink.clone())
        .with_ansi(false)
        .finish();
    let mut options = options();
    options.sandbox.limits.timeout_ms = 200;
    let report = tracing::subscriber::with_default(subscriber, || {
        run(
            &workflow,
            common::probe_input(&["a"]),
            &mut hookrun::run::NoResults,
            &options,
        )
    });
    assert!(!report.ok());
    let text = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
    assert!(
        text.contains("WARN")
            && text.contains("hook=\"applyResult\"")
            && text.contains("limit=\"timeout\"")
            && text.contains("the hook call passed a limit"),
        "{text}"
    );
}
