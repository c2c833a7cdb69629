#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod bundle;
pub mod hooks;
pub mod host;
pub mod manifest;
pub mod plan;
pub mod pointer;
pub mod request;
pub mod run;
pub mod sandbox;
pub mod selection;
pub mod walk;

/// The examples of `docs/migration.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/migration.md")]
struct MigrationGuide;
