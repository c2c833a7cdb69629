//! What a collection holds, the revision that shows it, and
//! `collection.updateMembership`.
//!
//! A collection's revision is the reference host's: the digest of the collection
//! (`{key, name, libraryId, parentKey?}`; Zotero's numeric ids are not simulated)
//! and of its active members (`[{libraryId, key}]` in `"<libraryId>:<key>"`
//! order), so that adding or removing an item changes it.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::HostWorld;
use super::collections::{Collection, member_refs};
use super::dto::digest;
use super::writes::{Prepared, closed};
use crate::host::HostError;
use crate::selection::PortableItemRef;

/// Most items one membership change names (the reference's preview target limit).
const MAX_MEMBERSHIP_TARGETS: usize = 10_000;

impl HostWorld {
    /// The keys of the active items of every collection that has any.
    pub(super) fn memberships(&self) -> HashMap<PortableItemRef, Vec<String>> {
        let mut members: HashMap<PortableItemRef, Vec<String>> = HashMap::new();
        for record in &self.records {
            let Some(item) = &record.reference else {
                continue;
            };
            let named = record.zotero.collections();
            if named.is_empty() || record.zotero.get().deleted {
                continue;
            }
            for key in named.iter() {
                let collection = PortableItemRef {
                    library_id: item.library_id,
                    key: key.clone(),
                };
                members
                    .entry(collection)
                    .or_default()
                    .push(item.key.clone());
            }
        }
        members
    }

    /// The keys of the active items of `collection`.
    pub(super) fn members_of_collection(&self, collection: &Collection) -> Vec<String> {
        let wanted = &collection.reference;
        self.records
            .iter()
            .filter_map(|r| r.reference.as_ref().map(|item| (r, item)))
            .filter(|(r, item)| {
                item.library_id == wanted.library_id
                    && r.zotero.collections().contains(&wanted.key)
                    && !r.zotero.get().deleted
            })
            .map(|(_, item)| item.key.clone())
            .collect()
    }

    /// The revision of `collection` holding the items keyed `members`.
    pub(super) fn collection_revision(
        &self,
        collection: &Collection,
        members: &[String],
    ) -> String {
        let library_id = collection.reference.library_id;
        let mut keys: Vec<&String> = members.iter().collect();
        keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        keys.dedup();
        let members: Vec<Value> = keys
            .into_iter()
            .map(|key| json!({"libraryId": library_id, "key": key}))
            .collect();
        let mut serialized = json!({"key": collection.reference.key, "name": collection.name,
            "libraryId": library_id});
        if let Some(parent) = &collection.parent {
            serialized["parentKey"] = parent.key.clone().into();
        }
        digest(&json!({"collection": serialized, "members": members}))
    }

    /// The collection of a mutation result: `{ref, revision, name, parentRef}`.
    pub(super) fn collection_result(collection: &Collection, revision: &str) -> Value {
        json!({"ref": collection.reference.to_value(), "revision": revision,
            "name": collection.name,
            "parentRef": collection.parent.as_ref().map(PortableItemRef::to_value)})
    }

    /// `collection.updateMembership`: items added to and removed from a collection.
    /// The receipt's changes are the collection's (its revision covers its members),
    /// then each item that changed.
    pub(super) fn collection_membership(
        &self,
        op: &str,
        request: &Value,
        prepared: &mut Prepared,
    ) -> Result<(), HostError> {
        closed(request, &["collectionRef", "add", "remove"])?;
        let collection = self.existing_collection(op, request, "collectionRef")?;
        let (add, remove) = membership_delta(op, request)?;
        let library = collection.reference.library_id;
        self.check_members(op, &[add.as_slice(), remove.as_slice()].concat(), library)?;
        let key = &collection.reference.key;
        let mut changed = Vec::new();
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        let targets = add.iter().map(|r| (r, true));
        for (item, adding) in targets.chain(remove.iter().map(|r| (r, false))) {
            let before = self.item_record_or_note(op, item)?;
            let mut after = before.clone();
            let member = after.zotero.get().collections.contains(key);
            if adding && !member {
                after.zotero.get_mut().collections.push(key.clone());
                added.push(item.clone());
            } else if !adding && member {
                after.zotero.get_mut().collections.retain(|k| k != key);
                removed.push(item.clone());
            } else {
                continue;
            }
            changed.push((before, after));
        }
        let before = self.members_of_collection(&collection);
        let mut members: Vec<String> = before
            .iter()
            .filter(|k| !removed.iter().any(|r| r.key == **k))
            .cloned()
            .collect();
        members.extend(added.iter().map(|r| r.key.clone()));
        let (from, to) = (
            self.collection_revision(&collection, &before),
            self.collection_revision(&collection, &members),
        );
        prepared.result = json!({"collection": Self::collection_result(&collection, &to),
            "addedRefs": added.iter().map(PortableItemRef::to_value).collect::<Vec<_>>(),
            "removedRefs": removed.iter().map(PortableItemRef::to_value).collect::<Vec<_>>()});
        prepared.put_collection(Some((&collection, from)), collection.clone(), to);
        for (before, after) in changed {
            prepared.put(Some(before), after);
        }
        Ok(())
    }
}

/// The `add` and `remove` of a membership change: not both empty, not
/// overlapping, not past the reference's target limit together.
fn membership_delta(
    op: &str,
    request: &Value,
) -> Result<(Vec<PortableItemRef>, Vec<PortableItemRef>), HostError> {
    let (add, remove) = (
        member_refs(request, "add")?,
        member_refs(request, "remove")?,
    );
    if (add.is_empty() && remove.is_empty())
        || add.iter().any(|r| remove.contains(r))
        || add.len() + remove.len() > MAX_MEMBERSHIP_TARGETS
    {
        return Err(HostError::capability(
            "invalid_request",
            "membership delta is empty, overlapping, or exceeds the hard limit",
            json!({"reason": "invalid_combination", "operation": op}),
        ));
    }
    Ok((add, remove))
}
