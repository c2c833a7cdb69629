use serde_json::{Value, json};

use super::tests::{detail, merged, table};
use super::*;

const JOB: &str = "skillrunner.job.v1";
const SEQUENCE: &str = "skillrunner.sequence.v1";

/// The smallest valid job payload.
fn job() -> Value {
    json!({"kind": JOB, "skill_id": "digest"})
}

/// Upload fields mapping the single key `a` to `input.a = value`.
fn upload_a(value: Value) -> Value {
    json!({"upload_files": [{"key": "a", "path": "/p"}], "input": {"a": value}})
}

#[test]
fn job_skill_environment_workspace_and_mode() {
    let env = |env: Value| json!({"runtime_options": {"env": env}});
    let workspace = |ws: Value| json!({"runtime_options": {"workspace": ws}});
    let bad_mode = Some("payload.runtime_options.execution_mode must be auto or interactive");
    table(
        JOB,
        &job(),
        &[
            (
                json!({"skill_id": " "}),
                Some("payload.skill_id must be non-empty string"),
            ),
            (
                json!({"skill_id": 3}),
                Some("payload.skill_id must be non-empty string"),
            ),
            (json!({"skill_source": " installed "}), None),
            (json!({"skill_source": "local-package"}), None),
            (
                json!({"skill_source": "backend"}),
                Some("payload.skill_source must be local-package or installed when provided"),
            ),
            (
                json!({"skill_source": null}),
                Some("payload.skill_source must be local-package or installed when provided"),
            ),
            (json!({"runtime_options": "x"}), None),
            (json!({"runtime_options": [1]}), None),
            (env(json!({"A": "1"})), None),
            (
                env(json!({" ": "v"})),
                Some("payload.runtime_options.env keys must be non-empty strings"),
            ),
            (
                env(json!({"A": ""})),
                Some("payload.runtime_options.env.A must be non-empty string"),
            ),
            (
                env(json!({"A": 1})),
                Some("payload.runtime_options.env.A must be non-empty string"),
            ),
            (
                env(json!([])),
                Some("payload.runtime_options.env must be object"),
            ),
            (
                workspace(json!({"mode": " reuse ", "request_id": "r1"})),
                None,
            ),
            (
                workspace(json!({"mode": "new", "request_id": "r"})),
                Some("payload.runtime_options.workspace.mode must be reuse"),
            ),
            (
                workspace(json!({"mode": "reuse"})),
                Some("payload.runtime_options.workspace.request_id must be non-empty string"),
            ),
            (
                workspace(json!("reuse")),
                Some("payload.runtime_options.workspace must be object when provided"),
            ),
            (
                json!({"mode": "auto"}),
                Some(
                    "payload.mode must be normalized to runtime_options.execution_mode before \
                     provider dispatch",
                ),
            ),
            (
                json!({"runtime_options": {"execution_mode": " interactive "}}),
                None,
            ),
            (json!({"runtime_options": {"execution_mode": ""}}), None),
            (json!({"runtime_options": {"execution_mode": null}}), None),
            (
                json!({"runtime_options": {"execution_mode": "turbo"}}),
                bad_mode,
            ),
            (json!({"fetch_type": "zip"}), None),
        ],
    );
}

#[test]
fn job_rules_run_in_the_reference_order() {
    let cases = [
        (
            json!({"skill_source": "x", "runtime_options": {"env": []}}),
            "payload.skill_source must be local-package or installed when provided",
        ),
        (
            json!({"mode": "auto", "runtime_options": {"env": [], "workspace": 1}}),
            "payload.runtime_options.env must be object",
        ),
        (
            json!({"mode": "auto", "runtime_options": {"workspace": 1}}),
            "payload.runtime_options.workspace must be object when provided",
        ),
        (
            json!({"upload_files": 1, "runtime_options": {"execution_mode": "x"}}),
            "payload.runtime_options.execution_mode must be auto or interactive",
        ),
    ];
    for (extra, expected) in cases {
        let payload = merged(&job(), &extra);
        assert_eq!(detail(JOB, &payload).as_deref(), Some(expected), "{extra}");
    }
}

#[test]
fn builtin_pi_admits_execution_modes_itself() {
    let payload = merged(
        &job(),
        &json!({"runtime_options": {"execution_mode": "turbo"}}),
    );
    let detail_for = |provider: &str| {
        check_payload(JOB, &payload, provider, provider)
            .err()
            .and_then(|e| e.detail)
    };
    let refused = "payload.runtime_options.execution_mode must be auto or interactive";
    assert_eq!(detail_for("skillrunner").as_deref(), Some(refused));
    assert_eq!(detail_for(" builtin-pi "), None);
    assert_eq!(detail(JOB, &payload).as_deref(), Some(refused));
    let top_level = merged(&job(), &json!({"mode": "turbo"}));
    let err = check_payload(JOB, &top_level, "builtin-pi", "builtin-pi").err();
    assert_eq!(
        err.and_then(|e| e.detail).as_deref(),
        Some(
            "payload.mode must be normalized to runtime_options.execution_mode before provider \
             dispatch"
        )
    );
}

#[test]
fn job_upload_mapping() {
    let not_declared = Some("payload.input.valid_tags must be declared for upload mapping");
    let under_root = Some("payload.input.a must be relative path under uploads root");
    let dots = Some("payload.input.a must not contain '.' or '..' path segments");
    let empty = Some("payload.input.a must be non-empty upload relative path");
    let no_prefix = Some("payload.input.a must not include uploads/ prefix");
    table(
        JOB,
        &job(),
        &[
            (json!({"upload_files": []}), None),
            (
                json!({"upload_files": {}}),
                Some("payload.upload_files must be array when provided"),
            ),
            (
                json!({"upload_files": null}),
                Some("payload.upload_files must be array when provided"),
            ),
            (
                json!({"upload_files": [{"key": "a", "path": "/p"}], "input": []}),
                Some("payload.input must be object when payload.upload_files is non-empty"),
            ),
            (
                json!({"upload_files": ["x"], "input": {}}),
                Some("payload.upload_files[0] must be object"),
            ),
            (
                json!({"upload_files": [{"path": "/p"}], "input": {}}),
                Some("payload.upload_files[0].key must be non-empty string"),
            ),
            (
                json!({"upload_files": [{"key": "a", "path": " "}], "input": {}}),
                Some("payload.upload_files[0].path must be non-empty string"),
            ),
            (
                json!({"input": {"metadata": {}},
                    "upload_files": [{"key": "valid_tags", "path": "D:/x.yaml"}]}),
                not_declared,
            ),
            (
                json!({"upload_files": [{"key": " a ", "path": "/p"}], "input": {"a": "x"}}),
                None,
            ),
            (upload_a(json!("inputs/a/x.pdf")), None),
            (upload_a(json!(".//inputs/a/x.pdf")), None),
            (upload_a(json!(5)), None),
            (upload_a(json!("C:x")), None),
            (upload_a(json!("")), empty),
            (upload_a(json!(null)), empty),
            (upload_a(json!("./")), empty),
            (upload_a(json!("C:/x")), under_root),
            (upload_a(json!("c:\\x")), under_root),
            (upload_a(json!("/abs/x")), under_root),
            (upload_a(json!("uploads/x")), no_prefix),
            (upload_a(json!("./uploads/x")), no_prefix),
            (upload_a(json!("x/../y")), dots),
            (upload_a(json!("inputs/./x")), dots),
            (upload_a(json!("././x")), dots),
            (
                json!({"upload_files": [{"key": "a", "path": "/1"}, {"key": "a", "path": "/2"}],
                    "input": {"a": "inputs/x"}}),
                Some("payload.upload_files contains duplicated key: a"),
            ),
            (
                json!({"upload_files": [{"key": "a", "path": "/1"}, {"key": "b", "path": "/2"}],
                    "input": {"a": "inputs/x", "b": "inputs//x"}}),
                Some("payload.input maps duplicated upload target path: inputs/x"),
            ),
            (
                json!({"input": {"metadata": {"itemKey": "AAA111"}, "tags": ["A", "B"],
                        "md_path": "inputs/md_path/example.md"},
                    "upload_files": [{"key": "md_path", "path": "/tmp/example.md"}]}),
                None,
            ),
            (json!({"input": "inline-text"}), None),
            (json!({"input": ["A", "B"]}), None),
        ],
    );
}

/// A two-step sequence whose first step gets the fields of `extra`.
fn sequence_with_step(extra: Value) -> Value {
    let first = merged(
        &json!({"id": "a", "skill_id": "s1", "mode": "auto"}),
        &extra,
    );
    json!({"kind": SEQUENCE, "final_step_id": "b",
        "steps": [first, {"id": "b", "skill_id": "s2", "mode": "interactive",
            "workspace": "reuse-workflow"}]})
}

/// The detail for a sequence whose first step has one handoff binding.
fn binding_detail(binding: Value) -> Option<String> {
    let payload = sequence_with_step(json!({"handoff": {"bindings": [binding]}}));
    detail(SEQUENCE, &payload)
}

#[test]
fn sequence_steps_and_final_step() {
    let mut without_final = sequence_with_step(json!({}));
    if let Some(payload) = without_final.as_object_mut() {
        payload.remove("final_step_id");
    }
    assert_eq!(
        detail(SEQUENCE, &without_final).as_deref(),
        Some("payload.final_step_id must be non-empty string")
    );
    let final_missing = Some("payload.final_step_id must be non-empty string");
    let step0 = |text: &str| format!("payload.steps[0].{text}");
    table(
        SEQUENCE,
        &sequence_with_step(json!({})),
        &[
            (
                json!({"steps": []}),
                Some("payload.steps must be non-empty array"),
            ),
            (
                json!({"steps": {}}),
                Some("payload.steps must be non-empty array"),
            ),
            (json!({"final_step_id": " "}), final_missing),
            (json!({"final_step_id": 5}), final_missing),
            (json!({"final_step_id": " b "}), None),
            (
                json!({"final_step_id": "z"}),
                Some("payload.final_step_id must match a declared step id"),
            ),
            (
                json!({"steps": [1]}),
                Some("payload.steps[0] must be object"),
            ),
            (
                json!({"steps": [{"skill_id": "s", "mode": "auto"}]}),
                Some("payload.steps[0].id must be non-empty string"),
            ),
            (
                json!({"steps": [{"id": "b", "skill_id": "s", "mode": "auto"},
                    {"id": " b", "skill_id": "s", "mode": "auto"}]}),
                Some("payload.steps contains duplicated id: b"),
            ),
            (
                json!({"steps": [{"id": 7, "skill_id": "s", "mode": "auto"}],
                    "final_step_id": "7"}),
                None,
            ),
            (json!({"fetch_type": "zip"}), None),
            (json!({"runtime_options": "x"}), None),
            (
                json!({"runtime_options": {"env": {"A": 1}}}),
                Some("payload.runtime_options.env.A must be non-empty string"),
            ),
            (
                json!({"runtime_options": {"env": []}, "steps": [1]}),
                Some("payload.runtime_options.env must be object"),
            ),
        ],
    );
    let rows = [
        (
            json!({"skill_id": ""}),
            Some(step0("skill_id must be non-empty string")),
        ),
        (
            json!({"mode": "batch"}),
            Some(step0("mode must be auto or interactive")),
        ),
        (
            json!({"mode": null}),
            Some(step0("mode must be auto or interactive")),
        ),
        (json!({"mode": " interactive "}), None),
        (
            json!({"workspace": "old"}),
            Some(step0("workspace must be new or reuse-workflow")),
        ),
        (
            json!({"workspace": null}),
            Some(step0("workspace must be new or reuse-workflow")),
        ),
        (json!({"workspace": " new ", "fetch_type": "result"}), None),
        (
            json!({"fetch_type": "zip"}),
            Some(step0("fetch_type must be bundle or result when provided")),
        ),
        (
            json!({"fetch_type": " bundle "}),
            Some(step0("fetch_type must be bundle or result when provided")),
        ),
    ];
    for (extra, expected) in rows {
        let got = detail(SEQUENCE, &sequence_with_step(extra.clone()));
        assert_eq!(got, expected, "{extra}");
    }
}

#[test]
fn sequence_handoff_bindings() {
    let at = |text: &str| Some(format!("payload.steps[0].handoff.bindings[0].{text}"));
    let rows = [
        (json!({"kind": "value", "target": "/parameter/lang"}), None),
        (
            json!({"kind": "file", "target": "/input/notes", "step": "b", "source": "/o.md",
                "required": true}),
            None,
        ),
        (json!({"kind": "file", "target": "/input/a/"}), None),
        (json!({"kind": "file", "target": " /input//a "}), None),
        (
            json!("x"),
            Some("payload.steps[0].handoff.bindings[0] must be object".into()),
        ),
        (
            json!({"kind": "link", "target": "/input/x"}),
            at("kind must be value or file"),
        ),
        (
            json!({"kind": " file", "target": "/input/x"}),
            at("kind must be value or file"),
        ),
        (
            json!({"kind": "value", "target": null}),
            at("target must be non-empty string"),
        ),
        (
            json!({"kind": "value", "target": 5}),
            at("target must start with /input/ or /parameter/"),
        ),
        (
            json!({"kind": "value", "target": "summary"}),
            at("target must start with /input/ or /parameter/"),
        ),
        (
            json!({"kind": "file", "target": "/parameter/a"}),
            at("target for file handoff must be /input/<key>"),
        ),
        (
            json!({"kind": "file", "target": "/input/a/b"}),
            at("target for file handoff must be /input/<key>"),
        ),
        (
            json!({"kind": "value", "target": "/input/x", "source": ""}),
            at("source must be non-empty string when provided"),
        ),
        (
            json!({"kind": "value", "target": "/input/x", "step": null}),
            at("step must be non-empty string when provided"),
        ),
        (
            json!({"kind": "value", "target": "/input/x", "required": "yes"}),
            at("required must be boolean when provided"),
        ),
        (
            json!({"kind": "value", "target": "/input/x", "step": "zzz"}),
            at("step must match a declared step id"),
        ),
    ];
    for (binding, expected) in rows {
        assert_eq!(binding_detail(binding.clone()), expected, "{binding}");
    }
    let empty = Some("payload.steps[0].handoff.bindings must be non-empty array".to_string());
    for handoff in [json!({}), json!({"bindings": []}), json!({"bindings": {}})] {
        let payload = sequence_with_step(json!({"handoff": handoff}));
        assert_eq!(detail(SEQUENCE, &payload), empty, "{handoff}");
    }
    let payload = sequence_with_step(json!({"handoff": []}));
    assert_eq!(
        detail(SEQUENCE, &payload).as_deref(),
        Some("payload.steps[0].handoff must be object")
    );
}

#[test]
fn final_step_is_checked_before_binding_steps() {
    let unknown_step = json!({"handoff": {"bindings": [{"kind": "value", "target": "/input/a",
        "step": "zzz"}]}});
    let payload = merged(
        &sequence_with_step(unknown_step),
        &json!({"final_step_id": "z"}),
    );
    assert_eq!(
        detail(SEQUENCE, &payload).as_deref(),
        Some("payload.final_step_id must match a declared step id")
    );
    let later_step_fails = json!({"kind": SEQUENCE, "final_step_id": "a", "steps": [
        {"id": "a", "skill_id": "s", "mode": "auto", "handoff": {"bindings": [
            {"kind": "value", "target": "/input/a", "step": "zzz"}]}},
        {"id": "b", "skill_id": "", "mode": "auto"}]});
    assert_eq!(
        detail(SEQUENCE, &later_step_fails).as_deref(),
        Some("payload.steps[1].skill_id must be non-empty string")
    );
}

#[test]
fn sequence_short_circuit_and_apply_result() {
    let at = |field: &str, text: &str| Some(format!("payload.steps[0].{field}{text}"));
    let short = |value: Value| json!({"short_circuit": value});
    let when = |when: Value| short(json!({"when": when, "result": "step_output"}));
    let rows = [
        (when(json!({"path": "/s", "equals": null})), None),
        (when(json!({"path": "/s", "equals": 3})), None),
        (when(json!({"path": "/s", "equals": false})), None),
        (
            when(json!({"path": "p"})),
            at("short_circuit", ".when.equals is required"),
        ),
        (
            when(json!({"path": "p", "equals": [1]})),
            at(
                "short_circuit",
                ".when.equals must be string, number, boolean, or null",
            ),
        ),
        (
            when(json!({"equals": 1})),
            at("short_circuit", ".when.path must be non-empty string"),
        ),
        (
            short(json!({"result": "step_output"})),
            at("short_circuit", ".when must be object"),
        ),
        (short(json!("x")), at("short_circuit", " must be object")),
        (
            short(json!({"when": {"path": "/s", "equals": 1}, "result": "x"})),
            at("short_circuit", ".result must be step_output"),
        ),
        (
            json!({"apply_result": {"workflow_id": "w", "on_failure": "fail_sequence"}}),
            None,
        ),
        (
            json!({"apply_result": {"workflow_id": ""}}),
            at(
                "apply_result",
                ".workflow_id must be non-empty string when provided",
            ),
        ),
        (
            json!({"apply_result": {"on_failure": "stop"}}),
            at(
                "apply_result",
                ".on_failure must be continue or fail_sequence when provided",
            ),
        ),
        (
            json!({"apply_result": []}),
            at("apply_result", " must be object"),
        ),
    ];
    for (extra, expected) in rows {
        let got = detail(SEQUENCE, &sequence_with_step(extra.clone()));
        assert_eq!(got, expected, "{extra}");
    }
}
