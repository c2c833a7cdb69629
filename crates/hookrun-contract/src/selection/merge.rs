//! Union of scoped contexts (contract §8 `unit.selectionContext`).

use std::collections::HashSet;

use serde_json::Value;

use super::canonical::CanonicalSelection;
use super::grouped::GroupedSelection;
use super::refs::ItemKind;

/// A shape whose contexts can be merged by item identity.
pub(crate) trait Mergeable: Clone {
    /// Removes every item, keeping the other top-level members.
    fn clear_items(&mut self);
    /// Appends the items of `other` whose identity is not in `seen`.
    fn absorb(&mut self, other: &Self, seen: &mut HashSet<String>);
    /// `exportCandidates` and `digestRepresentativeImageTarget`.
    fn extras(&self) -> (Option<&Vec<Value>>, Option<&Value>);
    /// Replaces `exportCandidates` and `digestRepresentativeImageTarget`.
    fn set_extras(&mut self, exports: Option<Vec<Value>>, digest: Option<Value>);
}

/// Merges `parts` into one context: union of items by identity in first-seen order,
/// top-level members (`sampledAt`, ...) of the first part, all `exportCandidates`
/// concatenated, the first `digestRepresentativeImageTarget`.
pub(crate) fn merge<T: Mergeable>(parts: &[&T]) -> Option<T> {
    let mut out = (*parts.first()?).clone();
    out.clear_items();
    let mut exports: Option<Vec<Value>> = None;
    let mut digest: Option<Value> = None;
    let mut seen = HashSet::new();
    for part in parts {
        out.absorb(part, &mut seen);
        let (part_exports, part_digest) = part.extras();
        if let Some(list) = part_exports {
            exports
                .get_or_insert_with(Vec::new)
                .extend(list.iter().cloned());
        }
        if digest.is_none() {
            digest = part_digest.cloned();
        }
    }
    out.set_extras(exports, digest);
    Some(out)
}

impl Mergeable for CanonicalSelection {
    fn clear_items(&mut self) {
        self.items.clear();
    }

    fn absorb(&mut self, other: &Self, seen: &mut HashSet<String>) {
        for fact in &other.items {
            if seen.insert(fact.identity()) {
                self.items.push(fact.clone());
            }
        }
    }

    fn extras(&self) -> (Option<&Vec<Value>>, Option<&Value>) {
        (
            self.export_candidates.as_ref(),
            self.digest_representative_image_target.as_deref(),
        )
    }

    fn set_extras(&mut self, exports: Option<Vec<Value>>, digest: Option<Value>) {
        self.export_candidates = exports;
        self.digest_representative_image_target = digest.map(Box::new);
    }
}

impl Mergeable for GroupedSelection {
    fn clear_items(&mut self) {
        for kind in ItemKind::ALL {
            self.entries_mut(kind).clear();
        }
    }

    fn absorb(&mut self, other: &Self, seen: &mut HashSet<String>) {
        for kind in ItemKind::ALL {
            for (i, entry) in other.entries(kind).iter().enumerate() {
                if seen.insert(entry.identity(i)) {
                    self.entries_mut(kind).push(entry.clone());
                }
            }
        }
        self.selection_type = self.computed_selection_type().to_owned();
    }

    fn extras(&self) -> (Option<&Vec<Value>>, Option<&Value>) {
        (
            self.export_candidates.as_ref(),
            self.digest_representative_image_target.as_deref(),
        )
    }

    fn set_extras(&mut self, exports: Option<Vec<Value>>, digest: Option<Value>) {
        self.export_candidates = exports;
        self.digest_representative_image_target = digest.map(Box::new);
    }
}
