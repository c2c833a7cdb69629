//! The `acp.prompt.v1` and `acp.skill.run.v1` payload contracts.

use serde_json::{Map, Value};

use super::rules::{Check, non_empty_str, one_of, optional_object, path};

/// `message` non-empty; `hostContext`, if present, an object.
pub(super) fn check_prompt(payload: &Map<String, Value>) -> Check {
    non_empty_str(payload, "message", "")?;
    optional_object(payload, "hostContext", "").map(|_| ())
}

/// The two names seen for the workspace of an ACP skill run (which one is canonical is
/// unconfirmed, so both are checked).
const WORKSPACE_FIELDS: [&str; 2] = ["workspace", "workflow_workspace"];

/// `skill_id` non-empty; no `upload_files`; a workspace, when given, is
/// `{mode: new|reuse, workflow_run_id}`; string inputs are not upload-relative paths.
pub(super) fn check_skill_run(payload: &Map<String, Value>) -> Check {
    non_empty_str(payload, "skill_id", "")?;
    if payload.contains_key("upload_files") {
        return Err("upload_files is not allowed for acp.skill.run.v1".to_string());
    }
    if let Some(options) = optional_object(payload, "runtime_options", "")? {
        for field in WORKSPACE_FIELDS {
            let at = path("runtime_options", field);
            if let Some(workspace) = optional_object(options, field, "runtime_options")? {
                one_of(workspace, "mode", &["new", "reuse"], &at)?;
                non_empty_str(workspace, "workflow_run_id", &at)?;
            }
        }
    }
    let Some(input) = optional_object(payload, "input", "")? else {
        return Ok(());
    };
    for (key, value) in input {
        if value.as_str().is_some_and(is_upload_relative) {
            return Err(format!(
                "input.{key} must be an absolute local path, not an upload-relative path"
            ));
        }
    }
    Ok(())
}

fn is_upload_relative(value: &str) -> bool {
    let normalised = value.trim().replace('\\', "/");
    let normalised = normalised.trim_start_matches("./");
    normalised == "inputs"
        || normalised.starts_with("inputs/")
        || normalised.starts_with("uploads/")
}
