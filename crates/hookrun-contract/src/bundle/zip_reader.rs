//! The zip reader: a result bundle delivered as a zip archive.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tempfile::TempDir;
use zip::ZipArchive;

use crate::bundle::entry_path::EntryPath;
use crate::bundle::error::BundleError;
use crate::bundle::zip_extract::{extract, millis_now};
use crate::bundle::zip_index::{ZipLimits, index_archive};

/// How a zip reader validates and where it extracts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipOptions {
    /// Limits checked before extraction.
    pub limits: ZipLimits,
    /// The directory receiving the reader's temporary files (the zip written from bytes and
    /// the extraction directory). Default: the system temporary directory.
    pub temp_root: PathBuf,
}

impl Default for ZipOptions {
    fn default() -> Self {
        Self {
            limits: ZipLimits::default(),
            temp_root: std::env::temp_dir(),
        }
    }
}

/// A zip result bundle (`04-requests-and-bundles.md` §6.3).
///
/// Nothing is read until the first call that needs the content: then every entry is
/// validated against the path rules and [`ZipLimits`], and the archive is extracted
/// exactly once into a fresh temporary directory. The outcome, success or error, is
/// memoised. Temporary files are removed when the reader is dropped, and at once when
/// extraction fails.
#[derive(Debug)]
pub struct ZipBundle {
    archive_path: PathBuf,
    options: ZipOptions,
    /// Holds the temporary directory of a zip written from bytes until the reader is dropped.
    _archive_holder: Option<TempDir>,
    extracted: OnceLock<Result<Extracted, BundleError>>,
}

/// The extracted content: the directory and the normalised paths of its files.
#[derive(Debug)]
struct Extracted {
    dir: TempDir,
    files: BTreeSet<String>,
}

impl ZipBundle {
    /// A reader over the zip file at `path`; the file itself is left untouched.
    pub fn open(path: impl Into<PathBuf>, options: ZipOptions) -> Self {
        Self {
            archive_path: path.into(),
            options,
            _archive_holder: None,
            extracted: OnceLock::new(),
        }
    }

    /// A reader over zip `bytes` received for run `request_id`.
    ///
    /// The bytes are written to `zotero-skills-<requestId>-<ms>.zip` (request id reduced to
    /// `[A-Za-z0-9._-]`) inside a temporary directory the reader owns and removes on drop.
    pub fn from_bytes(
        request_id: &str,
        bytes: &[u8],
        options: ZipOptions,
    ) -> Result<Self, BundleError> {
        let holder = tempfile::Builder::new()
            .prefix("zotero-skills-zip-")
            .tempdir_in(&options.temp_root)
            .map_err(|e| {
                BundleError::extract(format!("cannot create a temporary directory: {e}"))
            })?;
        let file_name = format!(
            "zotero-skills-{}-{}.zip",
            file_safe(request_id),
            millis_now()
        );
        let archive_path = holder.path().join(file_name);
        fs::write(&archive_path, bytes)
            .map_err(|e| BundleError::extract(format!("cannot write the bundle zip: {e}")))?;
        Ok(Self {
            archive_path,
            options,
            _archive_holder: Some(holder),
            extracted: OnceLock::new(),
        })
    }

    /// The zip file this reader reads.
    pub fn archive_path(&self) -> &Path {
        &self.archive_path
    }

    /// The extraction directory if the archive was extracted already.
    pub fn extracted_dir_if_any(&self) -> Option<&Path> {
        self.extracted.get()?.as_ref().ok().map(|e| e.dir.path())
    }

    /// The extraction directory, extracting first if needed.
    pub fn extracted_dir(&self) -> Result<&Path, BundleError> {
        Ok(self.extracted()?.dir.path())
    }

    /// The bytes of `entry`, validated like an entry name.
    pub fn read_bytes(&self, entry: &str) -> Result<Vec<u8>, BundleError> {
        let path = EntryPath::parse(entry).map_err(|reason| BundleError::UnsafeZipEntryPath {
            name: entry.to_string(),
            reason,
        })?;
        let extracted = self.extracted()?;
        if !extracted.files.contains(path.as_str()) {
            return Err(BundleError::EntryNotFound {
                entry: entry.to_string(),
            });
        }
        crate::input::read_regular(
            &path.under(extracted.dir.path()),
            crate::input::MAX_FILE_BYTES,
        )
        .map_err(|e| BundleError::ReadFailed {
            entry: entry.to_string(),
            detail: e.to_string(),
        })
    }

    /// The normalised paths of every file in the archive, sorted.
    pub fn list(&self) -> Result<Vec<String>, BundleError> {
        Ok(self.extracted()?.files.iter().cloned().collect())
    }

    fn extracted(&self) -> Result<&Extracted, BundleError> {
        self.extracted
            .get_or_init(|| self.extract_all())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn extract_all(&self) -> Result<Extracted, BundleError> {
        let (file, _) = crate::input::open_regular(&self.archive_path).map_err(|e| {
            BundleError::extract(format!(
                "cannot open {}: it {e}",
                self.archive_path.display()
            ))
        })?;
        let mut archive = ZipArchive::new(file).map_err(BundleError::extract)?;
        let entries = index_archive(&archive, &self.options.limits)?;
        let dir = extract(&mut archive, &entries, &self.options.temp_root)?;
        let files = entries
            .into_iter()
            .filter(|e| !e.is_dir)
            .map(|e| e.path.as_str().to_string())
            .collect();
        Ok(Extracted { dir, files })
    }
}

/// `text` with every character outside `[A-Za-z0-9._-]` replaced by `-`.
fn file_safe(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::test_support::{ZipSpec, declare_size, names_in, write_file};

    fn options(root: &Path, limits: ZipLimits) -> ZipOptions {
        ZipOptions {
            limits,
            temp_root: root.to_path_buf(),
        }
    }

    fn digest_zip() -> Vec<u8> {
        ZipSpec::new()
            .dir("artifacts/")
            .file("artifacts/digest.md", b"# Digest\n")
            .file("result/result.json", br#"{"status":"success","data":{}}"#)
            .file("bin/blob", &[0xff, 0xfe])
            .build()
    }

    #[test]
    fn extracts_lazily_once_and_cleans_up_on_drop() {
        let root = tempfile::tempdir().expect("tempdir");
        let zip = write_file(root.path(), "bundle.zip", &digest_zip());
        let reader = ZipBundle::open(&zip, options(root.path(), ZipLimits::default()));
        assert_eq!(names_in(root.path()), ["bundle.zip"]);
        assert_eq!(
            reader.read_bytes("artifacts/digest.md").expect("read"),
            b"# Digest\n"
        );
        let dir = reader.extracted_dir().expect("dir").to_path_buf();
        let dir_name = dir
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(dir_name.starts_with("zotero-skills-bundle-"), "{dir_name}");
        assert_eq!(dir_name.rsplit('-').next().map(str::len), Some(8));
        fs::write(dir.join("artifacts/digest.md"), "changed").expect("overwrite");
        assert_eq!(
            reader.read_bytes("artifacts\\digest.md").expect("read"),
            b"changed"
        );
        assert_eq!(reader.extracted_dir().expect("dir"), dir);
        assert_eq!(names_in(root.path()).len(), 2);
        assert_eq!(
            reader.list().expect("list"),
            ["artifacts/digest.md", "bin/blob", "result/result.json"]
        );
        drop(reader);
        assert!(!dir.exists());
        assert_eq!(names_in(root.path()), ["bundle.zip"]);
    }

    #[test]
    fn reads_validate_entry_paths() {
        let root = tempfile::tempdir().expect("tempdir");
        let zip = write_file(root.path(), "bundle.zip", &digest_zip());
        let reader = ZipBundle::open(&zip, options(root.path(), ZipLimits::default()));
        for entry in ["", "../x", "/etc/passwd", "C:/x", "./a"] {
            let error = reader.read_bytes(entry).expect_err(entry);
            assert_eq!(error.to_string(), format!("Unsafe zip entry path: {entry}"));
        }
        assert_eq!(
            reader
                .read_bytes("missing.md")
                .expect_err("missing")
                .to_string(),
            "bundle entry not found: missing.md"
        );
        assert_eq!(
            reader
                .read_bytes("artifacts")
                .expect_err("directory")
                .to_string(),
            "bundle entry not found: artifacts"
        );
    }

    #[test]
    fn from_bytes_owns_its_zip_file() {
        let root = tempfile::tempdir().expect("tempdir");
        let reader = ZipBundle::from_bytes(
            "req/1",
            &digest_zip(),
            options(root.path(), ZipLimits::default()),
        )
        .expect("written");
        let name = reader
            .archive_path()
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(
            name.starts_with("zotero-skills-req-1-") && name.ends_with(".zip"),
            "{name}"
        );
        assert!(reader.archive_path().exists());
        reader.read_bytes("result/result.json").expect("read");
        drop(reader);
        assert!(names_in(root.path()).is_empty());
    }

    #[test]
    fn refuses_a_bomb_by_declared_size_before_writing() {
        let root = tempfile::tempdir().expect("tempdir");
        let bomb = ZipSpec::new()
            .file("zeros.bin", &vec![0; 50 * 1024 * 1024])
            .build();
        assert!(
            bomb.len() < 200 * 1024,
            "compressed to {} bytes",
            bomb.len()
        );
        let zip = write_file(root.path(), "bomb.zip", &bomb);
        let limits = ZipLimits {
            max_entry_size: 1024 * 1024,
            ..ZipLimits::default()
        };
        let reader = ZipBundle::open(&zip, options(root.path(), limits));
        let error = reader.read_bytes("zeros.bin").expect_err("bomb");
        assert_eq!(
            error.to_string(),
            "Workflow bundle entry size exceeds limits: zeros.bin (52428800 bytes > 1048576 bytes)"
        );
        assert_eq!(names_in(root.path()), ["bomb.zip"]);
    }

    #[test]
    fn refuses_a_bomb_lying_about_its_size_and_removes_the_directory() {
        let root = tempfile::tempdir().expect("tempdir");
        let honest = ZipSpec::new()
            .file("zeros.bin", &vec![0; 2 * 1024 * 1024])
            .build();
        let zip = write_file(root.path(), "liar.zip", &declare_size(honest, 1000));
        let limits = ZipLimits {
            max_entry_size: 1024 * 1024,
            max_total_size: 1024 * 1024,
            ..ZipLimits::default()
        };
        let reader = ZipBundle::open(&zip, options(root.path(), limits));
        let error = reader.read_bytes("zeros.bin").expect_err("liar");
        let message = error.to_string();
        assert!(
            message.contains("zeros.bin") && message.contains("declared"),
            "{message}"
        );
        assert_eq!(names_in(root.path()), ["liar.zip"]);
        assert_eq!(reader.list().expect_err("memoised"), error);
    }

    #[test]
    fn refuses_an_unsafe_archive_without_writing() {
        let root = tempfile::tempdir().expect("tempdir");
        let bytes = ZipSpec::new()
            .file("ok.txt", b"ok")
            .file("../evil.txt", b"x")
            .build();
        let zip = write_file(root.path(), "evil.zip", &bytes);
        let reader = ZipBundle::open(&zip, options(root.path(), ZipLimits::default()));
        assert_eq!(
            reader.read_bytes("ok.txt").expect_err("unsafe").to_string(),
            "Unsafe zip entry path: ../evil.txt"
        );
        assert_eq!(names_in(root.path()), ["evil.zip"]);
    }

    #[test]
    fn reports_a_corrupt_archive() {
        let root = tempfile::tempdir().expect("tempdir");
        let zip = write_file(root.path(), "junk.zip", b"not a zip");
        let reader = ZipBundle::open(&zip, options(root.path(), ZipLimits::default()));
        let message = reader.extracted_dir().expect_err("junk").to_string();
        assert!(
            message.starts_with("Failed to extract workflow bundle: "),
            "{message}"
        );
    }
}
