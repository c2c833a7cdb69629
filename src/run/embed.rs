//! Runs for async hosts: [`run_async`] runs a workflow on a thread of hookrun's
//! own while the host's result source answers on the host's async runtime.
//!
//! A run blocks (its engine runs hook code to the end of each call), so it
//! never runs on the host's executor; the future [`run_async`] returns only
//! relays requests to the source and waits for the report. It is `Send`, so a
//! host spawns it on a multi-threaded runtime like any other task, and runs
//! as many workflows at once as it likes.

use std::future::Future;
use std::pin::Pin;

use tokio::sync::{mpsc, oneshot};

use crate::manifest::Workflow;
use crate::run::observer::{Collector, RunObserver};
use crate::run::report::{RunError, Stage, Summary};
use crate::run::results::{JobRequest, ProviderResult, ResultSource};
use crate::run::{RunInput, RunOptions, RunReport, run};

/// Answers requests on the host's async runtime, for [`run_async`].
///
/// ```
/// use std::future::Future;
/// use std::pin::Pin;
/// use hookrun::run::{JobRequest, ProviderResult, SendResultSource};
///
/// /// Answers every request with its own payload.
/// struct Echo;
///
/// impl SendResultSource for Echo {
///     fn result(
///         &mut self,
///         job: JobRequest,
///     ) -> Pin<Box<dyn Future<Output = ProviderResult> + Send + '_>> {
///         Box::pin(async move {
///             ProviderResult::Succeeded {
///                 request_id: None,
///                 result_json: Some(job.request),
///                 bundle: None,
///                 extra: Default::default(),
///             }
///         })
///     }
/// }
/// ```
pub trait SendResultSource: Send {
    /// The result of `job`.
    fn result(
        &mut self,
        job: JobRequest,
    ) -> Pin<Box<dyn Future<Output = ProviderResult> + Send + '_>>;
}

/// A request and where its result goes.
type Asked = (JobRequest, oneshot::Sender<ProviderResult>);

/// The run thread's result source: hands each request to the async side and
/// waits for its answer.
struct Relay(mpsc::Sender<Asked>);

impl ResultSource for Relay {
    fn result(&mut self, job: &JobRequest) -> ProviderResult {
        let gone = || ProviderResult::Failed {
            message: "the host stopped answering requests".into(),
        };
        let (answer, answered) = oneshot::channel();
        if self.0.blocking_send((job.clone(), answer)).is_err() {
            return gone();
        }
        answered.blocking_recv().unwrap_or_else(|_| gone())
    }
}

/// Runs `workflow` as [`run`] does, on a thread of its own started at once,
/// asking `results` for each request's result on the caller's runtime as the
/// returned future is polled; the future ends with the report. A run whose
/// thread cannot start, or that panics, ends with a report holding that error,
/// and so does one whose options name a [`pool`](RunOptions::pool): a pool's
/// runtimes belong to its thread.
pub fn run_async<S: SendResultSource>(
    workflow: Workflow,
    input: RunInput,
    mut results: S,
    options: RunOptions,
) -> impl Future<Output = RunReport> + Send {
    let started = start(workflow, input, options);
    async move {
        let (mut asked, report, id) = match started {
            Ok(started) => started,
            Err(report) => return report,
        };
        // The relay goes away with the run: then no more requests come.
        while let Some((job, answer)) = asked.recv().await {
            let _ = answer.send(results.result(job).await);
        }
        report
            .await
            .unwrap_or_else(|_| failed(&id, "the run's thread ended without a report"))
    }
}

/// The run's thread, started: where its requests come, where its report will,
/// and the workflow's id; or the report of a run that could not start.
type Started = (mpsc::Receiver<Asked>, oneshot::Receiver<RunReport>, String);

fn start(workflow: Workflow, input: RunInput, options: RunOptions) -> Result<Started, RunReport> {
    // Every option but the pool crosses to the run's thread.
    let RunOptions {
        mode,
        sandbox,
        fresh_runtime_per_unit,
        jobs,
        pool,
        runtime,
        progress,
        max_write_bytes,
        max_host_call_bytes,
        window,
    } = options;
    let id = workflow.id.clone();
    if pool.is_some() {
        return Err(failed(
            &id,
            "a sandbox pool belongs to its thread: run_async runs without one",
        ));
    }
    let (asks, asked) = mpsc::channel::<Asked>(1);
    let (done, report) = oneshot::channel();
    // The run is traced where the host asked for it: its subscriber, its span.
    let traced = crate::trace::context();
    std::thread::Builder::new()
        .name(format!("hookrun {id}"))
        .spawn(move || {
            let options = RunOptions {
                mode,
                sandbox,
                fresh_runtime_per_unit,
                jobs,
                pool: None,
                runtime,
                progress,
                max_write_bytes,
                max_host_call_bytes,
                window,
            };
            let mut relay = Relay(asks);
            let report = traced.within(|| run(&workflow, input, &mut relay, &options));
            let _ = done.send(report);
        })
        .map_err(|e| failed(&id, format!("cannot start the run's thread: {e}")))?;
    Ok((asked, report, id))
}

/// The report of a run of `workflow` that could not run: its one error.
fn failed(workflow: &str, message: impl Into<String>) -> RunReport {
    let mut report = Collector::new(workflow);
    report.error(RunError::new(Stage::Run, None, "RunError", message));
    report.finish(Summary::default());
    report.into_report()
}
