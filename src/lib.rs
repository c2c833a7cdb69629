#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod hooks;
pub mod run;
mod trace;
#[cfg(feature = "zotero")]
pub mod zotero;

/// The sandbox the hooks run in, from its own crate (generic: it knows nothing
/// of workflows; [`hooks::STARTUP`] adds the host facade).
pub use hookrun_sandbox as sandbox;

// The contract layers, from their own crate (no engine), under their usual paths.
pub use hookrun_contract::{
    bundle, host, input, manifest, plan, pointer, request, selection, walk,
};

/// The examples of `docs/migration.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/migration.md")]
struct MigrationGuide;
