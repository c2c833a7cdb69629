//! Builders for test zips: well-formed ones through the `zip` crate, hostile ones byte by
//! byte.

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use zip::ZipArchive;
use zip::write::{SimpleFileOptions, ZipWriter};

/// A zip built through the `zip` crate, entries deflated.
pub(crate) struct ZipSpec {
    writer: ZipWriter<Cursor<Vec<u8>>>,
}

impl ZipSpec {
    /// An empty archive.
    pub(crate) fn new() -> Self {
        Self {
            writer: ZipWriter::new(Cursor::new(Vec::new())),
        }
    }

    fn options() -> SimpleFileOptions {
        SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated)
    }

    /// Adds a file.
    pub(crate) fn file(mut self, name: &str, data: &[u8]) -> Self {
        self.writer
            .start_file(name, Self::options())
            .expect("start file");
        self.writer.write_all(data).expect("write file");
        self
    }

    /// Adds a directory entry.
    pub(crate) fn dir(mut self, name: &str) -> Self {
        self.writer
            .add_directory(name, Self::options())
            .expect("add directory");
        self
    }

    /// Adds a symbolic link entry.
    pub(crate) fn symlink(mut self, name: &str, target: &str) -> Self {
        self.writer
            .add_symlink(name, target, Self::options())
            .expect("add symlink");
        self
    }

    /// The archive's bytes.
    pub(crate) fn build(self) -> Vec<u8> {
        self.writer.finish().expect("finish zip").into_inner()
    }
}

/// A zip of stored entries written byte by byte, so names may be anything.
pub(crate) fn raw_zip(entries: &[(&[u8], &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in entries {
        let offset = out.len() as u32;
        let crc = crc32(data);
        let name_len = name.len() as u16;
        let size = data.len() as u32;
        put(&mut out, &[0x04034b50]);
        put16(&mut out, &[20, 0, 0, 0, 0x21]);
        put(&mut out, &[crc, size, size]);
        put16(&mut out, &[name_len, 0]);
        out.extend_from_slice(name);
        out.extend_from_slice(data);
        put(&mut central, &[0x02014b50]);
        put16(&mut central, &[0x031e, 20, 0, 0, 0, 0x21]);
        put(&mut central, &[crc, size, size]);
        put16(&mut central, &[name_len, 0, 0, 0, 0]);
        put(&mut central, &[0o100644 << 16, offset]);
        central.extend_from_slice(name);
    }
    let central_offset = out.len() as u32;
    let central_size = central.len() as u32;
    out.extend_from_slice(&central);
    let count = entries.len() as u16;
    put(&mut out, &[0x06054b50]);
    put16(&mut out, &[0, 0, count, count]);
    put(&mut out, &[central_size, central_offset]);
    put16(&mut out, &[0]);
    out
}

fn put(out: &mut Vec<u8>, values: &[u32]) {
    values
        .iter()
        .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
}

fn put16(out: &mut Vec<u8>, values: &[u16]) {
    values
        .iter()
        .for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
}

fn crc32(data: &[u8]) -> u32 {
    !data.iter().fold(!0u32, |crc, byte| {
        (0..8).fold(crc ^ u32::from(*byte), |c, _| {
            if c & 1 == 1 {
                (c >> 1) ^ 0xedb8_8320
            } else {
                c >> 1
            }
        })
    })
}

/// Rewrites the declared uncompressed size of the (single) entry of `bytes`, in both its
/// local and its central header, leaving the compressed data as it is.
pub(crate) fn declare_size(mut bytes: Vec<u8>, size: u32) -> Vec<u8> {
    let local = find(&bytes, b"PK\x03\x04").expect("local header") + 22;
    let central = find(&bytes, b"PK\x01\x02").expect("central header") + 24;
    for at in [local, central] {
        bytes[at..at + 4].copy_from_slice(&size.to_le_bytes());
    }
    bytes
}

fn find(bytes: &[u8], needle: &[u8]) -> Option<usize> {
    bytes.windows(needle.len()).position(|w| w == needle)
}

/// An archive reader over `bytes`.
pub(crate) fn archive_of(bytes: Vec<u8>) -> ZipArchive<Cursor<Vec<u8>>> {
    ZipArchive::new(Cursor::new(bytes)).expect("readable zip")
}

/// Writes `bytes` to `dir/name` and returns the path.
pub(crate) fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::fs::write(&path, bytes).expect("write file");
    path
}

/// The names in `dir`, sorted.
pub(crate) fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| {
            e.expect("dir entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
