//! The preview of `item.changeType`, worked out from the item and the target
//! type without preparing the write: the reference previews a conversion that its
//! write refuses (`reject` with fields the type lacks) or that this host's write
//! does not simulate (`drop`).

use serde_json::{Map, Value, json};

use super::super::super::HostWorld;
use super::super::super::dto::digest;
use super::super::super::record::DetailKind;
use super::super::super::zotero::fields_of;
use super::super::{closed, ref_at, text_at};
use super::{Planned, set};
use crate::host::HostError;
use crate::host::members::request::canonical_refusal;

/// An item's fields converted to another type, as `incompatibleData` says.
struct Conversion {
    /// The fields the target type has.
    preserved: Map<String, Value>,
    /// `{source, serializedLine}` of each field moved to `extra`.
    moved: Vec<Value>,
    /// `{kind: "field", field, value}` of each field dropped.
    dropped: Vec<Value>,
    /// The fields the converted item has.
    result_fields: Map<String, Value>,
}

impl Conversion {
    /// Converts `fields` to a type that has the `accepted` fields: a field the
    /// type lacks is moved to `extra` (`move_to_extra`, as a `<field>: <value>`
    /// line) or dropped (`drop`); `reject` lists it nowhere.
    fn of(fields: &Map<String, Value>, accepted: &[String], policy: &str) -> Conversion {
        let mut preserved = Map::new();
        let mut incompatible = Vec::new();
        for (field, value) in fields {
            let text = value
                .as_str()
                .map_or_else(|| value.to_string(), str::to_owned);
            if accepted.iter().any(|f| f == field) {
                preserved.insert(field.clone(), text.into());
            } else {
                incompatible.push(json!({"kind": "field", "field": field, "value": text}));
            }
        }
        let moved: Vec<Value> = match policy {
            "move_to_extra" => incompatible.iter().map(moved_to_extra).collect(),
            _ => Vec::new(),
        };
        let mut result_fields = preserved.clone();
        if !moved.is_empty() {
            let extra = preserved.get("extra").and_then(Value::as_str);
            let lines = moved.iter().filter_map(|m| m["serializedLine"].as_str());
            let joined: Vec<&str> = extra
                .into_iter()
                .chain(lines)
                .filter(|l| !l.is_empty())
                .collect();
            result_fields.insert("extra".into(), joined.join("\n").into());
        }
        Conversion {
            preserved,
            moved,
            dropped: if policy == "drop" {
                incompatible
            } else {
                Vec::new()
            },
            result_fields,
        }
    }
}

/// `{source, serializedLine: "<field>: <value>"}` of a field moved to `extra`.
fn moved_to_extra(source: &Value) -> Value {
    let line = format!(
        "{}: {}",
        source["field"].as_str().unwrap_or_default(),
        source["value"].as_str().unwrap_or_default()
    );
    json!({"source": source, "serializedLine": line})
}

impl HostWorld {
    /// The preview of `item.changeType`: `{itemRef, sourceItemType, targetItemType,
    /// incompatibleData, remappedFields, movedToExtra, dropped}`, unchanged when the
    /// item already has the type. The digest covers the reference's private plan:
    /// the public one with the item's revision, fields and creators before and
    /// after.
    pub(super) fn change_type_preview(&self, request: &Value) -> Result<Planned, HostError> {
        let op = "item.changeType";
        closed(request, &["itemRef", "targetItemType", "incompatibleData"])?;
        let reference = ref_at(request, "itemRef")?;
        let policy = match text_at(request, "/incompatibleData") {
            Some(policy @ ("reject" | "move_to_extra" | "drop")) => policy,
            _ => return Err(canonical_refusal(Some("/incompatibleData"))),
        };
        let target = text_at(request, "/targetItemType")
            .filter(|t| !t.is_empty())
            .ok_or_else(|| canonical_refusal(Some("/targetItemType")))?
            .trim();
        let record = self.of_kind(op, &reference, DetailKind::Regular)?;
        let accepted = fields_of(target)
            .filter(|_| !matches!(target, "note" | "attachment" | "annotation"))
            .ok_or_else(|| {
                HostError::capability(
                    "invalid_request",
                    "target item type is invalid",
                    json!({"reason": "unsupported_value", "field": "targetItemType", "operation": op}),
                )
            })?;
        let zotero = record.zotero.get();
        let conversion = Conversion::of(&zotero.fields, accepted, policy);
        let plan = json!({"itemRef": reference.to_value(), "sourceItemType": record.item_type,
            "targetItemType": target, "incompatibleData": policy, "remappedFields": [],
            "movedToExtra": conversion.moved, "dropped": conversion.dropped});
        let creators: Vec<Value> = zotero.creators.iter().map(|c| c.canonical()).collect();
        let mut private = plan.clone();
        for (key, member) in [
            ("sourceRevision", record.revision().into()),
            ("preservedFields", conversion.preserved.into()),
            ("preservedCreators", creators.clone().into()),
            ("resultFields", conversion.result_fields.into()),
            ("resultCreators", creators.into()),
        ] {
            set(&mut private, key, member);
        }
        let semantic = json!({"operation": op, "itemRef": reference.to_value(),
            "targetItemType": target, "incompatibleData": policy});
        Ok(Planned {
            digest: digest(&json!({"operation": op, "semanticInput": semantic, "plan": private})),
            changed: record.item_type.as_deref() != Some(target),
            plan,
        })
    }
}
