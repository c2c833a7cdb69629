//! Typed workflow parameters (`01-manifest.md` §6): schema, defaults and normalisation.

mod coerce;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use coerce::{MissingRequiredParameters, Normalized, ParamWarning, ParamWarningKind};

/// `type` of a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    /// A string.
    String,
    /// A finite number.
    Number,
    /// A boolean.
    Boolean,
    /// A list of strings.
    Array,
}

/// `visible_if`: the parameter is shown (and required) only when `parameter` equals
/// `equals`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VisibleIf {
    /// The controlling parameter.
    pub parameter: String,
    /// The boolean value that makes this parameter visible.
    pub equals: bool,
}

/// One entry of `parameters`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParameterSchema {
    /// Value type.
    #[serde(rename = "type")]
    pub kind: ParamType,
    /// Whether a value must be present (when visible).
    #[serde(default)]
    pub required: bool,
    /// Visibility condition.
    #[serde(
        default,
        rename = "visible_if",
        skip_serializing_if = "Option::is_none"
    )]
    pub visible_if: Option<VisibleIf>,
    /// Display title (localisable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Display description (localisable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Default value (any JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// Allowed values.
    #[serde(default, rename = "enum", skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<Vec<Value>>,
    /// For strings with `enum`: the enum is only a suggestion list.
    #[serde(default)]
    pub allow_custom: bool,
    /// Dynamic options source (host-defined, kept as JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options_source: Option<Value>,
    /// Inclusive numeric minimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Inclusive numeric maximum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Declared integer-ness (not enforced, see §6.2).
    #[serde(default)]
    pub integer: bool,
}

/// The declared parameters of a workflow, in declaration order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Parameters {
    /// `(key, schema)` pairs in declaration order.
    pub entries: Vec<(String, ParameterSchema)>,
}

impl Parameters {
    /// Reads `parameters` of a schema-valid manifest (absent = no parameters).
    pub fn from_manifest(manifest: &Value) -> Result<Self, serde_json::Error> {
        let Some(map) = manifest.get("parameters").and_then(Value::as_object) else {
            return Ok(Parameters::default());
        };
        let entries = map
            .iter()
            .map(|(key, value)| Ok((key.clone(), ParameterSchema::deserialize(value)?)))
            .collect::<Result<_, serde_json::Error>>()?;
        Ok(Parameters { entries })
    }

    /// The schema of `key`.
    pub fn get(&self, key: &str) -> Option<&ParameterSchema> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, s)| s)
    }

    /// Whether no parameter is declared.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every declared default, in declaration order.
    pub fn defaults(&self) -> Map<String, Value> {
        self.entries
            .iter()
            .filter_map(|(key, schema)| Some((key.clone(), schema.default.clone()?)))
            .collect()
    }

    /// The declarative compiler's parameter view: all defaults overlaid with `explicit`
    /// (explicit values win).
    pub fn effective(&self, explicit: &Map<String, Value>) -> Map<String, Value> {
        let mut values = self.defaults();
        for (key, value) in explicit {
            values.insert(key.clone(), value.clone());
        }
        values
    }

    /// Normalises `input` against the schema (§6.2); see [`Normalized`].
    pub fn normalize(&self, input: &Map<String, Value>) -> Normalized {
        coerce::normalize(self, input)
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "ported_settings_tests.rs"]
mod ported_settings_tests;
