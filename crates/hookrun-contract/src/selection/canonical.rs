//! The canonical (flat) SelectionContext shape, contract §1.1.

use serde_json::{Map, Value};

use super::error::SelectionError;
use super::json::{Obj, Read, as_array, as_object, child, index};
use super::refs::{ItemKind, PortableItemRef};

/// `fileState` of an attachment fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileState {
    /// The file exists locally.
    Available,
    /// The file is expected but absent.
    Missing,
    /// The item has no file.
    NotApplicable,
}

impl FileState {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Available => "available",
            Self::Missing => "missing",
            Self::NotApplicable => "not_applicable",
        }
    }

    /// Parses the contract spelling.
    pub fn parse(s: &str) -> Option<Self> {
        [Self::Available, Self::Missing, Self::NotApplicable]
            .into_iter()
            .find(|f| f.as_str() == s)
    }

    /// `available` when `exists`, else `missing`.
    pub fn from_exists(exists: bool) -> Self {
        if exists {
            Self::Available
        } else {
            Self::Missing
        }
    }
}

/// One `SelectionItemFact`.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemFact {
    /// `kind`.
    pub kind: ItemKind,
    /// `ref`.
    pub reference: PortableItemRef,
    /// `itemType`.
    pub item_type: String,
    /// `title`.
    pub title: Option<String>,
    /// `parentRef`.
    pub parent_ref: Option<PortableItemRef>,
    /// `filename`.
    pub filename: Option<String>,
    /// `contentType`.
    pub content_type: Option<String>,
    /// `createdAt`.
    pub created_at: Option<String>,
    /// `fileState` (attachments only).
    pub file_state: Option<FileState>,
}

const FACT_FIELDS: &[&str] = &[
    "kind",
    "ref",
    "itemType",
    "title",
    "parentRef",
    "filename",
    "contentType",
    "createdAt",
    "fileState",
];

impl ItemFact {
    /// The ref identity `"<libraryId>:<key>"`.
    pub fn identity(&self) -> String {
        self.reference.identity()
    }

    /// Reads a fact at `ptr`.
    pub fn parse(value: &Value, ptr: &str) -> Read<Self> {
        let obj = as_object(value, ptr)?;
        obj.closed(FACT_FIELDS)?;
        let kind_str = obj.req_str("kind")?;
        let kind = ItemKind::parse(kind_str).ok_or_else(|| {
            SelectionError::invalid(
                &child(ptr, "kind"),
                "expected one of parent, child, attachment, note",
            )
        })?;
        let file_state = match obj.opt_str("fileState")? {
            None => None,
            Some(s) => Some(FileState::parse(s).ok_or_else(|| {
                SelectionError::invalid(
                    &child(ptr, "fileState"),
                    "expected one of available, missing, not_applicable",
                )
            })?),
        };
        Ok(Self {
            kind,
            reference: PortableItemRef::parse(obj.required("ref")?, &child(ptr, "ref"))?,
            item_type: obj.req_str("itemType")?.to_owned(),
            title: obj.opt_str("title")?.map(str::to_owned),
            parent_ref: PortableItemRef::parse_member(&obj, "parentRef")?,
            filename: obj.opt_str("filename")?.map(str::to_owned),
            content_type: obj.opt_str("contentType")?.map(str::to_owned),
            created_at: obj.opt_str("createdAt")?.map(str::to_owned),
            file_state,
        })
    }

    /// The JSON form, fields in contract order, absent fields omitted.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("kind".into(), self.kind.as_str().into());
        m.insert("ref".into(), self.reference.to_value());
        m.insert("itemType".into(), self.item_type.clone().into());
        let optional = [
            ("title", self.title.clone().map(Value::from)),
            (
                "parentRef",
                self.parent_ref.as_ref().map(PortableItemRef::to_value),
            ),
            ("filename", self.filename.clone().map(Value::from)),
            ("contentType", self.content_type.clone().map(Value::from)),
            ("createdAt", self.created_at.clone().map(Value::from)),
            ("fileState", self.file_state.map(|f| f.as_str().into())),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                m.insert(key.into(), value);
            }
        }
        Value::Object(m)
    }
}

/// A canonical SelectionContext.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CanonicalSelection {
    /// `items`, in selection order.
    pub items: Vec<ItemFact>,
    /// `sampledAt`.
    pub sampled_at: String,
    /// `exportCandidates` (planner-scoped contexts only).
    pub export_candidates: Option<Vec<Value>>,
    /// `digestRepresentativeImageTarget` (planner-scoped contexts only; boxed,
    /// so that the many contexts without one stay small).
    pub digest_representative_image_target: Option<Box<Value>>,
}

/// Checks a `GeneratedNoteCandidate` at `ptr`.
fn check_note_candidate(value: &Value, ptr: &str) -> Read<()> {
    let obj: Obj<'_> = as_object(value, ptr)?;
    obj.closed(&["ref", "parentRef", "noteKind", "parentTitle"])?;
    PortableItemRef::parse(obj.required("ref")?, &child(ptr, "ref"))?;
    PortableItemRef::parse_member(&obj, "parentRef")?;
    obj.req_str("noteKind")?;
    obj.opt_str("parentTitle")?;
    Ok(())
}

impl CanonicalSelection {
    /// Reads a canonical context from an object whose `items` is an array.
    pub(crate) fn parse(obj: Obj<'_>) -> Read<Self> {
        obj.closed(&[
            "items",
            "sampledAt",
            "exportCandidates",
            "digestRepresentativeImageTarget",
        ])?;
        let items_ptr = child(obj.ptr, "items");
        let items = as_array(obj.required("items")?, &items_ptr)?
            .iter()
            .enumerate()
            .map(|(i, v)| ItemFact::parse(v, &index(&items_ptr, i)))
            .collect::<Read<Vec<_>>>()?;
        let export_candidates = match obj.get("exportCandidates") {
            None => None,
            Some(v) => {
                let ptr = child(obj.ptr, "exportCandidates");
                let list = as_array(v, &ptr)?;
                for (i, c) in list.iter().enumerate() {
                    check_note_candidate(c, &index(&ptr, i))?;
                }
                Some(list.clone())
            }
        };
        let digest_representative_image_target = match obj.get("digestRepresentativeImageTarget") {
            None => None,
            Some(v) => {
                check_note_candidate(v, &child(obj.ptr, "digestRepresentativeImageTarget"))?;
                Some(Box::new(v.clone()))
            }
        };
        Ok(Self {
            items,
            sampled_at: obj.req_str("sampledAt")?.to_owned(),
            export_candidates,
            digest_representative_image_target,
        })
    }

    /// The JSON form.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert(
            "items".into(),
            Value::Array(self.items.iter().map(ItemFact::to_value).collect()),
        );
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
