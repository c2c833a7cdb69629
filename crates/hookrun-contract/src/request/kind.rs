//! Request kinds and the backend types that accept them (`04-requests-and-bundles.md` §1).

pub use crate::manifest::RequestKind;
use crate::manifest::{DeclaredKind, PASS_THROUGH_KIND, Workflow};

/// The two synthetic kinds a runner builds itself and never dispatches.
pub const SYNTHETIC_KINDS: [&str; 2] = [
    "workflow.preflight.short-circuit.v1",
    "workflow.preflight.aggregate.v1",
];

/// The request kind a workflow declares: `request.kind`, else `pass-through.run.v1` for
/// `pass-through` providers, else `None`. It selects the declarative compiler branch,
/// Skill-Runner normalisation and the post-build contract check.
pub fn declared_kind(workflow: &Workflow) -> Option<&str> {
    workflow
        .request_kind
        .as_ref()
        .map(DeclaredKind::as_str)
        .or(workflow.is_pass_through().then_some(PASS_THROUGH_KIND))
}
