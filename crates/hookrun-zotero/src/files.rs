//! Attachment files: where Zotero keeps the file of each link mode, and whether it
//! is there.
//!
//! - **Imported files, imported URLs and embedded images** (link modes 0, 1, 4):
//!   the database stores `storage:<filename>`; the file is
//!   `<DATA_DIR>/storage/<KEY>/<filename>`.
//! - **Linked files** (2): an absolute path, or `attachments:<relative path>`
//!   (`/`-separated) under the "Linked Attachment Base Directory", which the
//!   profile's preferences hold, not the data directory (given to
//!   [`crate::OpenOptions::base_attachment_dir`]).
//! - **Linked URLs** (3) have no file.
//!
//! A stored name that would leave its `storage/<KEY>/` directory (a `/`, `\`, `..`)
//! has no path: its file counts as missing.

use std::path::{Path, PathBuf};

use hookrun_contract::selection::FileState;

/// How an attachment holds its content (`itemAttachments.linkMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkMode {
    /// 0: a file copied into storage.
    ImportedFile,
    /// 1: a web page or file downloaded into storage.
    ImportedUrl,
    /// 2: a file left where it was, linked by its path.
    LinkedFile,
    /// 3: a link to a URL, no file.
    LinkedUrl,
    /// 4: an image embedded in a note, in storage.
    EmbeddedImage,
}

impl LinkMode {
    /// The mode of Zotero's numeric code, if Zotero defines it.
    pub fn from_code(code: i64) -> Option<LinkMode> {
        Some(match code {
            0 => LinkMode::ImportedFile,
            1 => LinkMode::ImportedUrl,
            2 => LinkMode::LinkedFile,
            3 => LinkMode::LinkedUrl,
            4 => LinkMode::EmbeddedImage,
            _ => return None,
        })
    }

    /// Zotero's numeric code.
    pub fn code(self) -> i64 {
        match self {
            LinkMode::ImportedFile => 0,
            LinkMode::ImportedUrl => 1,
            LinkMode::LinkedFile => 2,
            LinkMode::LinkedUrl => 3,
            LinkMode::EmbeddedImage => 4,
        }
    }

    /// The name Zotero's JSON export gives it (`imported_file`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            LinkMode::ImportedFile => "imported_file",
            LinkMode::ImportedUrl => "imported_url",
            LinkMode::LinkedFile => "linked_file",
            LinkMode::LinkedUrl => "linked_url",
            LinkMode::EmbeddedImage => "embedded_image",
        }
    }

    /// Whether its file lives in `storage/<KEY>/`.
    pub fn is_stored(self) -> bool {
        matches!(
            self,
            LinkMode::ImportedFile | LinkMode::ImportedUrl | LinkMode::EmbeddedImage
        )
    }
}

/// Where an attachment's file is, and whether it is there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentFile {
    /// The attachment's link mode.
    pub link_mode: LinkMode,
    /// `itemAttachments.path` as stored (`storage:a.pdf`, `attachments:x/a.pdf`,
    /// `/home/me/a.pdf`).
    pub stored_path: Option<String>,
    /// The file's absolute path, when it can be told: not for linked URLs, names
    /// that would leave their storage directory, `attachments:` paths without a base
    /// directory, or relative paths.
    pub path: Option<PathBuf>,
    /// The file name: the stored name, or the last component of a linked path.
    pub filename: Option<String>,
    /// `available` when `path` is a file, `missing` when it is not or cannot be
    /// told, `not_applicable` for linked URLs.
    pub state: FileState,
}

impl AttachmentFile {
    /// Locates the file of attachment `key` (link mode `link_mode`, stored path
    /// `stored`) under the data directory's `storage` and the base directory `base`.
    pub(crate) fn locate(
        link_mode: LinkMode,
        key: &str,
        stored: Option<&str>,
        storage: &Path,
        base: Option<&Path>,
    ) -> AttachmentFile {
        let (path, filename) = match link_mode {
            LinkMode::LinkedUrl => (None, None),
            mode if mode.is_stored() => {
                let name = stored.and_then(|s| s.strip_prefix("storage:"));
                let safe = name.filter(|n| is_plain_name(n)).filter(|_| is_key(key));
                (
                    safe.map(|n| storage.join(key).join(n)),
                    name.map(str::to_owned),
                )
            }
            _ => linked(stored, base),
        };
        let state = match (link_mode, &path) {
            (LinkMode::LinkedUrl, _) => FileState::NotApplicable,
            (_, Some(p)) => FileState::from_exists(p.is_file()),
            (_, None) => FileState::Missing,
        };
        AttachmentFile {
            link_mode,
            stored_path: stored.map(str::to_owned),
            path,
            filename,
            state,
        }
    }

    /// The path item JSON gives the file: `<KEY>/<filename>` relative to the storage
    /// directory for stored files, the absolute path for linked ones.
    pub(crate) fn json_path(&self, key: &str, storage: &Path) -> Option<String> {
        let path = self.path.as_deref()?;
        if self.link_mode.is_stored() && path.starts_with(storage) {
            return Some(format!("{key}/{}", self.filename.as_deref()?));
        }
        Some(path.to_string_lossy().into_owned())
    }
}

/// The path and name of a linked file stored as `stored`.
fn linked(stored: Option<&str>, base: Option<&Path>) -> (Option<PathBuf>, Option<String>) {
    let Some(stored) = stored else {
        return (None, None);
    };
    let path = match stored.strip_prefix("attachments:") {
        Some(relative) => base.map(|b| {
            relative
                .split('/')
                .filter(|part| !part.is_empty())
                .fold(b.to_path_buf(), |p, part| p.join(part))
        }),
        None => Some(PathBuf::from(stored)).filter(|p| p.is_absolute()),
    };
    let filename = stored
        .strip_prefix("attachments:")
        .unwrap_or(stored)
        .rsplit(['/', '\\'])
        .next()
        .filter(|n| !n.is_empty())
        .map(str::to_owned);
    (path, filename)
}

/// A file name that stays in its directory: not empty, `.` or `..`, no separator.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

/// A Zotero key: ASCII letters and digits.
fn is_key(key: &str) -> bool {
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_modes_have_codes_and_names() {
        for code in 0..5 {
            let mode = LinkMode::from_code(code).unwrap();
            assert_eq!(mode.code(), code);
        }
        assert_eq!(LinkMode::from_code(5), None);
        assert_eq!(LinkMode::ImportedUrl.as_str(), "imported_url");
        assert!(LinkMode::EmbeddedImage.is_stored());
        assert!(!LinkMode::LinkedFile.is_stored());
    }

    #[test]
    fn stored_files_are_in_storage_under_their_key() {
        let dir = tempfile::tempdir().unwrap();
        let storage = dir.path().join("storage");
        std::fs::create_dir_all(storage.join("ABCD2345")).unwrap();
        std::fs::write(storage.join("ABCD2345/a.pdf"), b"%PDF").unwrap();
        for mode in [LinkMode::ImportedFile, LinkMode::ImportedUrl] {
            let file =
                AttachmentFile::locate(mode, "ABCD2345", Some("storage:a.pdf"), &storage, None);
            assert_eq!(file.state, FileState::Available);
            assert_eq!(file.path, Some(storage.join("ABCD2345/a.pdf")));
            assert_eq!(file.filename.as_deref(), Some("a.pdf"));
            assert_eq!(
                file.json_path("ABCD2345", &storage).as_deref(),
                Some("ABCD2345/a.pdf")
            );
        }
        let gone = AttachmentFile::locate(
            LinkMode::ImportedFile,
            "ABCD2345",
            Some("storage:b.pdf"),
            &storage,
            None,
        );
        assert_eq!(gone.state, FileState::Missing);
        assert!(gone.path.is_some());
    }

    #[test]
    fn names_leaving_storage_have_no_path() {
        let storage = Path::new("/d/storage");
        for (key, stored) in [
            ("ABCD2345", Some("storage:../x")),
            ("ABCD2345", Some("storage:a/b.pdf")),
            ("ABCD2345", Some("storage:")),
            ("ABCD2345", Some("a.pdf")),
            ("ABCD2345", None),
            ("../ETC", Some("storage:passwd")),
        ] {
            let file = AttachmentFile::locate(LinkMode::ImportedFile, key, stored, storage, None);
            assert_eq!(file.path, None, "{key} {stored:?}");
            assert_eq!(file.state, FileState::Missing);
            assert_eq!(file.json_path(key, storage), None);
        }
    }

    #[test]
    fn linked_files_resolve_absolute_or_under_the_base_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("papers/2024")).unwrap();
        std::fs::write(dir.path().join("papers/2024/c.pdf"), b"x").unwrap();
        let absolute = dir.path().join("papers/2024/c.pdf");
        let storage = dir.path().join("storage");
        let file = AttachmentFile::locate(
            LinkMode::LinkedFile,
            "K1",
            absolute.to_str(),
            &storage,
            None,
        );
        assert_eq!(file.state, FileState::Available);
        assert_eq!(file.filename.as_deref(), Some("c.pdf"));
        assert_eq!(
            file.json_path("K1", &storage),
            Some(absolute.to_string_lossy().into_owned())
        );
        let relative = Some("attachments:2024/c.pdf");
        let base = dir.path().join("papers");
        let file =
            AttachmentFile::locate(LinkMode::LinkedFile, "K1", relative, &storage, Some(&base));
        assert_eq!(file.path, Some(absolute));
        assert_eq!(file.state, FileState::Available);
        // Without the base directory it cannot be told.
        let file = AttachmentFile::locate(LinkMode::LinkedFile, "K1", relative, &storage, None);
        assert_eq!((file.path, file.state), (None, FileState::Missing));
        assert_eq!(file.filename.as_deref(), Some("c.pdf"));
        // A relative path (another system's) is missing.
        let file = AttachmentFile::locate(
            LinkMode::LinkedFile,
            "K1",
            Some("C:\\x\\d.pdf"),
            &storage,
            None,
        );
        assert_eq!((file.path, file.state), (None, FileState::Missing));
        assert_eq!(file.filename.as_deref(), Some("d.pdf"));
    }

    #[test]
    fn linked_urls_have_no_file() {
        let file = AttachmentFile::locate(LinkMode::LinkedUrl, "K1", None, Path::new("/s"), None);
        assert_eq!(file.state, FileState::NotApplicable);
        assert_eq!(file.path, None);
    }
}
