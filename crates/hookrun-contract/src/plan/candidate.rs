//! The frozen candidate record (contract §4.1) and its builders for both shapes.

use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::scope::{Scope, ScopeBase};
use super::world::ItemLocator;
use crate::selection::{
    CanonicalSelection, GroupedEntry, ItemBase, ItemFact, ItemKind, PortableItemRef,
    SelectionContext,
};

/// The parent a candidate or unit targets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetParent {
    /// Canonical: `targetParentRef`.
    Ref(PortableItemRef),
    /// Grouped: numeric `targetParentID`.
    Id(i64),
}

impl TargetParent {
    /// The JSON member naming this target (`targetParentRef` or `targetParentID`).
    pub fn json_entry(&self) -> (&'static str, Value) {
        match self {
            Self::Ref(r) => ("targetParentRef", r.to_value()),
            Self::Id(id) => ("targetParentID", Value::from(*id)),
        }
    }
}

/// What MIME checks and filters read about a candidate's item, when the candidate
/// keeps them itself.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Facts {
    /// The item itself.
    pub locator: Option<ItemLocator>,
    /// Its parent (own locator for parents).
    pub parent_locator: Option<ItemLocator>,
    /// File name.
    pub filename: Option<String>,
    /// MIME content type.
    pub content_type: Option<String>,
    /// Grouped attachment path (`filePath`, else `item.data.path`).
    pub path: Option<String>,
    /// Date added.
    pub created_at: Option<String>,
    /// Parent title.
    pub parent_title: Option<String>,
}

impl Facts {
    /// What `candidate` says of its item, kept apart from it.
    pub(crate) fn of(candidate: &Candidate) -> Facts {
        let owned = |s: Option<&str>| s.map(str::to_owned);
        Facts {
            locator: candidate.locator(),
            parent_locator: candidate.parent_locator(),
            filename: owned(candidate.filename()),
            content_type: owned(candidate.content_type()),
            path: owned(candidate.path()),
            created_at: owned(candidate.created_at()),
            parent_title: owned(candidate.parent_title()),
        }
    }
}

/// Where a candidate's [`Facts`] come from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FactSource {
    /// Read from the grouped entry that is the candidate's value, when asked: a
    /// plan of 100,000 entries does not keep their file names, types and dates
    /// a second time.
    Entry,
    /// Kept by the candidate.
    Owned(Box<Facts>),
}

impl FactSource {
    /// Facts kept by the candidate.
    pub(crate) fn owned(facts: Facts) -> Self {
        Self::Owned(Box::new(facts))
    }
}

/// One atomic planning candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Item kind, `selection`, `generated-note` or `digest-image-target`.
    pub kind: &'static str,
    /// Identity (`<kind>:<libraryId>:<key>`, grouped variants, `selection:context`).
    pub identity: Arc<str>,
    /// Display label.
    pub label: Arc<str>,
    /// `parent:<libraryId>:<key>` (grouped: or `parent-id:<id>`).
    pub parent_identity: Option<Arc<str>>,
    /// The parent ref (canonical) or id (grouped).
    pub target_parent: Option<TargetParent>,
    /// A context with only this candidate's item (same shape as the input),
    /// shared with the unit it joins.
    pub scoped_context: Scope,
    /// The fact, entry, generated-note candidate or whole selection.
    pub value: CandidateValue,
    pub(crate) facts: FactSource,
}

impl Candidate {
    /// The grouped entry the facts are read from, or the facts kept.
    fn fact_source(&self) -> Result<&GroupedEntry, Option<&Facts>> {
        match (&self.facts, &self.value) {
            (FactSource::Owned(facts), _) => Err(Some(facts)),
            (FactSource::Entry, value) => value.entry().ok_or(None),
        }
    }

    /// A string fact: `entry`'s when read from the entry, else `kept`'s.
    fn fact<'a>(
        &'a self,
        entry: impl FnOnce(&'a GroupedEntry) -> Option<&'a str>,
        kept: impl FnOnce(&'a Facts) -> &'a Option<String>,
    ) -> Option<&'a str> {
        match self.fact_source() {
            Ok(e) => entry(e),
            Err(facts) => facts.and_then(|f| kept(f).as_deref()),
        }
    }

    /// The item itself.
    pub(crate) fn locator(&self) -> Option<ItemLocator> {
        match self.fact_source() {
            Ok(entry) => grouped_locator(&entry.item),
            Err(facts) => facts.and_then(|f| f.locator.clone()),
        }
    }

    /// Its parent (its own locator for a parent).
    pub(crate) fn parent_locator(&self) -> Option<ItemLocator> {
        match self.fact_source() {
            Ok(entry) => match (entry.kind, &entry.parent) {
                (ItemKind::Parent, _) => grouped_locator(&entry.item),
                (_, Some(parent)) => grouped_locator(parent),
                (_, None) => entry.item.parent_item_id.map(ItemLocator::GroupedId),
            },
            Err(facts) => facts.and_then(|f| f.parent_locator.clone()),
        }
    }

    /// File name.
    pub(crate) fn filename(&self) -> Option<&str> {
        self.fact(GroupedEntry::filename, |f| &f.filename)
    }

    /// MIME content type.
    pub(crate) fn content_type(&self) -> Option<&str> {
        self.fact(GroupedEntry::content_type, |f| &f.content_type)
    }

    /// Grouped attachment path (`filePath`, else `item.data.path`).
    pub(crate) fn path(&self) -> Option<&str> {
        self.fact(GroupedEntry::path, |f| &f.path)
    }

    /// Date added.
    pub(crate) fn created_at(&self) -> Option<&str> {
        self.fact(|e| e.item.data_date_added(), |f| &f.created_at)
    }

    /// Parent title.
    pub(crate) fn parent_title(&self) -> Option<&str> {
        self.fact(
            |e| e.parent.as_deref().and_then(ItemBase::display_title),
            |f| &f.parent_title,
        )
    }

    /// The JSON form `{kind, identity, label, parentIdentity?, targetParentRef? |
    /// targetParentID?, scopedContext, value}`, as it serialises.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Written without building a `serde_json::Value` of the candidate.
impl Serialize for Candidate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", &self.kind)?;
        map.serialize_entry("identity", &self.identity)?;
        map.serialize_entry("label", &self.label)?;
        if let Some(p) = &self.parent_identity {
            map.serialize_entry("parentIdentity", p)?;
        }
        if let Some(t) = &self.target_parent {
            let (key, value) = t.json_entry();
            map.serialize_entry(key, &value)?;
        }
        map.serialize_entry("scopedContext", &self.scoped_context)?;
        map.serialize_entry("value", &self.value)?;
        map.end()
    }
}

/// What a candidate stands for, as the plan's `value` shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum CandidateValue {
    /// A JSON object of its own (a fact, a note target, the whole selection).
    Object(Arc<Map<String, Value>>),
    /// A grouped entry, whose JSON it shares with the selection.
    Entry(ScopedEntry),
}

/// A grouped entry held as the only entry of a candidate's scoped context, so
/// that a candidate keeps its entry once.
#[derive(Debug, Clone, PartialEq)]
pub struct ScopedEntry(Scope);

impl ScopedEntry {
    /// The only entry of `scope`, a one-entry grouped context.
    pub(crate) fn of(scope: &Scope) -> ScopedEntry {
        ScopedEntry(scope.clone())
    }

    /// The entry (`None` only for a scope that is not made of one grouped
    /// entry, which the planner never makes).
    pub fn entry(&self) -> Option<&GroupedEntry> {
        self.0.only_entry()
    }
}

impl CandidateValue {
    /// The grouped entry it stands for, if it is one.
    pub fn entry(&self) -> Option<&GroupedEntry> {
        match self {
            CandidateValue::Entry(entry) => entry.entry(),
            CandidateValue::Object(_) => None,
        }
    }

    /// The value of a JSON object (anything else stands for an empty one).
    pub(crate) fn of(value: Value) -> CandidateValue {
        match value {
            Value::Object(map) => CandidateValue::Object(Arc::new(map)),
            _ => CandidateValue::Object(Arc::default()),
        }
    }

    /// The JSON object, as it serialises.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl Serialize for CandidateValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            CandidateValue::Object(map) => map.serialize(serializer),
            CandidateValue::Entry(entry) => match entry.entry() {
                Some(entry) => entry.serialize(serializer),
                None => Map::new().serialize(serializer),
            },
        }
    }
}

/// The first non-empty of `parts`, else `"<kind> <n>"`.
pub(crate) fn pick_label(parts: &[Option<&str>], kind: &str, n: usize) -> Arc<str> {
    parts
        .iter()
        .flatten()
        .find(|p| !p.is_empty())
        .map_or_else(|| format!("{kind} {n}").into(), |p| Arc::from(*p))
}

/// The locator of a grouped item: its ref when complete, else its numeric id.
pub(crate) fn grouped_locator(item: &ItemBase) -> Option<ItemLocator> {
    item.portable_ref()
        .map(ItemLocator::Ref)
        .or(item.id.map(ItemLocator::GroupedId))
}

/// A canonical context holding only `items` (same `sampledAt` as `base`).
pub(crate) fn canonical_scope(base: &CanonicalSelection, items: Vec<ItemFact>) -> SelectionContext {
    SelectionContext::Canonical(CanonicalSelection {
        items,
        sampled_at: base.sampled_at.clone(),
        export_candidates: None,
        digest_representative_image_target: None,
    })
}

/// A candidate for a canonical fact; `n` is its 1-based position, `parent_title` the
/// title of its parent when known.
pub(crate) fn from_fact(
    fact: &ItemFact,
    base: &CanonicalSelection,
    n: usize,
    parent_title: Option<&str>,
) -> Candidate {
    let kind = fact.kind.as_str();
    let parent_ref = match fact.kind {
        ItemKind::Parent => Some(&fact.reference),
        _ => fact.parent_ref.as_ref(),
    };
    Candidate {
        kind,
        identity: fact.reference.kind_identity(kind).into(),
        label: pick_label(
            &[
                fact.title.as_deref(),
                fact.filename.as_deref(),
                parent_title,
            ],
            kind,
            n,
        ),
        parent_identity: parent_ref.map(|p| p.kind_identity("parent").into()),
        target_parent: parent_ref.cloned().map(TargetParent::Ref),
        scoped_context: canonical_scope(base, vec![fact.clone()]).into(),
        value: CandidateValue::of(fact.to_value()),
        facts: FactSource::owned(Facts {
            locator: Some(ItemLocator::Ref(fact.reference.clone())),
            parent_locator: parent_ref.cloned().map(ItemLocator::Ref),
            filename: fact.filename.clone(),
            content_type: fact.content_type.clone(),
            path: None,
            created_at: fact.created_at.clone(),
            parent_title: parent_title.map(str::to_owned),
        }),
    }
}

/// A candidate for a grouped entry; `index` is its array position (identity
/// fallback), `n` its 1-based candidate position, `base` what its scoped
/// context repeats from the selection.
pub(crate) fn from_entry(
    entry: &GroupedEntry,
    index: usize,
    base: &Arc<ScopeBase>,
    n: usize,
) -> Candidate {
    let kind = entry.kind.as_str();
    let parent_title = entry.parent.as_deref().and_then(ItemBase::display_title);
    let scope = Scope::entry(base, entry);
    Candidate {
        kind,
        identity: entry.identity(index).into(),
        label: pick_label(
            &[
                entry.item.title(),
                entry.item.data_title(),
                parent_title,
                entry.filename(),
            ],
            kind,
            n,
        ),
        parent_identity: entry.parent_identity().map(Arc::from),
        target_parent: entry.target_parent_id().map(TargetParent::Id),
        value: CandidateValue::Entry(ScopedEntry::of(&scope)),
        scoped_context: scope,
        facts: FactSource::Entry,
    }
}
