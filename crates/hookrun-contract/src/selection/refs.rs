//! Item kinds, portable refs, identities and selection counts.

use serde::Serialize;
use serde_json::{Value, json};

use super::error::SelectionError;
use super::json::{Obj, Read, as_object, child};

/// One of the four selectable item kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKind {
    /// A regular top-level item.
    Parent,
    /// A non-attachment, non-note child item.
    Child,
    /// An attachment.
    Attachment,
    /// A note.
    Note,
}

impl ItemKind {
    /// All kinds in the order parents, children, attachments, notes.
    pub const ALL: [ItemKind; 4] = [Self::Parent, Self::Child, Self::Attachment, Self::Note];

    /// The contract spelling (`parent`, `child`, `attachment`, `note`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Parent => "parent",
            Self::Child => "child",
            Self::Attachment => "attachment",
            Self::Note => "note",
        }
    }

    /// Parses the contract spelling.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The grouped-shape array holding this kind (`parents`, ...).
    pub fn array_name(self) -> &'static str {
        match self {
            Self::Parent => "parents",
            Self::Child => "children",
            Self::Attachment => "attachments",
            Self::Note => "notes",
        }
    }
}

/// A portable item reference `{libraryId, key}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PortableItemRef {
    /// Library id (≥ 1).
    pub library_id: u64,
    /// Item key (non-empty).
    pub key: String,
}

impl PortableItemRef {
    /// The ref identity `"<libraryId>:<key>"`.
    pub fn identity(&self) -> String {
        format!("{}:{}", self.library_id, self.key)
    }

    /// The identity of an item of `kind` with this ref, `"<kind>:<libraryId>:<key>"`.
    pub fn kind_identity(&self, kind: &str) -> String {
        format!("{kind}:{}", self.identity())
    }

    /// The JSON form `{"libraryId", "key"}`.
    pub fn to_value(&self) -> Value {
        json!({"libraryId": self.library_id, "key": self.key})
    }

    /// Reads a complete ref at `ptr`; incomplete refs fail with the contract message.
    pub fn parse(value: &Value, ptr: &str) -> Read<Self> {
        let incomplete =
            || SelectionError::invalid(ptr, "Expected a complete portable item reference");
        let obj: Obj<'_> = as_object(value, ptr).map_err(|_| incomplete())?;
        obj.closed(&["libraryId", "key"])
            .map_err(|_| incomplete())?;
        let library_id = obj
            .get("libraryId")
            .and_then(Value::as_u64)
            .filter(|id| *id >= 1)
            .ok_or_else(incomplete)?;
        let key = obj
            .get("key")
            .and_then(Value::as_str)
            .filter(|k| !k.is_empty())
            .ok_or_else(incomplete)?;
        Ok(Self {
            library_id,
            key: key.to_owned(),
        })
    }

    /// Reads an optional ref member `key` of `obj` (`null` reads as absent).
    pub(crate) fn parse_member(obj: &Obj<'_>, key: &str) -> Read<Option<Self>> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => Self::parse(v, &child(obj.ptr, key)).map(Some),
        }
    }
}

/// Raw selection counts `{parents, children, attachments, notes, total}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SelectionCounts {
    /// Selected parents.
    pub parents: u64,
    /// Selected children.
    pub children: u64,
    /// Selected attachments.
    pub attachments: u64,
    /// Selected notes.
    pub notes: u64,
    /// Sum of the four.
    pub total: u64,
}

impl SelectionCounts {
    /// Counts `kinds`, one entry per selected item.
    pub fn of_kinds(kinds: impl IntoIterator<Item = ItemKind>) -> Self {
        let mut counts = Self::default();
        for kind in kinds {
            *counts.slot(kind) += 1;
            counts.total += 1;
        }
        counts
    }

    /// The count of one kind.
    pub fn get(&self, kind: ItemKind) -> u64 {
        match kind {
            ItemKind::Parent => self.parents,
            ItemKind::Child => self.children,
            ItemKind::Attachment => self.attachments,
            ItemKind::Note => self.notes,
        }
    }

    fn slot(&mut self, kind: ItemKind) -> &mut u64 {
        match kind {
            ItemKind::Parent => &mut self.parents,
            ItemKind::Child => &mut self.children,
            ItemKind::Attachment => &mut self.attachments,
            ItemKind::Note => &mut self.notes,
        }
    }

    /// How many of the four kinds are non-zero.
    pub fn kinds_present(&self) -> usize {
        ItemKind::ALL.iter().filter(|k| self.get(**k) > 0).count()
    }
}
