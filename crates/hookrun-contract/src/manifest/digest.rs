//! `contentDigest` (`01-manifest.md` §11): SHA-256 over every `*.json`, `*.mjs` and `*.js`
//! file under a root, sorted by relative path, hashing for each the relative path
//! (`/`-separated), a NUL byte and the content.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

const EXTENSIONS: [&str; 3] = ["json", "mjs", "js"];

/// The lower-case hex SHA-256 content digest of `root`. Symlinked directories are not
/// followed (so cycles cannot occur); symlinked files are hashed with their target's
/// content.
pub fn content_digest(root: &Path) -> io::Result<String> {
    let mut files = collect_files(root)?;
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut hasher = Sha256::new();
    for (relative, path) in files {
        hasher.update(relative.as_bytes());
        hasher.update([0u8]);
        let (file, _) = crate::input::open_regular(&path).map_err(io::Error::other)?;
        io::copy(&mut io::BufReader::new(file), &mut hasher)?;
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}

/// `(relative path, absolute path)` of every digested file, walked without recursion.
fn collect_files(root: &Path) -> io::Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    let mut pending = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, prefix)) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            let file_type = entry.file_type()?;
            if file_type.is_dir() {
                pending.push((entry.path(), relative));
            } else if has_digested_extension(&name) && entry.path().is_file() {
                files.push((relative, entry.path()));
            }
        }
    }
    Ok(files)
}

fn has_digested_extension(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_covers_json_and_modules_only_and_is_order_stable() -> io::Result<()> {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join("lib"))?;
        std::fs::write(dir.path().join("workflow.json"), "{}")?;
        std::fs::write(dir.path().join("lib/a.mjs"), "export const a = 1;")?;
        let first = content_digest(dir.path())?;
        std::fs::write(dir.path().join("README.md"), "ignored")?;
        assert_eq!(content_digest(dir.path())?, first);
        std::fs::write(dir.path().join("lib/a.mjs"), "export const a = 2;")?;
        assert_ne!(content_digest(dir.path())?, first);
        assert_eq!(first.len(), 64);

        let mut hasher = Sha256::new();
        hasher.update(b"lib/a.mjs\0export const a = 1;");
        hasher.update(b"workflow.json\0{}");
        let expected: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        std::fs::write(dir.path().join("lib/a.mjs"), "export const a = 1;")?;
        std::fs::remove_file(dir.path().join("README.md"))?;
        assert_eq!(content_digest(dir.path())?, expected);
        Ok(())
    }
}
