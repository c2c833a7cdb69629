//! A library the world reads on demand ([`LibrarySource`], e.g. a Zotero
//! database): the world starts with what the selection names and loads more as
//! hooks ask for it.
//!
//! - An item a read or write names by ref is loaded with its parent and its
//!   children (an attachment's annotations too) before the member runs.
//! - A member that reads the library as a whole (listings, traversals,
//!   searches, snapshots, `synthesis.*`) loads every item once, the first time
//!   one is called.
//!
//! A linked file (an attachment whose `linkMode` is `linked_file`, at an
//! absolute path outside the files directory) is shown to hooks as
//! `<KEY>/<file name>`, like a stored file, and read from where the library
//! links it: no host path reaches a hook.
//!
//! What was loaded stays loaded for the run, and the run's writes apply to the
//! loaded items as to any other; [`HostWorld::loaded_keys`] names what the
//! source gave, so that a run can be captured as a fixture.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use super::record::Record;
use super::{HostResult, HostWorld, HostWorldError};
use crate::host::members::Member;
use crate::selection::PortableItemRef;

/// A library the world reads on demand: items by key in Zotero's JSON export
/// shape (see [`HostWorld::with_library`]).
///
/// Errors are the source's own messages; the world answers them as host
/// errors naming the library.
pub trait LibrarySource: Debug + Send + Sync {
    /// The library's id (`libraryId` of its refs).
    fn library_id(&self) -> u64;

    /// Every item key of the library, in a stable order.
    fn keys(&self) -> Result<Vec<String>, String>;

    /// The item `key`, or `None` when the library has none.
    fn item(&self, key: &str) -> Result<Option<Value>, String>;

    /// The keys of `key`'s children (notes, attachments, annotations).
    fn children(&self, key: &str) -> Result<Vec<String>, String>;

    /// The library's collections, in the shape of a library description's
    /// `collections`.
    fn collections(&self) -> Result<Vec<Value>, String>;
}

/// The world's source and what it has loaded from it.
#[derive(Debug, Clone)]
pub(super) struct Source {
    library: Arc<dyn LibrarySource>,
    /// Keys asked for, loaded with their parents and children when the
    /// library has them.
    loaded: BTreeSet<String>,
    /// The keys of the items the library gave.
    found: BTreeSet<String>,
    /// Linked files by the path hooks see (`<KEY>/<file name>`).
    linked: BTreeMap<String, PathBuf>,
    /// Whether every item is loaded.
    complete: bool,
}

/// Whether `member` reads the library as a whole: listings, traversals,
/// searches, snapshots and `synthesis.*`; or writes (or previews a write of) a
/// collection, whose revision covers every member, or ingests a paper, which is
/// looked for among every item.
fn reads_whole_library(member: Member, args: &Value) -> bool {
    match member {
        Member::LibraryListItems
        | Member::LibraryTraverseItems
        | Member::LibrarySearchItems
        | Member::LibraryWithItemSnapshot
        | Member::LibraryListCollections => true,
        Member::MutationsExecute | Member::MutationsPreview => args
            .pointer("/0/operation")
            .and_then(Value::as_str)
            .is_some_and(|op| op.starts_with("collection.") || op == "literature.ingest"),
        other => other.name().starts_with("synthesis."),
    }
}

/// How deep the refs of a request are looked for, and how many are taken.
const REF_DEPTH: usize = 4;
const MAX_REFS: usize = 1_000;

impl HostWorld {
    /// Reads items on demand from `library`, beginning with its collections and
    /// the items the world already knows (the selection's), each with its parent
    /// and children.
    pub fn with_source(mut self, library: Arc<dyn LibrarySource>) -> HostResult<Self> {
        let collections = library.collections().map_err(|e| source_error(&e))?;
        self.add_collections(&collections)?;
        let known: Vec<String> = self
            .records
            .iter()
            .filter_map(|r| r.reference.as_ref())
            .filter(|r| r.library_id == library.library_id())
            .map(|r| r.key.clone())
            .collect();
        self.source = Some(Source {
            library,
            loaded: BTreeSet::new(),
            found: BTreeSet::new(),
            linked: BTreeMap::new(),
            complete: false,
        });
        self.load_keys(known)?;
        Ok(self)
    }

    /// Loads what `member` called with `args` may read: the items its refs name,
    /// or the whole library for a member that reads it as a whole.
    pub fn load_for(&mut self, member: Member, args: &Value) -> HostResult<()> {
        let Some(source) = &self.source else {
            return Ok(());
        };
        if source.complete {
            return Ok(());
        }
        if reads_whole_library(member, args) {
            return self.load_all();
        }
        let library_id = source.library.library_id();
        let mut refs = Vec::new();
        refs_in(args, REF_DEPTH, &mut refs);
        let keys = refs
            .into_iter()
            .filter(|r| r.library_id == library_id)
            .map(|r| r.key)
            .collect();
        self.load_keys(keys)
    }

    /// The keys of the items the world read from its source, in key order.
    pub fn loaded_keys(&self) -> Vec<String> {
        self.source
            .as_ref()
            .map(|s| s.found.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The file a linked-file attachment of the source shows as `path`, when
    /// it is one and a regular file.
    pub(super) fn linked_file_at(&self, path: &str) -> Option<PathBuf> {
        let real = self.source.as_ref()?.linked.get(path)?;
        let resolved = std::fs::canonicalize(real).ok()?;
        std::fs::metadata(&resolved)
            .is_ok_and(|m| m.is_file())
            .then_some(resolved)
    }

    /// Loads every item of the source not loaded yet.
    fn load_all(&mut self) -> HostResult<()> {
        let Some(source) = &self.source else {
            return Ok(());
        };
        let keys = source.library.keys().map_err(|e| source_error(&e))?;
        self.load_keys(keys)?;
        if let Some(source) = &mut self.source {
            source.complete = true;
        }
        Ok(())
    }

    /// Loads `keys` with their parents and children, then indexes the world.
    fn load_keys(&mut self, keys: Vec<String>) -> HostResult<()> {
        let mut pending = keys;
        let mut added = false;
        while let Some(key) = pending.pop() {
            let Some(source) = &mut self.source else {
                return Ok(());
            };
            if !source.loaded.insert(key.clone()) {
                continue;
            }
            let library = Arc::clone(&source.library);
            let Some(mut item) = library.item(&key).map_err(|e| source_error(&e))? else {
                continue;
            };
            source.found.insert(key.clone());
            if let Some((shown, real)) = show_linked_file(&mut item) {
                source.linked.insert(shown, real);
            }
            if let Some(parent) = item.get("parentItem").and_then(Value::as_str) {
                pending.push(parent.to_string());
            }
            pending.extend(library.children(&key).map_err(|e| source_error(&e))?);
            self.upsert(Record::from_library_source(
                &item,
                &format!("/items/{key}"),
            )?);
            added = true;
        }
        if added {
            self.reindex();
        }
        Ok(())
    }
}

/// Makes a linked-file attachment's absolute `path` the path hooks see
/// (`<KEY>/<file name>`); that path and the file it links, when `item` is one.
pub fn show_linked_file(item: &mut Value) -> Option<(String, PathBuf)> {
    if item.get("linkMode")?.as_str()? != "linked_file" {
        return None;
    }
    let real = PathBuf::from(item.get("path")?.as_str()?);
    if !real.is_absolute() {
        return None;
    }
    let name = real.file_name()?.to_str()?;
    let key = item.get("key")?.as_str()?;
    let shown = format!("{key}/{name}");
    item["path"] = Value::String(shown.clone());
    Some((shown, real))
}

/// The refs (`{libraryId, key}`) in `value`, to `depth` levels, at most
/// [`MAX_REFS`] of them.
fn refs_in(value: &Value, depth: usize, out: &mut Vec<PortableItemRef>) {
    if out.len() >= MAX_REFS {
        return;
    }
    if let Ok(reference) = PortableItemRef::parse(value, "") {
        out.push(reference);
        return;
    }
    if depth == 0 {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|v| refs_in(v, depth - 1, out)),
        Value::Object(members) => members.values().for_each(|v| refs_in(v, depth - 1, out)),
        _ => {}
    }
}

/// A source's failure as the world reports it.
fn source_error(message: &str) -> HostWorldError {
    HostWorldError::Io {
        path: "the library".into(),
        message: message.into(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use serde_json::json;

    use super::*;
    use crate::plan::ItemLocator;

    /// A library of two papers, the first with a note, counting its item reads.
    #[derive(Debug, Default)]
    struct Papers {
        reads: Mutex<Vec<String>>,
    }

    impl LibrarySource for Papers {
        fn library_id(&self) -> u64 {
            1
        }
        fn keys(&self) -> Result<Vec<String>, String> {
            Ok(vec![
                "NOTE0001".into(),
                "PAPER001".into(),
                "PAPER002".into(),
            ])
        }
        fn item(&self, key: &str) -> Result<Option<Value>, String> {
            self.reads
                .lock()
                .map_err(|e| e.to_string())?
                .push(key.into());
            Ok(match key {
                "PAPER001" => Some(json!({"key": key, "itemType": "journalArticle", "title": key})),
                // A field of a newer Zotero than the world's field list.
                "PAPER002" => Some(
                    json!({"key": key, "itemType": "journalArticle", "title": key, "fieldOfTomorrow": "kept"}),
                ),
                "NOTE0001" => Some(
                    json!({"key": key, "itemType": "note", "parentItem": "PAPER001", "note": "<p>n</p>"}),
                ),
                _ => None,
            })
        }
        fn children(&self, key: &str) -> Result<Vec<String>, String> {
            Ok(if key == "PAPER001" {
                vec!["NOTE0001".into()]
            } else {
                Vec::new()
            })
        }
        fn collections(&self) -> Result<Vec<Value>, String> {
            Ok(vec![json!({"key": "COLL0001", "name": "To read"})])
        }
    }

    fn paper(key: &str) -> PortableItemRef {
        PortableItemRef {
            library_id: 1,
            key: key.into(),
        }
    }

    #[test]
    fn items_load_when_named_and_everything_when_the_library_is_read_whole() {
        let papers = Arc::new(Papers::default());
        let mut world = HostWorld::default()
            .with_source(Arc::clone(&papers) as Arc<dyn LibrarySource>)
            .unwrap();
        assert!(world.find(&ItemLocator::Ref(paper("PAPER001"))).is_none());
        world
            .load_for(
                Member::LibraryGetItemNotes,
                &json!([{"libraryId": 1, "key": "NOTE0001"}]),
            )
            .unwrap();
        // The note came with its parent; the parent with its children.
        assert!(world.find(&ItemLocator::Ref(paper("PAPER001"))).is_some());
        assert_eq!(world.loaded_keys(), ["NOTE0001", "PAPER001"]);
        assert!(world.find(&ItemLocator::Ref(paper("PAPER002"))).is_none());
        world
            .load_for(Member::LibraryListItems, &json!([{}]))
            .unwrap();
        let newer = world.find(&ItemLocator::Ref(paper("PAPER002"))).unwrap();
        assert_eq!(newer.zotero.get().fields["fieldOfTomorrow"], "kept");
        assert_eq!(world.loaded_keys().len(), 3);
        // Nothing is read twice, and a complete world reads nothing more.
        world
            .load_for(Member::LibraryListItems, &json!([{}]))
            .unwrap();
        world
            .load_for(
                Member::LibraryGetItemDetail,
                &json!([{"libraryId": 1, "key": "PAPER001"}]),
            )
            .unwrap();
        assert_eq!(papers.reads.lock().unwrap().len(), 3);
        assert_eq!(world.collections.len(), 1);
    }

    #[test]
    fn an_ingest_reads_the_whole_library_to_find_its_paper() {
        let papers = Arc::new(Papers::default());
        let mut world = HostWorld::default()
            .with_source(Arc::clone(&papers) as Arc<dyn LibrarySource>)
            .unwrap();
        world
            .load_for(
                Member::MutationsPreview,
                &json!([{"operation": "literature.ingest"}]),
            )
            .unwrap();
        assert_eq!(world.loaded_keys().len(), 3);
    }

    #[test]
    fn refs_of_other_libraries_and_unknown_keys_load_nothing() {
        let mut world = HostWorld::default()
            .with_source(Arc::new(Papers::default()))
            .unwrap();
        world
            .load_for(
                Member::LibraryGetItemDetail,
                &json!([{"libraryId": 2, "key": "PAPER001"}, {"libraryId": 1, "key": "MISSING1"}]),
            )
            .unwrap();
        assert!(world.find(&ItemLocator::Ref(paper("PAPER001"))).is_none());
        assert!(world.loaded_keys().is_empty());
    }
}
