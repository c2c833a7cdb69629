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

mod collection;
mod facts;
mod item;
mod schema;
mod write;

pub use collection::CollectionBuilder;
pub use item::ItemBuilder;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use crate::DATABASE_FILE;
use item::ItemRow;

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
        for (_, table, column) in schema::LATER_COLUMNS
            .iter()
            .filter(|(since, ..)| layout.userdata >= *since)
        {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column}"))?;
        }
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
