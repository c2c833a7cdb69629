//! The errors of opening and reading a Zotero data directory.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;

/// Why a data directory could not be opened or read. Every message names the path
/// or the key it is about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The data directory does not exist.
    #[error("Zotero data directory {} does not exist", .path.display())]
    MissingDataDir {
        /// The directory as given.
        path: PathBuf,
    },
    /// The data directory is a file, not a directory.
    #[error("Zotero data directory {} is not a directory", .path.display())]
    NotADirectory {
        /// The path as given.
        path: PathBuf,
    },
    /// The data directory has no `zotero.sqlite`.
    #[error("{} does not exist: the directory is not a Zotero data directory", .path.display())]
    MissingDatabase {
        /// The database path.
        path: PathBuf,
    },
    /// The file is not an SQLite database at all.
    #[error("{} is not an SQLite database: {detail}", .path.display())]
    NotSqlite {
        /// The database path.
        path: PathBuf,
        /// What was found instead.
        detail: String,
    },
    /// An SQLite database that is truncated or damaged.
    #[error("{} is truncated or corrupt: {detail}", .path.display())]
    Corrupt {
        /// The database path.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// An SQLite database that is not a Zotero database (tables are missing).
    #[error("{} is not a Zotero database: {detail}", .path.display())]
    NotZotero {
        /// The database path.
        path: PathBuf,
        /// What is missing.
        detail: String,
    },
    /// A Zotero database whose `userdata` schema version this crate does not read.
    #[error(
        "{} has Zotero schema version {found} (userdata), outside the supported {}–{} (Zotero 6.0 to 10.0)",
        .path.display(), .supported.start(), .supported.end()
    )]
    UnsupportedSchema {
        /// The database path.
        path: PathBuf,
        /// The database's `userdata` version.
        found: i64,
        /// The versions this crate reads.
        supported: RangeInclusive<i64>,
    },
    /// A row that contradicts Zotero's data model (an id no table names, an unknown
    /// link mode, …).
    #[error("{}: {detail}", .path.display())]
    Inconsistent {
        /// The database path.
        path: PathBuf,
        /// The row and what is wrong with it.
        detail: String,
    },
    /// The file system refused a read.
    #[error("cannot read {}: {source}", .path.display())]
    Io {
        /// The path read.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// SQLite refused a query for another reason than damage.
    #[error("cannot read {}: {source}", .path.display())]
    Sqlite {
        /// The database path.
        path: PathBuf,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// A library choice that is not `library:<ID>`.
    #[error("invalid library {given:?}: expected library:<ID> (a libraryID of the database)")]
    InvalidLibraryChoice {
        /// The text given.
        given: String,
    },
    /// A library id that names no user or group library of the database.
    #[error("library {id} is not a user or group library of {}; it has {available}", .path.display())]
    UnknownLibrary {
        /// The database path.
        path: PathBuf,
        /// The id asked for.
        id: u64,
        /// The libraries it has, described.
        available: String,
    },
    /// A selection spec of a kind this crate does not know, or with an empty value.
    #[error(
        "unknown selection {spec:?}: expected item:<KEY>, collection:<KEY or name> or tag:<name>"
    )]
    UnknownSpec {
        /// The spec as given.
        spec: String,
    },
    /// No item with this key in the library (or it is in the trash).
    #[error("item {key} is not in library {library_id} (or it is in the trash)")]
    ItemNotFound {
        /// The library read.
        library_id: u64,
        /// The key asked for.
        key: String,
    },
    /// No collection with this key or name in the library (or it is in the trash).
    #[error("collection {given} is not in library {library_id} (by key or name)")]
    CollectionNotFound {
        /// The library read.
        library_id: u64,
        /// The key or name asked for.
        given: String,
    },
    /// Several collections have this name.
    #[error(
        "collection name {name:?} is ambiguous in library {library_id}: collections {} have it; select one by key",
        .keys.join(", ")
    )]
    AmbiguousCollection {
        /// The library read.
        library_id: u64,
        /// The name asked for.
        name: String,
        /// The keys of the collections with that name.
        keys: Vec<String>,
    },
    /// No item of the library carries this tag.
    #[error("tag {name:?} is on no item of library {library_id}")]
    TagNotFound {
        /// The library read.
        library_id: u64,
        /// The tag asked for.
        name: String,
    },
}

/// The result of this crate's operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Classifies an SQLite failure met while reading `path`: damage becomes
    /// [`Error::Corrupt`], a file SQLite does not recognise [`Error::NotSqlite`], the
    /// rest [`Error::Sqlite`].
    pub(crate) fn sqlite(path: &Path, source: rusqlite::Error) -> Error {
        let path = path.to_path_buf();
        match source.sqlite_error_code() {
            Some(ErrorCode::DatabaseCorrupt) => Error::Corrupt {
                path,
                detail: source.to_string(),
            },
            Some(ErrorCode::NotADatabase) => Error::NotSqlite {
                path,
                detail: source.to_string(),
            },
            _ => Error::Sqlite { path, source },
        }
    }
}

/// Attaches the database path to SQLite failures.
pub(crate) trait SqliteContext<T> {
    /// The result, its error classified by [`Error::sqlite`].
    fn at(self, path: &Path) -> Result<T>;
}

impl<T> SqliteContext<T> for rusqlite::Result<T> {
    fn at(self, path: &Path) -> Result<T> {
        self.map_err(|e| Error::sqlite(path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_path_and_the_range() {
        let err = Error::UnsupportedSchema {
            path: "/d/zotero.sqlite".into(),
            found: 95,
            supported: 120..=129,
        };
        assert_eq!(
            err.to_string(),
            "/d/zotero.sqlite has Zotero schema version 95 (userdata), outside the supported 120–129 (Zotero 6.0 to 10.0)"
        );
        let err = Error::AmbiguousCollection {
            library_id: 1,
            name: "Reading".into(),
            keys: vec!["AAAA2222".into(), "BBBB3333".into()],
        };
        assert!(err.to_string().contains("AAAA2222, BBBB3333"));
    }

    #[test]
    fn sqlite_damage_is_classified() {
        let corrupt = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
            None,
        );
        assert!(matches!(
            Error::sqlite(Path::new("/x"), corrupt),
            Error::Corrupt { .. }
        ));
        let not_db = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_NOTADB),
            None,
        );
        assert!(matches!(
            Error::sqlite(Path::new("/x"), not_db),
            Error::NotSqlite { .. }
        ));
        assert!(matches!(
            Error::sqlite(Path::new("/x"), rusqlite::Error::QueryReturnedNoRows),
            Error::Sqlite { .. }
        ));
    }
}
