//! Bringing pre-v2 manifests to schema v2 (`hookrun migrate`).
//!
//! The contract's earlier generations have no `schemaVersion`; [`Generation::detect`]
//! tells them apart by their markers, and [`migrate`] rewrites a parsed manifest rule by
//! rule, recording every [`Change`] (with the rule that made it) and every point that
//! needs a person ([`Manual`]): a `filterInputs` hook, a selector nothing maps, a
//! parameter a filter needs but the manifest does not declare. The result is validated
//! against schema v2; whatever still fails is listed as manual work too.
//!
//! ```
//! use hookrun_contract::manifest::migrate::{Generation, migrate};
//! use serde_json::json;
//!
//! let old = json!({
//!     "id": "digest", "label": "Digest", "provider": "pass-through",
//!     "inputs": {"unit": "parent"},
//!     "hooks": {"applyResult": "hooks/applyResult.js"}
//! });
//! let migration = migrate(&old, false);
//! assert_eq!(migration.generation, Generation::G1);
//! assert_eq!(migration.value["schemaVersion"], 2);
//! assert_eq!(migration.value["inputs"], json!({"member": {"kind": "parent"}, "grouping": {"mode": "each"}}));
//! assert!(migration.manual.is_empty());
//! // A second pass changes nothing.
//! assert!(migrate(&migration.value, false).changes.is_empty());
//! ```
//!
//! [`files`] applies this to `workflow.json` files, packages and trees; [`legacy_api`]
//! finds hook source lines that use members v2 hosts do not provide.

mod blanking;
pub mod files;
pub mod legacy_api;
mod planning;
mod rules;
mod text;

use serde::Serialize;
use serde_json::{Map, Value};

pub use files::{FileMigration, MigrateError, Status, migrate_path};
pub use legacy_api::{LegacyUse, scan_source};
pub use text::render_like;

/// The contract generation a manifest was written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub enum Generation {
    /// No `provider`; `backend {skillId, engine}`, `request.create.parameter`,
    /// `request.result.fetch`.
    G0,
    /// `provider`, `parameters`, `inputs.unit` ∈ attachment/parent/note, `execution.mode`.
    G1,
    /// G1 plus `execution.skillrunner_mode`, `trigger`, `unit: "workflow"`, sequences,
    /// `display`, `i18n`, `taskNameTemplate`.
    #[serde(rename = "G1+")]
    G1Plus,
    /// `validateSelection {select, require {counts, allowMixed}, exclude, derive}` with
    /// `execution.mode` or `execution.skillrunner_mode`.
    G2,
    /// G2 without the execution modes; `request.create.mode` required.
    G2b,
    /// Schema v2 (`schemaVersion: 2`).
    #[serde(rename = "v2")]
    V2,
    /// A `schemaVersion` other than 2: no generation this migration knows (the earlier
    /// ones have no `schemaVersion` at all).
    #[serde(rename = "unknown")]
    Unknown,
}

impl Generation {
    /// The name used in reports: `G0`, `G1`, `G1+`, `G2`, `G2b` or `v2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Generation::G0 => "G0",
            Generation::G1 => "G1",
            Generation::G1Plus => "G1+",
            Generation::G2 => "G2",
            Generation::G2b => "G2b",
            Generation::V2 => "v2",
            Generation::Unknown => "unknown",
        }
    }

    /// Recognises the generation of a parsed manifest by its markers. A document with
    /// `schemaVersion: 2` is [`Generation::V2`] whatever else it holds, one with another
    /// `schemaVersion` is [`Generation::Unknown`].
    pub fn detect(manifest: &Value) -> Generation {
        let has = |pointer: &str| manifest.pointer(pointer).is_some();
        match manifest.get("schemaVersion") {
            Some(version) if version.as_u64() == Some(2) => return Generation::V2,
            Some(_) => return Generation::Unknown,
            None => {}
        }
        let g0 = !has("/provider")
            && (has("/backend")
                || has("/defaults")
                || has("/request/create/engine")
                || has("/request/create/parameter")
                || has("/request/result"));
        if g0 {
            return Generation::G0;
        }
        let execution_modes = has("/execution/mode") || has("/execution/skillrunner_mode");
        if has("/validateSelection") {
            return if execution_modes {
                Generation::G2
            } else {
                Generation::G2b
            };
        }
        let g1_plus = has("/execution/skillrunner_mode")
            || has("/trigger")
            || manifest.pointer("/inputs/unit").and_then(Value::as_str) == Some("workflow")
            || has("/request/sequence")
            || has("/display")
            || has("/i18n")
            || has("/taskNameTemplate");
        if g1_plus {
            Generation::G1Plus
        } else {
            Generation::G1
        }
    }

    /// Whether this is an earlier generation than schema v2.
    pub fn is_legacy(self) -> bool {
        !matches!(self, Generation::V2 | Generation::Unknown)
    }
}

/// One rewrite the migration made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// Where the change lands in the migrated manifest (for a removal: where the value
    /// was).
    pub pointer: String,
    /// The value before (`null` for an addition).
    pub from: Value,
    /// The value after (`null` for a removal).
    pub to: Value,
    /// The rule that made the change, e.g. `inputs-unit`.
    pub rule: &'static str,
    /// What the rule did, in words.
    pub message: String,
    /// Whether information was dropped (a setting v2 keeps elsewhere, or a legacy
    /// behaviour v2 cannot express exactly).
    pub lossy: bool,
}

/// Something the migration cannot decide and a person has to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Manual {
    /// JSON pointer in the manifest, when the point is in the manifest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Hook source file, when the point is in a hook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line in `file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What is wrong and what to do.
    pub message: String,
}

impl Manual {
    /// A point in the manifest.
    pub fn at(pointer: &str, message: impl Into<String>) -> Manual {
        Manual {
            pointer: Some(pointer.to_string()),
            file: None,
            line: None,
            message: message.into(),
        }
    }
}

/// The result of [`migrate`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Migration {
    /// The generation the input was written for.
    pub generation: Generation,
    /// The migrated manifest (the input itself when nothing applied).
    pub value: Value,
    /// Every rewrite, in the order the rules ran.
    pub changes: Vec<Change>,
    /// What needs a person.
    pub manual: Vec<Manual>,
}

/// Migrates a parsed manifest to schema v2. `in_package` says whether it belongs to a
/// workflow package (whose hooks must be `.mjs`). A v2 manifest, or anything that is not
/// an object, comes back unchanged.
pub fn migrate(manifest: &Value, in_package: bool) -> Migration {
    let generation = Generation::detect(manifest);
    let unchanged = || Migration {
        generation,
        value: manifest.clone(),
        changes: Vec::new(),
        manual: Vec::new(),
    };
    let Some(doc) = manifest.as_object() else {
        return unchanged();
    };
    if generation == Generation::Unknown {
        let version = manifest.get("schemaVersion").cloned().unwrap_or_default();
        return Migration {
            manual: vec![Manual::at(
                "/schemaVersion",
                format!(
                    "schemaVersion {version} is no generation hookrun migrate knows (pre-v2 \
                     manifests have none): set it to 2 if the manifest is written for schema v2"
                ),
            )],
            ..unchanged()
        };
    }
    if !generation.is_legacy() {
        return unchanged();
    }
    let mut m = Migrator {
        doc: doc.clone(),
        changes: Vec::new(),
        manual: Vec::new(),
        in_package,
    };
    rules::run(&mut m);
    planning::run(&mut m);
    let value = Value::Object(m.doc);
    for problem in crate::manifest::validate_document(&value) {
        let pointer = problem.pointer.clone().unwrap_or_else(|| "/".to_string());
        m.manual.push(Manual::at(
            &pointer,
            format!("still invalid after migration: {}", problem.message),
        ));
    }
    Migration {
        generation,
        value,
        changes: m.changes,
        manual: m.manual,
    }
}

/// The document being migrated and what the rules have recorded so far.
struct Migrator {
    doc: Map<String, Value>,
    changes: Vec<Change>,
    manual: Vec<Manual>,
    in_package: bool,
}

impl Migrator {
    fn change(
        &mut self,
        pointer: &str,
        from: Value,
        to: Value,
        rule: &'static str,
        message: String,
    ) {
        self.record(pointer, from, to, rule, message, false);
    }

    fn lossy(
        &mut self,
        pointer: &str,
        from: Value,
        to: Value,
        rule: &'static str,
        message: String,
    ) {
        self.record(pointer, from, to, rule, message, true);
    }

    fn record(
        &mut self,
        pointer: &str,
        from: Value,
        to: Value,
        rule: &'static str,
        message: String,
        lossy: bool,
    ) {
        self.changes.push(Change {
            pointer: pointer.to_string(),
            from,
            to,
            rule,
            message,
            lossy,
        });
    }

    fn manual(&mut self, pointer: &str, message: impl Into<String>) {
        self.manual.push(Manual::at(pointer, message));
    }
}

/// The value at a JSON pointer below the top-level object `doc`.
fn lookup<'a>(doc: &'a Map<String, Value>, pointer: &str) -> Option<&'a Value> {
    let segments = crate::pointer::segments(pointer)?;
    let (first, rest) = segments.split_first()?;
    rest.iter()
        .try_fold(doc.get(first.as_ref())?, |v, key| match v {
            Value::Array(items) => items.get(key.parse::<usize>().ok()?),
            _ => v.get(key.as_ref()),
        })
}

/// Inserts `key` right after the first key of `after` present in `map`, else at the end.
fn insert_after(map: &mut Map<String, Value>, after: &[&str], key: &str, value: Value) {
    let index = after
        .iter()
        .find_map(|k| map.keys().position(|existing| existing == k))
        .map_or(map.len(), |i| i + 1);
    map.shift_insert(index, key.to_string(), value);
}

/// The object under `key` in `map`, made one (after the first present key of `after`,
/// else at the end) when it is absent or not an object.
fn object_slot<'a>(
    map: &'a mut Map<String, Value>,
    key: &str,
    after: &[&str],
) -> Option<&'a mut Map<String, Value>> {
    if !map.get(key).is_some_and(Value::is_object) {
        map.shift_remove(key);
        insert_after(map, after, key, Value::Object(Map::new()));
    }
    map.get_mut(key).and_then(Value::as_object_mut)
}

#[cfg(test)]
mod tests;
