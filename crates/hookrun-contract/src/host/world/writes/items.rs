//! Regular items: `statusTags.transition` and the item operations of
//! `mutations.execute` (metadata, tags, type, creation).

use serde_json::{Map, Value, json};

use super::super::HostWorld;
use super::super::record::{DetailKind, Fields, Record};
use super::super::zotero::{ZoteroData, base_of, fields_of, is_field};
use super::{Keys, Prepared, STATUS_KEYS, invalid, ref_at, text_at};
use crate::host::HostError;
use crate::host::members::Member;
use crate::host::members::request::canonical_refusal;

impl HostWorld {
    pub(super) fn status_transition(
        &self,
        op: &str,
        request: &Value,
    ) -> Result<Prepared, HostError> {
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

    pub(super) fn execute(&self, request: &Value, keys: &mut Keys) -> Result<Prepared, HostError> {
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
            "item.remove" => return self.item_remove(operation, request),
            "item.addRelated" => return self.item_relate(operation, request, true),
            "item.removeRelated" => return self.item_relate(operation, request, false),
            "trash.setItemsState" => return self.trash_state(operation, request),
            "literature.ingest" => return self.literature_ingest(operation, request, keys),
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
            patch_fields(op, fields, &mut after)?;
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
            return Ok(Prepared::failed(op, "validation", error));
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

fn string_list(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// Writes `item.updateMetadata`'s `patch.fields` into `after`: a field Zotero does
/// not know is refused, a field the item's type lacks dropped (as Zotero does),
/// an empty or null value clears the field.
fn patch_fields(op: &str, fields: &Value, after: &mut Record) -> Result<(), HostError> {
    let fields = fields
        .as_object()
        .ok_or_else(|| invalid(op, "invalid_schema", "patch.fields"))?;
    let type_fields = after.item_type.as_deref().and_then(fields_of);
    for (name, value) in fields {
        if !is_field(name) {
            return Err(HostError::plain("Error", format!("Invalid field: {name}")));
        }
        if type_fields.is_some_and(|fields| !fields.iter().any(|f| f == name)) {
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
    Ok(())
}
