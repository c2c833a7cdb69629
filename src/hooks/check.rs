//! Loading a workflow's hook modules without running any hook: every declared
//! module must compile, resolve its imports inside the jail, and export the
//! named function.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::manifest::migrate::files::{hook_scope, legacy_uses_below};
use crate::manifest::{Category, Diagnostic, Discovery, Library, Workflow, discover, locate};
use crate::sandbox::{CallResult, Sandbox, SandboxOptions};

/// What `hookrun check` found for one workflow.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedWorkflow {
    /// Workflow id.
    pub id: String,
    /// The `workflow.json` path.
    pub path: String,
    /// Declared hooks: name → manifest-relative module path.
    pub hooks: serde_json::Map<String, serde_json::Value>,
    /// Whether the workflow loads with every hook.
    pub ok: bool,
}

/// The result of checking a path: workflows and every diagnostic.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// Workflows found, sorted by id.
    pub workflows: Vec<CheckedWorkflow>,
    /// Every problem, sorted in the contract's order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Discovers the workflows at `path` and loads every declared hook module.
///
/// ```
/// use hookrun::hooks::check;
///
/// let report = check("fixtures/workflows/export-summary".as_ref(), Default::default());
/// assert_eq!(report.workflows.len(), 1);
/// assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
/// ```
pub fn check(path: &Path, options: SandboxOptions) -> CheckReport {
    check_discovery(discover(path), options)
}

/// Checks the winners of a library (its overrides reported as warnings).
pub fn check_library(library: &Library, options: SandboxOptions) -> CheckReport {
    check_discovery(library.discovery(), options)
}

fn check_discovery(found: Discovery, options: SandboxOptions) -> CheckReport {
    let Discovery {
        workflows,
        mut diagnostics,
    } = found;
    let mut checked = Vec::with_capacity(workflows.len());
    for workflow in &workflows {
        let problems = check_hooks(workflow, options);
        checked.push(CheckedWorkflow {
            id: workflow.id.clone(),
            path: workflow.manifest_path.display().to_string(),
            hooks: workflow
                .hooks
                .iter()
                .map(|h| (h.export.to_string(), h.relative.clone().into()))
                .collect(),
            ok: problems.is_empty(),
        });
        diagnostics.extend(problems);
    }
    diagnostics.extend(legacy_hook_api(&workflows, &diagnostics));
    let skipped: Vec<String> = diagnostics
        .iter()
        .filter(|d| !d.category.is_advisory())
        .filter_map(|d| d.workflow_id.clone())
        .collect();
    for w in &mut checked {
        w.ok = w.ok && !skipped.contains(&w.id);
    }
    for d in &mut diagnostics {
        add_position(d);
    }
    crate::manifest::sort_diagnostics(&mut diagnostics);
    CheckReport {
        workflows: checked,
        diagnostics,
    }
}

/// A `legacy_hook_api` warning for every hook source line, in the workflows found and
/// in the pre-v2 manifests that were skipped, that uses a member v2 hosts do not provide:
/// once per line, however many workflows of one package (or nested roots) hold it.
fn legacy_hook_api(workflows: &[Workflow], diagnostics: &[Diagnostic]) -> Vec<Diagnostic> {
    // Each root once (canonical), with the path it is named by as the first workflow
    // in it was given.
    let mut roots: Vec<(PathBuf, PathBuf)> = Vec::new();
    let named = workflows
        .iter()
        .map(|w| (w.package_root.clone(), given_root(w)));
    let skipped = diagnostics
        .iter()
        .filter(|d| d.category == Category::LegacyManifest)
        .filter_map(|d| d.path.as_deref())
        .map(|path| (hook_scope(path), hook_scope(path)));
    for (root, given) in named.chain(skipped) {
        let root = root.canonicalize().unwrap_or(root);
        if !roots.iter().any(|(known, _)| *known == root) {
            roots.push((root, given));
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (root, given) in roots {
        let Ok(uses) = legacy_uses_below(&root) else {
            continue;
        };
        for (path, found) in uses {
            if !seen.insert((path.clone(), found.line, found.column)) {
                continue;
            }
            let shown = path
                .strip_prefix(&root)
                .map_or(path.clone(), |rel| given.join(rel));
            out.push(
                Diagnostic::new(Category::LegacyHookApi, found.message())
                    .with_path(&shown)
                    .with_position(found.line, found.column),
            );
        }
    }
    out
}

/// The workflow's package root as the path it was given by: its manifest's
/// directory, then up to the package root (by dropping names when the path has
/// no `.` or `..` in it, else by appending `..`).
fn given_root(workflow: &Workflow) -> PathBuf {
    let dir = workflow.manifest_path.parent().unwrap_or(Path::new("."));
    let depth = workflow
        .workflow_dir
        .strip_prefix(&workflow.package_root)
        .map_or(0, |rel| rel.components().count());
    let names = dir
        .components()
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .count();
    let plain = dir.components().all(|c| {
        !matches!(
            c,
            std::path::Component::CurDir | std::path::Component::ParentDir
        )
    });
    match dir.ancestors().nth(depth) {
        Some(up) if plain && names >= depth => up.to_path_buf(),
        _ => (0..depth).fold(dir.to_path_buf(), |up, _| up.join("..")),
    }
}

/// Fills in the line and column of a diagnostic that names a pointer in a
/// JSON file that can be read.
fn add_position(d: &mut Diagnostic) {
    if d.line.is_some() {
        return;
    }
    let (Some(path), Some(pointer)) = (&d.path, &d.pointer) else {
        return;
    };
    if path.extension().is_none_or(|e| e != "json") {
        return;
    }
    if let Some((line, column)) = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| locate(&text, pointer))
    {
        d.line = Some(line);
        d.column = Some(column);
    }
}

/// Loads each declared hook of `workflow` in a sandbox rooted at its jail root.
pub fn check_hooks(workflow: &Workflow, options: SandboxOptions) -> Vec<Diagnostic> {
    let mut sandbox = match Sandbox::new(&workflow.jail_root, super::sandbox_options(options)) {
        Ok(sandbox) => sandbox,
        Err(e) => {
            return workflow
                .hooks
                .iter()
                .map(|h| h.import_failed(&workflow.id, &e.to_string()))
                .collect();
        }
    };
    let mut problems = Vec::new();
    for hook in &workflow.hooks {
        match sandbox.exports(&hook.path) {
            Ok(exports) => {
                if !exports.iter().any(|(name, f)| name == hook.export && *f) {
                    problems.push(hook.export_missing(&workflow.id));
                }
            }
            Err(failure) => {
                let mut d =
                    hook.import_failed(&workflow.id, &failure.error_message().unwrap_or_default());
                if let CallResult::LoadError(f) | CallResult::HookError(f) = &failure
                    && let Some(loc) = &f.location
                {
                    d = d
                        .with_path(&workflow.jail_root.join(&loc.file))
                        .with_position(loc.line as usize, loc.column as usize);
                }
                problems.push(d);
            }
        }
    }
    problems
}
