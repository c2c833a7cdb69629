//! Migrating files: a `workflow.json`, a workflow or package directory, or a tree of
//! them. Each manifest is migrated with [`migrate`], rendered in the
//! style of the file it came from, and its workflow's (or package's) hook sources are
//! scanned for members v2 hosts do not provide.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Value, json};

use super::{Change, Generation, Manual, legacy_api, migrate, render_like};
use crate::manifest::discover::WORKFLOW_FILE;
use crate::manifest::package::PACKAGE_FILE;
use crate::walk::{WalkEntry, WalkError, WalkLimits, walk};

/// What became of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Rewritten to schema v2 with nothing left for a person.
    Migrated,
    /// Something needs a person (see [`FileMigration::manual`]).
    NeedsAttention,
    /// Already schema v2; nothing to do.
    AlreadyV2,
}

impl Status {
    /// The report literal: `migrated`, `needs-attention` or `already-v2`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Migrated => "migrated",
            Status::NeedsAttention => "needs-attention",
            Status::AlreadyV2 => "already-v2",
        }
    }
}

/// The migration of one manifest file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileMigration {
    /// The `workflow.json` or `workflow-package.json`.
    pub path: PathBuf,
    /// The generation of a `workflow.json`; `None` for a `workflow-package.json`.
    pub generation: Option<Generation>,
    /// Outcome.
    pub status: Status,
    /// Every rewrite.
    pub changes: Vec<Change>,
    /// What needs a person, hook source lines included.
    pub manual: Vec<Manual>,
    /// The file's text as read.
    #[serde(skip)]
    pub original: String,
    /// The text after migration (`original` when nothing changed).
    #[serde(skip)]
    pub migrated: String,
}

impl FileMigration {
    /// Whether migrating changes the file's text.
    pub fn is_changed(&self) -> bool {
        self.original != self.migrated
    }

    /// Writes the migrated text over the file when it differs.
    pub fn write(&self) -> std::io::Result<()> {
        if self.is_changed() {
            fs::write(&self.path, &self.migrated)?;
        }
        Ok(())
    }

    /// The report object: `{path, generation, status, changes, manual}`.
    pub fn to_json(&self) -> Value {
        json!({
            "path": self.path.display().to_string(),
            "generation": self.generation.map(Generation::as_str),
            "status": self.status.as_str(),
            "changes": self.changes,
            "manual": self.manual,
        })
    }
}

/// Why files could not be looked at.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MigrateError {
    /// The path does not exist or cannot be read.
    #[error("cannot read {path}: {message}")]
    Unreadable {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        message: String,
    },
    /// A file that is neither a `workflow.json` nor a `workflow-package.json`.
    #[error(
        "{0} is not a workflow manifest: pass a {WORKFLOW_FILE}, a {PACKAGE_FILE} or a directory"
    )]
    NotAManifest(PathBuf),
    /// The tree is too large or deep to walk.
    #[error("{root}: {source}")]
    Walk {
        /// The directory walked.
        root: PathBuf,
        /// What stopped the walk.
        source: WalkError,
    },
}

/// Migrates every manifest at `path` (a `workflow.json`, a `workflow-package.json`, a
/// directory holding one, or a tree) without writing anything. Packages come before
/// their workflows; otherwise the order is by path.
pub fn migrate_path(path: &Path) -> Result<Vec<FileMigration>, MigrateError> {
    let metadata = fs::metadata(path).map_err(|e| unreadable(path, &e))?;
    let mut out = Vec::new();
    if metadata.is_file() {
        match path.file_name().and_then(|n| n.to_str()) {
            Some(WORKFLOW_FILE) => {
                let package = enclosing_package(path);
                let mut file = workflow_file(path, package.as_deref())?;
                let scope = package.unwrap_or_else(|| manifest_dir(path));
                attach_hook_uses(&mut file, &scope)?;
                out.push(file);
            }
            Some(PACKAGE_FILE) => out.extend(package_files(path)?),
            _ => return Err(MigrateError::NotAManifest(path.to_path_buf())),
        }
        return Ok(out);
    }
    if path.join(PACKAGE_FILE).is_file() || path.join(WORKFLOW_FILE).is_file() {
        let file = if path.join(PACKAGE_FILE).is_file() {
            PACKAGE_FILE
        } else {
            WORKFLOW_FILE
        };
        return migrate_path(&path.join(file));
    }
    let found = manifests_below(path)?;
    let packages: Vec<&PathBuf> = found.iter().filter(|p| p.ends_with(PACKAGE_FILE)).collect();
    let mut claimed = Vec::new();
    for package in &packages {
        let files = package_files(package)?;
        claimed.extend(files.iter().map(|f| f.path.clone()));
        out.extend(files);
    }
    for manifest in found.iter().filter(|p| p.ends_with(WORKFLOW_FILE)) {
        if claimed.contains(manifest) {
            continue;
        }
        let package = packages
            .iter()
            .find(|p| p.parent().is_some_and(|root| manifest.starts_with(root)))
            .and_then(|p| p.parent());
        let mut file = workflow_file(manifest, package)?;
        if package.is_none() {
            attach_hook_uses(&mut file, &manifest_dir(manifest))?;
        }
        out.push(file);
    }
    Ok(out)
}

fn unreadable(path: &Path, err: &std::io::Error) -> MigrateError {
    MigrateError::Unreadable {
        path: path.to_path_buf(),
        message: err.to_string(),
    }
}

/// The package root above a `workflow.json`, if one of its ancestors (up to four
/// levels) holds a `workflow-package.json`.
fn enclosing_package(manifest: &Path) -> Option<PathBuf> {
    let absolute = fs::canonicalize(manifest).ok()?;
    absolute
        .ancestors()
        .skip(1)
        .take(4)
        .find(|dir| dir.join(PACKAGE_FILE).is_file())
        .map(Path::to_path_buf)
}

/// Every `workflow.json` and `workflow-package.json` below `root`, sorted by path.
fn manifests_below(root: &Path) -> Result<Vec<PathBuf>, MigrateError> {
    let entries = entries_below(root)?;
    let mut found: Vec<PathBuf> = entries
        .into_iter()
        .filter(|e| e.metadata.is_file())
        .filter(|e| e.path.ends_with(WORKFLOW_FILE) || e.path.ends_with(PACKAGE_FILE))
        .map(|e| e.path)
        .collect();
    found.sort();
    Ok(found)
}

/// The entries below `root` (links not followed; `node_modules` and `.git` skipped).
fn entries_below(root: &Path) -> Result<Vec<WalkEntry>, MigrateError> {
    walk(root, None, WalkLimits::default(), |p| {
        let name = p.file_name()?.to_str()?;
        if matches!(name, "node_modules" | ".git") {
            return None;
        }
        fs::symlink_metadata(p).ok()
    })
    .map_err(|source| MigrateError::Walk {
        root: root.to_path_buf(),
        source,
    })
}

fn read(path: &Path) -> Result<String, MigrateError> {
    crate::input::read_text(path, crate::input::MAX_JSON_BYTES)
        .map_err(|e| unreadable(path, &e.into()))
}

/// The migration of one `workflow.json`; `package` is its package root, if any.
fn workflow_file(path: &Path, package: Option<&Path>) -> Result<FileMigration, MigrateError> {
    let original = read(path)?;
    let value: Value = match serde_json::from_str(&original) {
        Ok(value) => value,
        Err(e) => return Ok(not_json(path, original, &e)),
    };
    let migration = migrate(&value, package.is_some());
    let migrated = if migration.changes.is_empty() {
        original.clone()
    } else {
        render_like(&original, &value, &migration.value)
    };
    Ok(finish(
        path,
        Some(migration.generation),
        migration.changes,
        migration.manual,
        original,
        migrated,
    ))
}

fn not_json(path: &Path, original: String, err: &serde_json::Error) -> FileMigration {
    let manual = vec![Manual {
        pointer: None,
        file: Some(path.display().to_string()),
        line: Some(err.line()),
        message: format!("not valid JSON ({err}); fix the syntax and migrate again"),
    }];
    finish(path, None, Vec::new(), manual, original.clone(), original)
}

fn finish(
    path: &Path,
    generation: Option<Generation>,
    changes: Vec<Change>,
    manual: Vec<Manual>,
    original: String,
    migrated: String,
) -> FileMigration {
    let status = if !manual.is_empty() {
        Status::NeedsAttention
    } else if changes.is_empty() {
        Status::AlreadyV2
    } else {
        Status::Migrated
    };
    FileMigration {
        path: path.to_path_buf(),
        generation,
        status,
        changes,
        manual,
        original,
        migrated,
    }
}

/// A package file (its `workflows[]` fixed where they name ids instead of paths), then
/// each listed workflow. The package's hook sources are scanned once, for the package.
fn package_files(package_file: &Path) -> Result<Vec<FileMigration>, MigrateError> {
    let root = package_file.parent().unwrap_or(Path::new("."));
    let original = read(package_file)?;
    let value: Value = match serde_json::from_str(&original) {
        Ok(value) => value,
        Err(e) => return Ok(vec![not_json(package_file, original, &e)]),
    };
    let mut migrated = value.clone();
    let mut changes = Vec::new();
    let mut listed = Vec::new();
    if let Some(workflows) = migrated.get_mut("workflows").and_then(Value::as_array_mut) {
        for (i, entry) in workflows.iter_mut().enumerate() {
            let Some(name) = entry.as_str().map(str::to_string) else {
                continue;
            };
            let as_dir = root.join(&name).join(WORKFLOW_FILE);
            let bare_id = !name.contains('/') && !name.ends_with(".json");
            if bare_id && as_dir.is_file() {
                let path = format!("{name}/{WORKFLOW_FILE}");
                *entry = json!(path);
                changes.push(Change {
                    pointer: format!("/workflows/{i}"),
                    from: json!(name),
                    to: json!(path),
                    rule: "package-workflow-path",
                    message: "package workflows are listed by the path of their workflow.json"
                        .into(),
                    lossy: false,
                });
                listed.push(as_dir);
            } else {
                listed.push(root.join(&name));
            }
        }
    }
    let text = if changes.is_empty() {
        original.clone()
    } else {
        render_like(&original, &value, &migrated)
    };
    let mut package = finish(package_file, None, changes, Vec::new(), original, text);
    attach_hook_uses(&mut package, root)?;
    let mut out = vec![package];
    for manifest in listed.into_iter().filter(|p| p.is_file()) {
        out.push(workflow_file(&manifest, Some(root))?);
    }
    Ok(out)
}

/// Adds every legacy hook API use in the `.js`/`.mjs` files below `root` to `file`.
fn attach_hook_uses(file: &mut FileMigration, root: &Path) -> Result<(), MigrateError> {
    let uses = hook_uses(root)?;
    if uses.is_empty() {
        return Ok(());
    }
    file.manual.extend(uses);
    file.status = Status::NeedsAttention;
    Ok(())
}

/// Every use of a member v2 hosts do not provide in the hook sources below `root`
/// (`.js` and `.mjs` files), as manual points with file and line.
pub fn hook_uses(root: &Path) -> Result<Vec<Manual>, MigrateError> {
    Ok(legacy_uses_below(root)?
        .into_iter()
        .map(|(path, found)| Manual {
            pointer: None,
            file: Some(path.display().to_string()),
            line: Some(found.line),
            message: found.message(),
        })
        .collect())
}

/// Every use of a member v2 hosts do not provide in the `.js` and `.mjs` files below
/// `root`, with the file it is in.
pub fn legacy_uses_below(
    root: &Path,
) -> Result<Vec<(PathBuf, legacy_api::LegacyUse)>, MigrateError> {
    let mut out = Vec::new();
    for (path, source) in hook_sources(root)? {
        out.extend(
            legacy_api::scan_source(&source)
                .into_iter()
                .map(|u| (path.clone(), u)),
        );
    }
    Ok(out)
}

/// The directory whose hook sources belong to a manifest: its package root when it is
/// part of a package, else its own directory.
pub fn hook_scope(manifest: &Path) -> PathBuf {
    enclosing_package(manifest).unwrap_or_else(|| manifest_dir(manifest))
}

/// The directory holding a manifest.
fn manifest_dir(manifest: &Path) -> PathBuf {
    manifest.parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// The `.js` and `.mjs` files below `root` with their text, sorted by path.
pub fn hook_sources(root: &Path) -> Result<Vec<(PathBuf, String)>, MigrateError> {
    let entries = entries_below(root)?;
    let mut sources = Vec::new();
    for entry in entries {
        let script = entry
            .path
            .extension()
            .is_some_and(|e| e == "js" || e == "mjs");
        if entry.metadata.is_file() && script {
            sources.push((entry.path.clone(), read(&entry.path)?));
        }
    }
    sources.sort();
    Ok(sources)
}
