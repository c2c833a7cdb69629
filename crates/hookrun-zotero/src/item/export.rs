//! An item in Zotero's JSON export shape, read from its rows.

use rusqlite::OptionalExtension;
use rusqlite::types::ValueRef;
use serde_json::{Map, Value, json};

use super::{Head, ItemClass};
use crate::error::{Error, Result, SqliteContext};
use crate::files::{AttachmentFile, LinkMode};
use crate::open::Library;
use crate::text::{iso_from_sql, multipart_to_str, unwrap_note};

/// An item's export and what [`super::Item`] keeps beside it.
pub(super) struct Export {
    pub(super) json: Map<String, Value>,
    pub(super) title: Option<String>,
    pub(super) file: Option<AttachmentFile>,
}

/// An attachment row: link mode, content type, stored path, charset.
type AttachmentRow = (LinkMode, Option<String>, Option<String>, Option<String>);

/// Text of a column Zotero may have stored as a number.
fn text_of(value: ValueRef<'_>) -> Option<String> {
    match value {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(f) => Some(f.to_string()),
        ValueRef::Text(b) | ValueRef::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
    }
}

/// Zotero's annotation type names by code.
fn annotation_type(code: i64) -> Option<&'static str> {
    Some(match code {
        1 => "highlight",
        2 => "note",
        3 => "image",
        4 => "ink",
        5 => "underline",
        6 => "text",
        _ => return None,
    })
}

impl Library {
    fn inconsistent(&self, detail: String) -> Error {
        Error::Inconsistent {
            path: self.db_path.clone(),
            detail,
        }
    }

    /// The export of item `head`: identity, fields, then what its class has, then
    /// tags, collections, relations and dates.
    pub(super) fn export(&self, head: &Head) -> Result<Export> {
        let mut json = Map::new();
        json.insert("key".into(), head.key.clone().into());
        json.insert("libraryID".into(), self.library_id().into());
        json.insert("version".into(), head.version.into());
        json.insert("itemType".into(), head.item_type.clone().into());
        if let Some(parent) = &head.parent_key {
            json.insert("parentItem".into(), parent.clone().into());
        }
        let fields = self.fields(head)?;
        let mut title = fields
            .iter()
            .find(|(name, _)| self.names.is_title(name))
            .map(|(_, value)| value.clone());
        json.extend(fields.into_iter().map(|(k, v)| (k, Value::String(v))));
        let mut file = None;
        match head.class {
            ItemClass::Regular => {
                json.insert("creators".into(), self.creators(head)?);
            }
            ItemClass::Note => {
                let (html, note_title) = self.note(head.id)?.unwrap_or_default();
                if let Some(t) = note_title.filter(|t| !t.is_empty()) {
                    json.insert("title".into(), t.clone().into());
                    title = Some(t);
                }
                json.insert("note".into(), html.into());
            }
            ItemClass::Attachment => file = Some(self.attachment(head, &mut json)?),
            ItemClass::Annotation => self.annotation(head, &mut json)?,
        }
        // Zotero gives embedded images no tags, collections or relations.
        if !file
            .as_ref()
            .is_some_and(|f| f.link_mode == LinkMode::EmbeddedImage)
        {
            json.insert("tags".into(), self.tags(head.id)?);
            if head.parent_key.is_none() {
                json.insert("collections".into(), self.item_collections(head.id)?);
            }
            json.insert("relations".into(), self.relations(head.id)?);
        }
        if self.in_publications(head.id)? {
            json.insert("inPublications".into(), true.into());
        }
        for (member, value) in [
            ("dateAdded", &head.date_added),
            ("dateModified", &head.date_modified),
        ] {
            if let Some(v) = value {
                json.insert(member.into(), iso_from_sql(v).into());
            }
        }
        Ok(Export { json, title, file })
    }

    /// The item's non-empty fields by name, in its type's field order (then by
    /// name): multipart dates as written, `accessDate` in ISO 8601.
    fn fields(&self, head: &Head) -> Result<Vec<(String, String)>> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT d.fieldID, v.value FROM itemData d \
                 JOIN itemDataValues v ON v.valueID = d.valueID WHERE d.itemID = ?1",
            )
            .at(&self.db_path)?;
        let rows = stmt
            .query_map([head.id], |r| {
                Ok((r.get::<_, i64>(0)?, text_of(r.get_ref(1)?)))
            })
            .at(&self.db_path)?;
        let mut fields = Vec::new();
        for row in rows {
            let (id, value) = row.at(&self.db_path)?;
            let Some(value) = value.filter(|v| !v.is_empty()) else {
                continue;
            };
            let name = self.names.field(id).ok_or_else(|| {
                self.inconsistent(format!(
                    "item {} has field id {id}, which no table names",
                    head.key
                ))
            })?;
            let value = if self.names.is_multipart_date(name) {
                multipart_to_str(&value).to_owned()
            } else if name == "accessDate" {
                iso_from_sql(&value)
            } else {
                value
            };
            let order = self.names.order(head.type_id, id).unwrap_or(i64::MAX);
            fields.push((order, name.to_owned(), value));
        }
        fields.sort();
        Ok(fields.into_iter().map(|(_, n, v)| (n, v)).collect())
    }

    /// `creators`: `{creatorType, firstName, lastName}` or `{creatorType, name}`.
    fn creators(&self, head: &Head) -> Result<Value> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT c.firstName, c.lastName, c.fieldMode, ic.creatorTypeID \
                 FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID \
                 WHERE ic.itemID = ?1 ORDER BY ic.orderIndex",
            )
            .at(&self.db_path)?;
        let rows = stmt
            .query_map([head.id], |r| {
                Ok((
                    text_of(r.get_ref(0)?).unwrap_or_default(),
                    text_of(r.get_ref(1)?).unwrap_or_default(),
                    r.get::<_, Option<i64>>(2)?.unwrap_or_default(),
                    r.get::<_, i64>(3)?,
                ))
            })
            .at(&self.db_path)?;
        let mut list = Vec::new();
        for row in rows {
            let (first, last, mode, type_id) = row.at(&self.db_path)?;
            let creator_type = self.names.creator_type(type_id).ok_or_else(|| {
                self.inconsistent(format!(
                    "item {} has creator type id {type_id}, which no table names",
                    head.key
                ))
            })?;
            list.push(if mode == 1 {
                json!({"creatorType": creator_type, "name": last})
            } else {
                json!({"creatorType": creator_type, "firstName": first, "lastName": last})
            });
        }
        Ok(Value::Array(list))
    }

    /// The note of item `id`, unwrapped, and its title, if it has a note row.
    fn note(&self, id: i64) -> Result<Option<(String, Option<String>)>> {
        self.conn
            .prepare_cached("SELECT note, title FROM itemNotes WHERE itemID = ?1")
            .at(&self.db_path)?
            .query_row([id], |r| {
                Ok((
                    unwrap_note(&text_of(r.get_ref(0)?).unwrap_or_default()),
                    text_of(r.get_ref(1)?),
                ))
            })
            .optional()
            .at(&self.db_path)
    }

    /// An attachment's row: link mode, content type, stored path and charset.
    fn attachment_row(&self, head: &Head) -> Result<AttachmentRow> {
        let charset = if self.tables.charsets {
            "(SELECT charset FROM charsets WHERE charsetID = a.charsetID)"
        } else {
            "NULL"
        };
        let sql = format!(
            "SELECT a.linkMode, a.contentType, a.path, {charset} FROM itemAttachments a WHERE a.itemID = ?1"
        );
        let row = self
            .conn
            .prepare_cached(&sql)
            .at(&self.db_path)?
            .query_row([head.id], |r| {
                Ok((
                    r.get::<_, Option<i64>>(0)?,
                    text_of(r.get_ref(1)?),
                    text_of(r.get_ref(2)?),
                    text_of(r.get_ref(3)?),
                ))
            })
            .optional()
            .at(&self.db_path)?;
        let (code, content_type, stored, charset) = row.ok_or_else(|| {
            self.inconsistent(format!("attachment {} has no attachment row", head.key))
        })?;
        let link_mode = code.and_then(LinkMode::from_code).ok_or_else(|| {
            self.inconsistent(format!(
                "attachment {} has link mode {}, which Zotero does not define",
                head.key,
                code.map_or_else(|| "NULL".to_owned(), |c| c.to_string())
            ))
        })?;
        Ok((link_mode, content_type, stored, charset))
    }

    /// Adds an attachment's members (`linkMode`, `contentType`, `charset`,
    /// `filename`, `path`, `lastRead`, `note`) to `json`, and returns its file.
    fn attachment(&self, head: &Head, json: &mut Map<String, Value>) -> Result<AttachmentFile> {
        let (link_mode, content_type, stored, charset) = self.attachment_row(head)?;
        let storage = self.storage_dir();
        let file = AttachmentFile::locate(
            link_mode,
            &head.key,
            stored.as_deref(),
            &storage,
            self.base_dir.as_deref(),
        );
        json.insert("linkMode".into(), link_mode.as_str().into());
        let members = [
            ("contentType", content_type.filter(|c| !c.is_empty())),
            (
                "charset",
                charset.filter(|_| link_mode != LinkMode::EmbeddedImage),
            ),
            ("filename", file.filename.clone()),
            ("path", file.json_path(&head.key, &storage)),
        ];
        for (member, value) in members {
            if let Some(v) = value {
                json.insert(member.into(), v.into());
            }
        }
        if let Some(last_read) = self.last_read(head.id)? {
            json.insert("lastRead".into(), last_read.into());
        }
        if let Some((note, _)) = self.note(head.id)?.filter(|(n, _)| !n.is_empty()) {
            json.insert("note".into(), note.into());
        }
        Ok(file)
    }

    /// When attachment `id` was last read (Unix seconds), as Zotero exports it: in
    /// the user library only, from `itemAttachments.lastRead` where the database
    /// has that column (`userdata` 124 and later).
    fn last_read(&self, id: i64) -> Result<Option<i64>> {
        if !self.tables.last_read || self.kind != crate::LibraryKind::User {
            return Ok(None);
        }
        self.conn
            .prepare_cached("SELECT lastRead FROM itemAttachments WHERE itemID = ?1")
            .at(&self.db_path)?
            .query_row([id], |r| Ok(text_of(r.get_ref(0)?)))
            .optional()
            .at(&self.db_path)
            .map(|v| v.flatten().and_then(|t| t.parse().ok()))
    }

    /// Whether item `id` is in My Publications (`publicationsItems`).
    fn in_publications(&self, id: i64) -> Result<bool> {
        if !self.tables.publications {
            return Ok(false);
        }
        self.conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM publicationsItems WHERE itemID = ?1)")
            .at(&self.db_path)?
            .query_row([id], |r| r.get(0))
            .at(&self.db_path)
    }

    /// Adds an annotation's `annotation*` members to `json`.
    fn annotation(&self, head: &Head, json: &mut Map<String, Value>) -> Result<()> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT type, authorName, text, comment, color, pageLabel, sortIndex, position \
                 FROM itemAnnotations WHERE itemID = ?1",
            )
            .at(&self.db_path)?
            .query_row([head.id], |r| {
                let mut text = Vec::with_capacity(7);
                for i in 1..8 {
                    text.push(text_of(r.get_ref(i)?).unwrap_or_default());
                }
                Ok((r.get::<_, Option<i64>>(0)?, text))
            })
            .optional()
            .at(&self.db_path)?;
        let (code, text) = row.ok_or_else(|| {
            self.inconsistent(format!("annotation {} has no annotation row", head.key))
        })?;
        let kind = code.and_then(annotation_type).ok_or_else(|| {
            self.inconsistent(format!(
                "annotation {} has type {}, which Zotero does not define",
                head.key,
                code.map_or_else(|| "NULL".to_owned(), |c| c.to_string())
            ))
        })?;
        json.insert("annotationType".into(), kind.into());
        let names = [
            "annotationAuthorName",
            "annotationText",
            "annotationComment",
            "annotationColor",
            "annotationPageLabel",
            "annotationSortIndex",
            "annotationPosition",
        ];
        for (name, value) in names.into_iter().zip(text) {
            // Only highlights and underlines have text.
            if name != "annotationText" || matches!(kind, "highlight" | "underline") {
                json.insert(name.into(), value.into());
            }
        }
        Ok(())
    }

    /// `tags`: `{tag}`, with `type: 1` for automatic tags, by name.
    fn tags(&self, id: i64) -> Result<Value> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT t.name, it.type FROM itemTags it JOIN tags t ON t.tagID = it.tagID \
                 WHERE it.itemID = ?1 ORDER BY t.name, it.type",
            )
            .at(&self.db_path)?;
        let rows = stmt
            .query_map([id], |r| {
                Ok((
                    text_of(r.get_ref(0)?).unwrap_or_default(),
                    r.get::<_, Option<i64>>(1)?,
                ))
            })
            .at(&self.db_path)?;
        let mut list = Vec::new();
        for row in rows {
            let (name, kind) = row.at(&self.db_path)?;
            list.push(match kind.unwrap_or_default() {
                0 => json!({"tag": name}),
                kind => json!({"tag": name, "type": kind}),
            });
        }
        Ok(Value::Array(list))
    }

    /// `collections`: the keys of the collections outside the trash holding item
    /// `id`, in key order.
    fn item_collections(&self, id: i64) -> Result<Value> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT collectionID FROM collectionItems WHERE itemID = ?1")
            .at(&self.db_path)?;
        let ids: Vec<i64> = stmt
            .query_map([id], |r| r.get(0))
            .at(&self.db_path)?
            .collect::<rusqlite::Result<_>>()
            .at(&self.db_path)?;
        let all = self.collection_rows()?;
        let mut keys: Vec<&str> = all
            .iter()
            .filter(|c| ids.contains(&c.id))
            .map(|c| c.key.as_str())
            .collect();
        keys.sort_unstable();
        Ok(json!(keys))
    }

    /// `relations`: predicate → object URI, or a list of them when there are several.
    fn relations(&self, id: i64) -> Result<Value> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT p.predicate, r.object FROM itemRelations r \
                 JOIN relationPredicates p ON p.predicateID = r.predicateID \
                 WHERE r.itemID = ?1 ORDER BY p.predicate, r.object",
            )
            .at(&self.db_path)?;
        let rows = stmt
            .query_map([id], |r| {
                Ok((
                    text_of(r.get_ref(0)?).unwrap_or_default(),
                    text_of(r.get_ref(1)?).unwrap_or_default(),
                ))
            })
            .at(&self.db_path)?;
        let mut relations = Map::new();
        for row in rows {
            let (predicate, object) = row.at(&self.db_path)?;
            match relations.get_mut(&predicate) {
                None => {
                    relations.insert(predicate, object.into());
                }
                Some(Value::Array(list)) => list.push(object.into()),
                Some(single) => *single = json!([single.take(), object]),
            }
        }
        Ok(Value::Object(relations))
    }
}
