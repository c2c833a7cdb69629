//! Zip safety limits and the validation of a zip's central directory before extraction.

use std::collections::HashSet;
use std::io::{Read, Seek};

use zip::ZipArchive;

use crate::bundle::entry_path::EntryPath;
use crate::bundle::error::{BundleError, UnsafePathReason};

/// Limits checked against the central directory before anything is extracted.
///
/// The defaults are the contract's (`04-requests-and-bundles.md` §6.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipLimits {
    /// Most entries (files and directories) an archive may hold. Default 20 000.
    pub max_entries: usize,
    /// Longest entry name, in characters. Default 1024.
    pub max_name_chars: usize,
    /// Deepest entry path, in segments. Default 64.
    pub max_depth: usize,
    /// Largest uncompressed entry, in bytes. Default 2 GiB.
    pub max_entry_size: u64,
    /// Largest total uncompressed size, in bytes. Default 16 GiB.
    pub max_total_size: u64,
    /// Largest ratio of an entry's uncompressed size to its compressed size, checked
    /// for entries larger than [`RATIO_CHECK_FLOOR`]: a zip bomb by ratio is refused
    /// before anything is written, even when its sizes fit the other limits.
    /// Default 200.
    pub max_ratio: u64,
}

/// Entries up to this uncompressed size (1 MiB) are never refused for their ratio.
pub const RATIO_CHECK_FLOOR: u64 = 1024 * 1024;

impl Default for ZipLimits {
    fn default() -> Self {
        Self {
            max_entries: 20_000,
            max_name_chars: 1024,
            max_depth: 64,
            max_entry_size: 2 * 1024 * 1024 * 1024,
            max_total_size: 16 * 1024 * 1024 * 1024,
            max_ratio: 200,
        }
    }
}

/// One validated entry of the central directory.
#[derive(Debug, Clone)]
pub(crate) struct IndexedEntry {
    /// Index of the entry in the archive.
    pub index: usize,
    /// The normalised entry path.
    pub path: EntryPath,
    /// Whether the entry is a directory.
    pub is_dir: bool,
    /// The declared uncompressed size.
    pub size: u64,
}

/// Validates every entry of `archive` against the path rules and `limits`.
///
/// Checks, in order: the entry count; duplicate raw names; then per entry its name
/// (UTF-8, path safety, length and depth), its kind (no symbolic links), duplicates after
/// normalisation, its declared size and the running total.
pub(crate) fn index_archive<R: Read + Seek>(
    archive: &ZipArchive<R>,
    limits: &ZipLimits,
) -> Result<Vec<IndexedEntry>, BundleError> {
    if archive.len() > limits.max_entries {
        return Err(BundleError::TooManyEntries {
            count: archive.len(),
            limit: limits.max_entries,
        });
    }
    if archive.has_duplicate_names() {
        return Err(BundleError::extract(
            "the archive holds several entries with the same name",
        ));
    }
    let mut seen = HashSet::new();
    let mut totals = Totals::default();
    let mut entries = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let data = archive.by_index_data(index).map_err(BundleError::extract)?;
        let raw = data.name_raw();
        let (name, path) = entry_name(raw, limits)?;
        if data.is_symlink() {
            return Err(unsafe_name(raw, UnsafePathReason::Symlink));
        }
        if !seen.insert(path.clone()) {
            return Err(unsafe_name(raw, UnsafePathReason::Duplicate));
        }
        let is_dir = data.is_dir();
        let size = if is_dir { 0 } else { data.size() };
        let compressed = data.compressed_size();
        check_entry_size(name, size, compressed, limits)?;
        totals.add(size, compressed, limits)?;
        entries.push(IndexedEntry {
            index,
            path,
            is_dir,
            size,
        });
    }
    Ok(entries)
}

/// The entry name `raw` as text and as a safe entry path, within the limits of name
/// length and depth.
fn entry_name<'a>(raw: &'a [u8], limits: &ZipLimits) -> Result<(&'a str, EntryPath), BundleError> {
    let name = std::str::from_utf8(raw).map_err(|_| unsafe_name(raw, UnsafePathReason::NotUtf8))?;
    let path = EntryPath::parse(name).map_err(|reason| unsafe_name(raw, reason))?;
    if name.chars().count() > limits.max_name_chars || path.depth() > limits.max_depth {
        return Err(BundleError::EntryPathTooLong {
            name: name.to_string(),
        });
    }
    Ok((name, path))
}

/// Checks one entry's declared `size` (and its ratio to `compressed`) against `limits`.
fn check_entry_size(
    name: &str,
    size: u64,
    compressed: u64,
    limits: &ZipLimits,
) -> Result<(), BundleError> {
    if size > limits.max_entry_size {
        return Err(BundleError::EntrySizeTooLarge {
            name: name.to_string(),
            detail: format!("{size} bytes > {} bytes", limits.max_entry_size),
        });
    }
    if size > RATIO_CHECK_FLOOR && size / compressed.max(1) > limits.max_ratio {
        return Err(BundleError::EntrySizeTooLarge {
            name: name.to_string(),
            detail: format!(
                "{size} bytes compressed to {compressed} bytes, a ratio above {}:1",
                limits.max_ratio
            ),
        });
    }
    Ok(())
}

/// The running sizes of the entries indexed so far.
#[derive(Default)]
struct Totals {
    /// Uncompressed bytes.
    total: u64,
    /// Compressed bytes.
    compressed: u64,
}

impl Totals {
    /// Adds one entry's sizes and checks the totals against `limits`.
    fn add(&mut self, size: u64, compressed: u64, limits: &ZipLimits) -> Result<(), BundleError> {
        self.total = self.total.saturating_add(size);
        self.compressed = self.compressed.saturating_add(compressed);
        let total = self.total;
        // The ratio holds for the entries together too: many small entries, each
        // under the floor, cannot add up to a bomb.
        if total > RATIO_CHECK_FLOOR && total / self.compressed.max(1) > limits.max_ratio {
            return Err(BundleError::TotalSizeTooLarge {
                total,
                limit: self.compressed.saturating_mul(limits.max_ratio),
            });
        }
        if total > limits.max_total_size {
            return Err(BundleError::TotalSizeTooLarge {
                total,
                limit: limits.max_total_size,
            });
        }
        Ok(())
    }
}

/// The unsafe-name error for a raw zip entry name.
fn unsafe_name(raw: &[u8], reason: UnsafePathReason) -> BundleError {
    BundleError::UnsafeZipEntryPath {
        name: String::from_utf8_lossy(raw).into_owned(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::test_support::{ZipSpec, archive_of, raw_zip};

    fn index(bytes: Vec<u8>, limits: &ZipLimits) -> Result<Vec<IndexedEntry>, BundleError> {
        index_archive(&archive_of(bytes), limits)
    }

    fn unsafe_message(name: &str) -> String {
        let bytes = raw_zip(&[(name.as_bytes(), b"x")]);
        match index(bytes, &ZipLimits::default()) {
            Ok(_) => panic!("{name:?} was accepted"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn refuses_unsafe_names_with_the_contract_message() {
        for name in ["/abs", "C:/x", "a/../b", "./a", "..\\x"] {
            assert_eq!(
                unsafe_message(name),
                format!("Unsafe zip entry path: {name}")
            );
        }
        assert_eq!(
            unsafe_message("a\0b"),
            "Unsafe zip entry path: a\\0b (contains a NUL byte)"
        );
    }

    #[test]
    fn refuses_an_empty_name() {
        let bytes = raw_zip(&[(b"", b"x")]);
        let error = index(bytes, &ZipLimits::default()).expect_err("empty name");
        assert_eq!(error.to_string(), "Unsafe zip entry path: ");
    }

    #[test]
    fn refuses_a_non_utf8_name() {
        let bytes = raw_zip(&[(b"n\xff.txt", b"x")]);
        let error = index(bytes, &ZipLimits::default()).expect_err("non-UTF-8 name");
        assert_eq!(
            error.to_string(),
            "Unsafe zip entry path: n\u{fffd}.txt (entry name is not valid UTF-8)"
        );
    }

    #[test]
    fn refuses_duplicates_raw_and_after_normalisation() {
        let raw = raw_zip(&[(b"dupA", b"1"), (b"dupA", b"2")]);
        let error = index(raw, &ZipLimits::default()).expect_err("raw duplicate");
        assert_eq!(
            error.to_string(),
            "Failed to extract workflow bundle: the archive holds several entries with the same name"
        );
        let normalised = ZipSpec::new().file("a/b", b"1").file("a\\b", b"2").build();
        let error = index(normalised, &ZipLimits::default()).expect_err("normalised duplicate");
        assert_eq!(
            error.to_string(),
            "Unsafe zip entry path: a\\b (duplicate entry name)"
        );
    }

    #[test]
    fn refuses_symlink_entries() {
        let bytes = ZipSpec::new().symlink("link", "/etc/passwd").build();
        let error = index(bytes, &ZipLimits::default()).expect_err("symlink");
        assert_eq!(
            error.to_string(),
            "Unsafe zip entry path: link (symbolic link entries are not allowed)"
        );
    }

    #[test]
    fn enforces_each_limit() {
        let limits = ZipLimits {
            max_entries: 2,
            max_name_chars: 8,
            max_depth: 2,
            max_entry_size: 10,
            max_total_size: 15,
            max_ratio: 200,
        };
        let many = ZipSpec::new()
            .file("a", b"")
            .file("b", b"")
            .file("c", b"")
            .build();
        assert_eq!(
            index(many, &limits).expect_err("count").to_string(),
            "Workflow bundle contains too many entries"
        );
        let long = ZipSpec::new().file("abcdefghi", b"").build();
        assert_eq!(
            index(long, &limits).expect_err("length").to_string(),
            "Workflow bundle entry path exceeds limits: abcdefghi"
        );
        let deep = ZipSpec::new().file("a/b/c", b"").build();
        assert_eq!(
            index(deep, &limits).expect_err("depth").to_string(),
            "Workflow bundle entry path exceeds limits: a/b/c"
        );
        let big = ZipSpec::new().file("big", &[0; 11]).build();
        assert_eq!(
            index(big, &limits).expect_err("entry size").to_string(),
            "Workflow bundle entry size exceeds limits: big (11 bytes > 10 bytes)"
        );
        let total = ZipSpec::new().file("a", &[0; 8]).file("b", &[0; 8]).build();
        assert_eq!(
            index(total, &limits).expect_err("total size").to_string(),
            "Workflow bundle total size exceeds limits (16 bytes > 15 bytes)"
        );
    }

    #[test]
    fn refuses_a_bomb_by_ratio_within_the_size_limits() {
        let bomb = ZipSpec::new()
            .file("zeros.bin", &vec![0; 8 * 1024 * 1024])
            .build();
        let message = index(bomb, &ZipLimits::default())
            .expect_err("ratio")
            .to_string();
        assert!(
            message.starts_with(
                "Workflow bundle entry size exceeds limits: zeros.bin (8388608 bytes compressed to "
            ) && message.ends_with("bytes, a ratio above 200:1)"),
            "{message}"
        );
        let small = ZipSpec::new()
            .file("zeros.bin", &vec![0; 1024 * 1024])
            .build();
        assert_eq!(index(small, &ZipLimits::default()).expect("small").len(), 1);
    }

    #[test]
    fn accepts_directories_and_files() {
        let bytes = ZipSpec::new()
            .dir("artifacts/")
            .file("artifacts/digest.md", b"# D")
            .build();
        let entries = index(bytes, &ZipLimits::default()).expect("valid");
        let paths: Vec<&str> = entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["artifacts", "artifacts/digest.md"]);
        assert!(entries[0].is_dir);
        assert_eq!(entries[1].size, 3);
    }
}
