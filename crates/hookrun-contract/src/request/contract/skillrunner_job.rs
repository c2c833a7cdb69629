//! The `skillrunner.job.v1` payload contract.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::rules::{
    Check, item, non_empty_str, object, one_of, optional_array, optional_object, optional_one_of,
    path,
};

/// Allowed `execution_mode` values (also the allowed top-level `mode` before normalisation).
pub(crate) const EXECUTION_MODES: [&str; 2] = ["auto", "interactive"];
/// Allowed `fetch_type` values.
pub(super) const FETCH_TYPES: [&str; 2] = ["bundle", "result"];

/// Checks skill, runtime options, fetch type and the upload mapping.
pub(super) fn check(payload: &Map<String, Value>) -> Check {
    non_empty_str(payload, "skill_id", "")?;
    optional_one_of(payload, "skill_source", &["local-package", "installed"], "")?;
    if payload.contains_key("mode") {
        return Err(
            "mode is not allowed at the top level (use runtime_options.execution_mode)".into(),
        );
    }
    if let Some(options) = optional_object(payload, "runtime_options", "")? {
        check_runtime_options(options)?;
    }
    optional_one_of(payload, "fetch_type", &FETCH_TYPES, "")?;
    check_uploads(payload)
}

fn check_runtime_options(options: &Map<String, Value>) -> Check {
    const AT: &str = "runtime_options";
    if let Some(env) = optional_object(options, "env", AT)? {
        let at = path(AT, "env");
        for key in env.keys() {
            non_empty_str(env, key, &at)?;
        }
    }
    if let Some(workspace) = optional_object(options, "workspace", AT)? {
        let at = path(AT, "workspace");
        one_of(workspace, "mode", &["reuse"], &at)?;
        non_empty_str(workspace, "request_id", &at)?;
    }
    optional_one_of(options, "execution_mode", &EXECUTION_MODES, AT)
}

/// `upload_files[] = {key, path}` with unique keys; each `input[key]` is a unique relative
/// path under the uploads root.
fn check_uploads(payload: &Map<String, Value>) -> Check {
    let Some(uploads) = optional_array(payload, "upload_files", "")? else {
        return Ok(());
    };
    if uploads.is_empty() {
        return Ok(());
    }
    let input = match payload.get("input") {
        Some(Value::Object(input)) => input,
        _ => return Err("input must be an object when upload_files is non-empty".into()),
    };
    let mut keys = HashSet::new();
    let mut targets = HashSet::new();
    for (index, entry) in uploads.iter().enumerate() {
        let at = item("upload_files", index);
        let entry = object(entry, &at)?;
        non_empty_str(entry, "key", &at)?;
        non_empty_str(entry, "path", &at)?;
        let key = entry.get("key").and_then(Value::as_str).unwrap_or_default();
        if !keys.insert(key) {
            return Err(format!("{at}.key duplicated: {key}"));
        }
        let target = upload_target(input, key)?;
        if !targets.insert(target.clone()) {
            return Err(format!("input.{key} duplicates upload path {target}"));
        }
    }
    Ok(())
}

/// The normalised relative path `input[key]` maps an upload to.
fn upload_target(input: &Map<String, Value>, key: &str) -> Result<String, String> {
    let field = format!("input.{key}");
    let raw = input
        .get(key)
        .and_then(Value::as_str)
        .map(|s| s.trim().replace('\\', "/"))
        .filter(|s| !s.is_empty())
        .ok_or_else(|| format!("{field} must be a non-empty upload-relative path"))?;
    let relative = raw.trim_start_matches("./");
    if relative.starts_with('/') || has_drive_letter(relative) {
        return Err(format!("{field} must be a relative path"));
    }
    if relative.starts_with("uploads/") {
        return Err(format!("{field} must not start with uploads/"));
    }
    let segments: Vec<&str> = relative.split('/').filter(|s| !s.is_empty()).collect();
    if segments.is_empty() || segments.iter().any(|s| *s == "." || *s == "..") {
        return Err(format!("{field} must not contain '.' or '..' segments"));
    }
    Ok(segments.join("/"))
}

fn has_drive_letter(path: &str) -> bool {
    matches!(path.as_bytes(), [letter, b':', ..] if letter.is_ascii_alphabetic())
}
