//! `generated-note-readiness`.

use std::collections::HashMap;

use serde_json::Value;

use super::readiness_notes;
use crate::manifest::model::{
    PayloadRequirement, ReadinessArtifact, ReadinessMode, RequirementType,
};
use crate::plan::candidate::Candidate;
use crate::plan::error::PlanError;
use crate::plan::notekind::Generation;
use crate::plan::world::{World, WorldNote};

/// Availability of one readiness artifact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Availability {
    /// Exactly one matching note, passing the payload checks.
    Available,
    /// No matching note.
    Missing,
    /// Several matching notes (an ambiguous state), or the one failing the
    /// payload checks.
    Invalid,
}

/// The value at `pointer` in `payload`: `""` and `"/"` are the whole payload.
fn at_pointer<'v>(payload: &'v Value, pointer: &str) -> Option<&'v Value> {
    match pointer {
        "" | "/" => Some(payload),
        pointer => payload.pointer(pointer),
    }
}

/// Whether `payload` satisfies `req`, checked in the reference host's order: a
/// `const` by strict equality, then the `type` (an array's `length` only under
/// `type: array`), then `minimum`/`maximum` when the value is a number. A
/// requirement without `const` and `type` holds whatever the value, even none.
fn requirement_holds(req: &PayloadRequirement, payload: &Value) -> bool {
    let value = at_pointer(payload, &req.pointer);
    if req.const_value.as_ref().is_some_and(|c| value != Some(c)) {
        return false;
    }
    let typed = match (req.value_type, value) {
        (None, _) => true,
        (Some(RequirementType::Array), Some(Value::Array(items))) => {
            req.length.is_none_or(|l| items.len() as u64 == l)
        }
        (Some(RequirementType::Object), Some(v)) => v.is_object(),
        (Some(RequirementType::String), Some(v)) => v.is_string(),
        (Some(RequirementType::Number), Some(v)) => v.is_number(),
        _ => false,
    };
    let Some(number) = value.and_then(Value::as_f64) else {
        return typed;
    };
    typed && req.minimum.is_none_or(|m| number >= m) && req.maximum.is_none_or(|m| number <= m)
}

/// Availability of `artifact` among the parent's `notes`: the one note of its
/// kinds, without an issue, whose payload passes every requirement.
fn availability(artifact: &ReadinessArtifact, notes: &[(String, WorldNote)]) -> Availability {
    let matching: Vec<&WorldNote> = notes
        .iter()
        .filter(|(k, _)| artifact.note_kinds.contains(k))
        .map(|(_, note)| note)
        .collect();
    let [note] = matching.as_slice() else {
        return if matching.is_empty() {
            Availability::Missing
        } else {
            Availability::Invalid
        };
    };
    if note.issue.is_some() {
        return Availability::Invalid;
    }
    let Some(spec) = &artifact.payload else {
        return Availability::Available;
    };
    let payload = note.payload.as_ref().filter(|p| !p.is_null());
    let holds = payload.is_some_and(|payload| {
        spec.requirements
            .iter()
            .all(|r| requirement_holds(r, payload))
    });
    if holds {
        Availability::Available
    } else {
        Availability::Invalid
    }
}

/// Marks each readable citation analysis among a parent's `notes` (by their
/// readiness kinds) that is stale with `references_basis_mismatch`: current
/// only against the parent's single readable References note whose current
/// basis is the one the analysis was written against.
fn with_citation_health(notes: &mut [(String, WorldNote)]) {
    let references: Vec<&WorldNote> = notes
        .iter()
        .filter(|(kind, _)| kind == "references")
        .map(|(_, note)| note)
        .collect();
    let current = match references.as_slice() {
        [only] if only.issue.is_none() => only.current_basis.clone(),
        _ => None,
    };
    for (kind, note) in notes.iter_mut() {
        let stale = kind == "citation-analysis"
            && note.issue.is_none()
            && !WorldNote::basis_is_current(note.references_basis.as_deref(), current.as_deref());
        if stale {
            note.issue = Some("references_basis_mismatch".into());
        }
    }
}

/// The first non-default mode whose conditions hold, else the default mode.
fn resolve<'m>(
    modes: &'m [ReadinessMode],
    states: &HashMap<&str, Availability>,
) -> Option<&'m str> {
    let available = |id: &String| states.get(id.as_str()) == Some(&Availability::Available);
    modes
        .iter()
        .filter(|m| m.default != Some(true))
        .find(|m| m.all_available.iter().all(available) && !m.all_unavailable.iter().any(available))
        .or_else(|| modes.iter().find(|m| m.default == Some(true)))
        .map(|m| m.id.as_str())
}

/// Keeps a candidate whose parent's readiness mode is in `accept`.
pub(super) fn keeps(
    candidate: &Candidate,
    artifacts: &[ReadinessArtifact],
    modes: &[ReadinessMode],
    accept: &[String],
    world: &dyn World,
) -> Result<bool, PlanError> {
    let Some(mut notes) = readiness_notes(candidate, world)? else {
        return Ok(false);
    };
    if Generation::of(candidate.scoped_context.is_grouped()) == Generation::Current {
        with_citation_health(&mut notes);
    }
    let states: HashMap<&str, Availability> = artifacts
        .iter()
        .map(|a| (a.id.as_str(), availability(a, &notes)))
        .collect();
    Ok(resolve(modes, &states).is_some_and(|mode| accept.iter().any(|a| a == mode)))
}
