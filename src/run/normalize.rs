//! Settings before a run: schema normalisation of the workflow parameters and
//! the `normalizeSettings` hook in its `persisted` and `execution` phases
//! (contract 01 §6.2, 03 §5).

use serde_json::{Map, Value, json};

use crate::hooks::{CallUnit, HookEnv};
use crate::manifest::{DeclaredHook, HookName, MissingRequiredParameters, Workflow};
use crate::run::report::{RunError, SettingsReport, Stage};
use crate::run::settings::Settings;

/// Host-controlled settings keys a `persisted` patch may change.
const PATCH_KEYS: &[&str] = &[
    "backendId",
    "workflowParams",
    "providerOptions",
    "runOptions",
];

/// Settings ready for planning and hooks, or why the run cannot start.
pub fn prepare(
    env: &mut HookEnv<'_>,
    workflow: &Workflow,
    settings: &Settings,
) -> Result<SettingsReport, RunError> {
    let mut merged = json!({
        "workflowParams": settings.workflow_params,
        "providerOptions": settings.provider_options,
    });
    let hook = workflow.hook(HookName::NormalizeSettings);
    if let Some(hook) = hook {
        let mut arg = json!({
            "phase": "persisted",
            "workflowId": workflow.id,
            "manifest": null,
            "previous": {},
            "incoming": merged,
            "merged": merged,
        });
        let patch = call_settings_hook(env, hook, &mut arg)?;
        merge_persisted(&mut merged, &patch);
    }
    let raw = object(&merged, "workflowParams");
    let normalized = workflow
        .parameters
        .normalize(&workflow.parameters.effective(&raw));
    let mut params = normalized.values;
    if let Some(hook) = hook {
        let mut arg = json!({
            "phase": "execution",
            "workflowId": workflow.id,
            "manifest": null,
            "rawWorkflowParams": raw,
            "normalizedWorkflowParams": params,
        });
        let patch = call_settings_hook(env, hook, &mut arg)?;
        if let Value::Object(patch) = patch {
            params.extend(patch);
        }
    }
    let missing = workflow.parameters.normalize(&params).missing_required;
    if !missing.is_empty() {
        let error = MissingRequiredParameters {
            required_fields: missing,
        };
        let mut details = Map::new();
        details.insert("code".into(), json!(error.code()));
        details.insert("requiredFields".into(), json!(error.required_fields));
        return Err(
            RunError::new(Stage::Settings, None, "Error", error.to_string()).with_details(details),
        );
    }
    Ok(SettingsReport {
        workflow_params: params,
        provider_options: object(&merged, "providerOptions"),
        warnings: normalized.warnings,
    })
}

fn object(value: &Value, key: &str) -> Map<String, Value> {
    value
        .get(key)
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// Calls `normalizeSettings` (for the `settings` unit) with `arg`.
fn call_settings_hook(
    env: &mut HookEnv<'_>,
    hook: &DeclaredHook,
    arg: &mut Value,
) -> Result<Value, RunError> {
    env.call(hook, CallUnit::unit("settings"), arg, &[], Vec::new(), &[])
        .map_err(|f| RunError::hook(Stage::NormalizeSettings, "settings", f))
}

/// Merges a `persisted` patch: top-level keys it sets replace (objects merge
/// one level deep); keys set to `null` are deleted. Anything else is no change.
fn merge_persisted(merged: &mut Value, patch: &Value) {
    let (Some(target), Some(patch)) = (merged.as_object_mut(), patch.as_object()) else {
        return;
    };
    for key in PATCH_KEYS {
        match (patch.get(*key), target.get_mut(*key)) {
            (None, _) => {}
            (Some(Value::Null), _) => {
                target.remove(*key);
            }
            (Some(Value::Object(p)), Some(Value::Object(t))) => {
                for (k, v) in p {
                    if v.is_null() {
                        t.remove(k);
                    } else {
                        t.insert(k.clone(), v.clone());
                    }
                }
            }
            (Some(v), _) => {
                target.insert((*key).to_string(), v.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn persisted_patches_merge_and_delete() {
        let mut merged = json!({"workflowParams": {"a": 1, "b": 2}, "providerOptions": {"x": 1}});
        merge_persisted(
            &mut merged,
            &json!({"workflowParams": {"a": 5, "b": null}, "providerOptions": null, "other": 1}),
        );
        assert_eq!(merged, json!({"workflowParams": {"a": 5}}));
        merge_persisted(&mut merged, &json!([1]));
        assert_eq!(merged, json!({"workflowParams": {"a": 5}}));
    }
}
