//! Writes: checked and worked out against the run's world, recorded as effects,
//! then applied, so that later reads of the run see them. Library writes answer
//! the reference host's envelope `{outcome, receipt, result}`; file writes answer
//! what its file members answer.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::HookHost;
use crate::host::effects::EffectLog;
use crate::host::world::{Keys, Prepared, digest};
use crate::sandbox::HostError;

impl HookHost {
    pub(super) fn write(&mut self, member: &str, args: Value) -> Result<Value, HostError> {
        if member.starts_with("file.") || member.starts_with("archive.") {
            let reply = self.file_write_reply(member, &args)?;
            self.effects
                .commit(&self.site, member, args.clone(), None, reply.clone())?;
            self.apply_file_write(member, &args);
            return Ok(reply);
        }
        let operation_id = EffectLog::operation_id(member, &args)?.unwrap_or_default();
        let request = args.get(0).cloned().unwrap_or(Value::Null);
        // The request is checked before its id is looked up, as on the reference
        // host; a replay or a conflict takes no new item key.
        let mut keys = Keys {
            used: self.effects.created(),
        };
        let prepared = self.world.prepare_write(member, &request, &mut keys)?;
        if let Some(reply) = self
            .effects
            .replay(&self.site, member, &args, &operation_id)?
        {
            return Ok(reply);
        }
        let reply = self.envelope(&operation_id, &request, &prepared);
        self.effects
            .commit(&self.site, member, args, Some(operation_id), reply.clone())?;
        self.effects.set_created(keys.used);
        self.world.commit(&prepared);
        for file in &prepared.files {
            self.store_file(&file.source, &file.target);
        }
        Ok(reply)
    }

    /// `{outcome, receipt, result}` of a library write.
    fn envelope(&self, operation_id: &str, request: &Value, prepared: &Prepared) -> Value {
        let outcome = if prepared.changed {
            "committed"
        } else {
            "unchanged"
        };
        // Over what the write asked and how it ended, not the keys it created: a
        // run's receipts are the same whichever worker made them.
        let effect_digest = digest(&json!({"operation": prepared.operation,
            "semanticInput": request, "outcome": outcome}));
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

/// A UUID-shaped receipt id derived from the effect, so that the same run gives
/// the same ids.
fn receipt_id(effect_digest: &str) -> String {
    let hash = Sha256::digest(effect_digest.as_bytes());
    let hex: String = hash.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-4{}-8{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..32]
    )
}
