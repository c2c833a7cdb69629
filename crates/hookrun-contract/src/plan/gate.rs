//! Trigger gate and raw-selection requirements (contract §3).

use super::result::ReasonCode;
use crate::manifest::model::{SelectionRequirement, Trigger};
use crate::selection::SelectionCounts;

/// The first failing gate or `require.selection` rule, if any.
pub(crate) fn check(
    trigger: Trigger,
    requirement: Option<SelectionRequirement>,
    counts: SelectionCounts,
) -> Option<ReasonCode> {
    if counts.total == 0 && trigger.requires_selection {
        return Some(ReasonCode::NoSelection);
    }
    let requirement = requirement?;
    if requirement.allow_mixed == Some(false) && counts.kinds_present() > 1 {
        return Some(ReasonCode::MixedSelectionNotAllowed);
    }
    let rules = requirement.counts.unwrap_or_default();
    [
        (
            rules.parents,
            counts.parents,
            ReasonCode::SelectionCountParents,
        ),
        (
            rules.attachments,
            counts.attachments,
            ReasonCode::SelectionCountAttachments,
        ),
        (rules.notes, counts.notes, ReasonCode::SelectionCountNotes),
        (
            rules.children,
            counts.children,
            ReasonCode::SelectionCountChildren,
        ),
        (rules.total, counts.total, ReasonCode::SelectionCountTotal),
    ]
    .into_iter()
    .find(|(rule, value, _)| rule.is_some_and(|r| !r.matches(*value)))
    .map(|(_, _, reason)| reason)
}
