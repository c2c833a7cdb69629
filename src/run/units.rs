//! One unit through each phase of a run. The runner decides where and in which
//! order units go through a phase (all on the caller's thread, or in chunks on
//! it and worker threads); what happens to one unit in one phase is decided here.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use crate::hooks::bridge::Bridge;
use crate::hooks::{
    CallUnit, HookEnv, HookRecord, Live, PreflightOutcome, hook_arg, parse_outcome,
};
use crate::manifest::{HookName, Workflow};
use crate::plan::Unit;
use crate::request::{AttachmentFiles, AttachmentRef, ExecutionOptions};
use crate::run::apply::ApplyEnv;
use crate::run::jobs::{
    Job, RequestIds, build_request, dispatch, execution_json, jobs_for, settle,
};
use crate::run::report::{
    AggregateReport, ApplyReport, JobKind, JobReport, RunError, Stage, UnitReport, UnitStatus,
};
use crate::run::results::ResultSource;

/// A unit's progress through the phases.
pub(crate) struct UnitState {
    pub report: UnitReport,
    pub jobs: Vec<Job>,
}

impl UnitState {
    /// Whether one of the unit's jobs is the child of an aggregate, which the
    /// unit's report waits for.
    pub fn waits_for_aggregate(&self) -> bool {
        self.jobs.iter().any(|job| job.aggregate.is_some())
    }
}

/// What every phase of one run shares.
pub(crate) struct Phases<'a> {
    pub workflow: &'a Workflow,
    pub execution: &'a ExecutionOptions,
    /// Requests are built for a hand-off (files travel by path).
    pub handoff: bool,
}

impl Phases<'_> {
    /// Phase 1: the unit's preflight and the jobs it asks for.
    pub fn preflight(&self, env: &mut HookEnv<'_>, unit: &Unit) -> UnitState {
        let mut state = UnitState {
            report: UnitReport {
                unit_id: unit.unit_id.clone(),
                task_name: unit.task_name.to_string(),
                status: UnitStatus::Succeeded,
                preflight: None,
                skip_reason: None,
                jobs: Vec::new(),
                aggregate: None,
                errors: Vec::new(),
            },
            jobs: Vec::new(),
        };
        let selection = Arc::new(unit.selection_context.to_value());
        match run_preflight(env, self.workflow, unit, &selection, self.execution) {
            Ok(outcome) => {
                state.jobs = jobs_for(unit, &outcome, &selection);
                if let PreflightOutcome::Skip { reason } = &outcome {
                    state.report.status = UnitStatus::Skipped;
                    state.report.skip_reason = reason.clone();
                }
                if self.workflow.hook(HookName::Preflight).is_some() {
                    state.report.preflight = Some(outcome);
                }
            }
            Err(error) => state.report.errors.push(error),
        }
        state
    }

    /// Phase 2: builds the request of every request job of the unit.
    pub fn build_requests(&self, env: &mut HookEnv<'_>, unit: &Unit, state: &mut UnitState) {
        let files = WorldFiles(Rc::clone(&env.host));
        for job in state
            .jobs
            .iter_mut()
            .filter(|j| matches!(j.kind, JobKind::Request))
        {
            match build_request(
                env,
                self.workflow,
                &unit.unit_id,
                job,
                self.execution,
                &files,
                self.handoff,
            ) {
                Ok(request) => job.request = Some(request),
                Err(error) => job.error = Some(error),
            }
        }
    }

    /// Phase 3: hands the unit's built requests to the provider. `first` is
    /// the run-wide index of the unit's first job.
    pub fn dispatch(
        &self,
        unit: &Unit,
        state: &mut UnitState,
        first: usize,
        results: &mut dyn ResultSource,
        ids: &mut RequestIds,
    ) {
        for (i, job) in state.jobs.iter_mut().enumerate() {
            if job.error.is_none() && matches!(job.kind, JobKind::Request) {
                dispatch(self.workflow, &unit.unit_id, first + i, job, results, ids);
            }
        }
    }

    /// Phase 4: applies every job of the unit that is not an aggregate child.
    pub fn apply(
        &self,
        apply: &mut ApplyEnv<'_, '_>,
        unit: &Unit,
        state: &mut UnitState,
        first: usize,
    ) {
        let target = unit.selection_context.target_ref().map(|r| r.to_value());
        for (i, job) in state.jobs.iter_mut().enumerate() {
            settle(self.workflow, job);
            let ready = job.error.is_none()
                && (job.run_result.is_some() || matches!(job.kind, JobKind::ShortCircuit(_)));
            job.apply = if job.aggregate.is_some() {
                ApplyReport::Deferred
            } else if ready {
                apply.apply_job(&unit.unit_id, first + i, job, &target)
            } else {
                ApplyReport::NotRun
            };
        }
    }

    /// Phase 4, after the window's applies: the unit's aggregate, if it has one.
    pub fn aggregate(&self, apply: &mut ApplyEnv<'_, '_>, state: &mut UnitState, first: usize) {
        let Some(id) = state.jobs.iter().find_map(|j| j.aggregate.clone()) else {
            return;
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
}

/// The attachment files the declarative compiler uploads, from the host world.
struct WorldFiles(Rc<RefCell<Bridge>>);

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

fn run_preflight(
    env: &mut HookEnv<'_>,
    workflow: &Workflow,
    unit: &Unit,
    selection: &Arc<Value>,
    execution: &ExecutionOptions,
) -> Result<PreflightOutcome, RunError> {
    let Some(hook) = workflow.hook(HookName::Preflight) else {
        return Ok(PreflightOutcome::Continue { context: None });
    };
    let mut arg = hook_arg([
        ("selectionContext", Value::Null),
        ("manifest", Value::Null),
        ("executionOptions", execution_json(execution)),
    ]);
    let live = vec![Live::frozen("selectionContext")];
    let value = env
        .call(
            hook,
            CallUnit::unit(&unit.unit_id),
            &mut arg,
            &[("selectionContext", selection)],
            live,
            std::slice::from_ref(selection),
        )
        .map_err(|f| RunError::hook(Stage::Preflight, &unit.unit_id, f))?;
    let (outcome, lints) = parse_outcome(&value).map_err(|message| {
        RunError::hook(
            Stage::Preflight,
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
pub(crate) fn finish_unit(state: UnitState) -> UnitReport {
    let UnitState { mut report, jobs } = state;
    for job in jobs {
        if let Some(error) = &job.error {
            report.errors.push(error.clone());
        }
        if let ApplyReport::Failed { error } = &job.apply {
            report.errors.push(error.clone());
        }
        report.jobs.push(JobReport {
            kind: job.kind,
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
