//! Item records of the host world and how each source describes them.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::HostResult;
use super::HostWorldError;
use super::lazy::{Lazy, Readable};
use super::zotero::{Zotero, ZoteroData, is_export_member};
use crate::selection::grouped::{EntryText, base_name};
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

macro_rules! fill {
    ($into:expr, $from:expr, $($field:ident),*) => {
        $( if $into.$field.is_none() { $into.$field = $from.$field; } )*
    };
}

/// One known item.
///
/// Its descriptive [`Fields`] are reached through `Deref`: a record made from a
/// selection item reads them from that item when first asked, so a world of
/// 100,000 selected items does not keep their titles, types and paths a second
/// time.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Record {
    pub(super) reference: Option<PortableItemRef>,
    pub(super) id: Option<i64>,
    pub(super) kind: Option<DetailKind>,
    pub(super) parent_ref: Option<PortableItemRef>,
    pub(super) parent_id: Option<i64>,
    /// Title, type, file, dates, note content.
    pub(super) fields: Lazy<ItemSource, Fields>,
    /// Fields, creators, tags, collections, relations and dates.
    pub(super) zotero: Zotero,
    /// Writes of this run that changed the item; its revision counts them.
    pub(super) edits: u32,
    /// An attachment whose file the run stored (its file is there whatever the disk says).
    pub(super) stored: bool,
}

/// What a record says of its item besides its identity and its Zotero data.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Fields {
    pub(super) title: Option<String>,
    pub(super) item_type: Option<String>,
    pub(super) filename: Option<String>,
    pub(super) content_type: Option<String>,
    pub(super) created_at: Option<String>,
    pub(super) path: Option<String>,
    pub(super) html: Option<String>,
    pub(super) note_kind: Option<String>,
    pub(super) issue: Option<String>,
    /// A note's managed value as a fixture declares it (`payload`), for a note
    /// whose payload storage the fixture does not describe.
    pub(super) payload: Option<Value>,
    /// A payload carrier's envelope: the JSON its PNG's `zsPL` chunk holds
    /// (`payloadEnvelope`).
    pub(super) envelope: Option<Value>,
}

impl Readable<ItemSource> for Fields {
    fn read_from(source: Option<&ItemSource>) -> Self {
        source.map(ItemSource::read).unwrap_or_default()
    }

    /// Fills the fields this one lacks from `other`.
    fn absorb(&mut self, other: Fields) {
        fill!(
            self,
            other,
            title,
            item_type,
            filename,
            content_type,
            created_at,
            path,
            html,
            note_kind,
            issue,
            payload,
            envelope
        );
    }
}

/// A selection item whose fields a record reads when first asked.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ItemSource {
    item: Arc<ItemBase>,
    /// A grouped entry's `filePath` and `mimeType`, which stand for the
    /// item's path and content type.
    file: Option<Arc<EntryText>>,
}

impl ItemSource {
    fn read(&self) -> Fields {
        let file = self.file.as_deref();
        fields_of(
            &self.item,
            file.and_then(EntryText::file_path),
            file.and_then(EntryText::mime_type),
        )
    }
}

/// The fields of a selection `item`, with a grouped entry's `filePath` and
/// `mimeType` standing for its path and content type.
fn fields_of(item: &ItemBase, file_path: Option<&str>, mime_type: Option<&str>) -> Fields {
    let owned = |s: Option<&str>| s.map(str::to_owned);
    let path = owned(file_path.or(item.data_path()));
    Fields {
        title: owned(item.display_title()),
        item_type: owned(item.item_type()),
        filename: owned(path.as_deref().map(base_name)),
        content_type: owned(mime_type.or(item.data_content_type())),
        created_at: owned(item.data_date_added()),
        path,
        html: item.note_html(),
        ..Fields::default()
    }
}

impl Deref for Record {
    type Target = Fields;

    fn deref(&self) -> &Fields {
        self.fields.get()
    }
}

impl DerefMut for Record {
    fn deref_mut(&mut self) -> &mut Fields {
        self.fields.get_mut()
    }
}

/// Members of a library fixture item besides Zotero's JSON export.
const LIBRARY_MEMBERS: &[&str] = &[
    "ref",
    "kind",
    "parentRef",
    "title",
    "itemType",
    "filename",
    "contentType",
    "createdAt",
    "path",
    "html",
    "noteKind",
    "issue",
    "payload",
    "payloadEnvelope",
    "fields",
    "libraryID",
];

impl Record {
    pub(super) fn absorb(&mut self, other: Record) {
        fill!(self, other, reference, id, kind, parent_ref, parent_id);
        self.fields.absorb(other.fields);
        self.zotero.absorb(other.zotero);
        self.stored |= other.stored;
    }

    /// The item's revision: its Zotero version plus the writes of this run.
    pub(super) fn revision(&self) -> String {
        self.zotero
            .get()
            .version
            .unwrap_or(1)
            .saturating_add(u64::from(self.edits))
            .to_string()
    }

    pub(super) fn from_fact(fact: &ItemFact) -> Self {
        Self {
            reference: Some(fact.reference.clone()),
            kind: Some(DetailKind::of(fact.kind, Some(&fact.item_type))),
            parent_ref: fact.parent_ref.clone(),
            fields: Fields {
                title: fact.title.clone(),
                item_type: Some(fact.item_type.clone()),
                filename: fact.filename.clone(),
                content_type: fact.content_type.clone(),
                created_at: fact.created_at.clone(),
                ..Fields::default()
            }
            .into(),
            ..Self::default()
        }
    }

    /// A record of a shared selection item, its fields read when first asked.
    pub(super) fn from_shared(
        item: &Arc<ItemBase>,
        kind: Option<ItemKind>,
        parent: Option<&ItemBase>,
    ) -> Self {
        let source = ItemSource {
            item: Arc::clone(item),
            file: None,
        };
        Self::from_source(source, kind, parent)
    }

    /// A record of `source`'s item with its identity, its fields and Zotero
    /// data read from the item when first asked.
    fn from_source(source: ItemSource, kind: Option<ItemKind>, parent: Option<&ItemBase>) -> Self {
        // The selection's Zotero export, as far as it reads; the selection itself was
        // checked when it was loaded.
        let item = &source.item;
        Self {
            reference: item.portable_ref(),
            id: item.id,
            kind: kind.map(|k| DetailKind::of(k, item.item_type())),
            parent_ref: parent.and_then(ItemBase::portable_ref),
            parent_id: parent.and_then(|p| p.id).or(item.parent_item_id),
            zotero: Zotero::of(Arc::clone(item)),
            fields: Lazy::of(source),
            ..Self::default()
        }
    }

    pub(super) fn from_entry(entry: &GroupedEntry) -> Self {
        let source = ItemSource {
            item: Arc::clone(&entry.item),
            file: Some(Arc::clone(entry.own())),
        };
        let mut record = Self::from_source(source, Some(entry.kind), entry.parent.as_deref());
        // A grouped parent's `tags` and `collections` sit next to its item. Most
        // entries have neither, and their own members are not parsed for them.
        let may_have = ["tags", "collections"]
            .iter()
            .any(|key| entry.raw().may_have_key(key));
        if !may_have {
            return record;
        }
        if let Ok(extra) = ZoteroData::parse(&entry.raw().to_map(), "") {
            let extra = ZoteroData {
                fields: Default::default(),
                ..extra
            };
            // Most entries have none, and their items' data stays unread.
            if extra != ZoteroData::default() {
                record.zotero.get_mut().absorb(extra);
            }
        }
        record
    }

    /// An item a library source gave, as [`from_library`](Self::from_library)
    /// reads it, but string members the world's field list does not know (the
    /// fields of a newer Zotero) are kept as fields instead of refused.
    pub(super) fn from_library_source(value: &Value, ptr: &str) -> HostResult<Self> {
        let Some(obj) = value.as_object() else {
            return Self::from_library(value, ptr);
        };
        let (known, newer): (Map<String, Value>, Map<String, Value>) = obj
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .partition(|(k, _)| LIBRARY_MEMBERS.contains(&k.as_str()) || is_export_member(k));
        let mut record = Self::from_library(&Value::Object(known), ptr)?;
        let fields = &mut record.zotero.get_mut().fields;
        for (name, value) in newer {
            if value.is_string() {
                fields.insert(name, value);
            }
        }
        Ok(record)
    }

    /// A library description's item at `ptr`: its own members, or Zotero's JSON
    /// export shape.
    pub(super) fn from_library(value: &Value, ptr: &str) -> HostResult<Self> {
        let entry = LibraryEntry::of(value, ptr)?;
        let zotero = ZoteroData::parse(entry.obj, ptr)?;
        let (reference, parent_ref) = entry.refs()?;
        let text = |key: &str| entry.text(key);
        let envelope = entry.envelope()?;
        let carrier = envelope.is_some();
        // A carrier's file is where Zotero keeps an embedded image.
        let carrier_path = carrier.then(|| format!("attachments/{}/image.png", reference.key));
        let mut zotero = zotero;
        if carrier && zotero.link_mode.is_none() {
            zotero.link_mode = Some("embedded_image".into());
        }
        Ok(Self {
            reference: Some(reference),
            kind: Some(entry.kind()?),
            parent_ref,
            fields: Fields {
                title: text("title")?.or_else(|| {
                    zotero
                        .fields
                        .get("title")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                }),
                item_type: text("itemType")?,
                filename: text("filename")?.or_else(|| carrier.then(|| "image.png".into())),
                content_type: text("contentType")?.or_else(|| carrier.then(|| "image/png".into())),
                created_at: text("createdAt")?.or_else(|| zotero.date_added.clone()),
                path: text("path")?.or(carrier_path),
                html: text("html")?.or(text("note")?),
                note_kind: text("noteKind")?,
                issue: text("issue")?,
                payload: entry.obj.get("payload").filter(|v| !v.is_null()).cloned(),
                envelope,
            }
            .into(),
            id: None,
            parent_id: None,
            zotero: zotero.into(),
            edits: 0,
            // A carrier's file is the envelope it holds.
            stored: carrier,
        })
    }
}

/// One item of a library description, at its JSON pointer.
struct LibraryEntry<'a> {
    obj: &'a Map<String, Value>,
    ptr: &'a str,
}

impl<'a> LibraryEntry<'a> {
    /// The item at `ptr`: an object of known members.
    fn of(value: &'a Value, ptr: &'a str) -> HostResult<Self> {
        let obj = value
            .as_object()
            .ok_or_else(|| HostWorldError::InvalidRequest(format!("{ptr}: expected an object")))?;
        if let Some(extra) = obj
            .keys()
            .find(|k| !LIBRARY_MEMBERS.contains(&k.as_str()) && !is_export_member(k))
        {
            return Err(HostWorldError::InvalidRequest(format!(
                "{ptr}/{extra}: unknown member; a library item has {} and the members of Zotero's JSON export (its fields, creators, tags, collections, relations, dateAdded, dateModified, …)",
                LIBRARY_MEMBERS.join(", ")
            )));
        }
        Ok(Self { obj, ptr })
    }

    /// A refusal of this item, naming what is wrong.
    fn bad(&self, what: &str) -> HostWorldError {
        HostWorldError::InvalidRequest(format!("{}: {what}", self.ptr))
    }

    /// The string member `key`, when given.
    fn text(&self, key: &str) -> HostResult<Option<String>> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.bad(&format!("{key}: expected a string"))),
        }
    }

    /// `payloadEnvelope`, which only an attachment (a payload carrier) holds.
    fn envelope(&self) -> HostResult<Option<Value>> {
        match self.obj.get("payloadEnvelope") {
            None | Some(Value::Null) => Ok(None),
            Some(_) if self.kind()? != DetailKind::Attachment => Err(self
                .bad("payloadEnvelope: only an attachment (a note's payload carrier) holds one")),
            Some(envelope) => Ok(Some(envelope.clone())),
        }
    }

    /// `kind`, else what Zotero's `itemType` says, else a regular item.
    fn kind(&self) -> HostResult<DetailKind> {
        let kind = match self.text("kind")? {
            None => DetailKind::Regular,
            Some(k) => DetailKind::parse(&k).ok_or_else(|| {
                self.bad("kind: expected regular, attachment, note or annotation")
            })?,
        };
        Ok(
            match (self.obj.get("kind"), self.text("itemType")?.as_deref()) {
                (None, Some("attachment")) => DetailKind::Attachment,
                (None, Some("note")) => DetailKind::Note,
                (None, Some("annotation")) => DetailKind::Annotation,
                _ => kind,
            },
        )
    }

    /// The item's ref and its parent's: `ref`/`parentRef`, or Zotero's export
    /// names, `key`/`parentItem` in `libraryID` (1 by default).
    fn refs(&self) -> HostResult<(PortableItemRef, Option<PortableItemRef>)> {
        let library_id = match self.obj.get("libraryID") {
            None | Some(Value::Null) => 1,
            Some(v) => v
                .as_u64()
                .filter(|id| *id >= 1)
                .ok_or_else(|| self.bad("libraryID: expected a library id (1 or more)"))?,
        };
        let by_key = |key: &str| -> HostResult<Option<PortableItemRef>> {
            Ok(self
                .text(key)?
                .map(|key| PortableItemRef { library_id, key }))
        };
        let reference = match reference_of(self.obj, "ref", self.ptr)? {
            Some(r) => r,
            None => by_key("key")?.ok_or_else(|| self.bad("ref (or key) is required"))?,
        };
        let parent_ref = match reference_of(self.obj, "parentRef", self.ptr)? {
            Some(r) => Some(r),
            None => by_key("parentItem")?,
        };
        Ok((reference, parent_ref))
    }
}

fn reference_of(
    obj: &serde_json::Map<String, Value>,
    key: &str,
    ptr: &str,
) -> HostResult<Option<PortableItemRef>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => PortableItemRef::parse(v, &format!("{ptr}/{key}"))
            .map(Some)
            .map_err(|e| HostWorldError::InvalidRequest(e.to_string())),
    }
}
