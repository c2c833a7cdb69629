//! The `file.*` members: reads as the run's recorded writes left things (the
//! overlay first, then the files directory or a bundle), and the writes applied to
//! the overlay.

use std::path::PathBuf;

use base64::Engine as _;
use serde_json::{Value, json};

use super::{BUNDLES_DIR, HookHost, bundle_error, bytes, unsupported, world_error};
use crate::host::HostError;
use crate::host::overlay::{self, Seen};
use crate::host::world::{HostWorld, hex_sha256};

/// One `file.*` read: the operation and its arguments.
#[derive(Clone, Copy)]
struct FileRead<'a> {
    op: &'a str,
    path: &'a str,
    recursive: bool,
    max_depth: Option<usize>,
}

impl<'a> FileRead<'a> {
    /// `op` of `path`, not recursive.
    fn of(op: &'a str, path: &'a str) -> FileRead<'a> {
        FileRead {
            op,
            path,
            recursive: false,
            max_depth: None,
        }
    }
}

impl HookHost {
    /// The extracted root and inner path of a virtual bundle path
    /// (`/bundles/<id>/<inner>`); `None` for paths outside bundles.
    fn bundle_path(&self, path: &str) -> Option<Result<(PathBuf, String), HostError>> {
        let rest = path.strip_prefix(BUNDLES_DIR)?;
        let (id, inner) = rest.split_once('/').unwrap_or((rest, ""));
        let inner = if inner.is_empty() { "." } else { inner }.to_string();
        Some(match self.contexts.get(id) {
            None => Err(HostError::workflow(
                "not_found",
                format!("{path} was not found"),
                json!({"kind": "file", "opaqueKey": path}),
            )),
            Some(context) => context
                .reader()
                .extracted_dir()
                .map(|root| (root.to_path_buf(), inner))
                .map_err(bundle_error),
        })
    }

    pub(super) fn file(&mut self, op: &str, args: &Value) -> Result<Value, HostError> {
        let member = format!("file.{op}");
        match op {
            "getTempDirectoryPath" => return Ok(TEMP_DIR.into()),
            "materializeWorkflowInputFile" => return self.materialize_input(args),
            _ => {}
        }
        let first = args.get(0).cloned().unwrap_or(Value::Null);
        let (path, recursive, max_depth) = match &first {
            Value::String(p) => (p.clone(), false, None),
            Value::Object(o) => (
                o.get("path")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                o.get("recursive").and_then(Value::as_bool).unwrap_or(false),
                o.get("maxDepth")
                    .and_then(Value::as_u64)
                    .map(|d| d as usize),
            ),
            _ => return Err(HostError::invalid_request(&member, "a path is required")),
        };
        self.read_file(FileRead {
            op,
            path: &path,
            recursive,
            max_depth,
        })
    }

    /// A file read as the run's writes left things: the overlay first, then the disk.
    fn read_file(&self, read: FileRead<'_>) -> Result<Value, HostError> {
        let (op, path) = (read.op, read.path);
        let member = format!("file.{op}");
        let key = overlay::normalize(path);
        let seen = key.as_deref().and_then(|k| self.overlay.seen(k));
        let not_found = || {
            HostError::workflow(
                "not_found",
                format!("{member}: {path} was not found"),
                json!({"kind": "file", "opaqueKey": path}),
            )
        };
        match (op, &seen) {
            (_, None) if op != "list" => self.disk_file(read),
            ("exists", Some(seen)) => Ok(json!(*seen != Seen::Absent)),
            (_, Some(Seen::Absent)) => Err(not_found()),
            ("readText", Some(Seen::File(bytes))) => String::from_utf8(bytes.to_vec())
                .map(Value::String)
                .map_err(|e| HostError::invalid_request(&member, &format!("{path}: {e}"))),
            ("readBytes", Some(Seen::File(bytes))) => Ok(self::bytes(bytes)),
            ("stat", Some(seen)) => overlay::stat(path, seen).ok_or_else(not_found),
            ("list", Some(Seen::File(_))) | ("readText" | "readBytes", Some(Seen::Directory)) => {
                Err(HostError::invalid_request(
                    &member,
                    &format!(
                        "{path}: not a {}",
                        if op == "list" { "directory" } else { "file" }
                    ),
                ))
            }
            ("list", _) => {
                let disk = self.disk_file(read);
                let Some(key) = key.filter(|_| !self.overlay.is_empty()) else {
                    return disk;
                };
                if disk.is_err() && seen.is_none() {
                    return disk;
                }
                let depth = if read.recursive {
                    read.max_depth
                } else {
                    Some(1)
                };
                Ok(self.overlay.list(&key, path, disk.ok(), depth))
            }
            _ => Err(unsupported(&member)),
        }
    }

    /// A file read from the disk (the files directory or a bundle), ignoring the run's
    /// writes.
    fn disk_file(&self, read: FileRead<'_>) -> Result<Value, HostError> {
        match self.bundle_path(read.path) {
            Some(found) => {
                let (root, inner) = found?;
                let world = HostWorld::default().with_files_dir(root);
                world_file(
                    &world,
                    FileRead {
                        path: &inner,
                        ..read
                    },
                )
                .map(|v| rebase(v, &inner, read.path))
            }
            None => world_file(&self.world, read),
        }
    }

    /// The bytes of the file at `path` as the run sees it.
    fn file_bytes(&self, path: &str) -> Option<Vec<u8>> {
        let read = self.read_file(FileRead::of("readBytes", path)).ok()?;
        let encoded = read.get("$bytes")?.as_str()?;
        base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()
    }

    /// The files and directories of what `source` is, as `(relative path, bytes of a
    /// file or None for a directory)`; the source itself is `""`.
    fn file_tree(&self, source: &str) -> Vec<(String, Option<Vec<u8>>)> {
        let Ok(stat) = self.read_file(FileRead::of("stat", source)) else {
            return Vec::new();
        };
        if stat["kind"] == "file" {
            return self
                .file_bytes(source)
                .map(|b| vec![(String::new(), Some(b))])
                .unwrap_or_default();
        }
        let mut tree = vec![(String::new(), None)];
        if let Ok(listed) = self.read_file(FileRead {
            recursive: true,
            ..FileRead::of("list", source)
        }) {
            for entry in listed["entries"].as_array().into_iter().flatten() {
                let Some(rel) = entry["relativePath"].as_str() else {
                    continue;
                };
                let bytes = if entry["kind"] == "file" {
                    self.file_bytes(&overlay::join(source, rel))
                } else {
                    None
                };
                tree.push((rel.to_string(), bytes));
            }
        }
        tree
    }

    /// Checks a file write's request and answers what the reference host's file
    /// members answer: nothing, `{removed}` for `remove`, the measured entries and
    /// the target for `archive.writeZipAtomic`.
    pub(super) fn file_write_reply(&self, member: &str, args: &Value) -> Result<Value, HostError> {
        let request = args.get(0).unwrap_or(&Value::Null);
        let path_of = |value: Option<&Value>, field: &str| -> Result<String, HostError> {
            value
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty())
                .and_then(overlay::normalize)
                .ok_or_else(|| {
                    HostError::workflow(
                        "invalid_request",
                        "Workflow file path is invalid",
                        json!({"reason": "invalid_value", "field": field}),
                    )
                })
        };
        match member {
            "file.writeText" | "file.writeBytes" => {
                path_of(args.get(0), "path")?;
                Ok(Value::Null)
            }
            "file.makeDirectory" => path_of(request.get("path"), "path").map(|_| Value::Null),
            "file.remove" => {
                let path = path_of(request.get("path"), "path")?;
                let exists = self.read_file(FileRead::of("exists", &path))? == Value::Bool(true);
                if exists {
                    return Ok(json!({"removed": true}));
                }
                if request.get("missing").and_then(Value::as_str) == Some("ignore") {
                    return Ok(json!({"removed": false}));
                }
                Err(HostError::workflow(
                    "not_found",
                    "Workflow file target does not exist",
                    json!({"kind": "resource"}),
                ))
            }
            "file.copy" | "file.move" => {
                let source = path_of(request.get("sourcePath"), "sourcePath")?;
                let target = path_of(request.get("targetPath"), "targetPath")?;
                if self.read_file(FileRead::of("exists", &source))? != Value::Bool(true) {
                    return Err(HostError::workflow(
                        "not_found",
                        "Workflow file target does not exist",
                        json!({"kind": "resource"}),
                    ));
                }
                let overwrite = request.get("overwrite").and_then(Value::as_bool) == Some(true);
                if !overwrite
                    && self.read_file(FileRead::of("exists", &target))? == Value::Bool(true)
                {
                    let what = if member == "file.copy" {
                        "copy"
                    } else {
                        "move"
                    };
                    return Err(HostError::workflow(
                        "conflict",
                        format!("Workflow file {what} target already exists"),
                        json!({"reason": "ambiguous_state"}),
                    ));
                }
                Ok(Value::Null)
            }
            "archive.writeZipAtomic" => {
                let target = path_of(request.get("targetPath"), "targetPath").map_err(|_| {
                    HostError::workflow(
                        "invalid_request",
                        "Archive target path is required",
                        json!({"reason": "missing_field", "field": "targetPath"}),
                    )
                })?;
                let mut measured = self.measure_entries(member, request)?;
                measured["targetPath"] = target.into();
                Ok(measured)
            }
            _ => Err(unsupported(member)),
        }
    }

    /// Whether the run sees a file or directory at `path`.
    pub(super) fn file_exists(&self, path: &str) -> bool {
        self.read_file(FileRead::of("exists", path))
            .is_ok_and(|v| v == Value::Bool(true))
    }

    /// What placing the run's file at `source` in the library's storage at `target`
    /// writes.
    pub(super) fn plan_stored_file(&self, source: &str, target: &str) -> FilePlan {
        let args = json!([{"sourcePath": source, "targetPath": target, "overwrite": true}]);
        self.plan_file_write("file.copy", &args)
    }

    /// The entries of an archive request, `(name, bytes)`, checked as the reference
    /// host checks them.
    fn archive_entries(&self, request: &Value) -> Result<Vec<(String, Vec<u8>)>, HostError> {
        let invalid = |reason: &str, field: &str, message: &str| {
            HostError::workflow(
                "invalid_request",
                message.to_string(),
                json!({"reason": reason, "field": field}),
            )
        };
        let entries = match request.get("entries") {
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(Value::Array(entries)) => entries,
            Some(_) => {
                return Err(invalid(
                    "invalid_type",
                    "entries",
                    "Workflow archive entries must be a list",
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
        let mut out: Vec<(String, Vec<u8>)> = Vec::with_capacity(entries.len());
        let mut seen = std::collections::HashSet::new();
        let mut total = 0u64;
        for entry in entries {
            let name = entry
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .replace('\\', "/");
            let unsafe_name = name.is_empty()
                || name.starts_with('/')
                || name.contains(':')
                || name.contains('\0')
                || name
                    .split('/')
                    .any(|s| s.is_empty() || s == "." || s == "..");
            if unsafe_name {
                return Err(invalid(
                    "unsafe_path",
                    "name",
                    "Workflow archive entry path is unsafe",
                ));
            }
            if !seen.insert(name.to_lowercase()) {
                return Err(invalid(
                    "duplicate_value",
                    "name",
                    "Workflow archive entry name is repeated",
                ));
            }
            let content = entry.get("content").unwrap_or(&Value::Null);
            // A file's size is known before it is read: the entries together stay
            // within the bound a hook's archive may have.
            if content.get("kind").and_then(Value::as_str) == Some("file")
                && let Some(path) = content.get("sourcePath").and_then(Value::as_str)
                && let Ok(stat) = self.read_file(FileRead::of("stat", path))
            {
                total += stat["sizeBytes"].as_u64().unwrap_or(0);
                if total > MAX_EXTRACTED_BYTES {
                    return Err(limited("bytes", MAX_EXTRACTED_BYTES, total));
                }
            }
            let bytes = match content.get("kind").and_then(Value::as_str) {
                Some("text" | "bytes") => inline_content(content),
                Some("file") => content
                    .get("sourcePath")
                    .and_then(Value::as_str)
                    .and_then(|p| self.file_bytes(p)),
                _ => None,
            }
            .ok_or_else(|| {
                invalid(
                    "invalid_combination",
                    "content",
                    "Workflow archive entry content is invalid",
                )
            })?;
            out.push((name, bytes));
        }
        Ok(out)
    }

    /// `archive.measureEntries(input)`: `{files: {name: {sizeBytes, sha256}},
    /// totalEntries, totalBytes}`.
    pub(super) fn measure_entries(
        &self,
        _member: &str,
        request: &Value,
    ) -> Result<Value, HostError> {
        let entries = self.archive_entries(request)?;
        let mut files = serde_json::Map::new();
        let mut total = 0u64;
        for (name, bytes) in &entries {
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
    pub(super) fn extract_zip(&mut self, source: &str) -> Result<ExtractedZip, HostError> {
        let bytes = self.file_bytes(source).ok_or_else(|| {
            HostError::workflow(
                "not_found",
                "Workflow file target does not exist",
                json!({"kind": "resource"}),
            )
        })?;
        let invalid = |why: String| {
            HostError::workflow(
                "invalid_request",
                format!("{source} is not a readable zip archive: {why}"),
                json!({"reason": "invalid_format", "field": "sourcePath"}),
            )
        };
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .map_err(|e| invalid(e.to_string()))?;
        if archive.len() > MAX_ARCHIVE_ENTRIES {
            return Err(limited(
                "entries",
                MAX_ARCHIVE_ENTRIES as u64,
                archive.len() as u64,
            ));
        }
        // Read whole before anything reaches the overlay, within a bound on what
        // the entries inflate to: a crafted archive cannot exhaust the host's memory.
        let mut extracted = Vec::new();
        let mut total = 0u64;
        for i in 0..archive.len() {
            let file = archive.by_index(i).map_err(|e| invalid(e.to_string()))?;
            let Some(name) = file
                .enclosed_name()
                .and_then(|p| overlay::normalize(&p.to_string_lossy()))
                .filter(|n| !n.is_empty())
            else {
                continue;
            };
            if file.is_dir() {
                continue;
            }
            let clash = extracted.iter().any(|(other, _): &(String, Vec<u8>)| {
                *other == name
                    || name.starts_with(&format!("{other}/"))
                    || other.starts_with(&format!("{name}/"))
            });
            if clash {
                return Err(invalid(format!(
                    "the entry {name} is repeated, or is both a file and a directory"
                )));
            }
            let room = MAX_EXTRACTED_BYTES - total;
            let mut data = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(file, room + 1), &mut data)
                .map_err(|e| invalid(e.to_string()))?;
            total += data.len() as u64;
            if total > MAX_EXTRACTED_BYTES {
                return Err(limited("bytes", MAX_EXTRACTED_BYTES, total));
            }
            extracted.push((name, data));
        }
        self.room_for("archive.withExtractedZip", total)?;
        self.extractions += 1;
        let root = format!("{TEMP_DIR}/archive-{}", self.extractions);
        let mut written = std::mem::take(&mut self.overlay);
        written.make_directory(&root, &|_| false);
        let mut entries = Vec::with_capacity(extracted.len());
        for (name, data) in extracted {
            written.write(&overlay::join(&root, &name), data, &|_| false);
            entries.push(name);
        }
        self.overlay = written;
        self.live_roots.insert(root.clone());
        Ok(ExtractedZip {
            view: json!({"rootPath": root, "entries": entries}),
            root,
        })
    }

    /// `file.materializeWorkflowInputFile({key, fileName?, content})`: the content
    /// written under the temporary directory; `{path, sizeBytes, sha256}`.
    fn materialize_input(&mut self, args: &Value) -> Result<Value, HostError> {
        let request = args.get(0).unwrap_or(&Value::Null);
        let content = request.get("content").unwrap_or(&Value::Null);
        let bytes = inline_content(content).ok_or_else(|| {
            HostError::workflow(
                "invalid_request",
                "Workflow input content variant is invalid",
                json!({"reason": "invalid_value", "field": "content"}),
            )
        })?;
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "._-".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .take(96)
                .collect()
        };
        let key = clean(
            request
                .get("key")
                .and_then(Value::as_str)
                .unwrap_or("input"),
        );
        let name = clean(
            request
                .get("fileName")
                .and_then(Value::as_str)
                .unwrap_or("input.bin"),
        );
        self.extractions += 1;
        let path = format!(
            "{TEMP_DIR}/workflow-inputs/{key}/{}-{name}",
            self.extractions
        );
        let hex = hex_sha256(&bytes);
        let size = bytes.len();
        self.room_for("file.materializeWorkflowInputFile", size as u64)?;
        let mut written = std::mem::take(&mut self.overlay);
        written.write(&path, bytes, &|_| false);
        self.overlay = written;
        Ok(json!({"path": path, "sizeBytes": size, "sha256": hex}))
    }

    /// What a `file.*` write (or `archive.writeZipAtomic`) puts into the run's files,
    /// read as the run sees them before the write.
    pub(super) fn plan_file_write(&self, member: &str, args: &Value) -> FilePlan {
        let path_of =
            |value: Option<&Value>| value.and_then(Value::as_str).and_then(overlay::normalize);
        let request = args.get(0).unwrap_or(&Value::Null);
        let mut plan = FilePlan::default();
        match member {
            "file.writeText" => {
                // The reference host writes `String(content ?? "")`.
                let text = match args.get(1) {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                };
                if let Some(path) = path_of(args.get(0)) {
                    plan.files.push((path, Some(text.into_bytes())));
                }
            }
            "file.writeBytes" => {
                if let (Some(path), Some(bytes)) =
                    (path_of(args.get(0)), args.get(1).and_then(decode_bytes))
                {
                    plan.files.push((path, Some(bytes)));
                }
            }
            "archive.writeZipAtomic" => {
                if let (Some(path), Ok(entries)) = (
                    path_of(request.get("targetPath")),
                    self.archive_entries(request),
                ) {
                    plan.files.push((path, Some(zip_of(&entries))));
                }
            }
            "file.makeDirectory" => {
                if let Some(path) = path_of(request.get("path")) {
                    plan.files.push((path, None));
                }
            }
            "file.remove" => plan.removed = path_of(request.get("path")),
            "file.copy" | "file.move" => {
                let source = request.get("sourcePath").and_then(Value::as_str);
                if let (Some(target), Some(from)) = (path_of(request.get("targetPath")), source) {
                    for (rel, bytes) in self.file_tree(from) {
                        let at = if rel.is_empty() {
                            target.clone()
                        } else {
                            overlay::join(&target, &rel)
                        };
                        plan.files.push((at, bytes));
                    }
                    if member == "file.move" {
                        plan.removed = overlay::normalize(from);
                    }
                }
            }
            _ => {}
        }
        plan
    }

    /// Puts a planned write into the run's files, so that later reads see it.
    pub(super) fn apply_file_write(&mut self, plan: FilePlan) {
        let mut written = std::mem::take(&mut self.overlay);
        let on_disk = |p: &str| {
            self.disk_file(FileRead::of("exists", p))
                .is_ok_and(|v| v == Value::Bool(true))
        };
        for (path, bytes) in plan.files {
            match bytes {
                Some(bytes) => written.write(&path, bytes, &on_disk),
                None => written.make_directory(&path, &on_disk),
            }
        }
        if let Some(path) = plan.removed {
            written.remove(&path);
        }
        self.overlay = written;
    }
}

/// What one write puts into the run's files: files (with their bytes) and
/// directories (`None`) in order, then a path it removes.
#[derive(Debug, Default)]
pub(super) struct FilePlan {
    pub(super) files: Vec<(String, Option<Vec<u8>>)>,
    pub(super) removed: Option<String>,
}

impl FilePlan {
    /// The bytes the write adds at most (what it replaces is not subtracted).
    pub(super) fn added_bytes(&self) -> u64 {
        self.files
            .iter()
            .filter_map(|(_, bytes)| bytes.as_ref())
            .map(|b| b.len() as u64)
            .sum()
    }
}

/// A file member answered from `world`.
fn world_file(world: &HostWorld, read: FileRead<'_>) -> Result<Value, HostError> {
    let member = format!("file.{}", read.op);
    let path = read.path;
    match read.op {
        "exists" => Ok(json!(world.file_exists(path))),
        "readText" => world.read_text(path).map(Value::String),
        "readBytes" => world.read_bytes(path).map(|b| bytes(&b)),
        "stat" => world.stat(path),
        "list" => world.list(path, read.recursive, read.max_depth),
        _ => return Err(unsupported(&member)),
    }
    .map_err(|e| world_error(&member, &e))
}

/// Rewrites `rootPath`/`path` fields of a stat or list answer back to the
/// virtual path the hook asked for.
fn rebase(mut value: Value, inner: &str, virtual_path: &str) -> Value {
    for key in ["path", "rootPath"] {
        if value.get(key).and_then(Value::as_str) == Some(inner) {
            value[key] = json!(virtual_path);
        }
    }
    value
}

/// The virtual temporary directory (`file.getTempDirectoryPath()`); what hooks
/// write there lives in the run's overlay only.
pub(super) const TEMP_DIR: &str = "/tmp/hookrun";

/// Most entries an archive may have (the reference host's limit).
const MAX_ARCHIVE_ENTRIES: usize = 20_000;

/// Most bytes the entries of an extracted archive may inflate to.
const MAX_EXTRACTED_BYTES: u64 = 256 * 1024 * 1024;

fn limited(resource: &str, limit: u64, observed: u64) -> HostError {
    HostError::workflow(
        "resource_limited",
        format!("the archive's {resource} pass the limit of {limit}"),
        json!({"resource": resource, "limit": limit, "observed": observed}),
    )
}

/// An archive extracted for `archive.withExtractedZip`.
pub(super) struct ExtractedZip {
    /// What the callback is handed: `{rootPath, entries}`.
    pub(super) view: Value,
    /// The directory it was extracted into.
    pub(super) root: String,
}

/// The bytes of `{kind: "text", text}` or `{kind: "bytes", bytes}` content.
fn inline_content(content: &Value) -> Option<Vec<u8>> {
    match content.get("kind").and_then(Value::as_str) {
        Some("text") => content
            .get("text")
            .and_then(Value::as_str)
            .map(|t| t.as_bytes().to_vec()),
        Some("bytes") => content.get("bytes").and_then(decode_bytes),
        _ => None,
    }
}

/// Bytes as a hook passed them: `{"$bytes": "<base64>"}`.
fn decode_bytes(value: &Value) -> Option<Vec<u8>> {
    let encoded = value.get("$bytes")?.as_str()?;
    base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()
}

/// A stored (uncompressed) zip of `entries`.
fn zip_of(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
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
