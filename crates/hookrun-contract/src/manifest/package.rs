//! Workflow packages: `workflow-package.json` (`01-manifest.md` §11).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::manifest::diagnostic::Diagnostic;
use crate::manifest::discover::Discovery;
use crate::manifest::hooks::normalize_lexically;
use crate::manifest::i18n::{is_package_relative, load_package_locales};
use crate::manifest::load::{Context, PackageContext, canonical_dir, digest_or_warning, load_in};
use crate::manifest::parse::read_json;
use crate::manifest::schema::validate_package;

/// File name of a package manifest.
pub const PACKAGE_FILE: &str = "workflow-package.json";

/// Loads every workflow listed in `<package_dir>/workflow-package.json`. Each workflow is
/// loaded independently; the package root is the module jail root of all of them.
pub fn load_package(package_dir: &Path) -> Discovery {
    load_listed(package_dir, None)
}

/// Loads the workflow at `manifest_path` as its package at `package_dir` loads it (see
/// [`package_of`]): the package root is its module jail root, and it has the package's
/// id, version, messages and digest. The package's own problems come with it; its
/// other workflows are not loaded. The workflow keeps `manifest_path` as given.
pub fn load_package_workflow(package_dir: &Path, manifest_path: &Path) -> Discovery {
    load_listed(package_dir, Some(manifest_path))
}

/// The package that lists the workflow at `manifest_path`: the nearest directory, from
/// the workflow's own upwards, whose `workflow-package.json` names it in `workflows`. A
/// package file that cannot be read names nothing.
pub fn package_of(manifest_path: &Path) -> Option<PathBuf> {
    let manifest = manifest_path.canonicalize().ok()?;
    let workflow_dir = manifest.parent()?;
    workflow_dir.ancestors().find_map(|dir| {
        let package = read_json(&dir.join(PACKAGE_FILE)).ok()?;
        let entries = package.get("workflows").and_then(Value::as_array)?;
        entries
            .iter()
            .filter_map(Value::as_str)
            .any(|entry| workflow_path(dir, entry).is_some_and(|p| p == manifest))
            .then(|| dir.to_path_buf())
    })
}

/// The workflows of the package at `package_dir`: every one listed, or only the one at
/// `only` (a path to its `workflow.json`), loaded under the package's context.
fn load_listed(package_dir: &Path, only: Option<&Path>) -> Discovery {
    let mut out = Discovery::default();
    let package_file = package_dir.join(PACKAGE_FILE);
    let Some((package, root)) = read_package(package_dir, &package_file, &mut out.diagnostics)
    else {
        return out;
    };
    let (messages, locale_problems) = load_package_locales(&root, &package_file, &package);
    out.diagnostics.extend(locale_problems);
    let context = PackageContext {
        id: package
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        version: package
            .get("version")
            .and_then(Value::as_str)
            .map(str::to_string),
        digest: digest_or_warning(&root, &package_file, &mut out.diagnostics),
        root,
        messages,
    };
    let wanted = only.and_then(|path| path.canonicalize().ok());
    let entries = package.get("workflows").and_then(Value::as_array);
    for (i, entry) in entries.into_iter().flatten().enumerate() {
        let Some(entry) = entry.as_str() else {
            continue;
        };
        match (&wanted, workflow_path(&context.root, entry)) {
            (None, resolved) => load_entry(&context, &package_file, i, entry, resolved, &mut out),
            (Some(wanted), Some(resolved)) if resolved == *wanted => {
                let given = only.map_or(resolved.clone(), Path::to_path_buf);
                load_entry(&context, &package_file, i, entry, Some(given), &mut out);
            }
            (Some(_), _) => {}
        }
    }
    out
}

/// The package manifest at `package_file`, valid, and the package's canonical root;
/// `None`, with the problem added to `diagnostics`, when either cannot be had.
fn read_package(
    package_dir: &Path,
    package_file: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Value, PathBuf)> {
    let package = match read_json(package_file) {
        Ok(value) => value,
        Err(diagnostic) => {
            diagnostics.push(*diagnostic);
            return None;
        }
    };
    let errors = validate_package(&package);
    if !errors.is_empty() {
        diagnostics.extend(errors.into_iter().map(|d| d.with_path(package_file)));
        return None;
    }
    match canonical_dir(package_dir, package_file) {
        Ok(root) => Some((package, root)),
        Err(diagnostic) => {
            diagnostics.push(*diagnostic);
            None
        }
    }
}

/// Loads the workflow of `workflows[i]`, `entry`, found at `manifest_path`, into `out`,
/// or reports an entry that leaves the package root (`None`).
fn load_entry(
    context: &PackageContext,
    package_file: &Path,
    i: usize,
    entry: &str,
    manifest_path: Option<PathBuf>,
    out: &mut Discovery,
) {
    match manifest_path {
        Some(manifest_path) => {
            let loaded = load_in(
                &Context {
                    jail_root: context.root.clone(),
                    package: Some(context.clone()),
                    digest: context.digest.clone(),
                    entry: Some(entry.to_string()),
                },
                &manifest_path,
            );
            out.push(loaded);
        }
        None => {
            let text = format!("must be a package-relative path inside the package: {entry}");
            let pointer = format!("/workflows/{i}");
            out.diagnostics.push(
                Diagnostic::validation(&pointer, &text)
                    .with_path(package_file)
                    .with_entry(Some(entry)),
            );
        }
    }
}

/// The path of a `workflows[]` entry, or `None` when it leaves the package root.
fn workflow_path(root: &Path, entry: &str) -> Option<PathBuf> {
    if !is_package_relative(entry) {
        return None;
    }
    let joined = normalize_lexically(&root.join(entry));
    let resolved = joined.canonicalize().unwrap_or(joined);
    resolved.starts_with(root).then_some(resolved)
}

#[cfg(test)]
#[path = "package_tests.rs"]
mod tests;
