//! Which library of the database is read: the user library, or a group library
//! named by its `libraryID`.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use rusqlite::{Connection, OptionalExtension};

use crate::error::{Error, Result, SqliteContext};

/// The library to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LibraryChoice {
    /// The user library ("My Library").
    #[default]
    User,
    /// The library with this `libraryID` (a group library, or the user library by
    /// its id). Written `library:<ID>`.
    Id(u64),
}

impl FromStr for LibraryChoice {
    type Err = Error;

    /// Parses `library:<ID>`.
    fn from_str(text: &str) -> Result<LibraryChoice> {
        text.strip_prefix("library:")
            .and_then(|id| id.parse::<u64>().ok())
            .filter(|id| *id >= 1)
            .map(LibraryChoice::Id)
            .ok_or_else(|| Error::InvalidLibraryChoice {
                given: text.to_owned(),
            })
    }
}

impl fmt::Display for LibraryChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LibraryChoice::User => f.write_str("the user library"),
            LibraryChoice::Id(id) => write!(f, "library:{id}"),
        }
    }
}

/// What kind of library was opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibraryKind {
    /// The user library.
    User,
    /// A group library.
    Group {
        /// The group's id on the Zotero server (`groups.groupID`).
        group_id: i64,
        /// The group's name.
        name: String,
    },
}

/// Finds the library `choice` names in the database `conn` at `path`: its
/// `libraryID` and kind.
pub(crate) fn resolve(
    conn: &Connection,
    path: &Path,
    choice: LibraryChoice,
) -> Result<(i64, LibraryKind)> {
    match choice {
        LibraryChoice::User => conn
            .query_row(
                "SELECT libraryID FROM libraries WHERE type = 'user' ORDER BY libraryID LIMIT 1",
                [],
                |r| r.get::<_, i64>(0),
            )
            .optional()
            .at(path)?
            .map(|id| (id, LibraryKind::User))
            .ok_or_else(|| Error::NotZotero {
                path: path.to_path_buf(),
                detail: "it has no user library".into(),
            }),
        LibraryChoice::Id(id) => {
            let row = i64::try_from(id)
                .ok()
                .map(|id| describe(conn, path, "WHERE l.libraryID = ?1", [id]))
                .transpose()?
                .and_then(|rows| rows.into_iter().next());
            match row {
                Some((id, Some(kind))) => Ok((id, kind)),
                _ => Err(Error::UnknownLibrary {
                    path: path.to_path_buf(),
                    id,
                    available: available(conn, path)?,
                }),
            }
        }
    }
}

/// The libraries `filter` picks, each with its kind (`None` for feeds and kinds
/// this crate does not read).
fn describe<P: rusqlite::Params>(
    conn: &Connection,
    path: &Path,
    filter: &str,
    params: P,
) -> Result<Vec<(i64, Option<LibraryKind>)>> {
    let sql = format!(
        "SELECT l.libraryID, l.type, g.groupID, g.name FROM libraries l \
         LEFT JOIN groups g ON g.libraryID = l.libraryID {filter} ORDER BY l.libraryID"
    );
    let mut stmt = conn.prepare(&sql).at(path)?;
    let rows = stmt
        .query_map(params, |r| {
            let id: i64 = r.get(0)?;
            let kind = match (r.get::<_, Option<String>>(1)?.as_deref(), r.get(2)?) {
                (Some("user"), _) => Some(LibraryKind::User),
                (Some("group"), Some(group_id)) => Some(LibraryKind::Group {
                    group_id,
                    name: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
                }),
                _ => None,
            };
            Ok((id, kind))
        })
        .at(path)?;
    rows.collect::<rusqlite::Result<_>>().at(path)
}

/// The readable libraries of the database, described for an error message.
fn available(conn: &Connection, path: &Path) -> Result<String> {
    let list: Vec<String> = describe(conn, path, "", [])?
        .into_iter()
        .filter_map(|(id, kind)| match kind? {
            LibraryKind::User => Some(format!("{id} (user library)")),
            LibraryKind::Group { group_id, name } => {
                Some(format!("{id} (group {group_id} {name:?})"))
            }
        })
        .collect();
    Ok(if list.is_empty() {
        "no user or group library".into()
    } else {
        format!("libraries {}", list.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT);
             CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT, name TEXT);
             INSERT INTO libraries VALUES (1, 'user'), (2, 'feed'), (5, 'group');
             INSERT INTO groups VALUES (12345, 5, 'Lab');",
        )
        .unwrap();
        conn
    }

    #[test]
    fn choices_parse_and_print() {
        assert_eq!(
            "library:5".parse::<LibraryChoice>().unwrap(),
            LibraryChoice::Id(5)
        );
        for bad in ["library:", "library:0", "library:x", "group:5", "5"] {
            assert!(
                matches!(bad.parse::<LibraryChoice>(), Err(Error::InvalidLibraryChoice { given }) if given == bad)
            );
        }
        assert_eq!(LibraryChoice::Id(5).to_string(), "library:5");
    }

    #[test]
    fn the_user_library_and_groups_resolve() {
        let conn = db();
        let path = Path::new("/z");
        assert_eq!(
            resolve(&conn, path, LibraryChoice::User).unwrap(),
            (1, LibraryKind::User)
        );
        assert_eq!(
            resolve(&conn, path, LibraryChoice::Id(5)).unwrap(),
            (
                5,
                LibraryKind::Group {
                    group_id: 12345,
                    name: "Lab".into()
                }
            )
        );
        assert_eq!(
            resolve(&conn, path, LibraryChoice::Id(1)).unwrap().1,
            LibraryKind::User
        );
    }

    #[test]
    fn feeds_and_unknown_ids_are_refused_with_the_libraries_there_are() {
        let conn = db();
        for id in [2, 9, u64::MAX] {
            let err = resolve(&conn, Path::new("/z"), LibraryChoice::Id(id)).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "library {id} is not a user or group library of /z; it has libraries 1 (user library), 5 (group 12345 \"Lab\")"
                )
            );
        }
    }
}
