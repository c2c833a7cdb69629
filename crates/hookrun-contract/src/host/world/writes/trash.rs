//! `trash.setItemsState`: items moved to the trash or restored from it, as the
//! reference host's trash plans it. A trashed item reads `state: "trashed"` and
//! leaves the listings; restoring a regular item (none of its children named)
//! restores its trashed notes and attachments too.

use std::collections::HashSet;

use serde_json::{Value, json};

use super::super::HostWorld;
use super::super::record::{DetailKind, Record};
use super::{Prepared, closed, state_of};
use crate::host::HostError;
use crate::host::members::request::canonical_refusal;
use crate::plan::ItemLocator;
use crate::selection::PortableItemRef;

/// Most items one trash write names, and most it changes.
const MAX_TRASH_TARGETS: usize = 100;

/// The refusal of a trash scope (`reason`: `invalid_value`, `invalid_combination`,
/// `duplicate_value`).
fn invalid_scope(reason: &str) -> HostError {
    HostError::capability(
        "invalid_request",
        "Invalid Trash target scope",
        json!({"reason": reason, "field": "itemRefs"}),
    )
}

fn bounded(count: usize) -> Result<(), HostError> {
    if count > MAX_TRASH_TARGETS {
        return Err(HostError::capability(
            "resource_limited",
            "Trash target scope exceeds its limit",
            json!({"resource": "items", "limit": MAX_TRASH_TARGETS, "observed": count}),
        ));
    }
    Ok(())
}

/// Whether `key` is a Zotero key: eight capitals and digits.
fn is_key(key: &str) -> bool {
    key.len() == 8
        && key
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// The refs a trash write names, checked before any is looked up: at least one,
/// at most [`MAX_TRASH_TARGETS`], portable, of one library, none twice.
fn scope_refs(request: &Value) -> Result<Vec<PortableItemRef>, HostError> {
    let Some(Value::Array(values)) = request.get("itemRefs") else {
        return Err(canonical_refusal(Some("/itemRefs")));
    };
    if values.is_empty() {
        return Err(invalid_scope("invalid_value"));
    }
    bounded(values.len())?;
    let mut refs: Vec<PortableItemRef> = Vec::with_capacity(values.len());
    for value in values {
        let library_id = value
            .get("libraryId")
            .and_then(Value::as_u64)
            .filter(|id| *id >= 1);
        let key = value
            .get("key")
            .and_then(Value::as_str)
            .filter(|k| is_key(k));
        let (Some(library_id), Some(key)) = (library_id, key) else {
            return Err(invalid_scope("invalid_value"));
        };
        if refs
            .first()
            .is_some_and(|first| first.library_id != library_id)
        {
            return Err(invalid_scope("invalid_combination"));
        }
        let reference = PortableItemRef {
            library_id,
            key: key.into(),
        };
        if refs.contains(&reference) {
            return Err(invalid_scope("duplicate_value"));
        }
        refs.push(reference);
    }
    Ok(refs)
}

impl HostWorld {
    /// A trash target: an item of the library that is not an annotation.
    fn trash_target(&self, reference: &PortableItemRef) -> Result<&Record, HostError> {
        let record = self
            .find(&ItemLocator::Ref(reference.clone()))
            .ok_or_else(|| {
                HostError::capability(
                    "not_found",
                    "Trash target is unavailable",
                    json!({"kind": "item"}),
                )
            })?;
        if record.kind == Some(DetailKind::Annotation) {
            return Err(invalid_scope("invalid_combination"));
        }
        Ok(record)
    }

    /// The items a restore adds: the trashed notes and attachments of each named
    /// regular item none of whose children is named.
    fn restored_children<'a>(&'a self, named: &[&'a Record]) -> Vec<&'a Record> {
        let named_refs: Vec<&PortableItemRef> =
            named.iter().filter_map(|r| r.reference.as_ref()).collect();
        let mut added = Vec::new();
        for parent in named {
            if parent.kind.unwrap_or(DetailKind::Regular) != DetailKind::Regular {
                continue;
            }
            let children: Vec<&Record> = self
                .child_records(parent)
                .filter(|c| matches!(c.kind, Some(DetailKind::Note | DetailKind::Attachment)))
                .collect();
            let child_named = children.iter().any(|c| {
                c.reference
                    .as_ref()
                    .is_some_and(|r| named_refs.contains(&r))
            });
            if !child_named {
                added.extend(children.into_iter().filter(|c| c.zotero.get().deleted));
            }
        }
        added
    }

    /// `trash.setItemsState`: the named items (and, restoring, their trashed
    /// children) take `state`; an item already in that state is left as it is.
    pub(super) fn trash_state(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        closed(request, &["itemRefs", "state"])?;
        let state = match request.get("state").and_then(Value::as_str) {
            Some(state @ ("trashed" | "active")) => state,
            _ if !matches!(request.get("itemRefs"), Some(Value::Array(_))) => {
                return Err(canonical_refusal(Some("/itemRefs")));
            }
            _ => return Err(canonical_refusal(Some("/state"))),
        };
        let refs = scope_refs(request)?;
        let named = refs
            .iter()
            .map(|r| self.trash_target(r))
            .collect::<Result<Vec<_>, _>>()?;
        let mut expanded = named.clone();
        if state == "active" {
            expanded.extend(self.restored_children(&named));
        }
        let mut seen = HashSet::new();
        let targets: Vec<&Record> = expanded
            .into_iter()
            .filter(|r| seen.insert(r.reference.clone()) && state_of(r) != state)
            .collect();
        bounded(targets.len())?;
        let mut prepared = Prepared::new(op);
        let effect = if state == "trashed" {
            "trashed"
        } else {
            "updated"
        };
        for target in &targets {
            let mut after = (*target).clone();
            after.zotero.get_mut().deleted = state == "trashed";
            prepared.put_as(Some(target), after, effect);
        }
        let refs_of = |list: &[&Record]| -> Vec<Value> {
            list.iter()
                .filter_map(|r| r.reference.as_ref().map(PortableItemRef::to_value))
                .collect()
        };
        prepared.result = json!({"state": state, "explicitRefs": refs_of(&named),
            "expandedRefs": refs_of(&targets)});
        prepared.plan = Some(prepared.result.clone());
        Ok(prepared)
    }
}
