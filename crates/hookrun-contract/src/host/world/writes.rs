//! Library writes applied to the run's copy of the world: notes, attachments,
//! managed notes, literature artifacts, status tags and `mutations.execute`.
//!
//! A write is first [prepared](HostWorld::prepare_write) (checked, and what it
//! would change worked out, without changing anything), then
//! [committed](HostWorld::commit). Each prepared write knows its reference-host
//! result, whether it changes anything (`committed`) or not (`unchanged`), and the
//! receipt's `changes`.

use serde_json::{Map, Value, json};

use super::collections::Collection;
use super::dto::digest;
use super::record::{DetailKind, Fields, Record};
use super::zotero::{ZoteroData, base_of, fields_of, is_field};
use super::{HostWorld, NoteFormat, note_detail, strip_tags};
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

/// The singleton managed note kinds of `literatureArtifacts.upsert*`, with the
/// request member that carries each payload.
const ARTIFACTS: &[(&str, &str, &str)] = &[
    ("upsertDigest", "digest", "markdown"),
    ("upsertReferences", "references", "references"),
    (
        "upsertCitationAnalysis",
        "citation-analysis",
        "citationAnalysis",
    ),
    ("upsertScore", "literature-score", "score"),
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
            upserts: Vec::new(),
            removals: Vec::new(),
            collections: Vec::new(),
        }
    }

    /// A write of `operation` that fails with `error`, changing nothing.
    fn failed(operation: &str, error: HostError) -> Prepared {
        Prepared {
            failure: Some(error),
            ..Prepared::new(operation)
        }
    }

    /// Records the collection `after` (created when `before` is `None`).
    pub(super) fn put_collection(&mut self, before: Option<&Collection>, after: Collection) {
        let changed = before != Some(&after);
        self.changes.push(json!({
            "entity": {"kind": "collection", "ref": after.reference.to_value()},
            "effect": match (before, changed) { (None, _) => "created", (Some(_), true) => "updated", _ => "unchanged" },
            "before": before.map(|_| json!({"state": "active"})), "after": {"state": "active"},
        }));
        self.changed |= changed;
        if changed {
            self.collections.push((after, false));
        }
    }

    /// Records that `collection` is removed.
    pub(super) fn drop_collection(&mut self, collection: Collection) {
        self.changes.push(
            json!({"entity": {"kind": "collection", "ref": collection.reference.to_value()},
            "effect": "deleted", "before": {"state": "active"}, "after": {"state": "deleted"}}),
        );
        self.changed = true;
        self.collections.push((collection, true));
    }

    /// Records `after` (created when `before` is `None`) and its receipt change.
    pub(super) fn put(&mut self, before: Option<&Record>, mut after: Record) {
        let changed = before.is_none_or(|b| *b != after);
        if let Some(b) = before
            && changed
        {
            after.edits = b.edits.saturating_add(1);
        }
        let version = |r: &Record| json!({"revision": r.revision(), "state": "active"});
        self.changes.push(json!({
            "entity": {"kind": "item", "ref": after.reference.as_ref().map(PortableItemRef::to_value)},
            "effect": match (before, changed) { (None, _) => "created", (Some(_), true) => "updated", _ => "unchanged" },
            "before": before.map(version), "after": version(&after),
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

    fn remove(&mut self, record: &Record) {
        let Some(reference) = record.reference.clone() else {
            return;
        };
        self.changes.push(json!({"entity": {"kind": "item", "ref": reference.to_value()},
            "effect": "deleted", "before": {"revision": record.revision(), "state": "active"},
            "after": {"revision": digest(&json!({"ref": reference.to_value(), "state": "deleted"})), "state": "deleted"}}));
        self.changed = true;
        self.removals.push(reference);
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
    fn existing(
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
        let name = member.name();
        if !request.is_object() {
            return Err(invalid(name, "invalid_schema", "request"));
        }
        match member {
            Member::NotesCreate => self.note_create(name, request, keys),
            Member::NotesUpdateContent => self.note_update(name, request),
            Member::NotesRemove => self.remove_item(name, request, "noteRef", DetailKind::Note),
            Member::NotesUpsertPayload => self.note_payload(name, request),
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

    /// The regular item `reference` names, for a write that changes it.
    pub(super) fn item_record(
        &self,
        op: &str,
        reference: &PortableItemRef,
    ) -> Result<&Record, HostError> {
        self.of_kind(op, reference, DetailKind::Regular)
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

    /// Where a created note or attachment goes (`placement`), checked as the
    /// reference host checks it: the canonical schema's union of
    /// `{kind: "child", parentRef}` and `{kind: "top_level", libraryId?,
    /// collectionRefs?}`, then the collections named must exist in the library.
    fn placement(&self, operation: &str, request: &Value) -> Result<Placement, HostError> {
        let Some(Value::Object(placement)) = request.get("placement") else {
            return Err(canonical_refusal(Some("/placement")));
        };
        let allowed: &[&str] = match placement.get("kind").and_then(Value::as_str) {
            Some("child") => &["kind", "parentRef"],
            Some("top_level") => &["kind", "libraryId", "collectionRefs"],
            _ => return Err(canonical_refusal(Some("/placement/kind"))),
        };
        if let Some(extra) = placement.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(canonical_refusal(Some(&format!("/placement/{extra}"))));
        }
        let placement = Value::Object(placement.clone());
        if allowed.contains(&"parentRef") {
            return ref_at(&placement, "parentRef").map(Placement::Child);
        }
        let library_id = match placement.get("libraryId") {
            None => 1,
            Some(id) => id
                .as_u64()
                .filter(|id| *id >= 1)
                .ok_or_else(|| canonical_refusal(Some("/placement/libraryId")))?,
        };
        let refs = match placement.get("collectionRefs") {
            None => Vec::new(),
            Some(Value::Array(refs)) => refs.clone(),
            Some(_) => return Err(canonical_refusal(Some("/placement/collectionRefs"))),
        };
        let mut collections = Vec::with_capacity(refs.len());
        for reference in &refs {
            let reference = ref_at(&json!({"collectionRef": reference}), "collectionRef")?;
            if !self.collections.iter().any(|c| c.reference == reference) {
                return Err(HostError::capability(
                    "not_found",
                    "collection not found",
                    json!({"kind": "collection", "opaqueKey": reference.key}),
                ));
            }
            if reference.library_id != library_id {
                return Err(HostError::capability(
                    "invalid_request",
                    "note placement crosses libraries",
                    json!({"reason": "invalid_combination", "operation": operation}),
                ));
            }
            if !collections.contains(&reference.key) {
                collections.push(reference.key);
            }
        }
        Ok(Placement::TopLevel {
            library_id,
            collections,
        })
    }

    /// The parent a created attachment goes under: a top-level attachment is not
    /// simulated.
    fn placement_parent(
        &self,
        operation: &str,
        request: &Value,
    ) -> Result<PortableItemRef, HostError> {
        match self.placement(operation, request)? {
            Placement::Child(parent) => Ok(parent),
            Placement::TopLevel { .. } => Err(HostError::capability(
                "unsupported_operation",
                format!(
                    "{operation}: a top-level attachment is not simulated; place it under a parent"
                ),
                json!({"memberOrOperation": operation}),
            )),
        }
    }

    /// A note's content (`{format, value, embeddedImages?}`), checked as the
    /// reference host checks ordinary note content: what it stores.
    fn note_content(operation: &str, request: &Value) -> Result<String, HostError> {
        let Some(Value::Object(content)) = request.get("content") else {
            return Err(canonical_refusal(Some("/content")));
        };
        if let Some(extra) = content
            .keys()
            .find(|k| !["format", "value", "embeddedImages"].contains(&k.as_str()))
        {
            return Err(canonical_refusal(Some(&format!("/content/{extra}"))));
        }
        let format = match content.get("format").and_then(Value::as_str) {
            Some(format @ ("html" | "text")) => format,
            _ => return Err(canonical_refusal(Some("/content/format"))),
        };
        let Some(value) = content.get("value").and_then(Value::as_str) else {
            return Err(canonical_refusal(Some("/content/value")));
        };
        let trimmed = value.trim();
        if trimmed.is_empty() || trimmed.chars().count() > MAX_NOTE_CHARS {
            return Err(HostError::capability(
                "invalid_request",
                "note content is invalid",
                json!({"reason": "invalid_value", "field": "content.value", "operation": operation}),
            ));
        }
        if uses_managed_marker(trimmed) {
            return Err(HostError::capability(
                "invalid_request",
                "ordinary note content uses a reserved managed marker",
                json!({"reason": "unsupported_value", "field": "content.value", "operation": operation}),
            ));
        }
        let images = content
            .get("embeddedImages")
            .and_then(Value::as_array)
            .is_some_and(|images| !images.is_empty());
        if format == "text" && images {
            return Err(HostError::capability(
                "invalid_request",
                "text note content cannot contain embedded images",
                json!({"reason": "invalid_combination", "field": "content.embeddedImages", "operation": operation}),
            ));
        }
        Ok(if format == "html" {
            trimmed.to_string()
        } else {
            value.to_string()
        })
    }

    /// A note as `notes.create` / `updateContent` answer it.
    fn note_result(record: &Record) -> Value {
        let html = record.html.clone().unwrap_or_default();
        let text = strip_tags(&html);
        let reference = record.reference.clone().unwrap_or(PortableItemRef {
            library_id: 1,
            key: String::new(),
        });
        let mut note = json!({"key": reference.key, "libraryId": reference.library_id,
            "title": record.title.clone().unwrap_or_else(|| text.chars().take(80).collect()),
            "html": html, "text": text.chars().take(4000).collect::<String>(),
            "textExcerpt": text.chars().take(800).collect::<String>(),
            "textLength": text.chars().count(), "htmlLength": html.chars().count(),
            "ref": reference.to_value(), "revision": record.revision()});
        if let Some(parent) = &record.parent_ref {
            note["parent"] = json!({"key": parent.key});
        }
        note
    }

    fn note_create(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let placement = self.placement(op, request)?;
        let (library_id, parent, collections) = match placement {
            Placement::Child(parent) => {
                self.of_kind(op, &parent, DetailKind::Regular)?;
                (parent.library_id, Some(parent), Vec::new())
            }
            Placement::TopLevel {
                library_id,
                collections,
            } => (library_id, None, collections),
        };
        let tags = initial_tags(op, request)?;
        let html = Self::note_content(op, request)?;
        let mut record = Record {
            reference: Some(keys.next(library_id)),
            kind: Some(DetailKind::Note),
            parent_ref: parent,
            fields: Fields {
                item_type: Some("note".into()),
                title: Some(note_title(&html)),
                html: Some(html),
                ..Fields::default()
            }
            .into(),
            ..Record::default()
        };
        record.zotero.get_mut().tags = tags;
        record.zotero.get_mut().collections = collections;
        let mut prepared = Prepared::new(op);
        prepared.result = json!({"note": Self::note_result(&record)});
        prepared.put(None, record);
        Ok(prepared)
    }

    fn note_update(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "noteRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Note)?;
        if before.note_kind.is_some() || before.payload.is_some() {
            return Err(HostError::capability(
                "conflict",
                format!(
                    "{op}: {} is a managed note; write it through managedNotes or literatureArtifacts",
                    reference.identity()
                ),
                json!({"reason": "ambiguous_state", "kind": "note"}),
            ));
        }
        let html = Self::note_content(op, request)?;
        let mut after = before.clone();
        after.title = Some(note_title(&html));
        after.html = Some(html);
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"note": Self::note_result(&after)});
        Ok(prepared)
    }

    fn remove_item(
        &self,
        op: &str,
        request: &Value,
        field: &str,
        kind: DetailKind,
    ) -> Result<Prepared, HostError> {
        let reference = ref_at(request, field)?;
        // The schema holds a removal to `disposition: "permanent"`.
        if request.get("disposition").and_then(Value::as_str) != Some("permanent") {
            return Err(canonical_refusal(Some("/disposition")));
        }
        let record = self.of_kind(op, &reference, kind)?;
        let mut prepared = Prepared::new(op);
        prepared.remove(record);
        prepared.result = json!({field: reference.to_value(), "outcome": "permanently_deleted"});
        Ok(prepared)
    }

    fn note_payload(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "noteRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Note)?;
        let payload = request
            .get("payload")
            .filter(|p| p.is_object())
            .ok_or_else(|| invalid(op, "missing_field", "payload"))?;
        for field in ["payloadType", "noteKind", "schemaVersion", "format"] {
            if !payload.get(field).is_some_and(Value::is_string) {
                return Err(invalid(op, "missing_field", &format!("payload.{field}")));
            }
        }
        let mut after = before.clone();
        after.payload =
            Some(json!({"type": payload["payloadType"], "value": payload.get("value")}));
        after.note_kind = payload["noteKind"].as_str().map(str::to_owned);
        let mut prepared = Prepared::new(op);
        let created = before.payload.is_none();
        prepared.put(Some(before), after.clone());
        after.edits = before.edits.saturating_add(u32::from(prepared.changed));
        prepared.result = json!({"note": self.note_summary(&after),
            "payload": {"payloadType": payload["payloadType"], "noteKind": payload["noteKind"],
                        "format": payload["format"], "state": "available"},
            "outcome": if !prepared.changed { "unchanged" } else if created { "created" } else { "replaced" }});
        Ok(prepared)
    }

    fn attachment_create(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let parent = self.placement_parent(op, request)?;
        self.of_kind(op, &parent, DetailKind::Regular)?;
        let source = request
            .get("source")
            .ok_or_else(|| invalid(op, "missing_field", "source"))?;
        let reference = keys.next(parent.library_id);
        let metadata = request.get("metadata").cloned().unwrap_or(json!({}));
        let mut record = Record {
            reference: Some(reference.clone()),
            kind: Some(DetailKind::Attachment),
            parent_ref: Some(parent),
            fields: Fields {
                item_type: Some("attachment".into()),
                content_type: text_at(&metadata, "/contentType").map(str::to_owned),
                title: text_at(&metadata, "/title").map(str::to_owned),
                ..Fields::default()
            }
            .into(),
            ..Record::default()
        };
        record.zotero.get_mut().charset = text_at(&metadata, "/charset").map(str::to_owned);
        let mut prepared = Prepared::new(op);
        match source.get("kind").and_then(Value::as_str) {
            Some("stored_file") => {
                let path = text_at(source, "/main/source/path")
                    .filter(|p| !p.is_empty())
                    .ok_or_else(|| match text_at(source, "/main/source/kind") {
                        Some("resource") => HostError::workflow(
                            "unavailable",
                            "Workflow Host owner is unavailable",
                            json!({"reason": "runtime", "kind": "resource"}),
                        ),
                        _ => invalid(op, "missing_field", "source.main.source.path"),
                    })?;
                let filename = text_at(source, "/main/targetFilename")
                    .map(str::to_owned)
                    .unwrap_or_else(|| crate::selection::grouped::base_name(path).to_owned());
                let target = format!("attachments/{}/{filename}", reference.key);
                prepared.files.push(StoredFile {
                    source: path.to_owned(),
                    target: target.clone(),
                });
                for companion in source
                    .get("companions")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let (Some(from), Some(rel)) = (
                        text_at(companion, "/source/path"),
                        text_at(companion, "/targetRelativePath"),
                    ) {
                        prepared.files.push(StoredFile {
                            source: from.to_owned(),
                            target: format!("attachments/{}/{rel}", reference.key),
                        });
                    }
                }
                record.zotero.get_mut().link_mode = Some("stored_file".into());
                record.title.get_or_insert_with(|| filename.clone());
                record.filename = Some(filename);
                record.path = Some(target);
                record.stored = true;
            }
            Some("linked_file") => {
                let path = text_at(source, "/path")
                    .filter(|p| !p.is_empty())
                    .ok_or_else(|| invalid(op, "missing_field", "source.path"))?;
                let filename = crate::selection::grouped::base_name(path).to_owned();
                record.zotero.get_mut().link_mode = Some("linked_file".into());
                record.title.get_or_insert_with(|| filename.clone());
                record.filename = Some(filename);
                record.path = Some(path.to_owned());
            }
            Some(kind @ ("linked_url" | "stored_url")) => {
                let url = text_at(source, "/url")
                    .filter(|u| !u.is_empty())
                    .ok_or_else(|| invalid(op, "missing_field", "source.url"))?;
                record.zotero.get_mut().link_mode = Some(kind.into());
                record
                    .zotero
                    .get_mut()
                    .fields
                    .insert("url".into(), url.into());
                record.title.get_or_insert_with(|| url.to_owned());
            }
            _ => return Err(invalid(op, "invalid_value", "source.kind")),
        }
        prepared.result = json!({"attachment": self.attachment_detail(&record)});
        prepared.put(None, record);
        Ok(prepared)
    }

    fn attachment_metadata(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "attachmentRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Attachment)?;
        let Some(patch) = request
            .get("patch")
            .and_then(Value::as_object)
            .filter(|p| !p.is_empty())
        else {
            return Ok(Prepared::failed(op, invalid(op, "missing_field", "patch")));
        };
        let mut after = before.clone();
        for (key, value) in patch {
            let value = value.as_str().map(str::to_owned);
            match key.as_str() {
                "title" => after.title = value,
                "contentType" => after.content_type = value,
                "charset" => after.zotero.get_mut().charset = value,
                "url" => {
                    match value {
                        Some(url) => after
                            .zotero
                            .get_mut()
                            .fields
                            .insert("url".into(), url.into()),
                        None => after.zotero.get_mut().fields.remove("url"),
                    };
                }
                _ => return Err(invalid(op, "invalid_schema", &format!("patch.{key}"))),
            }
        }
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"attachment": self.attachment_detail(&after)});
        Ok(prepared)
    }

    fn attachment_file(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "attachmentRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Attachment)?;
        let path = text_at(request, "/source/main/source/path")
            .filter(|p| !p.is_empty())
            .ok_or_else(|| invalid(op, "missing_field", "source.main.source.path"))?;
        let filename = text_at(request, "/source/main/targetFilename")
            .map(str::to_owned)
            .or_else(|| before.filename.clone())
            .unwrap_or_else(|| crate::selection::grouped::base_name(path).to_owned());
        let target = format!("attachments/{}/{filename}", reference.key);
        let mut after = before.clone();
        after.filename = Some(filename);
        after.path = Some(target.clone());
        after.stored = true;
        // A new file is a new revision, even with the same name.
        after.edits = before.edits.saturating_add(1);
        let mut prepared = Prepared::new(op);
        prepared.files.push(StoredFile {
            source: path.to_owned(),
            target,
        });
        prepared.put(Some(before), after.clone());
        prepared.changed = true;
        prepared.result =
            json!({"attachment": self.attachment_detail(&after), "outcome": "replaced"});
        Ok(prepared)
    }

    fn attachment_move(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "attachmentRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Attachment)?;
        let parent = self.placement_parent(op, request)?;
        self.of_kind(op, &parent, DetailKind::Regular)?;
        let mut after = before.clone();
        after.parent_ref = Some(parent);
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"attachment": self.attachment_detail(&after),
            "outcome": if prepared.changed { "moved" } else { "unchanged" }});
        Ok(prepared)
    }

    fn status_transition(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "itemRef")?;
        let before = self.existing(op, &reference, "item")?;
        let keys = |list: &str| -> Result<Vec<String>, HostError> {
            let Some(values) = request.get(list) else {
                return Ok(Vec::new());
            };
            let values = values
                .as_array()
                .ok_or_else(|| invalid(op, "invalid_schema", list))?;
            values
                .iter()
                .map(|k| {
                    k.as_str()
                        .filter(|k| STATUS_KEYS.contains(k))
                        .map(str::to_owned)
                        .ok_or_else(|| canonical_refusal(Some(&format!("/{list}"))))
                })
                .collect()
        };
        let (add, remove) = (keys("add")?, keys("remove")?);
        if add.is_empty() && remove.is_empty() {
            return Err(invalid(op, "missing_field", "add|remove"));
        }
        if add.iter().any(|k| remove.contains(k)) {
            return Err(invalid(op, "invalid_combination", "add|remove"));
        }
        let mut after = before.clone();
        let (mut added, mut removed, mut unchanged) = (Vec::new(), Vec::new(), Vec::new());
        for key in &add {
            let tag = format!("status:{key}");
            if after.zotero.get().tags.contains(&tag) {
                unchanged.push(tag);
            } else {
                after.zotero.get_mut().tags.push(tag.clone());
                added.push(tag);
            }
        }
        for key in &remove {
            let tag = format!("status:{key}");
            if after.zotero.get().tags.contains(&tag) {
                after.zotero.get_mut().tags.retain(|t| *t != tag);
                removed.push(tag);
            } else {
                unchanged.push(tag);
            }
        }
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"itemRef": reference.to_value(), "added": added, "removed": removed,
            "unchanged": unchanged, "revision": after.revision()});
        Ok(prepared)
    }

    /// The managed note of `kind` under `parent`, when there is one.
    fn managed_note(&self, parent: &PortableItemRef, kind: &str) -> Option<&Record> {
        self.children_of(&ItemLocator::Ref(parent.clone()), DetailKind::Note)
            .ok()?
            .into_iter()
            .find(|r| r.note_kind.as_deref() == Some(kind))
    }

    /// Puts `note` under `parent` (or in place of `existing`); returns its detail.
    fn put_managed(
        &self,
        prepared: &mut Prepared,
        parent: &PortableItemRef,
        existing: Option<&Record>,
        note: ManagedNote<'_>,
        keys: &mut Keys,
    ) -> Value {
        let ManagedNote {
            kind,
            title,
            payload,
        } = note;
        let mut after = existing.cloned().unwrap_or_else(|| Record {
            reference: Some(keys.next(parent.library_id)),
            kind: Some(DetailKind::Note),
            parent_ref: Some(parent.clone()),
            fields: Fields {
                item_type: Some("note".into()),
                ..Fields::default()
            }
            .into(),
            ..Record::default()
        });
        let before_changes = prepared.changed;
        after.note_kind = Some(kind.into());
        after.html = Some(format!("<h1>{}</h1>", escape_html(&title)));
        after.title = Some(title);
        after.payload = Some(payload);
        prepared.changed = false;
        prepared.put(existing, after.clone());
        if let Some(b) = existing {
            after.edits = b.edits.saturating_add(u32::from(prepared.changed));
        }
        prepared.changed |= before_changes;
        note_detail(&after, NoteFormat::Html)
    }

    fn managed_write(
        &self,
        op: &str,
        request: &Value,
        kind: &str,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let title = text_at(request, "/content/title")
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| invalid(op, "invalid_value", "content.title"))?;
        let markdown = text_at(request, "/content/markdown")
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| invalid(op, "invalid_value", "content.markdown"))?;
        let target = request
            .get("target")
            .ok_or_else(|| invalid(op, "missing_field", "target"))?;
        let (parent, existing) = match target.get("kind").and_then(Value::as_str) {
            Some("create") => (ref_at(target, "parentRef")?, None),
            Some("update") => {
                let note_ref = ref_at(target, "noteRef")?;
                let note = self.of_kind(op, &note_ref, DetailKind::Note)?;
                if note.note_kind.as_deref() != Some(kind) {
                    return Err(HostError::capability(
                        "conflict",
                        format!("{op}: {} is not a {kind} note", note_ref.identity()),
                        json!({"reason": "ambiguous_state", "kind": "note"}),
                    ));
                }
                let parent = note
                    .parent_ref
                    .clone()
                    .ok_or_else(|| invalid(op, "invalid_value", "target.noteRef"))?;
                (parent, Some(note))
            }
            _ => return Err(invalid(op, "invalid_value", "target.kind")),
        };
        self.of_kind(op, &parent, DetailKind::Regular)?;
        let operation = format!(
            "managed_note.write_{}",
            if kind == "custom" {
                "custom"
            } else {
                "conversation"
            }
        );
        let mut prepared = Prepared::new(&operation);
        let payload =
            json!({"type": format!("{kind}-markdown"), "title": title, "markdown": markdown});
        let note = ManagedNote {
            kind,
            title: title.to_owned(),
            payload,
        };
        let note = self.put_managed(&mut prepared, &parent, existing, note, keys);
        prepared.result = json!({"note": note});
        Ok(prepared)
    }

    fn upsert_artifact(
        &self,
        member: &str,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let Some((_, kind, field)) = ARTIFACTS.iter().find(|(name, _, _)| *name == op) else {
            return Err(HostError::capability(
                "unsupported_operation",
                format!("{member} is not supported by this host"),
                json!({"memberOrOperation": member}),
            ));
        };
        let parent = ref_at(request, "parentRef")?;
        self.of_kind(member, &parent, DetailKind::Regular)?;
        let value = request
            .get(*field)
            .filter(|v| !v.is_null())
            .ok_or_else(|| invalid(member, "missing_field", field))?;
        let operation = format!("literature_artifact.{}", snake(op));
        let mut prepared = Prepared::new(&operation);
        let existing = self.managed_note(&parent, kind);
        let note = ManagedNote {
            kind,
            title: artifact_title(kind),
            payload: json!({"type": kind, *field: value}),
        };
        let note = self.put_managed(&mut prepared, &parent, existing, note, keys);
        prepared.result = json!({"note": note});
        Ok(prepared)
    }

    fn apply_analysis(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        const FIELDS: &[&str] = &[
            "operationId",
            "parentRef",
            "digest",
            "score",
            "references",
            "citationAnalysis",
            "compactCitationSnippets",
            "matchingMetadata",
        ];
        if let Some(extra) = request
            .as_object()
            .and_then(|o| o.keys().find(|k| !FIELDS.contains(&k.as_str())))
        {
            return Err(HostError::workflow(
                "invalid_request",
                format!("{op}: unknown field {extra}"),
                json!({"reason": "unsupported_value", "field": format!("{op}.{extra}")}),
            ));
        }
        let parent = ref_at(request, "parentRef")?;
        self.of_kind(op, &parent, DetailKind::Regular)?;
        let parts: Vec<(&str, Value)> = [
            (
                "digest",
                "digest",
                request
                    .pointer("/digest/markdown")
                    .cloned()
                    .map(|m| json!({"type": "digest", "markdown": m})),
            ),
            (
                "references",
                "references",
                request
                    .get("references")
                    .cloned()
                    .map(|r| json!({"type": "references", "references": r})),
            ),
            (
                "citationAnalysis",
                "citation-analysis",
                request
                    .get("citationAnalysis")
                    .cloned()
                    .map(|c| json!({"type": "citation-analysis", "citationAnalysis": c})),
            ),
            (
                "score",
                "literature-score",
                request
                    .get("score")
                    .cloned()
                    .map(|s| json!({"type": "literature-score", "score": s})),
            ),
        ]
        .into_iter()
        .filter_map(|(_, kind, payload)| payload.filter(|p| !p.is_null()).map(|p| (kind, p)))
        .collect();
        if parts.is_empty() {
            return Err(HostError::workflow(
                "invalid_request",
                format!("{op}: none of digest, references, citationAnalysis or score was given"),
                json!({"reason": "missing_field", "field": "digest|references|citationAnalysis|score"}),
            ));
        }
        let mut prepared = Prepared::new("managed_note.apply_parent_set");
        let mut notes = Vec::new();
        for (kind, payload) in parts {
            let existing = self.managed_note(&parent, kind);
            let note = ManagedNote {
                kind,
                title: artifact_title(kind),
                payload,
            };
            notes.push(self.put_managed(&mut prepared, &parent, existing, note, keys));
        }
        prepared.result = json!({"notes": notes});
        Ok(prepared)
    }

    fn execute(&self, request: &Value, keys: &mut Keys) -> Result<Prepared, HostError> {
        let operation = request
            .get("operation")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("mutations.execute", "missing_field", "operation"))?;
        let mut inner = request.clone();
        if let Some(m) = inner.as_object_mut() {
            m.remove("operation");
        }
        let member = match operation {
            "item.updateMetadata" => return self.item_update(operation, request),
            "item.updateTags" => return self.item_tags(operation, request),
            "item.create" => return self.item_create(operation, request, keys),
            "item.changeType" => return self.item_change_type(operation, request),
            "collection.create"
            | "collection.update"
            | "collection.updateMembership"
            | "collection.remove" => return self.collection_write(operation, request, keys),
            "managed_note.write_custom" => Member::ManagedNotesWriteCustom,
            "managed_note.write_conversation" => Member::ManagedNotesWriteConversation,
            "literature_artifact.upsert_digest" => Member::LiteratureArtifactsUpsertDigest,
            "literature_artifact.upsert_references" => Member::LiteratureArtifactsUpsertReferences,
            "literature_artifact.upsert_citation_analysis" => {
                Member::LiteratureArtifactsUpsertCitationAnalysis
            }
            "literature_artifact.upsert_score" => Member::LiteratureArtifactsUpsertScore,
            // The notes, attachments and status operations carry their member's name.
            other => match Member::parse(other) {
                Some(
                    member @ (Member::NotesCreate
                    | Member::NotesUpdateContent
                    | Member::NotesRemove
                    | Member::NotesUpsertPayload
                    | Member::AttachmentsCreate
                    | Member::AttachmentsUpdateMetadata
                    | Member::AttachmentsReplaceFile
                    | Member::AttachmentsMove
                    | Member::AttachmentsRemove
                    | Member::StatusTagsTransition),
                ) => member,
                _ => {
                    return Err(HostError::capability(
                        "unsupported_operation",
                        format!(
                            "mutations.execute: the operation {other} is not simulated by this host"
                        ),
                        json!({"memberOrOperation": other}),
                    ));
                }
            },
        };
        let mut prepared = self.prepare_write(member, &inner, keys)?;
        prepared.operation = operation.into();
        Ok(prepared)
    }

    fn item_update(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "itemRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Regular)?;
        let patch = request
            .get("patch")
            .and_then(Value::as_object)
            .filter(|p| p.get("fields").is_some() || p.get("creators").is_some())
            .ok_or_else(|| invalid(op, "missing_field", "patch"))?;
        let mut after = before.clone();
        if let Some(fields) = patch.get("fields") {
            let fields = fields
                .as_object()
                .ok_or_else(|| invalid(op, "invalid_schema", "patch.fields"))?;
            for (name, value) in fields {
                if !is_field(name) {
                    return Err(HostError::plain("Error", format!("Invalid field: {name}")));
                }
                // Zotero fields the item's type does not have are dropped, as there.
                let valid = before
                    .item_type
                    .as_deref()
                    .and_then(fields_of)
                    .is_none_or(|fields| fields.iter().any(|f| f == name));
                if !valid {
                    continue;
                }
                let value = match value {
                    Value::Null => String::new(),
                    Value::String(s) if s.chars().count() <= 4000 => s.trim().to_owned(),
                    _ => {
                        return Err(invalid(
                            op,
                            "invalid_value",
                            &format!("patch.fields.{name}"),
                        ));
                    }
                };
                if name == "title" {
                    after.title = Some(value.clone());
                }
                if value.is_empty() {
                    after.zotero.get_mut().fields.remove(name);
                } else {
                    after
                        .zotero
                        .get_mut()
                        .fields
                        .insert(name.clone(), value.into());
                }
            }
        }
        if let Some(creators) = patch.get("creators") {
            let parsed = ZoteroData::parse(
                json!({"creators": creators})
                    .as_object()
                    .unwrap_or(&Map::new()),
                "/patch",
            )
            .map_err(|_| invalid(op, "invalid_value", "patch.creators"))?;
            after.zotero.get_mut().creators = parsed.creators;
        }
        Ok(self.item_updated(op, before, after))
    }

    /// `item.changeType`: the item takes `targetItemType`; a field the new type lacks
    /// goes to one with the same base field, else (with `incompatibleData:
    /// "move_to_extra"`) to a `Name: value` line of `extra`.
    fn item_change_type(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "itemRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Regular)?;
        let target = text_at(request, "/targetItemType")
            .ok_or_else(|| invalid(op, "missing_field", "targetItemType"))?;
        let Some(target_fields) = fields_of(target) else {
            return Err(invalid(op, "unsupported_value", "targetItemType"));
        };
        if let Some(expected) = request.get("expectedRevision").filter(|v| !v.is_null())
            && expected
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| expected.to_string())
                != before.revision()
        {
            return Err(HostError::capability(
                "conflict",
                format!(
                    "{op}: {} changed since its revision {expected}",
                    reference.identity()
                ),
                json!({"reason": "revision_mismatch", "kind": "item"}),
            ));
        }
        let move_to_extra = text_at(request, "/incompatibleData") == Some("move_to_extra");
        let mut after = before.clone();
        after.item_type = Some(target.into());
        let mut fields = Map::new();
        let mut extra_lines = Vec::new();
        for (name, value) in &before.zotero.get().fields {
            let base = base_of(name);
            let kept = target_fields
                .iter()
                .find(|f| *f == name || (base_of(f) == base && base != f.as_str()) || *f == base);
            match kept {
                Some(field) => {
                    fields.insert(field.clone(), value.clone());
                }
                None if move_to_extra => {
                    extra_lines.push(format!("{name}: {}", value.as_str().unwrap_or_default()));
                }
                None => return Err(invalid(op, "invalid_combination", "incompatibleData")),
            }
        }
        if !extra_lines.is_empty() {
            let extra = fields
                .get("extra")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let joined = [extra.to_owned(), extra_lines.join("\n")]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            fields.insert("extra".into(), joined.into());
        }
        after.zotero.get_mut().fields = fields;
        Ok(self.item_updated(op, before, after))
    }

    /// A write of `op` that changes the regular item `before` into `after`, answered
    /// with the changed item.
    fn item_updated(&self, op: &str, before: &Record, after: Record) -> Prepared {
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"item": self.mutation_item(&after)});
        prepared
    }

    fn item_tags(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "itemRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Regular)?;
        let (Some(add), Some(remove)) = (
            request.get("add").and_then(Value::as_array),
            request.get("remove").and_then(Value::as_array),
        ) else {
            return Err(invalid(op, "missing_field", "add|remove"));
        };
        let (add, remove) = (
            string_list(Some(&json!(add))),
            string_list(Some(&json!(remove))),
        );
        let bad = add
            .iter()
            .chain(&remove)
            .any(|t| t.trim().is_empty() || t.starts_with("status:"))
            || add.iter().any(|t| remove.contains(t));
        if bad {
            let error = invalid(op, "invalid_combination", "add|remove");
            return Ok(Prepared::failed(op, error));
        }
        let mut after = before.clone();
        after.zotero.get_mut().tags.retain(|t| !remove.contains(t));
        for tag in add {
            if !after.zotero.get().tags.contains(&tag) {
                after.zotero.get_mut().tags.push(tag);
            }
        }
        Ok(self.item_updated(op, before, after))
    }

    fn item_create(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let item_type = text_at(request, "/itemType")
            .ok_or_else(|| invalid(op, "missing_field", "itemType"))?;
        let fields = request
            .get("fields")
            .and_then(Value::as_object)
            .filter(|f| !f.is_empty())
            .ok_or_else(|| HostError::plain("Error", "fields must be a non-empty object"))?;
        let library_id = request
            .get("libraryId")
            .and_then(Value::as_u64)
            .unwrap_or(1);
        let mut obj = fields.clone();
        if let Some(creators) = request.get("creators") {
            obj.insert("creators".into(), creators.clone());
        }
        let zotero =
            ZoteroData::parse(&obj, "").map_err(|e| HostError::plain("Error", e.to_string()))?;
        let mut record = Record {
            reference: Some(keys.next(library_id)),
            kind: Some(DetailKind::Regular),
            fields: Fields {
                item_type: Some(item_type.into()),
                title: zotero
                    .fields
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                ..Fields::default()
            }
            .into(),
            zotero: zotero.into(),
            ..Record::default()
        };
        record.zotero.get_mut().tags = string_list(request.get("initialTags"));
        let mut prepared = Prepared::new(op);
        prepared.result = json!({"item": self.mutation_item(&record)});
        prepared.put(None, record);
        Ok(prepared)
    }
}

/// A managed note to write: its kind, title and payload.
struct ManagedNote<'a> {
    kind: &'a str,
    title: String,
    payload: Value,
}

/// The title Zotero gives a note: its first line of text.
fn note_title(html: &str) -> String {
    let mut lines = html.to_string();
    for end in [
        "</p>", "</h1>", "</h2>", "</h3>", "</h4>", "</li>", "</div>", "<br>", "<br/>", "<br />",
    ] {
        lines = lines.replace(end, &format!("{end}\n"));
    }
    strip_tags(&lines)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default()
        .chars()
        .take(80)
        .collect()
}

fn artifact_title(kind: &str) -> String {
    match kind {
        "digest" => "Digest",
        "references" => "References",
        "citation-analysis" => "Citation Analysis",
        "literature-score" => "Literature Score",
        other => other,
    }
    .to_string()
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `CitationAnalysis` → `citation_analysis`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Where a created note goes.
enum Placement {
    /// Under a regular item.
    Child(PortableItemRef),
    /// In a library, in these collections (keys).
    TopLevel {
        library_id: u64,
        collections: Vec<String>,
    },
}

/// Most characters of an ordinary note's content (the reference host's limit).
pub const MAX_NOTE_CHARS: usize = 50_000;

/// Most tags a write gives an item.
pub const MAX_TAGS: usize = 100;

/// Most characters of a tag.
pub const MAX_TAG_CHARS: usize = 200;

/// Whether `html` carries one of the attributes that mark managed notes
/// (`data-zs-payload=`, `data-zs-note-kind=`, `data-zs-payload-anchor=`, in any
/// case, spaces allowed before `=`).
fn uses_managed_marker(html: &str) -> bool {
    let lower = html.to_ascii_lowercase();
    [
        "data-zs-payload",
        "data-zs-note-kind",
        "data-zs-payload-anchor",
    ]
    .iter()
    .any(|marker| {
        lower.match_indices(marker).any(|(at, _)| {
            lower[at + marker.len()..]
                .trim_start_matches([' ', '\t', '\n', '\r'])
                .starts_with('=')
        })
    })
}

/// `initialTags`, checked as the reference host checks them: a list of at most
/// [`MAX_TAGS`] non-blank tags of at most [`MAX_TAG_CHARS`] characters, trimmed,
/// repeats dropped.
fn initial_tags(operation: &str, request: &Value) -> Result<Vec<String>, HostError> {
    let tags = match request.get("initialTags") {
        None => return Ok(Vec::new()),
        Some(Value::Array(tags)) => tags,
        Some(_) => return Err(canonical_refusal(Some("/initialTags"))),
    };
    if tags.len() > MAX_TAGS {
        return Err(HostError::capability(
            "resource_limited",
            "initialTags exceeds the limit",
            json!({"resource": "entries", "limit": MAX_TAGS, "observed": tags.len()}),
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(tags.len());
    for (i, tag) in tags.iter().enumerate() {
        let Some(tag) = tag.as_str() else {
            return Err(canonical_refusal(Some(&format!("/initialTags/{i}"))));
        };
        let tag = tag.trim();
        if tag.is_empty() {
            return Err(HostError::capability(
                "invalid_request",
                "initialTags is invalid",
                json!({"reason": "invalid_value", "field": format!("initialTags.{i}"), "operation": operation}),
            ));
        }
        let chars = tag.chars().count();
        if chars > MAX_TAG_CHARS {
            return Err(HostError::capability(
                "resource_limited",
                "initial tag exceeds the limit",
                json!({"resource": "characters", "limit": MAX_TAG_CHARS, "observed": chars}),
            ));
        }
        if !out.iter().any(|t| t == tag) {
            out.push(tag.to_string());
        }
    }
    Ok(out)
}

fn string_list(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}
