//! A host that embeds hookrun on tokio: two workflows of the repository's
//! fixtures run at once, each on a thread of hookrun's own, their provider
//! results answered by an async source on the host's runtime, the runs traced
//! by a `tracing` subscriber.
//!
//! Run with `cargo run --example async_host` from the repository root.

use std::future::Future;
use std::path::Path;
use std::pin::Pin;

use hookrun::run::{
    Case, FixtureResults, JobRequest, ProviderResult, ResultSource, RunOptions, SendResultSource,
    run_async,
};

/// Answers each request as a provider would, after a turn of the host's
/// runtime: from the case's fixture results.
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

/// The run of `case` of the workflow in `dir`, as a future the host can spawn.
fn workflow_run(
    dir: &Path,
    case: &str,
) -> Result<impl Future<Output = hookrun::run::RunReport> + Send + use<>, Box<dyn std::error::Error>>
{
    let found = hookrun::manifest::discover(dir);
    let workflow = found
        .workflows
        .into_iter()
        .next()
        .ok_or_else(|| format!("no workflow in {}", dir.display()))?;
    let case = Case::load(&dir.join("cases").join(case))?;
    let input = case.input(None)?;
    let options = RunOptions::default().sandbox(hookrun::hooks::sandbox_options(
        hookrun::sandbox::SandboxOptions::default(),
    ));
    Ok(run_async(
        workflow,
        input,
        Provider(case.result_source()),
        options,
    ))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Each span printed as it closes: runs, windows, units, hook calls.
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::INFO)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_writer(std::io::stderr)
        .init();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/workflows");
    let digest = tokio::spawn(workflow_run(
        &fixtures.join("literature-digest"),
        "markdown-paper.json",
    )?);
    let summary = tokio::spawn(workflow_run(
        &fixtures.join("export-summary"),
        "grouped-two-papers.json",
    )?);
    for report in [digest.await?, summary.await?] {
        let s = &report.summary;
        println!(
            "{}: {} unit(s), {} succeeded, {} failed, {} effect(s)",
            report.workflow_id, s.units, s.succeeded, s.failed, s.effects
        );
    }
    Ok(())
}
