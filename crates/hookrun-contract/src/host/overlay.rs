//! What a run's file writes did, kept apart from the disk: the recorded `file.*`
//! writes change what later `file.*` reads of the same run see (in hook and unit
//! order), and nothing on disk ever changes.
//!
//! The overlay maps normalised paths to what the run left there: a file with its
//! bytes, a directory (one the run made afresh hides what the disk holds under it), or
//! nothing (removed). Reads ask the overlay first and fall back to the disk.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

/// What the run left at one path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    File(Arc<[u8]>),
    /// A directory; `fresh` when the run made it where nothing was, or over what it
    /// removed, so that the disk's entries under it do not show through.
    Directory {
        fresh: bool,
    },
    Removed,
}

impl Entry {
    /// Whether the disk's entries under this path no longer show: it was removed,
    /// became a file, or was made afresh as a directory.
    fn hides_below(&self) -> bool {
        !matches!(self, Entry::Directory { fresh: false })
    }
}

/// What the overlay says about a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// A file the run wrote.
    File(Arc<[u8]>),
    /// A directory the run made.
    Directory,
    /// Nothing: the run removed it (or what holds it).
    Absent,
}

/// The file writes of one run.
#[derive(Debug, Clone, Default)]
pub struct FileOverlay {
    entries: BTreeMap<String, Entry>,
    /// The bytes of the files in `entries`.
    stored: u64,
}

/// `path` with `\` as `/`, without empty and `.` segments; `None` for a path that
/// climbs with `..`. A leading `/` (bundle paths) is kept.
pub fn normalize(path: &str) -> Option<String> {
    let path = path.replace('\\', "/");
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            part => parts.push(part),
        }
    }
    let joined = parts.join("/");
    Some(if path.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    })
}

/// `dir/rest` for a normalised `dir` (which may be empty).
pub fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() || dir == "/" {
        format!("{}{rest}", if dir == "/" { "/" } else { "" })
    } else {
        format!("{dir}/{rest}")
    }
}

/// The parents of a normalised path, nearest first.
fn parents(path: &str) -> impl Iterator<Item = &str> {
    let mut at = path.len();
    std::iter::from_fn(move || {
        let cut = path[..at].rfind('/')?;
        at = cut;
        (cut > 0).then(|| &path[..cut])
    })
}

impl FileOverlay {
    /// Whether the run wrote nothing yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What the overlay says about `path`, or `None` when the disk decides.
    pub fn seen(&self, path: &str) -> Option<Seen> {
        match self.entries.get(path) {
            Some(Entry::File(bytes)) => return Some(Seen::File(bytes.clone())),
            Some(Entry::Directory { .. }) => return Some(Seen::Directory),
            Some(Entry::Removed) => return Some(Seen::Absent),
            None => {}
        }
        parents(path)
            .any(|parent| self.entries.get(parent).is_some_and(Entry::hides_below))
            .then_some(Seen::Absent)
    }

    /// Makes the directories above `path` that the run's reads would not find.
    /// `on_disk` says whether the disk holds a path.
    fn make_parents(&mut self, path: &str, on_disk: &dyn Fn(&str) -> bool) {
        let missing: Vec<String> = parents(path)
            .filter(|p| match self.seen(p) {
                Some(Seen::Directory) => false,
                Some(_) => true,
                None => !on_disk(p),
            })
            .map(str::to_string)
            .collect();
        for parent in missing {
            let fresh = !matches!(self.entries.get(&parent), Some(Entry::Directory { .. }));
            self.set(parent, Entry::Directory { fresh });
        }
    }

    /// The bytes of the files the run wrote, as held now.
    pub fn stored_bytes(&self) -> u64 {
        self.stored
    }

    /// Puts `entry` at `path`, keeping count of the bytes held.
    fn set(&mut self, path: String, entry: Entry) {
        if let Entry::File(bytes) = &entry {
            self.stored += bytes.len() as u64;
        }
        if let Some(Entry::File(old)) = self.entries.insert(path, entry) {
            self.stored -= old.len() as u64;
        }
    }

    /// `file.writeText` / `file.writeBytes`: `path` holds `bytes`.
    pub fn write(&mut self, path: &str, bytes: Vec<u8>, on_disk: &dyn Fn(&str) -> bool) {
        self.clear_under(path);
        self.make_parents(path, on_disk);
        self.set(path.to_string(), Entry::File(bytes.into()));
    }

    /// `file.makeDirectory`: `path` is a directory (with its parents).
    pub fn make_directory(&mut self, path: &str, on_disk: &dyn Fn(&str) -> bool) {
        let fresh = match self.seen(path) {
            Some(Seen::Directory) => return,
            Some(_) => true,
            None => !on_disk(path),
        };
        self.make_parents(path, on_disk);
        self.set(path.to_string(), Entry::Directory { fresh });
    }

    /// `file.remove`: nothing is at `path` any more, nor under it.
    pub fn remove(&mut self, path: &str) {
        self.clear_under(path);
        self.set(path.to_string(), Entry::Removed);
    }

    fn clear_under(&mut self, path: &str) {
        let prefix = format!("{path}/");
        let under: Vec<String> = self
            .entries
            .range(prefix.clone()..)
            .take_while(|(key, _)| key.starts_with(&prefix))
            .map(|(key, _)| key.clone())
            .collect();
        for key in under {
            if let Some(Entry::File(old)) = self.entries.remove(&key) {
                self.stored -= old.len() as u64;
            }
        }
    }

    /// The entries the run left strictly below the directory `dir`, with their paths
    /// relative to it.
    fn below(&self, dir: &str) -> Vec<(String, &Entry)> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.entries
            .range(prefix.clone()..)
            .take_while(|(key, _)| key.starts_with(&prefix))
            .map(|(key, entry)| (key[prefix.len()..].to_string(), entry))
            .filter(|(rel, _)| !rel.is_empty())
            .collect()
    }

    /// A `file.list` answer for `dir` with the run's writes applied: `disk` is the disk's
    /// answer (or `None` when the disk has no such directory, or the run made it
    /// afresh), `depth` how many levels to list (`None`: all).
    pub fn list(&self, dir: &str, shown: &str, disk: Option<Value>, depth: Option<usize>) -> Value {
        let fresh = self
            .entries
            .get(dir)
            .is_some_and(|e| *e == Entry::Directory { fresh: true });
        let mut entries: BTreeMap<String, Value> = BTreeMap::new();
        if !fresh
            && let Some(disk) = disk
            && let Some(listed) = disk.get("entries").and_then(Value::as_array)
        {
            for entry in listed {
                if let Some(rel) = entry.get("relativePath").and_then(Value::as_str) {
                    entries.insert(rel.to_string(), entry.clone());
                }
            }
        }
        let within = |rel: &str| depth.is_none_or(|d| rel.matches('/').count() < d);
        for (rel, entry) in self.below(dir) {
            if entry.hides_below() {
                let prefix = format!("{rel}/");
                entries.retain(|key, _| !key.starts_with(&prefix));
            }
            match entry {
                Entry::Removed => {
                    entries.remove(&rel);
                }
                Entry::File(bytes) if within(&rel) => {
                    entries.insert(rel.clone(), written_entry(&rel, "file", bytes.len()));
                }
                Entry::Directory { .. } if within(&rel) => {
                    entries
                        .entry(rel.clone())
                        .or_insert_with(|| written_entry(&rel, "directory", 0));
                }
                _ => {}
            }
        }
        let total_bytes: u64 = entries
            .values()
            .filter(|e| e["kind"] == "file")
            .filter_map(|e| e["sizeBytes"].as_u64())
            .sum();
        let entries: Vec<Value> = entries.into_values().collect();
        json!({"rootPath": shown, "totalEntries": entries.len(), "totalFileBytes": total_bytes, "entries": entries})
    }
}

/// When the run's writes happened, as `file.stat` and `file.list` show them: a fixed
/// instant, so reports stay reproducible.
pub const WRITTEN_AT: &str = "1970-01-01T00:00:00.000Z";

fn written_entry(rel: &str, kind: &str, size: usize) -> Value {
    json!({"relativePath": rel, "kind": kind, "sizeBytes": size, "modifiedAt": WRITTEN_AT})
}

/// A `file.stat` answer for something the run wrote.
pub fn stat(shown: &str, seen: &Seen) -> Option<Value> {
    let (kind, size) = match seen {
        Seen::File(bytes) => ("file", bytes.len()),
        Seen::Directory => ("directory", 0),
        Seen::Absent => return None,
    };
    Some(json!({"path": shown, "kind": kind, "sizeBytes": size, "modifiedAt": WRITTEN_AT}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nothing_on_disk(_: &str) -> bool {
        false
    }

    #[test]
    fn normalises_and_refuses_climbing() {
        assert_eq!(normalize("a//b/./c/").as_deref(), Some("a/b/c"));
        assert_eq!(normalize("a\\b").as_deref(), Some("a/b"));
        assert_eq!(normalize("/bundles/x/y").as_deref(), Some("/bundles/x/y"));
        assert_eq!(normalize("a/../b"), None);
        assert_eq!(parents("a/b/c").collect::<Vec<_>>(), ["a/b", "a"]);
        assert_eq!(parents("/bundles/x").collect::<Vec<_>>(), ["/bundles"]);
    }

    #[test]
    fn the_bytes_held_follow_writes_replacements_and_removals() {
        let mut o = FileOverlay::default();
        o.write("d/a", vec![0; 10], &nothing_on_disk);
        o.write("d/b", vec![0; 5], &nothing_on_disk);
        assert_eq!(o.stored_bytes(), 15);
        o.write("d/a", vec![0; 3], &nothing_on_disk);
        assert_eq!(o.stored_bytes(), 8, "a replaced file no longer counts");
        o.make_directory("d/b", &nothing_on_disk);
        assert_eq!(o.stored_bytes(), 3, "a file a directory replaced");
        o.write("d/b/c", vec![0; 4], &nothing_on_disk);
        o.remove("d");
        assert_eq!(o.stored_bytes(), 0, "everything under a removed directory");
    }

    #[test]
    fn writes_make_parents_and_removal_hides_what_is_below() {
        let mut o = FileOverlay::default();
        o.write("out/stage/a.md", b"# A".to_vec(), &nothing_on_disk);
        assert_eq!(
            o.seen("out/stage/a.md"),
            Some(Seen::File(Arc::from(&b"# A"[..])))
        );
        assert_eq!(o.seen("out/stage"), Some(Seen::Directory));
        assert_eq!(
            o.seen("out/other"),
            Some(Seen::Absent),
            "a fresh directory hides the disk"
        );
        o.remove("out");
        assert_eq!(o.seen("out/stage/a.md"), Some(Seen::Absent));
        assert_eq!(o.seen("elsewhere"), None, "the disk decides");
        o.make_directory("out", &|p| p == "out");
        assert_eq!(o.seen("out"), Some(Seen::Directory));
        assert_eq!(
            o.seen("out/stage"),
            Some(Seen::Absent),
            "made afresh over a removal"
        );
    }

    #[test]
    fn a_listing_merges_the_disk_with_the_run() {
        let mut o = FileOverlay::default();
        let on_disk = |p: &str| p == "dir";
        o.write("dir/new.txt", b"12345".to_vec(), &on_disk);
        o.remove("dir/old");
        o.make_directory("dir/sub", &on_disk);
        let disk = json!({"entries": [
            {"relativePath": "old", "kind": "directory", "sizeBytes": 0, "modifiedAt": "x"},
            {"relativePath": "old/f", "kind": "file", "sizeBytes": 3, "modifiedAt": "x"},
            {"relativePath": "kept", "kind": "file", "sizeBytes": 2, "modifiedAt": "x"}
        ]});
        let listed = o.list("dir", "dir", Some(disk), None);
        let names: Vec<&str> = listed["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["relativePath"].as_str())
            .collect();
        assert_eq!(names, ["kept", "new.txt", "sub"]);
        assert_eq!(listed["totalFileBytes"], 7);
    }
}
