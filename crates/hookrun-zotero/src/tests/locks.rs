//! Reading while another connection holds the database as Zotero does.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::sample;
use crate::testdb::Layout;
use crate::{DATABASE_FILE, LibraryChoice, open};

fn sidecars(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("-journal") || n.ends_with("-wal") || n.ends_with("-shm"))
        .collect();
    names.sort();
    names
}

#[test]
fn an_exclusive_lock_held_elsewhere_does_not_stop_reading() {
    let s = sample(Layout::default());
    let path = s.data.join(DATABASE_FILE);
    let bytes = std::fs::read(&path).unwrap();
    let locker = Connection::open(&path).unwrap();
    locker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    // An ordinary reader is locked out: the lock is real.
    let plain = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let refused = plain.query_row("SELECT COUNT(*) FROM items", [], |r| r.get::<_, i64>(0));
    assert!(refused.is_err(), "an ordinary reader was not locked out");
    drop(plain);

    let library = open(&s.data, LibraryChoice::User).unwrap();
    assert_eq!(
        library.item("PAPER001").unwrap().title.as_deref(),
        Some("Deep Learning for Cats")
    );
    assert!(library.item_count().unwrap() > 10);
    assert_eq!(sidecars(&s.data), Vec::<String>::new());
    drop(library);
    locker.execute_batch("ROLLBACK").unwrap();
    drop(locker);
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn a_database_held_in_wal_mode_with_exclusive_locking_reads_its_main_file() {
    let s = sample(Layout::default());
    let path = s.data.join(DATABASE_FILE);
    // As Zotero 10 holds it: exclusive locking mode, then WAL, then a change
    // not yet checkpointed.
    let zotero = Connection::open(&path).unwrap();
    zotero
        .execute_batch(
            "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;
             PRAGMA wal_autocheckpoint = 0;
             UPDATE itemDataValues SET value = 'Renamed' WHERE value = 'Dogs';",
        )
        .unwrap();
    let held = sidecars(&s.data);
    assert_eq!(held, ["zotero.sqlite-wal"]);

    let library = open(&s.data, LibraryChoice::User).unwrap();
    assert!(library.unread_wal_bytes().is_some_and(|n| n > 0));
    // The change in the WAL is not read: the main file is.
    assert_eq!(
        library.item("PAPER002").unwrap().title.as_deref(),
        Some("Dogs")
    );
    assert_eq!(sidecars(&s.data), held, "the read made a file");
    drop(library);
    drop(zotero);
    // Closed, the change is checkpointed and read.
    let library = open(&s.data, LibraryChoice::User).unwrap();
    assert_eq!(
        library.item("PAPER002").unwrap().title.as_deref(),
        Some("Renamed")
    );
    assert_eq!(library.unread_wal_bytes(), None);
    assert_eq!(sidecars(&s.data), Vec::<String>::new());
}
