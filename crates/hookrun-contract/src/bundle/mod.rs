//! Result bundles and the result context handed to `applyResult`.
//!
//! A run's result reaches `applyResult` through a [`BundleReader`] (zip, directory or
//! unavailable, `04-requests-and-bundles.md` §6) and a [`ResultContext`] (the resolved
//! result JSON and artifact resolution, `03-hooks.md` §4.2). This module is pure Rust and
//! knows nothing of JavaScript: the layers above project it into hooks.
//!
//! Local files are never read directly: the result context asks a caller-supplied
//! [`LocalFileReader`], so the host decides which files hooks may see.

mod artifact;
mod diagnostic;
mod dir_reader;
mod entry_path;
mod envelope;
mod error;
mod reader;
mod result_context;
mod result_json;
mod unavailable;
mod zip_extract;
mod zip_index;
mod zip_reader;

#[cfg(test)]
mod test_support;

use std::path::Path;

pub use artifact::{
    ArtifactBytes, ArtifactLocation, ArtifactRequest, ArtifactScope, ArtifactSourceKind,
    ArtifactText, resolve_artifact,
};
pub use diagnostic::Diagnostic;
pub use dir_reader::DirBundle;
pub use entry_path::EntryPath;
pub use envelope::unwrap_skill_runner_envelope;
pub use error::{BundleError, UnsafePathReason};
pub use reader::{BundleReader, BundleReaderKind};
pub use result_context::{ResultContext, ResultContextOptions};
pub use result_json::{
    DEFAULT_RESULT_JSON_ENTRY, InRunResult, ResolvedResult, ResultJsonSource, ResultJsonSourceKind,
    resolve_result_json, resolve_result_json_in_place,
};
pub use unavailable::UnavailableBundle;
pub use zip_index::{RATIO_CHECK_FLOOR, ZipLimits};
pub use zip_reader::{ZipBundle, ZipOptions};

/// Reads a local file on behalf of the result context.
///
/// Returns the file's bytes when the file at this path exists and the host lets hooks see
/// it, `None` otherwise. Only absolute paths are asked.
pub type LocalFileReader = dyn Fn(&Path) -> Option<Vec<u8>>;
