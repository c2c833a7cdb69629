//! Helpers shared by the module's tests: a valid base manifest, pointer edits and
//! on-disk workflow trees.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The repository root, where `fixtures/` and `schema/` are.
pub fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The editor schema (`schema/workflow.v2.schema.json`) as a validator, built once.
pub fn editor_schema() -> &'static jsonschema::Validator {
    static EDITOR: std::sync::OnceLock<jsonschema::Validator> = std::sync::OnceLock::new();
    EDITOR.get_or_init(|| {
        let path = repo().join("schema/workflow.v2.schema.json");
        let schema = crate::manifest::read_json(&path).unwrap_or_else(|d| panic!("{}", d.message));
        jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("schema: {e}"))
    })
}

/// A minimal valid hook-built manifest.
pub fn base() -> Value {
    json!({
        "schemaVersion": 2,
        "id": "demo",
        "label": "Demo",
        "provider": "skillrunner",
        "trigger": {"requiresSelection": true},
        "inputs": {"member": {"kind": "attachment"}, "grouping": {"mode": "each"}},
        "validateSelection": {"select": {"policy": "input-member", "source": "selected"}, "filters": []},
        "hooks": {"applyResult": "hooks/apply.mjs", "buildRequest": "hooks/build.mjs"}
    })
}

/// `base()` with edits applied: `(pointer, Some(value))` sets, `(pointer, None)` removes.
pub fn edited(edits: &[(&str, Option<Value>)]) -> Value {
    let mut manifest = base();
    for (pointer, value) in edits {
        edit(&mut manifest, pointer, value.clone());
    }
    manifest
}

/// Sets (creating objects on the way) or removes the value at `pointer`.
pub fn edit(root: &mut Value, pointer: &str, value: Option<Value>) {
    let mut parts: Vec<String> = crate::pointer::segments(pointer)
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.into_owned())
        .collect();
    let Some(last) = parts.pop() else {
        return;
    };
    let mut node = root;
    for part in parts {
        node = match node {
            Value::Array(items) => {
                match part.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                    Some(item) => item,
                    None => return,
                }
            }
            Value::Object(map) => map.entry(part).or_insert_with(|| json!({})),
            _ => return,
        };
    }
    match (node, value) {
        (Value::Object(map), Some(v)) => {
            map.insert(last, v);
        }
        (Value::Object(map), None) => {
            map.shift_remove(&last);
        }
        (Value::Array(items), Some(v)) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => items[i] = v,
            _ => items.push(v),
        },
        (Value::Array(items), None) => {
            if let Ok(i) = last.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
}

/// Writes `files` (relative path → content) under `root`.
pub fn write_tree(root: &Path, files: &[(&str, String)]) -> PathBuf {
    for (relative, content) in files {
        let path = root.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("mkdir {parent:?}: {e}"));
        }
        std::fs::write(&path, content).unwrap_or_else(|e| panic!("write {path:?}: {e}"));
    }
    root.to_path_buf()
}

/// A single workflow directory `<root>/<dir>` with `manifest` and its two base hooks.
pub fn write_workflow(root: &Path, dir: &str, manifest: &Value) -> PathBuf {
    let hook = "export async function applyResult() {}\nexport function buildRequest() {}\n";
    write_tree(
        root,
        &[
            (&format!("{dir}/workflow.json"), manifest.to_string()),
            (&format!("{dir}/hooks/apply.mjs"), hook.to_string()),
            (&format!("{dir}/hooks/build.mjs"), hook.to_string()),
        ],
    );
    root.join(dir)
}

/// The messages of `diagnostics`.
pub fn messages(diagnostics: &[crate::manifest::Diagnostic]) -> Vec<String> {
    diagnostics.iter().map(|d| d.message.clone()).collect()
}
