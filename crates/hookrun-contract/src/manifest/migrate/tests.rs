//! One test per row of the migration table, on small legacy manifests written for them.

use serde_json::{Value, json};

use super::*;

/// A G1 pass-through manifest over parents, with `patch`'s top-level keys merged in
/// (a `null` removes the key).
fn legacy(patch: Value) -> Value {
    let mut doc = json!({
        "id": "w",
        "label": "W",
        "provider": "pass-through",
        "inputs": {"unit": "parent"},
        "hooks": {"applyResult": "hooks/applyResult.mjs"}
    });
    for (key, value) in patch.as_object().into_iter().flatten() {
        if value.is_null() {
            doc.as_object_mut().map(|d| d.shift_remove(key));
        } else {
            doc[key] = value.clone();
        }
    }
    doc
}

/// Migrates `doc` and checks that nothing is left for a person, that the result is a
/// valid schema-v2 manifest and that a second pass changes nothing.
fn clean(doc: &Value) -> Migration {
    let migration = migrate(doc, false);
    assert!(migration.manual.is_empty(), "{:#?}", migration.manual);
    let problems = crate::manifest::validate_document(&migration.value);
    assert!(problems.is_empty(), "{problems:#?}\n{:#}", migration.value);
    let again = migrate(&migration.value, false);
    assert!(again.changes.is_empty(), "{:#?}", again.changes);
    migration
}

fn rules(migration: &Migration) -> Vec<&'static str> {
    migration.changes.iter().map(|c| c.rule).collect()
}

fn change<'a>(migration: &'a Migration, rule: &str) -> &'a Change {
    match migration.changes.iter().find(|c| c.rule == rule) {
        Some(change) => change,
        None => panic!("no {rule} change in {:#?}", migration.changes),
    }
}

#[test]
fn detects_each_generation() {
    let g0 =
        json!({"id": "w", "backend": {"skillId": "s"}, "request": {"kind": "skillrunner.job.v1"}});
    let g1 = legacy(json!({"execution": {"mode": "sync"}}));
    let g1_plus = legacy(json!({"inputs": {"unit": "workflow"}}));
    let g2 = legacy(
        json!({"validateSelection": {"select": {"policy": "selected-parent"}}, "execution": {"skillrunner_mode": "auto"}}),
    );
    let g2b = legacy(json!({"validateSelection": {"select": {"policy": "selected-parent"}}}));
    let v2 = json!({"schemaVersion": 2});
    let other = json!({"schemaVersion": "1"});
    let found: Vec<_> = [g0, g1, g1_plus, g2, g2b, v2, other]
        .iter()
        .map(Generation::detect)
        .collect();
    use Generation::*;
    assert_eq!(found, [G0, G1, G1Plus, G2, G2b, V2, Unknown]);
    assert_eq!(serde_json::to_value(G1Plus).unwrap_or_default(), "G1+");
}

#[test]
fn schema_version_is_declared_first() {
    let m = clean(&legacy(json!({})));
    assert_eq!(
        m.value
            .as_object()
            .and_then(|d| d.keys().next().cloned())
            .as_deref(),
        Some("schemaVersion")
    );
    assert_eq!(m.value["schemaVersion"], 2);
    let unknown = migrate(&legacy(json!({"schemaVersion": 3})), false);
    assert_eq!(unknown.generation, Generation::Unknown);
    assert!(unknown.changes.is_empty());
    assert_eq!(unknown.manual[0].pointer.as_deref(), Some("/schemaVersion"));
}

#[test]
fn provider_comes_from_the_request_kind_or_the_backend() {
    for (kind, provider) in [
        ("skillrunner.job.v1", "skillrunner"),
        ("generic-http.steps.v1", "generic-http"),
        ("pass-through.run.v1", "pass-through"),
    ] {
        let mut doc = legacy(
            json!({"provider": null, "request": {"kind": kind, "create": {"skill_id": "s"}}}),
        );
        if kind.starts_with("generic-http") {
            doc["request"] = json!({"kind": kind, "steps": []});
        }
        let m = migrate(&doc, false);
        assert_eq!(m.value["provider"], provider, "{kind}");
        assert_eq!(change(&m, "provider-from-kind").to, provider);
    }
    let from_backend = legacy(json!({"provider": null, "backend": {"skillId": "s"}}));
    assert_eq!(
        migrate(&from_backend, false).value["provider"],
        "skillrunner"
    );
    let nothing = clean(&legacy(json!({"provider": null})));
    assert_eq!(nothing.value["provider"], "pass-through");
    let unknown = migrate(
        &legacy(json!({"provider": null, "request": {"kind": "custom.v1"}})),
        false,
    );
    assert_eq!(unknown.manual[0].pointer.as_deref(), Some("/provider"));
}

#[test]
fn backend_skill_id_becomes_the_create_skill_and_the_engine_is_dropped() {
    let doc = json!({
        "id": "w", "label": "W",
        "backend": {"skillId": "digest", "engine": "gemini"},
        "defaults": {"engine": "gemini"},
        "inputs": {"unit": "parent"},
        "request": {"kind": "skillrunner.job.v1"},
        "hooks": {"applyResult": "a.js"}
    });
    let m = clean(&doc);
    assert_eq!(
        m.value["request"]["create"],
        json!({"skill_id": "digest", "mode": "auto"})
    );
    assert!(m.value.get("backend").is_none() && m.value.get("defaults").is_none());
    assert!(change(&m, "backend-dropped").lossy);
    assert!(change(&m, "defaults-dropped").lossy);
    assert_eq!(
        change(&m, "backend-skill-id").pointer,
        "/request/create/skill_id"
    );
}

#[test]
fn create_engine_model_and_runtime_options_are_dropped() {
    let doc = legacy(json!({"request": {"kind": "skillrunner.job.v1", "create": {
        "skill_id": "s", "engine": "e", "model": "m", "runtime_options": {"x": 1}
    }}}));
    let m = clean(&doc);
    assert_eq!(
        m.value["request"]["create"],
        json!({"skill_id": "s", "mode": "auto"})
    );
    let dropped: Vec<_> = m
        .changes
        .iter()
        .filter(|c| c.rule == "create-engine-dropped")
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(
        dropped,
        [
            "/request/create/engine",
            "/request/create/model",
            "/request/create/runtime_options"
        ]
    );
}

#[test]
fn create_parameters_become_declared_parameters() {
    let doc = legacy(json!({
        "parameters": {"language": {"type": "string", "default": "de-DE"}},
        "request": {"kind": "skillrunner.job.v1", "create": {"skill_id": "s", "parameter": {
            "language": "en-US", "words": 400, "strict": true, "tags": ["a"]
        }}}
    }));
    let m = clean(&doc);
    assert_eq!(
        m.value["parameters"],
        json!({
            "language": {"type": "string", "default": "de-DE"},
            "words": {"type": "number", "default": 400},
            "strict": {"type": "boolean", "default": true},
            "tags": {"type": "array", "default": ["a"]}
        })
    );
    let odd = migrate(
        &legacy(
            json!({"request": {"kind": "skillrunner.job.v1", "create": {"parameter": {"o": {"k": 1}}}}}),
        ),
        false,
    );
    assert_eq!(odd.manual[0].pointer.as_deref(), Some("/parameters/o"));
}

#[test]
fn result_fetch_moves_to_result_fetch_type() {
    let string = clean(&legacy(
        json!({"request": {"kind": "pass-through.run.v1", "result": {"fetch": "bundle"}}}),
    ));
    assert_eq!(string.value["result"], json!({"fetch": {"type": "bundle"}}));
    assert!(string.value["request"].get("result").is_none());
    let object = clean(&legacy(
        json!({"request": {"kind": "pass-through.run.v1", "result": {"fetch": {"type": "result"}}}}),
    ));
    assert_eq!(object.value["result"]["fetch"]["type"], "result");
    let top = clean(&legacy(json!({"result": {"fetch": "result"}})));
    assert_eq!(top.value["result"], json!({"fetch": {"type": "result"}}));
}

#[test]
fn a_missing_trigger_requires_a_selection() {
    let m = clean(&legacy(json!({})));
    assert_eq!(m.value["trigger"], json!({"requiresSelection": true}));
    let kept = clean(&legacy(
        json!({"inputs": {"unit": "workflow"}, "trigger": {"requiresSelection": false}}),
    ));
    assert_eq!(kept.value["trigger"], json!({"requiresSelection": false}));
    assert!(!rules(&kept).contains(&"trigger-default"));
}

#[test]
fn units_become_members_grouped_each() {
    for (unit, source) in [
        ("attachment", "related"),
        ("parent", "selected"),
        ("note", "selected"),
    ] {
        let m = clean(&legacy(json!({"inputs": {"unit": unit}})));
        assert_eq!(
            m.value["inputs"],
            json!({"member": {"kind": unit}, "grouping": {"mode": "each"}})
        );
        assert_eq!(
            m.value["validateSelection"],
            json!({"select": {"policy": "input-member", "source": source}, "filters": []})
        );
        assert_eq!(change(&m, "inputs-unit").lossy, unit == "attachment");
    }
}

#[test]
fn accepts_moves_into_attachment_members_only() {
    let m = clean(&legacy(
        json!({"inputs": {"unit": "attachment", "accepts": {"mime": ["application/pdf"]}}}),
    ));
    assert_eq!(
        m.value["inputs"]["member"],
        json!({"kind": "attachment", "accepts": {"mime": ["application/pdf"]}})
    );
    let parent = clean(&legacy(
        json!({"inputs": {"unit": "parent", "accepts": {"mime": ["application/pdf"]}}}),
    ));
    assert_eq!(parent.value["inputs"]["member"], json!({"kind": "parent"}));
    assert!(change(&parent, "inputs-accepts").lossy);
}

#[test]
fn workflow_units_take_the_whole_selection_unless_the_selector_fixes_the_kind() {
    let m = clean(&legacy(json!({"inputs": {"unit": "workflow"}})));
    assert_eq!(
        m.value["inputs"],
        json!({"member": {"kind": "selection"}, "grouping": {"mode": "all"}})
    );
    assert_eq!(
        m.value["validateSelection"]["select"],
        json!({"policy": "selection"})
    );
    let notes = clean(&legacy(json!({
        "inputs": {"unit": "workflow"},
        "validateSelection": {"select": {"policy": "generated-note-candidates", "unit": "workflow"}, "derive": ["exportCandidates"]}
    })));
    assert_eq!(
        notes.value["inputs"],
        json!({"member": {"kind": "generated-note"}, "grouping": {"mode": "all"}})
    );
    assert_eq!(
        notes.value["validateSelection"],
        json!({"select": {"policy": "generated-note-candidates"}, "filters": []})
    );
    assert!(
        rules(&notes).contains(&"derive-dropped") && rules(&notes).contains(&"select-unit-dropped")
    );
    let image = clean(&legacy(
        json!({"inputs": {"unit": "workflow"}, "validateSelection": {"select": {"policy": "digest-representative-image"}}}),
    ));
    assert_eq!(
        image.value["inputs"]["member"]["kind"],
        "digest-image-target"
    );
}

#[test]
fn no_inputs_take_the_whole_selection_and_say_so() {
    let m = clean(&legacy(json!({"inputs": null})));
    assert_eq!(
        m.value["inputs"],
        json!({"member": {"kind": "selection"}, "grouping": {"mode": "all"}})
    );
    let reported = change(&m, "inputs-default");
    assert!(reported.lossy && reported.message.contains("one unit per item"));
}

#[test]
fn per_parent_becomes_a_candidates_per_parent_filter_with_whole_counts() {
    let m = clean(&legacy(
        json!({"inputs": {"unit": "attachment", "per_parent": {"min": 1.0, "max": 2}}}),
    ));
    assert_eq!(
        m.value["validateSelection"]["filters"],
        json!([{"kind": "candidates-per-parent", "phase": "availability", "counts": {"min": 1, "max": 2}}])
    );
    let fraction = migrate(
        &legacy(json!({"inputs": {"unit": "attachment", "per_parent": {"min": 1.5}}})),
        false,
    );
    assert_eq!(
        fraction.manual[0].pointer.as_deref(),
        Some("/inputs/per_parent/min")
    );
}

#[test]
fn input_unit_selected_parent_and_literature_parent_select_input_members() {
    for (policy, unit, source) in [
        ("input-unit", "note", "selected"),
        ("selected-parent", "parent", "selected"),
        ("literature-parent", "parent", "related"),
    ] {
        let m = clean(&legacy(json!({
            "inputs": {"unit": unit},
            "validateSelection": {"select": {"policy": policy, "unit": unit}}
        })));
        assert_eq!(
            m.value["validateSelection"]["select"],
            json!({"policy": "input-member", "source": source}),
            "{policy}"
        );
        assert_eq!(m.value["inputs"]["member"]["kind"], unit);
    }
    let parent_from_attachment_unit = clean(&legacy(json!({
        "inputs": {"unit": "attachment"},
        "validateSelection": {"select": {"policy": "selected-parent"}}
    })));
    assert_eq!(
        parent_from_attachment_unit.value["inputs"]["member"]["kind"],
        "parent"
    );
}

#[test]
fn pdf_attachment_accepts_pdfs_whose_file_exists() {
    let m = clean(&legacy(json!({
        "inputs": {"unit": "attachment"},
        "validateSelection": {"select": {"policy": "pdf-attachment"}}
    })));
    assert_eq!(
        m.value["inputs"]["member"],
        json!({"kind": "attachment", "accepts": {"mime": ["application/pdf"]}})
    );
    assert_eq!(
        m.value["validateSelection"]["select"],
        json!({"policy": "input-member", "source": "related"})
    );
    assert_eq!(
        m.value["validateSelection"]["filters"],
        json!([{"kind": "source-file-exists", "phase": "availability"}])
    );
    assert!(rules(&m).contains(&"pdf-attachment"));
}

#[test]
fn require_counts_move_under_require_selection() {
    let m = clean(&legacy(json!({"validateSelection": {
        "require": {"counts": {"parents": {"exact": 1}, "notes": {"max": 0.0}}, "allowMixed": false},
        "select": {"policy": "selected-parent"}
    }})));
    assert_eq!(
        m.value["validateSelection"]["require"],
        json!({"selection": {"counts": {"parents": {"exact": 1}, "notes": {"max": 0}}, "allowMixed": false}})
    );
}

#[test]
fn exclusions_become_filters_under_the_selectors_that_applied_them() {
    let doc = legacy(json!({
        "inputs": {"unit": "attachment"},
        "validateSelection": {"select": {"policy": "literature-source"}, "exclude": [
            {"kind": "generated-notes-all", "noteKinds": ["digest", "references"]},
            {"kind": "artifact-exists", "target": "deep-reading-html"},
            {"kind": "artifact-exists", "target": "mineru-markdown"}
        ]}
    }));
    let m = clean(&doc);
    assert_eq!(
        m.value["validateSelection"]["filters"],
        json!([
            {"kind": "generated-note-kinds-absent", "phase": "availability", "noteKinds": ["digest", "references"]},
            {"kind": "artifact-absent", "phase": "availability", "target": "deep-reading-html"},
            {"kind": "artifact-absent", "phase": "availability", "target": "mineru-markdown"}
        ])
    );
    let ignored = clean(&legacy(json!({
        "inputs": {"unit": "attachment"},
        "validateSelection": {"exclude": [{"kind": "artifact-exists", "target": "mineru-markdown"}]}
    })));
    assert_eq!(ignored.value["validateSelection"]["filters"], json!([]));
    assert!(change(&ignored, "exclude").lossy);
}

#[test]
fn translator_exclusions_need_their_parameter_declared() {
    let exclude =
        json!([{"kind": "artifact-exists", "target": "translator-markdown", "parameter": "lang"}]);
    let selection = json!({"select": {"policy": "literature-source"}, "exclude": exclude});
    let declared = clean(&legacy(json!({
        "inputs": {"unit": "attachment"},
        "parameters": {"lang": {"type": "string", "default": "zh-CN"}},
        "validateSelection": selection
    })));
    assert_eq!(
        declared.value["validateSelection"]["filters"],
        json!([{"kind": "artifact-absent", "phase": "execute", "target": "translator-markdown", "parameter": "lang"}])
    );
    let undeclared = migrate(
        &legacy(json!({"inputs": {"unit": "attachment"}, "validateSelection": selection})),
        false,
    );
    assert_eq!(undeclared.manual.len(), 1, "{:#?}", undeclared.manual);
    assert!(
        undeclared.manual[0]
            .message
            .contains("declare parameters.lang")
    );
}

#[test]
fn execution_modes_move_to_the_request() {
    let job = clean(&legacy(json!({
        "provider": "skillrunner",
        "request": {"kind": "skillrunner.job.v1", "create": {"skill_id": "s"}},
        "execution": {"mode": "async", "skillrunner_mode": "interactive", "supportedBackends": ["x"], "timeout_ms": 10}
    })));
    assert_eq!(job.value["request"]["create"]["mode"], "interactive");
    assert_eq!(job.value["execution"], json!({"timeout_ms": 10}));
    let sequence = clean(&legacy(json!({
        "provider": "acp",
        "request": {"kind": "skillrunner.sequence.v1", "sequence": {"steps": [
            {"id": "a", "skill_id": "s"}, {"id": "b", "skill_id": "t", "mode": "interactive"}
        ]}},
        "result": {"final_step_id": "b"},
        "execution": {"skillrunner_mode": "auto"}
    })));
    assert_eq!(
        sequence.value["request"]["sequence"]["steps"][0]["mode"],
        "auto"
    );
    assert_eq!(
        sequence.value["request"]["sequence"]["steps"][1]["mode"],
        "interactive"
    );
    assert!(sequence.value.get("execution").is_none());
}

#[test]
fn a_job_without_a_create_mode_runs_auto() {
    let m = clean(&legacy(
        json!({"provider": "skillrunner", "request": {"kind": "skillrunner.job.v1", "create": {"skill_id": "s"}}}),
    ));
    assert_eq!(
        m.value["request"]["create"],
        json!({"skill_id": "s", "mode": "auto"})
    );
    let with_hook = clean(&legacy(json!({
        "provider": "skillrunner",
        "request": {"kind": "skillrunner.job.v1"},
        "hooks": {"applyResult": "a.mjs", "buildRequest": "b.mjs"}
    })));
    assert!(with_hook.value["request"].get("create").is_none());
}

#[test]
fn legacy_handoffs_become_bindings() {
    let doc = legacy(json!({
        "provider": "acp",
        "request": {"kind": "skillrunner.sequence.v1", "sequence": {"steps": [
            {"id": "a", "skill_id": "s", "mode": "auto"},
            {"id": "b", "skill_id": "t", "mode": "auto", "handoff": {"from_step": "a", "input": {"x": "y"}}}
        ]}},
        "result": {"final_step_id": "b"}
    }));
    let m = clean(&doc);
    assert_eq!(
        m.value["request"]["sequence"]["steps"][1]["handoff"],
        json!({"bindings": [{"kind": "value", "step": "a", "source": "y", "target": "/input/x"}]})
    );
    let mut unsure = doc.clone();
    unsure["request"]["sequence"]["steps"][1]["handoff"] =
        json!({"from_step": "a", "pass_through": true, "parameter": {"p": "q"}});
    let pointers: Vec<_> = migrate(&unsure, false)
        .manual
        .into_iter()
        .filter_map(|m| m.pointer)
        .collect();
    assert!(
        pointers.contains(&"/request/sequence/steps/1/handoff/parameter".to_string()),
        "{pointers:?}"
    );
    assert!(
        pointers.contains(&"/request/sequence/steps/1/handoff/pass_through".to_string()),
        "{pointers:?}"
    );
}

#[test]
fn filter_inputs_is_removed_and_left_to_a_person() {
    let m = migrate(
        &legacy(
            json!({"hooks": {"filterInputs": "hooks/filterInputs.js", "applyResult": "hooks/applyResult.js"}}),
        ),
        false,
    );
    assert_eq!(
        m.value["hooks"],
        json!({"applyResult": "hooks/applyResult.js"})
    );
    assert_eq!(m.manual.len(), 1);
    assert!(
        m.manual[0].message.contains("hooks/filterInputs.js")
            && m.manual[0].message.contains("preflight")
    );
    assert!(crate::manifest::validate_document(&m.value).is_empty());
}

#[test]
fn package_hooks_must_be_modules() {
    let doc = legacy(json!({"hooks": {"applyResult": "hooks/applyResult.js"}}));
    assert!(migrate(&doc, false).manual.is_empty());
    let packaged = migrate(&doc, true);
    assert!(packaged.manual[0].message.contains("must be .mjs"));
}

#[test]
fn what_stays_invalid_is_listed_for_a_person() {
    let m = migrate(
        &legacy(json!({"trigger": {"requiresSelection": false}})),
        false,
    );
    assert!(
        m.manual
            .iter()
            .any(|p| p.message.starts_with("still invalid after migration: ")),
        "{:#?}",
        m.manual
    );
}

#[test]
fn unknown_policies_are_left_to_a_person() {
    let m = migrate(
        &legacy(json!({"validateSelection": {"select": {"policy": "newest"}}})),
        false,
    );
    assert_eq!(
        m.manual[0].pointer.as_deref(),
        Some("/validateSelection/select/policy")
    );
}

#[test]
fn v2_and_non_objects_come_back_unchanged() {
    let v2 = json!({"schemaVersion": 2, "id": "w"});
    let m = migrate(&v2, false);
    assert_eq!(
        (m.generation, m.value, m.changes.len()),
        (Generation::V2, v2, 0)
    );
    assert!(migrate(&json!([1]), false).changes.is_empty());
}
