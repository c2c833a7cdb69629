//! The `acp.prompt.v1` and `acp.skill.run.v1` payload contracts.

use serde_json::{Map, Value};

use super::rules::{Check, js_entries, non_empty_str, object, relative_path, text};

/// `message` non-blank; `hostContext`, when present, an object.
pub(super) fn check_prompt(payload: &Map<String, Value>) -> Check {
    non_empty_str(payload.get("message"), "payload.message")?;
    match payload.get("hostContext") {
        Some(context) if !context.is_object() => {
            Err("payload.hostContext must be object when provided".into())
        }
        _ => Ok(()),
    }
}

/// The two workspace options of an ACP skill run, checked in this order.
const WORKSPACE_FIELDS: [&str; 2] = ["workspace", "workflow_workspace"];

/// `skill_id` non-blank; no `upload_files`; each workspace option, when given, is
/// `{mode: new|reuse, workflow_run_id}`; string inputs are not upload-relative paths.
/// A `runtime_options` or `input` that is not an object is ignored.
pub(super) fn check_skill_run(payload: &Map<String, Value>) -> Check {
    non_empty_str(payload.get("skill_id"), "payload.skill_id")?;
    if payload.contains_key("upload_files") {
        return Err("payload.upload_files is not allowed for acp.skill.run.v1".into());
    }
    let options = object(payload.get("runtime_options"));
    for field in WORKSPACE_FIELDS {
        if let Some(workspace) = options.and_then(|o| o.get(field)) {
            check_workspace(workspace, &format!("payload.runtime_options.{field}"))?;
        }
    }
    let Some(input) = object(payload.get("input")) else {
        return Ok(());
    };
    for (key, value) in js_entries(input) {
        if value.as_str().is_some_and(is_upload_relative) {
            return Err(format!(
                "payload.input.{key} must be a local absolute path, not upload-relative path"
            ));
        }
    }
    Ok(())
}

/// A workspace option (named `label`): `{mode: new|reuse, workflow_run_id}`.
fn check_workspace(workspace: &Value, label: &str) -> Check {
    let workspace = workspace
        .as_object()
        .ok_or_else(|| format!("{label} must be object when provided"))?;
    if !["new", "reuse"].contains(&text(workspace.get("mode")).as_str()) {
        return Err(format!("{label}.mode must be new or reuse"));
    }
    non_empty_str(
        workspace.get("workflow_run_id"),
        &format!("{label}.workflow_run_id"),
    )
}

/// Whether `value` points into the uploads area (`inputs`, `inputs/…`, `uploads/…`).
fn is_upload_relative(value: &str) -> bool {
    let path = relative_path(value);
    path == "inputs" || path.starts_with("inputs/") || path.starts_with("uploads/")
}
