//! [`Source`] for grouped selections: nested data comes from the selection's arrays.

use std::collections::HashSet;
use std::sync::Arc;

use super::{DigestSubject, NoteSeed, Source};
use crate::plan::candidate::{Candidate, from_entry};
use crate::plan::scope::ScopeBase;
use crate::plan::world::{World, WorldNote};
use crate::selection::{GroupedEntry, GroupedSelection, ItemBase, ItemKind, SelectionContext};

/// Grouped adapter.
pub(crate) struct GroupedSource<'a> {
    whole: &'a SelectionContext,
    selection: &'a GroupedSelection,
    /// What the candidates' scoped contexts repeat from the selection.
    base: Arc<ScopeBase>,
}

/// De-duplication key of a grouped item: `id:<id>`, else `<libraryID>:<key>`.
fn item_key(item: &ItemBase) -> Option<String> {
    match (item.id, item.key()) {
        (Some(id), _) => Some(format!("id:{id}")),
        (None, Some(key)) => Some(format!("{}:{key}", item.library_id.unwrap_or_default())),
        (None, None) => None,
    }
}

/// De-duplication key of an attachment: `item.id`, else `filePath|parent`.
fn attachment_key(entry: &GroupedEntry) -> String {
    match entry.item.id {
        Some(id) => format!("id:{id}"),
        None => format!(
            "{}|{}",
            entry.path().unwrap_or_default(),
            entry.parent_identity().unwrap_or_default()
        ),
    }
}

impl<'a> GroupedSource<'a> {
    /// Wraps `selection` (which is `whole`'s content).
    pub(crate) fn new(whole: &'a SelectionContext, selection: &'a GroupedSelection) -> Self {
        Self {
            whole,
            selection,
            base: ScopeBase::of(selection),
        }
    }

    fn candidates<'e>(
        &self,
        entries: impl IntoIterator<Item = &'e GroupedEntry>,
    ) -> Vec<Candidate> {
        entries
            .into_iter()
            .enumerate()
            .map(|(i, e)| from_entry(e, i, &self.base, i + 1))
            .collect()
    }

    fn note_seeds(&self, parent: &GroupedEntry) -> Vec<NoteSeed> {
        parent
            .notes()
            .iter()
            .enumerate()
            .map(|(i, note)| {
                let entry = GroupedEntry::synthetic(ItemKind::Note, note, Some(&parent.item));
                self.seed(&entry, i)
            })
            .collect()
    }

    fn seed(&self, entry: &GroupedEntry, index: usize) -> NoteSeed {
        NoteSeed {
            candidate: from_entry(entry, index, &self.base, index + 1),
            record: WorldNote {
                reference: entry.item.portable_ref(),
                id: entry.item.id,
                title: entry.item.display_title().map(str::to_owned),
                html: entry.item.note_html(),
                ..WorldNote::default()
            },
        }
    }

    fn has_parent(entry: &GroupedEntry) -> bool {
        entry.parent.is_some() || entry.item.parent_item_id.is_some()
    }
}

impl Source for GroupedSource<'_> {
    fn context(&self) -> &SelectionContext {
        self.whole
    }

    fn selected(&self, kind: ItemKind, _world: &dyn World) -> Vec<Candidate> {
        self.candidates(self.selection.entries(kind))
    }

    fn related_parents(&self) -> Vec<Candidate> {
        let mut seen = HashSet::new();
        let mut entries: Vec<GroupedEntry> = Vec::new();
        for parent in &self.selection.parents {
            if item_key(&parent.item).is_none_or(|k| seen.insert(k)) {
                entries.push(parent.clone());
            }
        }
        let referencing = [ItemKind::Attachment, ItemKind::Note, ItemKind::Child];
        for entry in referencing.iter().flat_map(|k| self.selection.entries(*k)) {
            let Some(parent) = &entry.parent else {
                continue;
            };
            if item_key(parent).is_none_or(|k| seen.insert(k)) {
                entries.push(GroupedEntry::synthetic(ItemKind::Parent, parent, None));
            }
        }
        self.candidates(&entries)
    }

    fn related_attachments(&self, _world: &dyn World) -> Vec<Candidate> {
        let nested = self
            .selection
            .parents
            .iter()
            .chain(&self.selection.children)
            .flat_map(|e| e.attachments());
        let mut seen = HashSet::new();
        let unique: Vec<&GroupedEntry> = self
            .selection
            .attachments
            .iter()
            .chain(nested)
            .filter(|e| seen.insert(attachment_key(e)))
            .collect();
        self.candidates(unique)
    }

    fn parents_with_attachments(&self, _world: &dyn World) -> Vec<(Candidate, Vec<Candidate>)> {
        self.selection
            .parents
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let parent = from_entry(p, i, &self.base, i + 1);
                (parent, self.candidates(p.attachments()))
            })
            .collect()
    }

    fn parents_with_notes(&self, _world: &dyn World) -> Vec<(Candidate, Vec<NoteSeed>)> {
        self.selection
            .parents
            .iter()
            .enumerate()
            .map(|(i, p)| (from_entry(p, i, &self.base, i + 1), self.note_seeds(p)))
            .collect()
    }

    fn selected_note_seeds(&self, _world: &dyn World) -> Vec<NoteSeed> {
        self.selection
            .notes
            .iter()
            .enumerate()
            .filter(|(_, e)| Self::has_parent(e))
            .map(|(i, e)| self.seed(e, i))
            .collect()
    }

    fn digest_subject(&self, world: &dyn World) -> Option<DigestSubject> {
        match (
            self.selection.parents.as_slice(),
            self.selection.notes.as_slice(),
        ) {
            ([_], []) => {
                let (_, notes) = self.parents_with_notes(world).into_iter().next()?;
                Some(DigestSubject::Parent(notes))
            }
            ([], [note]) => Some(DigestSubject::Note(Box::new(self.seed(note, 0)))),
            _ => None,
        }
    }
}
