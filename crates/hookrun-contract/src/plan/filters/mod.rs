//! Filters (contract §6): each returns the skip reason of every candidate it removes.

mod artifact;
mod note_kinds;
mod per_parent;
mod readiness;
mod source_file;

use serde_json::{Map, Value};

use super::candidate::Candidate;
use super::error::PlanError;
use super::notekind::{Generation, detect, readiness_kind};
use super::world::{World, WorldNote};
use crate::manifest::model::Filter;

/// What filters may read besides the candidates.
pub(crate) struct FilterEnv<'a> {
    /// The host world.
    pub world: &'a dyn World,
    /// `workflowParams` (execute mode).
    pub params: &'a Map<String, Value>,
}

/// Skip reason per candidate (`None` keeps it).
pub(crate) type Verdicts = Vec<Option<&'static str>>;

/// Evaluates `filter` over the current `candidates`.
pub(crate) fn evaluate(
    filter: &Filter,
    candidates: &[Candidate],
    env: &FilterEnv<'_>,
) -> Result<Verdicts, PlanError> {
    let reason = filter.kind();
    match filter {
        Filter::CandidatesPerParent { counts, .. } => Ok(per_parent::evaluate(counts, candidates)),
        Filter::SourceFileExists { .. } => Ok(per_candidate(candidates, reason, |c| {
            source_file::exists(c, env.world)
        })),
        Filter::ArtifactAbsent {
            target, parameter, ..
        } => Ok(per_candidate(candidates, reason, |c| {
            artifact::absent(c, *target, parameter.as_deref(), env)
        })),
        Filter::GeneratedNoteKindsAbsent { note_kinds, .. } => {
            try_per_candidate(candidates, reason, |c| {
                note_kinds::keeps(c, note_kinds, env.world)
            })
        }
        Filter::GeneratedNoteReadiness {
            artifacts,
            modes,
            accept_modes,
            ..
        } => try_per_candidate(candidates, reason, |c| {
            readiness::keeps(c, artifacts, modes, accept_modes, env.world)
        }),
    }
}

/// Verdicts of a keep predicate.
fn per_candidate(
    candidates: &[Candidate],
    reason: &'static str,
    keep: impl Fn(&Candidate) -> bool,
) -> Verdicts {
    candidates
        .iter()
        .map(|c| (!keep(c)).then_some(reason))
        .collect()
}

/// Verdicts of a fallible keep predicate.
fn try_per_candidate(
    candidates: &[Candidate],
    reason: &'static str,
    keep: impl Fn(&Candidate) -> Result<bool, PlanError>,
) -> Result<Verdicts, PlanError> {
    candidates
        .iter()
        .map(|c| Ok((!keep(c)?).then_some(reason)))
        .collect()
}

/// The notes of `candidate`'s parent with their detected kinds; `None` without a
/// parent. A failing world read counts as no notes.
fn parent_notes(
    candidate: &Candidate,
    world: &dyn World,
) -> Result<Option<Vec<(String, WorldNote)>>, PlanError> {
    notes_named_by(candidate, world, detect)
}

/// [`parent_notes`] named as the readiness filter matches them
/// ([`readiness_kind`]).
fn readiness_notes(
    candidate: &Candidate,
    world: &dyn World,
) -> Result<Option<Vec<(String, WorldNote)>>, PlanError> {
    notes_named_by(candidate, world, readiness_kind)
}

/// The notes of `candidate`'s parent, each with the kind `name` gives it (the
/// note's own identity naming it in an error).
fn notes_named_by(
    candidate: &Candidate,
    world: &dyn World,
    name: fn(&WorldNote, &str, Generation) -> Result<String, PlanError>,
) -> Result<Option<Vec<(String, WorldNote)>>, PlanError> {
    let Some(parent) = &candidate.parent_locator() else {
        return Ok(None);
    };
    let generation = Generation::of(candidate.scoped_context.is_grouped());
    let parent_identity = candidate.parent_identity.clone().unwrap_or_default();
    world
        .item_notes(parent)
        .unwrap_or_default()
        .into_iter()
        .map(|note| {
            let identity = note.reference.as_ref().map_or_else(
                || parent_identity.clone(),
                |r| r.kind_identity("note").into(),
            );
            Ok((name(&note, &identity, generation)?, note))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}
