//! Collections: the library fixture's `collections` (and every collection key an
//! item names), `library.listCollections`, and the `collection.*` operations of
//! `mutations.execute`.

use serde_json::{Value, json};

use super::record::DetailKind;
use super::writes::{Keys, Prepared, closed, ref_at};
use super::{HostResult, HostWorld, HostWorldError, PageRequest, paging::paged};
use crate::host::HostError;
use crate::host::members::request::canonical_refusal;
use crate::selection::PortableItemRef;

/// A collection of the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Collection {
    pub(super) reference: PortableItemRef,
    pub(super) name: String,
    pub(super) parent: Option<PortableItemRef>,
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
        })
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

    fn collection_json(&self, collection: &Collection, members: &[String]) -> Value {
        json!({"ref": collection.reference.to_value(), "name": collection.name,
            "parentRef": collection.parent.as_ref().map(PortableItemRef::to_value),
            "revision": self.collection_revision(collection, members), "state": "active",
            "path": self.path_of(collection)})
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
        let members = self.memberships();
        let items: Vec<Value> = self
            .collections
            .iter()
            .filter(|c| wanted.is_none_or(|w| w == c.reference.library_id))
            .map(|c| {
                let keys = members.get(&c.reference).map_or(&[][..], Vec::as_slice);
                self.collection_json(c, keys)
            })
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

    /// `collection.create`: a named collection placed at the root of a library
    /// (`{kind: "root", libraryId?}`) or under a collection (`{kind: "child",
    /// parentRef}`), with its `initialMemberRefs` added to it.
    fn collection_create(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
        prepared: &mut Prepared,
    ) -> Result<(), HostError> {
        closed(request, &["name", "placement", "initialMemberRefs"])?;
        let name = collection_name(op, request.get("name"), "name")?;
        let (library_id, parent) = self.collection_placement(op, request)?;
        let members = self.initial_members(op, request, library_id)?;
        let collection = Collection {
            reference: keys.next(library_id),
            name,
            parent,
        };
        let keys: Vec<String> = members.iter().map(|m| m.key.clone()).collect();
        let revision = self.collection_revision(&collection, &keys);
        prepared.result = json!({"collection": Self::collection_result(&collection, &revision)});
        prepared.put_collection(None, collection.clone(), revision);
        for item in &members {
            let before = self.item_record_or_note(op, item)?;
            let mut after = before.clone();
            after
                .zotero
                .get_mut()
                .collections
                .push(collection.reference.key.clone());
            prepared.put(Some(before), after);
        }
        Ok(())
    }

    /// The library and parent of a created collection, from its `placement`.
    fn collection_placement(
        &self,
        op: &str,
        request: &Value,
    ) -> Result<(u64, Option<PortableItemRef>), HostError> {
        let Some(Value::Object(placement)) = request.get("placement") else {
            return Err(canonical_refusal(Some("/placement")));
        };
        let allowed: &[&str] = match placement.get("kind").and_then(Value::as_str) {
            Some("root") => &["kind", "libraryId"],
            Some("child") => &["kind", "parentRef"],
            _ => return Err(canonical_refusal(Some("/placement/kind"))),
        };
        if let Some(extra) = placement.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(canonical_refusal(Some(&format!("/placement/{extra}"))));
        }
        let placement = Value::Object(placement.clone());
        if placement.get("parentRef").is_some() {
            let parent = self.existing_collection(op, &placement, "parentRef")?;
            return Ok((parent.reference.library_id, Some(parent.reference)));
        }
        match placement.get("libraryId") {
            None => Ok((1, None)),
            Some(id) => id
                .as_u64()
                .filter(|id| *id >= 1)
                .map(|id| (id, None))
                .ok_or_else(|| canonical_refusal(Some("/placement/libraryId"))),
        }
    }

    /// `initialMemberRefs` of a created collection in `library_id`, repeats dropped:
    /// active regular items or notes of that library.
    fn initial_members(
        &self,
        op: &str,
        request: &Value,
        library_id: u64,
    ) -> Result<Vec<PortableItemRef>, HostError> {
        let refs = match request.get("initialMemberRefs") {
            None => return Ok(Vec::new()),
            Some(Value::Array(refs)) => refs,
            Some(_) => return Err(canonical_refusal(Some("/initialMemberRefs"))),
        };
        let mut members: Vec<PortableItemRef> = Vec::with_capacity(refs.len());
        for (i, value) in refs.iter().enumerate() {
            let pointer = format!("/initialMemberRefs/{i}");
            let item = ref_at(&json!({"itemRef": value}), "itemRef")
                .map_err(|e| refusal_at(e, &pointer))?;
            if !members.contains(&item) {
                members.push(item);
            }
        }
        self.check_members(op, &members, library_id)?;
        Ok(members)
    }

    /// Checks the items a membership change names as the reference checks them:
    /// all of the collection's library, then each an active regular item or note.
    pub(super) fn check_members(
        &self,
        op: &str,
        members: &[PortableItemRef],
        library_id: u64,
    ) -> Result<(), HostError> {
        if members.iter().any(|m| m.library_id != library_id) {
            return Err(HostError::capability(
                "invalid_request",
                "collection membership targets must belong to one library",
                json!({"reason": "invalid_combination", "operation": op}),
            ));
        }
        for item in members {
            let record = self.item_record_or_note(op, item)?;
            if record.zotero.get().deleted {
                return Err(HostError::capability(
                    "invalid_request",
                    "collection membership targets must be active items",
                    json!({"reason": "invalid_value", "operation": op}),
                ));
            }
        }
        Ok(())
    }

    /// The regular item or note `item` names (an attachment or annotation is
    /// never a collection's member).
    pub(super) fn item_record_or_note(
        &self,
        op: &str,
        item: &PortableItemRef,
    ) -> Result<&super::record::Record, HostError> {
        let record = self.existing(op, item, "item")?;
        match record.kind.unwrap_or(DetailKind::Regular) {
            DetailKind::Regular | DetailKind::Note => Ok(record),
            _ => Err(HostError::capability(
                "invalid_ref",
                "collection membership targets must be regular items or notes",
                json!({"kind": "item", "reason": "wrong_kind"}),
            )),
        }
    }

    /// `collection.update`: its `patch` gives a new name, a new parent (`null`: the
    /// library's root), or both; a parent of another library, the collection
    /// itself or one under it is refused.
    fn collection_update(
        &self,
        op: &str,
        request: &Value,
        prepared: &mut Prepared,
    ) -> Result<(), HostError> {
        closed(request, &["collectionRef", "patch"])?;
        let before = self.existing_collection(op, request, "collectionRef")?;
        let Some(patch) = request.get("patch").filter(|p| p.is_object()) else {
            return Err(canonical_refusal(Some("/patch")));
        };
        if let Some(extra) = patch.as_object().and_then(|p| {
            p.keys()
                .find(|k| !["name", "parentRef"].contains(&k.as_str()))
        }) {
            return Err(canonical_refusal(Some(&format!("/patch/{extra}"))));
        }
        let mut after = before.clone();
        if let Some(name) = patch.get("name") {
            after.name = collection_name(op, Some(name), "patch.name")?;
        }
        match patch.get("parentRef") {
            None => {}
            Some(Value::Null) => after.parent = None,
            Some(value) => after.parent = Some(self.new_parent(op, &before, value)?),
        }
        let members = self.members_of_collection(&before);
        let (from, to) = (
            self.collection_revision(&before, &members),
            self.collection_revision(&after, &members),
        );
        prepared.result = json!({"collection": Self::collection_result(&after, &to)});
        prepared.put_collection(Some((&before, from)), after, to);
        Ok(())
    }

    /// The parent `value` names for `collection`: of its library, neither it nor
    /// one of its descendants.
    fn new_parent(
        &self,
        op: &str,
        collection: &Collection,
        value: &Value,
    ) -> Result<PortableItemRef, HostError> {
        let parent = ref_at(&json!({"collectionRef": value}), "collectionRef")
            .map_err(|e| refusal_at(e, "/patch/parentRef"))?;
        let refuse = |message: &str| {
            HostError::capability(
                "invalid_request",
                message,
                json!({"reason": "invalid_combination", "field": "patch.parentRef", "operation": op}),
            )
        };
        if parent.library_id != collection.reference.library_id {
            return Err(refuse("collection parent must belong to the same library"));
        }
        let found =
            self.existing_collection(op, &json!({"collectionRef": value}), "collectionRef")?;
        let mut ancestor = Some(found.reference.clone());
        while let Some(at) = ancestor {
            if at == collection.reference {
                return Err(refuse("collection parent would create a cycle"));
            }
            ancestor = self.collection(&at).and_then(|c| c.parent.clone());
        }
        Ok(found.reference)
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

/// `request[name]` of `collection.updateMembership`: a list of item refs, repeats
/// dropped.
pub(super) fn member_refs(request: &Value, name: &str) -> Result<Vec<PortableItemRef>, HostError> {
    let Some(Value::Array(values)) = request.get(name) else {
        return Err(canonical_refusal(Some(&format!("/{name}"))));
    };
    let mut refs: Vec<PortableItemRef> = Vec::with_capacity(values.len());
    for (i, value) in values.iter().enumerate() {
        let item = ref_at(&json!({"itemRef": value}), "itemRef")
            .map_err(|e| refusal_at(e, &format!("/{name}/{i}")))?;
        if !refs.contains(&item) {
            refs.push(item);
        }
    }
    Ok(refs)
}

/// A collection's name (`field` of the request): trimmed, not blank.
fn collection_name(op: &str, value: Option<&Value>, field: &str) -> Result<String, HostError> {
    let Some(name) = value.and_then(Value::as_str) else {
        return Err(canonical_refusal(Some(&format!(
            "/{}",
            field.replace('.', "/")
        ))));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(HostError::capability(
            "invalid_request",
            "collection name is required",
            json!({"reason": "invalid_value", "field": field, "operation": op}),
        ));
    }
    Ok(name.to_owned())
}

/// A schema refusal of a ref found inside a request names where it was found.
fn refusal_at(error: HostError, pointer: &str) -> HostError {
    if error.fields["code"] == "invalid_request" {
        canonical_refusal(Some(pointer))
    } else {
        error
    }
}
