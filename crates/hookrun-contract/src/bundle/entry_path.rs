//! Entry path validation and normalisation shared by every reader.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::bundle::error::UnsafePathReason;

/// A safe, normalised bundle entry path: `/`-separated, relative, without `.`/`..`
/// segments, empty segments or NUL bytes.
///
/// Normalisation turns backslashes into `/` and drops empty segments, so `a\b`, `a//b`
/// and `a/b/` all become `a/b`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntryPath(String);

impl EntryPath {
    /// Validates and normalises `raw`.
    ///
    /// Refused, in this order: a NUL byte, an empty name, a leading `/` (also `\`), a
    /// drive letter (`X:`), any `.` or `..` segment.
    pub fn parse(raw: &str) -> Result<Self, UnsafePathReason> {
        if raw.contains('\0') {
            return Err(UnsafePathReason::NulByte);
        }
        if raw.is_empty() {
            return Err(UnsafePathReason::Empty);
        }
        let slashed = raw.replace('\\', "/");
        if slashed.starts_with('/') {
            return Err(UnsafePathReason::Absolute);
        }
        if has_drive_letter(&slashed) {
            return Err(UnsafePathReason::DriveLetter);
        }
        let segments: Vec<&str> = slashed.split('/').filter(|s| !s.is_empty()).collect();
        if segments.iter().any(|s| *s == "." || *s == "..") {
            return Err(UnsafePathReason::DotSegment);
        }
        if segments.is_empty() {
            return Err(UnsafePathReason::Empty);
        }
        Ok(Self(segments.join("/")))
    }

    /// The normalised path, segments joined with `/`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number of segments.
    pub fn depth(&self) -> usize {
        self.0.split('/').count()
    }

    /// The path of this entry below `root`, joined segment by segment.
    pub fn under(&self, root: &Path) -> PathBuf {
        self.0
            .split('/')
            .fold(root.to_path_buf(), |path, s| path.join(s))
    }
}

impl fmt::Display for EntryPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `path` starts with a drive letter such as `C:`.
fn has_drive_letter(path: &str) -> bool {
    let mut chars = path.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some(letter), Some(':')) if letter.is_ascii_alphabetic()
    )
}

/// Whether `path` is absolute on any platform: a leading `/` or `\`, or a drive letter.
pub(crate) fn is_absolute(path: &str) -> bool {
    path.starts_with('/') || path.starts_with('\\') || has_drive_letter(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(raw: &str) -> UnsafePathReason {
        match EntryPath::parse(raw) {
            Ok(path) => panic!("{raw:?} was accepted as {path}"),
            Err(reason) => reason,
        }
    }

    #[test]
    fn refuses_each_unsafe_form() {
        assert_eq!(refused(""), UnsafePathReason::Empty);
        assert_eq!(refused("/abs"), UnsafePathReason::Absolute);
        assert_eq!(refused("\\\\server\\share"), UnsafePathReason::Absolute);
        assert_eq!(refused("C:/x"), UnsafePathReason::DriveLetter);
        assert_eq!(refused("c:x"), UnsafePathReason::DriveLetter);
        assert_eq!(refused("a/../b"), UnsafePathReason::DotSegment);
        assert_eq!(refused("./a"), UnsafePathReason::DotSegment);
        assert_eq!(refused("..\\x"), UnsafePathReason::DotSegment);
        assert_eq!(refused("a/.."), UnsafePathReason::DotSegment);
        assert_eq!(refused("a\0b"), UnsafePathReason::NulByte);
    }

    #[test]
    fn normalises_separators() {
        let path = EntryPath::parse("artifacts\\sub//digest.md/").expect("safe");
        assert_eq!(path.as_str(), "artifacts/sub/digest.md");
        assert_eq!(path.depth(), 3);
        assert_eq!(
            path.under(Path::new("/root")),
            Path::new("/root/artifacts/sub/digest.md")
        );
    }

    #[test]
    fn keeps_dots_inside_names() {
        let path = EntryPath::parse("a/..b/c.").expect("safe");
        assert_eq!(path.as_str(), "a/..b/c.");
    }
}
