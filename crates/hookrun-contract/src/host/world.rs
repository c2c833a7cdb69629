//! A concrete host world built from a selection, an optional library description and
//! an optional files directory.
//!
//! The CLI answers hook reads and planning questions from this world.
//!
//! **Sources.** [`HostWorld::from_selection`] records every item the selection
//! mentions: canonical facts, or grouped entries with their nested
//! `parents[].attachments`, `parents[].notes`, `parents[].children`,
//! `children[].attachments/notes` and `parent` items. [`HostWorld::with_library`]
//! adds a library description for what the selection does not contain:
//!
//! ```json
//! { "items": [
//!     { "ref": {"libraryId": 1, "key": "ATT1"}, "kind": "attachment",
//!       "parentRef": {"libraryId": 1, "key": "PAR1"}, "title": "Paper",
//!       "filename": "paper.pdf", "contentType": "application/pdf",
//!       "createdAt": "2024-01-01 10:00:00", "path": "attachments/ATT1/paper.pdf" },
//!     { "ref": {"libraryId": 1, "key": "NOTE1"}, "kind": "note",
//!       "parentRef": {"libraryId": 1, "key": "PAR1"}, "title": "Digest",
//!       "html": "<h1>Digest</h1><p><img data-zs-payload-anchor=\"digest-markdown\" data-attachment-key=\"CARRIER1\"></p>" },
//!     { "ref": {"libraryId": 1, "key": "CARRIER1"}, "kind": "attachment",
//!       "parentRef": {"libraryId": 1, "key": "NOTE1"},
//!       "payloadEnvelope": {"schemaVersion": 1, "payloadStorageVersion": 2,
//!         "kind": "zotero-skills-workbench-note-payload", "payloadType": "digest-markdown",
//!         "noteKind": "digest", "logicalSchemaVersion": "literature_digest.v1",
//!         "format": "text", "payload": "Cats are good."} } ] }
//! ```
//!
//! A note's payloads are as the reference host keeps them (`payloads.rs`): inline
//! `<span data-zs-payload=…>` blocks of its `html`, and carrier attachments whose
//! `payloadEnvelope` is the envelope their PNG holds (such an attachment is an
//! `embedded_image` `image/png` named `image.png` unless it says otherwise). A
//! note's `noteKind` and `payload` declare a managed note's kind and value
//! directly, for a fixture that does not describe its payload storage.
//!
//! `kind` is `regular` (default), `attachment`, `note` or `annotation`; every other
//! member is optional. Items may also be written in Zotero's JSON export shape
//! (`key`, `parentItem`, `note`, fields at the top level or under `fields`,
//! `creators`, `tags`, `collections`, `relations`, dates; see `zotero.rs`), and a
//! library may list its `collections`; a member that is neither is refused with its
//! pointer. An item already known (same ref) gets its missing members filled. Items
//! are listed under their parent in the order they were first seen; a parent an
//! item names is known to exist.
//!
//! **Reads and writes.** The `library.*` reads answer in the reference host's
//! shapes (`reads.rs`, `dto.rs`, `collections.rs`); a run's library writes are
//! prepared and committed against its own copy of the world (`writes.rs`).
//!
//! **Files.** With [`HostWorld::with_files_dir`], attachment paths resolve relative
//! to that directory: grouped `filePath` / `item.data.path`; canonical: the library
//! entry's `path`, else `attachments/<KEY>/<filename>`. A path that is absolute,
//! contains `..`, or resolves (through symlinks) outside the directory counts as
//! missing. Without a files directory every file is missing. Paths handed out
//! (`file.path`) are these directory-relative paths; the file members accept them.

#[cfg(test)]
mod annotation_tests;
mod collections;
mod dto;
mod evidence;
#[cfg(test)]
mod evidence_tests;
mod files;
mod index;
mod lazy;
mod memberships;
mod paging;
mod payloads;
mod reads;
mod record;
mod search;
mod source;
#[cfg(test)]
mod tests;
mod traversal;
mod writes;
mod zotero;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use dto::{digest, hex_sha256};
pub use files::{MAX_READ_BYTES, MAX_READ_TEXT_BYTES, iso_from_millis};
pub use paging::{DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, PageRequest};
pub use reads::{ItemCriteria, MAX_PORTABLE_BYTES, MAX_PORTABLE_ITEMS};
use record::{DetailKind, Record};
pub use search::{Search, Sources};
pub use source::{LibrarySource, show_linked_file};
pub use writes::{Keys, Prepared, STATUS_KEYS, StoredFile};

use crate::plan::{ItemLocator, World, WorldAttachment, WorldError, WorldNote};
use crate::selection::grouped::base_name;
use crate::selection::{FileState, GroupedEntry, ItemKind, PortableItemRef, SelectionContext};

/// How many items `entry` mentions: its item, its parent, and its nested
/// attachments, notes and children.
fn mentioned(entry: &GroupedEntry) -> usize {
    1 + usize::from(entry.parent.is_some())
        + entry.attachments().iter().map(mentioned).sum::<usize>()
        + entry.notes().len()
        + entry.children().len()
}

/// A host read failure; [`HostWorldError::code`] gives the contract host error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HostWorldError {
    /// No item (or file) with this ref or path.
    #[error("{kind} {key} was not found")]
    NotFound {
        /// Expected item kind.
        kind: String,
        /// Ref identity or path.
        key: String,
    },
    /// A path outside the files directory, or no files directory.
    #[error("unsafe path {0}: it must stay inside the files directory")]
    UnsafePath(String),
    /// Invalid paging or library input.
    #[error("{0}")]
    InvalidRequest(String),
    /// A request member the reference host refuses, with its reason.
    #[error("{message}")]
    InvalidField {
        /// What is wrong, as the reference host says it.
        message: String,
        /// `details.reason`.
        reason: &'static str,
        /// `details.field`.
        field: &'static str,
    },
    /// A ref of another library than the one the request reads.
    #[error("{message}")]
    ForeignScope {
        /// The ref's kind (`collection`).
        kind: &'static str,
        /// What is wrong, as the reference host says it.
        message: &'static str,
    },
    /// The item exists but is of another kind.
    #[error("{}", wrong_kind_message(kind, key, *needs))]
    WrongKind {
        /// The kind the read needs.
        kind: String,
        /// Ref identity.
        key: String,
        /// What the read needs, as the reference host says it (without it:
        /// `"<key> is not a <kind> item"`).
        needs: Option<&'static str>,
    },
    /// A request past one of the host's limits.
    #[error("{resource} is limited to {limit}")]
    ResourceLimited {
        /// What is limited.
        resource: String,
        /// The limit.
        limit: u64,
        /// What the request asked for.
        observed: Value,
    },
    /// An I/O failure inside the files directory.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The requested path.
        path: String,
        /// The OS error.
        message: String,
    },
}

/// The message of [`HostWorldError::WrongKind`].
fn wrong_kind_message(kind: &str, key: &str, needs: Option<&str>) -> String {
    needs.map_or_else(|| format!("{key} is not a {kind} item"), str::to_owned)
}

impl HostWorldError {
    /// The host error `code` (contract `03-hooks.md` §8.4).
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotFound { .. } | Self::Io { .. } => "not_found",
            Self::UnsafePath(_) | Self::InvalidRequest(_) | Self::InvalidField { .. } => {
                "invalid_request"
            }
            Self::WrongKind { .. } | Self::ForeignScope { .. } => "invalid_ref",
            Self::ResourceLimited { .. } => "resource_limited",
        }
    }
}

/// Result of a host world read.
pub type HostResult<T> = Result<T, HostWorldError>;

/// The host world of one fixture.
#[derive(Debug, Clone, Default)]
pub struct HostWorld {
    records: Vec<Record>,
    by_ref: index::RefIndex,
    by_id: index::IdIndex,
    children: index::ChildIndex,
    collections: Vec<collections::Collection>,
    files_dir: Option<PathBuf>,
    /// The library read on demand, when there is one.
    source: Option<source::Source>,
    /// The completion evidence issued so far.
    evidence: evidence::Sequence,
}

impl HostWorld {
    /// A world knowing every item `selection` mentions.
    pub fn from_selection(selection: &SelectionContext) -> Self {
        let mut world = Self::default();
        // Room for every item the selection mentions (at most twice the items it
        // has, when many share a parent) instead of room doubled as it fills:
        // a world of 200,000 items would otherwise peak at three times its records.
        world.reserve(match selection {
            SelectionContext::Canonical(c) => c.items.len(),
            SelectionContext::Grouped(g) => ItemKind::ALL
                .into_iter()
                .flat_map(|k| g.entries(k))
                .map(mentioned)
                .sum(),
        });
        match selection {
            SelectionContext::Canonical(c) => {
                for fact in &c.items {
                    world.upsert(Record::from_fact(fact));
                }
            }
            SelectionContext::Grouped(g) => {
                for kind in ItemKind::ALL {
                    for entry in g.entries(kind) {
                        world.add_entry(entry);
                    }
                }
            }
        }
        world.reindex();
        world.records.shrink_to_fit();
        world
    }

    fn reserve(&mut self, items: usize) {
        self.records.reserve_exact(items);
        self.by_ref.reserve(items, &self.records);
        self.by_id.reserve(items, &self.records);
    }

    fn add_entry(&mut self, entry: &GroupedEntry) {
        if let Some(parent) = &entry.parent {
            self.upsert(Record::from_shared(parent, None, None));
        }
        self.upsert(Record::from_entry(entry));
        for attachment in entry.attachments() {
            self.add_entry(attachment);
        }
        let nested = entry
            .notes()
            .iter()
            .map(|n| (n, ItemKind::Note))
            .chain(entry.children().iter().map(|c| (c, ItemKind::Child)));
        for (item, kind) in nested {
            self.upsert(Record::from_shared(item, Some(kind), Some(&entry.item)));
        }
    }

    /// Adds the items of a library description (see the module docs).
    pub fn with_library(mut self, library: &Value) -> HostResult<Self> {
        if let Some(extra) = library.as_object().and_then(|o| {
            o.keys()
                .find(|k| !["items", "collections"].contains(&k.as_str()))
        }) {
            return Err(HostWorldError::InvalidRequest(format!(
                "/{extra}: unknown member; a library has items and collections"
            )));
        }
        let items = library
            .get("items")
            .and_then(Value::as_array)
            .ok_or_else(|| HostWorldError::InvalidRequest("/items: expected an array".into()))?;
        for (i, item) in items.iter().enumerate() {
            self.upsert(Record::from_library(item, &format!("/items/{i}"))?);
        }
        match library.get("collections") {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => self.add_collections(list)?,
            Some(_) => {
                return Err(HostWorldError::InvalidRequest(
                    "/collections: expected an array".into(),
                ));
            }
        }
        self.reindex();
        Ok(self)
    }

    /// Adds the collections of a library description's `collections`, each
    /// in place of one with the same ref.
    fn add_collections(&mut self, list: &[Value]) -> HostResult<()> {
        for (i, c) in list.iter().enumerate() {
            let collection =
                collections::Collection::from_library(c, &format!("/collections/{i}"))?;
            self.collections
                .retain(|x| x.reference != collection.reference);
            self.collections.push(collection);
        }
        Ok(())
    }

    /// The files directory, when there is one.
    pub fn files_dir(&self) -> Option<&Path> {
        self.files_dir.as_deref()
    }

    /// Resolves attachment paths relative to `dir`.
    pub fn with_files_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.files_dir = Some(dir.into());
        self
    }

    fn lookup(&self, record: &Record) -> Option<usize> {
        record
            .reference
            .as_ref()
            .and_then(|r| self.by_ref.get(r, &self.records))
            .or_else(|| record.id.and_then(|id| self.by_id.get(&id, &self.records)))
    }

    fn upsert(&mut self, record: Record) {
        let index = match self.lookup(&record) {
            Some(i) => {
                if let Some(existing) = self.records.get_mut(i) {
                    existing.absorb(record);
                }
                i
            }
            None => {
                self.records.push(record);
                self.records.len() - 1
            }
        };
        self.by_ref.insert(index, &self.records);
        self.by_id.insert(index, &self.records);
    }

    /// A parent named by a known item's `parentRef` exists in the library even when
    /// no source describes it: it is known as a regular item without data.
    fn add_implied_parents(&mut self) {
        let implied: Vec<PortableItemRef> = self
            .records
            .iter()
            .filter_map(|r| r.parent_ref.clone())
            .filter(|p| !self.by_ref.contains(p, &self.records))
            .collect();
        for reference in implied {
            if !self.by_ref.contains(&reference, &self.records) {
                self.upsert(Record {
                    reference: Some(reference),
                    kind: Some(DetailKind::Regular),
                    ..Record::default()
                });
            }
        }
    }

    fn reindex(&mut self) {
        self.add_implied_parents();
        self.add_named_collections();
        self.children.clear();
        for i in 0..self.records.len() {
            self.index_child(i);
        }
    }

    /// Lists record `i` under its parent.
    fn index_child(&mut self, i: usize) {
        let Some(r) = self.records.get(i) else {
            return;
        };
        let parent = r
            .parent_ref
            .as_ref()
            .and_then(|p| self.by_ref.get(p, &self.records))
            .or_else(|| {
                r.parent_id
                    .and_then(|id| self.by_id.get(&id, &self.records))
            });
        if let Some(p) = parent {
            self.children.insert(p, i);
        }
    }

    fn find(&self, locator: &ItemLocator) -> Option<&Record> {
        let index = match locator {
            ItemLocator::Ref(r) => self.by_ref.get(r, &self.records),
            ItemLocator::GroupedId(id) => self.by_id.get(id, &self.records),
        };
        index.and_then(|i| self.records.get(i))
    }

    fn find_required(&self, locator: &ItemLocator, kind: &str) -> HostResult<&Record> {
        self.find(locator).ok_or_else(|| HostWorldError::NotFound {
            kind: kind.to_owned(),
            key: describe(locator),
        })
    }

    fn children_of(&self, locator: &ItemLocator, kind: DetailKind) -> HostResult<Vec<&Record>> {
        let parent = self.find_required(locator, "item")?;
        let index = self.lookup(parent).unwrap_or_default();
        Ok(self
            .children
            .of(index)
            .filter_map(|i| self.records.get(i))
            // A trashed child leaves its parent's lists, as Zotero's do.
            .filter(|r| r.kind == Some(kind) && !r.zotero.get().deleted)
            .collect())
    }

    /// The records whose parent is `record`, in the order they were first seen.
    fn child_records<'a>(&'a self, record: &Record) -> impl Iterator<Item = &'a Record> + 'a {
        let index = self.lookup(record);
        index
            .into_iter()
            .flat_map(|i| self.children.of(i))
            .filter_map(|i| self.records.get(i))
    }

    /// The record of `record`'s parent.
    fn parent_record(&self, record: &Record) -> Option<&Record> {
        let parent = record.parent_ref.as_ref()?;
        self.by_ref
            .get(parent, &self.records)
            .and_then(|i| self.records.get(i))
    }

    /// The files-directory-relative path of an attachment record.
    fn attachment_path(record: &Record) -> Option<String> {
        record.path.clone().or_else(|| {
            let key = &record.reference.as_ref()?.key;
            Some(format!("attachments/{key}/{}", record.filename.as_deref()?))
        })
    }

    fn attachment(&self, record: &Record) -> Option<WorldAttachment> {
        let path = Self::attachment_path(record);
        let file_state = match &path {
            None => FileState::NotApplicable,
            Some(_) if record.stored => FileState::Available,
            Some(p) => FileState::from_exists(self.file_exists(p)),
        };
        Some(WorldAttachment {
            reference: record.reference.clone()?,
            parent_ref: record.parent_ref.clone(),
            title: record.title.clone(),
            filename: record
                .filename
                .clone()
                .or_else(|| path.as_deref().map(base_name).map(str::to_owned)),
            content_type: record.content_type.clone(),
            created_at: record.created_at.clone(),
            file_state,
            path: path.filter(|_| file_state == FileState::Available),
        })
    }
}

/// The `format` of `library.getNoteDetail`: the note's HTML, or its text without tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteFormat {
    /// The HTML as stored.
    Html,
    /// The text, tags stripped.
    Text,
}

impl NoteFormat {
    /// `html` or `text`; `None` for anything else.
    pub fn parse(format: &str) -> Option<NoteFormat> {
        match format {
            "html" => Some(NoteFormat::Html),
            "text" => Some(NoteFormat::Text),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            NoteFormat::Html => "html",
            NoteFormat::Text => "text",
        }
    }
}

/// `html` without its tags, entities for `<`, `>`, `&`, quotes and spaces decoded.
pub(crate) fn strip_tags(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

fn describe(locator: &ItemLocator) -> String {
    match locator {
        ItemLocator::Ref(r) => r.identity(),
        ItemLocator::GroupedId(id) => format!("id:{id}"),
    }
}

impl World for HostWorld {
    fn item_attachments(&self, parent: &ItemLocator) -> Result<Vec<WorldAttachment>, WorldError> {
        let list = self
            .children_of(parent, DetailKind::Attachment)
            .map_err(world_error)?;
        Ok(list
            .into_iter()
            .filter_map(|r| self.attachment(r))
            .collect())
    }

    fn item_notes(&self, parent: &ItemLocator) -> Result<Vec<WorldNote>, WorldError> {
        let list = self
            .children_of(parent, DetailKind::Note)
            .map_err(world_error)?;
        Ok(list.into_iter().map(|r| self.world_note(r)).collect())
    }

    fn note_detail(&self, note: &ItemLocator) -> Result<WorldNote, WorldError> {
        self.find_required(note, "note")
            .map(|r| self.world_note(r))
            .map_err(world_error)
    }

    fn attachment_detail(&self, item: &ItemLocator) -> Result<WorldAttachment, WorldError> {
        self.find(item)
            .filter(|r| r.kind == Some(DetailKind::Attachment))
            .and_then(|r| self.attachment(r))
            .ok_or_else(|| WorldError(format!("attachment {} was not found", describe(item))))
    }

    fn file_exists(&self, path: &str) -> bool {
        HostWorld::file_exists(self, path)
    }
}

fn world_error(e: HostWorldError) -> WorldError {
    WorldError(e.to_string())
}
