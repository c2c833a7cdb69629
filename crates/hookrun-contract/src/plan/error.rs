//! Planning errors and the execution-time no-units error.

use serde::Serialize;

/// A failure that aborts planning (as opposed to a disabled plan).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// A managed note reported `invalid_artifact` or `legacy_artifact_requires_migration`.
    #[error("note {note} cannot be planned: managed-note issue {issue}")]
    InvalidNoteArtifact {
        /// Identity of the note.
        note: String,
        /// The reported issue.
        issue: String,
    },
}

/// Thrown when an execution starts with zero units (contract §9.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(rename_all = "camelCase")]
#[error("Workflow {workflow_id} has no valid input units after filtering")]
pub struct NoValidInputUnitsError {
    /// Workflow id.
    pub workflow_id: String,
    /// `candidates.total` of the plan.
    pub total_units: u64,
    /// `candidates.skipped` of the plan.
    pub skipped_units: u64,
    /// `candidates.total` of the plan.
    pub candidate_total: u64,
    /// `candidates.skipped` of the plan.
    pub candidate_skipped: u64,
}

impl NoValidInputUnitsError {
    /// The error `name`.
    pub const NAME: &'static str = "NoValidInputUnitsError";
    /// The error `code`.
    pub const CODE: &'static str = "NO_VALID_INPUT_UNITS";
}
