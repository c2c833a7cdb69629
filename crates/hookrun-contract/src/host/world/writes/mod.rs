//! Library writes applied to the run's copy of the world: notes, attachments,
//! managed notes, literature artifacts, status tags and `mutations.execute`.
//!
//! A write is first [prepared](HostWorld::prepare_write) (checked, and what it
//! would change worked out, without changing anything), then
//! [committed](HostWorld::commit). Each prepared write knows its reference-host
//! result, whether it changes anything (`committed`) or not (`unchanged`), and the
//! receipt's `changes`.

mod attachments;
mod ingest;
mod items;
mod managed;
mod notes;
mod payload_request;
mod preview;
mod relations;
mod removal;
mod trash;

use serde_json::{Value, json};

use super::HostWorld;
use super::collections::Collection;
use super::dto::digest;
use super::record::{DetailKind, Record};
use crate::host::HostError;
use crate::host::members::Member;
use crate::host::members::request::{canonical_refusal, portable_ref};
use crate::plan::ItemLocator;
use crate::selection::PortableItemRef;

/// Status tag keys `statusTags.transition` accepts, in the reference host's order.
pub const STATUS_KEYS: &[&str] = &[
    "need-metadata-curation",
    "need-fulltext",
    "need-markdown",
    "need-analysis",
    "need-deep-reading",
];

/// Keys for the items a run creates: `NEW00001`, `NEW00002`, …
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys {
    /// How many keys were handed out before.
    pub used: u64,
}

impl Keys {
    pub(super) fn next(&mut self, library_id: u64) -> PortableItemRef {
        self.used += 1;
        PortableItemRef {
            library_id,
            key: format!("NEW{:05}", self.used),
        }
    }
}

/// A stored file a write puts into the library: the run's file at `source` is
/// copied to `target` (`attachments/<KEY>/<filename>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    /// The path the hook named.
    pub source: String,
    /// Where the library keeps it.
    pub target: String,
}

/// A write worked out against the world, not yet applied.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The receipt's operation (`notes.create`, `managed_note.apply_parent_set`, …).
    pub operation: String,
    /// Whether it changes anything.
    pub changed: bool,
    /// The reference host's `result`.
    pub result: Value,
    /// The receipt's `changes`.
    pub changes: Vec<Value>,
    /// Files to place in the run's file overlay.
    pub files: Vec<StoredFile>,
    /// Why the write failed once admitted: the reference host answers such a write
    /// with a failed attempt instead of throwing.
    pub failure: Option<HostError>,
    /// The phase of the reference's mutation lifecycle the failure belongs to
    /// (`validation`, `read`).
    pub failure_phase: &'static str,
    /// The plan `mutations.preview` answers for an operation whose write works it
    /// out (removals, relations, the trash, ingests); the preview works out the
    /// others' plans itself.
    pub plan: Option<Value>,
    upserts: Vec<Record>,
    removals: Vec<PortableItemRef>,
    /// Collections written (`true`: removed).
    pub(super) collections: Vec<(Collection, bool)>,
}

impl Prepared {
    pub(super) fn new(operation: &str) -> Prepared {
        Prepared {
            operation: operation.into(),
            changed: false,
            result: Value::Null,
            changes: Vec::new(),
            files: Vec::new(),
            failure: None,
            failure_phase: "validation",
            plan: None,
            upserts: Vec::new(),
            removals: Vec::new(),
            collections: Vec::new(),
        }
    }

    /// A write of `operation` that fails with `error` in `phase`, changing nothing.
    fn failed(operation: &str, phase: &'static str, error: HostError) -> Prepared {
        Prepared {
            failure: Some(error),
            failure_phase: phase,
            ..Prepared::new(operation)
        }
    }

    /// Records the collection `after` at `revision` (created when `before`, the
    /// collection and its revision before the write, is `None`).
    pub(super) fn put_collection(
        &mut self,
        before: Option<(&Collection, String)>,
        after: Collection,
        revision: String,
    ) {
        let edited = before.as_ref().is_none_or(|(b, _)| **b != after);
        let changed = edited || before.as_ref().is_some_and(|(_, r)| *r != revision);
        let effect = match (&before, changed) {
            (None, _) => "created",
            (Some(_), true) => "updated",
            _ => "unchanged",
        };
        self.changes.push(json!({
            "entity": {"kind": "collection", "ref": after.reference.to_value()},
            "effect": effect,
            "before": before.map(|(_, r)| json!({"revision": r, "state": "active"})),
            "after": {"revision": revision, "state": "active"},
        }));
        self.changed |= changed;
        // A membership change leaves the collection itself as it is.
        if edited {
            self.collections.push((after, false));
        }
    }

    /// Records that `collection`, at `revision`, is removed.
    pub(super) fn drop_collection(&mut self, collection: Collection, revision: String) {
        let reference = collection.reference.to_value();
        self.changes
            .push(json!({"entity": {"kind": "collection", "ref": reference},
            "effect": "deleted", "before": {"revision": revision, "state": "active"},
            "after": {"revision": deleted_revision(&reference, None), "state": "deleted"}}));
        self.changed = true;
        self.collections.push((collection, true));
    }

    /// Gives every entity the write deletes the reference's revision of a deleted
    /// entity, which names the write's `operationId`.
    fn name_deletions(&mut self, operation_id: Option<&Value>) {
        for change in &mut self.changes {
            if change["effect"] == "deleted" {
                change["after"]["revision"] =
                    deleted_revision(&change["entity"]["ref"], operation_id).into();
            }
        }
    }

    /// Records `after` (created when `before` is `None`) and its receipt change.
    pub(super) fn put(&mut self, before: Option<&Record>, after: Record) {
        self.put_as(before, after, "updated");
    }

    /// [`put`](Self::put), a change of an existing item being `effect` (`updated`,
    /// `trashed`).
    pub(super) fn put_as(&mut self, before: Option<&Record>, mut after: Record, effect: &str) {
        let changed = before.is_none_or(|b| *b != after);
        if let Some(b) = before
            && changed
        {
            after.edits = b.edits.saturating_add(1);
        }
        self.changes.push(json!({
            "entity": {"kind": "item", "ref": after.reference.as_ref().map(PortableItemRef::to_value)},
            "effect": match (before, changed) { (None, _) => "created", (Some(_), true) => effect, _ => "unchanged" },
            "before": before.map(item_version), "after": item_version(&after),
        }));
        self.changed |= changed;
        if changed {
            self.upserts.push(after);
        }
    }

    /// A write of `op` that changes `before` into `after`; answers it with `after` as
    /// it is once applied (its revision counting the change).
    fn update(op: &str, before: &Record, mut after: Record) -> (Prepared, Record) {
        let mut prepared = Prepared::new(op);
        prepared.put(Some(before), after.clone());
        after.edits = before.edits.saturating_add(u32::from(prepared.changed));
        (prepared, after)
    }

    pub(super) fn remove(&mut self, record: &Record) {
        let Some(reference) = record.reference.clone() else {
            return;
        };
        self.changes.push(json!({"entity": {"kind": "item", "ref": reference.to_value()},
            "effect": "deleted", "before": item_version(record),
            "after": {"revision": deleted_revision(&reference.to_value(), None), "state": "deleted"}}));
        self.changed = true;
        self.removals.push(reference);
    }
}

/// The revision of the entity `reference` once deleted by the write
/// `operation_id`: the digest of `{ref, state: "deleted", operationId}`.
fn deleted_revision(reference: &Value, operation_id: Option<&Value>) -> String {
    let mut deleted = json!({"ref": reference, "state": "deleted"});
    if let Some(id) = operation_id {
        deleted["operationId"] = id.clone();
    }
    digest(&deleted)
}

/// An item's `{revision, state}` as receipts show it (`state`: `active` or `trashed`).
pub(super) fn item_version(record: &Record) -> Value {
    json!({"revision": record.revision(), "state": state_of(record)})
}

/// An item's state: `trashed` when it is in the trash, else `active`.
pub(super) fn state_of(record: &Record) -> &'static str {
    if record.zotero.get().deleted {
        "trashed"
    } else {
        "active"
    }
}

/// Refuses a member of `request` that its operation's canonical schema does not
/// declare (`operation` and `operationId` are every operation's).
pub(super) fn closed(request: &Value, declared: &[&str]) -> Result<(), HostError> {
    let extra = request.as_object().and_then(|o| {
        o.keys().find(|k| {
            !["operation", "operationId"].contains(&k.as_str()) && !declared.contains(&k.as_str())
        })
    });
    match extra {
        Some(extra) => Err(canonical_refusal(Some(&format!("/{extra}")))),
        None => Ok(()),
    }
}

pub(super) fn invalid(operation: &str, reason: &str, field: &str) -> HostError {
    HostError::capability(
        "invalid_request",
        format!("{operation}: invalid request ({reason}: {field})"),
        json!({"reason": reason, "field": field, "operation": operation}),
    )
}

/// `request[field]` as a portable ref, checked as the reference host checks a
/// write's ref: first by its canonical schema (`{libraryId, key}`, an integer id
/// of at least 1 and a non-empty key, nothing else), then as a portable ref of
/// the kind the field names.
pub(super) fn ref_at(request: &Value, field: &str) -> Result<PortableItemRef, HostError> {
    let schema = || canonical_refusal(Some(&format!("/{field}")));
    let value = request.get(field).ok_or_else(schema)?;
    let fits = value.as_object().is_some_and(|o| {
        o.len() == 2
            && o.get("libraryId")
                .and_then(Value::as_u64)
                .is_some_and(|id| id >= 1)
            && o.get("key")
                .and_then(Value::as_str)
                .is_some_and(|k| !k.is_empty())
    });
    if !fits {
        return Err(schema());
    }
    let kind = match field {
        "noteRef" => "note",
        "attachmentRef" => "attachment",
        "collectionRef" => "collection",
        _ => "item",
    };
    portable_ref(value, kind)
}

pub(super) fn text_at<'a>(request: &'a Value, pointer: &str) -> Option<&'a str> {
    request.pointer(pointer).and_then(Value::as_str)
}

impl HostWorld {
    pub(super) fn existing(
        &self,
        operation: &str,
        reference: &PortableItemRef,
        kind: &str,
    ) -> Result<&Record, HostError> {
        self.find(&ItemLocator::Ref(reference.clone()))
            .ok_or_else(|| {
                HostError::capability(
                    "not_found",
                    format!("{operation}: {kind} {} was not found", reference.identity()),
                    json!({"kind": kind, "opaqueKey": reference.identity()}),
                )
            })
    }

    fn of_kind(
        &self,
        operation: &str,
        reference: &PortableItemRef,
        kind: DetailKind,
    ) -> Result<&Record, HostError> {
        let record = self.existing(operation, reference, kind.as_str())?;
        if record.kind.unwrap_or(DetailKind::Regular) != kind {
            return Err(HostError::capability(
                "invalid_ref",
                format!(
                    "{operation}: {} is not a {} item",
                    reference.identity(),
                    kind.as_str()
                ),
                json!({"kind": kind.as_str(), "reason": "wrong_kind"}),
            ));
        }
        Ok(record)
    }

    /// Works out `member`'s write of `request` (its first argument) without
    /// changing the world; items it creates take keys from `keys`.
    pub fn prepare_write(
        &self,
        member: Member,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        if !request.is_object() {
            return Err(invalid(member.name(), "invalid_schema", "request"));
        }
        let mut prepared = self.dispatch_write(member, request, keys)?;
        prepared.name_deletions(request.get("operationId"));
        Ok(prepared)
    }

    /// The write of `member`, by its operation.
    fn dispatch_write(
        &self,
        member: Member,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let name = member.name();
        match member {
            Member::NotesCreate => self.note_create(name, request, keys),
            Member::NotesUpdateContent => self.note_update(name, request),
            Member::NotesRemove => self.remove_item(name, request, "noteRef", DetailKind::Note),
            Member::NotesUpsertPayload => self.note_payload(name, request, keys),
            Member::AttachmentsCreate => self.attachment_create(name, request, keys),
            Member::AttachmentsUpdateMetadata => self.attachment_metadata(name, request),
            Member::AttachmentsReplaceFile => self.attachment_file(name, request),
            Member::AttachmentsMove => self.attachment_move(name, request),
            Member::AttachmentsRemove => {
                self.remove_item(name, request, "attachmentRef", DetailKind::Attachment)
            }
            Member::StatusTagsTransition => self.status_transition(name, request),
            Member::ManagedNotesWriteCustom => self.managed_write(name, request, "custom", keys),
            Member::ManagedNotesWriteConversation => {
                self.managed_write(name, request, "conversation-note", keys)
            }
            Member::LiteratureArtifactsApplyAnalysis => self.apply_analysis(name, request, keys),
            Member::MutationsExecute => self.execute(request, keys),
            Member::LiteratureArtifactsUpsertDigest
            | Member::LiteratureArtifactsUpsertReferences
            | Member::LiteratureArtifactsUpsertCitationAnalysis
            | Member::LiteratureArtifactsUpsertScore => {
                self.upsert_artifact(name, member.operation(), request, keys)
            }
            _ => Err(HostError::capability(
                "unsupported_operation",
                format!("{name} is not supported by this host"),
                json!({"memberOrOperation": name}),
            )),
        }
    }

    /// Applies a prepared write.
    pub fn commit(&mut self, prepared: &Prepared) {
        self.commit_collections(prepared);
        if !prepared.removals.is_empty() {
            self.remove_items(&prepared.removals);
            self.reindex();
        }
        // Upserts are indexed one by one, so that a run of many writes does not
        // reindex the whole library after each.
        for record in &prepared.upserts {
            let known = record
                .reference
                .as_ref()
                .and_then(|r| self.by_ref.get(r, &self.records));
            let index = match known {
                Some(i) => {
                    let moved = self.records[i].parent_ref != record.parent_ref;
                    self.records[i] = record.clone();
                    if moved {
                        self.children.remove(i);
                        self.index_child(i);
                    }
                    i
                }
                None => {
                    self.records.push(record.clone());
                    let i = self.records.len() - 1;
                    self.by_ref.insert(i, &self.records);
                    self.index_child(i);
                    i
                }
            };
            self.name_collections_of(index);
        }
    }

    /// Takes `removed` and everything under them (an attachment's annotations) out
    /// of the world.
    fn remove_items(&mut self, removed: &[PortableItemRef]) {
        let mut gone: std::collections::HashSet<usize> = removed
            .iter()
            .filter_map(|r| self.by_ref.get(r, &self.records))
            .collect();
        let mut frontier: Vec<usize> = gone.iter().copied().collect();
        while let Some(i) = frontier.pop() {
            for child in self.children.of(i) {
                if gone.insert(child) {
                    frontier.push(child);
                }
            }
        }
        let mut index = 0;
        self.records.retain(|_| {
            index += 1;
            !gone.contains(&(index - 1))
        });
        self.by_ref.clear();
        self.by_id.clear();
        for i in 0..self.records.len() {
            self.by_ref.insert(i, &self.records);
            self.by_id.insert(i, &self.records);
        }
    }
}

#[cfg(test)]
mod receipt_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod validation_tests;
