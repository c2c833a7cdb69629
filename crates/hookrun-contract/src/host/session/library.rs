//! The `library.*` reads and `metadata.translateIdentifier`: arguments checked
//! as the reference host checks them, answers from the run's world.

use serde_json::{Value, json};

use super::{HookHost, Plan, unsupported, world_error};
use crate::host::HostError;
use crate::host::world::{HostWorldError, NoteFormat, PageRequest};
use crate::selection::PortableItemRef;

impl HookHost {
    pub(super) fn library(&mut self, op: &str, args: &Value) -> Result<Value, HostError> {
        let member = format!("library.{op}");
        let first = args.get(0).unwrap_or(&Value::Null);
        let reference = || {
            PortableItemRef::parse(first, "/0").map_err(|_| {
                HostError::capability(
                    "invalid_ref",
                    format!("{member}: Expected a complete portable item reference"),
                    json!({"kind": "item", "reason": "invalid_value"}),
                )
            })
        };
        let page = || PageRequest::from_value(args.get(1));
        let world = &self.world;
        match op {
            "getItemDetail" => world.get_item_detail(&reference()?),
            "getItemAttachments" => world.get_item_attachments(&reference()?, &page()),
            "getItemNotes" => world.get_item_notes(&reference()?, &page()),
            "listAnnotations" => world.list_annotations(&reference()?, &page()),
            "listNotePayloads" => world.list_note_payloads(&reference()?, &page()),
            "getNotePayload" => {
                let payload_type = args
                    .pointer("/1/payloadType")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                world.get_note_payload(&reference()?, payload_type)
            }
            "getNoteDetail" => {
                let format = args.pointer("/1/format").and_then(Value::as_str);
                let Some(format) = format.and_then(NoteFormat::parse) else {
                    return Err(HostError::capability(
                        "invalid_request",
                        format!("{member}: options.format must be \"html\" or \"text\""),
                        json!({"reason": "invalid_value", "field": "format"}),
                    ));
                };
                world.get_note_detail(&reference()?, format)
            }
            "listItems" => world.list_items(first),
            "listCollections" => world.list_collections(first),
            "listSavedSearches" => world.list_saved_searches(first),
            "exportPortableItems" => world.export_portable_items(first, &self.budget),
            "traverseItems" => {
                if args.get(2).is_some_and(Value::is_string) {
                    return Err(HostError::capability(
                        "invalid_request",
                        "traversal callback is required",
                        json!({"reason": "invalid_type", "field": "onBatch"}),
                    ));
                }
                let (calls, ending) = world
                    .traverse_items(first, &self.budget)
                    .map_err(|e| library_error(&member, &e))?;
                return Ok(Plan::result(calls, ending));
            }
            "withItemSnapshot" => return self.item_snapshot(&member, args),
            _ => return Err(unsupported(&member)),
        }
        .map_err(|e| library_error(&member, &e))
    }

    /// `library.withItemSnapshot(request, control, onBatch)`: the library's regular
    /// items in batches, then the completion evidence.
    fn item_snapshot(&self, member: &str, args: &Value) -> Result<Value, HostError> {
        if !args.get(1).is_some_and(Value::is_object) {
            return Err(HostError::plain(
                "TypeError",
                "Cannot read properties of undefined (reading 'signal')",
            ));
        }
        let request = args.get(0).unwrap_or(&Value::Null);
        let library_id = request
            .get("libraryId")
            .and_then(Value::as_u64)
            .filter(|id| *id >= 1)
            .ok_or_else(|| {
                HostError::capability(
                    "invalid_request",
                    format!("{member}: libraryId must be a positive integer"),
                    json!({"reason": "invalid_value", "field": "libraryId"}),
                )
            })?;
        let batch_size = request.get("batchSize").cloned().unwrap_or(json!(500));
        let (batches, ending) = self
            .world
            .snapshot_items(library_id, &batch_size, &self.budget)
            .map_err(|e| library_error(member, &e))?;
        let snapshot_id = format!("snapshot-{}", self.effects.recorded() + 1);
        let calls: Vec<Value> = batches
            .into_iter()
            .map(|mut call| {
                call[0]["schema"] = "zotero-agents.library-full-index.v1".into();
                call[0]["snapshotId"] = snapshot_id.clone().into();
                call
            })
            .collect();
        let ending = json!({"outcome": "completed", "completionEvidence": {
            "snapshotId": snapshot_id, "schema": "zotero-agents.library-full-index.v1",
            "libraryId": library_id, "scope": "top-level-regular",
            "totalItems": ending["visitedItems"], "totalBatches": ending["visitedBatches"],
            "order": "stable_identity", "contentDigest": ending.pointer("/completionEvidence/coverageDigest").map(|d| format!("sha256:{}", d.as_str().unwrap_or_default()))}});
        Ok(Plan::result(calls, ending))
    }

    /// `metadata.translateIdentifier({type, value})`: the fixture's answer for
    /// `<type>:<value>` (the type as given, or lower-cased), else `not_found`.
    pub(super) fn translate_identifier(&self, args: &Value) -> Value {
        let kind = args
            .pointer("/0/type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let value = args
            .pointer("/0/value")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let identifiers = &self.answers.identifiers;
        identifiers
            .get(&format!("{kind}:{value}"))
            .or_else(|| identifiers.get(&format!("{}:{value}", kind.to_lowercase())))
            .cloned()
            .unwrap_or_else(|| json!({"outcome": "not_found", "reason": "no_candidate"}))
    }
}

/// A world read's failure as the reference host's broker raises it.
fn library_error(member: &str, error: &HostWorldError) -> HostError {
    let mut error = world_error(member, error);
    error.name = "ZoteroHostCapabilityError".into();
    error
}
