//! What a run's file writes did, kept apart from the disk: the recorded `file.*`
//! writes change what later `file.*` reads of the same run see (in hook and unit
//! order), and nothing on disk ever changes.
//!
//! The overlay maps [`HostPath`]s to what the run left there: a file with its
//! bytes, a directory (one the run made afresh hides what the disk holds under it), or
//! nothing (removed). Reads ask the overlay first and fall back to the disk.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use super::path::ancestors_of;
use super::{Budget, HostError, HostPath};

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

impl FileOverlay {
    /// Whether the run wrote nothing yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What the overlay says about `path`, or `None` when the disk decides.
    pub fn seen(&self, path: &HostPath) -> Option<Seen> {
        self.seen_text(path.as_str())
    }

    fn seen_text(&self, path: &str) -> Option<Seen> {
        match self.entries.get(path) {
            Some(Entry::File(bytes)) => return Some(Seen::File(bytes.clone())),
            Some(Entry::Directory { .. }) => return Some(Seen::Directory),
            Some(Entry::Removed) => return Some(Seen::Absent),
            None => {}
        }
        ancestors_of(path)
            .any(|parent| self.entries.get(parent).is_some_and(Entry::hides_below))
            .then_some(Seen::Absent)
    }

    /// Makes the directories above `path` that the run's reads would not find.
    /// `on_disk` says whether the disk holds a path.
    fn make_parents(&mut self, path: &HostPath, on_disk: &dyn Fn(&str) -> bool) {
        let missing: Vec<String> = path
            .ancestors()
            .filter(|p| match self.seen_text(p) {
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

    /// `file.writeText` / `file.writeBytes`: `path` holds `bytes`. The caller has
    /// checked that the run sees no directory there.
    pub fn write(&mut self, path: &HostPath, bytes: Arc<[u8]>, on_disk: &dyn Fn(&str) -> bool) {
        self.clear_under(path);
        self.make_parents(path, on_disk);
        self.set(path.as_str().to_string(), Entry::File(bytes));
    }

    /// `file.makeDirectory`: `path` is a directory (with its parents).
    pub fn make_directory(&mut self, path: &HostPath, on_disk: &dyn Fn(&str) -> bool) {
        let fresh = match self.seen(path) {
            Some(Seen::Directory) => return,
            Some(_) => true,
            None => !on_disk(path.as_str()),
        };
        self.make_parents(path, on_disk);
        self.set(path.as_str().to_string(), Entry::Directory { fresh });
    }

    /// `file.remove`: nothing is at `path` any more, nor under it.
    pub fn remove(&mut self, path: &HostPath) {
        self.clear_under(path);
        self.set(path.as_str().to_string(), Entry::Removed);
    }

    fn clear_under(&mut self, path: &HostPath) {
        let prefix = path.below_prefix();
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

    /// Applies the run's writes under `dir` to the listed `entries` (by relative
    /// path), to `depth` levels; one step of `budget` per entry.
    fn apply_below(
        &self,
        dir: &HostPath,
        depth: Option<usize>,
        entries: &mut BTreeMap<String, Value>,
        budget: &Budget,
    ) -> Result<(), HostError> {
        let within = |rel: &str| depth.is_none_or(|d| rel.matches('/').count() < d);
        let prefix = dir.below_prefix();
        let below = self
            .entries
            .range(prefix.clone()..)
            .take_while(|(key, _)| key.starts_with(&prefix));
        // In key order, an entry comes before everything under it: what it hides of
        // the disk is removed once, by range.
        for (key, entry) in below {
            budget.tick()?;
            let rel = &key[prefix.len()..];
            if entry.hides_below() {
                let under = format!("{rel}/");
                let hidden: Vec<String> = entries
                    .range(under.clone()..)
                    .take_while(|(k, _)| k.starts_with(&under))
                    .map(|(k, _)| k.clone())
                    .collect();
                for k in hidden {
                    budget.tick()?;
                    entries.remove(&k);
                }
            }
            match entry {
                Entry::Removed => {
                    entries.remove(rel);
                }
                Entry::File(bytes) if within(rel) => {
                    entries.insert(rel.to_string(), written_entry(rel, "file", bytes.len()));
                }
                Entry::Directory { .. } if within(rel) => {
                    entries
                        .entry(rel.to_string())
                        .or_insert_with(|| written_entry(rel, "directory", 0));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A `file.list` answer for `dir` with the run's writes applied: `disk` is the disk's
    /// answer (or `None` when the disk has no such directory, or the run made it
    /// afresh), `depth` how many levels to list (`None`: all). Each entry costs one
    /// step of `budget`, so a listing ends with its call's deadline.
    pub fn list(
        &self,
        dir: &HostPath,
        shown: &str,
        disk: Option<Value>,
        depth: Option<usize>,
        budget: &Budget,
    ) -> Result<Value, HostError> {
        let fresh = self
            .entries
            .get(dir.as_str())
            .is_some_and(|e| *e == Entry::Directory { fresh: true });
        let mut entries: BTreeMap<String, Value> = BTreeMap::new();
        if !fresh
            && let Some(Value::Object(mut disk)) = disk
            && let Some(Value::Array(listed)) = disk.remove("entries")
        {
            for entry in listed {
                budget.tick()?;
                if let Some(rel) = entry.get("relativePath").and_then(Value::as_str) {
                    entries.insert(rel.to_string(), entry);
                }
            }
        }
        self.apply_below(dir, depth, &mut entries, budget)?;
        let total_bytes: u64 = entries
            .values()
            .filter(|e| e["kind"] == "file")
            .filter_map(|e| e["sizeBytes"].as_u64())
            .sum();
        let entries: Vec<Value> = entries.into_values().collect();
        Ok(
            json!({"rootPath": shown, "totalEntries": entries.len(), "totalFileBytes": total_bytes, "entries": entries}),
        )
    }
}

/// When the run's writes happened, as `file.stat` and `file.list` show them: a fixed
/// instant, so reports stay reproducible.
pub const WRITTEN_AT: &str = "1970-01-01T00:00:00.000Z";

/// A listed entry the run wrote; a directory has no size, as on the reference host.
fn written_entry(rel: &str, kind: &str, size: usize) -> Value {
    let size = (kind == "file").then_some(size);
    json!({"relativePath": rel, "kind": kind, "sizeBytes": size, "modifiedAt": WRITTEN_AT})
}

/// A `file.stat` answer for something the run wrote.
pub fn stat(shown: &str, seen: &Seen) -> Option<Value> {
    let (kind, size) = match seen {
        Seen::File(bytes) => ("file", Some(bytes.len())),
        Seen::Directory => ("directory", None),
        Seen::Absent => return None,
    };
    Some(json!({"path": shown, "kind": kind, "sizeBytes": size, "modifiedAt": WRITTEN_AT}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(path: &str) -> HostPath {
        HostPath::parse(path).unwrap()
    }

    fn nothing_on_disk(_: &str) -> bool {
        false
    }

    #[test]
    fn the_bytes_held_follow_writes_replacements_and_removals() {
        let mut o = FileOverlay::default();
        o.write(&p("d/a"), vec![0; 10].into(), &nothing_on_disk);
        o.write(&p("d/b"), vec![0; 5].into(), &nothing_on_disk);
        assert_eq!(o.stored_bytes(), 15);
        o.write(&p("d/a"), vec![0; 3].into(), &nothing_on_disk);
        assert_eq!(o.stored_bytes(), 8, "a replaced file no longer counts");
        o.make_directory(&p("d/b"), &nothing_on_disk);
        assert_eq!(o.stored_bytes(), 3, "a file a directory replaced");
        o.write(&p("d/b/c"), vec![0; 4].into(), &nothing_on_disk);
        o.remove(&p("d"));
        assert_eq!(o.stored_bytes(), 0, "everything under a removed directory");
    }

    #[test]
    fn writes_make_parents_and_removal_hides_what_is_below() {
        let mut o = FileOverlay::default();
        o.write(
            &p("out/stage/a.md"),
            b"# A".to_vec().into(),
            &nothing_on_disk,
        );
        assert_eq!(
            o.seen(&p("out/stage/a.md")),
            Some(Seen::File(Arc::from(&b"# A"[..])))
        );
        assert_eq!(o.seen(&p("out/stage")), Some(Seen::Directory));
        assert_eq!(
            o.seen(&p("out/other")),
            Some(Seen::Absent),
            "a fresh directory hides the disk"
        );
        o.remove(&p("out"));
        assert_eq!(o.seen(&p("out/stage/a.md")), Some(Seen::Absent));
        assert_eq!(o.seen(&p("elsewhere")), None, "the disk decides");
        o.make_directory(&p("out"), &|p| p == "out");
        assert_eq!(o.seen(&p("out")), Some(Seen::Directory));
        assert_eq!(
            o.seen(&p("out/stage")),
            Some(Seen::Absent),
            "made afresh over a removal"
        );
    }

    #[test]
    fn a_listing_merges_the_disk_with_the_run() {
        let mut o = FileOverlay::default();
        let on_disk = |p: &str| p == "dir";
        o.write(&p("dir/new.txt"), b"12345".to_vec().into(), &on_disk);
        o.remove(&p("dir/old"));
        o.make_directory(&p("dir/sub"), &on_disk);
        let disk = json!({"entries": [
            {"relativePath": "old", "kind": "directory", "sizeBytes": 0, "modifiedAt": "x"},
            {"relativePath": "old/f", "kind": "file", "sizeBytes": 3, "modifiedAt": "x"},
            {"relativePath": "kept", "kind": "file", "sizeBytes": 2, "modifiedAt": "x"}
        ]});
        let listed = o
            .list(&p("dir"), "dir", Some(disk), None, &Budget::unlimited())
            .unwrap();
        let names: Vec<&str> = listed["entries"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["relativePath"].as_str())
            .collect();
        assert_eq!(names, ["kept", "new.txt", "sub"]);
        assert_eq!(listed["totalFileBytes"], 7);
    }

    #[test]
    fn a_listing_stops_at_its_call_s_deadline() {
        let mut o = FileOverlay::default();
        for i in 0..2_000 {
            o.write(
                &p(&format!("big/d{}/f{i}", i % 40)),
                vec![1].into(),
                &nothing_on_disk,
            );
        }
        let whole = o
            .list(&p("big"), "big", None, None, &Budget::unlimited())
            .unwrap();
        assert_eq!(whole["totalEntries"], 2_040);
        let past = Budget::new(
            Some(std::time::Instant::now() - std::time::Duration::from_millis(1)),
            u64::MAX,
        );
        assert!(o.list(&p("big"), "big", None, None, &past).is_err());
        assert_eq!(past.exhausted(), Some(crate::host::Breach::Deadline));
    }

    #[test]
    fn hidden_disk_entries_go_once_however_many_writes_hide_them() {
        let mut o = FileOverlay::default();
        let on_disk = |p: &str| p == "dir";
        o.remove(&p("dir/old"));
        o.write(&p("dir/old"), b"new".to_vec().into(), &on_disk);
        let disk = json!({"entries": (0..500).map(|i| json!({"relativePath": format!("old/f{i}"), "kind": "file", "sizeBytes": 1, "modifiedAt": "x"}))
            .chain([json!({"relativePath": "old", "kind": "directory", "sizeBytes": 0, "modifiedAt": "x"})]).collect::<Vec<_>>()});
        let listed = o
            .list(&p("dir"), "dir", Some(disk), None, &Budget::unlimited())
            .unwrap();
        assert_eq!(listed["totalEntries"], 1);
        assert_eq!(listed["entries"][0]["kind"], "file");
    }
}
