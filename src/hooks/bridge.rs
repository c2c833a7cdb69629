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
use crate::host::world::{HostWorld, HostWorldError, PageRequest};
use crate::sandbox::{HostBridge, HostError};
use crate::selection::PortableItemRef;

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
        match self.bundle_path(&path) {
            Some(found) => {
                let (root, inner) = found?;
                let world = HostWorld::default().with_files_dir(root);
                world_file(&world, op, &inner, recursive, max_depth, &member)
                    .map(|v| rebase(v, &inner, &path))
            }
            None => world_file(&self.world, op, &path, recursive, max_depth, &member),
        }
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
            "getNoteDetail" => self.world.get_note_detail(&reference),
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
            return self.effects.record(&self.site, member, args);
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
fn world_file(
    world: &HostWorld,
    op: &str,
    path: &str,
    recursive: bool,
    max_depth: Option<usize>,
    member: &str,
) -> Result<Value, HostError> {
    match op {
        "exists" => Ok(json!(world.file_exists(path))),
        "readText" => world.read_text(path).map(Value::String),
        "readBytes" => world.read_bytes(path).map(|b| bytes(&b)),
        "stat" => world.stat(path),
        "list" => world.list(path, recursive, max_depth),
        _ => return Err(unsupported(member)),
    }
    .map_err(|e| world_error(member, &e))
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
