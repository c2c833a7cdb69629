//! `hookrun.lock.json`: each workflow of a [`Library`] pinned to its version, root, path
//! and content digest, so a run uses exactly the workflows that were reviewed.
//!
//! Paths are stored relative to the lock file's directory when they lie below it, so a
//! lock travels with the tree it describes.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::manifest::library::{Library, LibraryEntry};

/// Default file name of a lock.
pub const LOCK_FILE: &str = "hookrun.lock.json";

/// The lock format's version.
pub const LOCK_VERSION: u32 = 1;

/// A lock: the roots and, by id, the workflow each resolved to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lock {
    /// [`LOCK_VERSION`].
    pub lock_version: u32,
    /// The roots, lowest precedence first.
    pub roots: Vec<String>,
    /// By workflow id.
    pub workflows: BTreeMap<String, Locked>,
}

/// One locked workflow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Locked {
    /// Its version, if it declares one.
    pub version: Option<String>,
    /// The root it came from.
    pub root: String,
    /// Its `workflow.json`.
    pub path: String,
    /// The content digest of its package (or workflow) root.
    pub content_digest: Option<String>,
}

/// Why a lock could not be read or no longer holds.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    /// A path the lock would name is not UTF-8, which a lock (JSON text) cannot
    /// hold exactly.
    #[error(
        "{}: the path is not valid UTF-8, and a lock names paths as JSON text; rename it",
        .0.to_string_lossy()
    )]
    NotUtf8(PathBuf),
    /// The lock file cannot be read or is not a lock.
    #[error("{path}: {message}")]
    Unreadable {
        /// The lock file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A locked workflow is no longer at its path.
    #[error(
        "{lock}: workflow {id} is locked at {path}, which no longer loads; restore it or run hookrun lock again"
    )]
    Missing {
        /// The lock file.
        lock: PathBuf,
        /// The workflow id.
        id: String,
        /// The locked path.
        path: String,
    },
    /// A locked workflow's content changed.
    #[error(
        "{lock}: workflow {id} at {path} changed since it was locked (locked {locked}, now {found}); review it and run hookrun lock again"
    )]
    Changed {
        /// The lock file.
        lock: PathBuf,
        /// The workflow id.
        id: String,
        /// The locked path.
        path: String,
        /// The locked digest.
        locked: String,
        /// The digest now.
        found: String,
    },
}

/// `path` relative to `base` when it lies below it, else absolute; refused when
/// it is not UTF-8.
fn shown_below(base: &Path, path: &Path) -> Result<String, LockError> {
    let absolute = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let base = fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let shown = absolute
        .strip_prefix(&base)
        .map(Path::to_path_buf)
        .unwrap_or(absolute);
    shown
        .to_str()
        .map(str::to_string)
        .ok_or(LockError::NotUtf8(shown))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

impl Lock {
    /// The lock of `library`'s winners, with paths relative to `base` (the directory the
    /// lock file will be in); a path that is not UTF-8 is refused.
    pub fn of(library: &Library, base: &Path) -> Result<Lock, LockError> {
        let roots = library.roots();
        Ok(Lock {
            lock_version: LOCK_VERSION,
            roots: roots
                .iter()
                .map(|r| shown_below(base, r))
                .collect::<Result<_, _>>()?,
            workflows: library
                .winners()
                .into_iter()
                .map(|e| {
                    let locked = Locked {
                        version: e.version().map(str::to_string),
                        root: shown_below(base, &roots[e.root])?,
                        path: shown_below(base, &e.workflow.manifest_path)?,
                        content_digest: e.workflow.content_digest.clone(),
                    };
                    Ok((e.workflow.id.clone(), locked))
                })
                .collect::<Result<_, LockError>>()?,
        })
    }

    /// Reads a lock file.
    pub fn read(path: &Path) -> Result<Lock, LockError> {
        let unreadable = |message: String| LockError::Unreadable {
            path: path.to_path_buf(),
            message,
        };
        let text = crate::input::read_text(path, crate::input::MAX_JSON_BYTES)
            .map_err(|e| unreadable(format!("it {e}")))?;
        let lock: Lock = serde_json::from_str(&text)
            .map_err(|e| unreadable(format!("not a hookrun lock: {e}")))?;
        if lock.lock_version != LOCK_VERSION {
            return Err(unreadable(format!(
                "lock version {} is not {LOCK_VERSION}; run hookrun lock again",
                lock.lock_version
            )));
        }
        Ok(lock)
    }

    /// The lock as the text of a lock file.
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Opens the lock's roots (relative to the directory of `lock_path`) and keeps
    /// exactly the locked workflows, each checked against its digest.
    pub fn open(&self, lock_path: &Path) -> Result<Library, LockError> {
        let base = lock_path.parent().unwrap_or(Path::new("."));
        let roots: Vec<PathBuf> = self.roots.iter().map(|r| base.join(r)).collect();
        let library = Library::open(&roots);
        let mut kept: Vec<LibraryEntry> = Vec::new();
        for (id, locked) in &self.workflows {
            let path = base.join(&locked.path);
            let found = library
                .entries()
                .iter()
                .find(|e| e.workflow.id == *id && same_file(&e.workflow.manifest_path, &path));
            let Some(entry) = found else {
                return Err(LockError::Missing {
                    lock: lock_path.to_path_buf(),
                    id: id.clone(),
                    path: locked.path.clone(),
                });
            };
            if entry.workflow.content_digest != locked.content_digest {
                let shown = |d: &Option<String>| d.clone().unwrap_or_else(|| "no digest".into());
                return Err(LockError::Changed {
                    lock: lock_path.to_path_buf(),
                    id: id.clone(),
                    path: locked.path.clone(),
                    locked: shown(&locked.content_digest),
                    found: shown(&entry.workflow.content_digest),
                });
            }
            kept.push(entry.clone());
        }
        Ok(library.restricted(kept))
    }
}
