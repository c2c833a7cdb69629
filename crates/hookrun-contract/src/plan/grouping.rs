//! Grouping candidates into frozen units (contract §8).

use std::collections::HashMap;
use std::sync::Arc;

use super::candidate::Candidate;
use super::result::{Skip, Unit};
use super::scope::Scope;
use crate::manifest::model::GroupingMode;
use crate::selection::SelectionContext;

/// The merged scoped context of `members`. A single member's scoped context is used
/// as is, so a single `selection` member passes the whole selection through unchanged.
fn unit_context(members: &[Candidate], fallback: &SelectionContext) -> Scope {
    if let [only] = members {
        return only.scoped_context.clone();
    }
    let whole: Vec<Arc<SelectionContext>> =
        members.iter().map(|m| m.scoped_context.context()).collect();
    let parts: Vec<&SelectionContext> = whole.iter().map(|c| &**c).collect();
    SelectionContext::merge(&parts)
        .unwrap_or_else(|| fallback.clone())
        .into()
}

/// Units and the candidates placed in them, members of each unit together and in
/// unit order ([`Plan::candidates`](super::Plan::candidates)).
#[derive(Default)]
pub(crate) struct Grouped {
    pub units: Vec<Unit>,
    pub placed: Vec<Candidate>,
}

/// Unit number `order` made of `members` (never empty), which sit at
/// `start..` in the plan's candidates.
fn unit(
    order: usize,
    task_name: Arc<str>,
    members: &[Candidate],
    start: usize,
    shared_parent: bool,
    fallback: &SelectionContext,
) -> Unit {
    let member_identities: Vec<Arc<str>> = members.iter().map(|m| m.identity.clone()).collect();
    let input_unit_identity = match member_identities.as_slice() {
        [one] => one.clone(),
        many => format!("group:{}", many.join("+")).into(),
    };
    let (target_parent_identity, target_parent) = match members.first() {
        Some(f) if shared_parent => (f.parent_identity.clone(), f.target_parent.clone()),
        _ => (None, None),
    };
    Unit {
        unit_id: format!("unit-{}", order + 1),
        order,
        task_name,
        input_unit_identity,
        member_count: members.len(),
        member_identities,
        target_parent_identity,
        target_parent,
        selection_context: unit_context(members, fallback),
        members: start..start + members.len(),
    }
}

impl Grouped {
    /// Adds unit number `units.len()` made of `members` (never empty).
    fn push(
        &mut self,
        task_name: Arc<str>,
        members: Vec<Candidate>,
        shared_parent: bool,
        fallback: &SelectionContext,
    ) {
        let (order, start) = (self.units.len(), self.placed.len());
        let unit = unit(order, task_name, &members, start, shared_parent, fallback);
        self.units.push(unit);
        self.placed.extend(members);
    }
}

/// Whether every member shares the first member's parent identity and target.
fn share_parent(members: &[Candidate]) -> bool {
    match members.first() {
        Some(first) => {
            first.parent_identity.is_some()
                && members.iter().all(|m| {
                    m.parent_identity == first.parent_identity
                        && m.target_parent == first.target_parent
                })
        }
        None => false,
    }
}

/// Task name of a parent group: the first member's label if it is a parent, else its
/// parent title, else its label.
fn parent_task_name(first: &Candidate) -> Arc<str> {
    if first.kind == "parent" {
        return first.label.clone();
    }
    match first.parent_title().filter(|t| !t.is_empty()) {
        Some(title) => title.into(),
        None => first.label.clone(),
    }
}

/// Groups `candidates` by `mode`; candidates that cannot be grouped are appended to
/// `skipped`. Returns the units and their members, in candidate order within a unit.
pub(crate) fn group(
    mode: GroupingMode,
    candidates: Vec<Candidate>,
    label: &str,
    fallback: &SelectionContext,
    skipped: &mut Vec<Skip>,
) -> Grouped {
    let mut grouped = Grouped::default();
    match mode {
        GroupingMode::Each => {
            // One unit per candidate, in order: the candidates are placed as
            // they are, without a second vector of them.
            grouped.units = candidates
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let members = std::slice::from_ref(c);
                    unit(i, c.label.clone(), members, i, true, fallback)
                })
                .collect();
            grouped.placed = candidates;
        }
        GroupingMode::All if candidates.is_empty() => {}
        GroupingMode::All => {
            let shared = share_parent(&candidates);
            grouped.push(label.into(), candidates, shared, fallback);
        }
        GroupingMode::Parent => {
            let mut groups: Vec<Vec<Candidate>> = Vec::new();
            let mut index: HashMap<Arc<str>, usize> = HashMap::new();
            for c in candidates {
                let Some(parent) = c.parent_identity.clone() else {
                    skipped.push(Skip {
                        identity: c.identity.to_string(),
                        reason: "missing-parent".to_owned(),
                    });
                    continue;
                };
                match index.get(&parent).and_then(|i| groups.get_mut(*i)) {
                    Some(group) => group.push(c),
                    None => {
                        index.insert(parent, groups.len());
                        groups.push(vec![c]);
                    }
                }
            }
            for members in groups {
                if let Some(first) = members.first() {
                    let name = parent_task_name(first);
                    grouped.push(name, members, true, fallback);
                }
            }
        }
    }
    grouped
}
