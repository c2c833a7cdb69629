//! Selector, member and filter checks of §5.2.

use serde_json::Value;

use crate::manifest::model::{Filter, MemberKind, Phase, PlanningSpec, Selector};
use crate::manifest::semantic::{Failure, failure};

const SELECT: &str = "/validateSelection/select";

/// The kind of candidates a selector produces (selector table of §4).
pub fn produced_kind(selector: &Selector, member: MemberKind) -> MemberKind {
    match selector {
        Selector::InputMember { .. } => member,
        Selector::Selection => MemberKind::Selection,
        Selector::LiteratureSource => MemberKind::Attachment,
        Selector::GeneratedNoteCandidates => MemberKind::GeneratedNote,
        Selector::DigestRepresentativeImage => MemberKind::DigestImageTarget,
    }
}

pub(super) fn check(manifest: &Value, spec: &PlanningSpec) -> Vec<Failure> {
    let mut out = Vec::new();
    selector(&mut out, spec);
    let member = spec.inputs.member.kind;
    if member != MemberKind::Attachment && spec.inputs.member.accepts.is_some() {
        out.push(failure(
            "/inputs/member/accepts/mime",
            "is only valid for attachment members",
        ));
    }
    for (i, filter) in spec.validate_selection.filters.iter().enumerate() {
        filter_checks(&mut out, manifest, member, i, filter);
    }
    out
}

fn selector(out: &mut Vec<Failure>, spec: &PlanningSpec) {
    let select = &spec.validate_selection.select;
    let member = spec.inputs.member.kind;
    let is_selection_policy = *select == Selector::Selection;
    if is_selection_policy {
        let grouped_all = spec.inputs.grouping.mode == crate::manifest::model::GroupingMode::All;
        if member != MemberKind::Selection || !grouped_all {
            out.push(failure(
                SELECT,
                "selection requires selection members grouped with all",
            ));
        }
    } else if member == MemberKind::Selection {
        out.push(failure(
            "/inputs/member",
            "selection requires the selection selector",
        ));
    } else {
        let produced = produced_kind(select, member);
        if produced != member {
            let text = format!(
                "policy {} produces {}, not {}",
                select.policy(),
                produced.as_str(),
                member.as_str()
            );
            out.push(failure(SELECT, text));
        }
    }
    if !spec.trigger.requires_selection && !is_selection_policy {
        out.push(failure(
            "/trigger/requiresSelection",
            "false requires a selector that can produce an empty SelectionContext",
        ));
    }
    let candidates = spec.validate_selection.require.and_then(|r| r.candidates);
    if is_selection_policy && candidates.is_some_and(|rule| !rule.matches(1)) {
        out.push(failure(
            "/validateSelection/require/candidates",
            "cannot accept the selection selector's single candidate",
        ));
    }
}

fn filter_checks(
    out: &mut Vec<Failure>,
    manifest: &Value,
    member: MemberKind,
    i: usize,
    filter: &Filter,
) {
    let pointer = format!("/validateSelection/filters/{i}");
    match filter {
        Filter::CandidatesPerParent { .. } => {
            if matches!(
                member,
                MemberKind::Selection | MemberKind::DigestImageTarget
            ) {
                out.push(failure(&pointer, "requires parent-addressable members"));
            }
            return;
        }
        _ if member != MemberKind::Attachment => {
            out.push(failure(&pointer, "requires attachment members"));
        }
        _ => {}
    }
    if let Filter::ArtifactAbsent {
        phase,
        parameter: Some(parameter),
        ..
    } = filter
    {
        if *phase != Phase::Execute {
            out.push(failure(
                format!("{pointer}/parameter"),
                "requires phase execute",
            ));
        }
        let declared = manifest
            .get("parameters")
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(parameter));
        if !declared {
            out.push(failure(
                format!("{pointer}/parameter"),
                "references an undeclared workflow parameter",
            ));
        }
    }
}
