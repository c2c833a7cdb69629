//! `workflow.json` (schema v2) and `workflow-package.json`: parse, validate, resolve hook
//! paths, localise and discover workflows (`contract/01-manifest.md`).
//!
//! Validation runs in three layers — [`parse`] (JSON), [`schema`] (every schema error
//! with its JSON pointer) and [`semantic`] (§5) — and a workflow failing any of them is
//! skipped with warning-level [`Diagnostic`]s while the others still load.
//!
//! ```no_run
//! use std::path::Path;
//! use hookrun_contract::manifest::{discover, HookName};
//!
//! let found = discover(Path::new("workflows"));
//! for d in &found.diagnostics {
//!     eprintln!("{}: {}", d.category.as_str(), d.message);
//! }
//! for workflow in &found.workflows {
//!     let apply = workflow.hook(HookName::ApplyResult);
//!     println!("{} ({}) {:?}", workflow.id, workflow.localized("label", "de-DE"), apply);
//! }
//! ```
//!
//! This module knows nothing of the layers above it; executing hooks (import and export
//! checks) is up to the caller, using [`Workflow::hooks`].

pub mod collate;
pub mod diagnostic;
pub mod digest;
pub mod discover;
pub mod hooks;
pub mod i18n;
pub mod kind;
pub mod library;
pub mod load;
pub mod locate;
pub mod lock;
pub mod migrate;
pub mod model;
pub mod package;
pub mod params;
pub mod parse;
pub mod schema;
pub mod semantic;
pub mod template;
pub mod workflow;

pub use diagnostic::{Category, Diagnostic, Level, sort_diagnostics};
pub use digest::content_digest;
pub use discover::{Discovery, discover};
pub use hooks::{DeclaredHook, HookName};
pub use i18n::Messages;
pub use kind::{DeclaredKind, RequestKind};
pub use library::{Library, LibraryEntry, Resolution, ResolveError};
pub use load::{Loaded, load_workflow, validate_document};
pub use locate::locate;
pub use lock::{LOCK_FILE, Lock, LockError, Locked};
pub use package::load_package;
pub use params::{
    MissingRequiredParameters, Normalized, ParamType, ParamWarning, ParamWarningKind,
    ParameterSchema, Parameters, VisibleIf,
};
pub use parse::{parse_json, read_json};
pub use schema::{validate_manifest, validate_package};
pub use semantic::{check_semantics, produced_kind};
pub use template::{render_task_name, task_name_values};
pub use workflow::{BuildStrategy, PASS_THROUGH_KIND, PASS_THROUGH_PROVIDER, Provider, Workflow};

#[cfg(test)]
mod fixture_tests;
#[cfg(test)]
mod loader_tests;
#[cfg(test)]
mod test_support;
