//! `candidates-per-parent`.

use std::collections::HashMap;

use super::Verdicts;
use crate::manifest::model::CountRule;
use crate::plan::candidate::Candidate;

/// Keeps candidates whose parent has a number of current candidates matching `counts`;
/// candidates without a parent identity are skipped with `missing-parent`.
pub(super) fn evaluate(counts: &CountRule, candidates: &[Candidate]) -> Verdicts {
    let mut per_parent: HashMap<&str, u64> = HashMap::new();
    for parent in candidates
        .iter()
        .filter_map(|c| c.parent_identity.as_deref())
    {
        *per_parent.entry(parent).or_default() += 1;
    }
    candidates
        .iter()
        .map(|c| match c.parent_identity.as_deref() {
            None => Some("missing-parent"),
            Some(p) if counts.matches(per_parent.get(p).copied().unwrap_or_default()) => None,
            Some(_) => Some("candidates-per-parent"),
        })
        .collect()
}
