//! Request kinds and the backend types that accept them (`04-requests-and-bundles.md` §1).

use crate::manifest::{PASS_THROUGH_KIND, Workflow};

/// One of the seven dispatchable request kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestKind {
    /// `pass-through.run.v1`.
    PassThrough,
    /// `skillrunner.job.v1`.
    SkillRunnerJob,
    /// `skillrunner.sequence.v1`.
    SkillRunnerSequence,
    /// `generic-http.request.v1`.
    GenericHttpRequest,
    /// `generic-http.steps.v1`.
    GenericHttpSteps,
    /// `acp.prompt.v1`.
    AcpPrompt,
    /// `acp.skill.run.v1`.
    AcpSkillRun,
}

/// The two synthetic kinds a runner builds itself and never dispatches.
pub const SYNTHETIC_KINDS: [&str; 2] = [
    "workflow.preflight.short-circuit.v1",
    "workflow.preflight.aggregate.v1",
];

impl RequestKind {
    /// Every dispatchable kind, in the order of the contract's table.
    pub const ALL: [RequestKind; 7] = [
        Self::PassThrough,
        Self::SkillRunnerJob,
        Self::SkillRunnerSequence,
        Self::GenericHttpRequest,
        Self::GenericHttpSteps,
        Self::AcpPrompt,
        Self::AcpSkillRun,
    ];

    /// The contract spelling, e.g. `skillrunner.job.v1`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PassThrough => PASS_THROUGH_KIND,
            Self::SkillRunnerJob => "skillrunner.job.v1",
            Self::SkillRunnerSequence => "skillrunner.sequence.v1",
            Self::GenericHttpRequest => "generic-http.request.v1",
            Self::GenericHttpSteps => "generic-http.steps.v1",
            Self::AcpPrompt => "acp.prompt.v1",
            Self::AcpSkillRun => "acp.skill.run.v1",
        }
    }

    /// Parses the contract spelling (surrounding whitespace ignored).
    pub fn parse(kind: &str) -> Option<Self> {
        let kind = kind.trim();
        Self::ALL.into_iter().find(|k| k.as_str() == kind)
    }

    /// The backend types that accept this kind.
    pub fn accepted_backends(self) -> &'static [&'static str] {
        match self {
            Self::PassThrough => &["pass-through"],
            Self::SkillRunnerJob => &["skillrunner", "builtin-pi"],
            Self::SkillRunnerSequence => &["acp", "skillrunner"],
            Self::GenericHttpRequest | Self::GenericHttpSteps => &["generic-http"],
            Self::AcpPrompt | Self::AcpSkillRun => &["acp"],
        }
    }

    /// The kind used for `backend_type` when a request names none.
    pub fn default_for_backend(backend_type: &str) -> Option<Self> {
        match backend_type.trim() {
            "skillrunner" | "builtin-pi" => Some(Self::SkillRunnerJob),
            "acp" => Some(Self::AcpPrompt),
            "generic-http" => Some(Self::GenericHttpRequest),
            "pass-through" => Some(Self::PassThrough),
            _ => None,
        }
    }

    /// Whether Skill-Runner normalisation applies to requests of this kind.
    pub fn is_skillrunner(self) -> bool {
        matches!(self, Self::SkillRunnerJob | Self::SkillRunnerSequence)
    }
}

/// The request kind a workflow declares: `request.kind`, else `pass-through.run.v1` for
/// `pass-through` providers, else `None`. It selects the declarative compiler branch,
/// Skill-Runner normalisation and the post-build contract check.
pub fn declared_kind(workflow: &Workflow) -> Option<&str> {
    workflow
        .request_kind
        .as_deref()
        .or(workflow.is_pass_through().then_some(PASS_THROUGH_KIND))
}
