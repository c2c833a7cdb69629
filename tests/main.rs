//! The integration tests of hookrun, one module per subject, linked into one
//! binary (linking the engine once instead of once per file). Two suites
//! measure their own process (its threads, temporary directory, resident
//! memory) and keep binaries of their own: `isolation` and `many_runtimes`.

mod common;

mod authoring;
mod case_tooling;
mod check_legacy_names;
mod cli_call;
mod cli_conventions;
mod cli_workflows;
mod crossing;
#[cfg(feature = "tracing")]
mod embed;
mod generated_hooks;
mod guide;
mod heap_breaches;
mod host_api;
mod hostile;
mod interaction;
mod json_text;
mod library;
mod loader_fidelity;
mod malformed_inputs;
mod migrate;
mod parallel;
mod ported_archive;
mod process_isolation;
mod product_storage;
mod read_your_writes;
mod run_errors;
mod run_workflows;
mod sandbox;
mod sandbox_facade;
mod sandbox_pool;
mod shared_values;
mod streaming;
mod web_globals;
#[cfg(feature = "zotero")]
mod zotero;
