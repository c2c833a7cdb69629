//! Walking a directory tree that untrusted input laid out (a fixture's files, a result
//! bundle): iteratively, entering every directory once (by device and inode, so a link
//! back to an ancestor is listed but not followed), and refusing trees deeper or larger
//! than the bounds with a typed error instead of recursing without end.

use std::collections::HashSet;
use std::fs::{self, Metadata};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Bounds of one walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkLimits {
    /// Directory levels below the root the walk may enter (1: only the root's entries).
    pub max_depth: usize,
    /// Entries the walk may list in all.
    pub max_entries: usize,
}

impl Default for WalkLimits {
    /// 64 levels, 100,000 entries.
    fn default() -> WalkLimits {
        WalkLimits {
            max_depth: 64,
            max_entries: 100_000,
        }
    }
}

/// One listed entry.
#[derive(Debug, Clone)]
pub struct WalkEntry {
    /// `/`-separated path below the root.
    pub relative: String,
    /// The entry's path as reached (below the root, links not resolved).
    pub path: PathBuf,
    /// What `admit` returned for it.
    pub metadata: Metadata,
}

/// Why a walk stopped. Messages name paths relative to the root only.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WalkError {
    /// The tree is deeper than [`WalkLimits::max_depth`].
    #[error("{relative}: the directory tree is deeper than {max} levels")]
    TooDeep {
        /// The first directory past the limit.
        relative: String,
        /// The limit.
        max: usize,
    },
    /// The tree holds more than [`WalkLimits::max_entries`] entries.
    #[error("the directory tree holds more than {max} entries")]
    TooMany {
        /// The limit.
        max: usize,
    },
    /// A directory could not be read.
    #[error("cannot list {relative}: {message}")]
    Io {
        /// The directory (`.` for the root).
        relative: String,
        /// The operating system's message.
        message: String,
    },
}

/// Lists the tree below `root` in name order, depth first. `admit(path)` decides for each
/// entry: `None` leaves it out, `Some(metadata)` lists it and, when the metadata is a
/// directory not entered before, enters it. With `depth` set, directories below that
/// many levels are listed but not entered (a caller's choice, not an error); `limits`
/// bound what any walk may do.
pub fn walk(
    root: &Path,
    depth: Option<usize>,
    limits: WalkLimits,
    mut admit: impl FnMut(&Path) -> Option<Metadata>,
) -> Result<Vec<WalkEntry>, WalkError> {
    let mut out = Vec::new();
    let mut entered = HashSet::new();
    if let Ok(meta) = fs::metadata(root) {
        entered.insert((meta.dev(), meta.ino()));
    }
    // Directories still to read, with their relative path and level (1 = the root).
    let mut pending: Vec<(PathBuf, String, usize)> = vec![(root.to_path_buf(), String::new(), 1)];
    while let Some((dir, prefix, level)) = pending.pop() {
        let mut below = Vec::new();
        for name in sorted_names(&dir, &prefix)? {
            let path = dir.join(&name);
            let Some(metadata) = admit(&path) else {
                continue;
            };
            if out.len() == limits.max_entries {
                return Err(WalkError::TooMany {
                    max: limits.max_entries,
                });
            }
            let relative = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            let enter = metadata.is_dir()
                && depth.is_none_or(|d| level < d)
                && entered.insert((metadata.dev(), metadata.ino()));
            if enter {
                if level >= limits.max_depth {
                    return Err(WalkError::TooDeep {
                        relative,
                        max: limits.max_depth,
                    });
                }
                below.push((path.clone(), relative.clone(), level + 1));
            }
            out.push(WalkEntry {
                relative,
                path,
                metadata,
            });
        }
        // Depth first, in name order: the first subdirectory is read next.
        pending.extend(below.into_iter().rev());
    }
    out.sort_by(|a, b| a.relative.cmp(&b.relative));
    Ok(out)
}

/// The names in `dir` (at `prefix` below the root) that are valid Unicode, in order.
fn sorted_names(dir: &Path, prefix: &str) -> Result<Vec<String>, WalkError> {
    let shown = if prefix.is_empty() { "." } else { prefix };
    let mut names: Vec<String> = fs::read_dir(dir)
        .map_err(|e| WalkError::Io {
            relative: shown.to_string(),
            message: e.kind().to_string(),
        })?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn follow(path: &Path) -> Option<Metadata> {
        fs::metadata(path).ok()
    }

    fn names(entries: &[WalkEntry]) -> Vec<&str> {
        entries.iter().map(|e| e.relative.as_str()).collect()
    }

    #[test]
    fn lists_in_name_order_and_honours_the_requested_depth() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("b/c")).unwrap();
        fs::write(dir.path().join("a.txt"), "a").unwrap();
        fs::write(dir.path().join("b/c/d.txt"), "d").unwrap();
        let all = walk(dir.path(), None, WalkLimits::default(), follow).unwrap();
        assert_eq!(names(&all), ["a.txt", "b", "b/c", "b/c/d.txt"]);
        let top = walk(dir.path(), Some(1), WalkLimits::default(), follow).unwrap();
        assert_eq!(names(&top), ["a.txt", "b"]);
    }

    #[test]
    fn a_link_back_to_an_ancestor_is_listed_once_and_not_entered() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink(dir.path(), dir.path().join("sub/loop")).unwrap();
        std::os::unix::fs::symlink("../sub", dir.path().join("sub/again")).unwrap();
        let all = walk(dir.path(), None, WalkLimits::default(), follow).unwrap();
        assert_eq!(names(&all), ["sub", "sub/again", "sub/loop"]);
    }

    #[test]
    fn trees_past_the_bounds_are_typed_errors() {
        let dir = tempfile::tempdir().unwrap();
        let deep: PathBuf = (0..5).map(|i| format!("d{i}")).collect();
        fs::create_dir_all(dir.path().join(&deep)).unwrap();
        let limits = WalkLimits {
            max_depth: 3,
            max_entries: 100,
        };
        let err = walk(dir.path(), None, limits, follow).unwrap_err();
        assert_eq!(
            err.to_string(),
            "d0/d1/d2: the directory tree is deeper than 3 levels"
        );
        for i in 0..10 {
            fs::write(dir.path().join(format!("f{i}")), "").unwrap();
        }
        let limits = WalkLimits {
            max_depth: 64,
            max_entries: 8,
        };
        let err = walk(dir.path(), None, limits, follow).unwrap_err();
        assert!(matches!(err, WalkError::TooMany { max: 8 }));
        assert!(!err.to_string().contains(&dir.path().display().to_string()));
    }
}
