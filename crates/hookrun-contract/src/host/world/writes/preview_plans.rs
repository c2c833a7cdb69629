//! The domain plans of `mutations.preview`: what each operation would do, in the
//! reference host's keys and order, and whether it would change anything.
//!
//! | operation | plan | changes when |
//! |---|---|---|
//! | `item.create` | `itemType, fields, creators, collectionRefs, relatedRefs, tags` | always |
//! | `item.updateMetadata` | `itemRef, fields` (those of the item's type), `creators?` | a field or the creators differ |
//! | `item.updateTags`, `statusTags.transition` | `itemRef, added, removed` | a tag is added or removed |
//! | `collection.create` | `name, placement, memberRefs` | always |
//! | `collection.update` | `collectionRef, patch` | the name or the parent differs |
//! | `collection.updateMembership` | `collectionRef, added, removed` | an item is added or removed |
//! | `notes.create` | `placement, format, contentBytes, imageCount, tags` | always |
//! | `notes.updateContent` | `noteRef, format, contentBytes, imageCount` | images are bound or the content differs |
//! | `notes.remove`, `attachments.remove` | `noteRef` / `attachmentRef`, `disposition` | always |
//! | `notes.upsertPayload` | `noteRef, payloadType, noteKind, format, schemaVersion, outcome` | the payload is created or replaced |
//! | `attachments.create` | `placement, source, metadata` | always |
//! | `attachments.updateMetadata` | `attachmentRef, patch` | a patched member differs |
//! | `attachments.move` | `attachmentRef, placement` | the parent or the collections differ |
//! | `attachments.replaceFile` | `attachmentRef, filename, sizeBytes, companionCount` | the stored bytes differ |
//! | managed notes, artifacts | `kind, target, payloadBytes` or `kind, parentRef, outcome, payloadBytes` | always |

use serde_json::{Map, Value, json};

use super::super::super::HostWorld;
use super::super::super::payloads::{InspectError, json_bytes};
use super::super::super::record::Record;
use super::super::super::zotero::fields_of;
use super::super::{Prepared, ref_at, text_at};
use super::{MANAGED_KINDS, StoredFacts, no_domain_plan};
use crate::host::HostError;
use crate::selection::grouped::base_name;

/// Most characters of a tag (the reference host cuts longer ones).
const MAX_TAG_CHARS: usize = 200;

/// A domain plan and whether the write would change anything.
type Domain = (Value, bool);

/// `request[key]`, else `default`.
fn given(request: &Value, key: &str, default: Value) -> Value {
    request.get(key).cloned().unwrap_or(default)
}

/// How many images `content.embeddedImages` binds.
fn image_count(content: &Value) -> usize {
    content
        .get("embeddedImages")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// What an item keeps in the member `name` a patch names, as text (`""` when
/// it has none).
fn stored_text(record: &Record, name: &str) -> String {
    let zotero = record.zotero.get();
    let value = match name {
        "title" => record.title.as_deref(),
        "contentType" => record.content_type.as_deref(),
        "charset" => zotero.charset.as_deref(),
        _ => zotero.field(name),
    };
    value.unwrap_or_default().to_owned()
}

/// Whether the patch member `value` differs from `stored` (a null patch member
/// clears it).
fn differs(stored: &str, value: &Value) -> bool {
    stored != value.as_str().unwrap_or_default()
}

/// Each distinct tag of the list `request[name]`: trimmed and cut to
/// [`MAX_TAG_CHARS`], or (`status`) the tag of the status key.
fn tag_list(request: &Value, name: &str, status: bool) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    let values = request.get(name).and_then(Value::as_array);
    for value in values.into_iter().flatten().filter_map(Value::as_str) {
        let tag = if status {
            format!("status:{}", value.trim())
        } else {
            value.trim().chars().take(MAX_TAG_CHARS).collect()
        };
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    tags
}

/// The payload a managed-note write makes public: `{title, markdown}` of a custom
/// or conversation note, `{markdown}` of a digest, the artifact itself otherwise.
fn public_payload(op: &str, request: &Value) -> Value {
    match op {
        "managed_note.write_custom" | "managed_note.write_conversation" => json!({
            "title": text_at(request, "/content/title").unwrap_or_default().trim(),
            "markdown": text_at(request, "/content/markdown").unwrap_or_default()}),
        "literature_artifact.upsert_digest" => {
            json!({"markdown": text_at(request, "/markdown").unwrap_or_default()})
        }
        "literature_artifact.upsert_references" => given(request, "references", Value::Null),
        "literature_artifact.upsert_citation_analysis" => {
            given(request, "citationAnalysis", Value::Null)
        }
        _ => given(request, "score", Value::Null),
    }
}

/// `{filename, sizeBytes, companionCount}` of a `stored_file` source, and whether
/// the library already keeps every file the write would store as it is.
fn stored_source(
    source: &Value,
    prepared: &Prepared,
    files: StoredFacts<'_>,
) -> Result<(Map<String, Value>, bool), HostError> {
    let path = text_at(source, "/main/source/path").unwrap_or_default();
    let filename = text_at(source, "/main/targetFilename").unwrap_or_else(|| base_name(path));
    let mut size = 0;
    let mut kept = !prepared.files.is_empty();
    for (i, file) in prepared.files.iter().enumerate() {
        let (bytes, same) = files(file)?;
        if i == 0 {
            size = bytes;
        }
        kept &= same;
    }
    let companions = source
        .get("companions")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut plan = Map::new();
    plan.insert("filename".into(), filename.into());
    plan.insert("sizeBytes".into(), size.into());
    plan.insert("companionCount".into(), companions.into());
    Ok((plan, kept))
}

impl HostWorld {
    /// The domain plan of `op` for `request`, whose write is `prepared`.
    pub(super) fn domain_plan(
        &self,
        op: &str,
        request: &Value,
        prepared: &Prepared,
        files: StoredFacts<'_>,
    ) -> Result<Domain, HostError> {
        let or = |key: &str, default: Value| given(request, key, default);
        let removal =
            |field: &str| json!({field: request[field], "disposition": request["disposition"]});
        Ok(match op {
            "item.create" => (
                json!({"itemType": request["itemType"], "fields": or("fields", json!({})),
                    "creators": or("creators", json!([])), "collectionRefs": or("collectionRefs", json!([])),
                    "relatedRefs": or("initialRelatedRefs", json!([])), "tags": or("initialTags", json!([]))}),
                true,
            ),
            "item.updateMetadata" => self.metadata_plan(op, request, prepared)?,
            "item.updateTags" | "statusTags.transition" => self.tag_plan(op, request)?,
            "collection.create" => (
                json!({"name": request["name"], "placement": request["placement"],
                    "memberRefs": or("initialMemberRefs", json!([]))}),
                true,
            ),
            "collection.update" => self.collection_update_plan(op, request)?,
            "collection.updateMembership" => membership_plan(request, prepared),
            "notes.create" => {
                let content = &request["content"];
                let bytes = content["value"].as_str().map_or(0, str::len);
                (
                    json!({"placement": request["placement"], "format": content["format"],
                        "contentBytes": bytes, "imageCount": image_count(content),
                        "tags": or("initialTags", json!([]))}),
                    true,
                )
            }
            "notes.updateContent" => self.note_content_plan(op, request)?,
            "notes.remove" => (removal("noteRef"), true),
            "notes.upsertPayload" => payload_plan(request, prepared),
            "attachments.create" => (attachment_create_plan(request, prepared, files)?, true),
            "attachments.updateMetadata" => self.attachment_patch_plan(op, request)?,
            "attachments.move" => self.move_plan(op, request)?,
            "attachments.remove" => (removal("attachmentRef"), true),
            "attachments.replaceFile" => {
                let (stored, kept) = stored_source(&request["source"], prepared, files)?;
                let mut plan = Map::new();
                plan.insert("attachmentRef".into(), request["attachmentRef"].clone());
                plan.extend(stored);
                (Value::Object(plan), !kept)
            }
            _ => self.managed_plan(op, request)?,
        })
    }

    /// `item.updateMetadata`: the patched fields the item's type has, and the
    /// creators when given. It changes the item when a field's text differs from
    /// what the item keeps, or when its write changes the item.
    fn metadata_plan(
        &self,
        op: &str,
        request: &Value,
        prepared: &Prepared,
    ) -> Result<Domain, HostError> {
        let record = self.existing(op, &ref_at(request, "itemRef")?, "item")?;
        let patch = &request["patch"];
        let accepted = record.item_type.as_deref().and_then(fields_of);
        let fields: Map<String, Value> = patch
            .get("fields")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(name, _)| accepted.is_none_or(|a| a.iter().any(|f| f == *name)))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let changed = fields
            .iter()
            .any(|(name, value)| differs(&stored_text(record, name), value));
        let mut plan = Map::new();
        plan.insert("itemRef".into(), request["itemRef"].clone());
        plan.insert("fields".into(), fields.into());
        if let Some(creators) = patch.get("creators").filter(|c| !c.is_null()) {
            plan.insert("creators".into(), creators.clone());
        }
        Ok((Value::Object(plan), changed || prepared.changed))
    }

    /// `item.updateTags` / `statusTags.transition`: the tags added (not on the item
    /// yet) and removed (on it now).
    fn tag_plan(&self, op: &str, request: &Value) -> Result<Domain, HostError> {
        let record = self.existing(op, &ref_at(request, "itemRef")?, "item")?;
        let status = op == "statusTags.transition";
        let tags = &record.zotero.get().tags;
        let added: Vec<String> = tag_list(request, "add", status)
            .into_iter()
            .filter(|t| !tags.contains(t))
            .collect();
        let removed: Vec<String> = tag_list(request, "remove", status)
            .into_iter()
            .filter(|t| tags.contains(t))
            .collect();
        let changed = !added.is_empty() || !removed.is_empty();
        Ok((
            json!({"itemRef": request["itemRef"], "added": added, "removed": removed}),
            changed,
        ))
    }

    /// `collection.update`: the patch as given; it changes the collection when the
    /// trimmed name or the parent (`null`: the library's root) differs.
    fn collection_update_plan(&self, op: &str, request: &Value) -> Result<Domain, HostError> {
        let collection = self.existing_collection(op, request, "collectionRef")?;
        let patch = &request["patch"];
        let renamed = patch
            .get("name")
            .and_then(Value::as_str)
            .is_some_and(|name| collection.name != name.trim());
        let moved = match patch.get("parentRef") {
            None => false,
            Some(Value::Null) => collection.parent.is_some(),
            Some(_) => Some(ref_at(patch, "parentRef")?) != collection.parent,
        };
        Ok((
            json!({"collectionRef": request["collectionRef"], "patch": patch}),
            renamed || moved,
        ))
    }

    /// `notes.updateContent`: the trimmed content's bytes and images; it changes
    /// the note when images are bound or the note holds other content.
    fn note_content_plan(&self, op: &str, request: &Value) -> Result<Domain, HostError> {
        let record = self.existing(op, &ref_at(request, "noteRef")?, "note")?;
        let content = &request["content"];
        let value = content["value"].as_str().unwrap_or_default().trim();
        let images = image_count(content);
        let changed = images > 0 || record.html.as_deref().unwrap_or_default() != value;
        Ok((
            json!({"noteRef": request["noteRef"], "format": content["format"],
                "contentBytes": value.len(), "imageCount": images}),
            changed,
        ))
    }

    /// `attachments.updateMetadata`: the patch as given; it changes the attachment
    /// when a patched member differs from what it keeps.
    fn attachment_patch_plan(&self, op: &str, request: &Value) -> Result<Domain, HostError> {
        let record = self.existing(op, &ref_at(request, "attachmentRef")?, "attachment")?;
        let patch = &request["patch"];
        let changed = patch
            .as_object()
            .into_iter()
            .flatten()
            .any(|(name, value)| differs(&stored_text(record, name), value));
        Ok((
            json!({"attachmentRef": request["attachmentRef"], "patch": patch}),
            changed,
        ))
    }

    /// `attachments.move`: the placement as given; it changes the attachment when
    /// its parent or its collections differ.
    fn move_plan(&self, op: &str, request: &Value) -> Result<Domain, HostError> {
        let record = self.existing(op, &ref_at(request, "attachmentRef")?, "attachment")?;
        let placement = &request["placement"];
        let child = placement["kind"] == "child";
        let parent = if child {
            Some(ref_at(placement, "parentRef")?)
        } else {
            None
        };
        let refs = placement.get("collectionRefs").and_then(Value::as_array);
        let mut wanted: Vec<&str> = refs
            .into_iter()
            .flatten()
            .filter_map(|r| r["key"].as_str())
            .collect();
        wanted.sort_unstable();
        let collections = record.zotero.collections();
        let mut current: Vec<&str> = collections.iter().map(String::as_str).collect();
        current.sort_unstable();
        let changed = record.parent_ref != parent || wanted != current;
        Ok((
            json!({"attachmentRef": request["attachmentRef"], "placement": placement}),
            changed,
        ))
    }

    /// A managed-note write: `{kind, target, payloadBytes}` when it updates a note
    /// (which must be a managed note of its kind), else `{kind, parentRef, outcome,
    /// payloadBytes}`, `replaced` when the parent already has a managed note of the
    /// kind. Always a change.
    fn managed_plan(&self, op: &str, request: &Value) -> Result<Domain, HostError> {
        let Some((_, kind)) = MANAGED_KINDS.iter().find(|(name, _)| *name == op) else {
            return Err(no_domain_plan(op));
        };
        let bytes = json_bytes(&public_payload(op, request));
        let target = &request["target"];
        let conflict = |message: &str| {
            HostError::capability(
                "conflict",
                message,
                json!({"reason": "ambiguous_state", "kind": "note"}),
            )
        };
        if target["kind"] == "update" {
            let note = self.existing(op, &ref_at(target, "noteRef")?, "note")?;
            if self.managed_kind(note).as_deref() != Some(*kind) {
                return Err(conflict("managed note kind does not match the writer"));
            }
            let plan = json!({"kind": kind, "target": target, "payloadBytes": bytes});
            return Ok((plan, true));
        }
        let Some(parent) = request.get("parentRef").or_else(|| target.get("parentRef")) else {
            return Err(HostError::capability(
                "invalid_request",
                "managed target is missing",
                json!({"reason": "missing_field"}),
            ));
        };
        let parent = ref_at(&json!({"parentRef": parent}), "parentRef")?;
        let existing = self
            .managed_singleton(&parent, kind)
            .map_err(InspectError::into_write_error)?;
        let outcome = if existing.is_some() {
            "replaced"
        } else {
            "created"
        };
        let plan = json!({"kind": kind, "parentRef": parent.to_value(), "outcome": outcome,
            "payloadBytes": bytes});
        Ok((plan, true))
    }
}

/// `collection.updateMembership`: the items its write adds (not members yet) and
/// removes (members now).
fn membership_plan(request: &Value, prepared: &Prepared) -> Domain {
    let added = given(&prepared.result, "addedRefs", json!([]));
    let removed = given(&prepared.result, "removedRefs", json!([]));
    let changed = [&added, &removed]
        .iter()
        .any(|refs| refs.as_array().is_some_and(|r| !r.is_empty()));
    (
        json!({"collectionRef": request["collectionRef"], "added": added, "removed": removed}),
        changed,
    )
}

/// `notes.upsertPayload`: the payload's identity and the outcome of its write
/// (`created`, `replaced` or `unchanged`).
fn payload_plan(request: &Value, prepared: &Prepared) -> Domain {
    let payload = &request["payload"];
    let outcome = given(&prepared.result, "outcome", Value::Null);
    let changed = outcome != "unchanged";
    (
        json!({"noteRef": request["noteRef"], "payloadType": payload["payloadType"],
            "noteKind": payload["noteKind"], "format": payload["format"],
            "schemaVersion": payload["schemaVersion"], "outcome": outcome}),
        changed,
    )
}

/// `attachments.create`: `{placement, source, metadata}`, a stored file's source
/// summarised as `{kind, filename, sizeBytes, companionCount}`.
fn attachment_create_plan(
    request: &Value,
    prepared: &Prepared,
    files: StoredFacts<'_>,
) -> Result<Value, HostError> {
    let source = &request["source"];
    let source = if source["kind"] == "stored_file" {
        let mut summary = Map::new();
        summary.insert("kind".into(), "stored_file".into());
        summary.extend(stored_source(source, prepared, files)?.0);
        Value::Object(summary)
    } else {
        source.clone()
    };
    Ok(json!({"placement": request["placement"], "source": source,
        "metadata": given(request, "metadata", json!({}))}))
}
