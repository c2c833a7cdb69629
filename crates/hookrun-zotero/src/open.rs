//! Opening a data directory: the checks, in the order that names the first
//! problem best, and the [`Library`] they give.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::collections::CollectionRow;
use crate::error::{Error, Result, SqliteContext};
use crate::header;
use crate::library::{self, LibraryChoice, LibraryKind};
use crate::names::Names;
use crate::tables::Tables;
use crate::uri;
use crate::version::SchemaVersions;

/// The database's file name inside a data directory.
pub const DATABASE_FILE: &str = "zotero.sqlite";

/// How to open a data directory: which library, and where linked files relative to
/// the base directory are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpenOptions {
    library: LibraryChoice,
    base_attachment_dir: Option<PathBuf>,
}

impl OpenOptions {
    /// The user library, no base directory.
    pub fn new() -> OpenOptions {
        OpenOptions::default()
    }

    /// Reads `library` instead of the user library.
    pub fn library(mut self, library: LibraryChoice) -> OpenOptions {
        self.library = library;
        self
    }

    /// Resolves linked files stored as `attachments:<path>` against `dir`, Zotero's
    /// "Linked Attachment Base Directory" (the profile's
    /// `extensions.zotero.baseAttachmentPath` preference, see
    /// [`crate::prefs::base_attachment_path`]).
    pub fn base_attachment_dir(mut self, dir: impl Into<PathBuf>) -> OpenOptions {
        self.base_attachment_dir = Some(dir.into());
        self
    }

    /// Opens the data directory `data_dir` (the one holding `zotero.sqlite` and
    /// `storage/`) read-only.
    pub fn open(&self, data_dir: impl AsRef<Path>) -> Result<Library> {
        Library::open(data_dir.as_ref(), self)
    }
}

/// Opens library `library` of the data directory `data_dir` read-only, without a
/// base directory for linked files (see [`OpenOptions`]).
pub fn open(data_dir: impl AsRef<Path>, library: LibraryChoice) -> Result<Library> {
    OpenOptions::new().library(library).open(data_dir)
}

/// One library of a Zotero database, opened read-only.
///
/// The connection is immutable (no locks taken, no journal, WAL or shared-memory
/// file created, the bytes never written). A `Library` is `Send`, not `Sync`: one
/// thread reads it at a time.
#[derive(Debug)]
pub struct Library {
    pub(crate) conn: Connection,
    pub(crate) db_path: PathBuf,
    pub(crate) data_dir: PathBuf,
    pub(crate) base_dir: Option<PathBuf>,
    pub(crate) library_id: i64,
    pub(crate) kind: LibraryKind,
    pub(crate) versions: SchemaVersions,
    pub(crate) tables: Tables,
    pub(crate) names: Names,
    pub(crate) unread_wal: Option<u64>,
    /// The library's collections outside the trash, read when first needed.
    pub(crate) collections: OnceCell<Vec<CollectionRow>>,
}

impl Library {
    fn open(data_dir: &Path, options: &OpenOptions) -> Result<Library> {
        let data_dir = checked_dir(data_dir)?;
        let db_path = data_dir.join(DATABASE_FILE);
        if !db_path.is_file() {
            return Err(Error::MissingDatabase { path: db_path });
        }
        let header = header::check(&db_path)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(uri::immutable(&db_path), flags).at(&db_path)?;
        // Sorts and temporary tables stay in memory: nothing is written anywhere.
        conn.execute_batch("PRAGMA temp_store = MEMORY; PRAGMA query_only = ON")
            .at(&db_path)?;
        conn.set_prepared_statement_cache_capacity(64);
        let tables = Tables::read(&conn, &db_path)?;
        let versions = SchemaVersions::read(&conn, &db_path)?;
        let names = Names::read(&conn, &db_path, &tables)?;
        let (library_id, kind) = library::resolve(&conn, &db_path, options.library)?;
        let unread_wal = header
            .wal
            .then(|| wal_bytes(&db_path))
            .flatten()
            .filter(|bytes| *bytes > 0);
        Ok(Library {
            conn,
            db_path,
            data_dir,
            base_dir: options.base_attachment_dir.clone(),
            library_id,
            kind,
            versions,
            tables,
            names,
            unread_wal,
            collections: OnceCell::new(),
        })
    }

    /// The library's `libraryID` (the `libraryId` of its items' portable refs).
    pub fn library_id(&self) -> u64 {
        u64::try_from(self.library_id).unwrap_or_default()
    }

    /// Whether this is the user library or a group library.
    pub fn kind(&self) -> &LibraryKind {
        &self.kind
    }

    /// The data directory, absolute.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// `zotero.sqlite` of the data directory.
    pub fn database_path(&self) -> &Path {
        &self.db_path
    }

    /// `storage/` of the data directory, where imported files live
    /// (`storage/<KEY>/<filename>`); attachment paths in item JSON are relative to it.
    pub fn storage_dir(&self) -> PathBuf {
        self.data_dir.join("storage")
    }

    /// The base directory of linked files, if one was given.
    pub fn base_attachment_dir(&self) -> Option<&Path> {
        self.base_dir.as_deref()
    }

    /// The schema versions the database records.
    pub fn schema_versions(&self) -> SchemaVersions {
        self.versions
    }

    /// The size of `zotero.sqlite-wal` when the database is in WAL mode and that
    /// file holds changes: a running Zotero keeps its latest changes there until it
    /// checkpoints them, and an immutable read sees the main file only, so those
    /// changes are not read.
    pub fn unread_wal_bytes(&self) -> Option<u64> {
        self.unread_wal
    }

    /// Runs SQLite's `PRAGMA quick_check` over every page: `Ok(())` when it finds
    /// nothing, else [`Error::Corrupt`] with its first findings. It reads the whole
    /// file (see the crate documentation for its cost); opening does not run it.
    pub fn quick_check(&self) -> Result<()> {
        let mut stmt = self
            .conn
            .prepare("PRAGMA quick_check(10)")
            .at(&self.db_path)?;
        let findings: Vec<String> = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .at(&self.db_path)?
            .collect::<rusqlite::Result<_>>()
            .at(&self.db_path)?;
        if findings.len() == 1 && findings[0] == "ok" {
            Ok(())
        } else {
            Err(Error::Corrupt {
                path: self.db_path.clone(),
                detail: findings.join("; "),
            })
        }
    }
}

/// `data_dir` made absolute, after checking it is a directory.
fn checked_dir(data_dir: &Path) -> Result<PathBuf> {
    match std::fs::metadata(data_dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::MissingDataDir {
            path: data_dir.to_path_buf(),
        }),
        Err(source) => Err(Error::Io {
            path: data_dir.to_path_buf(),
            source,
        }),
        Ok(meta) if !meta.is_dir() => Err(Error::NotADirectory {
            path: data_dir.to_path_buf(),
        }),
        Ok(_) => std::fs::canonicalize(data_dir).map_err(|source| Error::Io {
            path: data_dir.to_path_buf(),
            source,
        }),
    }
}

/// The length of the WAL file beside `db_path`, if there is one.
fn wal_bytes(db_path: &Path) -> Option<u64> {
    let mut wal = db_path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(PathBuf::from(wal)).ok().map(|m| m.len())
}
