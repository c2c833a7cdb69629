//! A cheap check of an SQLite file before SQLite opens it: its 100-byte header
//! and its length.
//!
//! This reads one block of the file whatever its size, and finds what a full
//! `PRAGMA quick_check` (which reads every page) would mostly find first in a
//! copied or downloaded database: a file that is not SQLite, and a file cut short.
//! Damage inside the pages is found by the reads that meet it ([`Error::Corrupt`]).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// The first 16 bytes of every SQLite 3 database.
const MAGIC: &[u8; 16] = b"SQLite format 3\0";
/// The header's length.
const HEADER_LEN: usize = 100;

/// What the header says about the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Header {
    /// Whether the database is in WAL mode (read and write versions 2).
    pub(crate) wal: bool,
}

/// Checks the header and the length of the database at `path`.
pub(crate) fn check(path: &Path) -> Result<Header> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut bytes = Vec::with_capacity(HEADER_LEN);
    file.by_ref()
        .take(HEADER_LEN as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    parse(&bytes, len).map_err(|problem| match problem {
        Problem::NotSqlite(detail) => Error::NotSqlite {
            path: path.to_path_buf(),
            detail,
        },
        Problem::Corrupt(detail) => Error::Corrupt {
            path: path.to_path_buf(),
            detail,
        },
    })
}

/// Why a header was refused.
#[derive(Debug, PartialEq, Eq)]
enum Problem {
    NotSqlite(String),
    Corrupt(String),
}

fn be_u32(bytes: &[u8], at: usize) -> u64 {
    bytes.get(at..at + 4).map_or(0, |b| {
        u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    })
}

/// Reads the header `bytes` (the file's first bytes, at most 100) of a file of `len` bytes.
fn parse(bytes: &[u8], len: u64) -> Result<Header, Problem> {
    if len == 0 {
        return Err(Problem::NotSqlite("the file is empty".into()));
    }
    let prefix = &MAGIC[..bytes.len().min(MAGIC.len())];
    if !bytes.starts_with(prefix) {
        return Err(Problem::NotSqlite(
            "it does not start with the SQLite 3 header".into(),
        ));
    }
    if bytes.len() < HEADER_LEN {
        return Err(Problem::Corrupt(format!(
            "truncated: {len} bytes, shorter than the 100-byte SQLite header"
        )));
    }
    let page_size = match u16::from_be_bytes([bytes[16], bytes[17]]) {
        1 => 65_536,
        n if n >= 512 && n.is_power_of_two() => u64::from(n),
        n => {
            return Err(Problem::Corrupt(format!(
                "the header's page size {n} is not a power of two from 512 to 65536"
            )));
        }
    };
    let change_counter = be_u32(bytes, 24);
    let count = be_u32(bytes, 28);
    let valid_for = be_u32(bytes, 92);
    let page_count = (count > 0 && valid_for == change_counter).then_some(count);
    if let Some(pages) = page_count {
        let expected = pages.saturating_mul(page_size);
        if len < expected {
            return Err(Problem::Corrupt(format!(
                "truncated: the header counts {pages} pages of {page_size} bytes ({expected} bytes) but the file has {len} bytes"
            )));
        }
    }
    if !len.is_multiple_of(page_size) {
        return Err(Problem::Corrupt(format!(
            "truncated: {len} bytes is not a whole number of {page_size}-byte pages"
        )));
    }
    Ok(Header {
        wal: bytes[18] == 2 && bytes[19] == 2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(page_size: u16, pages: u32) -> Vec<u8> {
        let mut h = vec![0u8; HEADER_LEN];
        h[..16].copy_from_slice(MAGIC);
        h[16..18].copy_from_slice(&page_size.to_be_bytes());
        h[18] = 1;
        h[19] = 1;
        h[24..28].copy_from_slice(&7u32.to_be_bytes());
        h[28..32].copy_from_slice(&pages.to_be_bytes());
        h[92..96].copy_from_slice(&7u32.to_be_bytes());
        h
    }

    #[test]
    fn a_whole_file_passes() {
        let h = header(4096, 3);
        assert_eq!(parse(&h, 3 * 4096), Ok(Header { wal: false }));
        // More pages than counted (a database another program grew) pass too.
        assert!(parse(&h, 5 * 4096).is_ok());
        // Page size 1 stands for 65536.
        let h = header(1, 1);
        assert!(parse(&h, 65_536).is_ok());
        assert!(matches!(parse(&h, 4096), Err(Problem::Corrupt(_))));
    }

    #[test]
    fn files_that_are_not_sqlite_are_named_so() {
        assert_eq!(
            parse(b"", 0),
            Err(Problem::NotSqlite("the file is empty".into()))
        );
        assert!(matches!(
            parse(b"PK\x03\x04 a zip file", 18),
            Err(Problem::NotSqlite(_))
        ));
        assert!(matches!(parse(b"SQL", 3), Err(Problem::Corrupt(_))));
    }

    #[test]
    fn short_files_are_truncated() {
        let h = header(4096, 10);
        let Err(Problem::Corrupt(detail)) = parse(&h, 4 * 4096) else {
            panic!("a short file passed")
        };
        assert!(detail.contains("10 pages"), "{detail}");
        assert!(matches!(parse(&h[..50], 50), Err(Problem::Corrupt(_))));
        // Without a valid count, a partial page still shows.
        let mut h = header(4096, 10);
        h[92..96].copy_from_slice(&1u32.to_be_bytes());
        assert!(matches!(
            parse(&h, 4096 * 10 + 100),
            Err(Problem::Corrupt(_))
        ));
        assert!(parse(&h, 4096 * 2).is_ok());
    }

    #[test]
    fn bad_page_sizes_and_wal_mode_are_read() {
        assert!(matches!(
            parse(&header(1000, 1), 1000),
            Err(Problem::Corrupt(_))
        ));
        let mut h = header(4096, 1);
        h[18] = 2;
        h[19] = 2;
        assert_eq!(parse(&h, 4096).map(|h| h.wal), Ok(true));
    }
}
