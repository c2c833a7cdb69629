//! The `file.*` members: reads as the run's recorded writes left things (the
//! overlay first, then the files directory or a bundle), and the writes applied to
//! the overlay. Every path is a [`HostPath`]; every read is spent from the call's
//! [`Budget`](crate::host::Budget) before it is made, and every loop over entries
//! ticks it.

mod archive;
mod write;

use archive::inline_content;
pub(super) use write::FilePlan;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};

use super::{BUNDLES_DIR, HookHost, bundle_error, bytes, unsupported, world_error};
use crate::host::members::Member;
use crate::host::members::files::FileRead;
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

    /// Whether the run sees a file or directory at `path`.
    pub(super) fn file_exists(&self, path: &HostPath) -> bool {
        self.read_file(Lookup::of(Member::FileExists, path))
            .is_ok_and(|v| v == Value::Bool(true))
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

/// How many bytes `n` bytes take as base64, as they cross to hooks.
fn base64_len(n: usize) -> u64 {
    (n as u64).div_ceil(3) * 4
}

impl HookHost {
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
