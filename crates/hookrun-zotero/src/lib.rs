//! Reads a Zotero data directory read-only: the items of one library in Zotero's
//! JSON export shape, its collections, its attachment files, and selections as
//! Zotero's item tree makes them.
//!
//! ```no_run
//! use hookrun_zotero::{LibraryChoice, SelectSpec};
//!
//! let library = hookrun_zotero::open("/home/me/Zotero", LibraryChoice::User)?;
//! let item = library.item("ABCD2345")?;
//! println!("{}", serde_json::Value::Object(item.json));
//! let specs: Vec<SelectSpec> = vec!["collection:To read".parse()?, "tag:cats".parse()?];
//! let selection = library.select(&specs)?;
//! let context = library.selection_context(&selection, "2026-01-01T00:00:00.000Z")?;
//! # Ok::<(), hookrun_zotero::Error>(())
//! ```
//!
//! # Read-only, safe while Zotero runs
//!
//! `<DATA_DIR>/zotero.sqlite` is opened through the URI `file:<path>?mode=ro&immutable=1`
//! with `SQLITE_OPEN_READ_ONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NO_MUTEX`: SQLite
//! takes no lock, creates no `-journal`, `-wal` or `-shm` file, and never writes
//! the file, so it reads while Zotero holds the database exclusively locked.
//! Temporary storage stays in memory. What an immutable read does not see: changes
//! a running Zotero (10 and later, in WAL mode) has not yet checkpointed from
//! `zotero.sqlite-wal` into the main file ([`Library::unread_wal_bytes`] tells when
//! there are some), and a read racing one of Zotero's writes may meet a page
//! mid-change, reported as [`Error::Corrupt`].
//!
//! # Checks on opening
//!
//! In order, each with its own [`Error`] naming the path: the directory exists and
//! is one; it holds `zotero.sqlite`; the file's 100-byte header is SQLite's
//! ([`Error::NotSqlite`]), with a page size SQLite allows and at least as many bytes
//! as the header's page count says ([`Error::Corrupt`]: a truncated copy); SQLite
//! reads its schema; it has Zotero's tables ([`Error::NotZotero`]); its `userdata`
//! version is supported ([`Error::UnsupportedSchema`]); the library chosen exists.
//!
//! These checks read a few pages whatever the size of the database: opening takes
//! about 0.4 ms for 20,000 items as for 200,000. A full `PRAGMA quick_check` reads
//! every page, about 2 ms per MB from the page cache (15 ms for a 7 MB library of
//! 20,000 items, 160 ms for 76 MB; 2 s or more for a 1 GB library, more from a cold
//! disk), so opening does not run it;
//! [`Library::quick_check`] does on demand, and damage inside pages is reported by
//! the read that meets it as [`Error::Corrupt`].
//!
//! # Supported schema versions
//!
//! The `version` table's `userdata` row from 120 to 129 ([`SUPPORTED_USERDATA`]):
//!
//! | userdata | first Zotero release |
//! |---|---|
//! | 120 | 6.0 |
//! | 121 | 6.0.26 |
//! | 123 | 7.0 |
//! | 125 | 9.0 |
//! | 129 | 10.0 |
//!
//! Versions between were development steps. The tables and columns read here are
//! the same from 120 to 129; later versions add columns (read where they exist:
//! `itemAttachments.lastRead` from 124).
//! Zotero 5 (`userdata` 111 and below) has no annotations table and is refused, as
//! is any version newer than 129, whose tables this crate cannot know.
//!
//! # Names, not ids
//!
//! Item types, fields and creator types are read by name through the database's
//! own tables (`itemTypesCombined`/`fieldsCombined` when filled, else `itemTypes`/
//! `fields`; `creatorTypes`; `baseFieldMappings[Combined]`): their ids differ
//! between a fresh and a migrated profile. Every field the database has is read,
//! so a database made by a newer Zotero gives its newer fields too.
//!
//! # What an item looks like
//!
//! [`Item::json`] is Zotero's JSON export of the item (`Zotero.Item.toJSON`),
//! members in this order:
//!
//! - every item: `key`, `libraryID`, `version`, `itemType`, `parentItem` (a child's
//!   parent key), its non-empty fields by name in its type's order (multipart dates
//!   as the user wrote them, `accessDate` in ISO 8601);
//! - regular items: `creators` (`{creatorType, firstName, lastName}` or
//!   `{creatorType, name}`);
//! - notes: `title` (Zotero's stored note title, which its export leaves out) and
//!   `note`, the HTML without Zotero's `<div class="zotero-note znv1">` storage
//!   wrapper (an old plain-text note becomes paragraphs, as Zotero reads it);
//! - attachments: `linkMode` (`imported_file`, `imported_url`, `linked_file`,
//!   `linked_url`, `embedded_image`), `contentType`, `charset`, `filename`, `path`
//!   and `note` when they have one; `path` is where the file is: `<KEY>/<filename>`
//!   relative to [`Library::storage_dir`] for stored files, the absolute path for
//!   linked files (see [`files`]), and `lastRead` (Unix seconds) for the user library's
//!   attachments where the database records it (`itemAttachments.lastRead`,
//!   `userdata` 124 and later);
//! - annotations: `annotationType` (`highlight`, `note`, `image`, `ink`,
//!   `underline`, `text`), `annotationAuthorName`, `annotationText` (highlights and
//!   underlines), `annotationComment`, `annotationColor`, `annotationPageLabel`,
//!   `annotationSortIndex`, `annotationPosition` (JSON text);
//! - then `tags` (`{tag}`, `{tag, type: 1}` for automatic tags), `collections`
//!   (top-level items: keys), `relations` (`{predicate: uri | [uri, …]}`) —
//!   none of the three for embedded images — `inPublications: true` for items in
//!   My Publications (`publicationsItems`), and `dateAdded`, `dateModified`
//!   (ISO 8601, UTC).
//!
//! Items in the trash (`deletedItems`: the item, its parent, or its parent's
//! parent) and items of other libraries are never read, listed or selected.
//!
//! # Test databases
//!
//! With the `test-support` feature, the module `testdb` builds Zotero databases from a
//! schema written for these tests from the public facts of Zotero's data model,
//! with the columns of the `userdata` version they record.

#![warn(missing_docs)]

mod collections;
mod error;
pub mod files;
mod header;
mod item;
mod library;
mod names;
mod open;
pub mod prefs;
mod select;
mod tables;
mod text;
mod uri;
mod version;

#[cfg(any(test, feature = "test-support"))]
pub mod testdb;

pub use collections::Collection;
pub use error::{Error, Result};
pub use files::{AttachmentFile, LinkMode};
pub use item::{Item, ItemClass};
pub use library::{LibraryChoice, LibraryKind};
pub use open::{DATABASE_FILE, Library, OpenOptions, open};
pub use select::{SelectSpec, Selected, Selection};
pub use version::{SUPPORTED_USERDATA, SchemaVersions};

#[cfg(test)]
mod tests;
