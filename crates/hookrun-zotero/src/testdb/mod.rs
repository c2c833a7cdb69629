//! Zotero databases for tests, built at test time from a schema written for them
//! from the public facts of Zotero's data model, with a part of Zotero's public
//! item types and fields. Other crates' tests use it through the `test-support`
//! feature.
//!
//! ```
//! use hookrun_zotero::testdb::{Layout, TestDb};
//!
//! let dir = tempfile::tempdir()?;
//! let mut db = TestDb::create(dir.path(), Layout::default())?;
//! db.collection("COLL2345", "To read").insert()?;
//! db.item("PAPER234", "journalArticle")
//!     .field("title", "Cats")
//!     .creator("author", "Ada", "Lovelace")
//!     .tag("cats", 0)
//!     .in_collection("COLL2345")
//!     .insert()?;
//! db.item("NOTE2345", "note").parent("PAPER234").note("<p>Purr</p>").insert()?;
//! drop(db);
//! let library = hookrun_zotero::open(dir.path(), Default::default())?;
//! assert_eq!(library.children("PAPER234")?, ["NOTE2345"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod facts;
mod schema;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use crate::DATABASE_FILE;

/// How a test database lays out its ids and tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Ids as a migrated profile may have them: item types, fields and creator
    /// types numbered in another order from another start, the user library not
    /// `1`, items numbered out of order.
    pub shuffled_ids: bool,
    /// Whether the combined type and field tables of Zotero 6 and later exist (else
    /// only `itemTypes`, `fields`, … do).
    pub combined_tables: bool,
    /// The `userdata` version recorded.
    pub userdata: i64,
}

impl Default for Layout {
    /// Sequential ids, combined tables, `userdata` 123 (Zotero 7).
    fn default() -> Layout {
        Layout {
            shuffled_ids: false,
            combined_tables: true,
            userdata: 123,
        }
    }
}

/// A test database being built in `<data dir>/zotero.sqlite`.
#[derive(Debug)]
pub struct TestDb {
    conn: Connection,
    path: PathBuf,
    shuffled: bool,
    items: i64,
    collections: i64,
    user_library: i64,
    item_types: HashMap<&'static str, i64>,
    fields: HashMap<&'static str, i64>,
    creator_types: HashMap<&'static str, i64>,
}

/// An error for a name the test database does not know.
fn unknown(what: String) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(what.into())
}

/// Ids for `names`: 1, 2, … in order, or shuffled (reversed, from 5000, by 7).
fn ids_of(names: &[&'static str], shuffled: bool) -> HashMap<&'static str, i64> {
    let n = names.len() as i64;
    names
        .iter()
        .zip(0..)
        .map(|(name, i)| (*name, if shuffled { 5000 + (n - i) * 7 } else { i + 1 }))
        .collect()
}

impl TestDb {
    /// Creates `<data_dir>/zotero.sqlite` (and `data_dir`) with the tables, the
    /// names of item types, fields and creator types, the version rows and a user
    /// library.
    pub fn create(data_dir: &Path, layout: Layout) -> rusqlite::Result<TestDb> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| unknown(format!("{}: {e}", data_dir.display())))?;
        let path = data_dir.join(DATABASE_FILE);
        let conn = Connection::open(&path)?;
        conn.execute_batch(schema::LIBRARY_TABLES)?;
        conn.execute_batch(schema::TYPE_TABLES)?;
        let type_names: Vec<&'static str> = facts::ITEM_TYPES.iter().map(|(t, _)| *t).collect();
        let mut db = TestDb {
            conn,
            path,
            shuffled: layout.shuffled_ids,
            items: 0,
            collections: 0,
            user_library: 0,
            item_types: ids_of(&type_names, layout.shuffled_ids),
            fields: ids_of(&facts::field_names(), layout.shuffled_ids),
            creator_types: ids_of(facts::CREATOR_TYPES, layout.shuffled_ids),
        };
        db.fill_names()?;
        if layout.combined_tables {
            db.conn.execute_batch(schema::COMBINED_TABLES)?;
        }
        for (schema, version) in [
            ("userdata", layout.userdata),
            ("system", 32),
            ("triggers", 18),
            ("globalSchema", 41),
            ("compatibility", 7),
        ] {
            db.set_version(schema, version)?;
        }
        if layout.shuffled_ids {
            // A feed library takes id 1 first.
            db.conn.execute(
                "INSERT INTO libraries (libraryID, type, editable, filesEditable) VALUES (1, 'feed', 1, 1)",
                [],
            )?;
        }
        db.user_library = db.add_library("user")?;
        Ok(db)
    }

    fn fill_names(&self) -> rusqlite::Result<()> {
        for (name, id) in &self.item_types {
            self.conn.execute(
                "INSERT INTO itemTypes (itemTypeID, typeName, display) VALUES (?1, ?2, 1)",
                params![id, name],
            )?;
        }
        for (name, id) in &self.fields {
            self.conn.execute(
                "INSERT INTO fields (fieldID, fieldName) VALUES (?1, ?2)",
                params![id, name],
            )?;
        }
        for (name, id) in &self.creator_types {
            self.conn.execute(
                "INSERT INTO creatorTypes (creatorTypeID, creatorType) VALUES (?1, ?2)",
                params![id, name],
            )?;
        }
        for (item_type, fields) in facts::ITEM_TYPES {
            for (index, field) in fields.iter().enumerate() {
                self.conn.execute(
                    "INSERT INTO itemTypeFields VALUES (?1, ?2, 0, ?3)",
                    params![self.item_types[item_type], self.fields[field], index as i64],
                )?;
            }
        }
        for (item_type, field, base) in facts::BASE_FIELDS {
            self.conn.execute(
                "INSERT INTO baseFieldMappings VALUES (?1, ?2, ?3)",
                params![
                    self.item_types[item_type],
                    self.fields[base],
                    self.fields[field]
                ],
            )?;
        }
        Ok(())
    }

    fn add_library(&self, kind: &str) -> rusqlite::Result<i64> {
        self.conn.execute(
            "INSERT INTO libraries (type, editable, filesEditable) VALUES (?1, 1, 1)",
            [kind],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The connection, for rows the builders do not make.
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// The user library's `libraryID`.
    pub fn user_library(&self) -> i64 {
        self.user_library
    }

    /// Adds group `group_id` named `name`; returns its `libraryID`.
    pub fn add_group(&mut self, group_id: i64, name: &str) -> rusqlite::Result<i64> {
        let library = self.add_library("group")?;
        self.conn.execute(
            "INSERT INTO groups (groupID, libraryID, name, description, version) VALUES (?1, ?2, ?3, '', 0)",
            params![group_id, library, name],
        )?;
        Ok(library)
    }

    /// Adds a feed library; returns its `libraryID`.
    pub fn add_feed(&mut self) -> rusqlite::Result<i64> {
        self.add_library("feed")
    }

    /// Records `version` for `schema` in the `version` table.
    pub fn set_version(&self, schema: &str, version: i64) -> rusqlite::Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO version (schema, version) VALUES (?1, ?2)",
            params![schema, version],
        )?;
        Ok(())
    }

    /// Starts an item of type `item_type` with `key` in the user library.
    pub fn item(&mut self, key: &str, item_type: &str) -> ItemBuilder<'_> {
        let library = self.user_library;
        ItemBuilder {
            db: self,
            row: ItemRow {
                key: key.to_owned(),
                item_type: item_type.to_owned(),
                library,
                date_added: "2024-01-01 10:00:00".into(),
                date_modified: "2024-01-02 10:00:00".into(),
                ..ItemRow::default()
            },
        }
    }

    /// Starts a collection with `key` and `name` in the user library.
    pub fn collection(&mut self, key: &str, name: &str) -> CollectionBuilder<'_> {
        let library = self.user_library;
        CollectionBuilder {
            db: self,
            key: key.to_owned(),
            name: name.to_owned(),
            library,
            parent: None,
            trashed: false,
        }
    }

    fn next_item_id(&mut self) -> i64 {
        self.items += 1;
        if self.shuffled {
            // Multiplying by a unit modulo a prime numbers items out of order, once each.
            1 + (self.items * 7919) % 1_000_003
        } else {
            self.items
        }
    }

    fn id_of(&self, table: &str, id: &str, library: i64, key: &str) -> rusqlite::Result<i64> {
        self.conn
            .query_row(
                &format!("SELECT {id} FROM {table} WHERE libraryID = ?1 AND key = ?2"),
                params![library, key],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| unknown(format!("{table}: no key {key} in library {library}")))
    }

    fn upsert_id(&self, table: &str, id: &str, column: &str, value: &str) -> rusqlite::Result<i64> {
        self.conn.execute(
            &format!("INSERT OR IGNORE INTO {table} ({column}) VALUES (?1)"),
            [value],
        )?;
        self.conn.query_row(
            &format!("SELECT {id} FROM {table} WHERE {column} = ?1"),
            [value],
            |r| r.get(0),
        )
    }
}

/// Writes `bytes` as `<data_dir>/storage/<key>/<name>`, as Zotero stores an
/// imported file; returns its path.
pub fn write_storage_file(
    data_dir: &Path,
    key: &str,
    name: &str,
    bytes: &[u8],
) -> std::io::Result<PathBuf> {
    let dir = data_dir.join("storage").join(key);
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(name);
    std::fs::write(&path, bytes)?;
    Ok(path)
}

/// An attachment's row.
#[derive(Debug, Clone, Default)]
struct AttachmentRow {
    link_mode: i64,
    content_type: Option<String>,
    path: Option<String>,
    charset: Option<String>,
}

/// An annotation's row.
#[derive(Debug, Clone, Default)]
struct AnnotationRow {
    kind: i64,
    text: Option<String>,
    comment: Option<String>,
}

/// Everything an item builder gathered.
#[derive(Debug, Clone, Default)]
struct ItemRow {
    key: String,
    item_type: String,
    library: i64,
    parent: Option<String>,
    fields: Vec<(String, rusqlite::types::Value)>,
    creators: Vec<(String, String, String, i64)>,
    tags: Vec<(String, i64)>,
    collections: Vec<String>,
    relations: Vec<(String, String)>,
    note: Option<String>,
    note_title: Option<String>,
    attachment: Option<AttachmentRow>,
    annotation: Option<AnnotationRow>,
    date_added: String,
    date_modified: String,
    version: i64,
    trashed: bool,
}

/// Builds one item; [`ItemBuilder::insert`] writes it.
#[derive(Debug)]
pub struct ItemBuilder<'a> {
    db: &'a mut TestDb,
    row: ItemRow,
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
        insert_data(db, id, &row)?;
        insert_kind_rows(db, id, parent, &row)?;
        if row.trashed {
            db.conn
                .execute("INSERT INTO deletedItems (itemID) VALUES (?1)", [id])?;
        }
        Ok(id)
    }
}

/// Writes an item's fields, creators, tags, collections and relations.
fn insert_data(db: &TestDb, id: i64, row: &ItemRow) -> rusqlite::Result<()> {
    for (name, value) in &row.fields {
        let field = *db
            .fields
            .get(name.as_str())
            .ok_or_else(|| unknown(format!("field {name}")))?;
        db.conn.execute(
            "INSERT OR IGNORE INTO itemDataValues (value) VALUES (?1)",
            [value],
        )?;
        let value_id: i64 = db.conn.query_row(
            "SELECT valueID FROM itemDataValues WHERE value = ?1",
            [value],
            |r| r.get(0),
        )?;
        db.conn.execute(
            "INSERT INTO itemData VALUES (?1, ?2, ?3)",
            params![id, field, value_id],
        )?;
    }
    for (index, (kind, first, last, mode)) in row.creators.iter().enumerate() {
        let kind_id = *db
            .creator_types
            .get(kind.as_str())
            .ok_or_else(|| unknown(format!("creator type {kind}")))?;
        db.conn.execute(
            "INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?1, ?2, ?3)",
            params![first, last, mode],
        )?;
        let creator: i64 = db.conn.query_row(
            "SELECT creatorID FROM creators WHERE firstName = ?1 AND lastName = ?2 AND fieldMode = ?3",
            params![first, last, mode],
            |r| r.get(0),
        )?;
        db.conn.execute(
            "INSERT INTO itemCreators VALUES (?1, ?2, ?3, ?4)",
            params![id, creator, kind_id, index as i64],
        )?;
    }
    for (name, kind) in &row.tags {
        let tag = db.upsert_id("tags", "tagID", "name", name)?;
        db.conn.execute(
            "INSERT INTO itemTags VALUES (?1, ?2, ?3)",
            params![id, tag, kind],
        )?;
    }
    for key in &row.collections {
        let collection = db.id_of("collections", "collectionID", row.library, key)?;
        db.conn.execute(
            "INSERT INTO collectionItems (collectionID, itemID) VALUES (?1, ?2)",
            params![collection, id],
        )?;
    }
    for (predicate, object) in &row.relations {
        let p = db.upsert_id("relationPredicates", "predicateID", "predicate", predicate)?;
        db.conn.execute(
            "INSERT INTO itemRelations VALUES (?1, ?2, ?3)",
            params![id, p, object],
        )?;
    }
    Ok(())
}

/// Writes the note, attachment or annotation row of an item.
fn insert_kind_rows(
    db: &TestDb,
    id: i64,
    parent: Option<i64>,
    row: &ItemRow,
) -> rusqlite::Result<()> {
    if row.note.is_some() || row.item_type == "note" {
        db.conn.execute(
            "INSERT INTO itemNotes VALUES (?1, ?2, ?3, ?4)",
            params![
                id,
                parent,
                row.note.as_deref().unwrap_or(""),
                row.note_title
            ],
        )?;
    }
    if let Some(a) = &row.attachment {
        let charset = match &a.charset {
            Some(c) => Some(db.upsert_id("charsets", "charsetID", "charset", c)?),
            None => None,
        };
        db.conn.execute(
            "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, charsetID, path) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, parent, a.link_mode, a.content_type, charset, a.path],
        )?;
    }
    if let Some(a) = &row.annotation {
        let parent =
            parent.ok_or_else(|| unknown(format!("annotation {} needs a parent", row.key)))?;
        db.conn.execute(
            "INSERT INTO itemAnnotations VALUES (?1, ?2, ?3, 'Ada', ?4, ?5, '#ffd400', '1', \
             '00000|000000|00000', '{\"pageIndex\":0,\"rects\":[[1,2,3,4]]}', 0)",
            params![id, parent, a.kind, a.text, a.comment],
        )?;
    }
    Ok(())
}

/// Builds one collection; [`CollectionBuilder::insert`] writes it.
#[derive(Debug)]
pub struct CollectionBuilder<'a> {
    db: &'a mut TestDb,
    key: String,
    name: String,
    library: i64,
    parent: Option<String>,
    trashed: bool,
}

impl CollectionBuilder<'_> {
    /// Puts the collection in library `library`.
    pub fn library(mut self, library: i64) -> Self {
        self.library = library;
        self
    }

    /// Makes it a sub-collection of the collection with `key` (made before).
    pub fn parent(mut self, key: &str) -> Self {
        self.parent = Some(key.into());
        self
    }

    /// Puts the collection in the trash (`deletedCollections`).
    pub fn trashed(mut self) -> Self {
        self.trashed = true;
        self
    }

    /// Writes the collection; returns its `collectionID`.
    pub fn insert(self) -> rusqlite::Result<i64> {
        let parent = match &self.parent {
            Some(key) => Some(
                self.db
                    .id_of("collections", "collectionID", self.library, key)?,
            ),
            None => None,
        };
        self.db.collections += 1;
        let id = self.db.shuffled.then(|| 10_000 - self.db.collections * 13);
        self.db.conn.execute(
            "INSERT INTO collections (collectionID, collectionName, parentCollectionID, libraryID, key) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, self.name, parent, self.library, self.key],
        )?;
        let id = self.db.conn.last_insert_rowid();
        if self.trashed {
            self.db.conn.execute(
                "INSERT INTO deletedCollections (collectionID) VALUES (?1)",
                [id],
            )?;
        }
        Ok(id)
    }
}
