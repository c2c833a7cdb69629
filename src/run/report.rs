//! The run report: settings used, the plan, per unit what happened, effects,
//! hook calls and every error. Its JSON is stable: object keys keep a fixed
//! order and, in deterministic runs, timings are left out.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::hooks::ShortCircuitApply;
use crate::hooks::{HookFailure, HookRecord, PreflightOutcome};
use crate::host::effects::Effect;
use crate::manifest::ParamWarning;
use crate::plan::Plan;

/// How a unit ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitStatus {
    /// Every request and apply of the unit succeeded.
    Succeeded,
    /// Preflight skipped the unit.
    Skipped,
    /// A hook, request or apply of the unit failed.
    Failed,
}

/// How an apply ended.
#[allow(
    clippy::large_enum_variant,
    reason = "one per job; boxing would only move the allocation"
)]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum ApplyReport {
    /// `applyResult` returned this value.
    Succeeded {
        /// The returned value.
        value: Value,
    },
    /// `applyResult` (or what precedes it) failed.
    Failed {
        /// The failure.
        error: RunError,
    },
    /// Deferred to the aggregate apply.
    Deferred,
    /// Not run, because the request failed.
    NotRun,
}

/// One request (or short-circuit) of a unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobReport {
    /// A request or a short-circuit.
    pub kind: JobKind,
    /// `main`, `short-circuit`, or the replacement unit's id.
    pub subunit_id: String,
    /// The preflight context handed to `buildRequest` / `applyResult`.
    pub preflight: Value,
    /// The request, when one was built.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<Value>,
    /// The provider's (or synthetic) request id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The run result handed to `applyResult`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// How the apply ended.
    pub apply: ApplyReport,
}

/// The aggregate apply of an expanded unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AggregateReport {
    /// The aggregate id.
    pub id: String,
    /// How the single apply ended.
    pub apply: ApplyReport,
}

/// What happened to one planned unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnitReport {
    /// `unit-<n>`.
    pub unit_id: String,
    /// The unit's task name.
    pub task_name: String,
    /// How the unit ended.
    pub status: UnitStatus,
    /// The preflight outcome, when a preflight hook ran and returned a valid one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preflight: Option<PreflightOutcome>,
    /// The skip reason, when skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<String>,
    /// Requests and short-circuits, in order.
    pub jobs: Vec<JobReport>,
    /// The aggregate apply, when preflight declared one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aggregate: Option<AggregateReport>,
    /// Errors of this unit.
    pub errors: Vec<RunError>,
}

/// Where in a run an error happened. Reports name it by [`Stage::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// Starting or driving the run (the sandbox, worker threads).
    Run,
    /// Resolving the settings.
    Settings,
    /// The `normalizeSettings` hook.
    NormalizeSettings,
    /// Input planning.
    Plan,
    /// The `preflight` hook.
    Preflight,
    /// The `buildRequest` hook.
    BuildRequest,
    /// Checking a built request against its kind.
    Request,
    /// The provider answering a request.
    Provider,
    /// The `applyResult` hook and what it is handed.
    ApplyResult,
    /// An aggregate's single apply.
    Aggregate,
}

impl Stage {
    /// The stage's name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Run => "run",
            Stage::Settings => "settings",
            Stage::NormalizeSettings => "normalizeSettings",
            Stage::Plan => "plan",
            Stage::Preflight => "preflight",
            Stage::BuildRequest => "buildRequest",
            Stage::Request => "request",
            Stage::Provider => "provider",
            Stage::ApplyResult => "applyResult",
            Stage::Aggregate => "aggregate",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Stage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// An error in a run, with where it happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunError {
    /// The stage.
    pub stage: Stage,
    /// The unit, when the error belongs to one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_id: Option<String>,
    /// Error name (`ProviderRequestContractError`, `TypeError`, …).
    pub name: String,
    /// The message.
    pub message: String,
    /// The failing hook, when a hook failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hook: Option<HookFailure>,
    /// Further properties (`code`, `category`, `requiredFields`, …).
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub details: Map<String, Value>,
}

impl RunError {
    /// An error that is not a hook's.
    pub fn new(
        stage: Stage,
        unit_id: Option<&str>,
        name: &str,
        message: impl Into<String>,
    ) -> RunError {
        RunError {
            stage,
            unit_id: unit_id.map(str::to_string),
            name: name.to_string(),
            message: message.into(),
            hook: None,
            details: Map::new(),
        }
    }

    /// A hook's failure.
    pub fn hook(stage: Stage, unit_id: &str, failure: HookFailure) -> RunError {
        RunError {
            stage,
            unit_id: Some(unit_id.to_string()),
            name: failure.name.clone(),
            message: failure.message.clone(),
            hook: Some(failure),
            details: Map::new(),
        }
    }

    /// Adds properties.
    pub fn with_details(mut self, details: Map<String, Value>) -> RunError {
        self.details = details;
        self
    }
}

/// Settings as the run used them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SettingsReport {
    /// Effective workflow parameters (defaults, normalised values, hook patches).
    pub workflow_params: Map<String, Value>,
    /// Provider options.
    pub provider_options: Map<String, Value>,
    /// Every value that was coerced, replaced or dropped.
    pub warnings: Vec<ParamWarning>,
}

/// Counts over the whole run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Planned units.
    pub units: usize,
    /// Units that succeeded.
    pub succeeded: usize,
    /// Units preflight skipped.
    pub skipped: usize,
    /// Units that failed.
    pub failed: usize,
    /// Requests built (short-circuits included).
    pub requests: usize,
    /// Effects recorded.
    pub effects: usize,
}

/// Everything a run did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    /// The workflow id.
    pub workflow_id: String,
    /// Settings used.
    pub settings: SettingsReport,
    /// The input plan (absent when the run stopped before planning).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<Value>,
    /// Per unit, in order.
    pub units: Vec<UnitReport>,
    /// Recorded host writes, in call order.
    pub effects: Vec<Effect>,
    /// The products hooks registered (`productStorage.registerProduct`), by
    /// product id, as the last registration of each left them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub products: BTreeMap<String, Value>,
    /// Every hook call, in order, with logs and usage.
    pub hooks: Vec<HookRecord>,
    /// Every error: run-level and unit-level.
    pub errors: Vec<RunError>,
    /// Counts.
    pub summary: Summary,
}

impl RunReport {
    /// Whether every unit ended well (skips count as well) and nothing failed.
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// The plan as typed data is not kept; this is its JSON.
    pub(crate) fn plan_json(plan: &Plan) -> Value {
        serde_json::to_value(plan).unwrap_or(Value::Null)
    }

    /// The report's JSON. `deterministic` drops wall-clock and heap figures,
    /// which vary between runs of the same input.
    pub fn to_json(&self, deterministic: bool) -> Value {
        let mut value = serde_json::to_value(self).unwrap_or(Value::Null);
        if deterministic && let Some(hooks) = value.get_mut("hooks").and_then(Value::as_array_mut) {
            hooks.iter_mut().for_each(drop_figures);
        }
        value
    }

    /// Writes the report's JSON ([`RunReport::to_json`]) and a newline to
    /// `out`. Unless `deterministic` asks for figures to be dropped, the
    /// report is serialised as it streams out, without a second copy of it in
    /// memory.
    pub fn write_json(
        &self,
        mut out: impl std::io::Write,
        deterministic: bool,
    ) -> std::io::Result<()> {
        if deterministic {
            serde_json::to_writer(&mut out, &self.to_json(true))?;
        } else {
            crate::selection::write_compact(&mut out, self)?;
        }
        writeln!(out)?;
        out.flush()
    }
}

/// Drops a hook record's wall-clock and heap figures, which vary between runs
/// of the same input.
pub(crate) fn drop_figures(hook: &mut Value) {
    if let Some(usage) = hook.get_mut("usage").and_then(Value::as_object_mut) {
        usage.remove("wallMs");
        usage.remove("heapUsedBytes");
    }
}

/// What a job does. Reports name it `request` or `short-circuit`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum JobKind {
    /// A provider request.
    Request,
    /// A preflight short-circuit: apply without a request.
    ShortCircuit(Box<ShortCircuitApply>),
}

impl JobKind {
    /// The kind's name in reports.
    pub fn as_str(&self) -> &'static str {
        match self {
            JobKind::Request => "request",
            JobKind::ShortCircuit(_) => "short-circuit",
        }
    }
}

impl serde::Serialize for JobKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
