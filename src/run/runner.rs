//! The run itself: settings → plan → preflight → requests → results → apply →
//! report, in the contract's phases. A unit's failure never stops the others.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::json;

use crate::hooks::bridge::Bridge;
use crate::hooks::{HookEnv, RuntimeInfo, sandbox_options};
use crate::host::answers::HostAnswers;
use crate::host::world::HostWorld;
use crate::host::{HookHost, HostSettings};
use crate::manifest::{DeclaredHook, HookName, Workflow};
use crate::plan::{Mode, NoValidInputUnitsError, Plan, PlanState, plan};
use crate::request::ExecutionOptions;
use crate::run::apply::ApplyEnv;
use crate::run::driver::{Driver, Here, Segment, hand_over, window_size};
use crate::run::jobs::RequestIds;
use crate::run::normalize::prepare;
use crate::run::observer::{Collector, RunObserver};
use crate::run::parallel;
use crate::run::progress::{Phase, ProgressHook};
use crate::run::report::{RunError, RunReport, Stage, Summary};
use crate::run::results::ResultSource;
use crate::run::settings::Settings;
use crate::run::units::Phases;
use crate::sandbox::{Sandbox, SandboxOptions, SandboxPool};
use crate::selection::SelectionContext;

/// What a run works on.
pub struct RunInput {
    /// The user's selection (either shape).
    pub selection: SelectionContext,
    /// `{workflowParams, providerOptions}`.
    pub settings: Settings,
    /// What hooks and filters may read.
    pub world: HostWorld,
    /// What the fixture answers for the members a simulated world cannot:
    /// identifier look-ups and the `fixture` members of the Host API.
    pub answers: HostAnswers,
}

/// How a run behaves.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Planning mode (`execute` for confirmed runs).
    pub mode: Mode,
    /// Limits, determinism and isolation of every hook call (its startup is
    /// always [`STARTUP`](crate::hooks::STARTUP), the host facade).
    pub sandbox: SandboxOptions,
    /// Start every unit on a fresh runtime instead of sharing one per run.
    pub fresh_runtime_per_unit: bool,
    /// Threads for the units (`0` or `1`: every unit on the caller's thread).
    /// Every [window](Self::window) is cut into `jobs` contiguous parts: the
    /// caller's thread takes the first with the run's runtime, and each other
    /// part goes to a worker thread with a runtime of its own, the same part of
    /// every window; the report is in unit order either way. Module state and
    /// `operationId` replays are then shared only among the units of one
    /// thread, items a worker creates get keys from its own range, and progress
    /// of the preflight, request and apply phases arrives interleaved across
    /// threads.
    pub jobs: usize,
    /// Borrow the run's runtime from this pool and give it back afterwards, so
    /// the next run of the same workflow starts warm (prelude installed, hook
    /// modules loaded, module state kept). A runtime that breached a limit is
    /// not given back. With `jobs` above 1 the pooled runtime serves the
    /// settings phase and the caller's part of each window; the worker threads
    /// start runtimes of their own.
    pub pool: Option<SandboxPool>,
    /// The `runtime` fields that do not depend on the call.
    pub runtime: RuntimeInfo,
    /// Receives progress after each unit of each phase.
    pub progress: Option<ProgressHook>,
    /// The most bytes of write arguments (as JSON) the run's hooks may have recorded;
    /// the write that would pass it ends its call with `write-limit`. `None`:
    /// [`DEFAULT_MAX_WRITE_BYTES`](crate::host::effects::DEFAULT_MAX_WRITE_BYTES).
    pub max_write_bytes: Option<u64>,
    /// The most bytes one host call may hold outside the engine (file reads,
    /// archive entries, its reply); the call that would pass it ends its hook call
    /// with `host-limit`. `None`:
    /// [`DEFAULT_HOST_CALL_BYTES`](crate::host::budget::DEFAULT_HOST_CALL_BYTES).
    pub max_host_call_bytes: Option<u64>,
    /// Units that go through the phases together (`0`:
    /// [`DEFAULT_WINDOW`](super::DEFAULT_WINDOW)). Every unit of a window is
    /// preflighted before any of its requests is built, and so on phase by
    /// phase, as the contract orders them; each unit is handed over as soon
    /// as it is done, and the next window starts once the window's units are
    /// all applied and handed over. Besides the plan, a run
    /// holds the states and reports of one window of units at a time, so this
    /// bounds the memory the run adds; a run of at most `window`
    /// units calls its hooks in exactly the contract's phase order.
    pub window: usize,
}

/// Runs `workflow` over `input`, asking `results` for the result of every
/// request the pass-through provider does not answer, and collects the whole
/// report. [`run_observed`] hands it over in parts instead.
pub fn run(
    workflow: &Workflow,
    input: RunInput,
    results: &mut dyn ResultSource,
    options: &RunOptions,
) -> RunReport {
    let mut collector = Collector::new(&workflow.id);
    run_observed(workflow, input, results, options, &mut collector);
    collector.into_report()
}

/// Runs `workflow` over `input` like [`run`], handing each part of the report
/// to `observer` as soon as the run is done with it (see [`RunObserver`] for
/// the order); besides the plan, the run holds the states and reports of one
/// window of units at a time.
/// Returns the run's counts, which `observer` also received last.
pub fn run_observed(
    workflow: &Workflow,
    input: RunInput,
    results: &mut dyn ResultSource,
    options: &RunOptions,
    observer: &mut dyn RunObserver,
) -> Summary {
    let _run = crate::trace::run(&workflow.id);
    let (mut owned, mut leased) = (None, None);
    let started = match &options.pool {
        Some(pool) => pool
            .acquire(&workflow.jail_root, sandbox_options(options.sandbox))
            .map(|lease| &mut **leased.insert(lease)),
        None => Sandbox::new(&workflow.jail_root, sandbox_options(options.sandbox))
            .map(|s| owned.insert(s)),
    };
    let sandbox = match started {
        Ok(sandbox) => sandbox,
        Err(e) => {
            observer.error(RunError::new(
                Stage::Run,
                None,
                "SandboxError",
                e.to_string(),
            ));
            observer.finish(Summary::default());
            return Summary::default();
        }
    };
    let settings = HostSettings {
        interactive: options.runtime.invocation_mode.is_interactive(),
        clock_ms: options.sandbox.determinism.map(|d| d.now_ms),
        locale: options.runtime.locale.clone(),
    };
    let mut host = HookHost::new(input.world, input.answers).with_settings(settings);
    if let Some(max) = options.max_write_bytes {
        host = host.with_write_limit(max);
    }
    if let Some(max) = options.max_host_call_bytes {
        host = host.with_call_bytes(max);
    }
    let mut env = HookEnv::new(
        sandbox,
        Rc::new(RefCell::new(Bridge::new(host))),
        workflow,
        &options.runtime,
        options.fresh_runtime_per_unit,
    );
    let mut summary = Summary::default();
    let outcome = execute(
        &mut env,
        workflow,
        input.selection,
        &input.settings,
        results,
        options,
        observer,
        &mut summary,
    );
    if let Err(error) = outcome {
        // What the run's own runtime recorded before it stopped.
        let rest = Segment::take(&mut env.records, &env.host);
        hand_over(observer, &mut summary, vec![rest]);
        observer.error(error);
    }
    observer.finish(summary);
    summary
}

#[allow(
    clippy::too_many_arguments,
    reason = "the run's parts, each borrowed for the run"
)]
fn execute(
    env: &mut HookEnv<'_>,
    workflow: &Workflow,
    selection: SelectionContext,
    settings: &Settings,
    results: &mut dyn ResultSource,
    options: &RunOptions,
    observer: &mut dyn RunObserver,
    summary: &mut Summary,
) -> Result<(), RunError> {
    let prepared = prepare(env, workflow, settings)?;
    observer.settings(&prepared);
    let execution = ExecutionOptions {
        workflow_params: prepared.workflow_params,
        provider_options: prepared.provider_options,
    };
    let planned = {
        let host = env.host.borrow();
        plan(
            &workflow.planning,
            &selection,
            options.mode,
            &execution.workflow_params,
            host.world(),
        )
        .map_err(|e| RunError::new(Stage::Plan, None, "PlanError", e.to_string()))?
    };
    observer.plan(&planned);
    if planned.state == PlanState::Disabled || planned.units.is_empty() {
        return Err(no_valid_units(workflow, &planned));
    }
    // The units are all the phases need: what the selection and the rest of
    // the plan hold besides (their entry arrays, the candidates) goes before
    // the first window, instead of staying for the whole run. The units'
    // scoped contexts and the world share the items.
    drop(selection);
    let Plan { units, .. } = planned;

    let total = units.len();
    let progress = |phase: Phase, done: usize| {
        if let Some(hook) = &options.progress {
            hook.report(phase, done, total);
        }
    };
    let phases = Phases {
        workflow,
        execution: &execution,
        handoff: options.mode == Mode::Handoff,
    };
    let mut driver = Driver {
        phases: &phases,
        units: &units,
        results,
        ids: RequestIds::new(options.sandbox.determinism.map(|d| (d.now_ms, d.seed))),
        window: options.window,
        progress: &progress,
        observer,
        summary: Summary::default(),
    };
    // What the settings phase recorded comes first.
    driver.hand_over(vec![Segment::take(&mut env.records, &env.host)]);
    // Threads need windows of more than one unit to share.
    let driven = if options.jobs > 1 && units.len().min(window_size(options.window)) > 1 {
        let encoder = driver.observer.encoder();
        parallel::with_workers(env, &phases, &units, options, encoder, |crew| {
            driver.drive(crew)
        })
        .and_then(|driven| driven)
    } else {
        let mut here = Here {
            env,
            phases: &phases,
            units: &units,
            encoder: None,
        };
        driver.drive(&mut here)
    };
    *summary = driver.summary;
    driven
}

fn no_valid_units(workflow: &Workflow, planned: &Plan) -> RunError {
    let stats = &planned.stats.candidates;
    let error = NoValidInputUnitsError {
        workflow_id: workflow.id.clone(),
        total_units: stats.total,
        skipped_units: stats.skipped,
        candidate_total: stats.total,
        candidate_skipped: stats.skipped,
    };
    let mut details = serde_json::Map::new();
    details.insert("code".into(), json!(NoValidInputUnitsError::CODE));
    if let Some(reason) = &planned.reason_code {
        details.insert("reasonCode".into(), json!(reason.as_str()));
    }
    RunError::new(
        Stage::Plan,
        None,
        NoValidInputUnitsError::NAME,
        error.to_string(),
    )
    .with_details(details)
}

/// The `applyResult` call environment; every workflow must declare the hook.
pub(crate) fn apply_env<'a, 'b>(
    env: &'a mut HookEnv<'b>,
    phases: &'a Phases<'a>,
) -> Result<ApplyEnv<'a, 'b>, RunError> {
    Ok(ApplyEnv {
        hooks: env,
        workflow: phases.workflow,
        hook: apply_hook(phases.workflow)?,
        execution: phases.execution,
    })
}

/// The workflow's `applyResult` hook, which every run needs.
pub(crate) fn apply_hook(workflow: &Workflow) -> Result<&DeclaredHook, RunError> {
    workflow.hook(HookName::ApplyResult).ok_or_else(|| {
        RunError::new(
            Stage::ApplyResult,
            None,
            "Error",
            "the workflow declares no applyResult hook",
        )
    })
}
