//! The directory reader: a result bundle already laid out in a directory.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::bundle::entry_path::EntryPath;
use crate::bundle::error::{BundleError, UnsafePathReason};
use crate::walk::{WalkLimits, walk};

/// A result bundle in an existing directory (`04-requests-and-bundles.md` §6.4).
///
/// Entry paths are validated and normalised like zip entry names; an empty path is
/// `bundle entry path is required`, any other unsafe one `Unsafe bundle entry path: <entry>`.
/// Symbolic links inside the directory are followed only while they stay inside it.
#[derive(Debug, Clone)]
pub struct DirBundle {
    root: PathBuf,
}

impl DirBundle {
    /// A reader over the directory `dir`, which must exist.
    pub fn open(dir: impl AsRef<Path>) -> Result<Self, BundleError> {
        let dir = dir.as_ref();
        match fs::canonicalize(dir) {
            Ok(root) if root.is_dir() => Ok(Self { root }),
            _ => Err(BundleError::DirectoryNotFound {
                path: dir.display().to_string(),
            }),
        }
    }

    /// The bundle directory (canonical).
    pub fn extracted_dir(&self) -> &Path {
        &self.root
    }

    /// The bytes of `entry`.
    pub fn read_bytes(&self, entry: &str) -> Result<Vec<u8>, BundleError> {
        let path = self.locate(entry)?;
        crate::input::read_regular(&path, crate::input::MAX_FILE_BYTES).map_err(|e| {
            BundleError::ReadFailed {
                entry: entry.to_string(),
                detail: e.to_string(),
            }
        })
    }

    /// The `/`-separated paths of every file below the directory, sorted. Symbolic links
    /// are listed when they point to a file inside the directory and never entered;
    /// entries whose names are not UTF-8 are left out. A tree past [`WalkLimits`] is a
    /// `ReadFailed` naming the bundle root as `.`.
    pub fn list(&self) -> Result<Vec<String>, BundleError> {
        let admit = |path: &Path| {
            let meta = fs::symlink_metadata(path).ok()?;
            if meta.is_dir() || meta.is_file() {
                return Some(meta);
            }
            let relative = path.strip_prefix(&self.root).ok()?.to_str()?;
            let target = self.locate(relative).ok()?;
            fs::metadata(target).ok()
        };
        let entries = walk(&self.root, None, WalkLimits::default(), admit).map_err(|e| {
            BundleError::ReadFailed {
                entry: ".".to_string(),
                detail: e.to_string(),
            }
        })?;
        Ok(entries
            .into_iter()
            .filter(|e| e.metadata.is_file())
            .map(|e| e.relative)
            .collect())
    }

    /// The canonical file of `entry`, refused when it leaves the directory.
    fn locate(&self, entry: &str) -> Result<PathBuf, BundleError> {
        if entry.is_empty() {
            return Err(BundleError::EntryPathRequired);
        }
        let unsafe_entry = |reason| BundleError::UnsafeBundleEntryPath {
            entry: entry.to_string(),
            reason,
        };
        let path = EntryPath::parse(entry).map_err(unsafe_entry)?;
        let not_found = || BundleError::EntryNotFound {
            entry: entry.to_string(),
        };
        let real = match fs::canonicalize(path.under(&self.root)) {
            Ok(real) => real,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(not_found()),
            Err(e) => {
                return Err(BundleError::ReadFailed {
                    entry: entry.to_string(),
                    detail: e.to_string(),
                });
            }
        };
        if !real.starts_with(&self.root) {
            return Err(unsafe_entry(UnsafePathReason::EscapesRoot));
        }
        if !real.is_file() {
            return Err(not_found());
        }
        Ok(real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::test_support::write_file;

    fn bundle_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        write_file(dir.path(), "bundle/artifacts/digest.md", b"# Digest");
        write_file(dir.path(), "bundle/result/result.json", b"{}");
        write_file(dir.path(), "secret.txt", b"secret");
        dir
    }

    #[test]
    fn reads_normalised_entries() {
        let dir = bundle_dir();
        let reader = DirBundle::open(dir.path().join("bundle")).expect("open");
        assert_eq!(
            reader.read_bytes("artifacts\\digest.md").expect("read"),
            b"# Digest"
        );
        assert_eq!(
            reader.read_bytes("artifacts//digest.md").expect("read"),
            b"# Digest"
        );
        assert_eq!(
            reader.list().expect("list"),
            ["artifacts/digest.md", "result/result.json"]
        );
    }

    #[test]
    fn reports_contract_errors() {
        let dir = bundle_dir();
        let reader = DirBundle::open(dir.path().join("bundle")).expect("open");
        assert_eq!(
            reader.read_bytes("").expect_err("empty").to_string(),
            "bundle entry path is required"
        );
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
        assert_eq!(
            reader
                .read_bytes("../secret.txt")
                .expect_err("escape")
                .to_string(),
            "Unsafe bundle entry path: ../secret.txt"
        );
        assert!(DirBundle::open(dir.path().join("nowhere")).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_that_escape() {
        let dir = bundle_dir();
        let bundle = dir.path().join("bundle");
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), bundle.join("leak.txt"))
            .expect("symlink");
        std::os::unix::fs::symlink(bundle.join("artifacts/digest.md"), bundle.join("alias.md"))
            .expect("symlink");
        let reader = DirBundle::open(&bundle).expect("open");
        assert_eq!(
            reader
                .read_bytes("leak.txt")
                .expect_err("escape")
                .to_string(),
            "Unsafe bundle entry path: leak.txt (resolves outside the bundle directory)"
        );
        assert_eq!(reader.read_bytes("alias.md").expect("inside"), b"# Digest");
        assert_eq!(
            reader.list().expect("list"),
            ["alias.md", "artifacts/digest.md", "result/result.json"]
        );
    }

    #[test]
    fn listing_never_enters_links_and_refuses_trees_past_the_bounds() {
        let dir = bundle_dir();
        let bundle = dir.path().join("bundle");
        std::os::unix::fs::symlink(&bundle, bundle.join("artifacts/loop")).unwrap();
        let reader = DirBundle::open(&bundle).unwrap();
        assert_eq!(
            reader.list().unwrap(),
            ["artifacts/digest.md", "result/result.json"]
        );
        let deep: PathBuf = (0..80).map(|i| format!("d{i}")).collect();
        fs::create_dir_all(bundle.join(&deep)).unwrap();
        let err = reader.list().unwrap_err().to_string();
        assert!(err.contains("deeper than 64 levels"), "{err}");
        assert!(!err.contains(&dir.path().display().to_string()), "{err}");
    }
}
