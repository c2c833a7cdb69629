//! The bundle reader handed to `applyResult`: one of the three kinds.

use std::path::Path;

use serde::Serialize;

use crate::bundle::dir_reader::DirBundle;
use crate::bundle::error::BundleError;
use crate::bundle::unavailable::UnavailableBundle;
use crate::bundle::zip_reader::{ZipBundle, ZipOptions};

/// Which kind of reader a [`BundleReader`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum BundleReaderKind {
    /// A zip archive, extracted on first use.
    Zip,
    /// An existing directory.
    Directory,
    /// No bundle at all.
    Unavailable,
}

impl BundleReaderKind {
    /// `zip`, `directory` or `unavailable`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Zip => "zip",
            Self::Directory => "directory",
            Self::Unavailable => "unavailable",
        }
    }

    /// The reader members the contract offers hooks for this kind
    /// (`04-requests-and-bundles.md` §6.1): `readText` always, `getExtractedDir` for zip
    /// and directory readers, `readBytes` for directory readers only.
    pub fn hook_members(self) -> &'static [&'static str] {
        match self {
            Self::Zip => &["readText", "getExtractedDir"],
            Self::Directory => &["readText", "readBytes", "getExtractedDir"],
            Self::Unavailable => &["readText"],
        }
    }
}

/// A result bundle reader: zip, directory or unavailable.
#[derive(Debug)]
pub enum BundleReader {
    /// A zip archive.
    Zip(Box<ZipBundle>),
    /// A directory.
    Directory(DirBundle),
    /// No bundle.
    Unavailable(UnavailableBundle),
}

impl BundleReader {
    /// Chooses the reader for a provider result (`04-requests-and-bundles.md` §6.2):
    /// `bundle_bytes` → zip reader over a temporary copy; else `bundle_dir` → directory
    /// reader; else the unavailable reader for `request_id`.
    pub fn for_result(
        request_id: &str,
        bundle_bytes: Option<&[u8]>,
        bundle_dir: Option<&Path>,
        zip_options: ZipOptions,
    ) -> Result<Self, BundleError> {
        match (bundle_bytes, bundle_dir) {
            (Some(bytes), _) => {
                ZipBundle::from_bytes(request_id, bytes, zip_options).map(Self::from)
            }
            (None, Some(dir)) => DirBundle::open(dir).map(Self::Directory),
            (None, None) => Ok(Self::Unavailable(UnavailableBundle::new(request_id))),
        }
    }

    /// The reader's kind.
    pub fn kind(&self) -> BundleReaderKind {
        match self {
            Self::Zip(_) => BundleReaderKind::Zip,
            Self::Directory(_) => BundleReaderKind::Directory,
            Self::Unavailable(_) => BundleReaderKind::Unavailable,
        }
    }

    /// The bytes of `entry`.
    pub fn read_bytes(&self, entry: &str) -> Result<Vec<u8>, BundleError> {
        match self {
            Self::Zip(zip) => zip.read_bytes(entry),
            Self::Directory(dir) => dir.read_bytes(entry),
            Self::Unavailable(none) => none.read_bytes(entry),
        }
    }

    /// The text of `entry`, decoded as strict UTF-8 (`readText`).
    pub fn read_text(&self, entry: &str) -> Result<String, BundleError> {
        String::from_utf8(self.read_bytes(entry)?).map_err(|_| BundleError::InvalidUtf8 {
            entry: entry.to_string(),
        })
    }

    /// Where the bundle lives on the host, as far as known without extracting it (the
    /// archive and an extraction directory, or the directory): what messages a hook reads
    /// must not name.
    pub fn host_paths(&self) -> Vec<&Path> {
        match self {
            Self::Zip(zip) => std::iter::once(zip.archive_path())
                .chain(zip.extracted_dir_if_any())
                .collect(),
            Self::Directory(dir) => vec![dir.extracted_dir()],
            Self::Unavailable(_) => Vec::new(),
        }
    }

    /// The directory holding the bundle's files (`getExtractedDir`).
    pub fn extracted_dir(&self) -> Result<&Path, BundleError> {
        match self {
            Self::Zip(zip) => zip.extracted_dir(),
            Self::Directory(dir) => Ok(dir.extracted_dir()),
            Self::Unavailable(none) => none.extracted_dir(),
        }
    }

    /// The `/`-separated paths of the bundle's files, sorted; empty for the unavailable
    /// reader.
    pub fn list(&self) -> Result<Vec<String>, BundleError> {
        match self {
            Self::Zip(zip) => zip.list(),
            Self::Directory(dir) => dir.list(),
            Self::Unavailable(none) => Ok(none.list()),
        }
    }
}

impl From<ZipBundle> for BundleReader {
    fn from(reader: ZipBundle) -> Self {
        Self::Zip(Box::new(reader))
    }
}

impl From<DirBundle> for BundleReader {
    fn from(reader: DirBundle) -> Self {
        Self::Directory(reader)
    }
}

impl From<UnavailableBundle> for BundleReader {
    fn from(reader: UnavailableBundle) -> Self {
        Self::Unavailable(reader)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::test_support::{ZipSpec, names_in, write_file};

    fn zip_options(root: &Path) -> ZipOptions {
        ZipOptions {
            temp_root: root.to_path_buf(),
            ..ZipOptions::default()
        }
    }

    #[test]
    fn chooses_the_reader_kind() {
        let root = tempfile::tempdir().expect("tempdir");
        let bytes = ZipSpec::new().file("a.txt", b"a").build();
        let zip = BundleReader::for_result(
            "r",
            Some(&bytes),
            Some(root.path()),
            zip_options(root.path()),
        )
        .expect("zip");
        assert_eq!(zip.kind(), BundleReaderKind::Zip);
        let dir = BundleReader::for_result("r", None, Some(root.path()), zip_options(root.path()))
            .expect("dir");
        assert_eq!(dir.kind(), BundleReaderKind::Directory);
        let none =
            BundleReader::for_result("r", None, None, zip_options(root.path())).expect("none");
        assert_eq!(none.kind(), BundleReaderKind::Unavailable);
        assert_eq!(none.kind().hook_members(), ["readText"]);
    }

    #[test]
    fn readers_can_cross_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<BundleReader>();
    }

    #[test]
    fn read_text_is_strict_utf8() {
        let root = tempfile::tempdir().expect("tempdir");
        let bytes = ZipSpec::new()
            .file("ok.txt", "héllo".as_bytes())
            .file("bad.txt", &[b'a', 0xff])
            .build();
        let zip = BundleReader::for_result("r", Some(&bytes), None, zip_options(root.path()))
            .expect("zip");
        assert_eq!(zip.read_text("ok.txt").expect("text"), "héllo");
        assert_eq!(
            zip.read_text("bad.txt").expect_err("invalid").to_string(),
            "bundle entry is not valid UTF-8: bad.txt"
        );
        assert_eq!(zip.read_bytes("bad.txt").expect("bytes"), [b'a', 0xff]);
        write_file(root.path(), "dir/bad.txt", &[0xc3]);
        let dir = BundleReader::from(DirBundle::open(root.path().join("dir")).expect("dir"));
        assert_eq!(
            dir.read_text("bad.txt").expect_err("invalid").to_string(),
            "bundle entry is not valid UTF-8: bad.txt"
        );
        drop(zip);
        assert_eq!(names_in(root.path()), ["dir"]);
    }
}
