use serde_json::{Value, json};

use super::*;
use crate::request::error::ContractCategory;

fn merged(base: &Value, extra: Value) -> Value {
    let mut out = base.clone();
    if let (Some(out), Some(extra)) = (out.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

/// Runs `(extra fields, expected detail)` rows against `base` (valid on its own) under the
/// payload-only check.
fn table(kind: &str, base: Value, rows: &[(Value, Option<&str>)]) {
    assert_eq!(
        check_payload_contract(kind, &base),
        Ok(()),
        "base of {kind}"
    );
    for (extra, expected) in rows {
        let payload = merged(&base, extra.clone());
        let got = check_payload_contract(kind, &payload);
        match expected {
            None => assert_eq!(got, Ok(()), "{kind}: {extra}"),
            Some(detail) => {
                let err = got
                    .err()
                    .unwrap_or_else(|| panic!("{kind}: {extra} passed"));
                assert_eq!(err.category, ContractCategory::RequestPayloadInvalid);
                assert_eq!(err.reason, ContractReason::InvalidRequestPayload);
                assert_eq!(err.detail.as_deref(), Some(*detail), "{kind}: {extra}");
            }
        }
    }
}

#[test]
fn common_rules_apply_to_every_kind() {
    for kind in RequestKind::ALL {
        let name = kind.as_str();
        let err = |payload: Value| check_payload_contract(name, &payload).err();
        assert_eq!(
            err(json!([])).and_then(|e| e.detail),
            Some("payload must be an object".into())
        );
        assert_eq!(
            err(json!({"kind": "other"})).and_then(|e| e.detail),
            Some(format!("kind must be {name}"))
        );
    }
}

#[test]
fn pass_through_requires_selection_context() {
    table(
        "pass-through.run.v1",
        json!({"kind": "pass-through.run.v1", "selectionContext": null}),
        &[(json!({"parameter": {}}), None)],
    );
    let payload = json!({"kind": "pass-through.run.v1"});
    let err = check_payload_contract("pass-through.run.v1", &payload).err();
    assert_eq!(
        err.and_then(|e| e.detail).as_deref(),
        Some("selectionContext is required")
    );
}

#[test]
fn skillrunner_job_rules() {
    let base = json!({"kind": "skillrunner.job.v1", "skill_id": "digest"});
    let upload = |input: Value| json!({"upload_files": [{"key": "source", "path": "/tmp/a.pdf"}], "input": input});
    table(
        "skillrunner.job.v1",
        base,
        &[
            (
                json!({"skill_id": " "}),
                Some("skill_id must be a non-empty string"),
            ),
            (
                json!({"skill_id": 3}),
                Some("skill_id must be a non-empty string"),
            ),
            (json!({"skill_source": "installed"}), None),
            (json!({"skill_source": "local-package"}), None),
            (
                json!({"skill_source": "remote"}),
                Some("skill_source must be one of local-package, installed"),
            ),
            (
                json!({"mode": "auto"}),
                Some("mode is not allowed at the top level (use runtime_options.execution_mode)"),
            ),
            (
                json!({"runtime_options": 1}),
                Some("runtime_options must be an object"),
            ),
            (
                json!({"runtime_options": {"execution_mode": "interactive"}}),
                None,
            ),
            (
                json!({"runtime_options": {"execution_mode": "batch"}}),
                Some("runtime_options.execution_mode must be one of auto, interactive"),
            ),
            (json!({"runtime_options": {"env": {"A": "1"}}}), None),
            (
                json!({"runtime_options": {"env": {"A": ""}}}),
                Some("runtime_options.env.A must be a non-empty string"),
            ),
            (
                json!({"runtime_options": {"env": {"A": 1}}}),
                Some("runtime_options.env.A must be a non-empty string"),
            ),
            (
                json!({"runtime_options": {"env": []}}),
                Some("runtime_options.env must be an object"),
            ),
            (
                json!({"runtime_options": {"workspace": {"mode": "reuse", "request_id": "r1"}}}),
                None,
            ),
            (
                json!({"runtime_options": {"workspace": {"mode": "new", "request_id": "r1"}}}),
                Some("runtime_options.workspace.mode must be one of reuse"),
            ),
            (
                json!({"runtime_options": {"workspace": {"mode": "reuse"}}}),
                Some("runtime_options.workspace.request_id must be a non-empty string"),
            ),
            (json!({"fetch_type": "result"}), None),
            (
                json!({"fetch_type": "zip"}),
                Some("fetch_type must be one of bundle, result"),
            ),
            (json!({"upload_files": []}), None),
            (
                json!({"upload_files": {}}),
                Some("upload_files must be an array"),
            ),
            (
                json!({"upload_files": [{"key": "k", "path": "/p"}]}),
                Some("input must be an object when upload_files is non-empty"),
            ),
            (
                json!({"upload_files": ["x"], "input": {}}),
                Some("upload_files[0] must be an object"),
            ),
            (
                json!({"upload_files": [{"path": "/p"}], "input": {}}),
                Some("upload_files[0].key must be a non-empty string"),
            ),
            (
                json!({"upload_files": [{"key": "k"}], "input": {"k": "inputs/k/a"}}),
                Some("upload_files[0].path must be a non-empty string"),
            ),
            (upload(json!({"source": "inputs/source/a.pdf"})), None),
            (upload(json!({"source": "./inputs/source/a.pdf"})), None),
            (
                upload(json!({})),
                Some("input.source must be a non-empty upload-relative path"),
            ),
            (
                upload(json!({"source": "/abs/a.pdf"})),
                Some("input.source must be a relative path"),
            ),
            (
                upload(json!({"source": "C:/a.pdf"})),
                Some("input.source must be a relative path"),
            ),
            (
                upload(json!({"source": "c:\\a.pdf"})),
                Some("input.source must be a relative path"),
            ),
            (
                upload(json!({"source": "uploads/inputs/a.pdf"})),
                Some("input.source must not start with uploads/"),
            ),
            (
                upload(json!({"source": "inputs/../a.pdf"})),
                Some("input.source must not contain '.' or '..' segments"),
            ),
            (
                upload(json!({"source": "inputs/./a.pdf"})),
                Some("input.source must not contain '.' or '..' segments"),
            ),
            (
                json!({"upload_files": [{"key": "a", "path": "/1"}, {"key": "a", "path": "/2"}],
                    "input": {"a": "inputs/a/x"}}),
                Some("upload_files[1].key duplicated: a"),
            ),
            (
                json!({"upload_files": [{"key": "a", "path": "/1"}, {"key": "b", "path": "/2"}],
                    "input": {"a": "inputs/x", "b": "inputs//x"}}),
                Some("input.b duplicates upload path inputs/x"),
            ),
        ],
    );
}

#[test]
fn skillrunner_sequence_rules() {
    let base = json!({"kind": "skillrunner.sequence.v1", "final_step_id": "b", "steps": [
        {"id": "a", "skill_id": "s1", "mode": "auto"},
        {"id": "b", "skill_id": "s2", "mode": "interactive", "workspace": "reuse-workflow"}]});
    let step = |extra: Value| {
        let mut step = json!({"id": "a", "skill_id": "s1", "mode": "auto"});
        if let (Some(step), Some(extra)) = (step.as_object_mut(), extra.as_object()) {
            step.extend(extra.clone());
        }
        json!({"steps": [step, {"id": "b", "skill_id": "s2", "mode": "auto"}]})
    };
    let binding = |b: Value| step(json!({"handoff": {"bindings": [b]}}));
    table(
        "skillrunner.sequence.v1",
        base,
        &[
            (
                json!({"steps": []}),
                Some("steps must be a non-empty array"),
            ),
            (
                json!({"steps": {}}),
                Some("steps must be a non-empty array"),
            ),
            (json!({"steps": [1]}), Some("steps[0] must be an object")),
            (
                json!({"steps": [{"id": "a", "skill_id": "s", "mode": "auto"},
                    {"id": "a", "skill_id": "s", "mode": "auto"}]}),
                Some("steps[1].id duplicated: a"),
            ),
            (
                json!({"steps": [{"skill_id": "s", "mode": "auto"}]}),
                Some("steps[0].id must be a non-empty string"),
            ),
            (
                step(json!({"skill_id": ""})),
                Some("steps[0].skill_id must be a non-empty string"),
            ),
            (
                step(json!({"mode": "batch"})),
                Some("steps[0].mode must be one of auto, interactive"),
            ),
            (
                json!({"steps": [{"id": "a", "skill_id": "s"}]}),
                Some("steps[0].mode must be one of auto, interactive"),
            ),
            (
                step(json!({"workspace": "old"})),
                Some("steps[0].workspace must be one of new, reuse-workflow"),
            ),
            (
                step(json!({"workspace": "new", "fetch_type": "result"})),
                None,
            ),
            (
                step(json!({"fetch_type": "zip"})),
                Some("steps[0].fetch_type must be one of bundle, result"),
            ),
            (
                binding(json!({"kind": "value", "target": "/parameter/lang", "value": "en"})),
                None,
            ),
            (
                binding(
                    json!({"kind": "file", "target": "/input/notes", "step": "b",
                    "source": "/out.md", "required": true}),
                ),
                None,
            ),
            (
                binding(json!({"kind": "link", "target": "/input/x"})),
                Some("steps[0].handoff.bindings[0].kind must be one of value, file"),
            ),
            (
                binding(json!({"kind": "value", "target": "summary"})),
                Some("steps[0].handoff.bindings[0].target must start with /input/ or /parameter/"),
            ),
            (
                binding(json!({"kind": "file", "target": "/parameter/x"})),
                Some("steps[0].handoff.bindings[0].target of a file binding must be /input/<key>"),
            ),
            (
                binding(json!({"kind": "file", "target": "/input/a/b"})),
                Some("steps[0].handoff.bindings[0].target of a file binding must be /input/<key>"),
            ),
            (
                binding(json!({"kind": "value", "target": "/input/x", "source": ""})),
                Some("steps[0].handoff.bindings[0].source must be a non-empty string"),
            ),
            (
                binding(json!({"kind": "value", "target": "/input/x", "step": ""})),
                Some("steps[0].handoff.bindings[0].step must be a non-empty string"),
            ),
            (
                binding(json!({"kind": "value", "target": "/input/x", "required": "yes"})),
                Some("steps[0].handoff.bindings[0].required must be a boolean"),
            ),
            (
                binding(json!({"kind": "value", "target": "/input/x", "step": "zzz"})),
                Some("steps[0].handoff.bindings[0].step must name a step: zzz"),
            ),
            (
                step(json!({"handoff": {"bindings": {}}})),
                Some("steps[0].handoff.bindings must be an array"),
            ),
            (
                step(
                    json!({"short_circuit": {"when": {"path": "/s", "equals": null},
                    "result": "step_output"}}),
                ),
                None,
            ),
            (
                step(
                    json!({"short_circuit": {"when": {"path": "/s", "equals": 3},
                    "result": "step_output"}}),
                ),
                None,
            ),
            (
                step(
                    json!({"short_circuit": {"when": {"path": "/s", "equals": [1]},
                    "result": "step_output"}}),
                ),
                Some("steps[0].short_circuit.when.equals must be a scalar or null"),
            ),
            (
                step(json!({"short_circuit": {"when": {"path": "/s"}, "result": "step_output"}})),
                Some("steps[0].short_circuit.when.equals must be a scalar or null"),
            ),
            (
                step(json!({"short_circuit": {"when": {"equals": 1}, "result": "step_output"}})),
                Some("steps[0].short_circuit.when.path must be a non-empty string"),
            ),
            (
                step(json!({"short_circuit": {"result": "step_output"}})),
                Some("steps[0].short_circuit.when must be an object"),
            ),
            (
                step(
                    json!({"short_circuit": {"when": {"path": "/s", "equals": 1}, "result": "x"}}),
                ),
                Some("steps[0].short_circuit.result must be one of step_output"),
            ),
            (
                step(json!({"apply_result": {"workflow_id": "w", "on_failure": "fail_sequence"}})),
                None,
            ),
            (
                step(json!({"apply_result": {"workflow_id": ""}})),
                Some("steps[0].apply_result.workflow_id must be a non-empty string"),
            ),
            (
                step(json!({"apply_result": {"on_failure": "stop"}})),
                Some("steps[0].apply_result.on_failure must be one of continue, fail_sequence"),
            ),
            (
                json!({"fetch_type": "zip"}),
                Some("fetch_type must be one of bundle, result"),
            ),
            (
                json!({"final_step_id": "c"}),
                Some("final_step_id must name a step"),
            ),
        ],
    );
}

#[test]
fn generic_http_rules() {
    table(
        "generic-http.request.v1",
        json!({"kind": "generic-http.request.v1", "request": {"method": "POST", "path": "/x"}}),
        &[
            (json!({"request": []}), Some("request must be an object")),
            (
                json!({"request": {"path": "/x"}}),
                Some("request.method must be a non-empty string"),
            ),
            (
                json!({"request": {"method": "GET", "path": ""}}),
                Some("request.path must be a non-empty string"),
            ),
        ],
    );
    table(
        "generic-http.steps.v1",
        json!({"kind": "generic-http.steps.v1", "steps": [{"id": "a"}]}),
        &[
            (
                json!({"steps": []}),
                Some("steps must be a non-empty array"),
            ),
            (
                json!({"steps": null}),
                Some("steps must be a non-empty array"),
            ),
        ],
    );
}

#[test]
fn acp_rules() {
    table(
        "acp.prompt.v1",
        json!({"kind": "acp.prompt.v1", "message": "hi"}),
        &[
            (
                json!({"message": ""}),
                Some("message must be a non-empty string"),
            ),
            (json!({"hostContext": {"a": 1}}), None),
            (
                json!({"hostContext": "x"}),
                Some("hostContext must be an object"),
            ),
        ],
    );
    table(
        "acp.skill.run.v1",
        json!({"kind": "acp.skill.run.v1", "skill_id": "s"}),
        &[
            (
                json!({"skill_id": null}),
                Some("skill_id must be a non-empty string"),
            ),
            (
                json!({"upload_files": []}),
                Some("upload_files is not allowed for acp.skill.run.v1"),
            ),
            (
                json!({"runtime_options": {"workspace": {"mode": "new", "workflow_run_id": "w"}}}),
                None,
            ),
            (
                json!({"runtime_options": {"workflow_workspace": {"mode": "reuse",
                    "workflow_run_id": "w"}}}),
                None,
            ),
            (
                json!({"runtime_options": {"workspace": {"mode": "old", "workflow_run_id": "w"}}}),
                Some("runtime_options.workspace.mode must be one of new, reuse"),
            ),
            (
                json!({"runtime_options": {"workflow_workspace": {"mode": "new"}}}),
                Some(
                    "runtime_options.workflow_workspace.workflow_run_id must be a non-empty string",
                ),
            ),
            (json!({"input": {"source": "/home/u/a.pdf", "n": 3}}), None),
            (
                json!({"input": {"source": "inputs/source/a.pdf"}}),
                Some("input.source must be an absolute local path, not an upload-relative path"),
            ),
            (
                json!({"input": {"source": "./uploads/a.pdf"}}),
                Some("input.source must be an absolute local path, not an upload-relative path"),
            ),
        ],
    );
}

#[test]
fn kind_resolution_and_backend_compatibility() {
    let payloads = |kind: &str| match kind {
        "pass-through.run.v1" => json!({"kind": kind, "selectionContext": {}}),
        "skillrunner.job.v1" | "acp.skill.run.v1" => json!({"kind": kind, "skill_id": "s"}),
        "skillrunner.sequence.v1" => {
            json!({"kind": kind, "steps": [{"id": "a", "skill_id": "s", "mode": "auto"}]})
        }
        "generic-http.request.v1" => {
            json!({"kind": kind, "request": {"method": "GET", "path": "/"}})
        }
        "generic-http.steps.v1" => json!({"kind": kind, "steps": [{}]}),
        _ => json!({"kind": kind, "message": "m"}),
    };
    let accepted = [
        ("pass-through.run.v1", vec!["pass-through"]),
        ("skillrunner.job.v1", vec!["skillrunner", "builtin-pi"]),
        ("skillrunner.sequence.v1", vec!["acp", "skillrunner"]),
        ("generic-http.request.v1", vec!["generic-http"]),
        ("generic-http.steps.v1", vec!["generic-http"]),
        ("acp.prompt.v1", vec!["acp"]),
        ("acp.skill.run.v1", vec!["acp"]),
    ];
    let backends = [
        "pass-through",
        "skillrunner",
        "builtin-pi",
        "acp",
        "generic-http",
    ];
    for (kind, accepting) in accepted {
        for backend in backends {
            let got = check_payload(kind, &payloads(kind), backend, backend);
            if accepting.contains(&backend) {
                assert_eq!(got, Ok(()), "{kind} on {backend}");
            } else {
                let err = got.err().unwrap_or_else(|| panic!("{kind} on {backend}"));
                assert_eq!(err.reason, ContractReason::BackendTypeMismatch);
                assert_eq!(err.category, ContractCategory::ProviderBackendMismatch);
                assert_eq!(
                    err.detail,
                    Some(format!("expected backendType={}", accepting.join("|")))
                );
            }
        }
    }
}

#[test]
fn provider_mismatch_and_kind_errors() {
    let payload = json!({"kind": "generic-http.steps.v1", "steps": [{}]});
    let err = check_payload("generic-http.steps.v1", &payload, "generic-http", "acp").err();
    let err = err.unwrap_or_else(|| panic!("provider mismatch passed"));
    assert_eq!(err.category, ContractCategory::ProviderContractError);
    assert_eq!(err.reason, ContractReason::ProviderTypeMismatch);
    assert_eq!(err.provider_id, "acp");

    let cases = [
        (
            " ",
            ContractReason::RequestKindMissing,
            Some("requestKind is required"),
        ),
        ("made.up.v1", ContractReason::UnsupportedRequestKind, None),
        (
            "workflow.preflight.short-circuit.v1",
            ContractReason::UnsupportedRequestKind,
            Some("synthetic request kinds are never dispatched"),
        ),
        (
            "workflow.preflight.aggregate.v1",
            ContractReason::UnsupportedRequestKind,
            Some("synthetic request kinds are never dispatched"),
        ),
    ];
    for (kind, reason, detail) in cases {
        let err = check_payload(kind, &json!({"kind": kind}), "acp", "acp").err();
        let err = err.unwrap_or_else(|| panic!("{kind} passed"));
        assert_eq!(
            err.category,
            ContractCategory::RequestKindUnsupported,
            "{kind}"
        );
        assert_eq!(err.reason, reason, "{kind}");
        assert_eq!(err.detail.as_deref(), detail, "{kind}");
    }
}

#[test]
fn payload_errors_carry_kind_backend_and_provider() {
    let payload = json!({"kind": "skillrunner.job.v1"});
    let err = check_payload(" skillrunner.job.v1 ", &payload, "builtin-pi", "builtin-pi").err();
    assert_eq!(
        err.map(|e| e.to_string()),
        Some(
            "Provider request contract error (category=request_payload_invalid, \
             reason=invalid_request_payload, requestKind=skillrunner.job.v1, \
             backendType=builtin-pi, providerId=builtin-pi, \
             detail=skill_id must be a non-empty string)"
                .to_string()
        )
    );
}

#[test]
fn default_kind_per_backend() {
    let cases = [
        ("skillrunner", Some(RequestKind::SkillRunnerJob)),
        ("acp", Some(RequestKind::AcpPrompt)),
        ("generic-http", Some(RequestKind::GenericHttpRequest)),
        ("pass-through", Some(RequestKind::PassThrough)),
        ("builtin-pi", Some(RequestKind::SkillRunnerJob)),
        ("other", None),
    ];
    for (backend, kind) in cases {
        assert_eq!(RequestKind::default_for_backend(backend), kind, "{backend}");
    }
}
