//! The host side of a hook call, engine-free: answers `runtime.hostApi` reads
//! from the host world, records writes as effects, and serves bundle readers and
//! result contexts by id. The engine's bridge only decodes a call, hands it to
//! [`HookHost::call`] and encodes the answer.
//!
//! Members are dispatched as `js/host-api.json` declares them
//! ([`crate::host::api`]): reads answered from the world (`library.rs`,
//! `files.rs`, `services.rs`), writes recorded and applied to the run's copy of
//! the world and its file overlay (`writes.rs`), members that need a person or a
//! service answered from the fixture or refused as the reference host refuses
//! them (`services.rs`; in interactive runs checked as the reference's
//! interactive host checks them, `interaction.rs`).
//!
//! Files inside a bundle are visible to the file members under the virtual
//! directory `/bundles/<id>` that `getExtractedDir()` returns, so hooks never
//! see where bundles are extracted on the host.

mod files;
mod interaction;
mod library;
mod products;
mod services;
mod synthesis;
mod writes;

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::bundle::{ArtifactRequest, BundleError, ResultContext};
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::budget::{Breach, Budget, DEFAULT_HOST_CALL_BYTES};
use crate::host::effects::{CallSite, Effect, EffectLog};
use crate::host::members::{self, Internal, Member};
use crate::host::overlay::FileOverlay;
use crate::host::products::{ProductOwner, Products};
use crate::host::redact::{Redactions, TEMPORARY};
use crate::host::world::{HostWorld, HostWorldError};

/// Virtual directory under which bundle contents are visible to hooks.
pub const BUNDLES_DIR: &str = "/bundles/";

/// How a [`HookHost`] answers what does not come from its world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostSettings {
    /// Answer members that need a person (from the fixture), as an interactive host.
    pub interactive: bool,
    /// Stamp write receipts with this clock (ms since the epoch) instead of now.
    pub clock_ms: Option<i64>,
    /// `environment.getInfo().locale`.
    pub locale: String,
}

impl Default for HostSettings {
    fn default() -> HostSettings {
        HostSettings {
            interactive: false,
            clock_ms: None,
            locale: "en-US".into(),
        }
    }
}

/// What a member that calls back into the hook answers the facade: the calls to
/// make, each a list of arguments, and what the member resolves to.
struct Plan;

impl Plan {
    /// The calls, then `result`.
    fn result(calls: Vec<Value>, result: Value) -> Value {
        json!({"calls": calls, "result": result, "returns": "result"})
    }

    /// The calls, then what the last one returned; `finish` is handed back when
    /// the member is done.
    fn callback(calls: Vec<Value>, finish: String) -> Value {
        json!({"calls": calls, "returns": "callback", "finish": finish})
    }
}

/// Everything the hooks of one run may reach.
pub struct HookHost {
    /// The run's copy of the world; recorded library writes change it.
    world: HostWorld,
    answers: HostAnswers,
    /// Whether members that need a person are answered (from the fixture).
    interactive: bool,
    /// The frozen clock of a deterministic run, in ms since the epoch.
    clock_ms: Option<i64>,
    /// `environment.getInfo().locale`.
    locale: String,
    /// Directories made under the temporary directory so far.
    extractions: u64,
    /// Archives extracted for callbacks that have not finished.
    live_roots: std::collections::HashSet<crate::host::HostPath>,
    /// Tag-audit runs and the traversal evidence they may consume.
    audits: synthesis::AuditRuns,
    effects: EffectLog,
    site: CallSite,
    contexts: HashMap<String, ResultContext>,
    deferred: HashMap<String, Value>,
    /// What the run's recorded file writes changed, as later reads see it.
    overlay: FileOverlay,
    /// The budget of the call being answered.
    budget: Budget,
    /// The byte budget of each call.
    call_bytes: u64,
    /// The products the run registered.
    products: Products,
    /// Who the product storage of each result context registers for.
    owners: HashMap<String, ProductOwner>,
    /// The run's clipboard and the current hook call's visible toasts.
    interaction: interaction::Interaction,
}

impl HookHost {
    /// A host over `world`, answering what the world cannot from `answers`.
    pub fn new(world: HostWorld, answers: HostAnswers) -> HookHost {
        HookHost {
            world,
            answers,
            interactive: false,
            clock_ms: None,
            locale: "en-US".into(),
            extractions: 0,
            live_roots: Default::default(),
            audits: Default::default(),
            effects: EffectLog::default(),
            site: CallSite::default(),
            contexts: HashMap::new(),
            deferred: HashMap::new(),
            overlay: FileOverlay::default(),
            budget: Budget::unlimited(),
            call_bytes: DEFAULT_HOST_CALL_BYTES,
            products: Products::default(),
            owners: HashMap::new(),
            interaction: Default::default(),
        }
    }

    /// The same host giving each call `bytes` to hold outside the engine (see
    /// [`Budget`]; default [`DEFAULT_HOST_CALL_BYTES`]).
    pub fn with_call_bytes(mut self, bytes: u64) -> HookHost {
        self.call_bytes = bytes;
        self
    }

    /// The same host with a write limit for the run: see [`EffectLog::with_write_limit`].
    pub fn with_write_limit(mut self, max_write_bytes: u64) -> HookHost {
        self.effects = EffectLog::with_write_limit(max_write_bytes);
        self
    }

    /// The same host set up as `settings` say.
    pub fn with_settings(mut self, settings: HostSettings) -> HookHost {
        self.interactive = settings.interactive;
        self.clock_ms = settings.clock_ms;
        self.locale = settings.locale;
        self
    }

    /// A host for another thread of the same run: the same world and
    /// answers, an empty effect log numbering created items
    /// `key_offset` after this host's (see [`EffectLog::branch`]), and no
    /// result contexts (its products are this host's so far).
    pub fn fork(&self, key_offset: u64) -> HookHost {
        HookHost {
            world: self.world.clone(),
            answers: self.answers.clone(),
            interactive: self.interactive,
            clock_ms: self.clock_ms,
            locale: self.locale.clone(),
            extractions: self.extractions,
            live_roots: Default::default(),
            audits: Default::default(),
            effects: self.effects.branch(key_offset),
            site: CallSite::default(),
            contexts: HashMap::new(),
            deferred: HashMap::new(),
            overlay: self.overlay.clone(),
            budget: Budget::unlimited(),
            call_bytes: self.call_bytes,
            products: self.products.clone(),
            owners: HashMap::new(),
            interaction: self.interaction.clone(),
        }
    }

    /// The host world.
    pub fn world(&self) -> &HostWorld {
        &self.world
    }

    /// Sets who the following calls come from. Archives extracted for callbacks of
    /// an earlier call that never finished go away.
    pub fn set_site(&mut self, unit_id: &str, hook: &str) {
        for root in std::mem::take(&mut self.live_roots) {
            self.overlay.remove(&root);
        }
        self.site = CallSite {
            unit_id: unit_id.to_string(),
            hook: hook.to_string(),
        };
        self.interaction.next_caller();
    }

    /// Holds the argument members the next call receives on demand
    /// (`deferred.take`), replacing those of the previous call.
    pub fn set_deferred(&mut self, members: Vec<(String, Value)>) {
        self.deferred = members.into_iter().collect();
    }

    /// Hands back the members [`set_deferred`](Self::set_deferred) held,
    /// once their call has ended.
    pub fn take_deferred(&mut self) -> Vec<(String, Value)> {
        self.deferred.drain().collect()
    }

    /// Registers a result context (and its bundle reader) under `id`.
    pub fn add_context(&mut self, id: &str, context: ResultContext) {
        self.contexts.insert(id.to_string(), context);
    }

    /// Drops a result context, removing its temporary bundle files.
    pub fn remove_context(&mut self, id: &str) {
        self.contexts.remove(id);
        self.owners.remove(id);
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

    fn bundle(&mut self, op: Internal, args: &Value) -> Result<Value, HostError> {
        let entry = args
            .get(1)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let id = args.get(0).cloned().unwrap_or(Value::Null);
        let reader = self.context_mut(&id)?.reader();
        match op {
            Internal::BundleReadText => reader.read_text(&entry).map(Value::String),
            Internal::BundleReadBytes => reader.read_bytes(&entry).map(|b| bytes(&b)),
            Internal::BundleList => reader.list().map(|l| json!(l)),
            _ => reader
                .extracted_dir()
                .map(|_| json!(format!("{BUNDLES_DIR}{}", id.as_str().unwrap_or_default()))),
        }
        .map_err(bundle_error)
    }

    fn result(&mut self, op: Internal, args: &Value) -> Result<Value, HostError> {
        let id = args.get(0).cloned().unwrap_or(Value::Null);
        let request: ArtifactRequest =
            serde_json::from_value(args.get(1).cloned().unwrap_or(json!({}))).map_err(|e| {
                HostError::invalid_request("result.resolveArtifact", &e.to_string())
            })?;
        let context = self.context_mut(&id)?;
        let no_local_files = |_: &Path| None;
        let found = match op {
            Internal::ResolveArtifact => context
                .resolve_artifact(&request, &no_local_files)
                .map(|a| serde_json::to_value(a).unwrap_or_default()),
            _ => context
                .resolve_artifact_bytes(&request, &no_local_files)
                .map(|a| {
                    let mut v = serde_json::to_value(&a.location).unwrap_or_default();
                    v["bytes"] = bytes(&a.bytes);
                    v
                }),
        };
        found.map_err(bundle_error)
    }
}

impl HookHost {
    /// Answers a call of `member` (as the facade names it) with the JSON `args`,
    /// within the hook call's `deadline` and the host's byte budget; an error names
    /// no host path (see [`Redactions`]).
    pub fn call(
        &mut self,
        member: &str,
        args: Value,
        deadline: Option<Instant>,
    ) -> Result<Value, HostError> {
        self.budget = Budget::new(deadline, self.call_bytes);
        let answer = self
            .budget
            .check()
            .and_then(|()| self.dispatch(member, args));
        answer.map_err(|error| {
            // Every error a member answers is one the reference host could raise;
            // the test suites run with this check.
            debug_assert!(
                error.conformance().is_ok(),
                "{member}: {:?}: {}",
                error.conformance(),
                error.message
            );
            self.redactions().error(error)
        })
    }

    /// The limit the last call ran into, cleared by asking: the run's write limit
    /// (see [`EffectLog::take_write_limit`]), the call's deadline or its byte
    /// budget. The hook call ends with it.
    pub fn take_breach(&mut self) -> Option<Breach> {
        let writes = self.effects.take_write_limit().map(Breach::Writes);
        let budget = std::mem::replace(&mut self.budget, Budget::unlimited());
        writes.or(budget.exhausted())
    }

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
        // The simulated temporary directory is the host hooks see, not this one.
        redactions.keep(files::TEMP_DIR);
        redactions
    }

    /// A member of the table ([`members::dispatch`]), else one the facade uses
    /// itself.
    fn dispatch(&mut self, member: &str, args: Value) -> Result<Value, HostError> {
        match Member::parse(member) {
            Some(member) => {
                self.world
                    .load_for(member, &args)
                    .map_err(|e| world_error(member.name(), &e))?;
                members::dispatch(self, member, args)
            }
            None => self.internal(member, args),
        }
    }

    /// The members the facade itself uses: bundle readers, result contexts,
    /// deferred argument members and the end of a callback member.
    fn internal(&mut self, member: &str, args: Value) -> Result<Value, HostError> {
        let Some(internal) = Internal::parse(member) else {
            return Err(unsupported(member));
        };
        match internal {
            Internal::Finish(Member::SynthesisTagsWithAuditRun) => {
                self.finish_audit(Member::SynthesisTagsWithAuditRun, &args)
            }
            Internal::Finish(member) => self.finish_callback(member, &args),
            Internal::Append(Member::SynthesisTagsWithAuditRun) => {
                self.append_audit(Member::SynthesisTagsWithAuditRun, &args)
            }
            Internal::Append(_) => Err(unsupported(member)),
            Internal::ResolveArtifact | Internal::ResolveArtifactBytes => {
                self.result(internal, &args)
            }
            Internal::ProductRegister => self.register_product(&args),
            Internal::DeferredTake => {
                let id = args.get(0).and_then(Value::as_str).unwrap_or_default();
                self.deferred.get(id).cloned().ok_or_else(|| {
                    HostError::plain(
                        "Error",
                        format!("argument member {id} is no longer available"),
                    )
                })
            }
            _ => self.bundle(internal, &args),
        }
    }
}

/// Bytes as they cross to hooks: `{"$bytes": "<base64>"}`.
fn bytes(data: &[u8]) -> Value {
    json!({"$bytes": base64::engine::general_purpose::STANDARD.encode(data)})
}

fn unsupported(member: &str) -> HostError {
    HostError::workflow(
        "unsupported_operation",
        format!("{member} is not supported by this host"),
        json!({"memberOrOperation": member}),
    )
}

fn world_error(member: &str, error: &HostWorldError) -> HostError {
    let code = error.code();
    let details = match error {
        // Files are the reference's `resource` targets.
        HostWorldError::NotFound { kind, key } => {
            let kind = if kind == "file" { "resource" } else { kind };
            json!({"kind": kind, "opaqueKey": key})
        }
        HostWorldError::Io { path, .. } => json!({"kind": "resource", "opaqueKey": path}),
        HostWorldError::UnsafePath(_) => json!({"reason": "unsafe_path", "operation": member}),
        HostWorldError::WrongKind { kind, .. } => json!({"kind": kind, "reason": "wrong_kind"}),
        HostWorldError::ForeignScope { kind, .. } => {
            json!({"kind": kind, "reason": "foreign_scope"})
        }
        HostWorldError::InvalidField { reason, field, .. } => {
            json!({"reason": reason, "field": field})
        }
        HostWorldError::ResourceLimited {
            resource,
            limit,
            observed,
        } if observed.is_null() => json!({"resource": resource, "limit": limit}),
        HostWorldError::ResourceLimited {
            resource,
            limit,
            observed,
        } => json!({"resource": resource, "limit": limit, "observed": observed}),
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

#[cfg(test)]
mod synthesis_tests;
