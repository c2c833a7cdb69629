//! Run settings: `{workflowParams, providerOptions}` and their normalisation
//! against the manifest's `parameters` (contract 01 §6.2).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::manifest::{ParamWarning, Workflow};

/// The settings of one run, shaped like the contract's settings object.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// Workflow parameter values.
    pub workflow_params: Map<String, Value>,
    /// Provider options (passed through to hooks and requests).
    pub provider_options: Map<String, Value>,
}

/// Why a settings object was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct SettingsError {
    /// JSON pointer of the offending value.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl Settings {
    /// Reads `{"workflowParams": {...}, "providerOptions": {...}}` (both optional).
    pub fn from_value(value: &Value) -> Result<Settings, SettingsError> {
        let obj = value.as_object().ok_or_else(|| SettingsError {
            pointer: "/".into(),
            message:
                "settings must be an object like {\"workflowParams\": {}, \"providerOptions\": {}}"
                    .into(),
        })?;
        let member = |name: &str| -> Result<Map<String, Value>, SettingsError> {
            match obj.get(name) {
                None | Some(Value::Null) => Ok(Map::new()),
                Some(Value::Object(m)) => Ok(m.clone()),
                Some(_) => Err(SettingsError {
                    pointer: format!("/{name}"),
                    message: "expected an object".into(),
                }),
            }
        };
        if let Some(extra) = obj.keys().find(|k| {
            !matches!(
                k.as_str(),
                "workflowParams" | "providerOptions" | "backendId" | "runOptions"
            )
        }) {
            return Err(SettingsError {
                pointer: format!("/{extra}"),
                message: "unknown settings member; use workflowParams or providerOptions".into(),
            });
        }
        Ok(Settings {
            workflow_params: member("workflowParams")?,
            provider_options: member("providerOptions")?,
        })
    }
}

/// Workflow parameters after schema normalisation.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct NormalizedParams {
    /// Declared parameters with valid values (defaults not filled in).
    pub values: Map<String, Value>,
    /// Every value that was coerced, replaced or dropped.
    pub warnings: Vec<ParamWarning>,
}

/// Normalises `params` against the workflow's declared parameters.
pub fn normalize_params(workflow: &Workflow, params: &Map<String, Value>) -> NormalizedParams {
    let normalized = workflow.parameters.normalize(params);
    NormalizedParams {
        values: normalized.values,
        warnings: normalized.warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn settings_shape_is_checked_with_pointers() {
        let s = Settings::from_value(&json!({"workflowParams": {"a": 1}})).unwrap();
        assert_eq!(s.workflow_params["a"], 1);
        assert!(s.provider_options.is_empty());
        let e = Settings::from_value(&json!({"workflowParams": 3})).unwrap_err();
        assert_eq!(e.pointer, "/workflowParams");
        let e = Settings::from_value(&json!({"params": {}})).unwrap_err();
        assert_eq!(e.pointer, "/params");
        assert!(Settings::from_value(&json!([])).is_err());
    }
}
