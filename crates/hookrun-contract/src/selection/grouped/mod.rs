//! The grouped SelectionContext shape, contract §1.2.

mod entry;
mod item;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};

pub(crate) use entry::EntryText;
pub use entry::GroupedEntry;
pub use item::ItemBase;

use super::error::SelectionError;
use super::json::{Obj, Read, as_array, as_object, child, index};
use super::refs::{ItemKind, SelectionCounts};
use super::stream::ReadEntries;

/// The last component of a `/` or `\` separated path.
pub fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// A grouped SelectionContext.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GroupedSelection {
    /// `selectionType` as given (recomputed for scoped contexts).
    pub selection_type: String,
    /// `items.parents`.
    pub parents: Vec<GroupedEntry>,
    /// `items.children`.
    pub children: Vec<GroupedEntry>,
    /// `items.attachments`.
    pub attachments: Vec<GroupedEntry>,
    /// `items.notes`.
    pub notes: Vec<GroupedEntry>,
    /// `warnings`.
    pub warnings: Vec<String>,
    /// `sampledAt`.
    pub sampled_at: String,
    /// `exportCandidates` (planner-scoped contexts only).
    pub export_candidates: Option<Vec<Value>>,
    /// `digestRepresentativeImageTarget` (planner-scoped contexts only; boxed,
    /// so that the many contexts without one stay small).
    pub digest_representative_image_target: Option<Box<Value>>,
}

impl GroupedSelection {
    /// The array of `kind`.
    pub fn entries(&self, kind: ItemKind) -> &[GroupedEntry] {
        match kind {
            ItemKind::Parent => &self.parents,
            ItemKind::Child => &self.children,
            ItemKind::Attachment => &self.attachments,
            ItemKind::Note => &self.notes,
        }
    }

    /// The mutable array of `kind`.
    pub fn entries_mut(&mut self, kind: ItemKind) -> &mut Vec<GroupedEntry> {
        match kind {
            ItemKind::Parent => &mut self.parents,
            ItemKind::Child => &mut self.children,
            ItemKind::Attachment => &mut self.attachments,
            ItemKind::Note => &mut self.notes,
        }
    }

    /// Lengths of the four arrays.
    pub fn counts(&self) -> SelectionCounts {
        SelectionCounts::of_kinds(
            ItemKind::ALL
                .into_iter()
                .flat_map(|k| std::iter::repeat_n(k, self.entries(k).len())),
        )
    }

    /// `selectionType` derived from the arrays: `none`, the single kind, or `mixed`.
    pub fn computed_selection_type(&self) -> &'static str {
        let present: Vec<ItemKind> = ItemKind::ALL
            .into_iter()
            .filter(|k| !self.entries(*k).is_empty())
            .collect();
        match present.as_slice() {
            [] => "none",
            [one] => one.as_str(),
            _ => "mixed",
        }
    }

    /// Reads a grouped context from `value`, an object whose `items` is an
    /// object, consuming it: each entry's JSON is let go as soon as the entry
    /// is read, so the whole selection is never held twice.
    pub(crate) fn parse_owned(mut value: Value) -> Read<Self> {
        // Each array is moved out, leaving an empty one in its place, and read
        // up to its first error, reported where the borrowed reading would.
        let mut read: ReadEntries = Vec::new();
        if let Some(Value::Object(items)) = value.get_mut("items") {
            for kind in ItemKind::ALL {
                if let Some(Value::Array(list)) = items.get_mut(kind.array_name()) {
                    let ptr = child(&child("", "items"), kind.array_name());
                    let entries = std::mem::take(list)
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| GroupedEntry::parse(kind, &v, &index(&ptr, i)))
                        .collect();
                    read.push((kind, entries));
                }
            }
        }
        Self::parse_read(as_object(&value, "")?, read)
    }

    /// Reads a grouped context from an object whose `items` is an object.
    pub(crate) fn parse(obj: Obj<'_>) -> Read<Self> {
        Self::parse_read(obj, Vec::new())
    }

    /// [`parse`](Self::parse), taking the arrays in `read` as already read
    /// (`obj` holds empty arrays in their place).
    pub(crate) fn parse_read(obj: Obj<'_>, mut read: ReadEntries) -> Read<Self> {
        obj.closed(&[
            "selectionType",
            "items",
            "summary",
            "warnings",
            "sampledAt",
            "exportCandidates",
            "digestRepresentativeImageTarget",
        ])?;
        let items_ptr = child(obj.ptr, "items");
        let items = as_object(obj.required("items")?, &items_ptr)?;
        items.closed(&["parents", "children", "attachments", "notes"])?;
        let mut selection = Self {
            warnings: obj.opt_strings("warnings")?,
            sampled_at: obj.req_str("sampledAt")?.to_owned(),
            export_candidates: match obj.get("exportCandidates") {
                None => None,
                Some(v) => Some(as_array(v, &child(obj.ptr, "exportCandidates"))?.clone()),
            },
            digest_representative_image_target: obj
                .get("digestRepresentativeImageTarget")
                .cloned()
                .map(Box::new),
            ..Self::default()
        };
        for kind in ItemKind::ALL {
            let ptr = child(&items_ptr, kind.array_name());
            let list = as_array(items.required(kind.array_name())?, &ptr)?;
            *selection.entries_mut(kind) = match read.iter().position(|(k, _)| *k == kind) {
                Some(at) => read.swap_remove(at).1?,
                None => list
                    .iter()
                    .enumerate()
                    .map(|(i, v)| GroupedEntry::parse(kind, v, &index(&ptr, i)))
                    .collect::<Read<_>>()?,
            };
        }
        if let Some(summary) = obj.opt_obj("summary")? {
            let summary_ptr = child(obj.ptr, "summary");
            let summary = Obj {
                map: summary,
                ptr: &summary_ptr,
            };
            for key in ["parentCount", "childCount", "attachmentCount", "noteCount"] {
                if summary.opt_int(key)?.is_some_and(|n| n < 0) {
                    return Err(SelectionError::invalid(
                        &child(&summary_ptr, key),
                        "expected an integer ≥ 0",
                    ));
                }
            }
        }
        selection.selection_type = match obj.opt_str("selectionType")? {
            Some(t) => t.to_owned(),
            None => selection.computed_selection_type().to_owned(),
        };
        Ok(selection)
    }

    /// The JSON form; `summary` is recomputed from the arrays.
    pub fn to_value(&self) -> Value {
        let counts = self.counts();
        let mut items = Map::new();
        for kind in ItemKind::ALL {
            let list = self
                .entries(kind)
                .iter()
                .map(|e| Value::Object(e.to_map()))
                .collect();
            items.insert(kind.array_name().into(), Value::Array(list));
        }
        let mut m = Map::new();
        m.insert("selectionType".into(), self.selection_type.clone().into());
        m.insert("items".into(), Value::Object(items));
        m.insert(
            "summary".into(),
            json!({"parentCount": counts.parents, "childCount": counts.children,
                   "attachmentCount": counts.attachments, "noteCount": counts.notes}),
        );
        m.insert("warnings".into(), json!(self.warnings));
        m.insert("sampledAt".into(), self.sampled_at.clone().into());
        if let Some(list) = &self.export_candidates {
            m.insert("exportCandidates".into(), Value::Array(list.clone()));
        }
        if let Some(target) = &self.digest_representative_image_target {
            m.insert("digestRepresentativeImageTarget".into(), (**target).clone());
        }
        Value::Object(m)
    }
}

/// The JSON of [`GroupedSelection::to_value`], written without building it:
/// the entries' own JSON is serialised where it lies.
impl Serialize for GroupedSelection {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GroupedParts {
            selection_type: &self.selection_type,
            entries: ItemKind::ALL.map(|kind| self.entries(kind)),
            warnings: &self.warnings,
            sampled_at: &self.sampled_at,
            export_candidates: self.export_candidates.as_deref(),
            digest_representative_image_target: self.digest_representative_image_target.as_deref(),
        }
        .serialize(serializer)
    }
}

/// The members of a grouped context, borrowed from wherever they are kept,
/// written as [`GroupedSelection`] writes them.
pub(crate) struct GroupedParts<'a> {
    /// `selectionType`.
    pub selection_type: &'a str,
    /// The four arrays, in [`ItemKind::ALL`] order.
    pub entries: [&'a [GroupedEntry]; 4],
    /// `warnings`.
    pub warnings: &'a [String],
    /// `sampledAt`.
    pub sampled_at: &'a str,
    /// `exportCandidates`.
    pub export_candidates: Option<&'a [Value]>,
    /// `digestRepresentativeImageTarget`.
    pub digest_representative_image_target: Option<&'a Value>,
}

impl Serialize for GroupedParts<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Items<'a>(&'a [&'a [GroupedEntry]; 4]);
        impl Serialize for Items<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(ItemKind::ALL.len()))?;
                for (kind, entries) in ItemKind::ALL.iter().zip(self.0) {
                    map.serialize_entry(kind.array_name(), entries)?;
                }
                map.end()
            }
        }
        let counts = SelectionCounts::of_kinds(
            ItemKind::ALL
                .iter()
                .zip(&self.entries)
                .flat_map(|(kind, entries)| std::iter::repeat_n(*kind, entries.len())),
        );
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("selectionType", self.selection_type)?;
        map.serialize_entry("items", &Items(&self.entries))?;
        map.serialize_entry(
            "summary",
            &json!({"parentCount": counts.parents, "childCount": counts.children,
                    "attachmentCount": counts.attachments, "noteCount": counts.notes}),
        )?;
        map.serialize_entry("warnings", self.warnings)?;
        map.serialize_entry("sampledAt", self.sampled_at)?;
        if let Some(list) = self.export_candidates {
            map.serialize_entry("exportCandidates", list)?;
        }
        if let Some(target) = self.digest_representative_image_target {
            map.serialize_entry("digestRepresentativeImageTarget", target)?;
        }
        map.end()
    }
}
