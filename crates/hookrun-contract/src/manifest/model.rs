//! Typed model of a validated `workflow.json` (schema v2).
//!
//! These types are deserialised from a manifest *after* the validator in this module
//! accepted it, so they mirror the contract's shapes without re-checking them. Unknown
//! keys are tolerated here; closedness is enforced by the validator.

use serde::{Deserialize, Serialize};

/// A `{min?, max?, exact?}` count rule (`validateSelection.require.*`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountRule {
    /// Lower bound, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    /// Upper bound, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// Exact value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<u64>,
}

impl CountRule {
    /// Whether `value` satisfies every bound that is present.
    pub fn matches(&self, value: u64) -> bool {
        self.exact.is_none_or(|e| e == value)
            && self.min.is_none_or(|m| m <= value)
            && self.max.is_none_or(|m| value <= m)
    }
}

/// `trigger`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trigger {
    /// Whether an empty selection disables the workflow.
    pub requires_selection: bool,
}

/// `inputs.member.kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemberKind {
    /// The whole selection is one member.
    Selection,
    /// A regular (top-level) item.
    Parent,
    /// A non-attachment, non-note child item.
    Child,
    /// An attachment item.
    Attachment,
    /// A note item.
    Note,
    /// A generated note (`generated-note-candidates`).
    GeneratedNote,
    /// The digest note chosen by `digest-representative-image`.
    DigestImageTarget,
}

impl MemberKind {
    /// The contract spelling, e.g. `generated-note`.
    pub fn as_str(self) -> &'static str {
        match self {
            MemberKind::Selection => "selection",
            MemberKind::Parent => "parent",
            MemberKind::Child => "child",
            MemberKind::Attachment => "attachment",
            MemberKind::Note => "note",
            MemberKind::GeneratedNote => "generated-note",
            MemberKind::DigestImageTarget => "digest-image-target",
        }
    }
}

/// `inputs.member.accepts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accepts {
    /// Accepted MIME types.
    pub mime: Vec<String>,
}

/// `inputs.member`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// What one candidate is.
    pub kind: MemberKind,
    /// MIME compatibility list (attachment members only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepts: Option<Accepts>,
}

/// `inputs.grouping.mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GroupingMode {
    /// One unit per candidate.
    Each,
    /// One unit with every candidate.
    All,
    /// One unit per parent.
    Parent,
}

/// `inputs.grouping`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grouping {
    /// The grouping mode.
    pub mode: GroupingMode,
}

/// `inputs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inputs {
    /// What one unit consumes.
    pub member: Member,
    /// How candidates become units.
    pub grouping: Grouping,
}

/// `validateSelection.require.selection.counts`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionCountRules {
    /// Rule on selected parents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parents: Option<CountRule>,
    /// Rule on selected attachments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attachments: Option<CountRule>,
    /// Rule on selected notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<CountRule>,
    /// Rule on selected children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children: Option<CountRule>,
    /// Rule on the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<CountRule>,
}

/// `validateSelection.require.selection`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectionRequirement {
    /// Per-kind and total count rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<SelectionCountRules>,
    /// Whether several item kinds may be selected at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_mixed: Option<bool>,
}

/// `validateSelection.require`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Require {
    /// Requirements on the raw selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<SelectionRequirement>,
    /// Requirement on the number of surviving candidates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<CountRule>,
}

/// `validateSelection.select.source` of the `input-member` policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemberSource {
    /// Only the selected items.
    Selected,
    /// Selected items and the items related to them.
    Related,
}

/// `validateSelection.select`, discriminated by `policy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "kebab-case")]
pub enum Selector {
    /// Candidates of `inputs.member.kind`.
    InputMember {
        /// Selected only, or related too.
        source: MemberSource,
    },
    /// The whole selection as one candidate.
    Selection,
    /// One representative source attachment per paper.
    LiteratureSource,
    /// Generated notes of the selected parents.
    GeneratedNoteCandidates,
    /// The digest note of a single selected parent or note.
    DigestRepresentativeImage,
}

impl Selector {
    /// The contract spelling of the policy.
    pub fn policy(&self) -> &'static str {
        match self {
            Selector::InputMember { .. } => "input-member",
            Selector::Selection => "selection",
            Selector::LiteratureSource => "literature-source",
            Selector::GeneratedNoteCandidates => "generated-note-candidates",
            Selector::DigestRepresentativeImage => "digest-representative-image",
        }
    }
}

/// A filter's `phase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Phase {
    /// Runs during preview and confirmed runs.
    Availability,
    /// Runs only during confirmed runs.
    Execute,
}

/// A generated-note kind accepted by the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoteKind {
    /// `digest`
    Digest,
    /// `references`
    References,
    /// `citation-analysis`
    CitationAnalysis,
    /// `conversation-note`
    ConversationNote,
    /// `custom`
    Custom,
}

/// Requirement value type in a readiness payload requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RequirementType {
    /// A JSON string.
    String,
    /// A JSON number.
    Number,
    /// A JSON array.
    Array,
    /// A JSON object.
    Object,
}

/// One `payload.requirements[]` entry of a readiness artifact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PayloadRequirement {
    /// JSON pointer into the note payload.
    pub pointer: String,
    /// Required constant value.
    #[serde(default, rename = "const", skip_serializing_if = "Option::is_none")]
    pub const_value: Option<serde_json::Value>,
    /// Required value type.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub value_type: Option<RequirementType>,
    /// Minimum numeric value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<f64>,
    /// Maximum numeric value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<f64>,
    /// Required length of a string or array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u64>,
}

/// `payload` of a readiness artifact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadinessPayload {
    /// Payload type name.
    #[serde(rename = "type")]
    pub payload_type: String,
    /// Checks a matching note's payload must pass.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<PayloadRequirement>,
}

/// `artifacts[]` of `generated-note-readiness`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadinessArtifact {
    /// Artifact id referenced by modes.
    pub id: String,
    /// Note kinds that provide this artifact: any detected kind, `literature-score`
    /// included (unlike `generated-note-kinds-absent`).
    pub note_kinds: Vec<String>,
    /// Optional payload checks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<ReadinessPayload>,
}

/// `modes[]` of `generated-note-readiness`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadinessMode {
    /// Mode id.
    pub id: String,
    /// Artifact ids that must all be available.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub all_available: Vec<String>,
    /// Artifact ids that must all be unavailable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub all_unavailable: Vec<String>,
    /// Whether this is the fallback mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<bool>,
}

/// `target` of `artifact-absent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArtifactTarget {
    /// `<stem>.html`
    DeepReadingHtml,
    /// `<stem>.md`
    MineruMarkdown,
    /// `<stem>_<suffix>.md`
    TranslatorMarkdown,
}

/// One `validateSelection.filters[]` entry, discriminated by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Filter {
    /// Keeps attachments whose local file exists.
    SourceFileExists {
        /// Always `availability`.
        phase: Phase,
    },
    /// Keeps candidates whose parent has an acceptable number of candidates.
    CandidatesPerParent {
        /// Always `availability`.
        phase: Phase,
        /// Rule on candidates per parent.
        counts: CountRule,
    },
    /// Keeps candidates whose parent lacks at least one of the note kinds.
    #[serde(rename_all = "camelCase")]
    GeneratedNoteKindsAbsent {
        /// Always `availability`.
        phase: Phase,
        /// Note kinds that must not all exist already.
        note_kinds: Vec<NoteKind>,
    },
    /// Keeps candidates whose parent's readiness mode is accepted.
    #[serde(rename_all = "camelCase")]
    GeneratedNoteReadiness {
        /// Always `availability`.
        phase: Phase,
        /// Artifacts to evaluate.
        artifacts: Vec<ReadinessArtifact>,
        /// Modes derived from artifact availability.
        modes: Vec<ReadinessMode>,
        /// Mode ids that keep the candidate.
        accept_modes: Vec<String>,
    },
    /// Keeps attachments whose target artifact file does not exist yet.
    ArtifactAbsent {
        /// `availability` or `execute`.
        phase: Phase,
        /// Which artifact.
        target: ArtifactTarget,
        /// Workflow parameter naming the suffix (`translator-markdown`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parameter: Option<String>,
    },
}

impl Filter {
    /// The contract spelling of the filter kind, which is also its skip reason.
    pub fn kind(&self) -> &'static str {
        match self {
            Filter::SourceFileExists { .. } => "source-file-exists",
            Filter::CandidatesPerParent { .. } => "candidates-per-parent",
            Filter::GeneratedNoteKindsAbsent { .. } => "generated-note-kinds-absent",
            Filter::GeneratedNoteReadiness { .. } => "generated-note-readiness",
            Filter::ArtifactAbsent { .. } => "artifact-absent",
        }
    }

    /// The filter's phase.
    pub fn phase(&self) -> Phase {
        match self {
            Filter::SourceFileExists { phase }
            | Filter::CandidatesPerParent { phase, .. }
            | Filter::GeneratedNoteKindsAbsent { phase, .. }
            | Filter::GeneratedNoteReadiness { phase, .. }
            | Filter::ArtifactAbsent { phase, .. } => *phase,
        }
    }
}

/// `validateSelection`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidateSelection {
    /// Count requirements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub require: Option<Require>,
    /// How candidates are produced.
    pub select: Selector,
    /// Filters, in evaluation order.
    pub filters: Vec<Filter>,
}

/// The planner's view of a manifest: everything input planning reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanningSpec {
    /// Workflow id.
    pub id: String,
    /// Workflow label (manifest value, not localised).
    pub label: String,
    /// `trigger`.
    pub trigger: Trigger,
    /// `inputs`.
    pub inputs: Inputs,
    /// `validateSelection`.
    pub validate_selection: ValidateSelection,
}
