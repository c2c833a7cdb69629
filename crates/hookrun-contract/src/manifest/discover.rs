//! Discovery of workflows under a path (`01-manifest.md` §12).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::manifest::collate::locale_cmp;
use crate::manifest::diagnostic::{Category, Diagnostic, Level, sort_diagnostics};
use crate::manifest::load::{Loaded, load_workflow};
use crate::manifest::package::{PACKAGE_FILE, load_package, load_package_workflow, package_of};
use crate::manifest::parse::read_json;
use crate::manifest::workflow::Workflow;

/// File name of a workflow manifest.
pub const WORKFLOW_FILE: &str = "workflow.json";
/// Optional listing of a workflows directory (`files` filters the children scanned).
pub const LISTING_FILE: &str = "manifest.json";

/// What a scan found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Discovery {
    /// Loaded workflows (sorted by id after [`discover`]).
    pub workflows: Vec<Workflow>,
    /// Every diagnostic (sorted in the contract's order after [`discover`]).
    pub diagnostics: Vec<Diagnostic>,
}

impl Discovery {
    /// Adds one load outcome.
    pub fn push(&mut self, loaded: Loaded) {
        self.workflows.extend(loaded.workflow);
        self.diagnostics.extend(loaded.diagnostics);
    }

    /// Diagnostics of level `warning` (skipped workflows and scan warnings).
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.level == Level::Warning)
    }

    /// Diagnostics of level `error` (unreadable workflows paths).
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.level == Level::Error)
    }

    /// Adds another scan's results, keeping load order.
    pub fn merge(&mut self, other: Discovery) {
        self.workflows.extend(other.workflows);
        self.diagnostics.extend(other.diagnostics);
    }

    /// Resolves duplicate ids (the last loaded wins, each replacement is reported as a
    /// `scan_runtime_warning`), then sorts workflows by id (as `localeCompare` does) and
    /// diagnostics by the contract's order.
    pub fn finish(mut self) -> Self {
        let mut kept: Vec<Workflow> = Vec::with_capacity(self.workflows.len());
        for workflow in self.workflows {
            if let Some(earlier) = kept.iter_mut().find(|w| w.id == workflow.id) {
                self.diagnostics.push(
                    Diagnostic::new(
                        Category::ScanRuntimeWarning,
                        format!(
                            "Duplicate workflow id {}: {} replaces {}; rename one of them",
                            workflow.id,
                            workflow.manifest_path.display(),
                            earlier.manifest_path.display()
                        ),
                    )
                    .with_path(&workflow.manifest_path)
                    .with_workflow_id(Some(&workflow.id)),
                );
                *earlier = workflow;
            } else {
                kept.push(workflow);
            }
        }
        kept.sort_by(|a, b| locale_cmp(&a.id, &b.id));
        sort_diagnostics(&mut self.diagnostics);
        Discovery {
            workflows: kept,
            diagnostics: self.diagnostics,
        }
    }
}

/// Discovers workflows at `path`: a `workflow.json` or `workflow-package.json` file, a
/// directory holding one of them, or a workflows directory whose direct children are
/// scanned in one pass in the reference host's order (names compared as `localeCompare`
/// does, packages and single workflows together; a child with a `workflow-package.json`
/// is a package). A workflow that a package above it lists is loaded with that package,
/// however it is named (its directory, its `workflow.json`, or a directory of such
/// workflows): its imports resolve inside the package root, as on the reference host.
/// One broken workflow never stops the others.
///
/// ```
/// use hookrun_contract::manifest::discover;
///
/// let found = discover("../../fixtures/workflows".as_ref());
/// assert!(found.workflows.iter().any(|w| w.id == "export-summary"));
/// // What could not be loaded is reported, not fatal.
/// for problem in &found.diagnostics {
///     eprintln!("{problem:?}");
/// }
/// ```
pub fn discover(path: &Path) -> Discovery {
    scan(path).finish()
}

fn scan(path: &Path) -> Discovery {
    let mut out = Discovery::default();
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(err) => {
            out.diagnostics
                .push(path_error(path, "Cannot read workflows path", &err));
            return out;
        }
    };
    if metadata.is_file() {
        let name = path.file_name().and_then(|n| n.to_str());
        match name {
            Some(WORKFLOW_FILE) => out.merge(load_one(path)),
            Some(PACKAGE_FILE) => out.merge(load_package(path.parent().unwrap_or(Path::new(".")))),
            _ => out.diagnostics.push(
                Diagnostic::new(
                    Category::ScanPathError,
                    format!(
                        "Not a workflow: {}; pass a directory, a {WORKFLOW_FILE} or a {PACKAGE_FILE}",
                        path.display()
                    ),
                )
                .with_path(path),
            ),
        }
    } else if path.join(PACKAGE_FILE).is_file() {
        out.merge(load_package(path));
    } else if path.join(WORKFLOW_FILE).is_file() {
        out.merge(load_one(&path.join(WORKFLOW_FILE)));
    } else {
        out.merge(scan_children(path));
    }
    out
}

/// The workflow at `manifest_path` as a host loads it: with its package when a package
/// lists it (the package root its module root, as the reference host always loads a
/// package's workflow), else on its own (its directory the module root).
fn load_one(manifest_path: &Path) -> Discovery {
    match package_of(manifest_path) {
        Some(package_dir) => load_package_workflow(&package_dir, manifest_path),
        None => {
            let mut found = Discovery::default();
            found.push(load_workflow(manifest_path));
            found
        }
    }
}

fn path_error(path: &Path, text: &str, err: &std::io::Error) -> Diagnostic {
    Diagnostic::new(
        Category::ScanPathError,
        format!("{text} {}", path.display()),
    )
    .with_path(path)
    .with_reason(err.to_string())
}

fn scan_children(dir: &Path) -> Discovery {
    let mut out = Discovery::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            // The reference loader's wording, the error inline and as the reason.
            out.diagnostics.push(
                Diagnostic::new(
                    Category::ScanPathError,
                    format!(
                        "Unable to read workflows directory: {} ({err})",
                        dir.display()
                    ),
                )
                .with_path(dir)
                .with_reason(err.to_string()),
            );
            return out;
        }
    };
    let allowed = listing_filter(dir, &mut out.diagnostics);
    let mut children: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            )
        })
        .filter(|(name, path)| {
            path.is_dir()
                && allowed
                    .as_ref()
                    .is_none_or(|allowed| allowed.contains(name))
        })
        .collect();
    children.sort_by(|(a, _), (b, _)| locale_cmp(a, b));
    for (name, path) in children {
        if path.join(PACKAGE_FILE).is_file() {
            out.merge(with_entry(load_package(&path), &name));
        } else if path.join(WORKFLOW_FILE).is_file() {
            out.merge(with_entry(load_one(&path.join(WORKFLOW_FILE)), &name));
        }
    }
    out
}

fn with_entry(mut found: Discovery, entry: &str) -> Discovery {
    found.diagnostics = found
        .diagnostics
        .into_iter()
        .map(|d| d.with_entry(Some(entry)))
        .collect();
    found
}

/// First path segments listed in `manifest.json` `files`, if that file declares them.
fn listing_filter(dir: &Path, diagnostics: &mut Vec<Diagnostic>) -> Option<HashSet<String>> {
    let listing = dir.join(LISTING_FILE);
    if !listing.is_file() {
        return None;
    }
    let value = match read_json(&listing) {
        Ok(value) => value,
        Err(problem) => {
            diagnostics.push(
                Diagnostic::new(
                    Category::ScanRuntimeWarning,
                    format!(
                        "Ignoring unreadable {}; scanning every child directory",
                        listing.display()
                    ),
                )
                .with_path(&listing)
                .with_reason(problem.reason.unwrap_or_default()),
            );
            return None;
        }
    };
    let files = value.get("files")?.as_array()?;
    Some(
        files
            .iter()
            .filter_map(Value::as_str)
            .filter_map(|file| file.split(['/', '\\']).find(|s| !s.is_empty() && *s != "."))
            .map(str::to_string)
            .collect(),
    )
}
