//! The grouped SelectionContext shape, contract §1.2.

use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};

use super::error::SelectionError;
use super::item_json::{ItemJson, Marked, Member};
use super::json::{Obj, Read, as_array, as_object, child, index};
use super::refs::{ItemKind, PortableItemRef, SelectionCounts};
use super::stream::ReadEntries;

/// An open `ItemBase` (or `NoteLite`) with its original JSON.
///
/// The string members planning and the host world read are read from the
/// item's JSON text, not kept a second time: a selection of 100,000 items would
/// otherwise hold a million more small strings.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemBase {
    /// The original object, serialised back unchanged; shared by the
    /// item's copies (scoped contexts, candidates, units).
    pub raw: ItemJson,
    /// `id`.
    pub id: Option<i64>,
    /// `libraryID`.
    pub library_id: Option<i64>,
    /// `parentItemID`.
    pub parent_item_id: Option<i64>,
    /// The members of [`STRING_MEMBERS`].
    strings: Marked<{ STRING_MEMBERS.len() }>,
}

/// The string members of an item (and of its `data`, the item's Zotero export)
/// that planning and the host world read; others are read from
/// [`ItemBase::raw`] when needed.
const STRING_MEMBERS: [Member; 7] = [
    ("key", None),
    ("itemType", None),
    ("title", None),
    ("data", Some("title")),
    ("data", Some("path")),
    ("data", Some("contentType")),
    ("data", Some("dateAdded")),
];
const KEY: usize = 0;
const ITEM_TYPE: usize = 1;
const TITLE: usize = 2;
const DATA_TITLE: usize = 3;
const DATA_PATH: usize = 4;
const DATA_CONTENT_TYPE: usize = 5;
const DATA_DATE_ADDED: usize = 6;

impl ItemBase {
    /// Reads an item at `ptr`.
    pub fn parse(value: &Value, ptr: &str) -> Read<Self> {
        let obj = as_object(value, ptr)?;
        obj.opt_obj("data")?;
        obj.opt_str("note")?;
        // The members' types, in the order they are reported.
        obj.opt_int("id")?;
        for key in ["key", "itemType", "title"] {
            obj.opt_str(key)?;
        }
        obj.opt_int("libraryID")?;
        obj.opt_int("parentItemID")?;
        Ok(Self::of_map(obj.map))
    }

    /// An item of `map`, unchecked: members of the wrong type read as absent.
    pub(crate) fn of_map(map: &Map<String, Value>) -> Self {
        let int = |key: &str| map.get(key).and_then(Value::as_i64);
        let (raw, strings) = Marked::of(map, &STRING_MEMBERS);
        Self {
            raw,
            id: int("id"),
            library_id: int("libraryID"),
            parent_item_id: int("parentItemID"),
            strings,
        }
    }

    /// The string member number `index` of [`STRING_MEMBERS`].
    fn string(&self, index: usize) -> Option<&str> {
        self.strings.get(index, &self.raw)
    }

    /// `key`.
    pub fn key(&self) -> Option<&str> {
        self.string(KEY)
    }

    /// `itemType`.
    pub fn item_type(&self) -> Option<&str> {
        self.string(ITEM_TYPE)
    }

    /// `title`.
    pub fn title(&self) -> Option<&str> {
        self.string(TITLE)
    }

    /// `data.title`.
    pub fn data_title(&self) -> Option<&str> {
        self.string(DATA_TITLE)
    }

    /// `data.path`.
    pub fn data_path(&self) -> Option<&str> {
        self.string(DATA_PATH)
    }

    /// `data.contentType`.
    pub fn data_content_type(&self) -> Option<&str> {
        self.string(DATA_CONTENT_TYPE)
    }

    /// `data.dateAdded`.
    pub fn data_date_added(&self) -> Option<&str> {
        self.string(DATA_DATE_ADDED)
    }

    /// `title`, else `data.title` (empty strings count as absent).
    pub fn display_title(&self) -> Option<&str> {
        self.title().or(self.data_title()).filter(|t| !t.is_empty())
    }

    /// Note HTML: `note` (NoteLite), else `data.note`.
    pub fn note_html(&self) -> Option<String> {
        self.raw.note()
    }

    /// The portable ref when `libraryID ≥ 1` and a non-empty `key` are known.
    pub fn portable_ref(&self) -> Option<PortableItemRef> {
        let library_id = u64::try_from(self.library_id?).ok().filter(|l| *l >= 1)?;
        let key = self.key().filter(|k| !k.is_empty())?.to_owned();
        Some(PortableItemRef { library_id, key })
    }

    /// The key-based identity part: `"<libraryID>:<key>"` or `"<key>"`.
    fn key_part(&self) -> Option<String> {
        let key = self.key().filter(|k| !k.is_empty())?;
        Some(match self.library_id {
            Some(lib) => format!("{lib}:{key}"),
            None => key.to_owned(),
        })
    }

    /// Grouped identity: `<kind>:<libraryID>:<key>`, else `<kind>-id:<id>`, else
    /// `<kind>-index:<index>`.
    pub fn identity(&self, kind: &str, index: usize) -> String {
        match (self.key_part(), self.id) {
            (Some(k), _) => format!("{kind}:{k}"),
            (None, Some(id)) => format!("{kind}-id:{id}"),
            (None, None) => format!("{kind}-index:{index}"),
        }
    }

    /// Identity of this item as a parent: `parent:<libraryID>:<key>` or `parent-id:<id>`.
    pub fn parent_identity(&self) -> Option<String> {
        match (self.key_part(), self.id) {
            (Some(k), _) => Some(format!("parent:{k}")),
            (None, Some(id)) => Some(format!("parent-id:{id}")),
            (None, None) => None,
        }
    }
}

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
    let ptr = child(obj.ptr, key);
    obj.opt_array(key)?
        .iter()
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
