//! Reading what hookrun is given: a file where a file is meant, within a size
//! limit.
//!
//! Every file hookrun reads on a hook's or a user's say (manifests, cases,
//! selections, fixture files, bundles, attachment files) goes through
//! [`read_regular`]: it opens without blocking (a FIFO does not hang the
//! open), refuses anything that is not a regular file (FIFOs, devices,
//! sockets, directories) and reads at most `limit` bytes, so `/dev/zero` or a
//! file that grows while read cannot exhaust memory.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Most bytes of a JSON document hookrun reads whole (manifests, cases, settings,
/// case members, locks).
pub const MAX_JSON_BYTES: u64 = 256 * 1024 * 1024;

/// Most bytes of a selection, which is read as a stream.
pub const MAX_SELECTION_BYTES: u64 = 8 * 1024 * 1024 * 1024;

/// Most bytes of one file of a result bundle or a fixture's files.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024 * 1024;

/// `O_NONBLOCK` on Linux: an open of a FIFO returns at once.
const O_NONBLOCK: i32 = 0o4000;

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// Not a regular file.
    #[error("is a {0}, not a regular file")]
    NotRegular(&'static str),
    /// Larger than the limit.
    #[error("is larger than {limit} bytes")]
    TooLarge {
        /// The limit in bytes.
        limit: u64,
        /// The size seen, when known before reading.
        observed: Option<u64>,
    },
    /// The system refused.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl From<InputError> for std::io::Error {
    fn from(error: InputError) -> std::io::Error {
        match error {
            InputError::Io(error) => error,
            other => std::io::Error::new(std::io::ErrorKind::InvalidInput, other),
        }
    }
}

/// Opens `path` for reading if it is a regular file (symlinks followed).
pub fn open_regular(path: &Path) -> Result<(File, u64), InputError> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)?;
    let meta = file.metadata()?;
    let kind = meta.file_type();
    let what = if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("directory")
    } else if kind.is_fifo() {
        Some("FIFO")
    } else if kind.is_socket() {
        Some("socket")
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("device")
    } else {
        Some("special file")
    };
    match what {
        Some(what) => Err(InputError::NotRegular(what)),
        None => Ok((file, meta.len())),
    }
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let (file, size) = open_regular(path)?;
    if size > limit {
        return Err(InputError::TooLarge {
            limit,
            observed: Some(size),
        });
    }
    read_at_most(file, limit, size)
}

/// Everything `reader` yields, at most `limit` bytes (`expected` sizes the buffer).
pub fn read_at_most(reader: impl Read, limit: u64, expected: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::with_capacity(expected.min(limit) as usize);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(InputError::TooLarge {
            limit,
            observed: None,
        });
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, at most `limit` bytes of UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    String::from_utf8(read_regular(path, limit)?)
        .map_err(|e| InputError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// A reader that fails once more than `limit` bytes came through: a stream that
/// does not end is an error, not a read that runs out of memory or time.
pub struct Limited<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R: Read> Limited<R> {
    /// `inner`, failing past `limit` bytes.
    pub fn new(inner: R, limit: u64) -> Limited<R> {
        Limited {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = buf
            .len()
            .min(usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("the input is larger than {} bytes", self.limit),
            ));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Going back re-counts the limit from the position gone to: the limit holds
/// for the bytes after the stream's start, however often they are read.
impl<R: Read + std::io::Seek> std::io::Seek for Limited<R> {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let at = self.inner.seek(to)?;
        self.left = self.limit.saturating_sub(at);
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_read_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_regular(&path, 5).unwrap(), b"12345");
        assert!(matches!(
            read_regular(&path, 4),
            Err(InputError::TooLarge {
                limit: 4,
                observed: Some(5)
            })
        ));
        assert!(matches!(
            read_regular(dir.path(), 10),
            Err(InputError::NotRegular("directory"))
        ));
    }

    #[test]
    fn devices_and_fifos_are_refused_without_blocking() {
        assert!(matches!(
            read_regular(Path::new("/dev/zero"), 10),
            Err(InputError::NotRegular("device"))
        ));
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(matches!(
                read_regular(&fifo, 10),
                Err(InputError::NotRegular("FIFO"))
            ));
        }
    }

    #[test]
    fn a_limited_stream_fails_past_its_limit() {
        let mut out = Vec::new();
        let err = Limited::new(std::io::repeat(b' '), 100)
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(err.to_string().contains("larger than 100 bytes"));
        assert!(out.len() <= 100);
        let mut out = Vec::new();
        Limited::new(&b"12345"[..], 5)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"12345");
    }

    #[test]
    fn an_endless_reader_stops_past_the_limit() {
        let endless = std::io::repeat(7);
        assert!(matches!(
            read_at_most(endless, 1000, 0),
            Err(InputError::TooLarge { limit: 1000, .. })
        ));
    }

    #[test]
    fn a_stream_read_again_from_its_start_keeps_its_limit() {
        use std::io::{Cursor, Seek, SeekFrom};
        let mut limited = Limited::new(Cursor::new(b"12345".to_vec()), 4);
        let mut out = Vec::new();
        assert!(limited.read_to_end(&mut out).is_err());
        limited.seek(SeekFrom::Start(2)).unwrap();
        let mut out = Vec::new();
        assert!(
            limited.read_to_end(&mut out).is_err(),
            "the limit counts from the start"
        );
        limited.seek(SeekFrom::Start(0)).unwrap();
        let mut four = [0; 4];
        limited.read_exact(&mut four).unwrap();
        assert_eq!(&four, b"1234");
        assert!(limited.read(&mut [0; 1]).is_err());
    }
}
