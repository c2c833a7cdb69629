//! The `skillrunner.job.v1` payload contract, in the reference host's order: skill,
//! environment, workspace, execution mode, then the upload mapping.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::rules::{Check, js_entries, non_empty_str, object, relative_path, text};

/// Allowed `execution_mode` values (also the allowed top-level `mode` before normalisation).
pub(crate) const EXECUTION_MODES: [&str; 2] = ["auto", "interactive"];

/// The provider that admits execution modes itself, so the shared check skips them.
const BUILTIN_PI: &str = "builtin-pi";

/// Checks a job payload (already an object of this kind) dispatched to `provider_id`
/// (empty when no provider is involved).
pub(super) fn check(payload: &Map<String, Value>, provider_id: &str) -> Check {
    non_empty_str(payload.get("skill_id"), "payload.skill_id")?;
    if payload.contains_key("skill_source")
        && !["local-package", "installed"].contains(&text(payload.get("skill_source")).as_str())
    {
        return Err("payload.skill_source must be local-package or installed when provided".into());
    }
    let options = object(payload.get("runtime_options"));
    if let Some(env) = options.and_then(|o| o.get("env")) {
        check_env(env)?;
    }
    if let Some(workspace) = options.and_then(|o| o.get("workspace")) {
        check_workspace(workspace)?;
    }
    check_execution_mode(payload, options, provider_id)?;
    check_uploads(payload)
}

/// `runtime_options.env`: an object of non-blank keys and non-blank string values.
pub(super) fn check_env(env: &Value) -> Check {
    const LABEL: &str = "payload.runtime_options.env";
    let env = env
        .as_object()
        .ok_or_else(|| format!("{LABEL} must be object"))?;
    for (key, value) in js_entries(env) {
        if key.trim().is_empty() {
            return Err(format!("{LABEL} keys must be non-empty strings"));
        }
        non_empty_str(Some(value), &format!("{LABEL}.{key}"))?;
    }
    Ok(())
}

/// `runtime_options.workspace`: `{mode: "reuse", request_id}`.
fn check_workspace(workspace: &Value) -> Check {
    const LABEL: &str = "payload.runtime_options.workspace";
    let workspace = workspace
        .as_object()
        .ok_or_else(|| format!("{LABEL} must be object when provided"))?;
    if text(workspace.get("mode")) != "reuse" {
        return Err(format!("{LABEL}.mode must be reuse"));
    }
    non_empty_str(workspace.get("request_id"), &format!("{LABEL}.request_id"))
}

/// No top-level `mode`; `runtime_options.execution_mode`, when set, is `auto` or
/// `interactive`, except for the Built-in Pi provider.
fn check_execution_mode(
    payload: &Map<String, Value>,
    options: Option<&Map<String, Value>>,
    provider_id: &str,
) -> Check {
    if payload.contains_key("mode") {
        return Err(
            "payload.mode must be normalized to runtime_options.execution_mode \
                    before provider dispatch"
                .into(),
        );
    }
    if provider_id.trim() == BUILTIN_PI {
        return Ok(());
    }
    let mode = text(options.and_then(|o| o.get("execution_mode")));
    if mode.is_empty() || EXECUTION_MODES.contains(&mode.as_str()) {
        Ok(())
    } else {
        Err("payload.runtime_options.execution_mode must be auto or interactive".into())
    }
}

/// `upload_files[] = {key, path}` with unique keys; each `input[key]` is a unique relative
/// path under the uploads root.
fn check_uploads(payload: &Map<String, Value>) -> Check {
    let uploads = match payload.get("upload_files") {
        None => return Ok(()),
        Some(Value::Array(uploads)) => uploads,
        Some(_) => return Err("payload.upload_files must be array when provided".into()),
    };
    if uploads.is_empty() {
        return Ok(());
    }
    let input = object(payload.get("input")).ok_or_else(|| {
        "payload.input must be object when payload.upload_files is non-empty".to_string()
    })?;
    let mut keys = HashSet::new();
    let mut targets = HashSet::new();
    for (index, entry) in uploads.iter().enumerate() {
        let at = format!("payload.upload_files[{index}]");
        let entry = entry
            .as_object()
            .ok_or_else(|| format!("{at} must be object"))?;
        let key = text(entry.get("key"));
        if key.is_empty() {
            return Err(format!("{at}.key must be non-empty string"));
        }
        if text(entry.get("path")).is_empty() {
            return Err(format!("{at}.path must be non-empty string"));
        }
        if !keys.insert(key.clone()) {
            return Err(format!(
                "payload.upload_files contains duplicated key: {key}"
            ));
        }
        let target = upload_target(input, &key)?;
        if !targets.insert(target.clone()) {
            return Err(format!(
                "payload.input maps duplicated upload target path: {target}"
            ));
        }
    }
    Ok(())
}

/// The normalised relative path `input[key]` maps an upload to.
fn upload_target(input: &Map<String, Value>, key: &str) -> Result<String, String> {
    let field = format!("payload.input.{key}");
    let value = input
        .get(key)
        .ok_or_else(|| format!("{field} must be declared for upload mapping"))?;
    let relative = relative_path(&text(Some(value)));
    if relative.is_empty() {
        return Err(format!("{field} must be non-empty upload relative path"));
    }
    if relative.starts_with('/') || has_drive_root(&relative) {
        return Err(format!("{field} must be relative path under uploads root"));
    }
    if relative.starts_with("uploads/") {
        return Err(format!("{field} must not include uploads/ prefix"));
    }
    let segments: Vec<&str> = relative.split('/').filter(|s| !s.is_empty()).collect();
    if segments.is_empty() || segments.iter().any(|s| *s == "." || *s == "..") {
        return Err(format!(
            "{field} must not contain '.' or '..' path segments"
        ));
    }
    Ok(segments.join("/"))
}

/// Whether `path` starts with a drive root such as `C:/`.
fn has_drive_root(path: &str) -> bool {
    matches!(path.as_bytes(), [letter, b':', b'/', ..] if letter.is_ascii_alphabetic())
}
