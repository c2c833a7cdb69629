//! Collections: the library's tree (trashed collections and their descendants left
//! out), a collection by key or name, and its items.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::error::{Error, Result, SqliteContext};
use crate::item::{ADDED_ORDER, VISIBLE};
use crate::open::Library;

/// A collection of the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    /// Its key.
    pub key: String,
    /// Its name.
    pub name: String,
    /// The key of the collection it is in, if any.
    pub parent: Option<String>,
    /// The keys of its sub-collections, by name then key.
    pub children: Vec<String>,
    /// Its sync version.
    pub version: i64,
}

impl Collection {
    /// The collection as a library description lists it (Zotero's export shape):
    /// `{key, libraryID, version, name, parentCollection}`, `parentCollection` being
    /// `false` at the top.
    pub fn to_json(&self, library_id: u64) -> Value {
        json!({
            "key": self.key,
            "libraryID": library_id,
            "version": self.version,
            "name": self.name,
            "parentCollection": self.parent.as_ref().map_or(Value::Bool(false), |p| p.clone().into()),
        })
    }
}

/// A collection's row, with its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CollectionRow {
    pub(crate) id: i64,
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) parent_id: Option<i64>,
    pub(crate) version: i64,
}

/// `rows` without the trashed ones (`trashed` ids) and their descendants.
fn without_trashed(rows: Vec<CollectionRow>, trashed: &HashSet<i64>) -> Vec<CollectionRow> {
    let parents: HashMap<i64, Option<i64>> = rows.iter().map(|r| (r.id, r.parent_id)).collect();
    let gone = |id: i64| {
        let mut at = Some(id);
        // Bounded by the number of collections, so a cycle in the rows ends too.
        for _ in 0..=parents.len() {
            let Some(now) = at else { return false };
            if trashed.contains(&now) {
                return true;
            }
            at = parents.get(&now).copied().flatten();
        }
        false
    };
    rows.into_iter().filter(|r| !gone(r.id)).collect()
}

impl Library {
    /// The collections of the library outside the trash, by name then key (read
    /// once, then kept).
    pub(crate) fn collection_rows(&self) -> Result<&[CollectionRow]> {
        if let Some(rows) = self.collections.get() {
            return Ok(rows);
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT collectionID, key, collectionName, parentCollectionID, version \
                 FROM collections WHERE libraryID = ?1 ORDER BY collectionName, key",
            )
            .at(&self.db_path)?;
        let rows: Vec<CollectionRow> = stmt
            .query_map([self.library_id], |r| {
                Ok(CollectionRow {
                    id: r.get(0)?,
                    key: r.get(1)?,
                    name: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                    parent_id: r.get(3)?,
                    version: r.get::<_, Option<i64>>(4)?.unwrap_or_default(),
                })
            })
            .at(&self.db_path)?
            .collect::<rusqlite::Result<_>>()
            .at(&self.db_path)?;
        let trashed: HashSet<i64> = if self.tables.deleted_collections {
            let mut stmt = self
                .conn
                .prepare("SELECT collectionID FROM deletedCollections")
                .at(&self.db_path)?;
            stmt.query_map([], |r| r.get(0))
                .at(&self.db_path)?
                .collect::<rusqlite::Result<_>>()
                .at(&self.db_path)?
        } else {
            HashSet::new()
        };
        Ok(self
            .collections
            .get_or_init(|| without_trashed(rows, &trashed)))
    }

    /// The collections of the library outside the trash, by name then key, each
    /// with its parent and sub-collections.
    pub fn collections(&self) -> Result<Vec<Collection>> {
        let rows = self.collection_rows()?;
        let key_of: HashMap<i64, &str> = rows.iter().map(|r| (r.id, r.key.as_str())).collect();
        Ok(rows
            .iter()
            .map(|r| Collection {
                key: r.key.clone(),
                name: r.name.clone(),
                parent: r
                    .parent_id
                    .and_then(|p| key_of.get(&p))
                    .map(|k| (*k).to_owned()),
                children: rows
                    .iter()
                    .filter(|c| c.parent_id == Some(r.id))
                    .map(|c| c.key.clone())
                    .collect(),
                version: r.version,
            })
            .collect())
    }

    /// The collection with key `given`, else the one named `given`:
    /// [`Error::CollectionNotFound`] when none is, [`Error::AmbiguousCollection`]
    /// when several collections have that name.
    pub fn collection(&self, given: &str) -> Result<Collection> {
        let all = self.collections()?;
        if let Some(c) = all.iter().find(|c| c.key == given) {
            return Ok(c.clone());
        }
        let named: Vec<&Collection> = all.iter().filter(|c| c.name == given).collect();
        match named.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(Error::CollectionNotFound {
                library_id: self.library_id(),
                given: given.to_owned(),
            }),
            many => Err(Error::AmbiguousCollection {
                library_id: self.library_id(),
                name: given.to_owned(),
                keys: many.iter().map(|c| c.key.clone()).collect(),
            }),
        }
    }

    /// The keys of the items directly in collection `key` (not in its
    /// sub-collections, as Zotero shows a collection by default), outside the
    /// trash, in the order they were added.
    pub fn collection_items(&self, key: &str) -> Result<Vec<String>> {
        let row = self
            .collection_rows()?
            .iter()
            .find(|c| c.key == key)
            .ok_or_else(|| Error::CollectionNotFound {
                library_id: self.library_id(),
                given: key.to_owned(),
            })?;
        let sql = format!(
            "SELECT i.key FROM collectionItems ci JOIN items i ON i.itemID = ci.itemID \
             WHERE ci.collectionID = ?1 AND i.libraryID = ?2 AND {VISIBLE} {ADDED_ORDER}"
        );
        self.keys(&sql, (row.id, self.library_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, parent: Option<i64>) -> CollectionRow {
        CollectionRow {
            id,
            key: format!("C{id}"),
            name: format!("n{id}"),
            parent_id: parent,
            version: 0,
        }
    }

    #[test]
    fn trashed_collections_take_their_descendants_along() {
        let rows = vec![row(1, None), row(2, Some(1)), row(3, Some(2)), row(4, None)];
        let kept = without_trashed(rows, &HashSet::from([2]));
        let ids: Vec<i64> = kept.iter().map(|r| r.id).collect();
        assert_eq!(ids, [1, 4]);
        // A cycle in the rows ends.
        let cycle = vec![row(1, Some(2)), row(2, Some(1))];
        assert_eq!(without_trashed(cycle, &HashSet::new()).len(), 2);
    }

    #[test]
    fn collections_export_with_their_parent_or_false() {
        let c = Collection {
            key: "C2".into(),
            name: "Sub".into(),
            parent: Some("C1".into()),
            children: vec![],
            version: 3,
        };
        assert_eq!(
            c.to_json(1),
            json!({"key": "C2", "libraryID": 1, "version": 3, "name": "Sub", "parentCollection": "C1"})
        );
        let top = Collection { parent: None, ..c };
        assert_eq!(top.to_json(1)["parentCollection"], json!(false));
    }
}
