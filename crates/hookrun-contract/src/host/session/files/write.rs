//! File writes: each checked against the run's files as the reference host
//! checks it, planned (what it puts into the overlay), then applied.

use std::sync::Arc;

use serde_json::{Value, json};

use super::archive::zip_of;
use super::{HookHost, Lookup, not_found};
use crate::host::members::Member;
use crate::host::members::files::FileWrite;
use crate::host::{HostError, HostPath};

impl HookHost {
    /// Checks a file write against the run's files and answers what the
    /// reference host's file members answer: nothing, `{removed}` for `remove`,
    /// the measured entries and the target for `archive.writeZipAtomic`.
    pub(in crate::host::session) fn file_write_reply(
        &self,
        member: Member,
        write: &FileWrite,
    ) -> Result<Value, HostError> {
        self.refuse_writing_under_a_file(write)?;
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
            } => self.removal_reply(&path.path, *recursive, *ignore_missing),
            FileWrite::Transfer {
                source,
                target,
                overwrite,
            } => self.transfer_reply(member, &source.path, &target.path, *overwrite),
            FileWrite::Zip { target, request } => {
                let mut measured = self.measure_entries(request)?;
                measured["targetPath"] = target.path.as_str().into();
                Ok(measured)
            }
        }
    }

    /// Refuses a write whose target lies under a file: a file is never made a
    /// directory to hold what is written under it.
    fn refuse_writing_under_a_file(&self, write: &FileWrite) -> Result<(), HostError> {
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
            Err(HostError::workflow(
                "invalid_request",
                "Workflow file path passes through a file",
                json!({"reason": "invalid_value", "field": field}),
            ))
        } else {
            Ok(())
        }
    }

    /// `file.remove`: `{removed}`; a directory that holds entries needs `recursive`.
    fn removal_reply(
        &self,
        path: &HostPath,
        recursive: bool,
        ignore_missing: bool,
    ) -> Result<Value, HostError> {
        if !self.file_exists(path) {
            return if ignore_missing {
                Ok(json!({"removed": false}))
            } else {
                Err(not_found())
            };
        }
        if !recursive && self.holds_entries(path) {
            return Err(HostError::workflow(
                "invalid_request",
                "Recursive workflow directory removal was not requested",
                json!({"reason": "invalid_combination", "field": "recursive"}),
            ));
        }
        Ok(json!({"removed": true}))
    }

    /// `file.copy` / `file.move`: the source must exist, the target lie outside it
    /// and, without `overwrite`, not exist.
    fn transfer_reply(
        &self,
        member: Member,
        source: &HostPath,
        target: &HostPath,
        overwrite: bool,
    ) -> Result<Value, HostError> {
        if !self.file_exists(source) {
            return Err(not_found());
        }
        if target.is_within(source) {
            return Err(HostError::workflow(
                "invalid_request",
                "Workflow file target lies within its source",
                json!({"reason": "invalid_combination", "field": "targetPath"}),
            ));
        }
        if !overwrite && self.file_exists(target) {
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

    /// What placing the run's file at `source` in the library's storage at `target`
    /// writes.
    pub(in crate::host::session) fn plan_stored_file(
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

    /// What a file write puts into the run's files, read as the run sees them
    /// before the write; the write was checked by
    /// [`file_write_reply`](Self::file_write_reply).
    pub(in crate::host::session) fn plan_file_write(
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
    pub(in crate::host::session) fn apply_file_write(&mut self, plan: FilePlan) {
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
pub(in crate::host::session) struct FilePlan {
    pub(in crate::host::session) files: Vec<(HostPath, Option<Arc<[u8]>>)>,
    pub(in crate::host::session) removed: Option<HostPath>,
}

impl FilePlan {
    /// The bytes the write adds at most (what it replaces is not subtracted).
    pub(in crate::host::session) fn added_bytes(&self) -> u64 {
        self.files
            .iter()
            .filter_map(|(_, bytes)| bytes.as_ref())
            .map(|b| b.len() as u64)
            .sum()
    }
}

#[cfg(test)]
#[path = "ported_file_owner_tests.rs"]
mod ported_file_owner_tests;
