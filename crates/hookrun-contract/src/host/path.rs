//! Host paths as hooks name them, parsed once.
//!
//! Hooks name files relative to the run's files root (`notes/a.md`), under a
//! result bundle (`/bundles/<id>/…`) or under the virtual temporary directory
//! (`/tmp/hookrun/…`). Every host member that takes a path parses it into a
//! [`HostPath`] first; the overlay's keys, the jail checks of the world and the
//! bundle paths are all `HostPath`s, so no two places normalise differently.
//!
//! The rules:
//! - `\` is a separator like `/`; empty and `.` segments are dropped; a `..`
//!   segment is refused (a path never climbs), and so is NUL;
//! - a leading `/` is kept: the path is virtual-absolute (bundles, temporary
//!   directory); otherwise it is relative to the files root, and `""` is the root;
//! - at most [`HostPath::MAX_CHARS`] characters as given and
//!   [`HostPath::MAX_DEPTH`] segments;
//! - segments are compared byte for byte: case matters and Unicode is not
//!   normalised (`é` precomposed and decomposed are two names), as on Linux.

use std::fmt;

/// A parsed, normalised host path (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct HostPath {
    text: String,
}

/// Why a text is not a host path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// Nothing but separators and `.` segments, where a path was needed.
    #[error("the path is empty")]
    Empty,
    /// A `..` segment.
    #[error("the path climbs out of its root with `..`")]
    Climbs,
    /// A NUL character.
    #[error("the path holds a NUL character")]
    Nul,
    /// Longer than [`HostPath::MAX_CHARS`].
    #[error("the path has {0} characters, more than {max}", max = HostPath::MAX_CHARS)]
    TooLong(usize),
    /// More segments than [`HostPath::MAX_DEPTH`].
    #[error("the path has {0} segments, more than {max}", max = HostPath::MAX_DEPTH)]
    TooDeep(usize),
}

impl HostPath {
    /// Most characters a path may have as given (the reference host's limit).
    pub const MAX_CHARS: usize = 4096;
    /// Most segments a path may have.
    pub const MAX_DEPTH: usize = 128;

    /// Parses `raw` (see the module docs); `""` and `"."` are the files root.
    pub fn parse(raw: &str) -> Result<HostPath, PathError> {
        let chars = raw.chars().count();
        if chars > Self::MAX_CHARS {
            return Err(PathError::TooLong(chars));
        }
        if raw.contains('\0') {
            return Err(PathError::Nul);
        }
        let absolute = raw.starts_with(['/', '\\']);
        let mut text = String::with_capacity(raw.len());
        let mut depth = 0;
        for segment in raw.split(['/', '\\']) {
            match segment {
                "" | "." => continue,
                ".." => return Err(PathError::Climbs),
                _ => {}
            }
            depth += 1;
            if absolute || !text.is_empty() {
                text.push('/');
            }
            text.push_str(segment);
        }
        if depth > Self::MAX_DEPTH {
            return Err(PathError::TooDeep(depth));
        }
        if absolute && text.is_empty() {
            text.push('/');
        }
        Ok(HostPath { text })
    }

    /// Parses `raw`, refusing a path that names the files root (or `/`): what a
    /// member that must name a file or directory takes.
    pub fn parse_named(raw: &str) -> Result<HostPath, PathError> {
        let path = HostPath::parse(raw)?;
        if path.text.is_empty() || path.text == "/" {
            return Err(PathError::Empty);
        }
        Ok(path)
    }

    /// The path as text: `/`-separated, normalised.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether this is the files root (`""`).
    pub fn is_root(&self) -> bool {
        self.text.is_empty()
    }

    /// Whether the path is virtual-absolute (starts with `/`).
    pub fn is_absolute(&self) -> bool {
        self.text.starts_with('/')
    }

    /// Its segments, in order.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.text.split('/').filter(|s| !s.is_empty())
    }

    /// How many segments it has.
    pub fn depth(&self) -> usize {
        self.segments().count()
    }

    /// The last segment, if any.
    pub fn name(&self) -> Option<&str> {
        self.segments().last()
    }

    /// `self/rest`, `rest` parsed as a relative path.
    pub fn join(&self, rest: &str) -> Result<HostPath, PathError> {
        let rest = HostPath::parse(rest.trim_start_matches(['/', '\\']))?;
        if rest.is_root() {
            return Ok(self.clone());
        }
        let depth = self.depth() + rest.depth();
        let text = match self.text.as_str() {
            "" => rest.text,
            "/" => format!("/{}", rest.text),
            dir => format!("{dir}/{}", rest.text),
        };
        if depth > Self::MAX_DEPTH {
            return Err(PathError::TooDeep(depth));
        }
        Ok(HostPath { text })
    }

    /// The paths that hold this one, nearest first, the files root and `/` left out.
    pub fn ancestors(&self) -> impl Iterator<Item = &str> {
        ancestors_of(&self.text)
    }

    /// Whether `self` is `dir` or lies under it (segment by segment).
    pub fn is_within(&self, dir: &HostPath) -> bool {
        self.relative_to(dir).is_some()
    }

    /// The part of `self` below `dir` (`""` for `dir` itself); `None` when `self`
    /// is not within `dir`.
    pub fn relative_to(&self, dir: &HostPath) -> Option<&str> {
        if dir.is_root() {
            return (!self.is_absolute()).then_some(self.text.as_str());
        }
        let rest = self.text.strip_prefix(dir.text.as_str())?;
        if rest.is_empty() {
            Some("")
        } else if dir.text == "/" {
            Some(rest)
        } else {
            rest.strip_prefix('/')
        }
    }

    /// The prefix that keys strictly below this path start with in a sorted map.
    pub fn below_prefix(&self) -> String {
        match self.text.as_str() {
            "" => String::new(),
            "/" => "/".into(),
            dir => format!("{dir}/"),
        }
    }
}

/// The ancestors of a normalised path's text (a [`HostPath`]'s, or a key made of
/// one), nearest first, the files root and `/` left out.
pub(crate) fn ancestors_of(text: &str) -> impl Iterator<Item = &str> {
    let mut at = text.len();
    std::iter::from_fn(move || {
        let cut = text[..at].rfind('/')?;
        at = cut;
        (cut > 0).then(|| &text[..cut])
    })
}

impl fmt::Display for HostPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &str) -> String {
        HostPath::parse(raw).unwrap().to_string()
    }

    #[test]
    fn separators_and_dot_segments_normalise() {
        assert_eq!(parse("a//b/./c/"), "a/b/c");
        assert_eq!(parse("a\\b"), "a/b");
        assert_eq!(parse("./a"), "a");
        assert_eq!(parse("/bundles/x/y"), "/bundles/x/y");
        assert_eq!(parse("\\tmp\\hookrun"), "/tmp/hookrun");
        assert_eq!(parse(""), "");
        assert_eq!(parse("."), "");
        assert_eq!(parse("/"), "/");
        assert_eq!(parse("/./"), "/");
    }

    #[test]
    fn climbing_nul_length_and_depth_are_refused() {
        assert_eq!(HostPath::parse("a/../b"), Err(PathError::Climbs));
        assert_eq!(HostPath::parse("/tmp/hookrun/.."), Err(PathError::Climbs));
        assert_eq!(HostPath::parse("a\0b"), Err(PathError::Nul));
        let long = "a".repeat(HostPath::MAX_CHARS + 1);
        assert_eq!(
            HostPath::parse(&long),
            Err(PathError::TooLong(HostPath::MAX_CHARS + 1))
        );
        let deep = "a/".repeat(HostPath::MAX_DEPTH + 1);
        assert_eq!(
            HostPath::parse(&deep),
            Err(PathError::TooDeep(HostPath::MAX_DEPTH + 1))
        );
        assert_eq!(HostPath::parse_named("./"), Err(PathError::Empty));
        assert_eq!(HostPath::parse_named("/"), Err(PathError::Empty));
    }

    #[test]
    fn joins_ancestors_and_containment_go_by_segments() {
        let dir = HostPath::parse("out/stage").unwrap();
        assert_eq!(dir.join("a/./b").unwrap().as_str(), "out/stage/a/b");
        assert_eq!(dir.join("").unwrap(), dir);
        assert_eq!(dir.join("../x"), Err(PathError::Climbs));
        assert_eq!(HostPath::default().join("a").unwrap().as_str(), "a");
        assert_eq!(
            HostPath::parse("/").unwrap().join("a").unwrap().as_str(),
            "/a"
        );
        let file = HostPath::parse("out/stage/a/b").unwrap();
        assert_eq!(
            file.ancestors().collect::<Vec<_>>(),
            ["out/stage/a", "out/stage", "out"]
        );
        assert_eq!(
            HostPath::parse("/bundles/x")
                .unwrap()
                .ancestors()
                .collect::<Vec<_>>(),
            ["/bundles"]
        );
        assert!(file.is_within(&dir));
        assert_eq!(file.relative_to(&dir), Some("a/b"));
        assert_eq!(dir.relative_to(&dir), Some(""));
        let sibling = HostPath::parse("out/stage2/a").unwrap();
        assert!(!sibling.is_within(&dir), "a name that only starts alike");
        assert!(file.is_within(&HostPath::default()));
        assert!(
            !HostPath::parse("/tmp/x")
                .unwrap()
                .is_within(&HostPath::default())
        );
        assert_eq!(dir.below_prefix(), "out/stage/");
    }

    #[test]
    fn case_and_unicode_forms_are_distinct_names() {
        assert_ne!(HostPath::parse("A.md"), HostPath::parse("a.md"));
        assert_ne!(HostPath::parse("e\u{301}"), HostPath::parse("\u{e9}"));
    }
}
