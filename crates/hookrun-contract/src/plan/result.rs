//! The plan result (contract §9): state, reason code, candidates, skips, units, stats.

use std::ops::Range;
use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value, json};

use super::candidate::{Candidate, TargetParent};
use super::error::NoValidInputUnitsError;
use super::scope::Scope;
use crate::selection::SelectionCounts;

/// `state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanState {
    /// The workflow can run.
    Enabled,
    /// The workflow cannot run; see `reasonCode`.
    Disabled,
}

impl PlanState {
    /// `enabled` or `disabled`.
    pub fn as_str(self) -> &'static str {
        match self {
            PlanState::Enabled => "enabled",
            PlanState::Disabled => "disabled",
        }
    }
}

/// `reasonCode` (contract §9.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ReasonCode {
    /// `no-selection`
    NoSelection,
    /// `mixed-selection-not-allowed`
    MixedSelectionNotAllowed,
    /// `selection-count-parents`
    SelectionCountParents,
    /// `selection-count-attachments`
    SelectionCountAttachments,
    /// `selection-count-notes`
    SelectionCountNotes,
    /// `selection-count-children`
    SelectionCountChildren,
    /// `selection-count-total`
    SelectionCountTotal,
    /// `candidate-count`
    CandidateCount,
    /// `no-valid-input-units`
    NoValidInputUnits,
}

impl ReasonCode {
    /// The contract spelling, e.g. `selection-count-parents`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NoSelection => "no-selection",
            Self::MixedSelectionNotAllowed => "mixed-selection-not-allowed",
            Self::SelectionCountParents => "selection-count-parents",
            Self::SelectionCountAttachments => "selection-count-attachments",
            Self::SelectionCountNotes => "selection-count-notes",
            Self::SelectionCountChildren => "selection-count-children",
            Self::SelectionCountTotal => "selection-count-total",
            Self::CandidateCount => "candidate-count",
            Self::NoValidInputUnits => "no-valid-input-units",
        }
    }
}

/// One skipped candidate with its first skip reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skip {
    /// Candidate identity.
    pub identity: String,
    /// Skip reason (contract §9.2).
    pub reason: String,
}

/// One frozen unit (contract §8).
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// `unit-<order+1>`.
    pub unit_id: String,
    /// 0-based order.
    pub order: usize,
    /// Task name.
    pub task_name: Arc<str>,
    /// The single member's identity, or `group:` + identities joined by `+`.
    pub input_unit_identity: Arc<str>,
    /// Member identities in order.
    pub member_identities: Vec<Arc<str>>,
    /// Number of members.
    pub member_count: usize,
    /// Where the member candidates are in [`Plan::candidates`] (not serialised;
    /// [`Plan::members`] gives them).
    pub members: Range<usize>,
    /// Shared parent identity.
    pub target_parent_identity: Option<Arc<str>>,
    /// Shared parent ref (canonical) or id (grouped).
    pub target_parent: Option<TargetParent>,
    /// Merged scoped context, in the input's shape (a single member's is
    /// shared with the member).
    pub selection_context: Scope,
}

impl Unit {
    /// The JSON form: `{unitId, order, taskName, inputUnitIdentity, memberIdentities,
    /// memberCount, targetParentIdentity?, targetParentRef? | targetParentID?,
    /// selectionContext}`, as it serialises.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Written without building a `serde_json::Value` of the unit.
impl Serialize for Unit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("unitId", &self.unit_id)?;
        map.serialize_entry("order", &self.order)?;
        map.serialize_entry("taskName", &self.task_name)?;
        map.serialize_entry("inputUnitIdentity", &self.input_unit_identity)?;
        map.serialize_entry("memberIdentities", &self.member_identities)?;
        map.serialize_entry("memberCount", &self.member_count)?;
        if let Some(p) = &self.target_parent_identity {
            map.serialize_entry("targetParentIdentity", p)?;
        }
        if let Some(t) = &self.target_parent {
            let (key, value) = t.json_entry();
            map.serialize_entry(key, &value)?;
        }
        map.serialize_entry("selectionContext", &self.selection_context)?;
        map.end()
    }
}

/// `stats.candidates`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CandidateStats {
    /// Candidates selected before MIME compatibility.
    pub total: u64,
    /// Candidates in the plan.
    pub accepted: u64,
    /// `max(recorded skips, total − accepted)`.
    pub skipped: u64,
    /// Skip counts by reason, in order of first occurrence.
    pub reasons: Map<String, Value>,
}

/// `stats.units`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct UnitStats {
    /// Units produced.
    pub total: u64,
    /// Executable units (= units produced).
    pub executable: u64,
    /// Always 0.
    pub skipped: u64,
}

/// `stats`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PlanStats {
    /// Candidate statistics.
    pub candidates: CandidateStats,
    /// Unit statistics.
    pub units: UnitStats,
}

impl PlanStats {
    /// Stats from the selected total, the skips, the accepted count and the unit count.
    pub(crate) fn compute(total: usize, skipped: &[Skip], accepted: usize, units: usize) -> Self {
        let mut reasons = Map::new();
        for skip in skipped {
            let count = reasons
                .get(&skip.reason)
                .and_then(Value::as_u64)
                .unwrap_or(0);
            reasons.insert(skip.reason.clone(), (count + 1).into());
        }
        let n = |v: usize| v as u64;
        Self {
            candidates: CandidateStats {
                total: n(total),
                accepted: n(accepted),
                skipped: n(skipped.len()).max(n(total.saturating_sub(accepted))),
                reasons,
            },
            units: UnitStats {
                total: n(units),
                executable: n(units),
                skipped: 0,
            },
        }
    }
}

/// The planner's result (`WorkflowInputPlan` plus the skip list).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// `enabled` or `disabled`.
    pub state: PlanState,
    /// Why the plan is disabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_code: Option<ReasonCode>,
    /// Raw selection counts.
    pub selection_counts: SelectionCounts,
    /// Surviving candidates (those placed in units; all survivors on `candidate-count`).
    pub candidates: Vec<Candidate>,
    /// Every skipped candidate with its first reason, in order.
    pub skipped: Vec<Skip>,
    /// Frozen units.
    pub units: Vec<Unit>,
    /// Statistics.
    pub stats: PlanStats,
}

impl Plan {
    /// A plan disabled before any candidate was selected.
    pub(crate) fn disabled_early(reason: ReasonCode, counts: SelectionCounts) -> Self {
        Self {
            state: PlanState::Disabled,
            reason_code: Some(reason),
            selection_counts: counts,
            candidates: Vec::new(),
            skipped: Vec::new(),
            units: Vec::new(),
            stats: PlanStats::default(),
        }
    }

    /// The member candidates of `unit`, one of this plan's units.
    pub fn members(&self, unit: &Unit) -> &[Candidate] {
        self.candidates
            .get(unit.members.clone())
            .unwrap_or_default()
    }

    /// Byte-stable JSON text of the plan.
    pub fn to_json_string(&self) -> String {
        let mut text = Vec::new();
        // Writing JSON into memory cannot fail, and writes UTF-8.
        match crate::selection::write_compact(&mut text, self) {
            Ok(()) => String::from_utf8(text).unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// The preview summary (contract §9.3): `{state, reasonCode,
    /// scopedSelectionContexts, stats: {totalUnits, validUnits, skippedUnits}}`.
    pub fn preview(&self) -> Value {
        json!({
            "state": self.state,
            "reasonCode": self.reason_code,
            "scopedSelectionContexts": self.units.iter().map(|u| u.selection_context.to_value()).collect::<Vec<_>>(),
            "stats": {
                "totalUnits": self.stats.candidates.total,
                "validUnits": self.units.len(),
                "skippedUnits": self.stats.candidates.skipped,
            },
        })
    }

    /// Fails with [`NoValidInputUnitsError`] when an execution of `workflow_id` would
    /// start with zero units.
    pub fn ensure_units(&self, workflow_id: &str) -> Result<(), NoValidInputUnitsError> {
        if !self.units.is_empty() {
            return Ok(());
        }
        let c = &self.stats.candidates;
        Err(NoValidInputUnitsError {
            workflow_id: workflow_id.to_owned(),
            total_units: c.total,
            skipped_units: c.skipped,
            candidate_total: c.total,
            candidate_skipped: c.skipped,
        })
    }
}
