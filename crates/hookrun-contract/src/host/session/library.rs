//! The `library.*` reads and `metadata.translateIdentifier`: arguments checked
//! as the reference host checks them, answers from the run's world.

use serde_json::{Value, json};

use super::{HookHost, Plan, unsupported, world_error};
use crate::host::HostError;
use crate::host::members::Member;
use crate::host::members::request::{Checked, Identifier, ItemRead, NoteDetail, NotePayload, arg};
use crate::host::members::search::SearchRequest;
use crate::host::world::HostWorldError;

impl HookHost {
    /// The reads about one item, its request read by [`ItemRead`].
    pub(crate) fn item_read(
        &mut self,
        member: Member,
        _: Value,
        request: ItemRead,
    ) -> Result<Value, HostError> {
        let (world, item, page) = (&self.world, &request.item, &request.page);
        match member {
            Member::LibraryGetItemDetail => world.get_item_detail(item),
            Member::LibraryGetItemAttachments => world.get_item_attachments(item, page),
            Member::LibraryGetItemNotes => world.get_item_notes(item, page),
            Member::LibraryListAnnotations => world.list_annotations(item, page),
            Member::LibraryListNotePayloads => world.list_note_payloads(item, page),
            _ => return Err(unsupported(member.name())),
        }
        .map_err(|e| library_error(member.name(), &e))
    }

    /// `library.searchItems(request)`: a lexical search of the world.
    pub(crate) fn search_items(
        &mut self,
        _: Member,
        _: Value,
        request: SearchRequest,
    ) -> Result<Value, HostError> {
        self.world.search_items(&request.0, &self.budget)
    }

    /// `library.getNoteDetail(ref, {format})`.
    pub(crate) fn note_detail(
        &mut self,
        _: Member,
        _: Value,
        request: NoteDetail,
    ) -> Result<Value, HostError> {
        self.world.get_note_detail(&request.note, request.format)
    }

    /// `library.getNotePayload(ref, {payloadType})`.
    pub(crate) fn note_payload(
        &mut self,
        _: Member,
        _: Value,
        request: NotePayload,
    ) -> Result<Value, HostError> {
        self.world
            .get_note_payload(&request.note, &request.payload_type)
    }

    /// The library's listings, traversals and exports, their criteria checked by
    /// the world against what it holds.
    pub(crate) fn library_query(
        &mut self,
        member: Member,
        args: Value,
        _: Checked,
    ) -> Result<Value, HostError> {
        let name = member.name();
        let first = arg(&args, 0);
        let world = &self.world;
        match member {
            Member::LibraryListItems => world.list_items(first),
            Member::LibraryListCollections => world.list_collections(first),
            Member::LibraryListSavedSearches => world.list_saved_searches(first),
            Member::LibraryExportPortableItems => world.export_portable_items(first, &self.budget),
            Member::LibraryTraverseItems => {
                if args.get(2).is_some_and(Value::is_string) {
                    return Err(HostError::capability(
                        "invalid_request",
                        "traversal callback is required",
                        json!({"reason": "invalid_type", "field": "onBatch"}),
                    ));
                }
                let (calls, ending) = world
                    .traverse_items(first, &self.budget, &self.now_iso())
                    .map_err(|e| library_error(name, &e))?;
                self.audits.witness(first, &ending);
                return Ok(Plan::result(calls, ending));
            }
            Member::LibraryWithItemSnapshot => return self.item_snapshot(name, &args),
            _ => return Err(unsupported(name)),
        }
        .map_err(|e| library_error(name, &e))
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
    /// `<type>:<value>` (the type as given, or lower-cased), else `not_found`
    /// with the evidence every outcome of the reference host's carries (no
    /// translator ran, no candidate was seen).
    pub(crate) fn translate_identifier(
        &mut self,
        _: Member,
        _: Value,
        request: Identifier,
    ) -> Result<Value, HostError> {
        let (kind, value) = (request.kind.as_str(), request.value.as_str());
        let identifiers = &self.answers.identifiers;
        let answer = identifiers
            .get(&format!("{kind}:{value}"))
            .or_else(|| identifiers.get(&format!("{}:{value}", kind.to_lowercase())));
        Ok(answer.cloned().unwrap_or_else(|| {
            json!({"outcome": "not_found", "reason": "no_candidate", "evidence": {
                "normalizedIdentifier": request.normalized(), "candidateCount": 0,
                "matchingCandidateCount": 0, "translators": []}})
        }))
    }
}

/// A world read's failure as the reference host's broker raises it.
fn library_error(member: &str, error: &HostWorldError) -> HostError {
    let mut error = world_error(member, error);
    error.name = "ZoteroHostCapabilityError".into();
    error
}

#[cfg(test)]
#[path = "ported_metadata_tests.rs"]
mod ported_metadata_tests;
