//! Calling one hook: its argument with the live objects the contract promises,
//! the call site for effects, and a record of the call for the run report.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::hooks::bridge::Bridge;
use crate::hooks::live::{Live, RuntimeBase, RuntimeSpec};
use crate::manifest::{DeclaredHook, HookName, Workflow};
use crate::sandbox::{
    Call, CallResult, HostBridge, JsFailure, LogEntry, Outcome, OutcomeKind, Placed, Sandbox, Usage,
};

/// How a run is invoked (`runtime.invocationMode`): by a person, who can answer
/// pickers and prompts, or by a batch that cannot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum InvocationMode {
    /// Members that need a person are answered (from a case's `hostAnswers`).
    Interactive,
    /// Members that need a person are refused with `interaction_required`, as
    /// the reference host refuses them in batch runs.
    #[default]
    NonInteractive,
}

impl InvocationMode {
    /// Whether a person is there to answer.
    pub fn is_interactive(self) -> bool {
        self == InvocationMode::Interactive
    }

    /// `hostApi.interactionMode`, the reference host's spelling.
    pub fn interaction_mode(self) -> &'static str {
        match self {
            InvocationMode::Interactive => "interactive",
            InvocationMode::NonInteractive => "non_interactive",
        }
    }
}

/// How hooks see the host (`runtime.*` fields that do not depend on the call).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RuntimeInfo {
    /// `runtime.locale`.
    pub locale: String,
    /// `runtime.invocationMode`.
    pub invocation_mode: InvocationMode,
    /// `runtime.debugMode`.
    pub debug_mode: bool,
    /// `runtime.workflowSourceKind`.
    pub workflow_source_kind: String,
}

hookrun_sandbox::option_setters!(RuntimeInfo {
    locale: String,
    invocation_mode: InvocationMode,
    debug_mode: bool,
    workflow_source_kind: String,
});

impl Default for RuntimeInfo {
    fn default() -> RuntimeInfo {
        RuntimeInfo {
            locale: "en-US".into(),
            invocation_mode: InvocationMode::default(),
            debug_mode: false,
            workflow_source_kind: String::new(),
        }
    }
}

/// Why a hook's call failed: the sandbox's outcome, or a value that broke the
/// hook's contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailureOutcome {
    /// The call itself failed (`hook-error`, `timeout`, …).
    Call(OutcomeKind),
    /// The call returned, but its value broke the hook's contract.
    InvalidResult,
}

impl FailureOutcome {
    /// The name in reports: the sandbox outcome's, or `invalid-result`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureOutcome::Call(kind) => kind.as_str(),
            FailureOutcome::InvalidResult => "invalid-result",
        }
    }
}

impl Serialize for FailureOutcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Why a hook call did not produce a usable value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookFailure {
    /// The hook.
    pub hook: String,
    /// Its module, relative to the workflow directory.
    pub file: String,
    /// The sandbox outcome (`hook-error`, `timeout`, …) or `invalid-result` when
    /// the value broke the hook's contract.
    pub outcome: FailureOutcome,
    /// Error name (`TypeError`, `Error`, …).
    pub name: String,
    /// The message; contract messages are reproduced exactly.
    pub message: String,
    /// The hook's stack, relative paths, hook frames only.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stack: String,
    /// Failing line, relative to the module root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::sandbox::SourceLocation>,
}

impl HookFailure {
    /// A value that broke the hook's contract, with the contract's message.
    pub fn contract(hook: &DeclaredHook, message: impl Into<String>) -> HookFailure {
        HookFailure {
            hook: hook.export.to_string(),
            file: hook.relative.clone(),
            outcome: FailureOutcome::InvalidResult,
            name: "Error".into(),
            message: message.into(),
            stack: String::new(),
            location: None,
        }
    }

    fn from_result(hook: &DeclaredHook, result: &CallResult) -> HookFailure {
        let (name, stack, location) = match result {
            CallResult::HookError(f) | CallResult::LoadError(f) => {
                let JsFailure {
                    name,
                    stack,
                    location,
                    ..
                } = f.clone();
                (name, stack, location)
            }
            other => (other.name().to_string(), String::new(), None),
        };
        HookFailure {
            hook: hook.export.to_string(),
            file: hook.relative.clone(),
            outcome: FailureOutcome::Call(result.kind()),
            name,
            message: match result {
                CallResult::HookError(f) | CallResult::LoadError(f) => f.message.clone(),
                other => other.error_message().unwrap_or_default(),
            },
            stack,
            location,
        }
    }
}

impl std::fmt::Display for HookFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.hook, self.file, self.message)
    }
}

/// One hook call as the run report shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookRecord {
    /// The hook.
    pub hook: String,
    /// The unit (or replacement unit) it ran for.
    pub unit_id: String,
    /// The sandbox outcome.
    pub outcome: OutcomeKind,
    /// Console output.
    pub logs: Vec<LogEntry>,
    /// Resource usage.
    pub usage: Usage,
}

/// The unit a hook call is for: a unit, or one of its replacement units
/// (records and effects name it `<unit>/<replacement>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallUnit<'a> {
    /// The planned unit (`settings` for the settings hooks).
    pub unit: &'a str,
    /// The replacement unit an expanded preflight made, if any.
    pub replacement: Option<&'a str>,
}

impl<'a> CallUnit<'a> {
    /// A call for `unit` itself.
    pub fn unit(unit: &'a str) -> CallUnit<'a> {
        CallUnit {
            unit,
            replacement: None,
        }
    }

    /// The id records and effects are attributed to.
    pub fn id(&self) -> String {
        match self.replacement {
            None => self.unit.to_string(),
            Some(replacement) => format!("{}/{replacement}", self.unit),
        }
    }
}

/// What a hook call needs besides its argument.
pub struct HookEnv<'a> {
    /// The sandbox (one per run, rooted at the workflow's jail root).
    pub sandbox: &'a mut Sandbox,
    /// The host the hooks reach.
    pub host: Rc<RefCell<Bridge>>,
    /// The workflow.
    pub workflow: &'a Workflow,
    /// Records of the calls made since the runner last took them, in order.
    pub records: Vec<HookRecord>,
    /// Give each unit a fresh runtime: the runtime is reset whenever a call is
    /// for another unit than the previous one.
    pub fresh_per_unit: bool,
    /// The unit of the previous call.
    pub last_unit: Option<String>,
    /// What the `runtime` of every call shares ([`RuntimeBase`]), as the
    /// shared value hook arguments hold where the runtime goes.
    runtime_base: Arc<Value>,
    /// The workflow's manifest, which a runtime keeps once and hands each
    /// call that receives it a copy of ([`Call::copied`]).
    manifest: Arc<Value>,
    /// The live descriptions of recent calls as JSON ([`LiveJson`]).
    live_json: LiveJson,
}

/// The JSON of the live descriptions of recent calls: a run's calls of one
/// hook describe theirs alike, so each is written once.
#[derive(Default)]
struct LiveJson(Vec<(Vec<Live>, Value)>);

impl LiveJson {
    /// How many descriptions are kept; a new one beyond them replaces the oldest.
    const KEPT: usize = 8;

    /// The JSON of `live`.
    fn of(&mut self, live: Vec<Live>) -> &Value {
        let at = match self.0.iter().position(|(kept, _)| *kept == live) {
            Some(at) => at,
            None => {
                if self.0.len() == Self::KEPT {
                    self.0.remove(0);
                }
                let json = serde_json::to_value(&live).unwrap_or(Value::Null);
                self.0.push((live, json));
                self.0.len() - 1
            }
        };
        &self.0[at].1
    }
}

impl<'a> HookEnv<'a> {
    /// An environment calling `workflow`'s hooks in `sandbox`, reaching `host`,
    /// with no calls made yet.
    pub fn new(
        sandbox: &'a mut Sandbox,
        host: Rc<RefCell<Bridge>>,
        workflow: &'a Workflow,
        runtime: &'a RuntimeInfo,
        fresh_per_unit: bool,
    ) -> HookEnv<'a> {
        let base = runtime_base(workflow, runtime);
        HookEnv {
            sandbox,
            host,
            workflow,
            records: Vec::new(),
            fresh_per_unit,
            last_unit: None,
            runtime_base: Arc::new(serde_json::to_value(base).unwrap_or(Value::Null)),
            manifest: Arc::new(workflow.manifest.clone()),
            live_json: LiveJson::default(),
        }
    }
}

/// The fields of `runtime` that every call of `workflow`'s hooks shares.
fn runtime_base(w: &Workflow, runtime: &RuntimeInfo) -> RuntimeBase {
    let relative_dir = w
        .workflow_dir
        .strip_prefix(&w.jail_root)
        .ok()
        .map(|p| p.display().to_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| ".".into());
    let (package_id, package_root_dir) = if w.in_package {
        (w.package_id.clone(), ".".to_string())
    } else {
        (String::new(), String::new())
    };
    RuntimeBase {
        workflow_id: w.id.clone(),
        package_id,
        workflow_root_dir: relative_dir,
        package_root_dir,
        workflow_source_kind: runtime.workflow_source_kind.clone(),
        locale: runtime.locale.clone(),
        invocation_mode: runtime.invocation_mode,
        debug_mode: runtime.debug_mode,
        interaction_mode: runtime.invocation_mode.interaction_mode(),
    }
}

impl HookEnv<'_> {
    /// Calls `hook` for `at` with `arg`, which the caller gets back as it was
    /// (but for a `runtime: null` member), so it can take its members back
    /// instead of copying them in. `placed` gives top-level members by
    /// reference, in place of stand-ins `arg` holds ([`Call::placed`]): a
    /// unit's selection. A `manifest` member, whatever stand-in it holds, is
    /// the workflow's manifest, which the runtime keeps once and copies for
    /// each call ([`Call::copied`]). Hooks that take a `runtime` get one;
    /// `live` adds further live objects (frozen selections, readers, …).
    /// `shared` names values that recur across the run's calls (a unit's
    /// selection): parts of `arg` equal to one cross into the engine once
    /// per runtime, frozen ([`Call::shared`]).
    #[allow(
        clippy::result_large_err,
        reason = "a failure is made once per failed hook call and carries what the report shows"
    )]
    pub fn call(
        &mut self,
        hook: &DeclaredHook,
        at: CallUnit<'_>,
        arg: &mut Value,
        placed: Placed<'_>,
        mut live: Vec<Live>,
        shared: &[Arc<Value>],
    ) -> Result<Value, HookFailure> {
        self.enter_unit(at.unit);
        let unit_id = at.id();
        let unit_id = unit_id.as_str();
        let sync = hook.name == HookName::NormalizeSettings;
        let mut placed = placed.to_vec();
        if arg.get("manifest").is_some() {
            placed.push(("manifest", &self.manifest));
        }
        let mut shared = shared.to_vec();
        if !sync {
            arg["runtime"] = Value::Null;
            placed.push(("runtime", &self.runtime_base));
            shared.push(Arc::clone(&self.runtime_base));
            let hook_name = hook.name.export_name();
            live.insert(0, Live::runtime(RuntimeSpec { hook_name }));
        }
        let deferred = defer_large_members(arg, &mut placed, &mut live);
        {
            let mut host = self.host.borrow_mut();
            host.set_site(unit_id, hook.export);
            host.set_deferred(deferred);
        }
        let live = self.live_json.of(live);
        let bridge: Rc<RefCell<dyn HostBridge>> = self.host.clone();
        let mut call = Call::new(&hook.path, hook.export, arg)
            .placed(&placed)
            .live(live)
            .host(bridge)
            .shared(&shared)
            .copied(std::slice::from_ref(&self.manifest));
        call.sync = sync;
        let outcome = {
            let span = crate::trace::hook(&self.workflow.id, hook.export, unit_id);
            let outcome = self.sandbox.run(call);
            crate::trace::hook_done(&span, &outcome);
            outcome
        };
        self.finish(hook, unit_id, arg, outcome)
    }

    /// Notes that the next call is for `unit`, giving it a fresh runtime when
    /// each unit gets one and the previous call was for another.
    fn enter_unit(&mut self, unit: &str) {
        if self.last_unit.as_deref() != Some(unit) {
            if self.fresh_per_unit {
                self.sandbox.reset();
            }
            self.last_unit = Some(unit.to_string());
        }
    }

    /// Ends the call of `hook` for `unit_id` that had `outcome`: gives `arg`
    /// back its deferred members, records the call and returns its value.
    #[allow(
        clippy::result_large_err,
        reason = "a failure is made once per failed hook call and carries what the report shows"
    )]
    fn finish(
        &mut self,
        hook: &DeclaredHook,
        unit_id: &str,
        arg: &mut Value,
        outcome: Outcome,
    ) -> Result<Value, HookFailure> {
        let deferred = self.host.borrow_mut().take_deferred();
        if let Some(members) = arg.as_object_mut() {
            members.extend(deferred);
        }
        self.records.push(HookRecord {
            hook: hook.export.to_string(),
            unit_id: unit_id.to_string(),
            outcome: outcome.result.kind(),
            logs: outcome.logs,
            usage: outcome.usage,
        });
        match outcome.result {
            CallResult::Ok(value) => Ok(value),
            other => Err(HookFailure::from_result(hook, &other)),
        }
    }
}

/// A hook argument from its members, moved in: `json!` would copy each
/// member value again by serialising it.
pub fn hook_arg<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(key, value)| (key.to_string(), value))
            .collect(),
    )
}

/// Argument members larger than this many JSON nodes (a string counts one node
/// per 64 bytes) stay on the host until the hook reads them.
const DEFER_NODES: usize = 2_000;

/// Moves the large top-level members of `arg` out of it (copying the large
/// `placed` ones, which it drops from `placed`), leaving a `deferred` live
/// entry for each, so that a hook that never reads, say, a 10,000-item
/// selection never has it serialised or parsed. Members a live object is built
/// from stay; a member the contract freezes is frozen when it is read. Returns
/// the members taken.
fn defer_large_members(
    arg: &mut Value,
    placed: &mut Vec<(&str, &Value)>,
    live: &mut Vec<Live>,
) -> Vec<(String, Value)> {
    let Some(members) = arg.as_object_mut() else {
        return Vec::new();
    };
    fn placed_value<'v>(placed: &[(&str, &'v Value)], key: &str) -> Option<&'v Value> {
        placed.iter().find(|(name, _)| *name == key).map(|p| p.1)
    }
    let large: Vec<String> = members
        .iter()
        .filter(|(key, own)| exceeds_nodes(placed_value(placed, key).unwrap_or(own), DEFER_NODES))
        .map(|(key, _)| key.clone())
        .collect();
    let mut deferred = Vec::new();
    for key in large {
        if live
            .iter()
            .any(|spec| spec.is_under(&key) && !spec.freezes_member(&key))
        {
            continue;
        }
        let freeze = live.iter().any(|spec| spec.freezes_member(&key));
        live.retain(|spec| !spec.is_under(&key));
        let own = members.insert(key.clone(), Value::Null).unwrap_or_default();
        let value = match placed_value(placed, &key) {
            Some(value) => {
                let value = value.clone();
                placed.retain(|(name, _)| *name != key);
                value
            }
            None => own,
        };
        live.push(Live::deferred(&key, freeze));
        deferred.push((key, value));
    }
    deferred
}

/// Whether `value` has more than `limit` nodes; stops counting at the limit.
fn exceeds_nodes(value: &Value, limit: usize) -> bool {
    fn spend(value: &Value, budget: &mut usize) -> bool {
        let cost = match value {
            Value::String(s) => 1 + s.len() / 64,
            _ => 1,
        };
        if cost > *budget {
            return true;
        }
        *budget -= cost;
        match value {
            Value::Array(items) => items.iter().any(|v| spend(v, budget)),
            Value::Object(members) => members.values().any(|v| spend(v, budget)),
            _ => false,
        }
    }
    let mut budget = limit;
    spend(value, &mut budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::live::Step;
    use serde_json::json;

    fn items(n: usize) -> Value {
        json!({"items": (0..n).map(|i| json!({"ref": {"key": format!("K{i}")}})).collect::<Vec<_>>()})
    }

    #[test]
    fn only_large_members_are_deferred_and_frozen_ones_stay_frozen() {
        let mut arg =
            json!({"selectionContext": items(1_000), "manifest": {"id": "w"}, "runtime": null});
        let runtime = Live::runtime(RuntimeSpec {
            hook_name: "preflight",
        });
        let mut live = vec![runtime.clone(), Live::frozen("selectionContext")];
        let deferred = defer_large_members(&mut arg, &mut Vec::new(), &mut live);
        assert_eq!(deferred.len(), 1);
        assert_eq!(deferred[0].0, "selectionContext");
        assert_eq!(deferred[0].1, items(1_000));
        assert_eq!(arg["selectionContext"], Value::Null);
        assert_eq!(arg["manifest"], json!({"id": "w"}));
        assert_eq!(live, [runtime, Live::deferred("selectionContext", true)]);
    }

    #[test]
    fn small_members_and_members_live_objects_are_built_from_cross_as_they_are() {
        let mut arg = json!({"selectionContext": items(10), "resultContext": items(1_000)});
        let mut live = vec![Live::result_context(
            vec![Step::key("resultContext")],
            vec![Step::key("bundleReader")],
            "zip",
        )];
        let before = (arg.clone(), live.clone());
        assert!(defer_large_members(&mut arg, &mut Vec::new(), &mut live).is_empty());
        assert_eq!((arg, live), before);
    }

    #[test]
    fn large_placed_members_are_deferred_as_copies_and_small_ones_still_cross() {
        let selection = items(1_000);
        let manifest = json!({"id": "w"});
        let mut arg = json!({"selectionContext": null, "manifest": null});
        let mut live = vec![Live::frozen("selectionContext")];
        let mut placed = vec![("selectionContext", &selection), ("manifest", &manifest)];
        let deferred = defer_large_members(&mut arg, &mut placed, &mut live);
        assert_eq!(
            deferred,
            [("selectionContext".to_string(), selection.clone())]
        );
        assert_eq!(placed, [("manifest", &manifest)]);
        assert_eq!(arg, json!({"selectionContext": null, "manifest": null}));
        assert_eq!(live, [Live::deferred("selectionContext", true)]);
    }

    #[test]
    fn node_counting_stops_at_the_limit_and_weighs_long_strings() {
        assert!(!exceeds_nodes(&items(10), DEFER_NODES));
        assert!(exceeds_nodes(&items(1_000), DEFER_NODES));
        assert!(exceeds_nodes(
            &json!("x".repeat(64 * DEFER_NODES)),
            DEFER_NODES
        ));
        assert!(!exceeds_nodes(&json!("x".repeat(64)), DEFER_NODES));
    }
}
