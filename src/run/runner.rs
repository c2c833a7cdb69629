//! The run itself: settings → plan → preflight → requests → results → apply →
//! report, in the contract's phases. A unit's failure never stops the others.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::json;

use crate::hooks::bridge::Bridge;
use crate::hooks::{HookEnv, sandbox_options};
use crate::host::answers::HostAnswers;
use crate::host::world::HostWorld;
use crate::host::{HookHost, HostSettings};
use crate::manifest::Workflow;
use crate::plan::{Mode, NoValidInputUnitsError, Plan, PlanState, Unit, plan};
use crate::request::ExecutionOptions;
use crate::run::driver::{Driver, Here, Segment, hand_over, window_size};
use crate::run::jobs::RequestIds;
use crate::run::normalize::prepare;
use crate::run::observer::{Collector, RunObserver};
use crate::run::options::{RunInput, RunOptions};
use crate::run::parallel;
use crate::run::progress::Phase;
use crate::run::report::{RunError, RunReport, Stage, Summary};
use crate::run::results::ResultSource;
use crate::run::settings::Settings;
use crate::run::units::Phases;
use crate::sandbox::Sandbox;
use crate::selection::SelectionContext;

/// Runs `workflow` over `input`, asking `results` for the result of every
/// request the pass-through provider does not answer, and collects the whole
/// report. [`run_observed`] hands it over in parts instead.
///
/// ```
/// use hookrun::manifest::discover;
/// use hookrun::run::{Case, RunOptions, run};
///
/// let found = discover("fixtures/workflows/export-summary".as_ref());
/// let workflow = &found.workflows[0];
/// let case = Case::load("fixtures/workflows/export-summary/cases/grouped-two-papers.json".as_ref())?;
/// let options = RunOptions::default().mode(case.mode()?);
/// let report = run(workflow, case.input(None)?, &mut case.result_source(), &options);
/// assert!(report.ok());
/// assert_eq!(report.summary.units, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
///
/// ```
/// use hookrun::manifest::discover;
/// use hookrun::run::{Case, JsonReportWriter, RunOptions, run_observed};
///
/// let found = discover("fixtures/workflows/export-summary".as_ref());
/// let workflow = &found.workflows[0];
/// let case = Case::load("fixtures/workflows/export-summary/cases/grouped-two-papers.json".as_ref())?;
/// let options = RunOptions::default().mode(case.mode()?);
/// // The report's JSON, written unit by unit as the run goes.
/// let mut writer = JsonReportWriter::new(Vec::new(), &workflow.id, false);
/// let summary = run_observed(workflow, case.input(None)?, &mut case.result_source(), &options, &mut writer);
/// let report: serde_json::Value = serde_json::from_slice(&writer.into_inner()?)?;
/// assert_eq!(report["summary"]["units"], summary.units);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    let mut env = HookEnv::new(
        sandbox,
        Rc::new(RefCell::new(Bridge::new(host_of(
            input.world,
            input.answers,
            options,
        )))),
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
    let units = planned_units(env, workflow, selection, &execution, options, observer)?;

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

/// The units of the run's plan, handed to `observer` first; a plan without
/// valid units is the run's error.
fn planned_units(
    env: &HookEnv<'_>,
    workflow: &Workflow,
    selection: SelectionContext,
    execution: &ExecutionOptions,
    options: &RunOptions,
    observer: &mut dyn RunObserver,
) -> Result<Vec<Unit>, RunError> {
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
    Ok(units)
}

/// The run's host: `world` and `answers` with the settings and limits of `options`.
fn host_of(world: HostWorld, answers: HostAnswers, options: &RunOptions) -> HookHost {
    let settings = HostSettings {
        interactive: options.runtime.invocation_mode.is_interactive(),
        clock_ms: options.sandbox.determinism.map(|d| d.now_ms),
        locale: options.runtime.locale.clone(),
    };
    let mut host = HookHost::new(world, answers).with_settings(settings);
    if let Some(max) = options.max_write_bytes {
        host = host.with_write_limit(max);
    }
    if let Some(max) = options.max_host_call_bytes {
        host = host.with_call_bytes(max);
    }
    host
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
