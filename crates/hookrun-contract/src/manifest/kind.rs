//! Request kinds: the seven a provider dispatches, and `request.kind` as a
//! manifest declares it (`04-requests-and-bundles.md` §1).

use serde::{Serialize, Serializer};

use super::workflow::PASS_THROUGH_KIND;

/// One of the seven dispatchable request kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
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

/// `request.kind` as a manifest declares it. A kind no provider dispatches (an
/// unknown or synthetic kind) still loads; building the request refuses it with
/// the contract's reason.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DeclaredKind {
    /// One of the dispatchable kinds.
    Known(RequestKind),
    /// Any other spelling, as written.
    Other(String),
}

impl DeclaredKind {
    /// The kind `kind` names.
    pub fn parse(kind: &str) -> DeclaredKind {
        RequestKind::parse(kind).map_or_else(
            || DeclaredKind::Other(kind.to_string()),
            DeclaredKind::Known,
        )
    }

    /// The kind as written (a known kind in the contract's spelling).
    pub fn as_str(&self) -> &str {
        match self {
            DeclaredKind::Known(kind) => kind.as_str(),
            DeclaredKind::Other(kind) => kind,
        }
    }

    /// The dispatchable kind, when it is one.
    pub fn known(&self) -> Option<RequestKind> {
        match self {
            DeclaredKind::Known(kind) => Some(*kind),
            DeclaredKind::Other(_) => None,
        }
    }
}

impl From<&str> for DeclaredKind {
    fn from(kind: &str) -> DeclaredKind {
        DeclaredKind::parse(kind)
    }
}

impl From<RequestKind> for DeclaredKind {
    fn from(kind: RequestKind) -> DeclaredKind {
        DeclaredKind::Known(kind)
    }
}

impl Serialize for DeclaredKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_kinds_keep_their_spelling() {
        for kind in RequestKind::ALL {
            assert_eq!(
                DeclaredKind::parse(kind.as_str()),
                DeclaredKind::Known(kind)
            );
            assert_eq!(DeclaredKind::parse(kind.as_str()).as_str(), kind.as_str());
        }
        let other = DeclaredKind::parse("made.up.v1");
        assert_eq!(other, DeclaredKind::Other("made.up.v1".into()));
        assert_eq!(other.as_str(), "made.up.v1");
        assert_eq!(other.known(), None);
        assert_eq!(
            serde_json::to_value(DeclaredKind::Known(RequestKind::SkillRunnerJob)).ok(),
            Some(serde_json::json!("skillrunner.job.v1"))
        );
    }
}
