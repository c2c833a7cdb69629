//! `generated-note-readiness`.

use std::collections::HashMap;

use serde_json::Value;

use super::parent_notes;
use crate::manifest::model::{
    PayloadRequirement, ReadinessArtifact, ReadinessMode, RequirementType,
};
use crate::plan::candidate::Candidate;
use crate::plan::error::PlanError;
use crate::plan::world::{World, WorldNote};

/// Availability of one readiness artifact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Availability {
    /// A matching note exists and passes the payload checks.
    Available,
    /// No matching note.
    Missing,
    /// Matching notes exist but none passes the payload checks.
    Invalid,
}

/// Whether `payload` satisfies `req`.
fn requirement_holds(req: &PayloadRequirement, payload: &Value) -> bool {
    let Some(v) = payload.pointer(&req.pointer) else {
        return false;
    };
    let type_ok = req.value_type.is_none_or(|t| match t {
        RequirementType::String => v.is_string(),
        RequirementType::Number => v.is_number(),
        RequirementType::Array => v.is_array(),
        RequirementType::Object => v.is_object(),
    });
    let number = v.as_f64();
    let length = match v {
        Value::String(s) => Some(s.chars().count() as u64),
        Value::Array(a) => Some(a.len() as u64),
        _ => None,
    };
    type_ok
        && req.const_value.as_ref().is_none_or(|c| c == v)
        && req.minimum.is_none_or(|m| number.is_some_and(|n| n >= m))
        && req.maximum.is_none_or(|m| number.is_some_and(|n| n <= m))
        && req.length.is_none_or(|l| length == Some(l))
}

/// Availability of `artifact` among the parent's `notes`.
fn availability(artifact: &ReadinessArtifact, notes: &[(String, WorldNote)]) -> Availability {
    let mut matching = notes
        .iter()
        .filter(|(k, _)| artifact.note_kinds.contains(k))
        .peekable();
    if matching.peek().is_none() {
        return Availability::Missing;
    }
    let requirements = artifact
        .payload
        .as_ref()
        .map_or(&[][..], |p| p.requirements.as_slice());
    let passes = |note: &WorldNote| {
        requirements.iter().all(|r| {
            note.payload
                .as_ref()
                .is_some_and(|payload| requirement_holds(r, payload))
        })
    };
    if matching.any(|(_, note)| passes(note)) {
        Availability::Available
    } else {
        Availability::Invalid
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
    let Some(notes) = parent_notes(candidate, world)? else {
        return Ok(false);
    };
    let states: HashMap<&str, Availability> = artifacts
        .iter()
        .map(|a| (a.id.as_str(), availability(a, &notes)))
        .collect();
    Ok(resolve(modes, &states).is_some_and(|mode| accept.iter().any(|a| a == mode)))
}
