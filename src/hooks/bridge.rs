//! The host side of a hook call: answers `runtime.hostApi` reads from the host
//! world, records writes as effects, and serves bundle readers and result
//! contexts by id.
//!
//! Files inside a bundle are visible to the file members under the virtual
//! directory `/bundles/<id>` that `getExtractedDir()` returns, so hooks never
//! see where bundles are extracted on the host.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{Value, json};

use crate::bundle::{ArtifactRequest, BundleError, ResultContext};
use crate::hooks::redact::{Redactions, TEMPORARY};
use crate::host::effects::{CallSite, Effect, EffectLog, is_write};
use crate::host::overlay::{self, FileOverlay, Seen};
use crate::host::world::{HostWorld, HostWorldError, NoteFormat, PageRequest};
use crate::sandbox::{HostBridge, HostError};
use crate::selection::PortableItemRef;

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

/// Virtual directory under which bundle contents are visible to hooks.
pub const BUNDLES_DIR: &str = "/bundles/";

/// Answers to `metadata.translateIdentifier`, keyed `<type>:<value>`.
pub type IdentifierAnswers = serde_json::Map<String, Value>;

/// Everything the hooks of one run may reach.
pub struct HookHost {
    world: HostWorld,
    identifiers: IdentifierAnswers,
    effects: EffectLog,
    site: CallSite,
    contexts: HashMap<String, ResultContext>,
    deferred: HashMap<String, Value>,
    /// What the run's recorded file writes changed, as later reads see it.
    overlay: FileOverlay,
}

impl HookHost {
    /// A host over `world`, answering identifier look-ups from `identifiers`.
    pub fn new(world: HostWorld, identifiers: IdentifierAnswers) -> HookHost {
        HookHost {
            world,
            identifiers,
            effects: EffectLog::default(),
            site: CallSite::default(),
            contexts: HashMap::new(),
            deferred: HashMap::new(),
            overlay: FileOverlay::default(),
        }
    }

    /// The same host with a write limit for the run: see [`EffectLog::with_write_limit`].
    pub fn with_write_limit(mut self, max_write_bytes: u64) -> HookHost {
        self.effects = EffectLog::with_write_limit(max_write_bytes);
        self
    }

    /// A host for another thread of the same run: the same world and
    /// identifier answers, an empty effect log numbering created items
    /// `key_offset` after this host's (see [`EffectLog::branch`]), and no
    /// result contexts.
    pub fn fork(&self, key_offset: u64) -> HookHost {
        HookHost {
            world: self.world.clone(),
            identifiers: self.identifiers.clone(),
            effects: self.effects.branch(key_offset),
            site: CallSite::default(),
            contexts: HashMap::new(),
            deferred: HashMap::new(),
            overlay: self.overlay.clone(),
        }
    }

    /// Appends effects recorded by a [`fork`](Self::fork) of this host.
    pub fn absorb_effects(&mut self, effects: Vec<Effect>) {
        self.effects.absorb(effects);
    }

    /// The host world.
    pub fn world(&self) -> &HostWorld {
        &self.world
    }

    /// Sets who the following calls come from.
    pub fn set_site(&mut self, unit_id: &str, hook: &str) {
        self.site = CallSite {
            unit_id: unit_id.to_string(),
            hook: hook.to_string(),
        };
    }

    /// Holds the argument members the next call receives on demand
    /// (`deferred.take`), replacing those of the previous call.
    pub fn set_deferred(&mut self, members: Vec<(String, Value)>) {
        self.deferred = members.into_iter().collect();
    }

    /// Registers a result context (and its bundle reader) under `id`.
    pub fn add_context(&mut self, id: &str, context: ResultContext) {
        self.contexts.insert(id.to_string(), context);
    }

    /// Drops a result context, removing its temporary bundle files.
    pub fn remove_context(&mut self, id: &str) {
        self.contexts.remove(id);
    }

    /// The result context registered under `id`.
    pub fn context(&self, id: &str) -> Option<&ResultContext> {
        self.contexts.get(id)
    }

    /// Takes the effects recorded so far.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        self.effects.take()
    }

    fn context_mut(&mut self, id: &Value) -> Result<&mut ResultContext, HostError> {
        let id = id.as_str().unwrap_or_default();
        self.contexts
            .get_mut(id)
            .ok_or_else(|| HostError::plain("Error", format!("bundle {id} is no longer available")))
    }

    fn bundle(&mut self, op: &str, args: &Value) -> Result<Value, HostError> {
        let entry = args
            .get(1)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let id = args.get(0).cloned().unwrap_or(Value::Null);
        let reader = self.context_mut(&id)?.reader();
        match op {
            "readText" => reader.read_text(&entry).map(Value::String),
            "readBytes" => reader.read_bytes(&entry).map(|b| bytes(&b)),
            "list" => reader.list().map(|l| json!(l)),
            "getExtractedDir" => reader
                .extracted_dir()
                .map(|_| json!(format!("{BUNDLES_DIR}{}", id.as_str().unwrap_or_default()))),
            _ => return Err(unsupported(&format!("bundle.{op}"))),
        }
        .map_err(bundle_error)
    }

    fn result(&mut self, op: &str, args: &Value) -> Result<Value, HostError> {
        let id = args.get(0).cloned().unwrap_or(Value::Null);
        let request: ArtifactRequest =
            serde_json::from_value(args.get(1).cloned().unwrap_or(json!({})))
                .map_err(|e| HostError::invalid_request(&format!("result.{op}"), &e.to_string()))?;
        let context = self.context_mut(&id)?;
        let no_local_files = |_: &Path| None;
        let found = match op {
            "resolveArtifact" => context
                .resolve_artifact(&request, &no_local_files)
                .map(|a| serde_json::to_value(a).unwrap_or_default()),
            "resolveArtifactBytes" => context
                .resolve_artifact_bytes(&request, &no_local_files)
                .map(|a| {
                    let mut v = serde_json::to_value(&a.location).unwrap_or_default();
                    v["bytes"] = bytes(&a.bytes);
                    v
                }),
            _ => return Err(unsupported(&format!("result.{op}"))),
        };
        found.map_err(bundle_error)
    }

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

    fn file(&mut self, op: &str, args: &Value) -> Result<Value, HostError> {
        let member = format!("file.{op}");
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

    /// Applies a recorded `file.*` write to the overlay, so that later reads see it.
    fn apply_file_write(&mut self, member: &str, args: &Value) {
        let path_of =
            |value: Option<&Value>| value.and_then(Value::as_str).and_then(overlay::normalize);
        let request = args.get(0).unwrap_or(&Value::Null);
        let source = request.get("sourcePath").and_then(Value::as_str);
        // What a copy or move takes, as the run sees it before this write.
        let tree = match (member, source) {
            ("file.copy" | "file.move", Some(source)) => self.file_tree(source),
            _ => Vec::new(),
        };
        let mut written = std::mem::take(&mut self.overlay);
        let on_disk = |p: &str| {
            self.disk_file(FileRead::of("exists", p))
                .is_ok_and(|v| v == Value::Bool(true))
        };
        match member {
            "file.writeText" => {
                if let (Some(path), Some(text)) =
                    (path_of(args.get(0)), args.get(1).and_then(Value::as_str))
                {
                    written.write(&path, text.as_bytes().to_vec(), &on_disk);
                }
            }
            "file.makeDirectory" => {
                if let Some(path) = path_of(request.get("path")) {
                    written.make_directory(&path, &on_disk);
                }
            }
            "file.remove" => {
                if let Some(path) = path_of(request.get("path")) {
                    written.remove(&path);
                }
            }
            "file.copy" | "file.move" => {
                if let Some(target) = path_of(request.get("targetPath")) {
                    for (rel, bytes) in tree {
                        let at = if rel.is_empty() {
                            target.clone()
                        } else {
                            overlay::join(&target, &rel)
                        };
                        match bytes {
                            Some(bytes) => written.write(&at, bytes, &on_disk),
                            None => written.make_directory(&at, &on_disk),
                        }
                    }
                    if member == "file.move"
                        && let Some(source) = source.and_then(overlay::normalize)
                    {
                        written.remove(&source);
                    }
                }
            }
            _ => {}
        }
        self.overlay = written;
    }

    fn library(&self, op: &str, args: &Value) -> Result<Value, HostError> {
        let member = format!("library.{op}");
        let reference =
            PortableItemRef::parse(args.get(0).unwrap_or(&Value::Null), "/0").map_err(|_| {
                HostError::workflow(
                    "invalid_ref",
                    format!("{member}: Expected a complete portable item reference"),
                    json!({"kind": "item", "reason": "invalid_value"}),
                )
            })?;
        let page = || PageRequest {
            limit: args
                .pointer("/1/limit")
                .and_then(Value::as_u64)
                .map(|l| l as usize),
            cursor: args
                .pointer("/1/cursor")
                .and_then(Value::as_str)
                .map(str::to_string),
        };
        match op {
            "getItemDetail" => self.world.get_item_detail(&reference),
            "getItemAttachments" => self.world.get_item_attachments(&reference, &page()),
            "getItemNotes" => self.world.get_item_notes(&reference, &page()),
            "getNoteDetail" => {
                let format = args.pointer("/1/format").and_then(Value::as_str);
                let Some(format) = format.and_then(NoteFormat::parse) else {
                    return Err(HostError::workflow(
                        "invalid_request",
                        format!("{member}: options.format must be \"html\" or \"text\""),
                        json!({"reason": "invalid_value", "field": "format"}),
                    ));
                };
                self.world.get_note_detail(&reference, format)
            }
            _ => return Err(unsupported(&member)),
        }
        .map_err(|e| world_error(&member, &e))
    }

    fn translate_identifier(&self, args: &Value) -> Value {
        let kind = args
            .pointer("/0/type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let value = args
            .pointer("/0/value")
            .and_then(Value::as_str)
            .unwrap_or_default();
        self.identifiers
            .get(&format!("{kind}:{value}"))
            .cloned()
            .unwrap_or_else(|| json!({"outcome": "not_found", "reason": "no_candidate"}))
    }
}

impl HostBridge for HookHost {
    fn take_write_limit(&mut self) -> Option<u64> {
        self.effects.take_write_limit()
    }

    fn call(&mut self, member: &str, args: Value) -> Result<Value, HostError> {
        self.dispatch(member, args)
            .map_err(|error| self.redactions().error(error))
    }
}

impl HookHost {
    /// The host directories a hook's messages must not name, and what they show instead.
    fn redactions(&self) -> Redactions {
        let mut redactions = Redactions::default();
        if let Some(files) = self.world.files_dir() {
            redactions.add(files, "");
        }
        for (id, context) in &self.contexts {
            for path in context.reader().host_paths() {
                redactions.add(path, &format!("{BUNDLES_DIR}{id}"));
            }
        }
        redactions.add(&std::env::temp_dir(), TEMPORARY);
        redactions
    }

    fn dispatch(&mut self, member: &str, args: Value) -> Result<Value, HostError> {
        if is_write(member) {
            let file_write = member.starts_with("file.").then(|| args.clone());
            let recorded = self.effects.record(&self.site, member, args);
            if recorded.is_ok()
                && let Some(args) = file_write
            {
                self.apply_file_write(member, &args);
            }
            return recorded;
        }
        let (namespace, op) = member.split_once('.').unwrap_or((member, ""));
        match namespace {
            "library" => self.library(op, &args),
            "file" => self.file(op, &args),
            "bundle" => self.bundle(op, &args),
            "result" => self.result(op, &args),
            "metadata" if op == "translateIdentifier" => Ok(self.translate_identifier(&args)),
            "deferred" if op == "take" => {
                let id = args.get(0).and_then(Value::as_str).unwrap_or_default();
                self.deferred.remove(id).ok_or_else(|| {
                    HostError::plain(
                        "Error",
                        format!("argument member {id} is no longer available"),
                    )
                })
            }
            "context" => Err(HostError::workflow(
                "interaction_required",
                format!("{member} requires an interactive Workflow Host"),
                json!({"member": member}),
            )),
            _ => Err(unsupported(member)),
        }
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

/// Bytes as they cross to hooks: `{"$bytes": "<base64>"}`.
fn bytes(data: &[u8]) -> Value {
    json!({"$bytes": base64::engine::general_purpose::STANDARD.encode(data)})
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

fn unsupported(member: &str) -> HostError {
    HostError::workflow(
        "unsupported_operation",
        format!("{member} is not supported by this host"),
        json!({"memberOrOperation": member, "reason": "not_supported"}),
    )
}

fn world_error(member: &str, error: &HostWorldError) -> HostError {
    let code = error.code();
    let details = match error {
        HostWorldError::NotFound { kind, key } => json!({"kind": kind, "opaqueKey": key}),
        HostWorldError::UnsafePath(_) => json!({"reason": "unsafe_path", "operation": member}),
        _ => json!({"reason": "invalid_value", "operation": member}),
    };
    HostError::workflow(code, format!("{member}: {error}"), details)
}

fn bundle_error(error: BundleError) -> HostError {
    let mut e = HostError::plain("Error", error.to_string());
    if let Some(code) = error.code() {
        e.fields.insert("code".into(), json!(code));
    }
    e
}
