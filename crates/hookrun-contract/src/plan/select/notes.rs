//! `generated-note-candidates` and `digest-representative-image`.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::plan::candidate::{
    Candidate, CandidateValue, FactSource, Facts, TargetParent, pick_label,
};
use crate::plan::error::PlanError;
use crate::plan::notekind::{Generation, detect};
use crate::plan::source::{DigestSubject, NoteSeed, Source};
use crate::plan::world::{ItemLocator, World};
use crate::selection::SelectionContext;

/// Replaces the `note` prefix of a note identity with `kind`.
fn retag(identity: &str, kind: &str) -> String {
    match identity.strip_prefix("note") {
        Some(rest) => format!("{kind}{rest}"),
        None => format!("{kind}:{identity}"),
    }
}

/// Inserts `value` under `key` when present.
fn put(m: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        m.insert(key.to_owned(), value);
    }
}

/// The generated-note value of `seed`: canonical `{ref, parentRef?, noteKind,
/// parentTitle?}`; grouped `{noteItemID, noteItemKey, parentItemID, parentItemKey,
/// noteKind, parentTitle}` (ids and keys `null` when unknown).
fn target_value(seed: &NoteSeed, note_kind: &str, grouped_kind: Option<&str>) -> Value {
    let c = &seed.candidate;
    let parent_locator = c.parent_locator();
    let parent_ref = match &parent_locator {
        Some(ItemLocator::Ref(r)) => Some(r),
        _ => None,
    };
    let parent_title = c.parent_title().map(Value::from);
    let mut m = Map::new();
    if c.scoped_context.is_grouped() {
        put(&mut m, "kind", grouped_kind.map(Value::from));
        m.insert("noteItemID".into(), seed.record.id.into());
        let note_key = seed.record.reference.as_ref().map(|r| r.key.clone());
        m.insert("noteItemKey".into(), note_key.into());
        let parent_id = match c.target_parent {
            Some(TargetParent::Id(id)) => Some(id),
            _ => None,
        };
        m.insert("parentItemID".into(), parent_id.into());
        m.insert(
            "parentItemKey".into(),
            parent_ref.map(|r| r.key.clone()).into(),
        );
        if grouped_kind.is_none() {
            m.insert("noteKind".into(), note_kind.into());
        }
        m.insert("parentTitle".into(), parent_title.unwrap_or(Value::Null));
    } else {
        put(
            &mut m,
            "ref",
            seed.record.reference.as_ref().map(|r| r.to_value()),
        );
        put(&mut m, "parentRef", parent_ref.map(|r| r.to_value()));
        m.insert("noteKind".into(), note_kind.into());
        put(&mut m, "parentTitle", parent_title);
    }
    Value::Object(m)
}

/// A candidate of `kind` derived from a note seed.
fn note_candidate(
    seed: &NoteSeed,
    kind: &'static str,
    n: usize,
    value: Value,
    scoped: SelectionContext,
) -> Candidate {
    let c = &seed.candidate;
    Candidate {
        kind,
        identity: retag(&c.identity, kind).into(),
        label: pick_label(&[seed.record.title.as_deref(), c.parent_title()], kind, n),
        parent_identity: c.parent_identity.clone(),
        target_parent: c.target_parent.clone(),
        scoped_context: scoped.into(),
        value: CandidateValue::of(value),
        facts: FactSource::owned(Facts::of(c)),
    }
}

/// The kind of the note of `seed`, by the generation of the host its selection
/// comes from.
fn note_kind_of(seed: &NoteSeed) -> Result<String, PlanError> {
    let generation = Generation::of(seed.candidate.scoped_context.is_grouped());
    detect(&seed.record, &seed.candidate.identity, generation)
}

/// Every note of each selected parent plus each eligible selected note, de-duplicated.
pub(crate) fn generated(
    source: &dyn Source,
    world: &dyn World,
) -> Result<Vec<Candidate>, PlanError> {
    let mut seeds: Vec<NoteSeed> = source
        .parents_with_notes(world)
        .into_iter()
        .flat_map(|(_, notes)| notes)
        .collect();
    seeds.extend(source.selected_note_seeds(world));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for seed in seeds {
        if !seen.insert(seed.candidate.identity.clone()) {
            continue;
        }
        let note_kind = note_kind_of(&seed)?;
        let value = target_value(&seed, &note_kind, None);
        let scoped = seed
            .candidate
            .scoped_context
            .context()
            .with_extras(Some(vec![value.clone()]), None);
        out.push(note_candidate(
            &seed,
            "generated-note",
            out.len() + 1,
            value,
            scoped,
        ));
    }
    Ok(out)
}

/// The digest target of a single selected parent (exactly one digest note) or a
/// single selected digest note with a parent.
pub(crate) fn digest(
    source: &dyn Source,
    world: &dyn World,
) -> Result<Option<Candidate>, PlanError> {
    let (seed, grouped_kind) = match source.digest_subject(world) {
        Some(DigestSubject::Parent(notes)) => {
            let mut digests = Vec::new();
            for note in notes {
                if note_kind_of(&note)? == "digest" {
                    digests.push(note);
                }
            }
            match <[NoteSeed; 1]>::try_from(digests) {
                Ok([only]) => (only, "digest-parent"),
                Err(_) => return Ok(None),
            }
        }
        Some(DigestSubject::Note(note)) => {
            let is_digest = note_kind_of(&note)? == "digest";
            if !is_digest || note.candidate.target_parent.is_none() {
                return Ok(None);
            }
            (*note, "digest-note")
        }
        None => return Ok(None),
    };
    let value = target_value(&seed, "digest", Some(grouped_kind));
    let scoped = source.context().with_extras(None, Some(value.clone()));
    Ok(Some(note_candidate(
        &seed,
        "digest-image-target",
        1,
        value,
        scoped,
    )))
}
