//! The entries of a grouped context's arrays (`ParentContext`, `ChildContext`,
//! `AttachmentContext`, `NoteContext`).

use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};

use super::{ItemBase, base_name};
use crate::selection::item_json::{ItemJson, Marked, Member};
use crate::selection::json::{Obj, Read, as_object, child, index};
use crate::selection::refs::{ItemKind, PortableItemRef};

/// One entry of a grouped array (`ParentContext`, `ChildContext`, `AttachmentContext`,
/// `NoteContext`) with its original JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupedEntry {
    /// Which array the entry belongs to.
    pub kind: ItemKind,
    /// The entry's own members, shared by the entry's copies (scoped contexts,
    /// candidates, units) and the host world's record of its item.
    own: Arc<EntryText>,
    /// `item`, shared by the entry's copies.
    pub item: Arc<ItemBase>,
    /// `parent` (children, attachments, notes), shared by the entry's copies.
    pub parent: Option<Arc<ItemBase>>,
    /// Nested `attachments`, `notes` and `children` (parents, children), when
    /// the entry has any: most entries have none, and carry no empty lists.
    nested: Option<Box<Nested>>,
}

/// The items nested in a parent or child entry.
#[derive(Debug, Clone, PartialEq)]
struct Nested {
    attachments: Vec<GroupedEntry>,
    notes: Vec<Arc<ItemBase>>,
    children: Vec<Arc<ItemBase>>,
}

/// A grouped entry's own members: its text, and where `filePath` and
/// `mimeType` are in it.
#[derive(Debug, PartialEq)]
pub(crate) struct EntryText {
    raw: ItemJson,
    strings: Marked<{ ENTRY_STRINGS.len() }>,
}

impl EntryText {
    fn of(members: &Map<String, Value>) -> Arc<Self> {
        let (raw, strings) = Marked::of(members, &ENTRY_STRINGS);
        Arc::new(Self { raw, strings })
    }

    /// `filePath`.
    pub(crate) fn file_path(&self) -> Option<&str> {
        self.strings.get(FILE_PATH, &self.raw)
    }

    /// `mimeType`.
    pub(crate) fn mime_type(&self) -> Option<&str> {
        self.strings.get(MIME_TYPE, &self.raw)
    }
}

/// The string members of a context object that planning and the host world read.
const ENTRY_STRINGS: [Member; 2] = [("filePath", None), ("mimeType", None)];
const FILE_PATH: usize = 0;
const MIME_TYPE: usize = 1;

/// Allowed members of each context object.
fn entry_fields(kind: ItemKind) -> &'static [&'static str] {
    match kind {
        ItemKind::Parent => &[
            "item",
            "attachments",
            "notes",
            "tags",
            "collections",
            "children",
        ],
        ItemKind::Child => &[
            "item",
            "parent",
            "attachments",
            "notes",
            "tags",
            "collections",
        ],
        ItemKind::Attachment => &["item", "parent", "filePath", "mimeType"],
        ItemKind::Note => &["item", "parent", "tags", "collections"],
    }
}

/// Reads an array member of items with `read`.
fn read_list<T>(obj: &Obj<'_>, key: &str, read: impl Fn(&Value, &str) -> Read<T>) -> Read<Vec<T>> {
    let list = obj.opt_array(key)?;
    if list.is_empty() {
        return Ok(Vec::new());
    }
    let ptr = child(obj.ptr, key);
    list.iter()
        .enumerate()
        .map(|(i, v)| read(v, &index(&ptr, i)))
        .collect()
}

/// Reads an item at `ptr`, to share.
fn shared_item(value: &Value, ptr: &str) -> Read<Arc<ItemBase>> {
    ItemBase::parse(value, ptr).map(Arc::new)
}

impl GroupedEntry {
    /// Reads a context entry of `kind` at `ptr`.
    pub fn parse(kind: ItemKind, value: &Value, ptr: &str) -> Read<Self> {
        let obj = as_object(value, ptr)?;
        obj.closed(entry_fields(kind))?;
        for key in ["tags", "collections"] {
            obj.opt_array(key)?;
        }
        obj.opt_strings("collections")?;
        let parent = match obj.get("parent") {
            None | Some(Value::Null) => None,
            Some(v) => Some(shared_item(v, &child(ptr, "parent"))?),
        };
        let item = shared_item(obj.required("item")?, &child(ptr, "item"))?;
        obj.opt_str("filePath")?;
        obj.opt_str("mimeType")?;
        Ok(Self {
            kind,
            own: EntryText::of(&without_items(obj.map, parent.is_some())),
            item,
            parent,
            nested: Some(Box::new(Nested {
                attachments: read_list(&obj, "attachments", |v, p| {
                    Self::parse(ItemKind::Attachment, v, p)
                })?,
                notes: read_list(&obj, "notes", shared_item)?,
                children: read_list(&obj, "children", shared_item)?,
            }))
            .filter(|n| !(n.attachments.is_empty() && n.notes.is_empty() && n.children.is_empty())),
        })
    }

    /// Nested `attachments` (parents, children).
    pub fn attachments(&self) -> &[GroupedEntry] {
        self.nested.as_deref().map_or(&[], |n| &n.attachments)
    }

    /// Nested `notes` as `NoteLite` (parents, children), shared by the entry's
    /// copies and the host world's records.
    pub fn notes(&self) -> &[Arc<ItemBase>] {
        self.nested.as_deref().map_or(&[], |n| &n.notes)
    }

    /// Nested non-attachment, non-note `children` (parents), shared as
    /// [`notes`](Self::notes) are.
    pub fn children(&self) -> &[Arc<ItemBase>] {
        self.nested.as_deref().map_or(&[], |n| &n.children)
    }

    /// A minimal entry of `kind` wrapping `item` (with `parent` where the kind has one).
    pub fn synthetic(kind: ItemKind, item: &Arc<ItemBase>, parent: Option<&Arc<ItemBase>>) -> Self {
        // `item` and `parent` are placeholders, as in parsed entries.
        let raw = match kind {
            ItemKind::Parent => json!({"item": null, "attachments": [], "notes": [],
                "tags": [], "collections": [], "children": []}),
            ItemKind::Child => json!({"item": null, "parent": null,
                "attachments": [], "notes": [], "tags": [], "collections": []}),
            ItemKind::Attachment => json!({"item": null, "parent": null,
                "filePath": item.data_path(), "mimeType": null}),
            ItemKind::Note => json!({"item": null, "parent": null,
                "tags": [], "collections": []}),
        };
        Self {
            kind,
            own: EntryText::of(raw.as_object().unwrap_or(&Map::new())),
            item: item.clone(),
            parent: parent.cloned(),
            nested: None,
        }
    }

    /// The entry's original JSON object.
    pub fn to_map(&self) -> Map<String, Value> {
        let mut map = self.own.raw.to_map();
        for (key, value) in map.iter_mut() {
            if let Some(item) = self.placed(key) {
                *value = Value::Object(item.raw.to_map());
            }
        }
        map
    }

    /// The item whose JSON belongs at `key` of [`raw`](Self::raw).
    fn placed(&self, key: &str) -> Option<&ItemBase> {
        match key {
            "item" => Some(&self.item),
            "parent" => self.parent.as_deref(),
            _ => None,
        }
    }

    /// The entry's identity (§4.1 grouped variant); `index` is its array position.
    pub fn identity(&self, index: usize) -> String {
        self.item.identity(self.kind.as_str(), index)
    }

    /// The parent identity: from `item` for parents, else from `parent` or
    /// `item.parentItemID`.
    pub fn parent_identity(&self) -> Option<String> {
        match (self.kind, &self.parent) {
            (ItemKind::Parent, _) => self.item.parent_identity(),
            (_, Some(parent)) => parent.parent_identity(),
            (_, None) => self.item.parent_item_id.map(|id| format!("parent-id:{id}")),
        }
    }

    /// The target ref of a context whose first entry this is: a parent's own
    /// ref, else its parent's (its own without one).
    pub fn target_ref(&self) -> Option<PortableItemRef> {
        match (self.kind, &self.parent) {
            (ItemKind::Parent, _) | (_, None) => self.item.portable_ref(),
            (_, Some(parent)) => parent.portable_ref(),
        }
    }

    /// The numeric target parent id: own id for parents, else the parent's id or
    /// `item.parentItemID`.
    pub fn target_parent_id(&self) -> Option<i64> {
        match self.kind {
            ItemKind::Parent => self.item.id,
            _ => self
                .parent
                .as_ref()
                .and_then(|p| p.id)
                .or(self.item.parent_item_id),
        }
    }

    /// Replaces the entry's own members (`item` and `parent` stay
    /// placeholders) with `members`.
    pub(crate) fn set_members(&mut self, members: &Map<String, Value>) {
        self.own = EntryText::of(members);
    }

    /// The original context object with `item` (and a non-null `parent`) left
    /// as `null`: their JSON is [`item`](Self::item)'s and
    /// [`parent`](Self::parent)'s, put back in place by [`to_map`](Self::to_map)
    /// and by serialisation.
    pub fn raw(&self) -> &ItemJson {
        &self.own.raw
    }

    /// The entry's own members, to share with what keeps its `filePath` and
    /// `mimeType` apart from it.
    pub(crate) fn own(&self) -> &Arc<EntryText> {
        &self.own
    }

    /// `filePath` (attachments).
    pub fn file_path(&self) -> Option<&str> {
        self.own.file_path()
    }

    /// `mimeType` (attachments).
    pub fn mime_type(&self) -> Option<&str> {
        self.own.mime_type()
    }

    /// Attachment path: `filePath`, else `item.data.path`.
    pub fn path(&self) -> Option<&str> {
        self.file_path().or(self.item.data_path())
    }

    /// Attachment content type: `mimeType`, else `item.data.contentType`.
    pub fn content_type(&self) -> Option<&str> {
        self.mime_type().or(self.item.data_content_type())
    }

    /// Base name of [`GroupedEntry::path`].
    pub fn filename(&self) -> Option<&str> {
        self.path().map(base_name).filter(|n| !n.is_empty())
    }
}

/// The members of an entry object, with `item` (and `parent`, when it is
/// read as an item) as `null` placeholders.
fn without_items(map: &Map<String, Value>, parent: bool) -> Map<String, Value> {
    map.iter()
        .map(|(key, value)| {
            let placed = key == "item" || (parent && key == "parent");
            let value = if placed { Value::Null } else { value.clone() };
            (key.clone(), value)
        })
        .collect()
}

/// The JSON of [`GroupedEntry::to_map`], written without building it: the
/// members are transcoded from [`raw`](GroupedEntry::raw)'s text, the items'
/// JSON put in place of their placeholders.
impl Serialize for GroupedEntry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.own
            .raw
            .serialize_placing(serializer, |key| self.placed(key).map(|item| &item.raw))
    }
}
