//! Host writes, recorded instead of performed.
//!
//! Every write member a hook calls (`notes.*`, `attachments.*`,
//! `statusTags.transition`, `literatureArtifacts.*`, `managedNotes.*`,
//! `mutations.*`, and the file writes) is checked for the arguments the contract
//! requires, recorded as an [`Effect`] in call order, and answered with a
//! synthetic `committed` outcome. Writes are idempotent by `operationId`: an id
//! repeated with the same member and the same request replays the first outcome and
//! records nothing new; repeated with another member or request it fails with the
//! reference host's `conflict` error (`idempotency_conflict`), the first write stays
//! bound to the id, and the refused attempt is recorded as an effect with an `error`.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::sandbox::HostError;

/// Write members of the Host API, with whether they take an `operationId`.
const WRITE_MEMBERS: &[(&str, bool)] = &[
    ("notes.create", true),
    ("notes.updateContent", true),
    ("notes.remove", true),
    ("notes.upsertPayload", true),
    ("managedNotes.writeCustom", true),
    ("managedNotes.writeConversation", true),
    ("literatureArtifacts.applyAnalysis", true),
    ("literatureArtifacts.upsertDigest", true),
    ("literatureArtifacts.upsertReferences", true),
    ("literatureArtifacts.upsertCitationAnalysis", true),
    ("literatureArtifacts.upsertScore", true),
    ("attachments.create", true),
    ("attachments.replaceFile", true),
    ("attachments.updateMetadata", true),
    ("attachments.move", true),
    ("attachments.remove", true),
    ("statusTags.transition", true),
    ("mutations.preview", false),
    ("mutations.execute", true),
    ("mutations.getOperation", false),
    ("file.writeText", false),
    ("file.makeDirectory", false),
    ("file.copy", false),
    ("file.move", false),
    ("file.remove", false),
];

/// Fields `literatureArtifacts.applyAnalysis` accepts; anything else is refused.
const APPLY_ANALYSIS_FIELDS: &[&str] = &[
    "operationId",
    "parentRef",
    "digest",
    "score",
    "references",
    "citationAnalysis",
    "compactCitationSnippets",
    "matchingMetadata",
];

/// Status tag keys `statusTags.transition` accepts.
const STATUS_KEYS: &[&str] = &[
    "need-metadata-curation",
    "need-fulltext",
    "need-markdown",
    "need-analysis",
    "need-deep-reading",
];

/// Whether `member` is a write the recorder handles.
pub fn is_write(member: &str) -> bool {
    WRITE_MEMBERS.iter().any(|(m, _)| *m == member)
}

/// One recorded write.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Effect {
    /// 1-based position among the run's effects.
    pub seq: u64,
    /// The unit whose hook made the call.
    pub unit_id: String,
    /// The hook that made the call.
    pub hook: String,
    /// The member, e.g. `notes.create`.
    pub call: String,
    /// The arguments as passed (the call-control argument included, if any).
    pub args: Value,
    /// What the hook was answered (`null` for a refused attempt).
    pub result: Value,
    /// The host error a refused attempt got; an effect with an error changed nothing
    /// and is not to be applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
}

/// The write an `operationId` is bound to.
#[derive(Debug, Clone)]
struct Binding {
    member: String,
    request: Value,
    reply: Value,
}

/// Who is calling: set by the runner before each hook call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallSite {
    /// Unit id of the current hook call.
    pub unit_id: String,
    /// Hook name of the current hook call.
    pub hook: String,
}

/// Default of [`EffectLog::with_write_limit`]: 256 MiB of recorded write arguments.
pub const DEFAULT_MAX_WRITE_BYTES: u64 = 256 * 1024 * 1024;

/// The effects of one run.
#[derive(Debug)]
pub struct EffectLog {
    effects: Vec<Effect>,
    bindings: HashMap<String, Binding>,
    created: u64,
    /// Bytes of write arguments recorded so far, shared with the run's branches.
    written: Arc<AtomicU64>,
    max_write_bytes: u64,
    /// Set once a write was refused for passing `max_write_bytes`.
    limit_reached: bool,
}

impl Default for EffectLog {
    fn default() -> EffectLog {
        EffectLog::with_write_limit(DEFAULT_MAX_WRITE_BYTES)
    }
}

impl EffectLog {
    /// An empty log whose run may record at most `max_write_bytes` of write arguments
    /// (as JSON); the write that would pass it fails with [`HostError::write_limit`],
    /// which ends the call.
    pub fn with_write_limit(max_write_bytes: u64) -> EffectLog {
        EffectLog {
            effects: Vec::new(),
            bindings: HashMap::new(),
            created: 0,
            written: Arc::new(AtomicU64::new(0)),
            max_write_bytes,
            limit_reached: false,
        }
    }

    /// The write limit if a write was refused for passing it since the last time this
    /// was asked.
    pub fn take_write_limit(&mut self) -> Option<u64> {
        std::mem::take(&mut self.limit_reached).then_some(self.max_write_bytes)
    }

    /// The recorded effects, in call order.
    pub fn effects(&self) -> &[Effect] {
        &self.effects
    }

    /// Takes the recorded effects out of the log.
    pub fn take(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.effects)
    }

    /// An empty log for another thread of the same run, numbering its created
    /// items after this log's and `offset` more, so that their keys do not
    /// collide with this log's or with other branches' (as long as each
    /// creates fewer than the offsets between them).
    pub fn branch(&self, offset: u64) -> EffectLog {
        EffectLog {
            effects: Vec::new(),
            bindings: HashMap::new(),
            created: self.created.saturating_add(offset),
            written: Arc::clone(&self.written),
            max_write_bytes: self.max_write_bytes,
            limit_reached: false,
        }
    }

    /// Appends effects recorded by a [`branch`](Self::branch) of this log,
    /// numbering them after this log's.
    pub fn absorb(&mut self, effects: Vec<Effect>) {
        for mut effect in effects {
            effect.seq = self.effects.len() as u64 + 1;
            self.effects.push(effect);
        }
    }

    /// Validates and records a write; returns the synthetic reply.
    pub fn record(
        &mut self,
        site: &CallSite,
        member: &str,
        args: Value,
    ) -> Result<Value, HostError> {
        let takes_operation = WRITE_MEMBERS
            .iter()
            .find(|(m, _)| *m == member)
            .map(|(_, op)| *op)
            .ok_or_else(|| unsupported(member))?;
        let request = args.get(0).cloned().unwrap_or(Value::Null);
        let operation_id = if takes_operation {
            let id = request
                .get("operationId")
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .ok_or_else(|| invalid(member, "missing_field", "operationId"))?;
            Some(id.to_string())
        } else {
            None
        };
        // The request is validated before the id is looked up, as on the reference
        // host; a replay or a conflict takes no new item key.
        let created = self.created;
        let result = self.reply(member, &request, &args)?;
        if let Some(bound) = operation_id.as_ref().and_then(|id| self.bindings.get(id)) {
            self.created = created;
            if bound.member == member && bound.request == request {
                return Ok(bound.reply.clone());
            }
            let error = conflict();
            self.push(site, member, args, Value::Null, Some(error.to_json()));
            return Err(error);
        }
        let size = json_len(&args);
        let before = self.written.fetch_add(size, Ordering::Relaxed);
        if before + size > self.max_write_bytes {
            self.written.fetch_sub(size, Ordering::Relaxed);
            self.created = created;
            self.limit_reached = true;
            return Err(HostError::write_limit(
                member,
                self.max_write_bytes,
                before + size,
            ));
        }
        if let Some(id) = operation_id {
            let binding = Binding {
                member: member.to_string(),
                request,
                reply: result.clone(),
            };
            self.bindings.insert(id, binding);
        }
        self.push(site, member, args, result.clone(), None);
        Ok(result)
    }

    fn push(
        &mut self,
        site: &CallSite,
        member: &str,
        args: Value,
        result: Value,
        error: Option<Value>,
    ) {
        self.effects.push(Effect {
            seq: self.effects.len() as u64 + 1,
            unit_id: site.unit_id.clone(),
            hook: site.hook.clone(),
            call: member.to_string(),
            args,
            result,
            error,
        });
    }

    fn reply(&mut self, member: &str, request: &Value, args: &Value) -> Result<Value, HostError> {
        let committed = |result: Value| {
            let mut reply = Map::new();
            reply.insert("outcome".into(), json!("committed"));
            reply.insert("result".into(), result);
            if let Some(id) = request.get("operationId") {
                reply.insert("receipt".into(), json!({"operationId": id}));
            }
            Value::Object(reply)
        };
        Ok(match member {
            "notes.create" => {
                let parent = portable_ref(member, request, "parentRef")?;
                html_content(member, request)?;
                committed(json!({"note": {"ref": self.new_ref(&parent), "parentRef": parent}}))
            }
            "notes.updateContent" => {
                let note = portable_ref(member, request, "noteRef")?;
                html_content(member, request)?;
                committed(json!({"note": {"ref": note}}))
            }
            "managedNotes.writeCustom" | "managedNotes.writeConversation" => {
                let target = request.get("target").cloned().unwrap_or(Value::Null);
                let parent = portable_ref(member, &target, "parentRef")?;
                committed(json!({"note": {"ref": self.new_ref(&parent), "parentRef": parent}}))
            }
            "literatureArtifacts.applyAnalysis" => {
                if let Some(obj) = request.as_object()
                    && let Some(extra) = obj
                        .keys()
                        .find(|k| !APPLY_ANALYSIS_FIELDS.contains(&k.as_str()))
                {
                    return Err(HostError::workflow(
                        "invalid_request",
                        format!("{member}: unknown field {extra}"),
                        json!({"reason": "invalid_schema", "field": member, "operation": member}),
                    ));
                }
                let parent = portable_ref(member, request, "parentRef")?;
                committed(json!({"parentRef": parent}))
            }
            "attachments.create" => {
                let placement = request.get("placement").cloned().unwrap_or(Value::Null);
                let parent = portable_ref(member, &placement, "parentRef")?;
                let source_kind = request.pointer("/source/kind").and_then(Value::as_str);
                if !matches!(
                    source_kind,
                    Some("linked_file" | "stored_file" | "linked_url" | "stored_url")
                ) {
                    return Err(invalid(member, "invalid_value", "source.kind"));
                }
                committed(
                    json!({"attachment": {"ref": self.new_ref(&parent), "parentRef": parent}}),
                )
            }
            "statusTags.transition" => {
                let item = portable_ref(member, request, "itemRef")?;
                for list in ["add", "remove"] {
                    let keys = request
                        .get(list)
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    if keys
                        .iter()
                        .any(|k| !k.as_str().is_some_and(|k| STATUS_KEYS.contains(&k)))
                    {
                        return Err(invalid(member, "unsupported_value", list));
                    }
                }
                committed(json!({
                    "itemRef": item,
                    "add": request.get("add").cloned().unwrap_or(json!([])),
                    "remove": request.get("remove").cloned().unwrap_or(json!([])),
                }))
            }
            "file.writeText" => {
                file_path(member, args.get(0))?;
                Value::Null
            }
            "file.makeDirectory" | "file.remove" => {
                file_path(member, request.get("path"))?;
                if member == "file.remove" {
                    json!({"removed": true})
                } else {
                    Value::Null
                }
            }
            "file.copy" | "file.move" => {
                file_path(member, request.get("sourcePath"))?;
                file_path(member, request.get("targetPath"))?;
                Value::Null
            }
            _ => committed(json!({})),
        })
    }

    /// A new synthetic item ref in the parent's library: `NEW00001`, `NEW00002`, …
    fn new_ref(&mut self, parent: &Value) -> Value {
        self.created += 1;
        json!({"libraryId": parent["libraryId"], "key": format!("NEW{:05}", self.created)})
    }
}

fn unsupported(member: &str) -> HostError {
    HostError::workflow(
        "unsupported_operation",
        format!("{member} is not supported by this host"),
        json!({"memberOrOperation": member, "reason": "not_supported"}),
    )
}

/// The bytes `value` takes as JSON, counted without building the text.
fn json_len(value: &Value) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len() as u64;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` into a counter cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The reference host's error for an `operationId` already bound to another write: its
/// broker's `ZoteroHostCapabilityError`, code `conflict`, never retryable.
fn conflict() -> HostError {
    let mut error = HostError::workflow(
        "conflict",
        "operationId is already bound to different semantic input",
        json!({"reason": "idempotency_conflict"}),
    );
    error.name = "ZoteroHostCapabilityError".into();
    error
}

fn invalid(member: &str, reason: &str, field: &str) -> HostError {
    HostError::workflow(
        "invalid_request",
        format!("{member}: invalid request ({reason}: {field})"),
        json!({"reason": reason, "field": field, "operation": member}),
    )
}

/// `request[field]` as a complete portable ref `{libraryId ≥ 1, key}`.
fn portable_ref(member: &str, request: &Value, field: &str) -> Result<Value, HostError> {
    let value = request
        .get(field)
        .ok_or_else(|| invalid(member, "missing_field", field))?;
    let complete = value.as_object().is_some_and(|o| {
        o.len() == 2
            && o.get("libraryId")
                .and_then(Value::as_u64)
                .is_some_and(|id| id >= 1)
            && o.get("key")
                .and_then(Value::as_str)
                .is_some_and(|k| !k.trim().is_empty())
    });
    if complete {
        Ok(value.clone())
    } else {
        Err(HostError::workflow(
            "invalid_ref",
            format!(
                "{member}: {field} must be a complete portable item reference {{libraryId, key}}"
            ),
            json!({"kind": field, "reason": "invalid_value"}),
        ))
    }
}

fn html_content(member: &str, request: &Value) -> Result<(), HostError> {
    let ok = request.pointer("/content/format").and_then(Value::as_str) == Some("html")
        && request
            .pointer("/content/value")
            .is_some_and(Value::is_string);
    if ok {
        Ok(())
    } else {
        Err(invalid(member, "invalid_value", "content"))
    }
}

fn file_path(member: &str, path: Option<&Value>) -> Result<(), HostError> {
    match path.and_then(Value::as_str) {
        Some(p) if !p.is_empty() => Ok(()),
        _ => Err(invalid(member, "missing_field", "path")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> CallSite {
        CallSite {
            unit_id: "unit-1".into(),
            hook: "applyResult".into(),
        }
    }

    fn parent() -> Value {
        json!({"libraryId": 1, "key": "PAR1"})
    }

    #[test]
    fn writes_are_recorded_in_order_with_synthetic_results() {
        let mut log = EffectLog::default();
        let reply = log
            .record(
                &site(),
                "notes.create",
                json!([{"operationId": "op-1", "parentRef": parent(), "content": {"format": "html", "value": "<p>x</p>"}}]),
            )
            .unwrap();
        assert_eq!(reply["outcome"], "committed");
        assert_eq!(
            reply["result"]["note"]["ref"],
            json!({"libraryId": 1, "key": "NEW00001"})
        );
        log.record(
            &site(),
            "statusTags.transition",
            json!([{"operationId": "op-2", "itemRef": parent(), "remove": ["need-markdown"]}]),
        )
        .unwrap();
        let calls: Vec<_> = log
            .effects()
            .iter()
            .map(|e| (e.seq, e.call.as_str()))
            .collect();
        assert_eq!(calls, [(1, "notes.create"), (2, "statusTags.transition")]);
        assert_eq!(log.effects()[0].unit_id, "unit-1");
    }

    #[test]
    fn a_repeated_operation_id_replays_without_recording() {
        let mut log = EffectLog::default();
        let args = json!([{"operationId": "same", "parentRef": parent(), "content": {"format": "html", "value": ""}}]);
        let first = log.record(&site(), "notes.create", args.clone()).unwrap();
        let second = log.record(&site(), "notes.create", args).unwrap();
        assert_eq!(first, second);
        assert_eq!(log.effects().len(), 1);
    }

    /// The reference host binds an id to its first write (member and request, the
    /// call-control argument aside, keys in any order) and refuses any other.
    #[test]
    fn an_operation_id_bound_to_another_write_is_a_conflict() {
        let mut log = EffectLog::default();
        let note = |id: &str, html: &str| {
            json!({"operationId": id, "parentRef": parent(),
                   "content": {"format": "html", "value": html}})
        };
        let first = log
            .record(&site(), "notes.create", json!([note("op", "<p>a</p>")]))
            .unwrap();
        let reordered = json!([{"content": {"value": "<p>a</p>", "format": "html"},
                                "parentRef": parent(), "operationId": "op"}, {"signal": 1}]);
        assert_eq!(
            log.record(&site(), "notes.create", reordered).unwrap(),
            first
        );
        let created = log.created;
        for (member, args) in [
            ("notes.create", json!([note("op", "<p>b</p>")])),
            (
                "statusTags.transition",
                json!([{"operationId": "op", "itemRef": parent(), "remove": ["need-analysis"]}]),
            ),
        ] {
            let err = log.record(&site(), member, args).unwrap_err();
            assert_eq!(err.name, "ZoteroHostCapabilityError");
            assert_eq!(
                err.message,
                "operationId is already bound to different semantic input"
            );
            assert_eq!(err.fields["code"], "conflict");
            assert_eq!(err.fields["retryable"], false);
            assert_eq!(
                err.fields["details"],
                json!({"reason": "idempotency_conflict"})
            );
        }
        assert_eq!(log.created, created, "a conflict takes no new key");
        // The first write stays bound; both refused attempts are recorded, marked.
        assert_eq!(
            log.record(&site(), "notes.create", json!([note("op", "<p>a</p>")]))
                .unwrap(),
            first
        );
        let effects = log.effects();
        assert_eq!(effects.len(), 3);
        assert!(effects[0].error.is_none());
        assert!(effects[1..].iter().all(
            |e| e.result.is_null() && e.error.as_ref().is_some_and(|e| e["code"] == "conflict")
        ));
        // An invalid request that reuses the id is an invalid request.
        let bad = json!([{"operationId": "op", "parentRef": parent()}]);
        let err = log.record(&site(), "notes.create", bad).unwrap_err();
        assert_eq!(err.fields["code"], "invalid_request");
    }

    #[test]
    fn invalid_writes_fail_with_contract_host_errors() {
        let mut log = EffectLog::default();
        let err = log
            .record(&site(), "notes.create", json!([{"parentRef": parent()}]))
            .unwrap_err();
        assert_eq!(err.fields["code"], "invalid_request");
        assert_eq!(err.fields["details"]["reason"], "missing_field");
        let err = log
            .record(
                &site(),
                "notes.create",
                json!([{"operationId": "a", "parentRef": {"key": "X"}}]),
            )
            .unwrap_err();
        assert_eq!(err.fields["code"], "invalid_ref");
        let err = log
            .record(
                &site(),
                "literatureArtifacts.applyAnalysis",
                json!([{"operationId": "b", "parentRef": parent(), "surprise": 1}]),
            )
            .unwrap_err();
        assert_eq!(
            err.fields["details"],
            json!({"reason": "invalid_schema", "field": "literatureArtifacts.applyAnalysis", "operation": "literatureArtifacts.applyAnalysis"})
        );
        let err = log.record(&site(), "notes.explode", json!([])).unwrap_err();
        assert_eq!(err.fields["code"], "unsupported_operation");
        assert!(log.effects().is_empty());
    }
}
