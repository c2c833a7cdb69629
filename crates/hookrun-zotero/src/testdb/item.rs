//! The item builder of test databases.

use rusqlite::params;

use super::{TestDb, unknown, write};

/// An attachment's row.
#[derive(Debug, Clone, Default)]
pub(super) struct AttachmentRow {
    pub(super) link_mode: i64,
    pub(super) content_type: Option<String>,
    pub(super) path: Option<String>,
    pub(super) charset: Option<String>,
    pub(super) last_read: Option<i64>,
}

/// An annotation's row.
#[derive(Debug, Clone, Default)]
pub(super) struct AnnotationRow {
    pub(super) kind: i64,
    pub(super) text: Option<String>,
    pub(super) comment: Option<String>,
}

/// Everything an item builder gathered.
#[derive(Debug, Clone, Default)]
pub(super) struct ItemRow {
    pub(super) key: String,
    pub(super) item_type: String,
    pub(super) library: i64,
    pub(super) parent: Option<String>,
    pub(super) fields: Vec<(String, rusqlite::types::Value)>,
    pub(super) creators: Vec<(String, String, String, i64)>,
    pub(super) tags: Vec<(String, i64)>,
    pub(super) collections: Vec<String>,
    pub(super) relations: Vec<(String, String)>,
    pub(super) note: Option<String>,
    pub(super) note_title: Option<String>,
    pub(super) attachment: Option<AttachmentRow>,
    pub(super) annotation: Option<AnnotationRow>,
    pub(super) date_added: String,
    pub(super) date_modified: String,
    pub(super) version: i64,
    pub(super) trashed: bool,
    pub(super) in_publications: bool,
}

/// Builds one item; [`ItemBuilder::insert`] writes it.
#[derive(Debug)]
pub struct ItemBuilder<'a> {
    pub(super) db: &'a mut TestDb,
    pub(super) row: ItemRow,
}

impl ItemBuilder<'_> {
    /// Puts the item in library `library` (a `libraryID`).
    pub fn library(mut self, library: i64) -> Self {
        self.row.library = library;
        self
    }

    /// Sets field `name` (stored as Zotero stores it: a multipart date is
    /// `2020-05-01 May 1, 2020`).
    pub fn field(mut self, name: &str, value: &str) -> Self {
        self.row.fields.push((name.into(), value.to_owned().into()));
        self
    }

    /// Sets field `name` to a number (SQLite stores some values as integers).
    pub fn field_number(mut self, name: &str, value: i64) -> Self {
        self.row.fields.push((name.into(), value.into()));
        self
    }

    /// Adds a two-field creator.
    pub fn creator(mut self, creator_type: &str, first: &str, last: &str) -> Self {
        self.row
            .creators
            .push((creator_type.into(), first.into(), last.into(), 0));
        self
    }

    /// Adds a single-field creator (an institution).
    pub fn single_creator(mut self, creator_type: &str, name: &str) -> Self {
        self.row
            .creators
            .push((creator_type.into(), String::new(), name.into(), 1));
        self
    }

    /// Adds tag `name` of `kind` (0 manual, 1 automatic).
    pub fn tag(mut self, name: &str, kind: i64) -> Self {
        self.row.tags.push((name.into(), kind));
        self
    }

    /// Puts the item in the collection with `key` (made before, same library).
    pub fn in_collection(mut self, key: &str) -> Self {
        self.row.collections.push(key.into());
        self
    }

    /// Adds relation `predicate` → `object`.
    pub fn relation(mut self, predicate: &str, object: &str) -> Self {
        self.row.relations.push((predicate.into(), object.into()));
        self
    }

    /// Makes the item a child of the item with `key` (made before, same library).
    pub fn parent(mut self, key: &str) -> Self {
        self.row.parent = Some(key.into());
        self
    }

    /// Sets the note HTML, stored in Zotero's `<div class="zotero-note znv1">` wrapper.
    pub fn note(self, html: &str) -> Self {
        self.raw_note(&format!("<div class=\"zotero-note znv1\">{html}</div>"))
    }

    /// Sets the note column exactly as given.
    pub fn raw_note(mut self, stored: &str) -> Self {
        self.row.note = Some(stored.into());
        self
    }

    /// Sets the note's stored title.
    pub fn note_title(mut self, title: &str) -> Self {
        self.row.note_title = Some(title.into());
        self
    }

    /// Makes the item an attachment of link mode `link_mode` (0–4) with a content
    /// type and a stored path (`storage:a.pdf`, `attachments:x/a.pdf`, `/abs/a.pdf`).
    pub fn attachment(
        mut self,
        link_mode: i64,
        content_type: Option<&str>,
        path: Option<&str>,
    ) -> Self {
        self.row.attachment = Some(AttachmentRow {
            link_mode,
            content_type: content_type.map(str::to_owned),
            path: path.map(str::to_owned),
            charset: None,
            last_read: None,
        });
        self
    }

    /// Sets an attachment's charset.
    pub fn charset(mut self, charset: &str) -> Self {
        if let Some(a) = &mut self.row.attachment {
            a.charset = Some(charset.into());
        }
        self
    }

    /// Makes the item an annotation of type `kind` (1 highlight … 6 text).
    pub fn annotation(mut self, kind: i64, text: Option<&str>, comment: Option<&str>) -> Self {
        self.row.annotation = Some(AnnotationRow {
            kind,
            text: text.map(str::to_owned),
            comment: comment.map(str::to_owned),
        });
        self
    }

    /// Sets when an attachment was last read (Unix seconds): the
    /// `itemAttachments.lastRead` column of `userdata` 124 and later.
    pub fn last_read(mut self, seconds: i64) -> Self {
        if let Some(a) = &mut self.row.attachment {
            a.last_read = Some(seconds);
        }
        self
    }

    /// Puts the item in My Publications (`publicationsItems`).
    pub fn in_publications(mut self) -> Self {
        self.row.in_publications = true;
        self
    }

    /// Sets `dateAdded` (`YYYY-MM-DD HH:MM:SS`, UTC).
    pub fn added(mut self, date: &str) -> Self {
        self.row.date_added = date.into();
        self
    }

    /// Sets `dateModified`.
    pub fn modified(mut self, date: &str) -> Self {
        self.row.date_modified = date.into();
        self
    }

    /// Sets the sync version.
    pub fn version(mut self, version: i64) -> Self {
        self.row.version = version;
        self
    }

    /// Puts the item in the trash (`deletedItems`).
    pub fn trashed(mut self) -> Self {
        self.row.trashed = true;
        self
    }

    /// Writes the item; returns its `itemID`.
    pub fn insert(self) -> rusqlite::Result<i64> {
        let ItemBuilder { db, row } = self;
        let type_id = *db
            .item_types
            .get(row.item_type.as_str())
            .ok_or_else(|| unknown(format!("item type {}", row.item_type)))?;
        let id = db.next_item_id();
        db.conn.execute(
            "INSERT INTO items (itemID, itemTypeID, dateAdded, dateModified, clientDateModified, libraryID, key, version) \
             VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7)",
            params![id, type_id, row.date_added, row.date_modified, row.library, row.key, row.version],
        )?;
        let parent = match &row.parent {
            Some(key) => Some(db.id_of("items", "itemID", row.library, key)?),
            None => None,
        };
        write::data(db, id, &row)?;
        write::kind_rows(db, id, parent, &row)?;
        write::flags(db, id, &row)?;
        Ok(id)
    }
}
