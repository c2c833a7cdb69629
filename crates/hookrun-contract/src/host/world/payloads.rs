//! Note payloads as the reference host keeps them: inline blocks in a note's
//! HTML and carrier attachments under the note (a PNG whose `zsPL` chunk holds
//! the payload's envelope; a library fixture gives the envelope as the
//! attachment's `payloadEnvelope`), read page by page (`listNotePayloads`) or by
//! type (`getNotePayload`), and the managed notes built on them.

mod carrier;
mod citation_report;
mod codec;
mod detail;
mod html;
mod inspect;
mod markdown;
mod normalize;
mod pages;
mod validators;
mod views;

use crate::host::js_value as text;
use serde_json::{Value, json};

pub(super) use carrier::carrier_png;
pub(super) use codec::{
    Anchor, Block, Format, Logical, MAX_PAYLOAD_BYTES, TooLarge, semantic_hash,
};
pub(super) use html::{anchors_attachment, append_anchor, strip_inline};
pub(super) use inspect::{InspectError, Inspection};
pub(super) use normalize::normalize;
pub(super) use text::json_bytes;
pub(super) use validators::{Issue, check_citation, check_linkage, check_references, check_score};
pub(super) use views::{ManagedContent, artifact_note, markdown_note};

use super::record::{DetailKind, Record};
use super::{HostResult, HostWorld, HostWorldError};
use crate::host::HostError;
use crate::plan::ItemLocator;
use crate::selection::PortableItemRef;

/// A managed note kind: its payload type and the schema version of its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ManagedKind {
    /// `custom`, `conversation-note`, `digest`, `references`, `citation-analysis`
    /// or `literature-score`.
    pub(super) kind: &'static str,
    /// The payload type its owner reserves.
    pub(super) payload_type: &'static str,
    /// The `schemaVersion` its owner writes.
    pub(super) schema_version: &'static str,
}

/// The managed kinds, in the order the reference host tries their payload types
/// when it names a note's kind.
pub(super) const MANAGED: [ManagedKind; 6] = [
    managed("digest", "digest-markdown", "literature_digest.v1"),
    managed(
        "references",
        "references-json",
        "source_reference_artifact.v1",
    ),
    managed(
        "citation-analysis",
        "citation-analysis-json",
        "citation_analysis_artifact.v1",
    ),
    managed(
        "literature-score",
        "literature-score-json",
        "literature_score.v1",
    ),
    managed(
        "conversation-note",
        "conversation-note-markdown",
        "managed_note.conversation.v1",
    ),
    managed("custom", "custom-markdown", "managed_note.custom.v1"),
];

/// A [`ManagedKind`].
const fn managed(
    kind: &'static str,
    payload_type: &'static str,
    schema_version: &'static str,
) -> ManagedKind {
    ManagedKind {
        kind,
        payload_type,
        schema_version,
    }
}

/// The managed kind named `kind`.
pub(super) fn managed_kind(kind: &str) -> Option<&'static ManagedKind> {
    MANAGED.iter().find(|m| m.kind == kind)
}

impl HostWorld {
    /// The attachments of `note` a payload scan looks at (those not in the
    /// trash), in their order.
    fn note_attachments(&self, note: &Record) -> Vec<&Record> {
        self.child_records(note)
            .filter(|r| r.kind == Some(DetailKind::Attachment) && !r.zotero.get().deleted)
            .collect()
    }

    /// The payload block the carrier `attachment` holds, its anchor status from
    /// the note's `anchors`; `None` for an attachment that holds none.
    fn carrier_block(
        attachment: &Record,
        anchors: &[(String, String)],
    ) -> Result<Option<Block>, TooLarge> {
        let (Some(envelope), Some(reference)) = (&attachment.envelope, &attachment.reference)
        else {
            return Ok(None);
        };
        let Some(mut block) = codec::envelope_block(envelope, &reference.key)? else {
            return Ok(None);
        };
        let named = anchors
            .iter()
            .rev()
            .find(|(t, _)| !block.payload_type.is_empty() && *t == block.payload_type)
            .map(|(_, key)| key.as_str())
            .filter(|key| !key.is_empty());
        block.anchor = match named {
            Some(key) if key == reference.key => Anchor::Present,
            Some(_) => Anchor::Stale,
            None => Anchor::Missing,
        };
        Ok(Some(block))
    }

    /// Every payload block of `note`: its inline blocks, then those of its
    /// carrier attachments.
    pub(super) fn payload_blocks(&self, note: &Record) -> Result<Vec<Block>, TooLarge> {
        let html = note.html.as_deref().unwrap_or_default();
        let mut blocks = codec::inline_blocks(html)?;
        let anchors = html::anchors(html);
        for attachment in self.note_attachments(note) {
            blocks.extend(Self::carrier_block(attachment, &anchors)?);
        }
        Ok(blocks)
    }

    /// A block's summary as the reference host answers it: its identity, format,
    /// encoding, size, source, and `state` with the `issues` that decide it
    /// (`fresh`: a carrier a write creates, which the world does not hold yet).
    pub(super) fn payload_summary(
        &self,
        block: &Block,
        note: &Record,
        fresh: Option<&str>,
    ) -> Value {
        let library_id = note.reference.as_ref().map_or(1, |r| r.library_id);
        let attachment_ref = block.attachment.as_ref().map(|key| PortableItemRef {
            library_id,
            key: key.clone(),
        });
        let exists = attachment_ref.as_ref().is_some_and(|r| {
            fresh == Some(r.key.as_str()) || self.find(&ItemLocator::Ref(r.clone())).is_some()
        });
        let mut issues = Vec::new();
        if !block.errors.is_empty() {
            issues.push(json!({"code": "content_invalid", "retryable": false}));
        }
        if attachment_ref.is_some() && !exists {
            issues.push(json!({"code": "attachment_missing", "retryable": false}));
        }
        if exists && matches!(block.anchor, Anchor::Stale | Anchor::Missing) {
            issues.push(json!({"code": "anchor_stale", "retryable": true}));
        }
        let has = |code: &str| issues.iter().any(|i| i["code"] == code);
        let state = if has("attachment_missing") {
            "missing"
        } else if has("anchor_stale") {
            "stale"
        } else if issues.is_empty() {
            "available"
        } else {
            "invalid"
        };
        let source = match attachment_ref {
            Some(r) => json!({"kind": "embedded_attachment", "attachmentRef": r.to_value()}),
            None => json!({"kind": "inline"}),
        };
        json!({"payloadType": block.payload_type, "noteKind": block.note_kind,
            "version": block.version, "format": block.format.as_str(), "encoding": block.encoding,
            "estimatedBytes": block.estimated_size, "source": source, "state": state,
            "issues": issues})
    }

    /// The note `reference` names, for a payload read.
    fn payload_note(&self, reference: &PortableItemRef) -> HostResult<&Record> {
        let record = self
            .find(&ItemLocator::Ref(reference.clone()))
            .ok_or_else(|| HostWorldError::NotFound {
                kind: "note".into(),
                key: reference.identity(),
            })?;
        if record.kind != Some(DetailKind::Note) {
            return Err(HostWorldError::WrongKind {
                kind: "note".into(),
                key: reference.identity(),
                needs: Some("ref does not identify a note"),
            });
        }
        Ok(record)
    }

    /// `library.getNotePayload(ref, {payloadType})`: `{summary, value}` of the
    /// note's one available payload of the type.
    pub fn get_note_payload(
        &self,
        note: &PortableItemRef,
        payload_type: &str,
    ) -> Result<Value, HostError> {
        let payload_type = text::js_trim(payload_type);
        if payload_type.is_empty() {
            return Err(payload_type_required());
        }
        let record = self.payload_note(note).map_err(|e| note_error(&e, note))?;
        let blocks = self.payload_blocks(record).map_err(too_large)?;
        let mut matching = blocks.iter().filter(|b| b.payload_type == payload_type);
        let (Some(block), None) = (matching.next(), matching.next()) else {
            return Err(
                match blocks.iter().any(|b| b.payload_type == payload_type) {
                    true => HostError::capability(
                        "conflict",
                        "note payload is ambiguous",
                        json!({"reason": "ambiguous_state", "kind": "note"}),
                    ),
                    false => note_error(
                        &HostWorldError::NotFound {
                            kind: "note".into(),
                            key: note.identity(),
                        },
                        note,
                    ),
                },
            );
        };
        let summary = self.payload_summary(block, record, None);
        let state = summary["state"].as_str().unwrap_or_default();
        if state != "available" {
            let recovery = if state == "stale" {
                "retry_same_operation"
            } else {
                "manual_repair"
            };
            return Err(HostError::capability(
                "execution_failed",
                "note payload is unavailable",
                json!({"phase": "read", "recovery": recovery}),
            )
            .retryable());
        }
        let value = payload_value(block)?;
        Ok(json!({"summary": summary, "value": value}))
    }
}

/// The value of a readable `block`: its JSON, its markdown or its text, at most
/// [`MAX_PAYLOAD_BYTES`] as the reference writes it out (JSON indented).
fn payload_value(block: &Block) -> Result<Value, HostError> {
    let content = match block.format {
        Format::Markdown => block
            .markdown
            .clone()
            .filter(|m| !m.is_empty())
            .or_else(|| block.decoded.clone())
            .unwrap_or_default(),
        Format::Json => match &block.payload {
            Some(payload) => text::js_json_pretty(payload),
            None => return Err(read_failure()),
        },
        Format::Text => block.decoded.clone().unwrap_or_default(),
    };
    if content.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(HostError::capability(
            "resource_limited",
            "note payload exceeds the limit",
            json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES}),
        ));
    }
    Ok(match (block.format, &block.payload) {
        (Format::Json, Some(payload)) => payload.clone(),
        (Format::Markdown, _) => Value::String(
            block
                .markdown
                .clone()
                .filter(|m| !m.is_empty())
                .unwrap_or(content),
        ),
        _ => Value::String(content),
    })
}

/// `invalid_request` "payload type is required": `getNotePayload` without a type
/// (checked before its ref).
fn payload_type_required() -> HostError {
    HostError::capability(
        "invalid_request",
        "payload type is required",
        json!({"reason": "missing_field", "field": "payloadType"}),
    )
}

/// A payload read's failure to find its note `reference`, as the reference
/// host raises it.
pub(super) fn note_error(error: &HostWorldError, reference: &PortableItemRef) -> HostError {
    match error {
        HostWorldError::NotFound { .. } => HostError::capability(
            "not_found",
            "note not found",
            json!({"kind": "note", "opaqueKey": reference.key}),
        ),
        _ => HostError::capability(
            "invalid_ref",
            "ref does not identify a note",
            json!({"kind": "note", "reason": "wrong_kind"}),
        ),
    }
}

/// An input past the payload limit, as the reference host raises it.
fn too_large(error: TooLarge) -> HostError {
    HostError::capability(
        "resource_limited",
        error.message(),
        json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES}),
    )
}

/// `execution_failed` "note read is incomplete" (retryable).
fn read_failure() -> HostError {
    HostError::capability(
        "execution_failed",
        "note read is incomplete",
        json!({"phase": "read", "recovery": "retry_same_operation"}),
    )
    .retryable()
}

#[cfg(test)]
mod managed_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod view_tests;
