//! Count-rule checks of §5.2: rule shape, satisfiable totals, mixed selections and the
//! trigger's selection bounds.

use crate::manifest::model::{CountRule, PlanningSpec, SelectionCountRules};
use crate::manifest::semantic::{Failure, failure};

const COUNTS: &str = "/validateSelection/require/selection/counts";
const SELECTION: &str = "/validateSelection/require/selection";
const CANDIDATES: &str = "/validateSelection/require/candidates";

/// An inclusive range of counts; `hi: None` is unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Range {
    pub(super) lo: u64,
    pub(super) hi: Option<u64>,
}

impl Range {
    const ANY: Range = Range { lo: 0, hi: None };

    fn of(rule: Option<&CountRule>) -> Range {
        match rule {
            None => Range::ANY,
            Some(rule) => match rule.exact {
                Some(exact) => Range {
                    lo: exact,
                    hi: Some(exact),
                },
                None => Range {
                    lo: rule.min.unwrap_or(0),
                    hi: rule.max,
                },
            },
        }
    }

    /// The intersection with another range and with `[at_least, ∞)` is non-empty.
    fn overlaps(self, other: Range, at_least: u64) -> bool {
        let lo = self.lo.max(other.lo).max(at_least);
        let hi = match (self.hi, other.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        hi.is_none_or(|hi| lo <= hi)
    }
}

/// Reports a malformed rule; returns whether it is well-formed.
fn rule_shape(out: &mut Vec<Failure>, pointer: &str, rule: &CountRule) -> bool {
    let mut ok = true;
    if rule.exact.is_some() && (rule.min.is_some() || rule.max.is_some()) {
        out.push(failure(
            format!("{pointer}/exact"),
            "is mutually exclusive with min and max",
        ));
        ok = false;
    }
    if let (Some(min), Some(max)) = (rule.min, rule.max)
        && min > max
    {
        out.push(failure(
            format!("{pointer}/min"),
            "must be less than or equal to max",
        ));
        ok = false;
    }
    ok
}

fn per_kind(counts: &SelectionCountRules) -> [(&'static str, Option<&CountRule>); 4] {
    [
        ("parents", counts.parents.as_ref()),
        ("attachments", counts.attachments.as_ref()),
        ("notes", counts.notes.as_ref()),
        ("children", counts.children.as_ref()),
    ]
}

pub(super) fn check(spec: &PlanningSpec) -> Vec<Failure> {
    let mut out = Vec::new();
    let require = spec.validate_selection.require.unwrap_or_default();
    let selection = require.selection.unwrap_or_default();
    let counts = selection.counts.unwrap_or_default();
    let mut well_formed = true;
    for (kind, rule) in per_kind(&counts)
        .into_iter()
        .chain([("total", counts.total.as_ref())])
    {
        if let Some(rule) = rule {
            well_formed &= rule_shape(&mut out, &format!("{COUNTS}/{kind}"), rule);
        }
    }
    if let Some(rule) = &require.candidates {
        rule_shape(&mut out, CANDIDATES, rule);
    }
    if !well_formed || selection.counts.is_none() {
        return out;
    }
    let kinds: Vec<Range> = per_kind(&counts)
        .iter()
        .map(|(_, r)| Range::of(*r))
        .collect();
    let total = Range::of(counts.total.as_ref());
    let infeasible_total = no_satisfiable_total(&kinds, total);
    if infeasible_total {
        out.push(failure(COUNTS, "has no satisfiable total"));
    }
    if selection.allow_mixed == Some(false) {
        let mixed_required = kinds.iter().filter(|r| r.lo > 0).count() > 1;
        if mixed_required {
            out.push(failure(
                SELECTION,
                "disallows mixed input but requires multiple item kinds",
            ));
        } else if !infeasible_total && !non_mixed_solution(&kinds, total) {
            out.push(failure(SELECTION, "has no satisfiable non-mixed solution"));
        }
    }
    trigger_bounds(&mut out, spec.trigger.requires_selection, &kinds, total);
    out
}

/// The per-kind minimums exceed the total maximum, or the per-kind maximums (all bounded)
/// stay below the total minimum.
pub(super) fn no_satisfiable_total(kinds: &[Range], total: Range) -> bool {
    let sum_min = kinds.iter().fold(0u64, |acc, r| acc.saturating_add(r.lo));
    let sum_max = kinds
        .iter()
        .try_fold(0u64, |acc, r| r.hi.map(|hi| acc.saturating_add(hi)));
    total.hi.is_some_and(|hi| sum_min > hi) || sum_max.is_some_and(|max| max < total.lo)
}

/// Some selection of a single item kind (≥ 1 item, every other kind at zero) meets the
/// rules, or the empty selection does.
pub(super) fn non_mixed_solution(kinds: &[Range], total: Range) -> bool {
    let empty_ok = kinds.iter().all(|r| r.lo == 0) && total.lo == 0;
    let single_ok = kinds.iter().enumerate().any(|(k, range)| {
        let others_zero = kinds
            .iter()
            .enumerate()
            .all(|(j, other)| j == k || other.lo == 0);
        others_zero && range.overlaps(total, 1)
    });
    empty_ok || single_ok
}

fn trigger_bounds(out: &mut Vec<Failure>, requires_selection: bool, kinds: &[Range], total: Range) {
    if !requires_selection && (total.lo > 0 || kinds.iter().any(|r| r.lo > 0)) {
        out.push(failure(
            "/trigger/requiresSelection",
            "conflicts with positive selection lower bounds",
        ));
    }
    let all_kinds_zero = kinds.iter().all(|r| r.hi == Some(0));
    if requires_selection && (total.hi == Some(0) || all_kinds_zero) {
        out.push(failure(
            "/trigger/requiresSelection",
            "conflicts with a zero-only selection total",
        ));
    }
}
