//! Gate, `require.*`, modes, reason codes, stats, JSON shape and determinism.

use serde_json::{Map, json};

use super::*;
use crate::plan::{PlanState, ReasonCode};

fn reason(plan: &Plan) -> Option<&'static str> {
    let code = plan.reason_code?;
    assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
    Some(code.as_str())
}

#[test]
fn empty_selection_is_gated_in_both_shapes() {
    for name in ["grouped-empty", "canonical-empty"] {
        let sel = selection(name);
        let p = run(&spec(json!({})), &sel);
        assert_eq!(p.state, PlanState::Disabled);
        assert_eq!(reason(&p), Some("no-selection"));
        assert!(p.candidates.is_empty() && p.units.is_empty());
        let not_required = spec(json!({"trigger": {"requiresSelection": false}}));
        assert_eq!(
            run(&not_required, &sel).reason_code,
            Some(ReasonCode::NoValidInputUnits)
        );
        let handoff = run_mode(&spec(json!({})), &sel, Mode::Handoff);
        assert_eq!(handoff.reason_code, Some(ReasonCode::NoValidInputUnits));
    }
}

#[test]
fn mixed_selection_rule() {
    for name in ["grouped-mixed-same-parent", "canonical-mixed-same-parent"] {
        let sel = selection(name);
        let strict =
            spec(json!({"validateSelection": {"require": {"selection": {"allowMixed": false}}}}));
        assert_eq!(
            reason(&run(&strict, &sel)),
            Some("mixed-selection-not-allowed")
        );
        let lax =
            spec(json!({"validateSelection": {"require": {"selection": {"allowMixed": true}}}}));
        assert_eq!(run(&lax, &sel).state, PlanState::Enabled);
        assert_eq!(
            run_mode(&strict, &sel, Mode::Handoff).state,
            PlanState::Enabled
        );
    }
    let single_kind = selection("grouped-attachments-different-parents");
    let strict =
        spec(json!({"validateSelection": {"require": {"selection": {"allowMixed": false}}}}));
    assert_eq!(run(&strict, &single_kind).state, PlanState::Enabled);
}

#[test]
fn selection_count_rules_in_contract_order() {
    // mixed: 3 attachments + 1 note.
    let cases = [
        (
            json!({"parents": {"min": 1}}),
            Some("selection-count-parents"),
        ),
        (
            json!({"attachments": {"max": 2}}),
            Some("selection-count-attachments"),
        ),
        (
            json!({"notes": {"exact": 2}}),
            Some("selection-count-notes"),
        ),
        (
            json!({"children": {"min": 1}}),
            Some("selection-count-children"),
        ),
        (json!({"total": {"max": 3}}), Some("selection-count-total")),
        (
            json!({"total": {"max": 3}, "attachments": {"max": 2}, "children": {"min": 1}}),
            Some("selection-count-attachments"),
        ),
        (
            json!({"notes": {"min": 5}, "children": {"min": 1}}),
            Some("selection-count-notes"),
        ),
        (
            json!({"attachments": {"exact": 3}, "notes": {"min": 1, "max": 1}, "total": {"exact": 4}}),
            None,
        ),
    ];
    for name in ["grouped-mixed-same-parent", "canonical-mixed-same-parent"] {
        let sel = selection(name);
        for (counts, want) in &cases {
            let s =
                spec(json!({"validateSelection": {"require": {"selection": {"counts": counts}}}}));
            let p = run(&s, &sel);
            assert_eq!(reason(&p), *want, "{name} {counts}");
            assert_eq!(p.selection_counts.attachments, 3);
            assert_eq!(p.selection_counts.notes, 1);
            assert_eq!(p.selection_counts.total, 4);
        }
    }
}

#[test]
fn candidate_count_keeps_candidates_without_units() {
    for name in ["grouped-mixed-same-parent", "canonical-mixed-same-parent"] {
        let sel = selection(name);
        let s = spec(json!({"validateSelection": {"require": {"candidates": {"max": 2}}}}));
        let p = run(&s, &sel);
        assert_eq!(reason(&p), Some("candidate-count"));
        assert_eq!(p.candidates.len(), 3);
        assert!(p.units.is_empty());
        assert_eq!(p.stats.candidates.accepted, 3);
        assert_eq!(p.stats.units.total, 0);
        assert_eq!(run_mode(&s, &sel, Mode::Handoff).units.len(), 3);
        let menu = run_mode(&s, &sel, Mode::Menu);
        assert_eq!(menu.reason_code, Some(ReasonCode::CandidateCount));
    }
}

#[test]
fn no_valid_input_units_and_the_execution_error() {
    let sel = selection("grouped-single-markdown");
    let s = spec(json!({"inputs": {"member": {"accepts": {"mime": ["application/pdf"]}}}}));
    let p = run(&s, &sel);
    assert_eq!(reason(&p), Some("no-valid-input-units"));
    assert!(p.candidates.is_empty());
    assert_eq!(skips(&p), [("attachment:1:ATTMD001", "mime-not-accepted")]);
    let err = p.ensure_units("wf-test").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Workflow wf-test has no valid input units after filtering"
    );
    assert_eq!((err.total_units, err.skipped_units), (1, 1));
    assert_eq!((err.candidate_total, err.candidate_skipped), (1, 1));
    assert_eq!(
        crate::plan::NoValidInputUnitsError::CODE,
        "NO_VALID_INPUT_UNITS"
    );
    assert_eq!(
        serde_json::to_value(&err).unwrap(),
        json!({"workflowId": "wf-test", "totalUnits": 1, "skippedUnits": 1,
               "candidateTotal": 1, "candidateSkipped": 1})
    );
    let ok = run(&spec(json!({})), &sel);
    assert!(ok.ensure_units("wf-test").is_ok());
}

#[test]
fn filter_phases_follow_the_mode_table() {
    let sel = SelectionContext::from_value(&json!({
        "items": [{"kind": "attachment", "ref": {"libraryId": 1, "key": "GONE0001"},
                   "itemType": "attachment", "filename": "gone.pdf",
                   "parentRef": {"libraryId": 1, "key": "PARENT01"}}],
        "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let availability = spec(json!({"validateSelection": {"filters": [
        {"kind": "source-file-exists", "phase": "availability"}]}}));
    let execute = spec(json!({"validateSelection": {"filters": [
        {"kind": "artifact-absent", "phase": "execute", "target": "deep-reading-html"}]}}));
    let table = [
        (&availability, Mode::Menu, 0),
        (&availability, Mode::Execute, 0),
        (&availability, Mode::Handoff, 1),
        (&execute, Mode::Menu, 1),
        (&execute, Mode::Execute, 0),
        (&execute, Mode::Handoff, 1),
    ];
    for (s, mode, units) in table {
        let p = run_mode(s, &sel, mode);
        assert_eq!(
            p.units.len(),
            units,
            "{mode:?} {:?}",
            s.validate_selection.filters
        );
    }
    assert_eq!(Mode::default(), Mode::Execute);
}

#[test]
fn stats_use_the_larger_skip_count() {
    let sel = selection("grouped-mixed-same-parent");
    let s = spec(
        json!({"inputs": {"member": {"accepts": {"mime": ["text/markdown", "application/pdf"]}}}}),
    );
    let p = run(&s, &sel);
    assert_eq!(ids(&p), ["attachment:1:ATTMD001", "attachment:1:ATTPDF01"]);
    assert_eq!(skips(&p), [("attachment:1:ATTSNAP1", "mime-not-accepted")]);
    let stats = serde_json::to_value(&p.stats).unwrap();
    assert_eq!(
        stats,
        json!({"candidates": {"total": 3, "accepted": 2, "skipped": 1,
                              "reasons": {"mime-not-accepted": 1}},
               "units": {"total": 2, "executable": 2, "skipped": 0}})
    );
    let computed = crate::plan::PlanStats::compute(5, &p.skipped, 2, 2);
    assert_eq!(computed.candidates.skipped, 3);
}

#[test]
fn plan_json_shape_and_determinism() {
    for name in ["grouped-parent-with-attachments-notes", "canonical-parent"] {
        let sel = selection(name);
        let s = spec(json!({
            "inputs": {"member": {"accepts": {"mime": ["application/pdf"]}}},
            "validateSelection": {"select": {"source": "related"}}}));
        let planned = run(&s, &sel);
        let first = planned.to_json_string();
        let second = run(&s, &sel).to_json_string();
        assert_eq!(first, second);
        // Written directly, selections and grouped entries serialise as the
        // JSON forms hook arguments are built from.
        for unit in &planned.units {
            assert_eq!(
                unit.to_value()["selectionContext"],
                unit.selection_context.to_value()
            );
        }
        let mut entries = 0;
        for candidate in &planned.candidates {
            if let Some(entry) = candidate.value.entry() {
                entries += 1;
                let map = serde_json::Value::Object(entry.to_map());
                assert_eq!(candidate.value.to_value(), map);
            }
        }
        assert_eq!(entries > 0, name.starts_with("grouped"), "{name}");
        assert!(!planned.units.is_empty() && !planned.candidates.is_empty());
        let v: serde_json::Value = serde_json::from_str(&first).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "state",
                "selectionCounts",
                "candidates",
                "skipped",
                "units",
                "stats"
            ]
        );
        let unit_keys: Vec<&str> = v["units"][0]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let target = if name.starts_with("grouped") {
            "targetParentID"
        } else {
            "targetParentRef"
        };
        assert_eq!(
            unit_keys,
            [
                "unitId",
                "order",
                "taskName",
                "inputUnitIdentity",
                "memberIdentities",
                "memberCount",
                "targetParentIdentity",
                target,
                "selectionContext"
            ]
        );
        let cand_keys: Vec<&str> = v["candidates"][0]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            cand_keys,
            [
                "kind",
                "identity",
                "label",
                "parentIdentity",
                target,
                "scopedContext",
                "value"
            ]
        );
        assert_eq!(
            v["skipped"][0],
            json!({"identity": "attachment:1:ATTMD001", "reason": "mime-not-accepted"})
        );
    }
    let disabled = run(&spec(json!({})), &selection("canonical-empty"));
    let v = plan_json(&disabled);
    assert_eq!(v["reasonCode"], "no-selection");
    assert_eq!(
        v["selectionCounts"],
        json!({"parents": 0, "children": 0, "attachments": 0, "notes": 0, "total": 0})
    );
}

#[test]
fn preview_summary() {
    let sel = selection("grouped-mixed-same-parent");
    let s = spec(json!({"inputs": {"member": {"accepts": {"mime": ["application/pdf"]}}}}));
    let preview = run_mode(&s, &sel, Mode::Menu).preview();
    assert_eq!(preview["state"], "enabled");
    assert_eq!(preview["reasonCode"], serde_json::Value::Null);
    assert_eq!(
        preview["stats"],
        json!({"totalUnits": 3, "validUnits": 1, "skippedUnits": 2})
    );
    assert_eq!(
        preview["scopedSelectionContexts"].as_array().unwrap().len(),
        1
    );
}

#[test]
fn params_reach_execute_filters() {
    let sel = SelectionContext::from_value(&json!({
        "items": [{"kind": "attachment", "ref": {"libraryId": 1, "key": "EXAMPLEA"},
                   "itemType": "attachment", "filename": "a.pdf",
                   "parentRef": {"libraryId": 1, "key": "PARENT01"}}],
        "sampledAt": "2026-03-01T09:00:00.000Z"}))
    .unwrap();
    let library = json!({"items": [{"ref": {"libraryId": 1, "key": "EXAMPLEA"}, "kind": "attachment",
        "filename": "a.pdf", "path": "example/a.pdf"}]});
    let w = HostWorld::from_selection(&sel)
        .with_library(&library)
        .unwrap()
        .with_files_dir(format!("{FIXTURES}/files"));
    let s = spec(json!({"validateSelection": {"filters": [
        {"kind": "artifact-absent", "phase": "execute", "target": "translator-markdown",
         "parameter": "language"}]}}));
    let mut params = Map::new();
    assert_eq!(
        plan(&s, &sel, Mode::Execute, &params, &w)
            .unwrap()
            .units
            .len(),
        0
    );
    params.insert("language".into(), json!("zh CN"));
    assert_eq!(
        plan(&s, &sel, Mode::Execute, &params, &w)
            .unwrap()
            .units
            .len(),
        1
    );
}
