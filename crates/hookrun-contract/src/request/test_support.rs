//! Helpers shared by the module's tests: manifests written to temporary workflow
//! directories, selection fixtures and a host answering attachment paths.

use std::path::Path;

use serde_json::{Value, json};

use crate::manifest::{Workflow, load_workflow};
use crate::request::files::AttachmentRef;
use crate::selection::SelectionContext;

/// A valid manifest for `provider` without a request declaration.
pub(crate) fn manifest(provider: &str) -> Value {
    json!({
        "schemaVersion": 2,
        "id": "demo",
        "label": "Demo",
        "provider": provider,
        "trigger": {"requiresSelection": true},
        "inputs": {"member": {"kind": "attachment"}, "grouping": {"mode": "each"}},
        "validateSelection": {"select": {"policy": "input-member", "source": "selected"}, "filters": []},
        "hooks": {"applyResult": "hooks/apply.mjs"}
    })
}

/// [`manifest`] with `request` declared.
pub(crate) fn declaring(provider: &str, request: Value) -> Value {
    let mut manifest = manifest(provider);
    manifest["request"] = request;
    manifest
}

/// Loads `manifest` through the manifest loader (with empty hook files).
pub(crate) fn load(manifest: &Value) -> Workflow {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let write = |relative: &str, content: &str| {
        let path = dir.path().join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("mkdir: {e}"));
        }
        std::fs::write(&path, content).unwrap_or_else(|e| panic!("write {path:?}: {e}"));
    };
    write("workflow.json", &manifest.to_string());
    write("hooks/apply.mjs", "export function applyResult() {}\n");
    write("hooks/build.mjs", "export function buildRequest() {}\n");
    let loaded = load_workflow(&dir.path().join("workflow.json"));
    loaded.workflow.unwrap_or_else(|| {
        let messages: Vec<_> = loaded.diagnostics.iter().map(|d| &d.message).collect();
        panic!("manifest rejected: {messages:?}")
    })
}

/// The selection fixture `fixtures/selections/<name>.json`.
pub(crate) fn fixture(name: &str) -> SelectionContext {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("fixtures/selections")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    SelectionContext::from_json_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// A selection from JSON.
pub(crate) fn selection(value: Value) -> SelectionContext {
    SelectionContext::from_value(&value).unwrap_or_else(|e| panic!("selection: {e}"))
}

/// The host of the fixtures: canonical attachments live in `/zotero/storage/<KEY>/`
/// (`ATTMISS1` is unavailable); grouped file paths are answered below `/data/`. Handoff
/// answers come from `/bridge/`.
pub(crate) fn host(attachment: &AttachmentRef<'_>, handoff: bool) -> Option<String> {
    let root = if handoff {
        "/bridge"
    } else {
        "/zotero/storage"
    };
    match attachment {
        AttachmentRef::Ref(reference) => {
            let name = match reference.key.as_str() {
                "ATTPDF01" => "cats.pdf",
                "ATTMD001" => "cats.md",
                "ATTMD002" => "dogs.md",
                "ATTSNAP1" => "index.html",
                _ => return None,
            };
            Some(format!("{root}/{}/{name}", reference.key))
        }
        AttachmentRef::FilePath(path) if path.contains("MISSING") => None,
        AttachmentRef::FilePath(path) if handoff => Some(format!("/bridge/{path}")),
        AttachmentRef::FilePath(path) => Some(format!("/data/{path}")),
    }
}
