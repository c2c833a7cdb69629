//! Item records of the host world and how each source describes them.

use serde_json::Value;

use super::HostResult;
use super::HostWorldError;
use crate::selection::grouped::base_name;
use crate::selection::{GroupedEntry, ItemBase, ItemFact, ItemKind, PortableItemRef};

/// `getItemDetail` kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DetailKind {
    Regular,
    Attachment,
    Note,
    Annotation,
}

impl DetailKind {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Self::Regular => "regular",
            Self::Attachment => "attachment",
            Self::Note => "note",
            Self::Annotation => "annotation",
        }
    }

    pub(super) fn parse(s: &str) -> Option<Self> {
        [
            Self::Regular,
            Self::Attachment,
            Self::Note,
            Self::Annotation,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }

    pub(super) fn of(kind: ItemKind, item_type: Option<&str>) -> Self {
        match (kind, item_type) {
            (ItemKind::Attachment, _) => Self::Attachment,
            (ItemKind::Note, _) => Self::Note,
            (_, Some("annotation")) => Self::Annotation,
            _ => Self::Regular,
        }
    }
}

/// One known item.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Record {
    pub(super) reference: Option<PortableItemRef>,
    pub(super) id: Option<i64>,
    pub(super) kind: Option<DetailKind>,
    pub(super) parent_ref: Option<PortableItemRef>,
    pub(super) parent_id: Option<i64>,
    pub(super) title: Option<String>,
    pub(super) item_type: Option<String>,
    pub(super) filename: Option<String>,
    pub(super) content_type: Option<String>,
    pub(super) created_at: Option<String>,
    pub(super) path: Option<String>,
    pub(super) html: Option<String>,
    pub(super) note_kind: Option<String>,
    pub(super) issue: Option<String>,
    pub(super) payload: Option<Value>,
}

macro_rules! fill {
    ($into:expr, $from:expr, $($field:ident),*) => {
        $( if $into.$field.is_none() { $into.$field = $from.$field; } )*
    };
}

impl Record {
    pub(super) fn absorb(&mut self, other: Record) {
        fill!(
            self,
            other,
            reference,
            id,
            kind,
            parent_ref,
            parent_id,
            title,
            item_type,
            filename,
            content_type,
            created_at,
            path,
            html,
            note_kind,
            issue,
            payload
        );
    }

    pub(super) fn from_fact(fact: &ItemFact) -> Self {
        Self {
            reference: Some(fact.reference.clone()),
            kind: Some(DetailKind::of(fact.kind, Some(&fact.item_type))),
            parent_ref: fact.parent_ref.clone(),
            title: fact.title.clone(),
            item_type: Some(fact.item_type.clone()),
            filename: fact.filename.clone(),
            content_type: fact.content_type.clone(),
            created_at: fact.created_at.clone(),
            ..Self::default()
        }
    }

    pub(super) fn from_item(
        item: &ItemBase,
        kind: Option<ItemKind>,
        parent: Option<&ItemBase>,
    ) -> Self {
        let kind = kind.map(|k| DetailKind::of(k, item.item_type.as_deref()));
        let path = item.data_str("path").map(str::to_owned);
        Self {
            reference: item.portable_ref(),
            id: item.id,
            kind,
            parent_ref: parent.and_then(ItemBase::portable_ref),
            parent_id: parent.and_then(|p| p.id).or(item.parent_item_id),
            title: item.display_title().map(str::to_owned),
            item_type: item.item_type.clone(),
            filename: path.as_deref().map(base_name).map(str::to_owned),
            content_type: item.data_str("contentType").map(str::to_owned),
            created_at: item.data_str("dateAdded").map(str::to_owned),
            path,
            html: item.note_html().map(str::to_owned),
            ..Self::default()
        }
    }

    pub(super) fn from_entry(entry: &GroupedEntry) -> Self {
        let mut record = Self::from_item(&entry.item, Some(entry.kind), entry.parent.as_ref());
        if let Some(path) = entry.file_path.clone() {
            record.filename = Some(base_name(&path).to_owned());
            record.path = Some(path);
        }
        if let Some(mime) = entry.mime_type.clone() {
            record.content_type = Some(mime);
        }
        record
    }

    pub(super) fn from_library(value: &Value, ptr: &str) -> HostResult<Self> {
        let bad = |what: &str| HostWorldError::InvalidRequest(format!("{ptr}: {what}"));
        let obj = value.as_object().ok_or_else(|| bad("expected an object"))?;
        let text = |key: &str| -> HostResult<Option<String>> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(bad(&format!("{key}: expected a string"))),
            }
        };
        let reference = |key: &str| -> HostResult<Option<PortableItemRef>> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => PortableItemRef::parse(v, &format!("{ptr}/{key}"))
                    .map(Some)
                    .map_err(|e| HostWorldError::InvalidRequest(e.to_string())),
            }
        };
        let kind = match text("kind")? {
            None => DetailKind::Regular,
            Some(k) => DetailKind::parse(&k)
                .ok_or_else(|| bad("kind: expected regular, attachment, note or annotation"))?,
        };
        Ok(Self {
            reference: Some(reference("ref")?.ok_or_else(|| bad("ref is required"))?),
            kind: Some(kind),
            parent_ref: reference("parentRef")?,
            title: text("title")?,
            item_type: text("itemType")?,
            filename: text("filename")?,
            content_type: text("contentType")?,
            created_at: text("createdAt")?,
            path: text("path")?,
            html: text("html")?,
            note_kind: text("noteKind")?,
            issue: text("issue")?,
            payload: obj.get("payload").filter(|v| !v.is_null()).cloned(),
            id: None,
            parent_id: None,
        })
    }
}
