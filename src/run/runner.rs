//! The run itself: settings → plan → preflight → requests → results → apply →
//! report, in the contract's phases. A unit's failure never stops the others.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::json;

use crate::hooks::bridge::{HookHost, IdentifierAnswers};
use crate::hooks::{HookEnv, HookRecord, PreflightOutcome, RuntimeInfo, parse_outcome};
use crate::host::world::HostWorld;
use crate::manifest::{HookName, Workflow};
use crate::plan::{Mode, NoValidInputUnitsError, PlanState, plan};
use crate::request::{AttachmentFiles, AttachmentRef, ExecutionOptions};
use crate::run::apply::ApplyEnv;
use crate::run::jobs::{
    Job, JobKind, RequestIds, build_request, dispatch, execution_json, jobs_for,
};
use crate::run::normalize::prepare;
use crate::run::progress::{Phase, ProgressHook};
use crate::run::report::{
    AggregateReport, ApplyReport, JobReport, RunError, RunReport, SettingsReport, Summary,
    UnitReport, UnitStatus,
};
use crate::run::results::ResultSource;
use crate::run::settings::Settings;
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
    /// Answers to `metadata.translateIdentifier`, keyed `<type>:<value>`.
    pub identifiers: IdentifierAnswers,
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
    /// Borrow the run's runtime from this pool and give it back afterwards, so
    /// the next run of the same workflow starts warm (prelude installed, hook
    /// modules loaded, module state kept). A runtime that breached a limit is
    /// not given back.
    pub pool: Option<SandboxPool>,
    /// The `runtime` fields that do not depend on the call.
    pub runtime: RuntimeInfo,
    /// Receives progress after each unit of each phase.
    pub progress: Option<ProgressHook>,
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
    let host = Rc::new(RefCell::new(HookHost::new(input.world, input.identifiers)));
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

/// The attachment files the declarative compiler uploads, from the host world.
struct WorldFiles(Rc<RefCell<HookHost>>);

impl AttachmentFiles for WorldFiles {
    fn local_path(&self, attachment: &AttachmentRef<'_>, _handoff: bool) -> Option<String> {
        let host = self.0.borrow();
        let world = host.world();
        match attachment {
            AttachmentRef::Ref(reference) => {
                let detail = world.get_item_detail(reference).ok()?;
                (detail.pointer("/item/file/state")? == "available")
                    .then(|| {
                        detail
                            .pointer("/item/file/path")?
                            .as_str()
                            .map(str::to_string)
                    })
                    .flatten()
            }
            AttachmentRef::FilePath(path) => world.file_exists(path).then(|| path.to_string()),
        }
    }
}

/// Per-unit progress through the phases.
struct UnitState {
    report: UnitReport,
    jobs: Vec<Job>,
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

    // Phase 1: preflight, once per unit.
    let mut units: Vec<UnitState> = Vec::with_capacity(total);
    for unit in &planned.units {
        let mut state = UnitState {
            report: UnitReport {
                unit_id: unit.unit_id.clone(),
                task_name: unit.task_name.clone(),
                status: UnitStatus::Succeeded,
                preflight: None,
                skip_reason: None,
                jobs: Vec::new(),
                aggregate: None,
                errors: Vec::new(),
            },
            jobs: Vec::new(),
        };
        match run_preflight(env, workflow, unit, &execution) {
            Ok(outcome) => {
                state.jobs = jobs_for(unit, &outcome);
                if let PreflightOutcome::Skip { reason } = &outcome {
                    state.report.status = UnitStatus::Skipped;
                    state.report.skip_reason = reason.clone();
                }
                if workflow.hook(HookName::Preflight).is_some() {
                    state.report.preflight = Some(outcome);
                }
            }
            Err(error) => {
                state.report.errors.push(error);
            }
        }
        units.push(state);
        progress(Phase::Preflight, units.len());
    }

    // Phase 2: build every request.
    let handoff = options.mode == Mode::Handoff;
    let files = WorldFiles(Rc::clone(&env.host));
    for (done, (state, unit)) in units.iter_mut().zip(&planned.units).enumerate() {
        for job in state
            .jobs
            .iter_mut()
            .filter(|j| matches!(j.kind, JobKind::Request))
        {
            match build_request(
                env,
                workflow,
                &unit.unit_id,
                job,
                &execution,
                &files,
                handoff,
            ) {
                Ok(request) => job.request = Some(request),
                Err(error) => job.error = Some(error),
            }
        }
        progress(Phase::Requests, done + 1);
    }

    // Phase 3: dispatch.
    let mut ids = RequestIds::new(options.sandbox.determinism.map(|d| (d.now_ms, d.seed)));
    let mut index = 0;
    for (done, (state, unit)) in units.iter_mut().zip(&planned.units).enumerate() {
        for job in &mut state.jobs {
            if job.error.is_none() && matches!(job.kind, JobKind::Request) {
                dispatch(workflow, &unit.unit_id, index, job, results, &mut ids);
            }
            index += 1;
        }
        progress(Phase::Results, done + 1);
    }

    // Phase 4: apply, then aggregates.
    let Some(apply_hook) = workflow.hook(HookName::ApplyResult) else {
        return Err(RunError::new(
            "applyResult",
            None,
            "Error",
            "the workflow declares no applyResult hook",
        ));
    };
    let mut apply = ApplyEnv {
        hooks: env,
        workflow,
        hook: apply_hook,
        execution: &execution,
    };
    let mut index = 0;
    for (done, (state, unit)) in units.iter_mut().zip(&planned.units).enumerate() {
        let target = unit.selection_context.target_ref().map(|r| r.to_value());
        for job in &mut state.jobs {
            let ready = job.error.is_none()
                && (job.run_result.is_some() || matches!(job.kind, JobKind::ShortCircuit(_)));
            job.apply = if job.aggregate.is_some() {
                ApplyReport::Deferred
            } else if ready {
                apply.apply_job(&unit.unit_id, index, job, &target)
            } else {
                ApplyReport::NotRun
            };
            index += 1;
        }
        progress(Phase::Apply, done + 1);
    }
    let mut index = 0;
    for state in &mut units {
        let first = index;
        index += state.jobs.len();
        let Some(id) = state.jobs.iter().find_map(|j| j.aggregate.clone()) else {
            continue;
        };
        let children: Vec<(usize, &Job)> = state
            .jobs
            .iter()
            .enumerate()
            .map(|(i, j)| (first + i, j))
            .collect();
        let outcome = apply.apply_aggregate(&state.report.unit_id, &id, &children);
        state.report.aggregate = Some(AggregateReport { id, apply: outcome });
    }

    for state in units {
        report.units.push(finish_unit(state));
    }
    report
        .errors
        .extend(report.units.iter().flat_map(|u| u.errors.clone()));
    Ok(())
}

fn run_preflight(
    env: &mut HookEnv<'_>,
    workflow: &Workflow,
    unit: &crate::plan::Unit,
    execution: &ExecutionOptions,
) -> Result<PreflightOutcome, RunError> {
    let Some(hook) = workflow.hook(HookName::Preflight) else {
        return Ok(PreflightOutcome::Continue { context: None });
    };
    let arg = json!({
        "selectionContext": unit.selection_context.to_value(),
        "manifest": workflow.manifest,
        "executionOptions": execution_json(execution),
    });
    let live = vec![json!({"path": ["selectionContext"], "kind": "frozen"})];
    let value = env
        .call(hook, &unit.unit_id, arg, live)
        .map_err(|f| RunError::hook("preflight", &unit.unit_id, f))?;
    let (outcome, lints) = parse_outcome(&value).map_err(|message| {
        RunError::hook(
            "preflight",
            &unit.unit_id,
            crate::hooks::HookFailure::contract(hook, message),
        )
    })?;
    if let Some(record) = env.records.last_mut() {
        lint_logs(record, lints);
    }
    Ok(outcome)
}

fn lint_logs(record: &mut HookRecord, lints: Vec<crate::hooks::preflight::Lint>) {
    for lint in lints {
        record.logs.push(crate::sandbox::LogEntry {
            level: crate::sandbox::LogLevel::Warn,
            message: lint.0,
        });
    }
}

/// The unit's report from its jobs: failures of requests, results or applies.
fn finish_unit(state: UnitState) -> UnitReport {
    let UnitState { mut report, jobs } = state;
    for job in jobs {
        if let Some(error) = &job.error {
            report.errors.push(error.clone());
        }
        if let ApplyReport::Failed { error } = &job.apply {
            report.errors.push(error.clone());
        }
        report.jobs.push(JobReport {
            kind: match job.kind {
                JobKind::Request => "request".into(),
                JobKind::ShortCircuit(_) => "short-circuit".into(),
            },
            subunit_id: job.subunit_id,
            preflight: job.preflight,
            request: job.request,
            request_id: job.request_id,
            result: job.run_result,
            apply: job.apply,
        });
    }
    if let Some(AggregateReport {
        apply: ApplyReport::Failed { error },
        ..
    }) = &report.aggregate
    {
        report.errors.push(error.clone());
    }
    if !report.errors.is_empty() {
        report.status = UnitStatus::Failed;
    }
    report
}
