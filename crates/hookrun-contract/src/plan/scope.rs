//! The scoped context of a candidate or a unit (contract §4.1, §8).
//!
//! Most candidates of a grouped selection stand for one entry, and their scoped
//! context is that entry with the selection's `warnings` and `sampledAt`. A
//! [`Scope`] keeps just that, shared by the candidate, its value and its unit,
//! and makes the context whole when asked: a plan of 100,000 entries does not
//! hold 100,000 one-entry contexts besides the entries.

use std::sync::Arc;

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::selection::grouped::GroupedParts;
use crate::selection::{
    self, GroupedEntry, GroupedSelection, ItemKind, PortableItemRef, SelectionContext,
};

/// A scoped context: a whole context, or one grouped entry with its
/// selection's shared members.
#[derive(Debug, Clone)]
pub struct Scope(Repr);

/// Scopes are equal when their contexts are, however each is kept.
impl PartialEq for Scope {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Repr::Context(a), Repr::Context(b)) => a == b,
            (Repr::Entry(a), Repr::Entry(b)) => a == b,
            _ => self.context() == other.context(),
        }
    }
}

#[derive(Debug, Clone)]
enum Repr {
    Context(Arc<SelectionContext>),
    Entry(Arc<EntryScope>),
}

/// A grouped context of one entry.
#[derive(Debug, PartialEq)]
struct EntryScope {
    entry: GroupedEntry,
    base: Arc<ScopeBase>,
}

/// What every one-entry context of a grouped selection repeats from it.
#[derive(Debug, PartialEq)]
pub(crate) struct ScopeBase {
    warnings: Vec<String>,
    sampled_at: String,
}

impl ScopeBase {
    /// The members one-entry contexts of `selection` repeat.
    pub(crate) fn of(selection: &GroupedSelection) -> Arc<ScopeBase> {
        Arc::new(ScopeBase {
            warnings: selection.warnings.clone(),
            sampled_at: selection.sampled_at.clone(),
        })
    }
}

impl From<SelectionContext> for Scope {
    fn from(context: SelectionContext) -> Self {
        Scope(Repr::Context(Arc::new(context)))
    }
}

impl From<Arc<SelectionContext>> for Scope {
    fn from(context: Arc<SelectionContext>) -> Self {
        Scope(Repr::Context(context))
    }
}

impl Scope {
    /// The grouped context of `entry` alone (`selectionType` = its kind), with
    /// `base`'s warnings and sampling time.
    pub(crate) fn entry(base: &Arc<ScopeBase>, entry: &GroupedEntry) -> Scope {
        Scope(Repr::Entry(Arc::new(EntryScope {
            entry: entry.clone(),
            base: Arc::clone(base),
        })))
    }

    /// The one grouped entry the context holds, when it was made of one.
    pub fn only_entry(&self) -> Option<&GroupedEntry> {
        match &self.0 {
            Repr::Entry(scope) => Some(&scope.entry),
            Repr::Context(_) => None,
        }
    }

    /// The context, made whole.
    pub fn context(&self) -> Arc<SelectionContext> {
        match &self.0 {
            Repr::Context(context) => Arc::clone(context),
            Repr::Entry(scope) => {
                let mut grouped = GroupedSelection {
                    selection_type: scope.entry.kind.as_str().to_owned(),
                    warnings: scope.base.warnings.clone(),
                    sampled_at: scope.base.sampled_at.clone(),
                    ..GroupedSelection::default()
                };
                *grouped.entries_mut(scope.entry.kind) = vec![scope.entry.clone()];
                Arc::new(SelectionContext::Grouped(grouped))
            }
        }
    }

    /// The context's target ref ([`SelectionContext::target_ref`]), without
    /// making it whole.
    pub fn target_ref(&self) -> Option<PortableItemRef> {
        match &self.0 {
            Repr::Context(context) => context.target_ref(),
            Repr::Entry(scope) => scope.entry.target_ref(),
        }
    }

    /// Whether the context is in the grouped shape.
    pub fn is_grouped(&self) -> bool {
        match &self.0 {
            Repr::Context(context) => matches!(**context, SelectionContext::Grouped(_)),
            Repr::Entry(_) => true,
        }
    }

    /// The JSON form, as it serialises.
    pub fn to_value(&self) -> Value {
        selection::value_of(self).unwrap_or(Value::Null)
    }
}

/// Written as the whole context writes, without making it.
impl Serialize for Scope {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Repr::Context(context) => context.serialize(serializer),
            Repr::Entry(scope) => {
                let entry = std::slice::from_ref(&scope.entry);
                GroupedParts {
                    selection_type: scope.entry.kind.as_str(),
                    entries: ItemKind::ALL.map(|kind| match kind == scope.entry.kind {
                        true => entry,
                        false => &[],
                    }),
                    warnings: &scope.base.warnings,
                    sampled_at: &scope.base.sampled_at,
                    export_candidates: None,
                    digest_representative_image_target: None,
                }
                .serialize(serializer)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_one_entry_scope_writes_and_makes_the_context_a_whole_one_would() {
        let selection = SelectionContext::from_value(&json!({
            "selectionType": "attachment",
            "items": {"parents": [], "children": [], "notes": [], "attachments": [
                {"item": {"id": 2, "key": "A", "libraryID": 1, "data": {"path": "a.pdf"}},
                 "parent": {"id": 1, "key": "P", "libraryID": 1}, "filePath": "a.pdf",
                 "mimeType": "application/pdf"},
                {"item": {"id": 3, "key": "B", "libraryID": 1}}]},
            "warnings": ["w"], "sampledAt": "2026-01-01T00:00:00.000Z"}))
        .unwrap();
        let SelectionContext::Grouped(grouped) = &selection else {
            panic!("grouped")
        };
        let base = ScopeBase::of(grouped);
        let entry = &grouped.attachments[0];
        let scope = Scope::entry(&base, entry);
        let mut whole = GroupedSelection {
            selection_type: "attachment".into(),
            warnings: vec!["w".into()],
            sampled_at: "2026-01-01T00:00:00.000Z".into(),
            ..GroupedSelection::default()
        };
        whole.attachments = vec![entry.clone()];
        let whole = SelectionContext::Grouped(whole);
        assert_eq!(*scope.context(), whole);
        assert_eq!(
            serde_json::to_string(&scope).unwrap(),
            serde_json::to_string(&whole).unwrap()
        );
        assert_eq!(scope.to_value(), whole.to_value());
        assert_eq!(scope.only_entry(), Some(entry));
        assert_eq!(scope.target_ref(), whole.target_ref());
        assert_eq!(scope.target_ref().map(|r| r.key), Some("P".to_owned()));
        assert!(scope.is_grouped());
        let kept = Scope::from(whole.clone());
        assert_eq!(kept.only_entry(), None);
        assert_eq!(kept.to_value(), scope.to_value());
        assert_eq!(kept, scope);
        assert_ne!(Scope::entry(&base, &grouped.attachments[1]), scope);
    }
}
