//! The rows an inserted item writes: its data, its note, attachment or
//! annotation row, and the tables marking it (trash, My Publications).

use rusqlite::params;

use super::item::{AnnotationRow, AttachmentRow, ItemRow};
use super::{TestDb, unknown};

/// Writes an item's fields, creators, tags, collections and relations.
pub(super) fn data(db: &TestDb, id: i64, row: &ItemRow) -> rusqlite::Result<()> {
    fields(db, id, row)?;
    creators(db, id, row)?;
    links(db, id, row)
}

/// Writes an item's field values, each value once in `itemDataValues`.
fn fields(db: &TestDb, id: i64, row: &ItemRow) -> rusqlite::Result<()> {
    for (name, value) in &row.fields {
        let field = *db
            .fields
            .get(name.as_str())
            .ok_or_else(|| unknown(format!("field {name}")))?;
        db.conn.execute(
            "INSERT OR IGNORE INTO itemDataValues (value) VALUES (?1)",
            [value],
        )?;
        let value_id: i64 = db.conn.query_row(
            "SELECT valueID FROM itemDataValues WHERE value = ?1",
            [value],
            |r| r.get(0),
        )?;
        db.conn.execute(
            "INSERT INTO itemData VALUES (?1, ?2, ?3)",
            params![id, field, value_id],
        )?;
    }
    Ok(())
}

/// Writes an item's creators in order, each creator once in `creators`.
fn creators(db: &TestDb, id: i64, row: &ItemRow) -> rusqlite::Result<()> {
    for (index, (kind, first, last, mode)) in row.creators.iter().enumerate() {
        let kind_id = *db
            .creator_types
            .get(kind.as_str())
            .ok_or_else(|| unknown(format!("creator type {kind}")))?;
        db.conn.execute(
            "INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?1, ?2, ?3)",
            params![first, last, mode],
        )?;
        let creator: i64 = db.conn.query_row(
            "SELECT creatorID FROM creators WHERE firstName = ?1 AND lastName = ?2 AND fieldMode = ?3",
            params![first, last, mode],
            |r| r.get(0),
        )?;
        db.conn.execute(
            "INSERT INTO itemCreators VALUES (?1, ?2, ?3, ?4)",
            params![id, creator, kind_id, index as i64],
        )?;
    }
    Ok(())
}

/// Writes an item's tags, collection memberships and relations.
fn links(db: &TestDb, id: i64, row: &ItemRow) -> rusqlite::Result<()> {
    for (name, kind) in &row.tags {
        let tag = db.upsert_id("tags", "tagID", "name", name)?;
        db.conn.execute(
            "INSERT INTO itemTags VALUES (?1, ?2, ?3)",
            params![id, tag, kind],
        )?;
    }
    for key in &row.collections {
        let collection = db.id_of("collections", "collectionID", row.library, key)?;
        db.conn.execute(
            "INSERT INTO collectionItems (collectionID, itemID) VALUES (?1, ?2)",
            params![collection, id],
        )?;
    }
    for (predicate, object) in &row.relations {
        let p = db.upsert_id("relationPredicates", "predicateID", "predicate", predicate)?;
        db.conn.execute(
            "INSERT INTO itemRelations VALUES (?1, ?2, ?3)",
            params![id, p, object],
        )?;
    }
    Ok(())
}

/// Writes the note, attachment or annotation row of an item.
pub(super) fn kind_rows(
    db: &TestDb,
    id: i64,
    parent: Option<i64>,
    row: &ItemRow,
) -> rusqlite::Result<()> {
    if row.note.is_some() || row.item_type == "note" {
        // An attachment's own note has no parent in `itemNotes`.
        let parent = parent.filter(|_| row.item_type == "note");
        db.conn.execute(
            "INSERT INTO itemNotes (itemID, parentItemID, note, title) VALUES (?1, ?2, ?3, ?4)",
            params![
                id,
                parent,
                row.note.as_deref().unwrap_or(""),
                row.note_title
            ],
        )?;
    }
    if let Some(a) = &row.attachment {
        attachment(db, id, parent, a)?;
    }
    if let Some(a) = &row.annotation {
        let parent =
            parent.ok_or_else(|| unknown(format!("annotation {} needs a parent", row.key)))?;
        annotation(db, id, parent, a)?;
    }
    Ok(())
}

/// Writes an attachment row; `lastRead` only where the table has that column.
fn attachment(
    db: &TestDb,
    id: i64,
    parent: Option<i64>,
    a: &AttachmentRow,
) -> rusqlite::Result<()> {
    let charset = match &a.charset {
        Some(c) => Some(db.upsert_id("charsets", "charsetID", "charset", c)?),
        None => None,
    };
    db.conn.execute(
        "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, charsetID, path) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![id, parent, a.link_mode, a.content_type, charset, a.path],
    )?;
    if let Some(seconds) = a.last_read {
        db.conn.execute(
            "UPDATE itemAttachments SET lastRead = ?2 WHERE itemID = ?1",
            params![id, seconds],
        )?;
    }
    Ok(())
}

/// Writes an annotation row, naming its columns: later versions add some.
fn annotation(db: &TestDb, id: i64, parent: i64, a: &AnnotationRow) -> rusqlite::Result<()> {
    db.conn.execute(
        "INSERT INTO itemAnnotations (itemID, parentItemID, type, authorName, text, comment, \
         color, pageLabel, sortIndex, position, isExternal) \
         VALUES (?1, ?2, ?3, 'Ada', ?4, ?5, '#ffd400', '1', '00000|000000|00000', \
         '{\"pageIndex\":0,\"rects\":[[1,2,3,4]]}', 0)",
        params![id, parent, a.kind, a.text, a.comment],
    )?;
    Ok(())
}

/// Records an item in the trash and in My Publications as its row says.
pub(super) fn flags(db: &TestDb, id: i64, row: &ItemRow) -> rusqlite::Result<()> {
    if row.trashed {
        db.conn
            .execute("INSERT INTO deletedItems (itemID) VALUES (?1)", [id])?;
    }
    if row.in_publications {
        db.conn
            .execute("INSERT INTO publicationsItems (itemID) VALUES (?1)", [id])?;
    }
    Ok(())
}
