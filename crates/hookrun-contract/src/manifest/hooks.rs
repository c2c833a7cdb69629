//! Hook declarations and path resolution (`01-manifest.md` §10).

use std::path::{Component, Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::manifest::diagnostic::{Category, Diagnostic};

/// One of the four hooks, in the contract's load order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum HookName {
    /// `applyResult` (required).
    ApplyResult,
    /// `preflight`.
    Preflight,
    /// `buildRequest`.
    BuildRequest,
    /// `normalizeSettings`.
    NormalizeSettings,
}

impl HookName {
    /// Every hook in load order.
    pub const LOAD_ORDER: [HookName; 4] = [
        HookName::ApplyResult,
        HookName::Preflight,
        HookName::BuildRequest,
        HookName::NormalizeSettings,
    ];

    /// The manifest key under `hooks`, which is also the named export.
    pub fn export_name(self) -> &'static str {
        match self {
            HookName::ApplyResult => "applyResult",
            HookName::Preflight => "preflight",
            HookName::BuildRequest => "buildRequest",
            HookName::NormalizeSettings => "normalizeSettings",
        }
    }

    /// The JSON pointer of the declaration, e.g. `/hooks/applyResult`.
    pub fn pointer(self) -> String {
        format!("/hooks/{}", self.export_name())
    }
}

/// A declared hook whose file exists inside the module jail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclaredHook {
    /// Which hook.
    pub name: HookName,
    /// The named export to call (same as the manifest key).
    pub export: &'static str,
    /// Absolute, canonical path of the module file.
    pub path: PathBuf,
    /// The path as written in the manifest (relative to the workflow directory).
    pub relative: String,
}

impl DeclaredHook {
    /// The `hook_import_error` to report when the module cannot be loaded or compiled:
    /// `Skip workflow <id>: Hook import failed: <relative path>`, `reason` = error text.
    pub fn import_failed(&self, workflow_id: &str, reason: &str) -> Diagnostic {
        self.skip_diagnostic(
            workflow_id,
            Category::HookImportError,
            format!("Hook import failed: {}", self.relative),
        )
        .with_reason(reason)
    }

    /// The `hook_export_error` to report when the named export is missing or not a
    /// function: `Skip workflow <id>: Hook export <name>() not found: <relative path>`,
    /// `reason` = `<name> export missing`.
    pub fn export_missing(&self, workflow_id: &str) -> Diagnostic {
        self.skip_diagnostic(
            workflow_id,
            Category::HookExportError,
            format!("Hook export {}() not found: {}", self.export, self.relative),
        )
        .with_reason(format!("{} export missing", self.export))
    }

    fn skip_diagnostic(&self, workflow_id: &str, category: Category, text: String) -> Diagnostic {
        Diagnostic::new(category, format!("Skip workflow {workflow_id}: {text}"))
            .with_path(&self.path)
            .with_pointer(&self.name.pointer())
            .with_workflow_id(Some(workflow_id))
    }
}

/// Where hook paths are resolved and which rules apply.
pub(crate) struct HookRoots<'a> {
    /// Canonical directory holding `workflow.json`.
    pub workflow_dir: &'a Path,
    /// Canonical root no hook may leave.
    pub jail_root: &'a Path,
    /// Package workflows need `.mjs` hooks.
    pub in_package: bool,
    /// Workflow id for the `Skip workflow <id>: ` prefix.
    pub workflow_id: &'a str,
}

/// Resolves every declared hook in load order; all problems are reported.
pub(crate) fn resolve_hooks(
    manifest: &Value,
    roots: &HookRoots<'_>,
) -> Result<Vec<DeclaredHook>, Vec<Diagnostic>> {
    let mut hooks = Vec::new();
    let mut problems = Vec::new();
    for name in HookName::LOAD_ORDER {
        let pointer = name.pointer();
        let Some(relative) = manifest.pointer(&pointer).and_then(Value::as_str) else {
            continue;
        };
        match resolve_one(name, relative, roots) {
            Ok(path) => hooks.push(DeclaredHook {
                name,
                export: name.export_name(),
                path,
                relative: relative.to_string(),
            }),
            Err(problem) => problems.push(problem.with_pointer(&pointer)),
        }
    }
    if problems.is_empty() {
        Ok(hooks)
    } else {
        Err(problems)
    }
}

fn resolve_one(
    name: HookName,
    relative: &str,
    roots: &HookRoots<'_>,
) -> Result<PathBuf, Box<Diagnostic>> {
    let skip = |category: Category, text: String, reason: String| {
        Box::new(
            Diagnostic::new(
                category,
                format!("Skip workflow {}: {text}", roots.workflow_id),
            )
            .with_reason(reason),
        )
    };
    if roots.in_package && !relative.ends_with(".mjs") {
        return Err(skip(
            Category::ManifestValidationError,
            format!("Workflow-package hook must use .mjs: {relative}"),
            format!(
                "{} hook in workflow-package must use .mjs",
                name.export_name()
            ),
        ));
    }
    if !relative.ends_with(".mjs") && !relative.ends_with(".js") {
        let text = format!("must name a .mjs or .js module: {relative}");
        return Err(Box::new(Diagnostic::validation(&name.pointer(), &text)));
    }
    let escape = || {
        let text = format!(
            "leaves the module root {}: {relative}; keep hook {}() inside it",
            roots.jail_root.display(),
            name.export_name()
        );
        Box::new(Diagnostic::validation(&name.pointer(), &text))
    };
    let joined = normalize_lexically(&roots.workflow_dir.join(relative));
    if !joined.starts_with(roots.jail_root) {
        return Err(escape());
    }
    let missing = |reason: String| {
        skip(
            Category::HookMissingError,
            format!("Hook file missing: {relative}"),
            reason,
        )
    };
    if !joined.is_file() {
        return Err(missing(HOOK_PATH_MISSING.to_string()));
    }
    match joined.canonicalize() {
        Ok(canonical) if canonical.starts_with(roots.jail_root) => Ok(canonical),
        Ok(_) => Err(escape()),
        Err(err) => Err(missing(err.to_string())),
    }
}

/// The reference loader's reason for a declared hook file that does not exist.
const HOOK_PATH_MISSING: &str = "Error: workflow path does not exist";

/// Resolves `.` and `..` without touching the file system (`..` at the root stays there).
pub(crate) fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}
