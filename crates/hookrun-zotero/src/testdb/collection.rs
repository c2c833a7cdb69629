//! The collection builder of test databases.

use rusqlite::params;

use super::TestDb;

/// Builds one collection; [`CollectionBuilder::insert`] writes it.
#[derive(Debug)]
pub struct CollectionBuilder<'a> {
    pub(super) db: &'a mut TestDb,
    pub(super) key: String,
    pub(super) name: String,
    pub(super) library: i64,
    pub(super) parent: Option<String>,
    pub(super) trashed: bool,
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
