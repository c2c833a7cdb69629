//! Which of Zotero's tables a database has: the ones every read needs, and the
//! ones whose absence only changes where names are read from.

use std::collections::HashSet;
use std::path::Path;

use rusqlite::Connection;

use crate::error::{Error, Result, SqliteContext};

/// The tables every read needs.
const REQUIRED: &[&str] = &[
    "version",
    "libraries",
    "groups",
    "items",
    "itemData",
    "itemDataValues",
    "itemNotes",
    "itemAttachments",
    "itemAnnotations",
    "creators",
    "itemCreators",
    "creatorTypes",
    "tags",
    "itemTags",
    "collections",
    "collectionItems",
    "itemRelations",
    "relationPredicates",
    "deletedItems",
];

/// The tables a database has beyond [`REQUIRED`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tables {
    /// Where item type names are read: `itemTypesCombined` when it has rows, else
    /// `itemTypes`.
    pub(crate) item_types: &'static str,
    /// Where field names are read: `fieldsCombined` when it has rows, else `fields`.
    pub(crate) fields: &'static str,
    /// Where base fields are read, if anywhere.
    pub(crate) base_fields: Option<&'static str>,
    /// Where each type's field order is read, if anywhere.
    pub(crate) type_fields: Option<&'static str>,
    /// Whether collections can be in the trash (`deletedCollections`).
    pub(crate) deleted_collections: bool,
    /// Whether attachment charsets are named (`charsets`).
    pub(crate) charsets: bool,
    /// Whether attachments record when they were last read
    /// (`itemAttachments.lastRead`, `userdata` 124 and later).
    pub(crate) last_read: bool,
    /// Whether items can be in My Publications (`publicationsItems`).
    pub(crate) publications: bool,
}

impl Tables {
    /// Reads the table names of `conn` (the database at `path`) and checks that
    /// every required table is there.
    pub(crate) fn read(conn: &Connection, path: &Path) -> Result<Tables> {
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            .at(path)?;
        let names: HashSet<String> = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .at(path)?
            .collect::<rusqlite::Result<_>>()
            .at(path)?;
        let missing: Vec<&str> = REQUIRED
            .iter()
            .copied()
            .filter(|t| !names.contains(*t))
            .collect();
        if !missing.is_empty() {
            return Err(Error::NotZotero {
                path: path.to_path_buf(),
                detail: format!("it has no table {}", missing.join(", ")),
            });
        }
        let filled = |table: &'static str| -> Result<bool> {
            if !names.contains(table) {
                return Ok(false);
            }
            conn.query_row(&format!("SELECT EXISTS (SELECT 1 FROM {table})"), [], |r| {
                r.get(0)
            })
            .at(path)
        };
        let either =
            |combined: &'static str, plain: &'static str| -> Result<Option<&'static str>> {
                Ok(if filled(combined)? {
                    Some(combined)
                } else if names.contains(plain) {
                    Some(plain)
                } else {
                    None
                })
            };
        let named = |what: &str, table: Option<&'static str>| {
            table.ok_or_else(|| Error::NotZotero {
                path: path.to_path_buf(),
                detail: format!("it has no table naming its {what}"),
            })
        };
        Ok(Tables {
            item_types: named("item types", either("itemTypesCombined", "itemTypes")?)?,
            fields: named("fields", either("fieldsCombined", "fields")?)?,
            base_fields: either("baseFieldMappingsCombined", "baseFieldMappings")?,
            type_fields: either("itemTypeFieldsCombined", "itemTypeFields")?,
            deleted_collections: names.contains("deletedCollections"),
            charsets: names.contains("charsets"),
            last_read: has_column(conn, path, "itemAttachments", "lastRead")?,
            publications: names.contains("publicationsItems"),
        })
    }
}

/// Whether `table` of `conn` (the database at `path`) has a column `column`.
fn has_column(conn: &Connection, path: &Path, table: &str, column: &str) -> Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2)",
        [table, column],
        |r| r.get(0),
    )
    .at(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(tables: &[&str]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for t in tables {
            conn.execute_batch(&format!("CREATE TABLE {t} (x)"))
                .unwrap();
        }
        conn
    }

    #[test]
    fn missing_tables_are_named() {
        let conn = db(&["version", "items"]);
        let err = Tables::read(&conn, Path::new("/z")).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("libraries, groups"), "{text}");
        assert!(!text.contains("items,"), "{text}");
    }

    #[test]
    fn combined_tables_are_preferred_when_filled() {
        let mut all: Vec<&str> = REQUIRED.to_vec();
        all.extend(["itemTypes", "itemTypesCombined", "fields", "fieldsCombined"]);
        let conn = db(&all);
        conn.execute_batch("INSERT INTO fieldsCombined VALUES (1)")
            .unwrap();
        let tables = Tables::read(&conn, Path::new("/z")).unwrap();
        // An empty combined table is not read.
        assert_eq!(tables.item_types, "itemTypes");
        assert_eq!(tables.fields, "fieldsCombined");
        assert_eq!(tables.base_fields, None);
        assert!(!tables.deleted_collections);
        assert!(!tables.last_read);
        assert!(!tables.publications);
    }

    #[test]
    fn columns_and_tables_of_later_versions_are_found() {
        let mut all: Vec<&str> = REQUIRED.to_vec();
        all.extend(["itemTypes", "fields", "publicationsItems"]);
        let conn = db(&all);
        conn.execute_batch("ALTER TABLE itemAttachments ADD COLUMN lastRead INT")
            .unwrap();
        let tables = Tables::read(&conn, Path::new("/z")).unwrap();
        assert!(tables.last_read);
        assert!(tables.publications);
    }

    #[test]
    fn a_database_without_type_names_is_not_zotero() {
        let conn = db(REQUIRED);
        let err = Tables::read(&conn, Path::new("/z")).unwrap_err();
        assert!(err.to_string().contains("item types"), "{err}");
    }
}
