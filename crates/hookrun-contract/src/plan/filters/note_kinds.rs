//! `generated-note-kinds-absent`.

use super::parent_notes;
use crate::manifest::model::NoteKind;
use crate::plan::candidate::Candidate;
use crate::plan::error::PlanError;
use crate::plan::world::World;

/// The contract spelling of a schema note kind (its serde name, so new kinds of the
/// manifest model need no change here).
pub(super) fn note_kind_str(kind: NoteKind) -> String {
    match serde_json::to_value(kind) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// Keeps a candidate with a parent that lacks at least one of `kinds`.
pub(super) fn keeps(
    candidate: &Candidate,
    kinds: &[NoteKind],
    world: &dyn World,
) -> Result<bool, PlanError> {
    let Some(notes) = parent_notes(candidate, world)? else {
        return Ok(false);
    };
    let has = |kind: &NoteKind| notes.iter().any(|(k, _)| *k == note_kind_str(*kind));
    Ok(!kinds.iter().all(has))
}
