//! Archives: the entries of `archive.*` requests checked as the reference host
//! checks them, zips written from them, and zips extracted within the bounds on
//! what their entries inflate to.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{ArchiveEntry, HookHost, not_found, temp_path};
use crate::host::HostError;
use crate::host::HostPath;
use crate::host::members::files::decode_bytes;
use crate::host::world::hex_sha256;

impl HookHost {
    /// The entries of an archive request, `(name, bytes)`, checked as the reference
    /// host checks them.
    pub(super) fn archive_entries(&self, request: &Value) -> Result<Vec<ArchiveEntry>, HostError> {
        let entries = match request.get("entries") {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(entries)) => entries,
            Some(_) => {
                return Err(entry_refusal(
                    "invalid_type",
                    "entries",
                    "Workflow archive entries must be an array",
                ));
            }
        };
        if entries.len() > MAX_ARCHIVE_ENTRIES {
            return Err(limited(
                "entries",
                MAX_ARCHIVE_ENTRIES as u64,
                entries.len() as u64,
            ));
        }
        let mut out: Vec<ArchiveEntry> = Vec::with_capacity(entries.len());
        let mut seen = HashSet::new();
        let mut total = 0u64;
        for entry in entries {
            self.budget.tick()?;
            let name = entry_name(entry, &mut seen)?;
            let bytes = self.entry_bytes(entry.get("content").unwrap_or(&Value::Null))?;
            // The entries together stay within the bound a hook's archive may have.
            total += bytes.len() as u64;
            if total > MAX_EXTRACTED_BYTES {
                return Err(limited("bytes", MAX_EXTRACTED_BYTES, total));
            }
            out.push((name, bytes));
        }
        Ok(out)
    }

    /// The bytes of an entry's `content`: inline text or bytes, or a run's file
    /// (one the run does not have is `not_found`).
    fn entry_bytes(&self, content: &Value) -> Result<Arc<[u8]>, HostError> {
        let variant = || {
            entry_refusal(
                "invalid_combination",
                "content",
                "Workflow archive entry requires exactly one content variant",
            )
        };
        match content.get("kind").and_then(Value::as_str) {
            Some("text" | "bytes") => inline_content(content).map(Arc::from).ok_or_else(variant),
            Some("file") => {
                let source = content.get("sourcePath").and_then(Value::as_str);
                let path = HostPath::parse(source.ok_or_else(variant)?).map_err(|_| not_found())?;
                self.file_bytes(&path)?.ok_or_else(not_found)
            }
            _ => Err(variant()),
        }
    }

    /// `archive.measureEntries(input)`: `{files: {name: {sizeBytes, sha256}},
    /// totalEntries, totalBytes}`.
    pub(in crate::host::session) fn measure_entries(
        &self,
        request: &Value,
    ) -> Result<Value, HostError> {
        let entries = self.archive_entries(request)?;
        let mut files = serde_json::Map::new();
        let mut total = 0u64;
        for (name, bytes) in &entries {
            self.budget.tick()?;
            total += bytes.len() as u64;
            files.insert(
                name.clone(),
                json!({"sizeBytes": bytes.len(), "sha256": hex_sha256(bytes)}),
            );
        }
        Ok(json!({"files": files, "totalEntries": entries.len(), "totalBytes": total}))
    }

    /// Extracts the run's zip at `source` into a fresh directory under the temporary
    /// directory, in the overlay; answers the scope the callback gets and its root.
    pub(in crate::host::session) fn extract_zip(
        &mut self,
        source: &str,
    ) -> Result<ExtractedZip, HostError> {
        let bytes = match HostPath::parse(source) {
            Ok(path) => self.file_bytes(&path)?,
            Err(_) => None,
        }
        .ok_or_else(not_found)?;
        let extracted = unzip(&bytes, source, &self.budget)?;
        drop(bytes);
        let total = extracted.iter().map(|(_, data)| data.len() as u64).sum();
        self.room_for("archive.withExtractedZip", total)?;
        self.extractions += 1;
        let root = temp_path(&format!("archive-{}", self.extractions))?;
        let mut written = std::mem::take(&mut self.overlay);
        written.make_directory(&root, &|_| false);
        let mut entries = Vec::with_capacity(extracted.len());
        for (name, data) in extracted {
            if let Ok(at) = root.join(name.as_str()) {
                written.write(&at, data.into(), &|_| false);
            }
            entries.push(name.to_string());
        }
        self.overlay = written;
        self.live_roots.insert(root.clone());
        Ok(ExtractedZip {
            view: json!({"rootPath": root.as_str(), "entries": entries}),
            root: root.to_string(),
        })
    }
}

/// Most entries an archive may have (the reference host's limit).
const MAX_ARCHIVE_ENTRIES: usize = 20_000;

/// Most bytes the entries of an extracted archive may inflate to.
const MAX_EXTRACTED_BYTES: u64 = 256 * 1024 * 1024;

/// Most characters an entry name may have (the reference host's limit).
const MAX_ENTRY_NAME_CHARS: usize = 1024;

/// Most segments an entry name may have (the reference host's limit).
const MAX_ENTRY_DEPTH: usize = 64;

fn limited(resource: &str, limit: u64, observed: u64) -> HostError {
    HostError::workflow(
        "resource_limited",
        "Workflow archive operation exceeds a fixed limit",
        json!({"resource": resource, "limit": limit, "observed": observed}),
    )
}

/// The files of the zip `bytes` (read from `source`), each at a normalised
/// relative path: read whole before anything reaches the overlay, within a bound
/// on what the entries inflate to (together, and spent from `budget` as they
/// inflate), so a crafted archive cannot exhaust the host's memory or time.
fn unzip(
    bytes: &[u8],
    source: &str,
    budget: &crate::host::Budget,
) -> Result<Vec<(HostPath, Vec<u8>)>, HostError> {
    let invalid = |why: String| {
        HostError::workflow(
            "invalid_request",
            format!("{source} is not a readable zip archive: {why}"),
            json!({"reason": "invalid_format", "field": "sourcePath"}),
        )
    };
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| invalid(e.to_string()))?;
    if archive.len() > MAX_ARCHIVE_ENTRIES {
        return Err(limited(
            "entries",
            MAX_ARCHIVE_ENTRIES as u64,
            archive.len() as u64,
        ));
    }
    let mut extracted = Vec::new();
    // Files by name, and every directory that holds one: a name is repeated, or
    // both a file and a directory, when it is in either or one of its ancestors
    // is a file.
    let mut files: HashSet<String> = HashSet::new();
    let mut dirs: HashSet<String> = HashSet::new();
    let mut total = 0u64;
    for i in 0..archive.len() {
        budget.tick()?;
        let file = archive.by_index(i).map_err(|e| invalid(e.to_string()))?;
        let Some(name) = file
            .enclosed_name()
            .and_then(|p| HostPath::parse(&p.to_string_lossy()).ok())
            .filter(|n| !n.is_root() && !n.is_absolute())
        else {
            continue;
        };
        if file.is_dir() {
            continue;
        }
        let clash = files.contains(name.as_str())
            || dirs.contains(name.as_str())
            || name.ancestors().any(|a| files.contains(a));
        if clash {
            return Err(invalid(format!(
                "the entry {name} is repeated, or is both a file and a directory"
            )));
        }
        let data = inflate(file, total, budget, &invalid)?;
        total += data.len() as u64;
        dirs.extend(name.ancestors().map(str::to_string));
        files.insert(name.as_str().to_string());
        extracted.push((name, data));
    }
    Ok(extracted)
}

/// An archive extracted for `archive.withExtractedZip`.
pub(in crate::host::session) struct ExtractedZip {
    /// What the callback is handed: `{rootPath, entries}`.
    pub(in crate::host::session) view: Value,
    /// The directory it was extracted into.
    pub(in crate::host::session) root: String,
}

/// The bytes of `{kind: "text", text}` or `{kind: "bytes", bytes}` content.
pub(super) fn inline_content(content: &Value) -> Option<Vec<u8>> {
    match content.get("kind").and_then(Value::as_str) {
        Some("text") => content
            .get("text")
            .and_then(Value::as_str)
            .map(|t| t.as_bytes().to_vec()),
        Some("bytes") => content.get("bytes").and_then(decode_bytes),
        _ => None,
    }
}

/// A stored (uncompressed) zip of `entries`.
pub(super) fn zip_of(entries: &[ArchiveEntry]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut writer = zip::ZipWriter::new(&mut out);
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in entries {
        // Writing into memory fails only on a name the entry check refused already.
        if writer.start_file(name, options).is_ok() {
            let _ = std::io::Write::write_all(&mut writer, bytes);
        }
    }
    let _ = writer.finish();
    out.into_inner()
}

/// An archive request refused as the reference host refuses it.
fn entry_refusal(reason: &str, field: &str, message: &str) -> HostError {
    HostError::workflow(
        "invalid_request",
        message.to_string(),
        json!({"reason": reason, "field": field}),
    )
}

/// An entry's `name` as the reference host reads it: trimmed, with `/`
/// separators, relative (no leading `/`, drive or NUL), at most 1,024
/// characters, without empty, `.` or `..` segments, at most 64 segments deep,
/// and not repeated (ignoring case) among the names in `seen`.
fn entry_name(entry: &Value, seen: &mut HashSet<String>) -> Result<String, HostError> {
    let name = entry
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .replace('\\', "/")
        .trim()
        .to_string();
    let unsafe_name = || {
        entry_refusal(
            "unsafe_path",
            "name",
            "Workflow archive entry path is unsafe",
        )
    };
    let bytes = name.as_bytes();
    let drive =
        bytes.get(1..3) == Some(b":/") && bytes.first().is_some_and(u8::is_ascii_alphabetic);
    if name.is_empty() || name.starts_with('/') || drive || name.contains('\0') {
        return Err(unsafe_name());
    }
    let chars = name.chars().count();
    if chars > MAX_ENTRY_NAME_CHARS {
        let limit = MAX_ENTRY_NAME_CHARS as u64;
        return Err(limited("path_length", limit, chars as u64));
    }
    let segments: Vec<&str> = name.split('/').collect();
    if segments
        .iter()
        .any(|s| s.is_empty() || *s == "." || *s == "..")
    {
        return Err(unsafe_name());
    }
    if segments.len() > MAX_ENTRY_DEPTH {
        let limit = MAX_ENTRY_DEPTH as u64;
        return Err(limited("depth", limit, segments.len() as u64));
    }
    if !seen.insert(name.to_lowercase()) {
        return Err(entry_refusal(
            "duplicate_value",
            "name",
            "Workflow archive contains a duplicate entry path",
        ));
    }
    Ok(name)
}

/// The bytes of one archive entry, after `total` bytes of the entries before
/// it: inflated in slices, so the deadline is looked at while a large entry
/// inflates, and spent from `budget` as they come.
fn inflate(
    file: impl std::io::Read,
    total: u64,
    budget: &crate::host::Budget,
    invalid: &dyn Fn(String) -> HostError,
) -> Result<Vec<u8>, HostError> {
    let room = MAX_EXTRACTED_BYTES - total;
    let mut data = Vec::new();
    let mut reader = std::io::Read::take(file, room.min(budget.left()) + 1);
    let mut slice = [0u8; 64 * 1024];
    loop {
        let n = std::io::Read::read(&mut reader, &mut slice).map_err(|e| invalid(e.to_string()))?;
        if n == 0 {
            return Ok(data);
        }
        let inflated = total + (data.len() + n) as u64;
        if inflated > MAX_EXTRACTED_BYTES {
            return Err(limited("bytes", MAX_EXTRACTED_BYTES, inflated));
        }
        budget.spend(n as u64)?;
        budget.check()?;
        data.extend_from_slice(&slice[..n]);
    }
}

#[cfg(test)]
#[path = "ported_archive_tests.rs"]
mod ported_archive_tests;
