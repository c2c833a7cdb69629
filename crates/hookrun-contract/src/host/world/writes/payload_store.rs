//! A note's payload stored as the reference host stores it: in a carrier
//! attachment under the note (an `image/png` embedded image whose envelope holds
//! the payload), anchored in the note's HTML in place of an inline block of the
//! type, the earlier carrier of the type deleted.

use serde_json::json;

use super::super::super::HostWorld;
use super::super::super::payloads::{
    Anchor, Block, Format, Logical, TooLarge, append_anchor, semantic_hash, strip_inline,
};
use super::super::super::record::{DetailKind, Fields, Record};
use super::super::{Keys, Prepared};
use crate::host::HostError;
use crate::selection::PortableItemRef;

/// What storing a payload does.
pub(in crate::host::world::writes) struct Stored {
    /// The note as it ends: anchored on the new carrier.
    pub(in crate::host::world::writes) note: Record,
    /// The carrier created.
    pub(in crate::host::world::writes) carrier: Option<Record>,
    /// The earlier carrier deleted.
    pub(in crate::host::world::writes) replaced: Option<Record>,
    /// The payload's block once stored.
    pub(in crate::host::world::writes) block: Block,
    /// `created`, `replaced` or `unchanged`.
    pub(in crate::host::world::writes) outcome: &'static str,
}

/// Why a payload cannot be stored.
pub(in crate::host::world::writes) enum StoreError {
    /// The note's HTML or a carrier is past the payload limit.
    TooLarge(TooLarge),
    /// The note has payloads of the type that do not agree.
    Ambiguous,
}

/// `conflict` "note payload is ambiguous".
pub(in crate::host::world::writes) fn ambiguous_payload() -> HostError {
    HostError::capability(
        "conflict",
        "note payload is ambiguous",
        json!({"reason": "ambiguous_state", "kind": "note"}),
    )
}

/// The block a write replaces among `previous` (the note's blocks of the type):
/// its one block, or of an inline block and a carrier the carrier, when the
/// inline block already holds the value written; anything else is ambiguous.
fn earlier_block<'a>(
    previous: &[&'a Block],
    payload: &Logical,
) -> Result<Option<&'a Block>, StoreError> {
    if previous.len() < 2 {
        return Ok(previous.first().copied());
    }
    let carriers: Vec<&Block> = previous
        .iter()
        .copied()
        .filter(|b| b.is_current_carrier())
        .collect();
    let inline: Vec<&Block> = previous
        .iter()
        .copied()
        .filter(|b| b.attachment.is_none())
        .collect();
    let requested = semantic_hash(&payload.payload_type, &payload.note_kind, &payload.value);
    let inline_holds_it = inline.iter().any(|b| b.semantic_hash() == requested);
    if carriers.len() > 1 || inline.len() > 1 || (!inline_holds_it && !carriers.is_empty()) {
        return Err(StoreError::Ambiguous);
    }
    Ok(carriers
        .first()
        .or(inline.first())
        .or(previous.first())
        .copied())
}

/// A carrier `key` of `note` holding `envelope`.
fn carrier_record(
    note: &PortableItemRef,
    key: PortableItemRef,
    envelope: serde_json::Value,
) -> Record {
    let path = format!("attachments/{}/image.png", key.key);
    let mut record = Record {
        reference: Some(key),
        kind: Some(DetailKind::Attachment),
        parent_ref: Some(note.clone()),
        fields: Fields {
            item_type: Some("attachment".into()),
            path: Some(path),
            filename: Some("image.png".into()),
            content_type: Some("image/png".into()),
            envelope: Some(envelope),
            ..Fields::default()
        }
        .into(),
        stored: true,
        ..Record::default()
    };
    record.zotero.get_mut().link_mode = Some("embedded_image".into());
    record
}

/// The block of `payload` stored in the carrier `key` (its size the UTF-8
/// bytes of its value, as the reference reports a write).
fn stored_block(payload: &Logical, key: &str) -> Block {
    let text = payload.text();
    Block {
        attachment: Some(key.to_owned()),
        storage_version: Some(2),
        logical_version: Some(payload.schema_version.clone()),
        anchor: Anchor::Present,
        payload_type: payload.payload_type.clone(),
        note_kind: payload.note_kind.clone(),
        version: payload.schema_version.clone(),
        encoding: "embedded-image-attachment".into(),
        format: payload.format,
        estimated_size: text.len() as u64,
        payload: Some(payload.value.clone()),
        markdown: (payload.format == Format::Markdown).then(|| text.clone()),
        decoded: Some(text),
        errors: Vec::new(),
    }
}

impl HostWorld {
    /// Stores `payload` in `note` (as it is once the write's other changes are
    /// made): unchanged when its carrier already holds it, else in a new carrier
    /// the note anchors, replacing the earlier one.
    pub(in crate::host::world::writes) fn store_payload(
        &self,
        note: Record,
        payload: &Logical,
        keys: &mut Keys,
    ) -> Result<Stored, StoreError> {
        let blocks = self.payload_blocks(&note).map_err(StoreError::TooLarge)?;
        let previous: Vec<&Block> = blocks
            .iter()
            .filter(|b| b.payload_type == payload.payload_type)
            .collect();
        let earlier = earlier_block(&previous, payload)?;
        if let Some(block) = earlier.filter(|b| b.logical_hash() == Some(payload.hash())) {
            let block = block.clone();
            return Ok(Stored {
                note,
                carrier: None,
                replaced: None,
                block,
                outcome: "unchanged",
            });
        }
        let note_ref = note.reference.clone().unwrap_or(PortableItemRef {
            library_id: 1,
            key: String::new(),
        });
        let key = keys.next(note_ref.library_id);
        let parent_id = self.parent_record(&note).and_then(|p| p.id);
        let envelope = payload.envelope(&note_ref.key, note.id, parent_id);
        let replaced = earlier
            .and_then(|b| b.attachment.as_deref())
            .and_then(|old| {
                self.child_records(&note)
                    .find(|r| r.reference.as_ref().is_some_and(|r| r.key == old))
            })
            .cloned();
        let mut note = note;
        let html = note.html.clone().unwrap_or_default();
        let stripped = strip_inline(&html, &payload.payload_type);
        note.html = Some(append_anchor(&stripped, &payload.payload_type, &key.key));
        Ok(Stored {
            note,
            block: stored_block(payload, &key.key),
            carrier: Some(carrier_record(&note_ref, key, envelope)),
            replaced,
            outcome: if previous.is_empty() {
                "created"
            } else {
                "replaced"
            },
        })
    }
}

/// Records `stored` in `prepared`: the note (changed from `before`, or created),
/// the carrier created and the one deleted; answers the note as it ends.
pub(in crate::host::world::writes) fn put_stored(
    prepared: &mut Prepared,
    before: Option<&Record>,
    stored: &Stored,
) -> Record {
    let mut note = stored.note.clone();
    let changed = before.is_none_or(|b| *b != note);
    prepared.put(before, note.clone());
    if let Some(b) = before {
        note.edits = b.edits.saturating_add(u32::from(changed));
    }
    if let Some(carrier) = &stored.carrier {
        prepared.put(None, carrier.clone());
    }
    if let Some(old) = &stored.replaced {
        prepared.remove(old);
    }
    note
}
