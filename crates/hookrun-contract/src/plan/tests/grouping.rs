//! Grouping modes, unit fields and merged scoped contexts.

use serde_json::json;

use super::*;
use crate::plan::{ReasonCode, TargetParent};

fn grouped_by(mode: &str, source: &str) -> PlanningSpec {
    spec(json!({"inputs": {"grouping": {"mode": mode}},
                "validateSelection": {"select": {"source": source}}}))
}

#[test]
fn each_makes_one_unit_per_candidate() {
    for name in [
        "grouped-attachments-different-parents",
        "canonical-attachments-different-parents",
    ] {
        let p = run(&grouped_by("each", "selected"), &selection(name));
        assert_eq!(
            units(&p),
            [
                ("Full Text PDF", "attachment:1:ATTPDF01"),
                ("dogs.md", "attachment:1:ATTMD002")
            ]
        );
        let ids: Vec<_> = p
            .units
            .iter()
            .map(|u| (u.unit_id.as_str(), u.order, u.member_count))
            .collect();
        assert_eq!(ids, [("unit-1", 0, 1), ("unit-2", 1, 1)]);
        assert_eq!(
            p.units[1].target_parent_identity.as_deref(),
            Some("parent:1:PARENT02")
        );
        assert_eq!(p.units[0].selection_context, p.candidates[0].scoped_context);
    }
    let grouped = run(
        &grouped_by("each", "selected"),
        &selection("grouped-attachments-different-parents"),
    );
    assert_eq!(grouped.units[1].target_parent, Some(TargetParent::Id(20)));
    assert_eq!(plan_json(&grouped)["units"][1]["targetParentID"], 20);
}

#[test]
fn all_makes_one_unit_and_shares_a_parent_only_when_common() {
    for shape in ["grouped", "canonical"] {
        let diff = run(
            &grouped_by("all", "selected"),
            &selection(&format!("{shape}-attachments-different-parents")),
        );
        assert_eq!(
            units(&diff),
            [(
                "Test Workflow",
                "group:attachment:1:ATTPDF01+attachment:1:ATTMD002"
            )]
        );
        let unit = &diff.units[0];
        assert_eq!(
            unit.member_identities
                .iter()
                .map(|i| &**i)
                .collect::<Vec<_>>(),
            ["attachment:1:ATTPDF01", "attachment:1:ATTMD002"]
        );
        assert_eq!(
            (unit.member_count, unit.target_parent_identity.clone()),
            (2, None)
        );
        assert_eq!(unit.selection_context.context().counts().attachments, 2);
        assert_eq!(
            unit.selection_context.context().sampled_at(),
            "2026-03-01T09:00:00.000Z"
        );
        let same = run(
            &grouped_by("all", "selected"),
            &selection(&format!("{shape}-mixed-same-parent")),
        );
        assert_eq!(
            same.units[0].target_parent_identity.as_deref(),
            Some("parent:1:PARENT01")
        );
        assert!(same.units[0].target_parent.is_some());
    }
    let grouped = run(
        &grouped_by("all", "selected"),
        &selection("grouped-attachments-different-parents"),
    );
    let ctx = grouped.units[0].selection_context.to_value();
    assert_eq!(
        ctx["summary"],
        json!({"parentCount": 0, "childCount": 0, "attachmentCount": 2, "noteCount": 0})
    );
    assert_eq!(ctx["selectionType"], "attachment");
    let empty = run(
        &grouped_by("all", "selected"),
        &selection("grouped-orphan-note"),
    );
    assert_eq!(empty.reason_code, Some(ReasonCode::NoValidInputUnits));
}

#[test]
fn parent_grouping() {
    for name in ["grouped-parent-with-attachments-notes", "canonical-parent"] {
        let p = run(&grouped_by("parent", "related"), &selection(name));
        assert_eq!(
            units(&p),
            [(
                "Deep Learning for Cats",
                "group:attachment:1:ATTPDF01+attachment:1:ATTMD001+attachment:1:ATTPDF02"
            )]
        );
        assert_eq!(
            p.units[0].selection_context.context().counts().attachments,
            3
        );
        assert_eq!(
            p.units[0].target_parent_identity.as_deref(),
            Some("parent:1:PARENT01")
        );
    }
    let parents = spec(
        json!({"inputs": {"member": {"kind": "parent"}, "grouping": {"mode": "parent"}},
                              "validateSelection": {"select": {"source": "related"}}}),
    );
    let p = run(
        &parents,
        &selection("grouped-attachments-different-parents"),
    );
    assert_eq!(
        units(&p),
        [
            ("Deep Learning for Cats", "parent:1:PARENT01"),
            ("Graph Models of Dogs", "parent:1:PARENT02")
        ]
    );
}

#[test]
fn parent_grouping_skips_parentless_candidates() {
    let sel = SelectionContext::from_value(&json!({"items": [
        {"kind": "attachment", "ref": {"libraryId": 1, "key": "LOOSE001"}, "itemType": "attachment",
         "filename": "loose.pdf"},
        {"kind": "attachment", "ref": {"libraryId": 1, "key": "ATTPDF01"}, "itemType": "attachment",
         "filename": "cats.pdf", "parentRef": {"libraryId": 1, "key": "PARENT01"}}],
        "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let p = run(&grouped_by("parent", "selected"), &sel);
    assert_eq!(skips(&p), [("attachment:1:LOOSE001", "missing-parent")]);
    assert_eq!(ids(&p), ["attachment:1:ATTPDF01"]);
    // The parent is not in the selection, so its title is unknown: the label is used.
    assert_eq!(units(&p), [("cats.pdf", "attachment:1:ATTPDF01")]);
    assert_eq!(p.stats.candidates.skipped, 1);
    assert_eq!(p.stats.candidates.reasons["missing-parent"], 1);
}

#[test]
fn a_unit_finds_its_members_in_the_plans_candidates() {
    let attachment = |key: &str, parent: &str| {
        json!({"kind": "attachment", "ref": {"libraryId": 1, "key": key},
               "itemType": "attachment", "filename": format!("{key}.pdf"),
               "parentRef": {"libraryId": 1, "key": parent}})
    };
    let sel = SelectionContext::from_value(&json!({"items": [
        attachment("ATTA0001", "PARENT01"),
        attachment("ATTB0001", "PARENT02"),
        attachment("ATTA0002", "PARENT01")],
        "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let p = run(&grouped_by("parent", "selected"), &sel);
    let members = |unit: usize| -> Vec<&str> {
        p.members(&p.units[unit])
            .iter()
            .map(|c| c.identity.as_ref())
            .collect()
    };
    assert_eq!(
        members(0),
        ["attachment:1:ATTA0001", "attachment:1:ATTA0002"]
    );
    assert_eq!(members(1), ["attachment:1:ATTB0001"]);
    // Each candidate is placed once, members of a unit together, in unit order.
    assert_eq!(
        ids(&p),
        [
            "attachment:1:ATTA0001",
            "attachment:1:ATTA0002",
            "attachment:1:ATTB0001"
        ]
    );
    for unit in &p.units {
        assert_eq!(
            p.members(unit)
                .iter()
                .map(|c| c.identity.clone())
                .collect::<Vec<_>>(),
            unit.member_identities
        );
    }
}

#[test]
fn merged_contexts_carry_export_candidates() {
    let s = spec(
        json!({"inputs": {"member": {"kind": "generated-note"}, "grouping": {"mode": "all"}},
                        "validateSelection": {"select": {"policy": "generated-note-candidates"}}}),
    );
    // The heading-only `References` note: named by its heading on an older host,
    // `ordinary` on a current one.
    for (name, second) in [
        ("grouped-parent-with-attachments-notes", "references"),
        ("canonical-parent", "ordinary"),
    ] {
        let p = run(&s, &selection(name));
        let ctx = p.units[0].selection_context.to_value();
        let kinds: Vec<_> = ctx["exportCandidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["noteKind"].clone())
            .collect();
        assert_eq!(kinds, [json!("digest"), json!(second)]);
        assert_eq!(p.units[0].selection_context.context().counts().notes, 2);
    }
}
