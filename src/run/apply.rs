//! The apply phase: `applyResult` per job with its bundle reader and result
//! context, short-circuit applies, and aggregate single applies (contract 03 §2.3, §4).

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::bundle::{
    BundleError, BundleReader, ResultContext, ResultContextOptions, ZipBundle, ZipOptions,
};
use crate::hooks::{CallUnit, HookEnv, Live, ShortCircuitApply, Step, hook_arg};
use crate::host::products::ProductOwner;
use crate::manifest::{DeclaredHook, HookName, Workflow};
use crate::request::ExecutionOptions;
use crate::run::jobs::{Job, execution_json, job_unit, safe_id};
use crate::run::report::{ApplyReport, JobKind, RunError, Stage};
use crate::run::results::BundleSource;

/// Why `applyResult` could not be handed a job's result.
#[derive(Debug, thiserror::Error)]
enum ApplyError {
    /// The provider's result named no request.
    #[error("missing requestId in execution result")]
    MissingRequestId,
    /// The request names no parent item the workflow could write to.
    #[error("cannot resolve target parent")]
    NoTargetParent,
    /// The result bundle or its result JSON could not be read.
    #[error(transparent)]
    Bundle(#[from] BundleError),
}

impl ApplyError {
    /// The error as the run reports it, at `stage` of `unit_id`.
    fn at(&self, stage: Stage, unit_id: &str) -> RunError {
        RunError::new(stage, Some(unit_id), "Error", self.to_string())
    }
}

/// What one `applyResult` call gets besides the common arguments.
struct Apply {
    context_id: String,
    parent: Value,
    request: Value,
    run_result: Value,
    reader: BundleReader,
    preflight: Option<Value>,
    aggregate_children: Vec<Value>,
    children_live: Vec<Live>,
    /// The selections the request and result repeat ([`HookEnv::call`]).
    shared: Vec<Arc<Value>>,
    /// The run result is the pass-through provider's, whose `responseJson`
    /// is its `resultJson`.
    echoes: bool,
}

/// Everything the apply phase shares.
pub struct ApplyEnv<'a, 'b> {
    /// Hook calls.
    pub hooks: &'a mut HookEnv<'b>,
    /// The workflow.
    pub workflow: &'a Workflow,
    /// The declared `applyResult` hook.
    pub hook: &'a DeclaredHook,
    /// `executionOptions`.
    pub execution: &'a ExecutionOptions,
}

impl<'a, 'b> ApplyEnv<'a, 'b> {
    /// The `applyResult` call environment of `workflow`, which must declare the
    /// hook.
    pub fn new(
        hooks: &'a mut HookEnv<'b>,
        workflow: &'a Workflow,
        execution: &'a ExecutionOptions,
    ) -> Result<ApplyEnv<'a, 'b>, RunError> {
        Ok(ApplyEnv {
            hooks,
            workflow,
            hook: apply_hook(workflow)?,
            execution,
        })
    }
}

impl ApplyEnv<'_, '_> {
    fn result_options(&self) -> ResultContextOptions {
        ResultContextOptions {
            expects_result_json: self
                .workflow
                .manifest
                .pointer("/result/expects/result_json")
                .and_then(Value::as_str)
                .map(str::to_string),
            result_json_in_place: true,
            ..ResultContextOptions::default()
        }
    }

    /// Registers a result context for `run_result` read through `reader`; returns
    /// its JSON data part and, for the hook argument where the data part is at
    /// `context` and the run result at `run`, the aliases that make its result
    /// JSON (and envelope) the very objects the run result holds, as on the
    /// reference host; their places in the data part are `null`.
    fn register(
        &self,
        id: &str,
        run_result: &Value,
        reader: BundleReader,
        [context, run]: [&[Step]; 2],
    ) -> Result<(Value, Vec<Live>), ApplyError> {
        let no_local_files = |_: &std::path::Path| None;
        let mut context_of =
            ResultContext::new(run_result, reader, self.result_options(), &no_local_files)?;
        let aliases = match context_of.resolved().in_run_result {
            None => Vec::new(),
            Some(place) => {
                let mut aliases = vec![Live::alias(
                    below(context, &["resultJson"]),
                    below(run, place.result_json_path()),
                )];
                if let Some(envelope) = place.envelope_path() {
                    aliases.push(Live::alias(
                        below(context, &["envelope"]),
                        below(run, envelope),
                    ));
                }
                aliases
            }
        };
        let data = context_of.take_data();
        self.hooks.host.borrow_mut().add_context(id, context_of);
        Ok((data, aliases))
    }

    /// Gives the result context `id` its product storage, registering for the
    /// request and run result of the call, as on the reference host.
    fn hand_product_storage(&self, id: &str, request: &Value, run_result: &Value) {
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let workflow = (self.workflow.id.as_str(), self.workflow.label.as_str());
        let owner = ProductOwner::of(workflow, request, run_result, now_ms);
        self.hooks.host.borrow_mut().add_product_storage(id, owner);
    }

    /// Calls `applyResult`; hands back the request and run result it was
    /// given, for the job to keep.
    fn call(&mut self, at: CallUnit<'_>, apply: Apply) -> (ApplyReport, [Value; 2]) {
        let attributed = at.id();
        let unit_id = attributed.as_str();
        let id = apply.context_id.clone();
        let reader_kind = apply.reader.kind();
        let places = [
            &[Step::key("resultContext")][..],
            &[Step::key("runResult")][..],
        ];
        let mut run_result = apply.run_result;
        let (mut data, mut aliases) = match self.register(&id, &run_result, apply.reader, places) {
            Ok(registered) => registered,
            Err(e) => {
                let error = e.at(Stage::ApplyResult, unit_id);
                return (ApplyReport::Failed { error }, [apply.request, run_result]);
            }
        };
        let mut response = None;
        if apply.echoes
            && let Some((taken, alias)) = alias_response(&mut run_result, &[Step::key("runResult")])
        {
            aliases.push(alias);
            response = Some(taken);
        }
        add_apply_context(&mut data, &id, apply.preflight, apply.aggregate_children);
        self.hand_product_storage(&id, &apply.request, &run_result);
        let mut arg = hook_arg([
            ("parent", apply.parent),
            // The context's id, where its reader goes (`Live::result_context`).
            ("bundleReader", Value::from(id.as_str())),
            ("resultContext", data),
            // The context's id, where its product storage goes.
            ("productStorage", Value::from(id.as_str())),
            ("request", apply.request),
            ("runResult", run_result),
            ("manifest", Value::Null),
            ("executionOptions", execution_json(self.execution)),
        ]);
        let live = apply_live(reader_kind.as_str(), aliases, apply.children_live);
        let result = self
            .hooks
            .call(self.hook, at, &mut arg, &[], live, &apply.shared);
        self.hooks.host.borrow_mut().remove_context(&id);
        let mut run_result = arg["runResult"].take();
        if let Some(response) = response {
            run_result["responseJson"] = response;
        }
        let given = [arg["request"].take(), run_result];
        let report = match result {
            Ok(value) => ApplyReport::Succeeded { value },
            Err(failure) => ApplyReport::Failed {
                error: RunError::hook(Stage::ApplyResult, unit_id, failure),
            },
        };
        (report, given)
    }

    /// Applies one job that is not an aggregate child.
    pub fn apply_job(
        &mut self,
        unit_id: &str,
        index: usize,
        job: &mut Job,
        target: &Option<Value>,
    ) -> ApplyReport {
        let short_circuit = match &job.kind {
            JobKind::ShortCircuit(apply) => Some(self.short_circuit(unit_id, job, apply, target)),
            JobKind::Request => None,
        };
        let lent = (job.request.is_some(), job.run_result.is_some());
        let apply = match short_circuit {
            Some(apply) => apply,
            None => match self.request_apply(index, job) {
                Ok(apply) => apply,
                Err(e) => {
                    let error = e.at(Stage::ApplyResult, unit_id);
                    return ApplyReport::Failed { error };
                }
            },
        };
        let (report, [request, run_result]) = self.call(job_unit(unit_id, job), apply);
        if matches!(job.kind, JobKind::Request) {
            job.request = lent.0.then_some(request);
            job.run_result = lent.1.then_some(run_result);
        }
        report
    }

    /// The apply of a request job; lends it the job's request and run result,
    /// which [`apply_job`](Self::apply_job) puts back after the call.
    fn request_apply(&self, index: usize, job: &mut Job) -> Result<Apply, ApplyError> {
        let request_id = job.request_id.clone().ok_or(ApplyError::MissingRequestId)?;
        let parent = target_parent(job.request.as_ref().unwrap_or(&Value::Null));
        if parent.is_null() && requires_selection(self.workflow) {
            return Err(ApplyError::NoTargetParent);
        }
        let reader = open_reader(&request_id, job.bundle.as_ref())?;
        Ok(Apply {
            context_id: format!("job-{index}"),
            parent,
            request: job.request.take().unwrap_or(Value::Null),
            run_result: job.run_result.take().unwrap_or(Value::Null),
            reader,
            preflight: self.preflight_of(job),
            aggregate_children: Vec::new(),
            children_live: Vec::new(),
            shared: vec![Arc::clone(&job.selection_json)],
            echoes: self.echoes(job),
        })
    }

    /// Whether `job`'s run result is the pass-through provider's.
    fn echoes(&self, job: &Job) -> bool {
        self.workflow.is_pass_through() && matches!(job.kind, JobKind::Request)
    }

    fn preflight_of(&self, job: &Job) -> Option<Value> {
        self.hooks
            .workflow
            .hook(crate::manifest::HookName::Preflight)
            .map(|_| job.preflight.clone())
    }

    fn short_circuit(
        &self,
        unit_id: &str,
        job: &Job,
        apply: &ShortCircuitApply,
        target: &Option<Value>,
    ) -> Apply {
        let request_id = safe_id(&format!(
            "preflight-{}-{unit_id}-short-circuit",
            self.workflow.id
        ));
        let task_name = job
            .selection
            .target_ref()
            .map(|r| r.key)
            .unwrap_or_default();
        let request = apply.request.clone().unwrap_or_else(
            || json!({"kind": "workflow.preflight.short-circuit.v1", "taskName": task_name}),
        );
        let mut run_result: Map<String, Value> = apply.run_result.clone().unwrap_or_default();
        run_result.insert("status".into(), json!("succeeded"));
        run_result.insert("requestId".into(), json!(request_id));
        run_result.insert("fetchType".into(), json!("result"));
        run_result.insert("resultJson".into(), apply.result_json.clone());
        run_result.insert("responseJson".into(), apply.result_json.clone());
        Apply {
            context_id: request_id.clone(),
            parent: apply
                .parent
                .clone()
                .or_else(|| target.clone())
                .unwrap_or(Value::Null),
            request,
            run_result: Value::Object(run_result),
            reader: BundleReader::Unavailable(crate::bundle::UnavailableBundle::new(&request_id)),
            preflight: self.preflight_of(job),
            aggregate_children: Vec::new(),
            children_live: Vec::new(),
            shared: vec![Arc::clone(&job.selection_json)],
            echoes: false,
        }
    }

    /// The single apply of an aggregate, once every child succeeded.
    pub fn apply_aggregate(
        &mut self,
        unit_id: &str,
        id: &str,
        children: &[(usize, &Job)],
    ) -> ApplyReport {
        if let Some(pos) = children
            .iter()
            .position(|(_, job)| !job.succeeded() || job.request_id.is_none())
        {
            let error = RunError::new(
                Stage::Aggregate,
                Some(unit_id),
                "Error",
                format!("aggregate child failed: index={}", children[pos].0),
            );
            return ApplyReport::Failed { error };
        }
        let mut sorted: Vec<&(usize, &Job)> = children.iter().collect();
        sorted.sort_by(|a, b| a.1.order.total_cmp(&b.1.order));
        let Children {
            registered,
            values: child_values,
            live: children_live,
        } = match self.register_children(&sorted) {
            Ok(registered) => registered,
            Err(e) => {
                return ApplyReport::Failed {
                    error: e.at(Stage::Aggregate, unit_id),
                };
            }
        };
        let first_parent = sorted
            .first()
            .map(|(_, job)| target_parent(job.request.as_ref().unwrap_or(&Value::Null)))
            .unwrap_or(Value::Null);
        let aggregate_id = format!("aggregate-{id}");
        let synthetic = json!({"kind": "workflow.preflight.aggregate.v1", "aggregateId": id});
        let apply = Apply {
            context_id: aggregate_id.clone(),
            parent: first_parent,
            request: synthetic.clone(),
            run_result: json!({
                "status": "succeeded", "requestId": aggregate_id, "fetchType": "result",
                "resultJson": synthetic, "responseJson": synthetic,
            }),
            reader: BundleReader::Unavailable(crate::bundle::UnavailableBundle::new(&aggregate_id)),
            preflight: None,
            aggregate_children: child_values,
            children_live,
            shared: sorted
                .iter()
                .map(|(_, job)| Arc::clone(&job.selection_json))
                .collect(),
            echoes: false,
        };
        let (report, _) = self.call(CallUnit::unit(unit_id), apply);
        self.remove_contexts(registered);
        report
    }

    /// Registers the result contexts of an aggregate's children, in apply
    /// order: their ids, their entries of `resultContext.aggregate.children` and
    /// the live objects made inside them. On a failure none stays registered.
    fn register_children(&self, sorted: &[&(usize, &Job)]) -> Result<Children, ApplyError> {
        let (mut registered, mut values, mut live) = (Vec::new(), Vec::new(), Vec::new());
        for (i, (index, job)) in sorted.iter().enumerate() {
            let child_id = format!("job-{index}");
            match self.aggregate_child(i, &child_id, job) {
                Ok((value, made)) => {
                    registered.push(child_id);
                    values.push(value);
                    live.extend(made);
                }
                Err(e) => {
                    self.remove_contexts(registered);
                    return Err(e);
                }
            }
        }
        Ok(Children {
            registered,
            values,
            live,
        })
    }

    /// Registers the result context `child_id` of an aggregate's child, `i`th
    /// in apply order; returns its entry of `resultContext.aggregate.children`
    /// and the live objects made inside it.
    fn aggregate_child(
        &self,
        i: usize,
        child_id: &str,
        job: &Job,
    ) -> Result<(Value, Vec<Live>), ApplyError> {
        let request_id = job.request_id.clone().unwrap_or_default();
        let mut run_result = job.run_result.clone().unwrap_or(Value::Null);
        let reader = open_reader(&request_id, job.bundle.as_ref())?;
        let kind = reader.kind();
        let path = |leaf: &str| {
            vec![
                Step::key("resultContext"),
                Step::key("aggregate"),
                Step::key("children"),
                Step::Index(i),
                Step::key(leaf),
            ]
        };
        let places = [&path("resultContext")[..], &path("runResult")[..]];
        let (mut data, mut aliases) = self.register(child_id, &run_result, reader, places)?;
        if self.echoes(job) {
            // The argument's copy: the job keeps its own.
            aliases.extend(
                alias_response(&mut run_result, &path("runResult")).map(|(_, alias)| alias),
            );
        }
        data["preflight"] = job.preflight.clone();
        // By move: `json!` would serialise a copy of each embedded value.
        let value = hook_arg([
            ("unitId", Value::from(job.subunit_id.as_str())),
            ("order", job.preflight["unitOrder"].clone()),
            (
                "context",
                job.preflight.get("context").cloned().unwrap_or(Value::Null),
            ),
            ("request", job.request.clone().unwrap_or(Value::Null)),
            ("runResult", run_result),
            ("resultContext", data),
            // The context's id, where its reader goes (`Live::result_context`).
            ("bundleReader", Value::from(child_id)),
        ]);
        let mut live = vec![Live::result_context(
            path("resultContext"),
            path("bundleReader"),
            kind.as_str(),
        )];
        live.extend(aliases);
        Ok((value, live))
    }

    fn remove_contexts(&self, ids: Vec<String>) {
        let mut host = self.hooks.host.borrow_mut();
        for id in ids {
            host.remove_context(&id);
        }
    }
}

/// `base` followed by the members `keys`.
fn below(base: &[Step], keys: &[&str]) -> Vec<Step> {
    base.iter()
        .cloned()
        .chain(keys.iter().map(|k| Step::key(k)))
        .collect()
}

/// For a run result whose `responseJson` is its `resultJson` (the pass-through
/// provider's: one object on the reference host), takes the `responseJson`
/// out, leaving `null` in its place, and returns it with the alias that makes
/// it the `resultJson` in the hook's argument, where the run result is at `run`.
fn alias_response(run_result: &mut Value, run: &[Step]) -> Option<(Value, Live)> {
    let members = run_result.as_object_mut()?;
    if !members.contains_key("resultJson") {
        return None;
    }
    let response = members.get_mut("responseJson")?.take();
    let alias = Live::alias(below(run, &["responseJson"]), below(run, &["resultJson"]));
    Some((response, alias))
}

/// The target parent a request names: `targetParentRef`, else `targetParentID`.
fn target_parent(request: &Value) -> Value {
    request
        .get("targetParentRef")
        .filter(|v| v.is_object())
        .or_else(|| request.get("targetParentID").filter(|v| !v.is_null()))
        .cloned()
        .unwrap_or(Value::Null)
}

/// The live objects of an `applyResult` argument: its result context (and
/// reader), its product storage, then `aliases` and the children's objects.
fn apply_live(reader_kind: &'static str, aliases: Vec<Live>, children: Vec<Live>) -> Vec<Live> {
    let mut live = vec![
        Live::result_context(
            vec![Step::key("resultContext")],
            vec![Step::key("bundleReader")],
            reader_kind,
        ),
        Live::product_storage("productStorage"),
    ];
    live.extend(aliases);
    live.extend(children);
    live
}

fn requires_selection(workflow: &Workflow) -> bool {
    workflow.planning.trigger.requires_selection
}

fn open_reader(
    request_id: &str,
    bundle: Option<&BundleSource>,
) -> Result<BundleReader, ApplyError> {
    let options = ZipOptions::default();
    match bundle {
        None => BundleReader::for_result(request_id, None, None, options),
        Some(BundleSource::ZipBytes(bytes)) => {
            BundleReader::for_result(request_id, Some(bytes), None, options)
        }
        Some(BundleSource::Dir(dir)) => {
            BundleReader::for_result(request_id, None, Some(dir), options)
        }
        Some(BundleSource::ZipFile(path)) => Ok(BundleReader::from(ZipBundle::open(path, options))),
    }
    .map_err(ApplyError::from)
}

/// The workflow's `applyResult` hook, which every run needs.
pub(super) fn apply_hook(workflow: &Workflow) -> Result<&DeclaredHook, RunError> {
    workflow.hook(HookName::ApplyResult).ok_or_else(|| {
        RunError::new(
            Stage::ApplyResult,
            None,
            "Error",
            "the workflow declares no applyResult hook",
        )
    })
}

/// Adds to a result context's `data` what the apply knows besides the result:
/// the unit's `preflight`, and an aggregate's `children`.
fn add_apply_context(
    data: &mut Value,
    id: &str,
    preflight: Option<Value>,
    aggregate_children: Vec<Value>,
) {
    if let Some(preflight) = preflight {
        data["preflight"] = preflight;
    }
    if !aggregate_children.is_empty() {
        data["aggregate"] = json!({
            "id": id.trim_start_matches("aggregate-"),
            "mode": "single-apply",
            "children": aggregate_children,
        });
    }
}

/// An aggregate's children, their result contexts registered.
struct Children {
    /// The ids of their result contexts.
    registered: Vec<String>,
    /// Their entries of `resultContext.aggregate.children`.
    values: Vec<Value>,
    /// The live objects made inside them.
    live: Vec<Live>,
}
