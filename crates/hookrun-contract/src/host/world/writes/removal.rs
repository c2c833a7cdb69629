//! Permanent removals of `mutations.execute`: `item.remove` (the item with its
//! notes, attachments and their annotations) and `collection.remove` (the
//! collection with its sub-collections; its items stay and leave it), with the
//! plans `mutations.preview` answers for them.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::super::HostWorld;
use super::super::collections::Collection;
use super::super::record::{DetailKind, Record};
use super::{Prepared, closed, ref_at, text_at};
use crate::host::HostError;
use crate::host::members::request::canonical_refusal;
use crate::selection::PortableItemRef;

/// Most targets a removal plan lists (the reference host's preview target limit):
/// a bigger removal is refused, never planned in part.
pub(super) const MAX_PLAN_TARGETS: usize = 10_000;

/// The `childPolicy` of a removal: `reject_if_present` or `cascade`.
fn child_policy(request: &Value) -> Result<&'static str, HostError> {
    match text_at(request, "/childPolicy") {
        Some("reject_if_present") => Ok("reject_if_present"),
        Some("cascade") => Ok("cascade"),
        _ => Err(canonical_refusal(Some("/childPolicy"))),
    }
}

/// The refusal of a plan of `observed` targets past [`MAX_PLAN_TARGETS`].
fn too_large(message: &str, observed: usize) -> HostError {
    HostError::capability(
        "resource_limited",
        message,
        json!({"resource": "items", "limit": MAX_PLAN_TARGETS, "observed": observed}),
    )
}

/// Whether an attachment keeps its file in the library's storage.
fn stores_file(record: &Record) -> bool {
    record.kind == Some(DetailKind::Attachment)
        && !matches!(
            record.zotero.get().link_mode.as_deref(),
            Some("linked_file" | "linked_url" | "embedded_image")
        )
}

impl HostWorld {
    /// Everything under `record`: its notes and attachments, their annotations, …
    fn descendants<'a>(&'a self, record: &Record) -> Vec<&'a Record> {
        let mut found: Vec<&Record> = self.child_records(record).collect();
        let mut next = 0;
        while next < found.len() && found.len() <= MAX_PLAN_TARGETS {
            let more: Vec<&Record> = self.child_records(found[next]).collect();
            found.extend(more);
            next += 1;
        }
        found
    }

    /// `item.remove`: the item and (with `childPolicy: "cascade"`) everything under
    /// it leave the library for good; `reject_if_present` refuses an item that has
    /// children.
    pub(super) fn item_remove(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        closed(request, &["itemRef", "disposition", "childPolicy"])?;
        let reference = ref_at(request, "itemRef")?;
        if text_at(request, "/disposition") != Some("permanent") {
            return Err(canonical_refusal(Some("/disposition")));
        }
        let policy = child_policy(request)?;
        let record = self.existing(op, &reference, "item")?;
        let children = self.descendants(record);
        if children.len() > MAX_PLAN_TARGETS {
            return Err(too_large("removal plan is too large", children.len()));
        }
        if policy == "reject_if_present" && !children.is_empty() {
            return Err(HostError::capability(
                "conflict",
                "item has children and childPolicy rejects removal",
                json!({"reason": "ambiguous_state", "kind": "item"}),
            ));
        }
        let mut prepared = Prepared::new(op);
        prepared.remove(record);
        for child in &children {
            prepared.remove(child);
        }
        // The plan names the item's own children, as the reference lists them;
        // what lies under them goes with them.
        let listed: Vec<Value> = self
            .child_records(record)
            .map(|child| {
                json!({"ref": child.reference.as_ref().map(PortableItemRef::to_value),
                    "kind": child.kind.unwrap_or(DetailKind::Regular).as_str()})
            })
            .collect();
        let stored = std::iter::once(record)
            .chain(children.iter().copied())
            .filter(|r| stores_file(r))
            .count();
        prepared.result =
            json!({"itemRef": reference.to_value(), "outcome": "permanently_deleted"});
        prepared.plan = Some(
            json!({"itemRef": reference.to_value(), "childPolicy": policy,
            "children": listed,
            "managedResources": {"storedFiles": stored, "noteImages": 0, "notePayloads": 0,
                                 "linkedFilesPreserved": 0},
            "relationInvalidations": []}),
        );
        Ok(prepared)
    }

    /// The collection and every collection under it, the collection first.
    fn subtree(&self, root: &Collection) -> Vec<Collection> {
        let mut found = vec![root.clone()];
        let mut seen: HashSet<PortableItemRef> = HashSet::from([root.reference.clone()]);
        let mut next = 0;
        while next < found.len() && found.len() <= MAX_PLAN_TARGETS {
            let parent = found[next].reference.clone();
            for child in &self.collections {
                if child.parent.as_ref() == Some(&parent) && seen.insert(child.reference.clone()) {
                    found.push(child.clone());
                }
            }
            next += 1;
        }
        found
    }

    /// The items of library `library` in any of the collections `keys`, and each
    /// membership they leave (`{collectionRef, itemRef}`).
    fn members_of(&self, library: u64, keys: &[String]) -> (Vec<&Record>, Vec<Value>) {
        let mut members = Vec::new();
        let mut detached = Vec::new();
        for record in &self.records {
            let Some(item) = record
                .reference
                .as_ref()
                .filter(|r| r.library_id == library)
            else {
                continue;
            };
            let named = record.zotero.collections();
            let left: Vec<&String> = named.iter().filter(|k| keys.contains(k)).collect();
            if left.is_empty() {
                continue;
            }
            for key in left {
                let from = PortableItemRef {
                    library_id: library,
                    key: key.clone(),
                };
                detached
                    .push(json!({"collectionRef": from.to_value(), "itemRef": item.to_value()}));
            }
            members.push(record);
        }
        (members, detached)
    }

    /// `collection.remove`: the collection and (with `childPolicy: "cascade"`) its
    /// sub-collections are deleted; their items stay and leave them.
    /// `reject_if_present` refuses a collection that has sub-collections.
    pub(in crate::host::world) fn collection_remove(
        &self,
        op: &str,
        request: &Value,
        prepared: &mut Prepared,
    ) -> Result<(), HostError> {
        closed(request, &["collectionRef", "childPolicy"])?;
        let collection = self.existing_collection(op, request, "collectionRef")?;
        let policy = child_policy(request)?;
        let doomed = self.subtree(&collection);
        if doomed.len() > MAX_PLAN_TARGETS {
            return Err(too_large("collection plan is too large", doomed.len()));
        }
        if policy == "reject_if_present" && doomed.len() > 1 {
            return Err(HostError::capability(
                "conflict",
                "collection has descendants and childPolicy rejects removal",
                json!({"reason": "ambiguous_state", "kind": "collection"}),
            ));
        }
        let library = collection.reference.library_id;
        let keys: Vec<String> = doomed.iter().map(|c| c.reference.key.clone()).collect();
        let (members, detached) = self.members_of(library, &keys);
        if detached.len() > MAX_PLAN_TARGETS {
            let message = "collection membership detach plan is too large";
            return Err(too_large(message, detached.len()));
        }
        prepared.plan = Some(json!({"collectionRef": collection.reference.to_value(),
            "childPolicy": policy,
            "deletedCollections": doomed.iter().map(|c| json!({"ref": c.reference.to_value()})).collect::<Vec<_>>(),
            "detachedMemberships": detached}));
        prepared.result = json!({"removedRef": collection.reference.to_value()});
        let held = self.memberships();
        for gone in doomed {
            let members = held.get(&gone.reference).map_or(&[][..], Vec::as_slice);
            let revision = self.collection_revision(&gone, members);
            prepared.drop_collection(gone, revision);
        }
        for record in members {
            let mut after = record.clone();
            after
                .zotero
                .get_mut()
                .collections
                .retain(|k| !keys.contains(k));
            prepared.put(Some(record), after);
        }
        Ok(())
    }
}
