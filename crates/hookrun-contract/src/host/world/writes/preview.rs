//! `mutations.preview`: what executing a canonical mutation would do, worked out
//! from the request and the world without changing either, answered as the
//! reference host answers it: `{schema, operation, outcome, observedAt,
//! domainPlanDigest, plan}`, no token and no revision.
//!
//! The request is first prepared as `mutations.execute` would prepare it, so a
//! preview refuses what the write refuses. Then, by operation:
//! - related items, the trash, permanent removals and ingests answer the plan
//!   their write works out, with the reference's digest of it;
//! - `item.changeType` answers its conversion plan ([`change_type`], worked out
//!   without preparing the write);
//! - every other operation answers `{operation, targets, ...domain plan}`:
//!   `targets` are the existing entities the request names (its observations,
//!   each with its current `state`), the domain plan is the operation's own
//!   ([`plans`]), and the digest covers the request, the observations and the
//!   plan, so that it changes when any of them does.

#[path = "preview_change_type.rs"]
mod change_type;
#[path = "preview_plans.rs"]
mod plans;

use serde_json::{Map, Value, json};

use super::super::HostWorld;
use super::super::collections::Collection;
use super::super::dto::digest;
use super::super::record::DetailKind;
use super::{Keys, Prepared, StoredFile, item_version, ref_at, text_at};
use crate::host::HostError;
use crate::host::members::Member;
use crate::manifest::collate::locale_cmp;
use crate::plan::ItemLocator;
use crate::selection::PortableItemRef;

/// What the run's files say about a file a write would store: the size of the
/// file to store, and whether the library already keeps the same bytes where the
/// write would put them.
pub type StoredFacts<'a> = &'a dyn Fn(&StoredFile) -> Result<(u64, bool), HostError>;

/// The schema of a preview.
const SCHEMA: &str = "zotero-agents.mutation-preview.v1";

/// The managed-note operations and the note kind each writes.
const MANAGED_KINDS: &[(&str, &str)] = &[
    ("managed_note.write_custom", "custom"),
    ("managed_note.write_conversation", "conversation-note"),
    ("literature_artifact.upsert_digest", "digest"),
    ("literature_artifact.upsert_references", "references"),
    (
        "literature_artifact.upsert_citation_analysis",
        "citation-analysis",
    ),
    ("literature_artifact.upsert_score", "literature-score"),
];

/// A preview worked out: its plan, whether the write would change anything, and
/// the digest of what the plan was worked out from.
struct Planned {
    plan: Value,
    changed: bool,
    digest: String,
}

/// The refusal of an operation `mutations.preview` has no plan for.
fn no_domain_plan(operation: &str) -> HostError {
    HostError::capability(
        "unsupported_operation",
        "mutation preview has no domain plan",
        json!({"memberOrOperation": operation}),
    )
}

/// Sets `key` of `value` when it is an object.
fn set(value: &mut Value, key: &str, member: Value) {
    if let Some(object) = value.as_object_mut() {
        object.insert(key.into(), member);
    }
}

/// One observation: `{entity: {kind, ref}, version}`.
fn observation(kind: &str, reference: &PortableItemRef, version: Value) -> Value {
    json!({"entity": {"kind": kind, "ref": reference.to_value()}, "version": version})
}

/// The refs a request names, each once, in the order named.
#[derive(Default)]
struct Named {
    items: Vec<PortableItemRef>,
    collections: Vec<PortableItemRef>,
}

/// Adds the ref `value` of a `field` (`itemRef`, `collectionRef`) to `list` once
/// (nothing when it is absent or null).
fn add_ref(
    list: &mut Vec<PortableItemRef>,
    field: &str,
    value: Option<&Value>,
) -> Result<(), HostError> {
    if let Some(value) = value.filter(|v| !v.is_null()) {
        let reference = ref_at(&json!({field: value}), field)?;
        if !list.contains(&reference) {
            list.push(reference);
        }
    }
    Ok(())
}

impl Named {
    /// Adds the item ref `value`.
    fn item(&mut self, value: Option<&Value>) -> Result<(), HostError> {
        add_ref(&mut self.items, "itemRef", value)
    }

    /// Adds each item ref of the list `values`.
    fn items(&mut self, values: Option<&Value>) -> Result<(), HostError> {
        for value in values.and_then(Value::as_array).into_iter().flatten() {
            self.item(Some(value))?;
        }
        Ok(())
    }

    /// Adds the collection ref `value`.
    fn collection(&mut self, value: Option<&Value>) -> Result<(), HostError> {
        add_ref(&mut self.collections, "collectionRef", value)
    }

    /// Adds each collection ref of the list `values`.
    fn collections(&mut self, values: Option<&Value>) -> Result<(), HostError> {
        for value in values.and_then(Value::as_array).into_iter().flatten() {
            self.collection(Some(value))?;
        }
        Ok(())
    }

    /// Adds what a note's or attachment's `placement` names: the parent item of a
    /// child, the collections of a top-level one.
    fn placement(&mut self, placement: &Value) -> Result<(), HostError> {
        if placement["kind"] == "child" {
            return self.item(placement.get("parentRef"));
        }
        self.collections(placement.get("collectionRefs"))
    }
}

impl HostWorld {
    /// `mutations.preview(request)` (a request without `operationId`) as of
    /// `observed_at`; items the write would create take keys from `keys`, files it
    /// would store are measured by `files`.
    pub fn preview_write(
        &self,
        request: &Value,
        keys: &mut Keys,
        files: StoredFacts<'_>,
        observed_at: &str,
    ) -> Result<Value, HostError> {
        let operation = text_at(request, "/operation").unwrap_or_default();
        let planned = if operation == "item.changeType" {
            self.change_type_preview(request)?
        } else {
            let mut with_id = request.clone();
            set(&mut with_id, "operationId", "preview".into());
            let prepared = self.prepare_write(Member::MutationsExecute, &with_id, keys)?;
            self.prepared_preview(operation, request, &prepared, files)?
        };
        Ok(json!({"schema": SCHEMA, "operation": operation,
            "outcome": if planned.changed { "would_change" } else { "unchanged" },
            "observedAt": observed_at, "domainPlanDigest": planned.digest, "plan": planned.plan}))
    }

    /// The preview of the prepared write of `op`.
    fn prepared_preview(
        &self,
        op: &str,
        request: &Value,
        prepared: &Prepared,
        files: StoredFacts<'_>,
    ) -> Result<Planned, HostError> {
        let own = || prepared.plan.clone().ok_or_else(|| no_domain_plan(op));
        let (plan, basis) = match op {
            "item.addRelated" | "item.removeRelated" => {
                let plan = own()?;
                let basis = json!({"operation": op, "input": request, "plan": plan});
                (plan, basis)
            }
            "trash.setItemsState" => {
                let plan = own()?;
                let input = json!({"itemRefs": request["itemRefs"], "state": request["state"]});
                let basis = json!({"operation": op, "input": input, "result": plan});
                (plan, basis)
            }
            "item.remove" | "collection.remove" => {
                let plan = own()?;
                let private = self.removal_basis(op, &plan);
                let basis = json!({"operation": op, "semanticInput": request, "plan": private});
                (plan, basis)
            }
            "literature.ingest" => {
                let plan = own()?;
                let observations = self.observations(op, request)?;
                let basis = json!({"operation": op, "input": request,
                    "observations": observations, "plan": plan});
                return Ok(Planned {
                    digest: digest(&basis),
                    changed: self.ingest_would_change(&plan),
                    plan,
                });
            }
            _ => return self.domain_preview(op, request, prepared, files),
        };
        Ok(Planned {
            digest: digest(&basis),
            plan,
            changed: prepared.changed,
        })
    }

    /// `{operation, targets, ...domain plan}` of an operation with a domain plan.
    fn domain_preview(
        &self,
        op: &str,
        request: &Value,
        prepared: &Prepared,
        files: StoredFacts<'_>,
    ) -> Result<Planned, HostError> {
        let observations = self.observations(op, request)?;
        let (domain, changed) = self.domain_plan(op, request, prepared, files)?;
        let targets: Vec<Value> = observations
            .iter()
            .map(|o| json!({"entity": o["entity"], "state": o["version"]["state"]}))
            .collect();
        let mut plan = Map::new();
        plan.insert("operation".into(), op.into());
        plan.insert("targets".into(), targets.into());
        if let Value::Object(domain) = domain {
            plan.extend(domain);
        }
        let plan = Value::Object(plan);
        let digest = digest(&json!({"operation": op, "semanticInput": request,
            "observations": observations, "plan": plan}));
        Ok(Planned {
            plan,
            changed,
            digest,
        })
    }

    /// The existing entities `request` names, each with its `{revision, state}`:
    /// items first, then collections, in the order of their JSON as the reference
    /// host sorts it (`localeCompare`).
    fn observations(&self, op: &str, request: &Value) -> Result<Vec<Value>, HostError> {
        let named = self.named(op, request)?;
        let mut observed = Vec::with_capacity(named.items.len() + named.collections.len());
        for reference in &named.items {
            let record = self.existing(op, reference, "item")?;
            observed.push(observation("item", reference, item_version(record)));
        }
        for reference in &named.collections {
            let field = json!({"collectionRef": reference.to_value()});
            let collection = self.existing_collection(op, &field, "collectionRef")?;
            let version = self.collection_version(&collection);
            observed.push(observation("collection", reference, version));
        }
        let mut keyed: Vec<(String, Value)> = observed
            .into_iter()
            .map(|o| (o["entity"].to_string(), o))
            .collect();
        keyed.sort_by(|a, b| locale_cmp(&a.0, &b.0));
        Ok(keyed.into_iter().map(|(_, o)| o).collect())
    }

    /// The refs of the entities the request of `op` names.
    fn named(&self, op: &str, request: &Value) -> Result<Named, HostError> {
        let mut named = Named::default();
        let at = |field: &str| request.get(field);
        match op {
            "item.updateMetadata" | "item.updateTags" | "statusTags.transition" => {
                named.item(at("itemRef"))?;
            }
            "item.create" => {
                named.items(at("initialRelatedRefs"))?;
                named.collections(at("collectionRefs"))?;
            }
            "collection.create" => {
                if request["placement"]["kind"] == "child" {
                    named.collection(request.pointer("/placement/parentRef"))?;
                }
                named.items(at("initialMemberRefs"))?;
            }
            "collection.update" => {
                named.collection(at("collectionRef"))?;
                named.collection(request.pointer("/patch/parentRef"))?;
            }
            "collection.updateMembership" => {
                named.collection(at("collectionRef"))?;
                named.items(at("add"))?;
                named.items(at("remove"))?;
            }
            "notes.create" | "attachments.create" => named.placement(&request["placement"])?,
            "notes.updateContent" | "notes.remove" | "notes.upsertPayload" => {
                named.item(at("noteRef"))?;
            }
            "attachments.updateMetadata" | "attachments.replaceFile" | "attachments.remove" => {
                named.item(at("attachmentRef"))?;
            }
            "attachments.move" => {
                named.item(at("attachmentRef"))?;
                named.placement(&request["placement"])?;
            }
            "literature.ingest" => named.collection(at("collectionRef"))?,
            _ => self.managed_named(op, request, &mut named)?,
        }
        Ok(named)
    }

    /// What a managed-note write names: its target (the parent it creates under or
    /// the note it updates); an artifact write its parent and the parent's notes.
    fn managed_named(&self, op: &str, request: &Value, named: &mut Named) -> Result<(), HostError> {
        if op.starts_with("managed_note.") {
            let target = request.pointer("/target/parentRef");
            return named.item(target.or_else(|| request.pointer("/target/noteRef")));
        }
        if !op.starts_with("literature_artifact.") {
            return Ok(());
        }
        named.item(request.get("parentRef"))?;
        let Some(parent) = named.items.first().cloned() else {
            return Ok(());
        };
        let notes = self
            .children_of(&ItemLocator::Ref(parent), DetailKind::Note)
            .unwrap_or_default();
        for note in notes {
            let reference = note.reference.as_ref().map(PortableItemRef::to_value);
            named.item(reference.as_ref())?;
        }
        Ok(())
    }

    /// A collection's `{revision, state}`: its revision covers its members.
    fn collection_version(&self, collection: &Collection) -> Value {
        let members = self.members_of_collection(collection);
        json!({"revision": self.collection_revision(collection, &members), "state": "active"})
    }

    /// The revision of the item `reference` (a ref value) names, else null.
    fn revision_at(&self, reference: &Value) -> Value {
        ref_at(&json!({"itemRef": reference}), "itemRef")
            .ok()
            .and_then(|r| self.find(&ItemLocator::Ref(r)))
            .map_or(Value::Null, |record| record.revision().into())
    }

    /// What the digest of a removal's preview covers: its plan with the revisions
    /// of everything it removes or detaches, as the reference's private plan has
    /// them, so that the digest changes when any of them does.
    fn removal_basis(&self, op: &str, plan: &Value) -> Value {
        let mut private = plan.clone();
        if op == "item.remove" {
            set(&mut private, "revision", self.revision_at(&plan["itemRef"]));
            for child in private["children"].as_array_mut().into_iter().flatten() {
                let revision = self.revision_at(&child["ref"]);
                set(child, "revision", revision);
            }
            return private;
        }
        let deleted = private["deletedCollections"].as_array_mut();
        for entry in deleted.into_iter().flatten() {
            let field = json!({"collectionRef": entry["ref"]});
            let revision = self
                .existing_collection(op, &field, "collectionRef")
                .map_or(Value::Null, |c| {
                    self.collection_version(&c)["revision"].clone()
                });
            set(entry, "revision", revision);
        }
        let detached = private["detachedMemberships"].as_array_mut();
        for entry in detached.into_iter().flatten() {
            let revision = self.revision_at(&entry["itemRef"]);
            set(entry, "itemRevision", revision);
        }
        private
    }
}

#[cfg(test)]
#[path = "preview_tests.rs"]
mod tests;
