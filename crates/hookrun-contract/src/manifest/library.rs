//! Workflow libraries: several roots searched in order of precedence, lowest first (as
//! the reference host merges its official, developer and user roots), `id@version`
//! resolution, and locks that pin each workflow to its content digest.
//!
//! ```no_run
//! use std::path::PathBuf;
//! use hookrun_contract::manifest::Library;
//!
//! let library = Library::open(&[PathBuf::from("official"), PathBuf::from("user")]);
//! for d in library.diagnostics() {
//!     eprintln!("{}", d.message); // overrides are `workflow_overridden` warnings
//! }
//! let mineru = library.resolve("mineru@^0.1")?;
//! println!("{} {:?} from {}", mineru.entry.workflow.id, mineru.entry.version(), mineru.entry.workflow.manifest_path.display());
//! # Ok::<(), hookrun_contract::manifest::library::ResolveError>(())
//! ```

use std::path::PathBuf;

use crate::manifest::collate::locale_cmp;
use crate::manifest::diagnostic::{Category, Diagnostic, sort_diagnostics};
use crate::manifest::discover::{Discovery, discover};
use crate::manifest::workflow::Workflow;

/// One workflow found in a root, the winner of its id or overridden by a later root.
#[derive(Debug, Clone)]
pub struct LibraryEntry {
    /// The workflow.
    pub workflow: Workflow,
    /// Index of its root in [`Library::roots`].
    pub root: usize,
    /// Index (in [`Library::entries`]) of the entry of a later root that replaces it.
    pub overridden_by: Option<usize>,
}

impl LibraryEntry {
    /// The workflow's `version` (or its package's).
    pub fn version(&self) -> Option<&str> {
        self.workflow.version.as_deref()
    }

    fn shown_version(&self) -> String {
        self.version()
            .map_or_else(|| "no version".to_string(), |v| format!("version {v}"))
    }
}

/// The workflows of an ordered list of roots.
#[derive(Debug, Clone)]
pub struct Library {
    roots: Vec<PathBuf>,
    entries: Vec<LibraryEntry>,
    diagnostics: Vec<Diagnostic>,
}

/// What [`Library::resolve`] chose.
#[derive(Debug, Clone)]
pub struct Resolution<'a> {
    /// The chosen entry.
    pub entry: &'a LibraryEntry,
    /// For a bare id with other versions elsewhere: which one was chosen and what else
    /// exists.
    pub note: Option<String>,
}

/// Why a workflow name did not resolve. Each message lists what exists.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The version part is neither a version nor a semver range.
    #[error("{spec}: {reason}; name a workflow as <id>, <id>@<version> or <id>@<range>")]
    BadSpec {
        /// The name as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No root holds a workflow with this id.
    #[error("no workflow {id} in {roots}{}", known_ids(.known))]
    UnknownId {
        /// The id.
        id: String,
        /// The roots searched.
        roots: String,
        /// The ids that exist.
        known: Vec<String>,
    },
    /// Workflows with this id exist, but none has the version asked for.
    #[error("no version of {id} matches {wanted}; found {}", .found.join(", "))]
    NoVersion {
        /// The id.
        id: String,
        /// The version or range asked for.
        wanted: String,
        /// Every version that exists, with its root and path.
        found: Vec<String>,
    },
}

fn known_ids(known: &[String]) -> String {
    if known.is_empty() {
        String::new()
    } else {
        format!("; found {}", known.join(", "))
    }
}

impl Library {
    /// Scans `roots` in order; a later root's workflow replaces an earlier one with the
    /// same id, and each replacement is a `workflow_overridden` warning.
    pub fn open(roots: &[PathBuf]) -> Library {
        let mut library = Library {
            roots: roots.to_vec(),
            entries: Vec::new(),
            diagnostics: Vec::new(),
        };
        for (root, path) in roots.iter().enumerate() {
            let found = discover(path);
            library.diagnostics.extend(found.diagnostics);
            for workflow in found.workflows {
                library.add(workflow, root);
            }
        }
        sort_diagnostics(&mut library.diagnostics);
        library
    }

    fn add(&mut self, workflow: Workflow, root: usize) {
        let index = self.entries.len();
        if let Some(earlier) = self
            .entries
            .iter()
            .position(|e| e.overridden_by.is_none() && e.workflow.id == workflow.id)
        {
            self.entries[earlier].overridden_by = Some(index);
            let old = &self.entries[earlier];
            let new_entry = LibraryEntry {
                workflow,
                root,
                overridden_by: None,
            };
            let message = format!(
                "Workflow \"{}\" exists in {} and {}; using {} workflow ({} at {} overrides {} at {})",
                new_entry.workflow.id,
                self.roots[old.root].display(),
                self.roots[root].display(),
                self.roots[root].display(),
                new_entry.shown_version(),
                new_entry.workflow.manifest_path.display(),
                old.shown_version(),
                old.workflow.manifest_path.display(),
            );
            self.diagnostics.push(
                Diagnostic::new(Category::WorkflowOverridden, message)
                    .with_path(&new_entry.workflow.manifest_path)
                    .with_workflow_id(Some(&new_entry.workflow.id)),
            );
            self.entries.push(new_entry);
        } else {
            self.entries.push(LibraryEntry {
                workflow,
                root,
                overridden_by: None,
            });
        }
    }

    /// This library with only `kept` (entries of it), each the winner of its id; the
    /// override warnings of workflows no longer in it are dropped.
    pub(crate) fn restricted(self, kept: Vec<LibraryEntry>) -> Library {
        let ids: Vec<&str> = kept.iter().map(|e| e.workflow.id.as_str()).collect();
        let diagnostics = self
            .diagnostics
            .into_iter()
            .filter(|d| {
                d.category != Category::WorkflowOverridden
                    || d.workflow_id.as_deref().is_some_and(|id| ids.contains(&id))
            })
            .collect();
        Library {
            roots: self.roots,
            entries: kept
                .into_iter()
                .map(|e| LibraryEntry {
                    overridden_by: None,
                    ..e
                })
                .collect(),
            diagnostics,
        }
    }

    /// The roots, lowest precedence first.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Every workflow found, overridden ones included, in root and scan order.
    pub fn entries(&self) -> &[LibraryEntry] {
        &self.entries
    }

    /// The winner of each id, sorted by id as `localeCompare` does.
    pub fn winners(&self) -> Vec<&LibraryEntry> {
        let mut winners: Vec<&LibraryEntry> = self
            .entries
            .iter()
            .filter(|e| e.overridden_by.is_none())
            .collect();
        winners.sort_by(|a, b| locale_cmp(&a.workflow.id, &b.workflow.id));
        winners
    }

    /// Every diagnostic of every root, and the overrides, in the contract's order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The winners and the diagnostics as one [`Discovery`].
    pub fn discovery(&self) -> Discovery {
        Discovery {
            workflows: self
                .winners()
                .into_iter()
                .map(|e| e.workflow.clone())
                .collect(),
            diagnostics: self.diagnostics.clone(),
        }
    }

    /// Resolves `<id>` (the winner), `<id>@<version>` (exactly that version, from the
    /// latest root holding it) or `<id>@<range>` (the highest version the semver range
    /// admits).
    pub fn resolve(&self, spec: &str) -> Result<Resolution<'_>, ResolveError> {
        let (id, wanted) = match spec.split_once('@') {
            Some((id, wanted)) => (id, Some(wanted)),
            None => (spec, None),
        };
        let same: Vec<&LibraryEntry> = self
            .entries
            .iter()
            .filter(|e| e.workflow.id == id)
            .collect();
        let Some(winner) = same.iter().copied().find(|e| e.overridden_by.is_none()) else {
            let mut known: Vec<String> = self
                .winners()
                .iter()
                .map(|e| e.workflow.id.clone())
                .collect();
            known.dedup();
            return Err(ResolveError::UnknownId {
                id: id.to_string(),
                roots: self.roots_shown(),
                known,
            });
        };
        let Some(wanted) = wanted else {
            return Ok(self.bare(winner, &same));
        };
        let chosen = match semver::Version::parse(wanted) {
            Ok(exact) => same.iter().rev().find(|e| {
                e.version() == Some(wanted)
                    || e.version().and_then(|v| semver::Version::parse(v).ok())
                        == Some(exact.clone())
            }),
            Err(_) => {
                let range =
                    semver::VersionReq::parse(wanted).map_err(|e| ResolveError::BadSpec {
                        spec: spec.to_string(),
                        reason: format!("{wanted} is not a version or a semver range ({e})"),
                    })?;
                same.iter()
                    .rev()
                    .filter_map(|e| Some((semver::Version::parse(e.version()?).ok()?, e)))
                    .filter(|(v, _)| range.matches(v))
                    .max_by(|(a, _), (b, _)| a.cmp(b))
                    .map(|(_, e)| e)
            }
        };
        chosen
            .map(|entry| Resolution { entry, note: None })
            .ok_or_else(|| ResolveError::NoVersion {
                id: id.to_string(),
                wanted: wanted.to_string(),
                found: same.iter().map(|e| self.describe(e)).collect(),
            })
    }

    /// The winner of an id, with a note when `same` (its entries) holds others.
    fn bare<'a>(&'a self, winner: &'a LibraryEntry, same: &[&'a LibraryEntry]) -> Resolution<'a> {
        let others: Vec<String> = same
            .iter()
            .filter(|e| !std::ptr::eq(**e, winner))
            .map(|e| self.describe(e))
            .collect();
        let note = (!others.is_empty()).then(|| {
            format!(
                "{}: using {}; also found {}",
                winner.workflow.id,
                self.describe(winner),
                others.join(", ")
            )
        });
        Resolution {
            entry: winner,
            note,
        }
    }

    /// `0.1.0 in <root> (<path>)`.
    pub fn describe(&self, entry: &LibraryEntry) -> String {
        format!(
            "{} in {} ({})",
            entry.version().unwrap_or("(no version)"),
            self.roots[entry.root].display(),
            entry.workflow.manifest_path.display()
        )
    }

    fn roots_shown(&self) -> String {
        self.roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}
