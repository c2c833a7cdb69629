//! Tests across modules, on databases built by [`crate::testdb`].

mod items;
mod locks;
mod open;
mod scale;
mod select;
mod versions;

use std::path::{Path, PathBuf};

use crate::testdb::{Layout, TestDb, write_storage_file};
use crate::{Library, OpenOptions};

/// A data directory with the sample library, and the directories around it.
pub(crate) struct Sample {
    /// Holds everything; removed on drop.
    pub(crate) _root: tempfile::TempDir,
    /// The data directory.
    pub(crate) data: PathBuf,
    /// The base directory of linked files.
    pub(crate) base: PathBuf,
    /// The group library's `libraryID`.
    pub(crate) group: i64,
    /// A feed library's `libraryID`.
    pub(crate) feed: i64,
}

impl Sample {
    /// Opens the user library with the base directory.
    pub(crate) fn open(&self) -> Library {
        OpenOptions::new()
            .base_attachment_dir(&self.base)
            .open(&self.data)
            .unwrap()
    }
}

/// Builds the sample library (see the comments) with `layout`.
pub(crate) fn sample(layout: Layout) -> Sample {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("Zotero data");
    let base = root.path().join("Papers");
    let mut db = TestDb::create(&data, layout).unwrap();
    let (group, feed) = build(&mut db, root.path()).unwrap();
    drop(db);
    write_storage_file(&data, "ATTPDF01", "cats.pdf", b"%PDF-1.4").unwrap();
    write_storage_file(&data, "ATTURL01", "index.html", b"<html>").unwrap();
    write_storage_file(&data, "IMGEMB01", "image.png", b"\x89PNG").unwrap();
    std::fs::create_dir_all(base.join("sub")).unwrap();
    std::fs::write(base.join("sub/d.pdf"), b"%PDF").unwrap();
    Sample {
        _root: root,
        data,
        base,
        group,
        feed,
    }
}

/// A linked file outside the data directory.
pub(crate) fn linked_file(root: &Path) -> PathBuf {
    root.join("elsewhere/c.pdf")
}

fn build(db: &mut TestDb, root: &Path) -> rusqlite::Result<(i64, i64)> {
    // Collections: Reading > Cats; Old (trashed) > Older.
    db.collection("COLLREAD", "Reading").insert()?;
    db.collection("COLLCATS", "Cats")
        .parent("COLLREAD")
        .insert()?;
    db.collection("COLLOLD1", "Old").trashed().insert()?;
    db.collection("COLLOLD2", "Older")
        .parent("COLLOLD1")
        .insert()?;
    db.item("PAPER001", "journalArticle")
        .field("title", "Deep Learning for Cats")
        .field("date", "2020-05-01 May 1, 2020")
        .field("DOI", "10.1/cats")
        .field("PMID", "12345")
        .field("accessDate", "2024-02-03 04:05:06")
        .field_number("volume", 7)
        .field("abstractNote", "")
        .creator("author", "Ada", "Lovelace")
        .single_creator("editor", "The Cat Society")
        .tag("ml", 1)
        .tag("cats", 0)
        .in_collection("COLLREAD")
        .relation(
            "dc:relation",
            "http://zotero.org/users/local/abc/items/PAPER002",
        )
        .relation(
            "dc:relation",
            "http://zotero.org/users/local/abc/items/CASE0001",
        )
        .relation("owl:sameAs", "http://zotero.org/groups/1/items/X")
        .added("2024-01-01 10:00:00")
        .version(5)
        .insert()?;
    db.item("PAPER002", "conferencePaper")
        .field("title", "Dogs")
        .field("eventPlace", "Vienna")
        .in_collection("COLLREAD")
        .added("2023-12-31 09:00:00")
        .insert()?;
    db.item("CASE0001", "case")
        .field("caseName", "Cat v. Dog")
        .field("dateDecided", "1999-00-00 1999")
        .added("2024-01-05 00:00:00")
        .insert()?;
    db.item("ATTPDF01", "attachment")
        .parent("PAPER001")
        .field("title", "Full Text PDF")
        .attachment(0, Some("application/pdf"), Some("storage:cats.pdf"))
        .added("2024-01-01 10:05:00")
        .insert()?;
    db.item("ATTURL01", "attachment")
        .parent("PAPER001")
        .field("title", "Snapshot")
        .field("url", "https://example.org/cats")
        .attachment(1, Some("text/html"), Some("storage:index.html"))
        .charset("utf-8")
        .added("2024-01-01 10:06:00")
        .insert()?;
    let linked = linked_file(root);
    std::fs::create_dir_all(linked.parent().unwrap()).ok();
    std::fs::write(&linked, b"%PDF").ok();
    db.item("ATTLNK01", "attachment")
        .parent("PAPER002")
        .attachment(2, Some("application/pdf"), linked.to_str())
        .insert()?;
    db.item("ATTREL01", "attachment")
        .parent("PAPER002")
        .attachment(2, Some("application/pdf"), Some("attachments:sub/d.pdf"))
        .added("2024-01-01 10:01:00")
        .insert()?;
    db.item("ATTGONE1", "attachment")
        .parent("PAPER002")
        .attachment(0, Some("application/pdf"), Some("storage:gone.pdf"))
        .added("2024-01-01 10:02:00")
        .insert()?;
    db.item("ATTWEB01", "attachment")
        .field("title", "Cat page")
        .field("url", "https://example.org/")
        .attachment(3, None, None)
        .tag("cats", 0)
        .added("2024-01-04 00:00:00")
        .in_collection("COLLCATS")
        .insert()?;
    db.item("NOTE0001", "note")
        .parent("PAPER001")
        .note("<h1>Digest</h1><p>x &amp; y</p>")
        .note_title("Digest")
        .added("2024-01-01 11:00:00")
        .insert()?;
    db.item("IMGEMB01", "attachment")
        .parent("NOTE0001")
        .attachment(4, Some("image/png"), Some("storage:image.png"))
        .tag("ignored", 0)
        .insert()?;
    db.item("NOTESTD1", "note")
        .raw_note("old note\nline two")
        .tag("cats", 0)
        .in_collection("COLLCATS")
        .added("2024-01-02 00:00:00")
        .insert()?;
    db.item("ANNOT001", "annotation")
        .parent("ATTPDF01")
        .annotation(1, Some("purr"), Some("nice"))
        .tag("cats", 1)
        .added("2024-01-03 00:00:00")
        .insert()?;
    db.item("ANNOT002", "annotation")
        .parent("ATTPDF01")
        .annotation(2, None, Some("a note"))
        .added("2024-01-03 00:00:01")
        .insert()?;
    db.item("TRASHED1", "journalArticle")
        .field("title", "Gone")
        .tag("cats", 0)
        .tag("gone", 0)
        .in_collection("COLLREAD")
        .trashed()
        .insert()?;
    db.item("TRCHILD1", "note")
        .parent("TRASHED1")
        .note("<p>child of trash</p>")
        .tag("cats", 0)
        .insert()?;
    db.item("TRIMG001", "attachment")
        .parent("TRCHILD1")
        .attachment(4, Some("image/png"), Some("storage:image.png"))
        .insert()?;
    db.item("OLDITEM1", "book")
        .field("title", "In an old collection")
        .in_collection("COLLOLD2")
        .insert()?;
    let group = db.add_group(4242, "Cat Lab")?;
    db.collection("COLLREAD", "Group reading")
        .library(group)
        .insert()?;
    db.item("PAPER001", "book")
        .library(group)
        .field("title", "The group's own PAPER001")
        .tag("cats", 0)
        .in_collection("COLLREAD")
        .insert()?;
    db.item("GROUPIT1", "webpage")
        .library(group)
        .field("title", "Group page")
        .field("websiteTitle", "Cats Weekly")
        .insert()?;
    let feed = db.add_feed()?;
    db.item("FEEDIT01", "journalArticle")
        .library(feed)
        .field("title", "From a feed")
        .insert()?;
    Ok((group, feed))
}
