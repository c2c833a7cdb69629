//! [`Source`] for canonical selections: nested data comes from the host world.

use std::collections::{HashMap, HashSet};

use super::{DigestSubject, NoteSeed, Source};
use crate::plan::candidate::{Candidate, from_fact};
use crate::plan::world::{ItemLocator, World, WorldNote};
use crate::selection::{CanonicalSelection, ItemFact, ItemKind, PortableItemRef, SelectionContext};

/// Canonical adapter.
pub(crate) struct CanonicalSource<'a> {
    whole: &'a SelectionContext,
    selection: &'a CanonicalSelection,
    by_ref: HashMap<&'a PortableItemRef, &'a ItemFact>,
}

impl<'a> CanonicalSource<'a> {
    /// Wraps `selection` (which is `whole`'s content).
    pub(crate) fn new(whole: &'a SelectionContext, selection: &'a CanonicalSelection) -> Self {
        let mut by_ref = HashMap::new();
        for fact in &selection.items {
            by_ref.entry(&fact.reference).or_insert(fact);
        }
        Self {
            whole,
            selection,
            by_ref,
        }
    }

    fn title_of(&self, r: Option<&PortableItemRef>) -> Option<&'a str> {
        self.by_ref.get(r?).and_then(|f| f.title.as_deref())
    }

    fn candidate(&self, fact: &ItemFact, n: usize) -> Candidate {
        let parent = match fact.kind {
            ItemKind::Parent => None,
            _ => fact.parent_ref.as_ref(),
        };
        from_fact(fact, self.selection, n, self.title_of(parent))
    }

    fn facts(&self, kind: ItemKind) -> impl Iterator<Item = &'a ItemFact> + use<'a> {
        self.selection.items.iter().filter(move |f| f.kind == kind)
    }

    /// Fills a missing attachment `filename` from `getItemDetail`.
    fn hydrate(fact: &ItemFact, world: &dyn World) -> ItemFact {
        let mut fact = fact.clone();
        if fact.kind == ItemKind::Attachment && fact.filename.is_none() {
            let locator = ItemLocator::Ref(fact.reference.clone());
            fact.filename = world
                .attachment_detail(&locator)
                .ok()
                .and_then(|d| d.filename);
        }
        fact
    }

    fn seed(&self, fact: ItemFact, record: WorldNote, n: usize) -> NoteSeed {
        NoteSeed {
            candidate: self.candidate(&fact, n),
            record,
        }
    }
}

impl Source for CanonicalSource<'_> {
    fn context(&self) -> &SelectionContext {
        self.whole
    }

    fn selected(&self, kind: ItemKind, world: &dyn World) -> Vec<Candidate> {
        self.facts(kind)
            .enumerate()
            .map(|(i, f)| self.candidate(&Self::hydrate(f, world), i + 1))
            .collect()
    }

    fn related_parents(&self) -> Vec<Candidate> {
        let mut out = Vec::new();
        for fact in &self.selection.items {
            let mut current = fact;
            let mut visited = HashSet::new();
            while current.kind != ItemKind::Parent && visited.insert(&current.reference) {
                match current.parent_ref.as_ref().and_then(|p| self.by_ref.get(p)) {
                    Some(parent) => current = parent,
                    None => break,
                }
            }
            if current.kind == ItemKind::Parent {
                out.push(self.candidate(current, out.len() + 1));
            }
        }
        out
    }

    fn related_attachments(&self, world: &dyn World) -> Vec<Candidate> {
        let mut out = self.selected(ItemKind::Attachment, world);
        out.extend(
            self.parents_with_attachments(world)
                .into_iter()
                .flat_map(|(_, attachments)| attachments),
        );
        out
    }

    fn parents_with_attachments(&self, world: &dyn World) -> Vec<(Candidate, Vec<Candidate>)> {
        self.facts(ItemKind::Parent)
            .enumerate()
            .map(|(i, parent)| {
                let attachments = world
                    .item_attachments(&ItemLocator::Ref(parent.reference.clone()))
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                    .map(|(j, a)| {
                        from_fact(&a.to_fact(), self.selection, j + 1, parent.title.as_deref())
                    })
                    .collect();
                (self.candidate(parent, i + 1), attachments)
            })
            .collect()
    }

    fn parents_with_notes(&self, world: &dyn World) -> Vec<(Candidate, Vec<NoteSeed>)> {
        self.facts(ItemKind::Parent)
            .enumerate()
            .map(|(i, parent)| {
                let notes = world
                    .item_notes(&ItemLocator::Ref(parent.reference.clone()))
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|record| {
                        let fact = ItemFact {
                            kind: ItemKind::Note,
                            reference: record.reference.clone()?,
                            item_type: "note".to_owned(),
                            title: record.title.clone(),
                            parent_ref: Some(parent.reference.clone()),
                            filename: None,
                            content_type: None,
                            created_at: None,
                            file_state: None,
                        };
                        Some((fact, record))
                    })
                    .enumerate()
                    .map(|(j, (fact, record))| self.seed(fact, record, j + 1))
                    .collect();
                (self.candidate(parent, i + 1), notes)
            })
            .collect()
    }

    fn selected_note_seeds(&self, world: &dyn World) -> Vec<NoteSeed> {
        self.facts(ItemKind::Note)
            .enumerate()
            .map(|(i, fact)| {
                let record = world
                    .note_detail(&ItemLocator::Ref(fact.reference.clone()))
                    .unwrap_or_default();
                self.seed(fact.clone(), record, i + 1)
            })
            .collect()
    }

    fn digest_subject(&self, world: &dyn World) -> Option<DigestSubject> {
        let [only] = self.selection.items.as_slice() else {
            return None;
        };
        match only.kind {
            ItemKind::Parent => {
                let (_, notes) = self.parents_with_notes(world).into_iter().next()?;
                Some(DigestSubject::Parent(notes))
            }
            ItemKind::Note => self
                .selected_note_seeds(world)
                .into_iter()
                .next()
                .map(|seed| DigestSubject::Note(Box::new(seed))),
            _ => None,
        }
    }
}
