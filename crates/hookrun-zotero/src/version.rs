//! The schema versions a database records in its `version` table, and the range
//! this crate reads.

use std::ops::RangeInclusive;
use std::path::Path;

use rusqlite::{Connection, OptionalExtension};

use crate::error::{Error, Result, SqliteContext};

/// The `userdata` schema versions this crate reads: 120 (Zotero 6.0) to 129
/// (Zotero 10.0). The crate documentation lists the releases.
pub const SUPPORTED_USERDATA: RangeInclusive<i64> = 120..=129;

/// The versions a Zotero database records (`version` table rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaVersions {
    /// `userdata`: the version of the tables holding the library.
    pub userdata: i64,
    /// `globalSchema`: the version of the item types and fields (Zotero's
    /// `schema.json`), when recorded.
    pub global_schema: Option<i64>,
    /// `compatibility`: the oldest Zotero schema that may still open the database,
    /// when recorded.
    pub compatibility: Option<i64>,
}

impl SchemaVersions {
    /// Reads the versions of the database `conn` at `path`, and checks that
    /// `userdata` is in [`SUPPORTED_USERDATA`].
    pub(crate) fn read(conn: &Connection, path: &Path) -> Result<SchemaVersions> {
        let row = |schema: &str| -> Result<Option<i64>> {
            conn.query_row(
                "SELECT version FROM version WHERE schema = ?1",
                [schema],
                |r| r.get::<_, i64>(0),
            )
            .optional()
            .at(path)
        };
        let userdata = row("userdata")?.ok_or_else(|| Error::NotZotero {
            path: path.to_path_buf(),
            detail: "its version table has no userdata row".into(),
        })?;
        if !SUPPORTED_USERDATA.contains(&userdata) {
            return Err(Error::UnsupportedSchema {
                path: path.to_path_buf(),
                found: userdata,
                supported: SUPPORTED_USERDATA,
            });
        }
        Ok(SchemaVersions {
            userdata,
            global_schema: row("globalSchema")?,
            compatibility: row("compatibility")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(rows: &[(&str, i64)]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL)")
            .unwrap();
        for (schema, version) in rows {
            conn.execute("INSERT INTO version VALUES (?1, ?2)", (schema, version))
                .unwrap();
        }
        conn
    }

    #[test]
    fn versions_in_range_are_read() {
        let conn = db(&[("userdata", 123), ("globalSchema", 41)]);
        let v = SchemaVersions::read(&conn, Path::new("/z")).unwrap();
        assert_eq!(v.userdata, 123);
        assert_eq!(v.global_schema, Some(41));
        assert_eq!(v.compatibility, None);
    }

    #[test]
    fn versions_out_of_range_or_missing_are_refused() {
        for (version, ok) in [(119, false), (120, true), (129, true), (130, false)] {
            let result = SchemaVersions::read(&db(&[("userdata", version)]), Path::new("/z"));
            assert_eq!(result.is_ok(), ok, "{version}");
            if !ok {
                assert!(
                    matches!(result, Err(Error::UnsupportedSchema { found, .. }) if found == version)
                );
            }
        }
        assert!(matches!(
            SchemaVersions::read(&db(&[]), Path::new("/z")),
            Err(Error::NotZotero { .. })
        ));
    }
}
