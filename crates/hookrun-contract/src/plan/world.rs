//! What planning filters and related selectors ask the host.

use serde_json::Value;

use crate::selection::{FileState, ItemFact, ItemKind, PortableItemRef};

/// How the planner names an item when asking the world.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ItemLocator {
    /// A portable ref (canonical items, and grouped items with a library id and key).
    Ref(PortableItemRef),
    /// A grouped-shape numeric item id (grouped items without a complete ref).
    GroupedId(i64),
}

/// An attachment as the host library reports it (`getItemDetail` / `getItemAttachments`).
#[derive(Debug, Clone, PartialEq)]
pub struct WorldAttachment {
    /// The attachment's ref.
    pub reference: PortableItemRef,
    /// Its parent's ref.
    pub parent_ref: Option<PortableItemRef>,
    /// Title.
    pub title: Option<String>,
    /// File name.
    pub filename: Option<String>,
    /// MIME content type.
    pub content_type: Option<String>,
    /// Date added.
    pub created_at: Option<String>,
    /// Whether the file exists locally.
    pub file_state: FileState,
    /// Local path, only when `file_state` is `available`.
    pub path: Option<String>,
}

impl WorldAttachment {
    /// The canonical `SelectionItemFact` of this attachment (no local path).
    pub fn to_fact(&self) -> ItemFact {
        ItemFact {
            kind: ItemKind::Attachment,
            reference: self.reference.clone(),
            item_type: "attachment".to_owned(),
            title: self.title.clone(),
            parent_ref: self.parent_ref.clone(),
            filename: self.filename.clone(),
            content_type: self.content_type.clone(),
            created_at: self.created_at.clone(),
            file_state: Some(self.file_state),
        }
    }
}

/// A child note as the host library reports it (`getItemNotes` + `getNoteDetail`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WorldNote {
    /// The note's ref, when known.
    pub reference: Option<PortableItemRef>,
    /// Grouped-shape numeric id, when known.
    pub id: Option<i64>,
    /// Title.
    pub title: Option<String>,
    /// Note HTML.
    pub html: Option<String>,
    /// Managed-note kind reported by current hosts.
    pub note_kind: Option<String>,
    /// Managed-note issue (`invalid_artifact`, `legacy_artifact_requires_migration`, …).
    pub issue: Option<String>,
    /// Managed-note payload (readiness checks); a citation analysis's without
    /// its stored References basis.
    pub payload: Option<Value>,
    /// A managed citation analysis's stored References basis
    /// (`provenance.referencesBasis` of its detail).
    pub references_basis: Option<String>,
    /// A managed References note's current basis: the canonical digest of its
    /// value when the value satisfies the References contract.
    pub current_basis: Option<String>,
    /// Whether the note's HTML carries a reserved managed marker without a
    /// payload (an older host's managed note): a current host refuses it as a
    /// legacy artifact.
    pub legacy_marker: bool,
}

impl WorldNote {
    /// The issue that keeps the note from being read on a host of `current`
    /// generation (`true`) or an older one: its own, else, on a current host, a
    /// reserved marker without a payload (`legacy_artifact_requires_migration`).
    pub fn issue_on(&self, current: bool) -> Option<&str> {
        match self.issue.as_deref() {
            Some(issue) => Some(issue),
            None if current && self.legacy_marker => Some("legacy_artifact_requires_migration"),
            None => None,
        }
    }

    /// Whether a citation analysis written against `stored` is current for
    /// References whose basis is `current` (the reference's citation health: a
    /// non-empty stored basis equal to the current one).
    pub fn basis_is_current(stored: Option<&str>, current: Option<&str>) -> bool {
        stored.is_some_and(|s| !s.is_empty() && Some(s) == current)
    }
}

/// A failed world read; filters treat it as "missing".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WorldError(pub String);

/// The host reads planning needs.
pub trait World {
    /// All attachments of `parent` (every page of `library.getItemAttachments`).
    fn item_attachments(&self, parent: &ItemLocator) -> Result<Vec<WorldAttachment>, WorldError>;
    /// All child notes of `parent` with their detail (`getItemNotes` + `getNoteDetail`).
    fn item_notes(&self, parent: &ItemLocator) -> Result<Vec<WorldNote>, WorldError>;
    /// A note's detail (`getNoteDetail`).
    fn note_detail(&self, note: &ItemLocator) -> Result<WorldNote, WorldError>;
    /// The attachment's detail with file state and local path (`getItemDetail`).
    fn attachment_detail(&self, item: &ItemLocator) -> Result<WorldAttachment, WorldError>;
    /// Whether `path` names an existing file (`file.exists`); errors read as `false`.
    fn file_exists(&self, path: &str) -> bool;
}
