//! Explicit conversions between the two shapes (contract §1.3).
//!
//! **Grouped → canonical.** One fact per selected entry, in the order parents,
//! children, attachments, notes (each array in its own order). `kind` is the array;
//! `ref = {libraryId: item.libraryID, key: item.key}`; `itemType` is `item.itemType`
//! (the kind's name when absent); `title` is `item.title`; `parentRef` comes from
//! `parent`. Attachments get `filename` = base name of `filePath` (else
//! `item.data.path`), `contentType` = `mimeType` (else `item.data.contentType`),
//! `createdAt` = `item.data.dateAdded` and `fileState` from the `file_exists` callback
//! (`not_applicable` without a path). `sampledAt`, `exportCandidates` and
//! `digestRepresentativeImageTarget` are copied. Dropped: nested arrays, tags,
//! collections, `warnings`, numeric ids, file paths and `item.data`.
//!
//! **Canonical → grouped.** Each fact becomes an entry of its kind's array, in fact
//! order. Invented: numeric `id`s (1, 2, … in order of first appearance of a ref,
//! parents referenced by `parentRef` included) and `parentItemID`; an attachment's
//! `filePath` is `attachments/<key>/<filename>` (the files-directory convention of
//! [`crate::host::world`]); `item.data` holds `key`, `itemType`, `title`,
//! `contentType`, `path` and `dateAdded` where known. A parent referenced but not
//! selected is described by its ref only. Nested arrays, tags and collections are
//! empty; `warnings` is `[]`.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::canonical::{CanonicalSelection, FileState, ItemFact};
use super::error::SelectionError;
use super::grouped::{GroupedEntry, GroupedSelection, ItemBase};
use super::json::{child, index};
use super::refs::{ItemKind, PortableItemRef};

/// Converts a grouped context to the canonical shape (see the module docs).
///
/// Fails, naming the entry's pointer, when an entry has no `libraryID` ≥ 1 and
/// non-empty `key`.
pub fn grouped_to_canonical(
    grouped: &GroupedSelection,
    file_exists: &dyn Fn(&str) -> bool,
) -> Result<CanonicalSelection, SelectionError> {
    let mut items = Vec::new();
    for kind in ItemKind::ALL {
        for (i, entry) in grouped.entries(kind).iter().enumerate() {
            let ptr = index(&format!("/items/{}", kind.array_name()), i);
            items.push(entry_to_fact(entry, &ptr, file_exists)?);
        }
    }
    Ok(CanonicalSelection {
        items,
        sampled_at: grouped.sampled_at.clone(),
        export_candidates: grouped.export_candidates.clone(),
        digest_representative_image_target: grouped.digest_representative_image_target.clone(),
    })
}

fn entry_to_fact(
    entry: &GroupedEntry,
    ptr: &str,
    file_exists: &dyn Fn(&str) -> bool,
) -> Result<ItemFact, SelectionError> {
    let reference = entry.item.portable_ref().ok_or_else(|| {
        SelectionError::invalid(
            &child(ptr, "item"),
            "expected libraryID ≥ 1 and a non-empty key to convert to the canonical shape",
        )
    })?;
    let is_attachment = entry.kind == ItemKind::Attachment;
    let attachment_str = |value: Option<&str>| value.filter(|_| is_attachment).map(str::to_owned);
    Ok(ItemFact {
        kind: entry.kind,
        reference,
        item_type: entry
            .item
            .item_type()
            .unwrap_or(entry.kind.as_str())
            .to_owned(),
        title: entry.item.title().map(str::to_owned),
        parent_ref: entry.parent.as_deref().and_then(ItemBase::portable_ref),
        filename: attachment_str(entry.filename()),
        content_type: attachment_str(entry.content_type()),
        created_at: attachment_str(entry.item.data_date_added()),
        file_state: is_attachment.then(|| match entry.path() {
            Some(path) => FileState::from_exists(file_exists(path)),
            None => FileState::NotApplicable,
        }),
    })
}

/// Invents numeric ids for refs in order of first appearance.
#[derive(Default)]
struct IdTable(HashMap<PortableItemRef, i64>);

impl IdTable {
    fn id(&mut self, r: &PortableItemRef) -> i64 {
        let next = i64::try_from(self.0.len())
            .unwrap_or(i64::MAX)
            .saturating_add(1);
        *self.0.entry(r.clone()).or_insert(next)
    }
}

/// The invented `filePath` of an attachment fact.
fn invented_path(fact: &ItemFact) -> Option<String> {
    let name = fact.filename.as_deref()?;
    Some(format!("attachments/{}/{name}", fact.reference.key))
}

fn fact_item(fact: &ItemFact, ids: &mut IdTable) -> ItemBase {
    let mut data = Map::new();
    data.insert("key".into(), fact.reference.key.clone().into());
    data.insert("itemType".into(), fact.item_type.clone().into());
    let optional = [
        ("title", fact.title.clone()),
        ("contentType", fact.content_type.clone()),
        ("path", invented_path(fact)),
        ("dateAdded", fact.created_at.clone()),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            data.insert(key.into(), value.into());
        }
    }
    let id = ids.id(&fact.reference);
    let parent_id = fact.parent_ref.as_ref().map(|p| ids.id(p));
    let raw = json!({"id": id, "key": fact.reference.key, "itemType": fact.item_type,
        "title": fact.title.clone().unwrap_or_default(),
        "libraryID": fact.reference.library_id, "parentItemID": parent_id, "data": data});
    item_from_raw(raw)
}

fn ref_item(r: &PortableItemRef, ids: &mut IdTable) -> ItemBase {
    item_from_raw(
        json!({"id": ids.id(r), "key": r.key, "libraryID": r.library_id,
        "parentItemID": null, "data": null}),
    )
}

fn item_from_raw(raw: Value) -> ItemBase {
    ItemBase::of_map(raw.as_object().unwrap_or(&Map::new()))
}

/// Converts a canonical context to the grouped shape (see the module docs).
pub fn canonical_to_grouped(canonical: &CanonicalSelection) -> GroupedSelection {
    let mut ids = IdTable::default();
    let items: Vec<Arc<ItemBase>> = canonical
        .items
        .iter()
        .map(|f| Arc::new(fact_item(f, &mut ids)))
        .collect();
    let by_ref: HashMap<&PortableItemRef, &Arc<ItemBase>> = canonical
        .items
        .iter()
        .map(|f| &f.reference)
        .zip(&items)
        .collect();
    let mut grouped = GroupedSelection {
        warnings: Vec::new(),
        sampled_at: canonical.sampled_at.clone(),
        export_candidates: canonical.export_candidates.clone(),
        digest_representative_image_target: canonical.digest_representative_image_target.clone(),
        ..GroupedSelection::default()
    };
    for (fact, item) in canonical.items.iter().zip(&items) {
        let parent = fact.parent_ref.as_ref().map(|p| match by_ref.get(p) {
            Some(known) => (*known).clone(),
            None => Arc::new(ref_item(p, &mut ids)),
        });
        let mut entry = GroupedEntry::synthetic(fact.kind, item, parent.as_ref());
        if fact.kind == ItemKind::Attachment {
            let mut members = entry.raw().to_map();
            members.insert("mimeType".into(), fact.content_type.clone().into());
            entry.set_members(&members);
        }
        grouped.entries_mut(fact.kind).push(entry);
    }
    grouped.selection_type = grouped.computed_selection_type().to_owned();
    grouped
}
