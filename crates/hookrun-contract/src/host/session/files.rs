//! The `file.*` members: reads as the run's recorded writes left things (the
//! overlay first, then the files directory or a bundle), and the writes applied to
//! the overlay. Every path is a [`HostPath`]; every read is spent from the call's
//! [`Budget`](crate::host::Budget) before it is made, and every loop over entries
//! ticks it.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{BUNDLES_DIR, HookHost, bundle_error, bytes, unsupported, world_error};
use crate::host::members::Member;
use crate::host::members::files::{FileRead, FileWrite, decode_bytes};
use crate::host::members::request::{Checked, Open};
use crate::host::overlay::{self, Seen};
use crate::host::world::{HostWorld, hex_sha256};
use crate::host::{HostError, HostPath};

/// One `file.*` look-up of the run's files: the operation and its arguments.
#[derive(Clone, Copy)]
struct Lookup<'a> {
    op: Member,
    path: &'a HostPath,
    /// The path as answers show it.
    shown: &'a str,
    recursive: bool,
    max_depth: Option<usize>,
}

impl<'a> Lookup<'a> {
    /// `op` of `path`, not recursive.
    fn of(op: Member, path: &'a HostPath) -> Lookup<'a> {
        Lookup {
            op,
            path,
            shown: path.as_str(),
            recursive: false,
            max_depth: None,
        }
    }
}

/// A file (with its bytes) or directory (`None`) of a tree, at its path
/// relative to the tree's root.
type TreeEntry = (String, Option<Arc<[u8]>>);

/// An archive entry: its name and bytes.
type ArchiveEntry = (String, Arc<[u8]>);

fn not_found() -> HostError {
    HostError::workflow(
        "not_found",
        "Workflow file target does not exist",
        json!({"kind": "resource"}),
    )
}

impl HookHost {
    /// The extracted root and inner path of a virtual bundle path
    /// (`/bundles/<id>/<inner>`); `None` for paths outside bundles.
    fn bundle_path(&self, path: &HostPath) -> Option<Result<(PathBuf, String), HostError>> {
        let rest = path.as_str().strip_prefix(BUNDLES_DIR)?;
        let (id, inner) = rest.split_once('/').unwrap_or((rest, ""));
        let inner = if inner.is_empty() { "." } else { inner }.to_string();
        Some(match self.contexts.get(id) {
            None => Err(HostError::workflow(
                "not_found",
                format!("{path} was not found"),
                json!({"kind": "resource", "opaqueKey": path.as_str()}),
            )),
            Some(context) => context
                .reader()
                .extracted_dir()
                .map(|root| (root.to_path_buf(), inner))
                .map_err(bundle_error),
        })
    }

    /// `file.getTempDirectoryPath()`: the virtual temporary directory.
    pub(crate) fn temp_directory(
        &mut self,
        _: Member,
        _: Value,
        _: Open,
    ) -> Result<Value, HostError> {
        Ok(TEMP_DIR.into())
    }

    /// The `file.*` reads, their requests read by [`FileRead`].
    pub(crate) fn file(
        &mut self,
        op: Member,
        _: Value,
        request: FileRead,
    ) -> Result<Value, HostError> {
        match &request {
            // The reference host answers `false` for any path it cannot inspect.
            FileRead::Exists(None) => Ok(Value::Bool(false)),
            FileRead::Exists(Some(at)) | FileRead::Path(at) => self.read_file(Lookup {
                shown: &at.raw,
                ..Lookup::of(op, &at.path)
            }),
            FileRead::List {
                dir,
                recursive,
                max_depth,
            } => self.read_file(Lookup {
                op,
                path: &dir.path,
                shown: &dir.raw,
                recursive: *recursive,
                max_depth: *max_depth,
            }),
        }
    }

    /// `file.materializeWorkflowInputFile({key, fileName?, content})`.
    pub(crate) fn materialize(
        &mut self,
        _: Member,
        args: Value,
        _: Checked,
    ) -> Result<Value, HostError> {
        self.materialize_input(&args)
    }

    /// A file read as the run's writes left things: the overlay first, then the disk.
    fn read_file(&self, read: Lookup<'_>) -> Result<Value, HostError> {
        let (op, path) = (read.op, read.path);
        let member = op.name();
        let seen = self.overlay.seen(path);
        let not_found = || {
            HostError::workflow(
                "not_found",
                format!("{member}: {} was not found", read.shown),
                json!({"kind": "resource", "opaqueKey": read.shown}),
            )
        };
        match (op, &seen) {
            (_, None) if op != Member::FileList => self.disk_file(read),
            (Member::FileExists, Some(seen)) => Ok(json!(*seen != Seen::Absent)),
            (_, Some(Seen::Absent)) => Err(not_found()),
            (Member::FileReadText, Some(Seen::File(bytes))) => {
                self.budget.spend(bytes.len() as u64)?;
                String::from_utf8(bytes.to_vec())
                    .map(Value::String)
                    .map_err(|e| HostError::invalid_request(member, &format!("{path}: {e}")))
            }
            (Member::FileReadBytes, Some(Seen::File(bytes))) => {
                self.budget.spend(base64_len(bytes.len()))?;
                Ok(self::bytes(bytes))
            }
            (Member::FileStat, Some(seen)) => overlay::stat(read.shown, seen).ok_or_else(not_found),
            (Member::FileList, Some(Seen::File(_)))
            | (Member::FileReadText | Member::FileReadBytes, Some(Seen::Directory)) => {
                Err(HostError::invalid_request(
                    member,
                    &format!(
                        "{}: not a {}",
                        read.shown,
                        if op == Member::FileList {
                            "directory"
                        } else {
                            "file"
                        }
                    ),
                ))
            }
            (Member::FileList, _) => {
                let disk = self.disk_file(read);
                if self.overlay.is_empty() || disk.is_err() && seen.is_none() {
                    return disk;
                }
                let depth = if read.recursive {
                    read.max_depth
                } else {
                    Some(1)
                };
                self.overlay
                    .list(path, read.shown, disk.ok(), depth, &self.budget)
            }
            _ => Err(unsupported(member)),
        }
    }

    /// A file read from the disk (the files directory or a bundle), ignoring the run's
    /// writes.
    fn disk_file(&self, read: Lookup<'_>) -> Result<Value, HostError> {
        match self.bundle_path(read.path) {
            Some(found) => {
                let (root, inner) = found?;
                let world = HostWorld::default().with_files_dir(root);
                self.world_file(&world, &inner, read)
                    .map(|v| rebase(v, &inner, read.shown))
            }
            None => self.world_file(&self.world, read.path.as_str(), read),
        }
    }

    /// A file member answered from `world`, the path inside it being `path`; a
    /// read spends the file's size first.
    fn world_file(
        &self,
        world: &HostWorld,
        path: &str,
        read: Lookup<'_>,
    ) -> Result<Value, HostError> {
        let member = read.op.name();
        let spend = |encoded: fn(usize) -> u64| -> Result<(), HostError> {
            match world.file_size(path) {
                Ok(size) => self.budget.spend(encoded(size as usize)),
                Err(_) => Ok(()),
            }
        };
        match read.op {
            Member::FileExists => Ok(json!(world.file_exists(path))),
            Member::FileReadText => {
                spend(|n| n as u64)?;
                world.read_text(path).map(Value::String)
            }
            Member::FileReadBytes => {
                spend(base64_len)?;
                world.read_bytes(path).map(|b| bytes(&b))
            }
            Member::FileStat => world.stat(path),
            Member::FileList => world.list(path, read.recursive, read.max_depth),
            _ => return Err(unsupported(member)),
        }
        .map_err(|e| world_error(member, &e))
    }

    /// The bytes of the file at `path` as the run sees it, spent from the call's
    /// budget; `None` when there is no such file.
    fn file_bytes(&self, path: &HostPath) -> Result<Option<Arc<[u8]>>, HostError> {
        match self.overlay.seen(path) {
            Some(Seen::File(bytes)) => return Ok(Some(bytes)),
            Some(_) => return Ok(None),
            None => {}
        }
        let bundle;
        let (world, inner) = match self.bundle_path(path) {
            Some(found) => {
                let (root, inner) = found?;
                bundle = HostWorld::default().with_files_dir(root);
                (&bundle, inner)
            }
            None => (&self.world, path.as_str().to_string()),
        };
        let Ok(size) = world.file_size(&inner) else {
            return Ok(None);
        };
        self.budget.spend(size)?;
        match world.read_bytes(&inner) {
            Ok(bytes) => Ok(Some(bytes.into())),
            Err(e) if e.code() == "resource_limited" => Err(world_error("file.readBytes", &e)),
            Err(_) => Ok(None),
        }
    }

    /// The files and directories of what `source` is, as `(relative path, bytes of a
    /// file or None for a directory)`; the source itself is `""`.
    fn file_tree(&self, source: &HostPath) -> Result<Vec<TreeEntry>, HostError> {
        let Ok(stat) = self.read_file(Lookup::of(Member::FileStat, source)) else {
            return Ok(Vec::new());
        };
        if stat["kind"] == "file" {
            let bytes = self.file_bytes(source)?;
            return Ok(bytes
                .map(|b| vec![(String::new(), Some(b))])
                .unwrap_or_default());
        }
        let mut tree = vec![(String::new(), None)];
        let listed = self.read_file(Lookup {
            recursive: true,
            ..Lookup::of(Member::FileList, source)
        });
        if let Ok(listed) = listed {
            for entry in listed["entries"].as_array().into_iter().flatten() {
                self.budget.tick()?;
                let Some(rel) = entry["relativePath"].as_str() else {
                    continue;
                };
                let bytes = match source.join(rel) {
                    Ok(at) if entry["kind"] == "file" => self.file_bytes(&at)?,
                    _ => None,
                };
                tree.push((rel.to_string(), bytes));
            }
        }
        Ok(tree)
    }

    /// Whether the run sees a directory at `path`.
    fn is_directory(&self, path: &HostPath) -> Result<bool, HostError> {
        Ok(self
            .read_file(Lookup::of(Member::FileStat, path))
            .is_ok_and(|stat| stat["kind"] == "directory"))
    }

    /// Checks a file write against the run's files and answers what the
    /// reference host's file members answer: nothing, `{removed}` for `remove`,
    /// the measured entries and the target for `archive.writeZipAtomic`.
    pub(super) fn file_write_reply(
        &self,
        member: Member,
        write: &FileWrite,
    ) -> Result<Value, HostError> {
        // A file is never made a directory to hold what is written under it.
        let (target, field) = match write {
            FileWrite::Text(at, _)
            | FileWrite::Bytes(at, _)
            | FileWrite::MakeDirectory { dir: at, .. } => (Some(at), "path"),
            FileWrite::Transfer { target, .. } | FileWrite::Zip { target, .. } => {
                (Some(target), "targetPath")
            }
            FileWrite::Remove { .. } => (None, "path"),
        };
        if let Some(at) = target
            && self.passes_through_a_file(&at.path)
        {
            return Err(HostError::workflow(
                "invalid_request",
                "Workflow file path passes through a file",
                json!({"reason": "invalid_value", "field": field}),
            ));
        }
        match write {
            FileWrite::Text(at, _) | FileWrite::Bytes(at, _) => {
                if self.is_directory(&at.path)? {
                    return Err(HostError::workflow(
                        "invalid_request",
                        "Workflow file path names a directory",
                        json!({"reason": "invalid_value", "field": "path"}),
                    ));
                }
                Ok(Value::Null)
            }
            FileWrite::MakeDirectory { dir, recursive } => {
                let parent_missing = dir
                    .path
                    .ancestors()
                    .next()
                    .and_then(|parent| HostPath::parse(parent).ok())
                    .is_some_and(|parent| !self.is_directory(&parent).unwrap_or(false));
                if !recursive && parent_missing {
                    return Err(not_found());
                }
                Ok(Value::Null)
            }
            FileWrite::Remove {
                path,
                recursive,
                ignore_missing,
            } => {
                if !self.file_exists(&path.path) {
                    return if *ignore_missing {
                        Ok(json!({"removed": false}))
                    } else {
                        Err(not_found())
                    };
                }
                if !recursive && self.holds_entries(&path.path) {
                    return Err(HostError::workflow(
                        "invalid_request",
                        "Recursive workflow directory removal was not requested",
                        json!({"reason": "invalid_combination", "field": "recursive"}),
                    ));
                }
                Ok(json!({"removed": true}))
            }
            FileWrite::Transfer {
                source,
                target,
                overwrite,
            } => {
                if !self.file_exists(&source.path) {
                    return Err(not_found());
                }
                if target.path.is_within(&source.path) {
                    return Err(HostError::workflow(
                        "invalid_request",
                        "Workflow file target lies within its source",
                        json!({"reason": "invalid_combination", "field": "targetPath"}),
                    ));
                }
                if !overwrite && self.file_exists(&target.path) {
                    let what = if member == Member::FileCopy {
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
            FileWrite::Zip { target, request } => {
                let mut measured = self.measure_entries(request)?;
                measured["targetPath"] = target.path.as_str().into();
                Ok(measured)
            }
        }
    }

    /// Whether one of the directories above `path` is a file, as the run sees it.
    fn passes_through_a_file(&self, path: &HostPath) -> bool {
        path.ancestors().any(|above| {
            HostPath::parse(above).is_ok_and(|above| {
                self.read_file(Lookup::of(Member::FileStat, &above))
                    .is_ok_and(|stat| stat["kind"] == "file")
            })
        })
    }

    /// Whether the directory at `path` holds anything, as the run sees it.
    fn holds_entries(&self, path: &HostPath) -> bool {
        self.read_file(Lookup::of(Member::FileList, path))
            .is_ok_and(|listed| listed["totalEntries"].as_u64().unwrap_or(0) > 0)
    }

    /// Whether the run sees a file or directory at `path`.
    pub(super) fn file_exists(&self, path: &HostPath) -> bool {
        self.read_file(Lookup::of(Member::FileExists, path))
            .is_ok_and(|v| v == Value::Bool(true))
    }

    /// What placing the run's file at `source` in the library's storage at `target`
    /// writes.
    pub(super) fn plan_stored_file(
        &self,
        source: &HostPath,
        target: &HostPath,
    ) -> Result<FilePlan, HostError> {
        let mut plan = FilePlan::default();
        self.plan_copy(source, target, &mut plan)?;
        Ok(plan)
    }

    /// A copy of what `source` is to `target`, added to `plan`.
    fn plan_copy(
        &self,
        source: &HostPath,
        target: &HostPath,
        plan: &mut FilePlan,
    ) -> Result<(), HostError> {
        for (rel, bytes) in self.file_tree(source)? {
            let at = target.join(&rel).map_err(|_| {
                HostError::workflow(
                    "resource_limited",
                    "Workflow file operation exceeds a fixed limit",
                    json!({"resource": "depth", "limit": HostPath::MAX_DEPTH}),
                )
            })?;
            plan.files.push((at, bytes));
        }
        Ok(())
    }

    /// The entries of an archive request, `(name, bytes)`, checked as the reference
    /// host checks them.
    fn archive_entries(&self, request: &Value) -> Result<Vec<ArchiveEntry>, HostError> {
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
        let mut out: Vec<ArchiveEntry> = Vec::with_capacity(entries.len());
        let mut seen = HashSet::new();
        let mut total = 0u64;
        for entry in entries {
            self.budget.tick()?;
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
            let bytes = match content.get("kind").and_then(Value::as_str) {
                Some("text" | "bytes") => inline_content(content).map(Arc::from),
                Some("file") => match content
                    .get("sourcePath")
                    .and_then(Value::as_str)
                    .map(HostPath::parse)
                {
                    Some(Ok(path)) => self.file_bytes(&path)?,
                    _ => None,
                },
                _ => None,
            }
            .ok_or_else(|| {
                invalid(
                    "invalid_combination",
                    "content",
                    "Workflow archive entry content is invalid",
                )
            })?;
            // The entries together stay within the bound a hook's archive may have.
            total += bytes.len() as u64;
            if total > MAX_EXTRACTED_BYTES {
                return Err(limited("bytes", MAX_EXTRACTED_BYTES, total));
            }
            out.push((name, bytes));
        }
        Ok(out)
    }

    /// `archive.measureEntries(input)`: `{files: {name: {sizeBytes, sha256}},
    /// totalEntries, totalBytes}`.
    pub(super) fn measure_entries(&self, request: &Value) -> Result<Value, HostError> {
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
    pub(super) fn extract_zip(&mut self, source: &str) -> Result<ExtractedZip, HostError> {
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
        let key = path_segment(request.get("key").and_then(Value::as_str), "input");
        let name = path_segment(request.get("fileName").and_then(Value::as_str), "input.bin");
        self.extractions += 1;
        let path = temp_path(&format!(
            "workflow-inputs/{key}/{}-{name}",
            self.extractions
        ))?;
        let hex = hex_sha256(&bytes);
        let size = bytes.len();
        self.room_for("file.materializeWorkflowInputFile", size as u64)?;
        let mut written = std::mem::take(&mut self.overlay);
        written.write(&path, bytes.into(), &|_| false);
        self.overlay = written;
        Ok(json!({"path": path.as_str(), "sizeBytes": size, "sha256": hex}))
    }

    /// What a file write puts into the run's files, read as the run sees them
    /// before the write; the write was checked by
    /// [`file_write_reply`](Self::file_write_reply).
    pub(super) fn plan_file_write(
        &self,
        member: Member,
        write: FileWrite,
    ) -> Result<FilePlan, HostError> {
        let mut plan = FilePlan::default();
        match write {
            FileWrite::Text(at, text) => plan.files.push((at.path, Some(text))),
            FileWrite::Bytes(at, bytes) => plan.files.push((at.path, Some(bytes.into()))),
            FileWrite::Zip { target, request } => {
                let entries = self.archive_entries(&request)?;
                plan.files
                    .push((target.path, Some(zip_of(&entries).into())));
            }
            FileWrite::MakeDirectory { dir, .. } => plan.files.push((dir.path, None)),
            FileWrite::Remove { path, .. } => plan.removed = Some(path.path),
            FileWrite::Transfer { source, target, .. } => {
                self.plan_copy(&source.path, &target.path, &mut plan)?;
                if member == Member::FileMove {
                    plan.removed = Some(source.path);
                }
            }
        }
        Ok(plan)
    }

    /// Puts a planned write into the run's files, so that later reads see it.
    pub(super) fn apply_file_write(&mut self, plan: FilePlan) {
        let mut written = std::mem::take(&mut self.overlay);
        let on_disk = |p: &str| {
            HostPath::parse(p).is_ok_and(|p| {
                self.disk_file(Lookup::of(Member::FileExists, &p))
                    .is_ok_and(|v| v == Value::Bool(true))
            })
        };
        // A move removes its source before its target is written: a target beside
        // the source survives (a target inside it is refused before).
        if let Some(path) = &plan.removed {
            written.remove(path);
        }
        for (path, bytes) in plan.files {
            match bytes {
                Some(bytes) => written.write(&path, bytes, &on_disk),
                None => written.make_directory(&path, &on_disk),
            }
        }
        self.overlay = written;
    }
}

/// What one write puts into the run's files: a path it removes, then files (with
/// their bytes) and directories (`None`) in order.
#[derive(Debug, Default)]
pub(super) struct FilePlan {
    pub(super) files: Vec<(HostPath, Option<Arc<[u8]>>)>,
    pub(super) removed: Option<HostPath>,
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

/// `rest` under [`TEMP_DIR`].
fn temp_path(rest: &str) -> Result<HostPath, HostError> {
    HostPath::parse(&format!("{TEMP_DIR}/{rest}"))
        .map_err(|e| HostError::internal("file.getTempDirectoryPath", &e.to_string()))
}

/// `raw` (or `fallback`) as one safe path segment, as the reference host makes
/// input keys and file names: runs of characters outside `[A-Za-z0-9._-]` become
/// `-`, at most 96 characters, and what names no file (`.`, `..`, nothing) is the
/// fallback.
fn path_segment(raw: Option<&str>, fallback: &str) -> String {
    let mut out = String::new();
    for c in raw.unwrap_or_default().trim().chars() {
        if c.is_ascii_alphanumeric() || "._-".contains(c) {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out
        .trim_matches('-')
        .trim_end_matches('.')
        .chars()
        .take(96)
        .collect();
    if out.is_empty() || out.chars().all(|c| c == '.') {
        fallback.to_string()
    } else {
        out
    }
}

/// How many bytes `n` bytes take as base64, as they cross to hooks.
fn base64_len(n: usize) -> u64 {
    (n as u64).div_ceil(3) * 4
}

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
        let room = MAX_EXTRACTED_BYTES - total;
        let mut data = Vec::new();
        let mut reader = std::io::Read::take(file, room.min(budget.left()) + 1);
        // Inflated in slices, so the deadline is looked at while a large entry
        // inflates.
        let mut slice = [0u8; 64 * 1024];
        loop {
            let n =
                std::io::Read::read(&mut reader, &mut slice).map_err(|e| invalid(e.to_string()))?;
            if n == 0 {
                break;
            }
            if total + (data.len() + n) as u64 > MAX_EXTRACTED_BYTES {
                return Err(limited(
                    "bytes",
                    MAX_EXTRACTED_BYTES,
                    total + (data.len() + n) as u64,
                ));
            }
            budget.spend(n as u64)?;
            budget.check()?;
            data.extend_from_slice(&slice[..n]);
        }
        total += data.len() as u64;
        dirs.extend(name.ancestors().map(str::to_string));
        files.insert(name.as_str().to_string());
        extracted.push((name, data));
    }
    Ok(extracted)
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

/// A stored (uncompressed) zip of `entries`.
fn zip_of(entries: &[ArchiveEntry]) -> Vec<u8> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_keys_become_one_safe_segment() {
        assert_eq!(path_segment(Some(".."), "input"), "input");
        assert_eq!(path_segment(Some("."), "input"), "input");
        assert_eq!(path_segment(Some("a/../b c"), "input"), "a-..-b-c");
        assert_eq!(path_segment(None, "input.bin"), "input.bin");
        assert_eq!(path_segment(Some("x".repeat(200).as_str()), "i").len(), 96);
    }
}
