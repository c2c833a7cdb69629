//! Item types, fields and creator types by name, read from the database's own
//! tables: their numeric ids differ between a fresh and a migrated profile, so no
//! id is ever written in this crate.

use std::collections::HashMap;
use std::path::Path;

use rusqlite::Connection;

use crate::error::{Result, SqliteContext};
use crate::tables::Tables;

/// The names of one database's ids.
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    item_types: HashMap<i64, String>,
    fields: HashMap<i64, String>,
    creator_types: HashMap<i64, String>,
    /// Field name → its base field's name (`bookTitle` → `publicationTitle`).
    base_of: HashMap<String, String>,
    /// (item type id, field id) → the field's place in the type's editor.
    order: HashMap<(i64, i64), i64>,
}

/// Reads `id → name` pairs with `sql`.
fn pairs(conn: &Connection, path: &Path, sql: &str) -> Result<HashMap<i64, String>> {
    let mut stmt = conn.prepare(sql).at(path)?;
    let rows = stmt
        .query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?))
        })
        .at(path)?;
    let mut map = HashMap::new();
    for row in rows {
        if let (id, Some(name)) = row.at(path)? {
            map.insert(id, name);
        }
    }
    Ok(map)
}

impl Names {
    /// Reads the names of the database `conn` at `path`, from the tables `tables` chose.
    pub(crate) fn read(conn: &Connection, path: &Path, tables: &Tables) -> Result<Names> {
        let item_types = pairs(
            conn,
            path,
            &format!("SELECT itemTypeID, typeName FROM {}", tables.item_types),
        )?;
        let fields = pairs(
            conn,
            path,
            &format!("SELECT fieldID, fieldName FROM {}", tables.fields),
        )?;
        let creator_types = pairs(
            conn,
            path,
            "SELECT creatorTypeID, creatorType FROM creatorTypes",
        )?;
        let mut names = Names {
            item_types,
            fields,
            creator_types,
            ..Names::default()
        };
        if let Some(table) = tables.base_fields {
            names.read_base_fields(conn, path, table)?;
        }
        if let Some(table) = tables.type_fields {
            names.read_order(conn, path, table)?;
        }
        Ok(names)
    }

    /// Reads which field each type-specific field stands for, from `table`.
    fn read_base_fields(&mut self, conn: &Connection, path: &Path, table: &str) -> Result<()> {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT DISTINCT baseFieldID, fieldID FROM {table}"
            ))
            .at(path)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
            .at(path)?;
        for row in rows {
            let (base, field) = row.at(path)?;
            if let (Some(base), Some(field)) = (self.field(base), self.field(field)) {
                let (base, field) = (base.to_owned(), field.to_owned());
                self.base_of.insert(field, base);
            }
        }
        Ok(())
    }

    /// Reads each type's field order, from `table`.
    fn read_order(&mut self, conn: &Connection, path: &Path, table: &str) -> Result<()> {
        let mut stmt = conn
            .prepare(&format!(
                "SELECT itemTypeID, fieldID, orderIndex FROM {table}"
            ))
            .at(path)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                ))
            })
            .at(path)?;
        for row in rows {
            if let (item_type, field, Some(index)) = row.at(path)? {
                self.order.insert((item_type, field), index);
            }
        }
        Ok(())
    }

    /// The name of item type `id`.
    pub(crate) fn item_type(&self, id: i64) -> Option<&str> {
        self.item_types.get(&id).map(String::as_str)
    }

    /// The name of field `id`.
    pub(crate) fn field(&self, id: i64) -> Option<&str> {
        self.fields.get(&id).map(String::as_str)
    }

    /// The name of creator type `id`.
    pub(crate) fn creator_type(&self, id: i64) -> Option<&str> {
        self.creator_types.get(&id).map(String::as_str)
    }

    /// The base field of field `name` (`caseName` → `title`), if it has one.
    pub(crate) fn base_of(&self, name: &str) -> Option<&str> {
        self.base_of.get(name).map(String::as_str)
    }

    /// Where field `field` stands among the fields of item type `item_type`.
    pub(crate) fn order(&self, item_type: i64, field: i64) -> Option<i64> {
        self.order.get(&(item_type, field)).copied()
    }

    /// Whether field `name` holds a date Zotero stores in its multipart form
    /// (`2020-05-01 May 1, 2020`): `date`, `filingDate` and the fields whose base
    /// is `date`.
    pub(crate) fn is_multipart_date(&self, name: &str) -> bool {
        matches!(name, "date" | "filingDate") || self.base_of(name) == Some("date")
    }

    /// Whether field `name` is the title or stands for it (`caseName`, `subject`, …).
    pub(crate) fn is_title(&self, name: &str) -> bool {
        name == "title" || self.base_of(name) == Some("title")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_base_fields_are_read_by_id_of_this_database() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT);
             CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT);
             CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
             CREATE TABLE baseFieldMappings (itemTypeID INT, baseFieldID INT, fieldID INT);
             INSERT INTO itemTypes VALUES (40, 'case'), (41, NULL);
             INSERT INTO fields VALUES (7, 'title'), (9, 'caseName'), (11, 'date'), (12, 'dateDecided');
             INSERT INTO creatorTypes VALUES (3, 'author');
             INSERT INTO baseFieldMappings VALUES (40, 7, 9), (40, 11, 12), (40, 99, 9);",
        )
        .unwrap();
        let tables = Tables {
            item_types: "itemTypes",
            fields: "fields",
            base_fields: Some("baseFieldMappings"),
            type_fields: None,
            deleted_collections: false,
            charsets: false,
            last_read: false,
            publications: false,
        };
        let names = Names::read(&conn, Path::new("/z"), &tables).unwrap();
        assert_eq!(names.item_type(40), Some("case"));
        assert_eq!(names.item_type(41), None);
        assert_eq!(names.field(9), Some("caseName"));
        assert_eq!(names.creator_type(3), Some("author"));
        assert_eq!(names.base_of("caseName"), Some("title"));
        assert!(names.is_title("caseName"));
        assert!(names.is_multipart_date("dateDecided"));
        assert!(names.is_multipart_date("filingDate"));
        assert!(!names.is_multipart_date("accessDate"));
        assert_eq!(names.order(40, 9), None);
    }
}
