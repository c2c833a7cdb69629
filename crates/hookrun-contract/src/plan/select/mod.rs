//! Selector policies (contract §4.2): ordered atomic candidates.

mod literature;
mod notes;

use std::collections::HashSet;

use super::candidate::{Candidate, CandidateValue, FactSource, Facts};
use super::error::PlanError;
use super::source::Source;
use super::world::World;
use crate::manifest::model::{MemberKind, MemberSource, Selector};
use crate::selection::ItemKind;

/// Keeps the first candidate of each identity.
pub(crate) fn dedupe(candidates: Vec<Candidate>) -> Vec<Candidate> {
    let mut seen = HashSet::new();
    candidates
        .into_iter()
        .filter(|c| seen.insert(c.identity.clone()))
        .collect()
}

/// The item kind of an `input-member` member kind (`None` for the other kinds).
fn item_kind(member: MemberKind) -> Option<ItemKind> {
    match member {
        MemberKind::Parent => Some(ItemKind::Parent),
        MemberKind::Child => Some(ItemKind::Child),
        MemberKind::Attachment => Some(ItemKind::Attachment),
        MemberKind::Note => Some(ItemKind::Note),
        _ => None,
    }
}

/// `input-member` candidates.
fn input_member(
    source: &dyn Source,
    member: MemberKind,
    from: MemberSource,
    world: &dyn World,
) -> Vec<Candidate> {
    let Some(kind) = item_kind(member) else {
        return Vec::new();
    };
    let list = match (from, kind) {
        (MemberSource::Selected, _) | (MemberSource::Related, ItemKind::Child) => {
            source.selected(kind, world)
        }
        (MemberSource::Related, ItemKind::Parent) => source.related_parents(),
        (MemberSource::Related, ItemKind::Attachment) => source.related_attachments(world),
        (MemberSource::Related, ItemKind::Note) => {
            let mut notes = source.selected(ItemKind::Note, world);
            notes.extend(
                source
                    .parents_with_notes(world)
                    .into_iter()
                    .flat_map(|(_, seeds)| seeds.into_iter().map(|s| s.candidate)),
            );
            notes
        }
    };
    dedupe(list)
}

/// The single `selection` candidate.
fn whole_selection(source: &dyn Source, label: &str) -> Candidate {
    let context = source.context();
    Candidate {
        kind: "selection",
        identity: "selection:context".into(),
        label: label.into(),
        parent_identity: None,
        target_parent: None,
        scoped_context: context.clone().into(),
        value: CandidateValue::of(context.to_value()),
        facts: FactSource::owned(Facts::default()),
    }
}

/// Runs `selector` over `source`.
pub(crate) fn select(
    selector: &Selector,
    member: MemberKind,
    label: &str,
    source: &dyn Source,
    world: &dyn World,
) -> Result<Vec<Candidate>, PlanError> {
    Ok(match selector {
        Selector::InputMember { source: from } => input_member(source, member, *from, world),
        Selector::Selection => vec![whole_selection(source, label)],
        Selector::LiteratureSource => literature::select(source, world),
        Selector::GeneratedNoteCandidates => notes::generated(source, world)?,
        Selector::DigestRepresentativeImage => notes::digest(source, world)?.into_iter().collect(),
    })
}
