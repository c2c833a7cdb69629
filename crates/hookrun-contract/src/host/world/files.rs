//! The files directory: safe path resolution and the `file.*` reads.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde_json::{Value, json};

use super::{HostResult, HostWorld, HostWorldError};
use crate::host::HostPath;
use crate::input::{InputError, read_regular};
use crate::walk::{WalkError, WalkLimits, walk};

/// Most bytes `file.readText` reads (the reference host's limit).
pub const MAX_READ_TEXT_BYTES: u64 = 64 * 1024 * 1024;

/// Most bytes `file.readBytes` reads (the reference host's limit).
pub const MAX_READ_BYTES: u64 = 256 * 1024 * 1024;

impl HostWorld {
    /// Resolves `path` inside the files directory (symlinks followed), else as a
    /// linked file of the world's library (see [`LibrarySource`](super::LibrarySource));
    /// `None` when unsafe, absent, or without a files directory.
    pub fn resolve(&self, path: &str) -> Option<PathBuf> {
        self.resolve_inside(path)
            .or_else(|| self.linked_file_at(path))
    }

    /// Resolves `path` inside the files directory.
    fn resolve_inside(&self, path: &str) -> Option<PathBuf> {
        let root = fs::canonicalize(self.files_dir.as_ref()?).ok()?;
        let named = !path.is_empty();
        let path = HostPath::parse(path).ok()?;
        if !named || path.is_absolute() || path.as_str().contains(':') {
            return None;
        }
        let resolved = fs::canonicalize(root.join(path.as_str())).ok()?;
        resolved.starts_with(&root).then_some(resolved)
    }

    pub(super) fn resolve_required(&self, path: &str) -> HostResult<PathBuf> {
        self.resolve(path)
            .ok_or_else(|| HostWorldError::UnsafePath(path.to_owned()))
    }

    /// The file of the payload carrier stored at `path`, when one is: carriers
    /// hold their envelope in a PNG the world makes (see `payloads::carrier`).
    fn carrier_file(&self, path: &str) -> Option<Vec<u8>> {
        if !path.ends_with(".png") {
            return None;
        }
        self.records
            .iter()
            .find(|r| r.envelope.is_some() && r.path.as_deref() == Some(path))
            .and_then(|r| r.envelope.as_ref())
            .map(super::payloads::carrier_png)
    }

    /// `file.exists(path)`: `false` for unsafe paths.
    pub fn file_exists(&self, path: &str) -> bool {
        self.resolve(path).is_some() || self.carrier_file(path).is_some()
    }

    /// `file.readText(path)`: at most [`MAX_READ_TEXT_BYTES`].
    pub fn read_text(&self, path: &str) -> HostResult<String> {
        let bytes = self.read_bytes_within(path, MAX_READ_TEXT_BYTES)?;
        String::from_utf8(bytes).map_err(|e| io_error(path, &e))
    }

    /// `file.readBytes(path)`: at most [`MAX_READ_BYTES`].
    pub fn read_bytes(&self, path: &str) -> HostResult<Vec<u8>> {
        self.read_bytes_within(path, MAX_READ_BYTES)
    }

    /// The bytes of the regular file at `path`, refused past `limit` (a FIFO, a
    /// device or a directory is refused without reading).
    pub fn read_bytes_within(&self, path: &str, limit: u64) -> HostResult<Vec<u8>> {
        if let Some(bytes) = self.carrier_file(path) {
            return Ok(bytes);
        }
        read_regular(&self.resolve_required(path)?, limit).map_err(|e| match e {
            InputError::TooLarge { limit, observed } => HostWorldError::ResourceLimited {
                resource: "bytes".into(),
                limit,
                observed: observed.map_or(Value::Null, Value::from),
            },
            other => io_error(path, &other),
        })
    }

    /// The size of the regular file at `path`.
    pub fn file_size(&self, path: &str) -> HostResult<u64> {
        if let Some(bytes) = self.carrier_file(path) {
            return Ok(bytes.len() as u64);
        }
        let meta = fs::metadata(self.resolve_required(path)?).map_err(|e| io_error(path, &e))?;
        if !meta.is_file() {
            return Err(io_error(path, &"not a regular file"));
        }
        Ok(meta.len())
    }

    /// `file.stat(path)`: `{path, kind, sizeBytes, modifiedAt}`.
    pub fn stat(&self, path: &str) -> HostResult<Value> {
        if let Some(bytes) = self.carrier_file(path) {
            return Ok(
                json!({"path": path, "kind": "file", "sizeBytes": bytes.len(),
                "modifiedAt": Value::Null}),
            );
        }
        let meta = fs::metadata(self.resolve_required(path)?).map_err(|e| io_error(path, &e))?;
        Ok(
            json!({"path": path, "kind": entry_kind(&meta), "sizeBytes": size_of(&meta),
            "modifiedAt": modified_at(&meta)}),
        )
    }

    /// `file.list({path, recursive, maxDepth})`: `{rootPath, entries: [{relativePath,
    /// kind, sizeBytes, modifiedAt}], totalEntries, totalFileBytes}`, sorted by path;
    /// symlinks leaving the files directory are not followed, and no directory is
    /// entered twice. Trees past [`WalkLimits`] are an `invalid_request`.
    pub fn list(&self, path: &str, recursive: bool, max_depth: Option<usize>) -> HostResult<Value> {
        let root = self.resolve_required(path)?;
        let depth = if recursive { max_depth } else { Some(1) };
        let files_root = self
            .files_dir
            .as_ref()
            .and_then(|d| fs::canonicalize(d).ok());
        let inside = |entry: &Path| {
            let full = fs::canonicalize(entry).ok()?;
            if files_root.as_ref().is_none_or(|r| !full.starts_with(r)) {
                return None;
            }
            fs::metadata(&full).ok()
        };
        let listed = walk(&root, depth, WalkLimits::default(), inside).map_err(|e| match e {
            WalkError::Io { .. } => io_error(path, &e),
            _ => HostWorldError::InvalidRequest(format!("file.list {path}: {e}")),
        })?;
        let entries: Vec<Value> = listed
            .iter()
            .map(|e| {
                json!({"relativePath": e.relative, "kind": entry_kind(&e.metadata),
                    "sizeBytes": size_of(&e.metadata), "modifiedAt": modified_at(&e.metadata)})
            })
            .collect();
        let total_bytes: u64 = listed
            .iter()
            .filter(|e| e.metadata.is_file())
            .map(|e| e.metadata.len())
            .sum();
        Ok(json!({"rootPath": path, "totalEntries": entries.len(),
            "totalFileBytes": total_bytes, "entries": entries}))
    }
}

pub(super) fn io_error(path: &str, e: &dyn std::fmt::Display) -> HostWorldError {
    HostWorldError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    }
}

/// A file's size; a directory has none, as on the reference host.
fn size_of(meta: &fs::Metadata) -> Option<u64> {
    meta.is_file().then_some(meta.len())
}

fn entry_kind(meta: &fs::Metadata) -> &'static str {
    if meta.is_file() {
        "file"
    } else if meta.is_dir() {
        "directory"
    } else {
        "other"
    }
}

/// `modifiedAt` as an ISO-8601 UTC string (`1970-01-01T00:00:00.000Z` when unknown).
fn modified_at(meta: &fs::Metadata) -> String {
    let millis = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis());
    iso_from_millis(millis)
}

/// Formats milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn iso_from_millis(millis: u128) -> String {
    let secs = millis / 1000;
    let days = i64::try_from(secs / 86_400).unwrap_or_default();
    let rem = secs % 86_400;
    // Civil-from-days (proleptic Gregorian), after H. Hinnant.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        millis % 1000
    )
}
