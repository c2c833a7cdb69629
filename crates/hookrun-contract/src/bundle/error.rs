//! Errors of the bundle readers and of the result context.

use thiserror::Error;

/// Why an entry path was refused.
///
/// The first five reasons are the contract's (`04-requests-and-bundles.md` §6.3) and keep
/// the contract message `Unsafe zip entry path: <name>` unchanged; the others are `hookrun`
/// additions and append a short explanation to the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnsafePathReason {
    /// The name is empty (or made only of separators).
    Empty,
    /// The name starts with `/` (after backslashes became `/`).
    Absolute,
    /// The name starts with a drive letter such as `C:`.
    DriveLetter,
    /// A segment is `.` or `..`.
    DotSegment,
    /// The name contains a NUL byte.
    NulByte,
    /// The raw zip entry name is not valid UTF-8.
    NotUtf8,
    /// Two entries have the same name once normalised.
    Duplicate,
    /// The zip entry is a symbolic link.
    Symlink,
    /// The path leaves the bundle directory through a symbolic link.
    EscapesRoot,
}

impl UnsafePathReason {
    /// The text appended to the message: empty for the contract's reasons.
    fn suffix(self) -> &'static str {
        match self {
            Self::Empty | Self::Absolute | Self::DriveLetter | Self::DotSegment => "",
            Self::NulByte => " (contains a NUL byte)",
            Self::NotUtf8 => " (entry name is not valid UTF-8)",
            Self::Duplicate => " (duplicate entry name)",
            Self::Symlink => " (symbolic link entries are not allowed)",
            Self::EscapesRoot => " (resolves outside the bundle directory)",
        }
    }
}

/// An error raised by a bundle reader or by the result context.
///
/// The `Display` text of each variant is the message hooks see; contract literals are
/// reproduced exactly.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BundleError {
    /// A zip entry name, or an entry path asked of the zip reader, is unsafe.
    #[error("Unsafe zip entry path: {}{}", printable(.name), .reason.suffix())]
    UnsafeZipEntryPath {
        /// The name as found (lossily decoded when it is not UTF-8).
        name: String,
        /// What is wrong with it.
        reason: UnsafePathReason,
    },
    /// An entry path asked of the directory reader is unsafe.
    #[error("Unsafe bundle entry path: {}{}", printable(.entry), .reason.suffix())]
    UnsafeBundleEntryPath {
        /// The entry path as asked.
        entry: String,
        /// What is wrong with it.
        reason: UnsafePathReason,
    },
    /// The archive has more entries than allowed.
    #[error("Workflow bundle contains too many entries")]
    TooManyEntries {
        /// Entries in the central directory.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// An entry name is too long or too deep.
    #[error("Workflow bundle entry path exceeds limits: {}", printable(.name))]
    EntryPathTooLong {
        /// The entry name.
        name: String,
    },
    /// An entry is larger than allowed, by its declared size or by the data it really holds.
    #[error("Workflow bundle entry size exceeds limits: {} ({detail})", printable(.name))]
    EntrySizeTooLarge {
        /// The entry name.
        name: String,
        /// Which size broke which limit.
        detail: String,
    },
    /// The entries together are larger than allowed.
    #[error("Workflow bundle total size exceeds limits ({total} bytes > {limit} bytes)")]
    TotalSizeTooLarge {
        /// The declared total uncompressed size.
        total: u64,
        /// The limit.
        limit: u64,
    },
    /// The archive could not be read or extracted.
    #[error("Failed to extract workflow bundle: {detail}")]
    ExtractFailed {
        /// What went wrong.
        detail: String,
    },
    /// The bundle directory given to the directory reader is not a directory.
    #[error("bundle directory not found: {path}")]
    DirectoryNotFound {
        /// The directory as given.
        path: String,
    },
    /// The directory reader was asked for an empty entry path.
    #[error("bundle entry path is required")]
    EntryPathRequired,
    /// No file exists at the entry path.
    #[error("bundle entry not found: {entry}")]
    EntryNotFound {
        /// The entry path as asked.
        entry: String,
    },
    /// The entry exists but holds invalid UTF-8 (`readText` is strict).
    #[error("bundle entry is not valid UTF-8: {entry}")]
    InvalidUtf8 {
        /// The entry path (or local path) that was read.
        entry: String,
    },
    /// The entry exists but could not be read.
    #[error("failed to read bundle entry {entry}: {detail}")]
    ReadFailed {
        /// The entry path as asked.
        entry: String,
        /// The I/O error.
        detail: String,
    },
    /// The run provides no bundle (unavailable reader).
    #[error("Run {request_id} does not provide bundle content; entry unavailable: {entry}")]
    Unavailable {
        /// The run's request id.
        request_id: String,
        /// The entry path as asked.
        entry: String,
    },
    /// The run provides no bundle, so there is no extracted directory (unavailable reader).
    #[error("Run {request_id} does not provide bundle content; no extracted directory")]
    NoExtractedDir {
        /// The run's request id.
        request_id: String,
    },
    /// Result JSON was found but could not be parsed.
    #[error("Invalid result JSON from {source_label}: {detail}")]
    InvalidResultJson {
        /// Where it came from (see [`crate::bundle::ResultJsonSource::label`]).
        source_label: String,
        /// The parser's message.
        detail: String,
    },
    /// No artifact candidate could be read (`artifact_not_found`).
    #[error(
        "[{field}] artifact not found; raw_path={raw_path}; candidates=[{}]; fallback={fallback}; last_error={last_error}",
        .candidates.join(", ")
    )]
    ArtifactNotFound {
        /// The field name, or `artifact` when none was given.
        field: String,
        /// The raw path, empty when none was given.
        raw_path: String,
        /// Every candidate tried, in order.
        candidates: Vec<String>,
        /// The fallback path, empty when none was given.
        fallback: String,
        /// The message of the last failed read, empty when nothing was tried.
        last_error: String,
    },
}

impl BundleError {
    /// The contract error code of this error, when the contract names one.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            Self::ArtifactNotFound { .. } => Some("artifact_not_found"),
            _ => None,
        }
    }

    /// Whether the error only says "nothing there" (entry missing, or no bundle at all),
    /// as opposed to a refused path or a broken bundle.
    pub fn is_absence(&self) -> bool {
        matches!(
            self,
            Self::EntryNotFound { .. } | Self::Unavailable { .. } | Self::NoExtractedDir { .. }
        )
    }

    /// An [`BundleError::ExtractFailed`] from any displayable cause.
    pub(crate) fn extract(cause: impl std::fmt::Display) -> Self {
        Self::ExtractFailed {
            detail: cause.to_string(),
        }
    }
}

/// Renders a name with control characters (NUL, newlines, …) escaped.
fn printable(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
