//! Skill-Runner normalisation of built requests (`03-hooks.md` §3 step 3).

use serde_json::{Map, Value};

use crate::manifest::Workflow;
use crate::request::contract::EXECUTION_MODES;
use crate::request::kind::RequestKind;

/// Normalises a `skillrunner.job.v1` or `skillrunner.sequence.v1` request:
/// - job requests: a top-level `mode` of `auto`/`interactive` is removed and becomes
///   `runtime_options.execution_mode` unless that is already set (any other `mode` stays
///   for the contract check to refuse);
/// - a non-empty `execution.mcp.requiredTools` becomes
///   `runtime_options.workflow_mcp.required_tools` unless already set;
/// - `execution.zoteroHostAccess` becomes `runtime_options.zotero_host_access` unless
///   already set;
/// - an empty `runtime_options` object is removed.
///
/// A `runtime_options` that is not an object is left for the contract check.
pub(crate) fn normalize(request: &mut Map<String, Value>, kind: RequestKind, workflow: &Workflow) {
    let mut options = match request.get("runtime_options") {
        None => Map::new(),
        Some(Value::Object(options)) => options.clone(),
        Some(_) => return,
    };
    if kind == RequestKind::SkillRunnerJob
        && let Some(mode) = request.get("mode").and_then(Value::as_str)
        && EXECUTION_MODES.contains(&mode)
    {
        let mode = Value::from(mode);
        request.shift_remove("mode");
        options.entry("execution_mode").or_insert(mode);
    }
    let execution = &workflow.manifest["execution"];
    let tools = &execution["mcp"]["requiredTools"];
    if tools.as_array().is_some_and(|t| !t.is_empty())
        && let Some(mcp) = options
            .entry("workflow_mcp")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
    {
        mcp.entry("required_tools").or_insert_with(|| tools.clone());
    }
    let access = &execution["zoteroHostAccess"];
    if access.is_object() {
        options
            .entry("zotero_host_access")
            .or_insert_with(|| access.clone());
    }
    if options.is_empty() {
        request.shift_remove("runtime_options");
    } else {
        request.insert("runtime_options".into(), Value::Object(options));
    }
}
