//! Items: finding one by key (never in the trash, never of another library),
//! listing keys, children, and reading an item whole.

mod export;

use hookrun_contract::selection::{FileState, ItemFact, ItemKind, PortableItemRef};
use rusqlite::OptionalExtension;
use serde_json::{Map, Value};

use crate::error::{Error, Result, SqliteContext};
use crate::files::AttachmentFile;
use crate::open::Library;

/// The SQL condition that item `i` is not in the trash, nor is its parent, nor its
/// parent's parent (an annotation's attachment's item, a note's embedded image's
/// note's item).
pub(crate) const VISIBLE: &str = "NOT EXISTS (SELECT 1 FROM deletedItems d WHERE d.itemID IN (\
    i.itemID, \
    (SELECT parentItemID FROM itemNotes WHERE itemID = i.itemID), \
    (SELECT parentItemID FROM itemAttachments WHERE itemID = i.itemID), \
    (SELECT parentItemID FROM itemAnnotations WHERE itemID = i.itemID), \
    (SELECT a.parentItemID FROM itemAnnotations n JOIN itemAttachments a \
        ON a.itemID = n.parentItemID WHERE n.itemID = i.itemID), \
    (SELECT n.parentItemID FROM itemAttachments a JOIN itemNotes n \
        ON n.itemID = a.parentItemID WHERE a.itemID = i.itemID)))";

/// The order of items in lists of a collection, a tag or a parent: when they were
/// added, then by key.
pub(crate) const ADDED_ORDER: &str = "ORDER BY i.dateAdded, i.key";

/// What an item is, by its item type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemClass {
    /// A regular item (`journalArticle`, `book`, …).
    Regular,
    /// A note (child or standalone).
    Note,
    /// An attachment (child or standalone).
    Attachment,
    /// An annotation of an attachment.
    Annotation,
}

impl ItemClass {
    fn of(item_type: &str) -> ItemClass {
        match item_type {
            "note" => ItemClass::Note,
            "attachment" => ItemClass::Attachment,
            "annotation" => ItemClass::Annotation,
            _ => ItemClass::Regular,
        }
    }

    /// The selection kind of an item of this class: regular items are `parent`,
    /// annotations `child`.
    pub fn selection_kind(self) -> ItemKind {
        match self {
            ItemClass::Regular => ItemKind::Parent,
            ItemClass::Note => ItemKind::Note,
            ItemClass::Attachment => ItemKind::Attachment,
            ItemClass::Annotation => ItemKind::Child,
        }
    }
}

/// An item's identity, class and parent, read without its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Head {
    pub(crate) id: i64,
    pub(crate) type_id: i64,
    pub(crate) key: String,
    pub(crate) item_type: String,
    pub(crate) class: ItemClass,
    pub(crate) parent_key: Option<String>,
    pub(crate) date_added: Option<String>,
    pub(crate) date_modified: Option<String>,
    pub(crate) version: i64,
}

/// One item, read whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// `{libraryId, key}`.
    pub reference: PortableItemRef,
    /// Regular, note, attachment or annotation.
    pub class: ItemClass,
    /// The item type's name (`journalArticle`, `note`, …).
    pub item_type: String,
    /// The parent item (a child note or attachment's item, an annotation's attachment).
    pub parent: Option<PortableItemRef>,
    /// The title: the `title` field or the field standing for it (`caseName`, …),
    /// a note's title as Zotero derives it from its first line.
    pub title: Option<String>,
    /// `dateAdded`, ISO 8601 (`2024-01-02T03:04:05Z`).
    pub date_added: Option<String>,
    /// The file of an attachment.
    pub file: Option<AttachmentFile>,
    /// The item in Zotero's JSON export shape (see the crate documentation).
    pub json: Map<String, Value>,
}

impl Item {
    /// The canonical selection fact of this item: `kind`, `ref`, `itemType`, `title`,
    /// `parentRef`, and for attachments `filename`, `contentType`, `createdAt` and
    /// `fileState`.
    pub fn fact(&self) -> ItemFact {
        let attachment = self.class == ItemClass::Attachment;
        let file = self.file.as_ref().filter(|_| attachment);
        let text = |key: &str| {
            self.json
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .filter(|_| attachment)
        };
        ItemFact {
            kind: self.class.selection_kind(),
            reference: self.reference.clone(),
            item_type: self.item_type.clone(),
            title: self.title.clone(),
            parent_ref: self.parent.clone(),
            filename: file.and_then(|f| f.filename.clone()),
            content_type: text("contentType"),
            created_at: self.date_added.clone().filter(|_| attachment),
            file_state: attachment.then(|| file.map_or(FileState::NotApplicable, |f| f.state)),
        }
    }
}

impl Library {
    fn reference(&self, key: &str) -> PortableItemRef {
        PortableItemRef {
            library_id: self.library_id(),
            key: key.to_owned(),
        }
    }

    /// The head of the item with `key`, if the library has it outside the trash.
    pub(crate) fn head(&self, key: &str) -> Result<Option<Head>> {
        let sql = format!(
            "SELECT i.itemID, i.itemTypeID, i.key, i.dateAdded, i.dateModified, i.version, \
             (SELECT p.key FROM items p WHERE p.itemID = COALESCE(\
                (SELECT parentItemID FROM itemNotes WHERE itemID = i.itemID), \
                (SELECT parentItemID FROM itemAttachments WHERE itemID = i.itemID), \
                (SELECT parentItemID FROM itemAnnotations WHERE itemID = i.itemID))) \
             FROM items i WHERE i.libraryID = ?1 AND i.key = ?2 AND {VISIBLE}"
        );
        let row = self
            .conn
            .prepare_cached(&sql)
            .at(&self.db_path)?
            .query_row((self.library_id, key), |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<i64>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                ))
            })
            .optional()
            .at(&self.db_path)?;
        let Some((id, type_id, key, added, modified, version, parent_key)) = row else {
            return Ok(None);
        };
        let item_type = self
            .names
            .item_type(type_id)
            .ok_or_else(|| Error::Inconsistent {
                path: self.db_path.clone(),
                detail: format!("item {key} has item type id {type_id}, which no table names"),
            })?
            .to_owned();
        Ok(Some(Head {
            id,
            type_id,
            class: ItemClass::of(&item_type),
            key,
            item_type,
            parent_key,
            date_added: added,
            date_modified: modified,
            version: version.unwrap_or_default(),
        }))
    }

    /// The head of the item with `key`, or [`Error::ItemNotFound`].
    pub(crate) fn required_head(&self, key: &str) -> Result<Head> {
        self.head(key)?.ok_or_else(|| Error::ItemNotFound {
            library_id: self.library_id(),
            key: key.to_owned(),
        })
    }

    /// Whether the library has an item with `key` outside the trash.
    pub fn contains(&self, key: &str) -> Result<bool> {
        Ok(self.head(key)?.is_some())
    }

    /// Reads the item with `key`: [`Error::ItemNotFound`] when the library has no
    /// such item, or has it in the trash (itself, or its parent).
    pub fn item(&self, key: &str) -> Result<Item> {
        let head = self.required_head(key)?;
        self.read(head)
    }

    /// The item with `key` in Zotero's JSON export shape (see [`Library::item`]).
    pub fn item_json(&self, key: &str) -> Result<Value> {
        self.item(key).map(|item| Value::Object(item.json))
    }

    /// Every item key of the library outside the trash, in key order.
    pub fn item_keys(&self) -> Result<Vec<String>> {
        self.keys_where("", (self.library_id,))
    }

    /// Up to `limit` item keys after `after` (from the first without it), in key
    /// order: a page of [`Library::item_keys`], for reading a library bit by bit.
    pub fn item_keys_after(&self, after: Option<&str>, limit: usize) -> Result<Vec<String>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.keys_where(
            "AND i.key > ?2 ORDER BY i.key LIMIT ?3",
            (self.library_id, after.unwrap_or(""), limit),
        )
    }

    /// How many items the library has outside the trash.
    pub fn item_count(&self) -> Result<u64> {
        let sql = format!("SELECT COUNT(*) FROM items i WHERE i.libraryID = ?1 AND {VISIBLE}");
        self.conn
            .prepare_cached(&sql)
            .at(&self.db_path)?
            .query_row([self.library_id], |r| r.get::<_, i64>(0))
            .at(&self.db_path)
            .map(|n| u64::try_from(n).unwrap_or_default())
    }

    /// The keys of the children of item `key` (its notes and attachments, or an
    /// attachment's annotations), outside the trash, in the order they were added.
    pub fn children(&self, key: &str) -> Result<Vec<String>> {
        let head = self.required_head(key)?;
        // Driven by the children's parent indexes, then each child by its id
        // (`CROSS JOIN` keeps that order): a scan of the library's items per
        // parent would make reading every parent's children quadratic.
        let sql = format!(
            "SELECT i.key FROM (\
               SELECT itemID FROM itemNotes WHERE parentItemID = ?2 \
               UNION SELECT itemID FROM itemAttachments WHERE parentItemID = ?2 \
               UNION SELECT itemID FROM itemAnnotations WHERE parentItemID = ?2) c \
             CROSS JOIN items i ON i.itemID = c.itemID \
             WHERE i.libraryID = ?1 AND {VISIBLE} {ADDED_ORDER}"
        );
        self.keys(&sql, (self.library_id, head.id))
    }

    /// The keys of items of the library matching `filter` (after `libraryID = ?1`
    /// and the trash check), in key order unless `filter` orders them.
    fn keys_where<P: rusqlite::Params>(&self, filter: &str, params: P) -> Result<Vec<String>> {
        let order = if filter.contains("ORDER BY") {
            ""
        } else {
            "ORDER BY i.key"
        };
        let sql = format!(
            "SELECT i.key FROM items i WHERE i.libraryID = ?1 AND {VISIBLE} {filter} {order}"
        );
        self.keys(&sql, params)
    }

    /// The first column of the rows of `sql`.
    pub(crate) fn keys<P: rusqlite::Params>(&self, sql: &str, params: P) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached(sql).at(&self.db_path)?;
        let rows = stmt
            .query_map(params, |r| r.get::<_, String>(0))
            .at(&self.db_path)?;
        rows.collect::<rusqlite::Result<_>>().at(&self.db_path)
    }

    /// Reads the item `head` whole.
    fn read(&self, head: Head) -> Result<Item> {
        let export = self.export(&head)?;
        Ok(Item {
            reference: self.reference(&head.key),
            class: head.class,
            parent: head.parent_key.as_deref().map(|k| self.reference(k)),
            title: export.title,
            date_added: head.date_added.as_deref().map(crate::text::iso_from_sql),
            file: export.file,
            json: export.json,
            item_type: head.item_type,
        })
    }
}
