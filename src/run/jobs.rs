//! From preflight outcomes to jobs: one request per unit or replacement unit,
//! or a short-circuit; building each request and getting its result.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::hooks::{CallUnit, HookEnv, Live, PreflightOutcome, hook_arg};
use crate::manifest::{HookName, Workflow};
use crate::plan::Unit;
use crate::request::{self, AttachmentFiles, ExecutionOptions};
use crate::run::report::{ApplyReport, JobKind, RunError, Stage};
use crate::run::results::{BundleSource, JobRequest, ProviderResult, ResultSource};
use crate::selection::SelectionContext;

/// One request (or short-circuit) of a unit, as it moves through the run.
#[derive(Debug)]
pub struct Job {
    /// `main`, `short-circuit` or the replacement unit's id.
    pub subunit_id: String,
    /// What the job does.
    pub kind: JobKind,
    /// `{planId, unitId, unitOrder, context?, aggregate?}`.
    pub preflight: Value,
    /// The aggregate this job is a child of.
    pub aggregate: Option<String>,
    /// Sort key among aggregate children.
    pub order: f64,
    /// The selection the request is built from (the unit's own, shared).
    pub selection: Arc<SelectionContext>,
    /// `selection` as hooks receive it, built once for all the job's hooks.
    pub selection_json: Arc<Value>,
    /// The built (or synthetic) request.
    pub request: Option<Value>,
    /// The provider's request id.
    pub request_id: Option<String>,
    /// The run result handed to `applyResult`.
    pub run_result: Option<Value>,
    /// The result bundle.
    pub bundle: Option<BundleSource>,
    /// Why the job failed before apply.
    pub error: Option<RunError>,
    /// How its apply ended.
    pub apply: ApplyReport,
}

impl Job {
    fn new(
        subunit_id: &str,
        kind: JobKind,
        preflight: Value,
        (selection, selection_json): (Arc<SelectionContext>, Arc<Value>),
    ) -> Job {
        Job {
            subunit_id: subunit_id.to_string(),
            kind,
            preflight,
            aggregate: None,
            order: 0.0,
            selection,
            selection_json,
            request: None,
            request_id: None,
            run_result: None,
            bundle: None,
            error: None,
            apply: ApplyReport::NotRun,
        }
    }

    /// Whether the job got a successful result.
    pub fn succeeded(&self) -> bool {
        self.error.is_none() && self.run_result.is_some()
    }
}

fn preflight_context(
    plan_id: &str,
    unit_id: &str,
    order: Value,
    context: Option<&Map<String, Value>>,
) -> Value {
    let mut ctx = json!({"planId": plan_id, "unitId": unit_id, "unitOrder": order});
    if let Some(context) = context.filter(|c| !c.is_empty()) {
        ctx["context"] = Value::Object(context.clone());
    }
    ctx
}

/// The jobs a unit's preflight outcome asks for (contract 03 §2.3);
/// `selection_json` is the unit's selection as hooks receive it.
pub fn jobs_for(unit: &Unit, outcome: &PreflightOutcome, selection_json: &Arc<Value>) -> Vec<Job> {
    let plan_id = unit.unit_id.as_str();
    let own = || (unit.selection_context.context(), Arc::clone(selection_json));
    match outcome {
        PreflightOutcome::Skip { .. } => Vec::new(),
        PreflightOutcome::Continue { context } => vec![Job::new(
            "main",
            JobKind::Request,
            preflight_context(plan_id, "main", json!(0), context.as_ref()),
            own(),
        )],
        PreflightOutcome::ShortCircuit { apply, context } => vec![Job::new(
            "short-circuit",
            JobKind::ShortCircuit(apply.clone()),
            preflight_context(plan_id, "short-circuit", json!(0), context.as_ref()),
            own(),
        )],
        PreflightOutcome::Expand {
            units,
            aggregate,
            context,
        } => units
            .iter()
            .enumerate()
            .map(|(i, replacement)| {
                let order_json = replacement.order.clone().map_or(json!(i), Value::Number);
                let order = order_json.as_f64().unwrap_or(i as f64);
                let mut merged = context.clone().unwrap_or_default();
                merged.extend(replacement.context.clone().unwrap_or_default());
                let mut ctx =
                    preflight_context(plan_id, &replacement.id, order_json, Some(&merged));
                if let Some(aggregate) = aggregate {
                    ctx["aggregate"] = json!({"id": aggregate.id, "mode": "single-apply"});
                }
                let selection = replacement
                    .selection_context
                    .as_ref()
                    .and_then(|s| {
                        let parsed = SelectionContext::from_value(s).ok()?;
                        let json = parsed.to_value();
                        Some((Arc::new(parsed), Arc::new(json)))
                    })
                    .unwrap_or_else(own);
                let mut job = Job::new(&replacement.id, JobKind::Request, ctx, selection);
                job.aggregate = aggregate.as_ref().map(|a| a.id.clone());
                job.order = order;
                job
            })
            .collect(),
    }
}

/// Builds the request of a request job: the `buildRequest` hook when declared,
/// else the declarative compiler; then the contract's post-processing.
pub fn build_request(
    env: &mut HookEnv<'_>,
    workflow: &Workflow,
    unit_id: &str,
    job: &Job,
    execution: &ExecutionOptions,
    files: &dyn AttachmentFiles,
    handoff: bool,
) -> Result<Value, RunError> {
    let contract_error = |e: request::RequestError| {
        let details = match &e {
            request::RequestError::Contract(c) => serde_json::to_value(c)
                .ok()
                .and_then(|v| v.as_object().cloned())
                .unwrap_or_default(),
            _ => Map::new(),
        };
        RunError::new(Stage::Request, Some(unit_id), e.name(), e.to_string()).with_details(details)
    };
    match workflow.hook(HookName::BuildRequest) {
        Some(hook) => {
            let mut arg = hook_arg([
                ("selectionContext", Value::Null),
                ("manifest", Value::Null),
                ("executionOptions", execution_json(execution)),
            ]);
            if workflow.hook(HookName::Preflight).is_some() {
                arg["preflight"] = job.preflight.clone();
            }
            let live = vec![Live::frozen("selectionContext")];
            let built = env
                .call(
                    hook,
                    job_unit(unit_id, job),
                    &mut arg,
                    &[("selectionContext", &job.selection_json)],
                    live,
                    std::slice::from_ref(&job.selection_json),
                )
                .map_err(|f| RunError::hook(Stage::BuildRequest, unit_id, f))?;
            request::finish(workflow, &job.selection, built).map_err(contract_error)
        }
        None => request::compile(workflow, &job.selection, execution, files, handoff)
            .map_err(contract_error),
    }
}

/// `executionOptions` as hooks receive it.
pub fn execution_json(execution: &ExecutionOptions) -> Value {
    serde_json::to_value(execution).unwrap_or(Value::Null)
}

/// The unit hooks and effects of `job` of unit `unit_id` are attributed to:
/// the unit itself, or its replacement unit.
pub fn job_unit<'a>(unit_id: &'a str, job: &'a Job) -> CallUnit<'a> {
    CallUnit {
        unit: unit_id,
        replacement: match job.kind {
            JobKind::ShortCircuit(_) => None,
            JobKind::Request if job.subunit_id == "main" => None,
            JobKind::Request => Some(&job.subunit_id),
        },
    }
}

/// Gets the result of a built request from `source`; a pass-through request
/// only gets its id here, in run order, and its result from [`settle`] where
/// the unit is applied.
pub fn dispatch(
    workflow: &Workflow,
    unit_id: &str,
    index: usize,
    job: &mut Job,
    source: &mut dyn ResultSource,
    ids: &mut RequestIds,
) {
    let Some(request) = &job.request else {
        return;
    };
    if workflow.is_pass_through() {
        job.request_id = Some(ids.pass_through());
        return;
    }
    let request = request.clone();
    let asked = JobRequest {
        index,
        unit_id: unit_id.to_string(),
        subunit_id: job.subunit_id.clone(),
        request,
    };
    match source.result(&asked) {
        ProviderResult::Failed { message } => {
            job.error = Some(RunError::new(
                Stage::Provider,
                Some(unit_id),
                "Error",
                message,
            ));
        }
        ProviderResult::Succeeded {
            request_id,
            result_json,
            bundle,
            extra,
        } => {
            let request_id = request_id
                .unwrap_or_else(|| safe_id(&format!("{}-{}-{index}", workflow.id, asked.key())));
            let mut result = extra;
            result.insert("status".into(), json!("succeeded"));
            result.insert("requestId".into(), json!(request_id));
            result.insert("backendType".into(), json!(workflow.provider.as_str()));
            result.insert("backendId".into(), json!(workflow.provider.as_str()));
            result.insert("runKey".into(), json!(request_id));
            result.insert("runId".into(), json!(request_id));
            result.insert(
                "fetchType".into(),
                json!(if bundle.is_some() { "bundle" } else { "result" }),
            );
            if let Some(json) = result_json {
                result.insert("responseJson".into(), json.clone());
                result.insert("resultJson".into(), json);
            }
            job.run_result = Some(Value::Object(result));
            job.request_id = Some(request_id);
            job.bundle = bundle;
        }
    }
}

/// Makes the result of a dispatched pass-through request, which is its request
/// echoed back; other jobs are left as they are. Done where the unit is applied,
/// so that a threaded run makes it on the thread that applies the unit.
pub fn settle(workflow: &Workflow, job: &mut Job) {
    if !workflow.is_pass_through() || job.run_result.is_some() {
        return;
    }
    if let (Some(request), Some(request_id)) = (&job.request, &job.request_id) {
        job.run_result = Some(request::pass_through_result(request, request_id.clone()));
    }
}

/// `text` with every character outside `[A-Za-z0-9._:-]` replaced by `-`, as
/// the contract builds synthetic request ids.
pub fn safe_id(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._:-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Request ids of the pass-through provider:
/// `pass-through-<timestamp base36>-<6 characters>`.
pub struct RequestIds {
    now_ms: u64,
    state: u64,
}

impl RequestIds {
    /// Ids from a frozen clock and seed (deterministic runs), or the real clock.
    pub fn new(frozen: Option<(i64, u32)>) -> RequestIds {
        match frozen {
            Some((now, seed)) => RequestIds {
                now_ms: now.max(0) as u64,
                state: u64::from(seed) | 1,
            },
            None => {
                use std::hash::{BuildHasher, RandomState};
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_millis() as u64)
                    .unwrap_or_default();
                RequestIds {
                    now_ms: now,
                    state: RandomState::new().hash_one(now) | 1,
                }
            }
        }
    }

    fn pass_through(&mut self) -> String {
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        let random: String = (0..6)
            .map(|_| {
                self.state ^= self.state << 13;
                self.state ^= self.state >> 7;
                self.state ^= self.state << 17;
                ALPHABET[(self.state % ALPHABET.len() as u64) as usize] as char
            })
            .collect();
        request::pass_through_request_id(self.now_ms, &random)
    }
}
