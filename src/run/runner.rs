//! The run itself: settings → plan → preflight → requests → results → apply →
//! report, in the contract's phases. A unit's failure never stops the others.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::json;

use crate::hooks::bridge::{HookHost, HostSettings};
use crate::hooks::{HookEnv, RuntimeInfo};
use crate::host::answers::HostAnswers;
use crate::host::world::HostWorld;
use crate::manifest::{HookName, Workflow};
use crate::plan::{Mode, NoValidInputUnitsError, PlanState, Unit, plan};
use crate::request::ExecutionOptions;
use crate::run::apply::ApplyEnv;
use crate::run::jobs::RequestIds;
use crate::run::normalize::prepare;
use crate::run::parallel;
use crate::run::progress::{Phase, ProgressHook};
use crate::run::report::{RunError, RunReport, SettingsReport, Summary, UnitStatus};
use crate::run::results::ResultSource;
use crate::run::settings::Settings;
use crate::run::units::{Phases, UnitState, finish_unit, first_jobs};
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
    /// Limits and determinism of every hook call.
    pub sandbox: SandboxOptions,
    /// Start every unit on a fresh runtime instead of sharing one per run.
    pub fresh_runtime_per_unit: bool,
    /// Worker threads for the units (`0` or `1`: every unit on the caller's
    /// thread). Each worker has its own runtime and takes a contiguous chunk
    /// of the units; the report is in unit order either way. Module state and
    /// `operationId` replays are then shared only within a chunk, created
    /// items of later chunks get keys from their own range, and progress of
    /// the preflight and request phases arrives interleaved across workers.
    pub jobs: usize,
    /// Borrow the run's runtime from this pool and give it back afterwards, so
    /// the next run of the same workflow starts warm (prelude installed, hook
    /// modules loaded, module state kept). A runtime that breached a limit is
    /// not given back. With `jobs` above 1 the pooled runtime serves only the
    /// settings phase; the worker threads start runtimes of their own.
    pub pool: Option<SandboxPool>,
    /// The `runtime` fields that do not depend on the call.
    pub runtime: RuntimeInfo,
    /// Receives progress after each unit of each phase.
    pub progress: Option<ProgressHook>,
    /// The most bytes of write arguments (as JSON) the run's hooks may have recorded;
    /// the write that would pass it ends its call with `write-limit`. `None`:
    /// [`DEFAULT_MAX_WRITE_BYTES`](crate::host::effects::DEFAULT_MAX_WRITE_BYTES).
    pub max_write_bytes: Option<u64>,
}

/// Runs `workflow` over `input`, asking `results` for the result of every
/// request the pass-through provider does not answer.
pub fn run(
    workflow: &Workflow,
    input: RunInput,
    results: &mut dyn ResultSource,
    options: &RunOptions,
) -> RunReport {
    let mut report = RunReport {
        workflow_id: workflow.id.clone(),
        settings: SettingsReport::default(),
        plan: None,
        units: Vec::new(),
        effects: Vec::new(),
        hooks: Vec::new(),
        errors: Vec::new(),
        summary: Summary::default(),
    };
    let (mut owned, mut leased) = (None, None);
    let started = match &options.pool {
        Some(pool) => pool
            .acquire(&workflow.jail_root, options.sandbox)
            .map(|lease| &mut **leased.insert(lease)),
        None => Sandbox::new(&workflow.jail_root, options.sandbox).map(|s| owned.insert(s)),
    };
    let sandbox = match started {
        Ok(sandbox) => sandbox,
        Err(e) => {
            report
                .errors
                .push(RunError::new("run", None, "SandboxError", e.to_string()));
            return report;
        }
    };
    let settings = HostSettings {
        interactive: options.runtime.invocation_mode == "interactive",
        clock_ms: options.sandbox.determinism.map(|d| d.now_ms),
        locale: options.runtime.locale.clone(),
    };
    let mut host = HookHost::new(input.world, input.answers).with_settings(settings);
    if let Some(max) = options.max_write_bytes {
        host = host.with_write_limit(max);
    }
    let host = Rc::new(RefCell::new(host));
    let mut env = HookEnv {
        sandbox,
        host: Rc::clone(&host),
        workflow,
        runtime: &options.runtime,
        records: Vec::new(),
        fresh_per_unit: options.fresh_runtime_per_unit,
        last_unit: None,
    };
    let outcome = execute(
        &mut env,
        workflow,
        &input.selection,
        &input.settings,
        results,
        options,
        &mut report,
    );
    if let Err(error) = outcome {
        report.errors.push(error);
    }
    report.hooks = std::mem::take(&mut env.records);
    report.effects = host.borrow_mut().take_effects();
    report.summary = summarise(&report);
    report
}

fn summarise(report: &RunReport) -> Summary {
    let count = |status| report.units.iter().filter(|u| u.status == status).count();
    Summary {
        units: report.units.len(),
        succeeded: count(UnitStatus::Succeeded),
        skipped: count(UnitStatus::Skipped),
        failed: count(UnitStatus::Failed),
        requests: report.units.iter().map(|u| u.jobs.len()).sum(),
        effects: report.effects.len(),
    }
}

fn execute(
    env: &mut HookEnv<'_>,
    workflow: &Workflow,
    selection: &SelectionContext,
    settings: &Settings,
    results: &mut dyn ResultSource,
    options: &RunOptions,
    report: &mut RunReport,
) -> Result<(), RunError> {
    report.settings = prepare(env, workflow, settings)?;
    let execution = ExecutionOptions {
        workflow_params: report.settings.workflow_params.clone(),
        provider_options: report.settings.provider_options.clone(),
    };
    let planned = {
        let host = env.host.borrow();
        plan(
            &workflow.planning,
            selection,
            options.mode,
            &execution.workflow_params,
            host.world(),
        )
        .map_err(|e| RunError::new("plan", None, "PlanError", e.to_string()))?
    };
    report.plan = Some(RunReport::plan_json(&planned));
    if planned.state == PlanState::Disabled || planned.units.is_empty() {
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
        return Err(RunError::new(
            "plan",
            None,
            NoValidInputUnitsError::NAME,
            error.to_string(),
        )
        .with_details(details));
    }

    let total = planned.units.len();
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
    let units = if options.jobs > 1 && planned.units.len() > 1 {
        parallel::execute(env, &phases, &planned.units, results, options, &progress)?
    } else {
        execute_here(env, &phases, &planned.units, results, options, &progress)?
    };
    report.units = units.into_iter().map(finish_unit).collect();
    report
        .errors
        .extend(report.units.iter().flat_map(|u| u.errors.clone()));
    Ok(())
}

/// Every phase of every unit on the caller's thread, with the run's runtime.
fn execute_here(
    env: &mut HookEnv<'_>,
    phases: &Phases<'_>,
    units: &[Unit],
    results: &mut dyn ResultSource,
    options: &RunOptions,
    progress: &dyn Fn(Phase, usize),
) -> Result<Vec<UnitState>, RunError> {
    let mut states = Vec::with_capacity(units.len());
    for unit in units {
        states.push(phases.preflight(env, unit));
        progress(Phase::Preflight, states.len());
    }
    for (done, (state, unit)) in states.iter_mut().zip(units).enumerate() {
        phases.build_requests(env, unit, state);
        progress(Phase::Requests, done + 1);
    }
    dispatch_all(phases, units, &mut states, results, options, progress);
    let mut apply = apply_env(env, phases)?;
    let firsts = first_jobs(&states);
    for (done, ((state, unit), first)) in states.iter_mut().zip(units).zip(&firsts).enumerate() {
        phases.apply(&mut apply, unit, state, *first);
        progress(Phase::Apply, done + 1);
    }
    for (state, first) in states.iter_mut().zip(&firsts) {
        phases.aggregate(&mut apply, state, *first);
    }
    Ok(states)
}

/// Phase 3 for every unit, in unit order, on the caller's thread: the result
/// source and the request ids are the run's own.
pub(crate) fn dispatch_all(
    phases: &Phases<'_>,
    units: &[Unit],
    states: &mut [UnitState],
    results: &mut dyn ResultSource,
    options: &RunOptions,
    progress: &dyn Fn(Phase, usize),
) {
    let mut ids = RequestIds::new(options.sandbox.determinism.map(|d| (d.now_ms, d.seed)));
    let firsts = first_jobs(states);
    for (done, ((state, unit), first)) in states.iter_mut().zip(units).zip(firsts).enumerate() {
        phases.dispatch(unit, state, first, results, &mut ids);
        progress(Phase::Results, done + 1);
    }
}

/// The `applyResult` call environment; every workflow must declare the hook.
pub(crate) fn apply_env<'a, 'b>(
    env: &'a mut HookEnv<'b>,
    phases: &'a Phases<'a>,
) -> Result<ApplyEnv<'a, 'b>, RunError> {
    let Some(hook) = phases.workflow.hook(HookName::ApplyResult) else {
        return Err(RunError::new(
            "applyResult",
            None,
            "Error",
            "the workflow declares no applyResult hook",
        ));
    };
    Ok(ApplyEnv {
        hooks: env,
        workflow: phases.workflow,
        hook,
        execution: phases.execution,
    })
}
