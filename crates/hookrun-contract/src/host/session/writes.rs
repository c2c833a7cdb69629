//! Writes: checked and worked out against the run's world, recorded as effects,
//! then applied, so that later reads of the run see them. Library writes answer
//! the reference host's envelope `{outcome, receipt, result}`; file writes answer
//! what its file members answer.

use serde_json::{Value, json};

use super::HookHost;
use super::files::FilePlan;
use crate::host::members::Member;
use crate::host::members::files::FileWrite;
use crate::host::members::request::Canonical;
use crate::host::world::{Keys, Prepared, digest, hex_sha256};
use crate::host::{HostError, HostPath};

impl HookHost {
    /// A file write (`file.*`, `archive.writeZipAtomic`): recorded, then applied to
    /// the run's files.
    pub(crate) fn file_write(
        &mut self,
        member: Member,
        args: Value,
        write: FileWrite,
    ) -> Result<Value, HostError> {
        let reply = self.file_write_reply(member, &write)?;
        let plan = self.plan_file_write(member, write)?;
        let name = member.name();
        self.refuse_past_limit(name, &args, plan.added_bytes())?;
        self.effects
            .commit(&self.site, name, args, None, reply.clone())?;
        self.apply_file_write(plan);
        Ok(reply)
    }

    /// A library write, its request checked by its canonical schema's members:
    /// worked out against the world, recorded, then applied.
    pub(crate) fn library_write(
        &mut self,
        member: Member,
        args: Value,
        request: Canonical,
    ) -> Result<Value, HostError> {
        let name = member.name();
        let operation_id = request.operation_id.unwrap_or_default();
        // A write repeating the one its id is bound to replays that answer, whatever
        // the world says now (the note it removed is gone); an id bound to another
        // write is a conflict once the request itself is known to be valid.
        if let Some(reply) = self.effects.replayed(name, &args, &operation_id) {
            return Ok(reply);
        }
        let request = args.get(0).cloned().unwrap_or(Value::Null);
        let mut keys = Keys {
            used: self.effects.created(),
        };
        let prepared = self.world.prepare_write(member, &request, &mut keys)?;
        self.effects
            .refuse_if_bound(&self.site, name, &args, &operation_id)?;
        let stored = self.check_stored_files(&prepared)?;
        let plans = stored
            .iter()
            .map(|(source, target)| self.plan_stored_file(source, target))
            .collect::<Result<Vec<_>, _>>()?;
        let added = plans.iter().map(FilePlan::added_bytes).sum();
        self.refuse_past_limit(name, &args, added)?;
        let reply = self.envelope(&operation_id, &request, &prepared);
        self.effects
            .commit(&self.site, name, args, Some(operation_id), reply.clone())?;
        self.effects.set_created(keys.used);
        self.world.commit(&prepared);
        for plan in plans {
            self.apply_file_write(plan);
        }
        Ok(reply)
    }

    /// The files a write stores, `(source, target)`: they must be there, and land
    /// inside the library's storage.
    fn check_stored_files(
        &self,
        prepared: &Prepared,
    ) -> Result<Vec<(HostPath, HostPath)>, HostError> {
        refuse_colliding_targets(prepared)?;
        let storage = HostPath::parse("attachments").unwrap_or_default();
        let mut stored = Vec::with_capacity(prepared.files.len());
        for file in &prepared.files {
            let target = HostPath::parse(&file.target)
                .ok()
                .filter(|t| t.is_within(&storage) && t.depth() >= 3);
            let Some(target) = target else {
                return Err(HostError::workflow(
                    "invalid_request",
                    format!(
                        "{}: the stored file's name must stay inside its attachment's directory",
                        prepared.operation
                    ),
                    json!({"reason": "unsafe_path", "field": "targetFilename"}),
                ));
            };
            let source = HostPath::parse(&file.source)
                .ok()
                .filter(|source| self.file_exists(source));
            let Some(source) = source else {
                return Err(HostError::workflow(
                    "not_found",
                    format!("{}: {} was not found", prepared.operation, file.source),
                    json!({"kind": "resource", "opaqueKey": file.source}),
                ));
            };
            stored.push((source, target));
        }
        Ok(stored)
    }

    /// Refuses (and records as refused) a write whose `added` bytes would take the
    /// run's files past the write limit: copies, stored attachments and archives
    /// hold bytes their arguments do not show. Nothing changes; the call ends.
    fn refuse_past_limit(
        &mut self,
        member: &str,
        args: &Value,
        added: u64,
    ) -> Result<(), HostError> {
        if let Err(error) = self.room_for(member, added) {
            self.effects
                .refused(&self.site, member, args.clone(), error.to_json());
            return Err(error);
        }
        Ok(())
    }

    /// The write limit's error when `added` more bytes would take the run's files
    /// past it.
    pub(super) fn room_for(&mut self, member: &str, added: u64) -> Result<(), HostError> {
        let total = self.overlay.stored_bytes().saturating_add(added);
        if total <= self.effects.max_write_bytes() {
            return Ok(());
        }
        Err(self.effects.past_limit(member, total))
    }

    /// `{outcome, receipt, result}` of a library write, or `{outcome: "failed",
    /// attempt}` of one that failed once admitted.
    fn envelope(&self, operation_id: &str, request: &Value, prepared: &Prepared) -> Value {
        if let Some(error) = &prepared.failure {
            let fields = &error.fields;
            let attempt_digest = digest(&json!({"operation": prepared.operation,
                "semanticInput": request, "outcome": "failed"}));
            return json!({"outcome": "failed", "attempt": {
                "schema": "zotero-agents.mutation-attempt.v1",
                "attemptId": receipt_id(&attempt_digest), "operationId": operation_id,
                "operation": prepared.operation, "status": "failed",
                "error": {"code": fields.get("code"), "phase": prepared.failure_phase,
                          "recovery": fields.get("details").and_then(|d| d.get("recovery")).unwrap_or(&json!("none")),
                          "message": error.message, "details": fields.get("details")},
                "affectedRefs": [], "residualRefs": []}});
        }
        let outcome = if prepared.changed {
            "committed"
        } else {
            "unchanged"
        };
        // As the reference: over what the write asked, how it ended and what it
        // changed (the keys of items it created too).
        let effect_digest = digest(&json!({"operation": prepared.operation,
            "semanticInput": request, "outcome": outcome, "changes": prepared.changes}));
        let receipt_id = receipt_id(&effect_digest);
        json!({
            "outcome": outcome,
            "receipt": {"schema": "zotero-agents.mutation-receipt.v1", "receiptId": receipt_id,
                "operationId": operation_id, "operation": prepared.operation, "outcome": outcome,
                "committedAt": self.now_iso(), "effectDigest": effect_digest,
                "changes": prepared.changes},
            "result": prepared.result,
        })
    }

    /// The time receipts are stamped with: the frozen clock, or now.
    pub(super) fn now_iso(&self) -> String {
        let ms = self.clock_ms.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64)
        });
        crate::host::world::iso_from_millis(ms.max(0) as u128)
    }
}

/// Refuses a stored file whose target, case aside, is one an earlier file of the
/// write has (the main file or a companion), as the reference host's staging
/// refuses targets that collide, before any source is read.
fn refuse_colliding_targets(prepared: &Prepared) -> Result<(), HostError> {
    let mut seen = std::collections::HashSet::new();
    let collision = prepared
        .files
        .iter()
        .find(|file| !seen.insert(file.target.to_lowercase()));
    let Some(file) = collision else {
        return Ok(());
    };
    let relative = file.target.splitn(3, '/').nth(2).unwrap_or(&file.target);
    Err(HostError::workflow(
        "invalid_request",
        format!("Stored attachment targets collide: {relative}"),
        json!({"reason": "duplicate_value", "field": "targetRelativePath"}),
    ))
}

/// A UUID-shaped receipt id derived from the effect, so that the same run gives
/// the same ids.
fn receipt_id(effect_digest: &str) -> String {
    let hex = hex_sha256(effect_digest.as_bytes());
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}

#[cfg(test)]
#[path = "ported_authority_tests.rs"]
mod ported_authority_tests;
