//! Opening: every refusal names its path; the database is never changed.

use std::path::Path;

use super::sample;
use crate::testdb::{Layout, TestDb};
use crate::{DATABASE_FILE, Error, LibraryChoice, LibraryKind, open};

fn db_file(dir: &Path) -> std::path::PathBuf {
    dir.join(DATABASE_FILE)
}

#[test]
fn a_missing_directory_or_database_is_named() {
    let root = tempfile::tempdir().unwrap();
    let missing = root.path().join("nope");
    let err = open(&missing, LibraryChoice::User).unwrap_err();
    assert!(matches!(&err, Error::MissingDataDir { path } if *path == missing));
    assert!(err.to_string().contains("nope"), "{err}");

    let file = root.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    assert!(matches!(
        open(&file, LibraryChoice::User),
        Err(Error::NotADirectory { .. })
    ));

    let err = open(root.path(), LibraryChoice::User).unwrap_err();
    assert!(matches!(&err, Error::MissingDatabase { path } if path.ends_with(DATABASE_FILE)));
    assert!(
        err.to_string().contains("zotero.sqlite does not exist"),
        "{err}"
    );
}

#[test]
fn a_file_that_is_not_sqlite_is_named() {
    let root = tempfile::tempdir().unwrap();
    for bytes in [&b""[..], b"{\"items\": []}\n", &[0u8; 4096][..]] {
        std::fs::write(db_file(root.path()), bytes).unwrap();
        let err = open(root.path(), LibraryChoice::User).unwrap_err();
        assert!(matches!(err, Error::NotSqlite { .. }), "{err}");
        assert!(
            err.to_string()
                .contains("zotero.sqlite is not an SQLite database")
        );
    }
}

#[test]
fn an_sqlite_file_without_zotero_tables_is_named() {
    let root = tempfile::tempdir().unwrap();
    let conn = rusqlite::Connection::open(db_file(root.path())).unwrap();
    conn.execute_batch("CREATE TABLE notes (x)").unwrap();
    drop(conn);
    let err = open(root.path(), LibraryChoice::User).unwrap_err();
    assert!(matches!(err, Error::NotZotero { .. }), "{err}");
    assert!(err.to_string().contains("it has no table version"), "{err}");
}

#[test]
fn a_truncated_database_is_corrupt() {
    let s = sample(Layout::default());
    let path = db_file(&s.data);
    let bytes = std::fs::read(&path).unwrap();
    for keep in [bytes.len() / 2, 4096 + 100, 60] {
        std::fs::write(&path, &bytes[..keep]).unwrap();
        let err = open(&s.data, LibraryChoice::User).unwrap_err();
        assert!(matches!(err, Error::Corrupt { .. }), "{keep}: {err}");
        assert!(err.to_string().contains("truncated"), "{err}");
    }
}

#[test]
fn damaged_pages_are_found_by_quick_check_and_by_the_reads_meeting_them() {
    let s = sample(Layout::default());
    let path = db_file(&s.data);
    let pristine = std::fs::read(&path).unwrap();
    let page = 4096;
    assert!(pristine.len() > 8 * page, "{}", pristine.len());
    // The one page of the annotations table, which opening does not read: the
    // library opens, quick_check and a read of an annotation find the damage.
    let root: usize = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row(
            "SELECT rootpage FROM sqlite_master WHERE name = 'itemAnnotations'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut bytes = pristine.clone();
    bytes[(root - 1) * page..root * page].fill(0xA5);
    std::fs::write(&path, &bytes).unwrap();
    let library = open(&s.data, LibraryChoice::User).unwrap();
    let err = library.quick_check().unwrap_err();
    assert!(matches!(err, Error::Corrupt { .. }), "{err}");
    let err = library.item("ANNOT001").unwrap_err();
    assert!(matches!(err, Error::Corrupt { .. }), "{err}");
    drop(library);
    // Every page after the first: the first read meeting one says so.
    let mut bytes = pristine;
    bytes[page..].fill(0xA5);
    std::fs::write(&path, &bytes).unwrap();
    let err = open(&s.data, LibraryChoice::User)
        .and_then(|library| library.item_keys().map(drop))
        .unwrap_err();
    assert!(matches!(err, Error::Corrupt { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("zotero.sqlite is truncated or corrupt"),
        "{err}"
    );
}

#[test]
fn versions_outside_the_supported_range_are_refused() {
    for (version, ok) in [
        (111, false),
        (119, false),
        (120, true),
        (129, true),
        (130, false),
    ] {
        let root = tempfile::tempdir().unwrap();
        let layout = Layout {
            userdata: version,
            ..Layout::default()
        };
        drop(TestDb::create(root.path(), layout).unwrap());
        let result = open(root.path(), LibraryChoice::User);
        assert_eq!(result.is_ok(), ok, "{version}");
        if let Err(err) = result {
            assert!(
                matches!(err, Error::UnsupportedSchema { found, .. } if found == version),
                "{err}"
            );
            assert!(err.to_string().contains(&format!("version {version}")));
        }
    }
}

#[test]
fn an_opened_library_reports_its_versions_and_kind() {
    let s = sample(Layout::default());
    let library = s.open();
    assert_eq!(library.schema_versions().userdata, 123);
    assert_eq!(library.schema_versions().global_schema, Some(41));
    assert_eq!(library.kind(), &LibraryKind::User);
    assert_eq!(library.storage_dir(), library.data_dir().join("storage"));
    assert_eq!(library.unread_wal_bytes(), None);
    library.quick_check().unwrap();
    let group = open(&s.data, LibraryChoice::Id(s.group as u64)).unwrap();
    assert_eq!(
        group.kind(),
        &LibraryKind::Group {
            group_id: 4242,
            name: "Cat Lab".into()
        }
    );
    let err = open(&s.data, LibraryChoice::Id(s.feed as u64)).unwrap_err();
    assert!(matches!(err, Error::UnknownLibrary { .. }), "{err}");
    assert!(
        err.to_string().contains("(group 4242 \"Cat Lab\")"),
        "{err}"
    );
}

/// The names in a data directory and the bytes of its database.
fn snapshot(dir: &Path) -> (Vec<String>, Vec<u8>) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (names, std::fs::read(db_file(dir)).unwrap())
}

#[test]
fn reading_changes_no_byte_and_creates_no_file() {
    let s = sample(Layout::default());
    let before = snapshot(&s.data);
    {
        let library = s.open();
        for key in library.item_keys().unwrap() {
            library.item(&key).unwrap();
        }
        library.collections().unwrap();
        library.quick_check().unwrap();
        // Sidecar files would exist now, while the connection is open.
        assert_eq!(snapshot(&s.data), before);
    }
    assert_eq!(snapshot(&s.data), before);
    assert!(
        !before
            .0
            .iter()
            .any(|n| n.ends_with("-journal") || n.ends_with("-wal") || n.ends_with("-shm"))
    );
}

#[test]
fn data_directories_with_uri_characters_in_their_path_open() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("a b?c#d%e");
    let mut db = TestDb::create(&dir, Layout::default()).unwrap();
    db.item("PAPER001", "book").insert().unwrap();
    drop(db);
    let library = open(&dir, LibraryChoice::User).unwrap();
    assert_eq!(library.item_keys().unwrap(), ["PAPER001"]);
}
