//! The input planner (contract `02-selection-and-planning.md` §2–§9).
//!
//! [`plan`] runs the pipeline in order — trigger gate, `require.selection`, selector,
//! MIME compatibility, filters, `require.candidates`, grouping — on either selection
//! shape. Units keep the input's shape. Host reads go through [`World`].

mod candidate;
mod error;
mod filters;
mod gate;
mod grouping;
mod mime;
mod notekind;
mod result;
mod scope;
mod select;
mod source;
mod world;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use candidate::{Candidate, CandidateValue, ScopedEntry, TargetParent};
pub use error::{NoValidInputUnitsError, PlanError};
pub use result::{CandidateStats, Plan, PlanState, PlanStats, ReasonCode, Skip, Unit, UnitStats};
pub use scope::Scope;
pub use world::{ItemLocator, World, WorldAttachment, WorldError, WorldNote};

use crate::manifest::model::{Phase, PlanningSpec};
use crate::selection::SelectionContext;
use filters::FilterEnv;

/// The planning mode (contract §2.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Mode {
    /// Menu enablement and preview: execute-phase filters are skipped.
    Menu,
    /// A confirmed run: every stage runs.
    #[default]
    Execute,
    /// Runs handed over by an external bridge: only select, MIME and grouping run.
    Handoff,
}

impl Mode {
    /// Whether filters of `phase` run in this mode.
    fn runs(self, phase: Phase) -> bool {
        matches!(
            (self, phase),
            (Mode::Execute, _) | (Mode::Menu, Phase::Availability)
        )
    }
}

/// Moves candidates with a verdict into `skipped`, keeping the rest in order.
fn apply_verdicts(
    candidates: Vec<Candidate>,
    verdicts: &[Option<&'static str>],
    skipped: &mut Vec<Skip>,
) -> Vec<Candidate> {
    candidates
        .into_iter()
        .zip(verdicts.iter().chain(std::iter::repeat(&None)))
        .filter_map(|(c, verdict)| match verdict {
            Some(reason) => {
                skipped.push(Skip {
                    identity: c.identity.to_string(),
                    reason: (*reason).to_owned(),
                });
                None
            }
            None => Some(c),
        })
        .collect()
}

/// Plans `selection` for the workflow `spec` in `mode`.
///
/// `params` are the `workflowParams` read by execute-mode filters
/// (`artifact-absent` with `translator-markdown`). A disabled plan is a normal
/// result; only a managed-note issue that the contract makes fatal is an error.
///
/// ```
/// use hookrun_contract::host::world::HostWorld;
/// use hookrun_contract::manifest::discover;
/// use hookrun_contract::plan::{Mode, PlanState, plan};
/// use hookrun_contract::selection::SelectionContext;
///
/// let found = discover("../../fixtures/workflows/export-summary".as_ref());
/// let workflow = &found.workflows[0];
/// let text = std::fs::read_to_string("../../fixtures/selections/canonical-parent.json")?;
/// let selection = SelectionContext::from_text(&text)?;
/// let world = HostWorld::from_selection(&selection);
/// let planned = plan(&workflow.planning, &selection, Mode::Execute, &Default::default(), &world)?;
/// assert_eq!(planned.state, PlanState::Enabled);
/// assert_eq!(planned.units.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan(
    spec: &PlanningSpec,
    selection: &SelectionContext,
    mode: Mode,
    params: &Map<String, Value>,
    world: &dyn World,
) -> Result<Plan, PlanError> {
    let counts = selection.counts();
    let validate = &spec.validate_selection;
    let require = validate.require.unwrap_or_default();
    let gate = (mode != Mode::Handoff)
        .then(|| gate::check(spec.trigger, require.selection, counts))
        .flatten();
    if let Some(reason) = gate {
        return Ok(Plan::disabled_early(reason, counts));
    }
    let Screened {
        total,
        candidates,
        mut skipped,
    } = screen(spec, selection, mode, params, world)?;
    let finish =
        |state, reason, candidates: Vec<Candidate>, skipped: Vec<Skip>, units: Vec<Unit>| {
            let stats = PlanStats::compute(total, &skipped, candidates.len(), units.len());
            Plan {
                state,
                reason_code: reason,
                selection_counts: counts,
                candidates,
                skipped,
                units,
                stats,
            }
        };
    let cardinality_ok = require
        .candidates
        .is_none_or(|rule| rule.matches(candidates.len() as u64));
    if mode != Mode::Handoff && !cardinality_ok {
        let reason = Some(ReasonCode::CandidateCount);
        return Ok(finish(
            PlanState::Disabled,
            reason,
            candidates,
            skipped,
            Vec::new(),
        ));
    }
    let grouping::Grouped { units, placed } = grouping::group(
        spec.inputs.grouping.mode,
        candidates,
        &spec.label,
        selection,
        &mut skipped,
    );
    let (state, reason) = match units.is_empty() {
        true => (PlanState::Disabled, Some(ReasonCode::NoValidInputUnits)),
        false => (PlanState::Enabled, None),
    };
    Ok(finish(state, reason, placed, skipped, units))
}

/// What the selector chose, and what the MIME check and the filters left of it.
struct Screened {
    /// How many candidates the selector chose.
    total: usize,
    /// The candidates that passed every check, in order.
    candidates: Vec<Candidate>,
    /// The candidates that did not, with why.
    skipped: Vec<Skip>,
}

/// Runs the selector, MIME compatibility and the filters that `mode` runs on
/// `selection` (the stages of [`plan`] between the gate and `require.candidates`).
fn screen(
    spec: &PlanningSpec,
    selection: &SelectionContext,
    mode: Mode,
    params: &Map<String, Value>,
    world: &dyn World,
) -> Result<Screened, PlanError> {
    let validate = &spec.validate_selection;
    let source = source::source_for(selection);
    let mut candidates = select::select(
        &validate.select,
        spec.inputs.member.kind,
        &spec.label,
        source.as_ref(),
        world,
    )?;
    let total = candidates.len();
    let mut skipped = Vec::new();
    if let Some(accepts) = &spec.inputs.member.accepts {
        let verdicts: Vec<_> = candidates
            .iter()
            .map(|c| (!mime::accepts(&accepts.mime, c)).then_some("mime-not-accepted"))
            .collect();
        candidates = apply_verdicts(candidates, &verdicts, &mut skipped);
    }
    let env = FilterEnv { world, params };
    let active = validate.filters.iter().filter(|f| mode.runs(f.phase()));
    for filter in active {
        let verdicts = filters::evaluate(filter, &candidates, &env)?;
        candidates = apply_verdicts(candidates, &verdicts, &mut skipped);
    }
    Ok(Screened {
        total,
        candidates,
        skipped,
    })
}
