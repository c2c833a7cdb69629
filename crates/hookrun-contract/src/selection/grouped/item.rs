//! The items of a grouped context: `ItemBase` (and `NoteLite`), read from the item's
//! JSON text.

use serde_json::{Map, Value};

use crate::selection::item_json::{ItemJson, Marked, Member};
use crate::selection::json::{Read, as_object};
use crate::selection::refs::PortableItemRef;

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
