//! `item.addRelated` / `item.removeRelated`: related items, kept as Zotero keeps
//! them, a `dc:relation` item URI on each side.

use serde_json::{Map, Value, json};

use super::super::HostWorld;
use super::super::record::Record;
use super::{Prepared, closed, ref_at, state_of};
use crate::host::HostError;
use crate::host::members::request::{canonical_refusal, portable_ref};
use crate::selection::PortableItemRef;

/// Most distinct items one relation write names.
const MAX_RELATED: usize = 100;

/// Zotero's predicate of related items.
const RELATION: &str = "dc:relation";

/// The URI Zotero gives an item in its relations: the local user library's for
/// library 1, a group library's for the others.
pub(super) fn item_uri(reference: &PortableItemRef) -> String {
    if reference.library_id == 1 {
        format!(
            "http://zotero.org/users/local/hookrun/items/{}",
            reference.key
        )
    } else {
        format!(
            "http://zotero.org/groups/{}/items/{}",
            reference.library_id, reference.key
        )
    }
}

/// The key a relation URI points at.
fn key_of(uri: &str) -> Option<&str> {
    uri.rsplit_once("/items/").map(|(_, key)| key)
}

/// Puts (`add`) or takes (`!add`) the relation of `record` to `other`; whether it
/// was there before.
fn relate(record: &mut Record, other: &PortableItemRef, add: bool) -> bool {
    let relations: &mut Map<String, Value> = &mut record.zotero.get_mut().relations;
    let mut uris: Vec<Value> = match relations.remove(RELATION) {
        Some(Value::Array(list)) => list,
        Some(Value::String(uri)) => vec![Value::String(uri)],
        _ => Vec::new(),
    };
    let points = |v: &Value| v.as_str().and_then(key_of) == Some(other.key.as_str());
    let present = uris.iter().any(points);
    if add && !present {
        uris.push(item_uri(other).into());
    } else if !add {
        uris.retain(|v| !points(v));
    }
    if !uris.is_empty() {
        relations.insert(RELATION.into(), Value::Array(uris));
    }
    present
}

/// An invalid relation request: `reason` on `field`.
fn refused(op: &str, message: &str, reason: &str, field: &str) -> HostError {
    HostError::capability(
        "invalid_request",
        message,
        json!({"reason": reason, "field": field, "operation": op}),
    )
}

/// `relatedRefs`: a list of canonical refs, not empty, at most [`MAX_RELATED`]
/// distinct ones (repeats dropped), each a portable item ref.
fn related_refs(op: &str, request: &Value) -> Result<Vec<PortableItemRef>, HostError> {
    let Some(Value::Array(values)) = request.get("relatedRefs") else {
        return Err(canonical_refusal(Some("/relatedRefs")));
    };
    let mut refs: Vec<PortableItemRef> = Vec::with_capacity(values.len());
    for (i, value) in values.iter().enumerate() {
        ref_at(&json!({"itemRef": value}), "itemRef")
            .map_err(|_| canonical_refusal(Some(&format!("/relatedRefs/{i}"))))?;
        let reference = portable_ref(value, "item")?;
        if !refs.contains(&reference) {
            refs.push(reference);
        }
    }
    if refs.is_empty() {
        return Err(refused(
            op,
            "relatedRefs must not be empty",
            "missing_field",
            "relatedRefs",
        ));
    }
    if refs.len() > MAX_RELATED {
        return Err(HostError::capability(
            "resource_limited",
            "relatedRefs exceeds the target limit",
            json!({"resource": "entries", "limit": MAX_RELATED, "observed": refs.len()}),
        ));
    }
    Ok(refs)
}

impl HostWorld {
    /// The items `refs` name as related to `source`: other items of its library,
    /// active.
    fn related_records(
        &self,
        op: &str,
        source: &PortableItemRef,
        refs: &[PortableItemRef],
    ) -> Result<Vec<&Record>, HostError> {
        let mut records = Vec::with_capacity(refs.len());
        for reference in refs {
            if reference == source {
                let message = "related item endpoints must be distinct";
                return Err(refused(op, message, "invalid_combination", "relatedRefs"));
            }
            if reference.library_id != source.library_id {
                let message = "related item endpoints must belong to one library";
                return Err(refused(op, message, "invalid_combination", "relatedRefs"));
            }
            let record = self.existing(op, reference, "item")?;
            if state_of(record) != "active" {
                let message = "related item is deleted or trashed";
                return Err(refused(op, message, "invalid_value", "relatedRefs"));
            }
            records.push(record);
        }
        Ok(records)
    }

    /// `item.addRelated` (`add`) / `item.removeRelated`: each named item becomes
    /// (stops being) related to the source, on both sides.
    pub(super) fn item_relate(
        &self,
        op: &str,
        request: &Value,
        add: bool,
    ) -> Result<Prepared, HostError> {
        closed(request, &["sourceRef", "relatedRefs"])?;
        let source_ref = ref_at(request, "sourceRef")?;
        let refs = related_refs(op, request)?;
        let source = self.existing(op, &source_ref, "item")?;
        if state_of(source) != "active" {
            let message = "source item is deleted or trashed";
            return Err(refused(op, message, "invalid_value", "sourceRef"));
        }
        let related = self.related_records(op, &source_ref, &refs)?;
        let mut after = source.clone();
        let mut relations = Vec::with_capacity(refs.len());
        let mut others = Vec::new();
        for (reference, record) in refs.iter().zip(&related) {
            let was = relate(&mut after, reference, add);
            let outcome = match (add, was) {
                (true, true) => "already_present",
                (true, false) => "added",
                (false, true) => "removed",
                (false, false) => "already_absent",
            };
            relations.push(json!({"relatedRef": reference.to_value(), "outcome": outcome}));
            let mut other = (*record).clone();
            relate(&mut other, &source_ref, add);
            if other != **record {
                others.push((*record, other));
            }
        }
        let (mut prepared, after) = Prepared::update(op, source, after);
        for (before, other) in others {
            prepared.put(Some(before), other);
        }
        let refs: Vec<Value> = refs.iter().map(PortableItemRef::to_value).collect();
        prepared.plan = Some(
            json!({"sourceRef": source_ref.to_value(), "relatedRefs": refs,
            "relations": relations}),
        );
        prepared.result = json!({"sourceRef": source_ref.to_value(), "relatedRefs": refs,
            "relations": relations, "sourceRevision": after.revision()});
        Ok(prepared)
    }
}
