//! Collections: the library fixture's `collections` (and every collection key an
//! item names), `library.listCollections`, and the `collection.*` operations of
//! `mutations.execute`.

use serde_json::{Value, json};

use super::writes::{Keys, Prepared, invalid, ref_at, text_at};
use super::{HostResult, HostWorld, HostWorldError, PageRequest, paging::paged};
use crate::host::HostError;
use crate::selection::PortableItemRef;

/// A collection of the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Collection {
    pub(super) reference: PortableItemRef,
    pub(super) name: String,
    pub(super) parent: Option<PortableItemRef>,
    pub(super) edits: u64,
}

impl Collection {
    /// Reads a library fixture collection: `{key | ref, name, parentCollection |
    /// parentRef, libraryID}`.
    pub(super) fn from_library(value: &Value, ptr: &str) -> HostResult<Collection> {
        const MEMBERS: &[&str] = &[
            "key",
            "ref",
            "name",
            "parentCollection",
            "parentRef",
            "libraryID",
            "version",
        ];
        let bad = |what: String| HostWorldError::InvalidRequest(format!("{ptr}{what}"));
        let obj = value
            .as_object()
            .ok_or_else(|| bad(": expected a collection object".into()))?;
        if let Some(extra) = obj.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
            return Err(bad(format!(
                "/{extra}: unknown member; a collection has {}",
                MEMBERS.join(", ")
            )));
        }
        let library_id = obj.get("libraryID").and_then(Value::as_u64).unwrap_or(1);
        let by_key = |key: &str| {
            obj.get(key)
                .and_then(Value::as_str)
                .filter(|k| !k.is_empty())
                .map(|k| PortableItemRef {
                    library_id,
                    key: k.to_owned(),
                })
        };
        let parsed_ref = |key: &str| -> HostResult<Option<PortableItemRef>> {
            obj.get(key)
                .filter(|v| !v.is_null())
                .map(|v| {
                    PortableItemRef::parse(v, &format!("{ptr}/{key}"))
                        .map_err(|e| HostWorldError::InvalidRequest(e.to_string()))
                })
                .transpose()
        };
        let reference = match parsed_ref("ref")? {
            Some(r) => r,
            None => by_key("key").ok_or_else(|| bad(": ref (or key) is required".into()))?,
        };
        Ok(Collection {
            name: obj
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or(&reference.key)
                .to_owned(),
            parent: parsed_ref("parentRef")?.or_else(|| by_key("parentCollection")),
            reference,
            edits: 0,
        })
    }

    pub(super) fn revision(&self) -> String {
        (1 + self.edits).to_string()
    }
}

impl HostWorld {
    /// Knows every collection an item names, by key, besides the fixture's.
    pub(super) fn add_named_collections(&mut self) {
        for i in 0..self.records.len() {
            self.name_collections_of(i);
        }
    }

    /// Knows the collections record `i` names.
    pub(super) fn name_collections_of(&mut self, i: usize) {
        let Some(r) = self.records.get(i) else {
            return;
        };
        let library_id = r.reference.as_ref().map_or(1, |x| x.library_id);
        let named: Vec<PortableItemRef> = r
            .zotero
            .collections()
            .iter()
            .map(|key| PortableItemRef {
                library_id,
                key: key.clone(),
            })
            .collect();
        for reference in named {
            if self.collection(&reference).is_none() {
                self.collections.push(Collection {
                    name: reference.key.clone(),
                    reference,
                    parent: None,
                    edits: 0,
                });
            }
        }
    }

    fn collection(&self, reference: &PortableItemRef) -> Option<&Collection> {
        self.collections.iter().find(|c| c.reference == *reference)
    }

    fn path_of(&self, collection: &Collection) -> Vec<String> {
        let mut path = vec![collection.name.clone()];
        let mut parent = collection.parent.as_ref();
        while let Some(p) = parent.and_then(|p| self.collection(p)) {
            if path.len() > 64 {
                break;
            }
            path.insert(0, p.name.clone());
            parent = p.parent.as_ref();
        }
        path
    }

    fn collection_json(&self, collection: &Collection) -> Value {
        json!({"ref": collection.reference.to_value(), "name": collection.name,
            "parentRef": collection.parent.as_ref().map(PortableItemRef::to_value),
            "revision": collection.revision(), "state": "active", "path": self.path_of(collection)})
    }

    /// `library.listCollections(input)`.
    pub fn list_collections(&self, input: &Value) -> HostResult<Value> {
        // As the reference host: a library id that is given must be a positive
        // integer.
        let wanted = match input.get("libraryId") {
            None | Some(Value::Null) => None,
            Some(id) => Some(id.as_u64().filter(|id| *id >= 1).ok_or_else(|| {
                HostWorldError::InvalidField {
                    message: "library id is invalid".into(),
                    reason: "invalid_value",
                    field: "libraryId",
                }
            })?),
        };
        let items: Vec<Value> = self
            .collections
            .iter()
            .filter(|c| wanted.is_none_or(|w| w == c.reference.library_id))
            .map(|c| self.collection_json(c))
            .collect();
        let mut page = paged("collections", items, &PageRequest::from_value(Some(input)))?;
        page["libraryId"] = wanted.unwrap_or(1).into();
        page["order"] = "stable_identity".into();
        Ok(page)
    }

    /// The `collection.*` operations of `mutations.execute`.
    pub(super) fn collection_write(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let mut prepared = Prepared::new(op);
        match op {
            "collection.create" => self.collection_create(op, request, keys, &mut prepared)?,
            "collection.update" => self.collection_update(op, request, &mut prepared)?,
            "collection.updateMembership" => {
                self.collection_membership(op, request, &mut prepared)?;
            }
            "collection.remove" => self.collection_remove(op, request, &mut prepared)?,
            _ => {
                return Err(HostError::workflow(
                    "unsupported_operation",
                    format!("mutations.execute: the operation {op} is not simulated by this host"),
                    json!({"memberOrOperation": op}),
                ));
            }
        }
        Ok(prepared)
    }

    /// The collection `request[field]` names, which must exist.
    pub(super) fn existing_collection(
        &self,
        op: &str,
        request: &Value,
        field: &str,
    ) -> Result<Collection, HostError> {
        let reference = ref_at(request, field)?;
        self.collection(&reference).cloned().ok_or_else(|| {
            HostError::capability(
                "not_found",
                format!("{op}: collection {} was not found", reference.identity()),
                json!({"kind": "collection", "opaqueKey": reference.identity()}),
            )
        })
    }

    /// `collection.create`: a named collection, under `parentRef` when given.
    fn collection_create(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
        prepared: &mut Prepared,
    ) -> Result<(), HostError> {
        let name = text_at(request, "/name")
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| invalid(op, "missing_field", "name"))?;
        let parent = match request.get("parentRef") {
            None | Some(Value::Null) => None,
            Some(_) => Some(
                self.existing_collection(op, request, "parentRef")?
                    .reference,
            ),
        };
        let library_id = request
            .get("libraryId")
            .and_then(Value::as_u64)
            .unwrap_or(1);
        let collection = Collection {
            reference: keys.next(library_id),
            name: name.trim().to_owned(),
            parent,
            edits: 0,
        };
        prepared.result = json!({"collection": self.collection_json(&collection)});
        prepared.put_collection(None, collection);
        Ok(())
    }

    /// `collection.update`: a new name, a new parent (`null`: top level), or both.
    fn collection_update(
        &self,
        op: &str,
        request: &Value,
        prepared: &mut Prepared,
    ) -> Result<(), HostError> {
        let before = self.existing_collection(op, request, "collectionRef")?;
        let mut after = before.clone();
        if let Some(name) = text_at(request, "/name") {
            after.name = name.trim().to_owned();
        }
        match request.get("parentRef") {
            None => {}
            Some(Value::Null) => after.parent = None,
            Some(_) => {
                after.parent = Some(
                    self.existing_collection(op, request, "parentRef")?
                        .reference,
                );
            }
        }
        if after != before {
            after.edits += 1;
        }
        prepared.result = json!({"collection": self.collection_json(&after)});
        prepared.put_collection(Some(&before), after);
        Ok(())
    }

    /// `collection.updateMembership`: items added to and removed from a collection.
    fn collection_membership(
        &self,
        op: &str,
        request: &Value,
        prepared: &mut Prepared,
    ) -> Result<(), HostError> {
        let collection = self.existing_collection(op, request, "collectionRef")?;
        let (mut add, mut remove) = (
            member_refs(op, request, "add")?,
            member_refs(op, request, "remove")?,
        );
        add.dedup();
        remove.dedup();
        let library = collection.reference.library_id;
        if add.iter().any(|r| remove.contains(r))
            || add.iter().chain(&remove).any(|r| r.library_id != library)
        {
            return Err(invalid(op, "invalid_combination", "add|remove"));
        }
        let key = &collection.reference.key;
        let (mut added, mut removed) = (Vec::new(), Vec::new());
        let changes = add.iter().map(|r| (r, true));
        for (item, adding) in changes.chain(remove.iter().map(|r| (r, false))) {
            let before = self.item_record(op, item)?;
            let mut after = before.clone();
            let member = after.zotero.get().collections.contains(key);
            if adding && !member {
                after.zotero.get_mut().collections.push(key.clone());
                added.push(item.to_value());
            } else if !adding && member {
                after.zotero.get_mut().collections.retain(|k| k != key);
                removed.push(item.to_value());
            }
            prepared.put(Some(before), after);
        }
        prepared.result = json!({"collection": self.collection_json(&collection),
            "addedRefs": added, "removedRefs": removed});
        Ok(())
    }

    /// Applies a prepared write's collection changes.
    pub(super) fn commit_collections(&mut self, prepared: &Prepared) {
        for (collection, gone) in &prepared.collections {
            self.collections
                .retain(|c| c.reference != collection.reference);
            if !gone {
                self.collections.push(collection.clone());
            }
        }
    }
}

/// `request[name]` of `collection.updateMembership`: a list of item refs (none when absent).
fn member_refs(op: &str, request: &Value, name: &str) -> Result<Vec<PortableItemRef>, HostError> {
    let Some(values) = request.get(name) else {
        return Ok(Vec::new());
    };
    let values = values
        .as_array()
        .ok_or_else(|| invalid(op, "invalid_schema", name))?;
    values
        .iter()
        .map(|v| PortableItemRef::parse(v, "").map_err(|_| invalid(op, "invalid_value", name)))
        .collect()
}
