use serde_json::{Value, json};

use super::*;
use crate::request::error::ContractCategory;

/// `base` with the top-level fields of `extra` put in (replacing fields of the same name).
pub(super) fn merged(base: &Value, extra: &Value) -> Value {
    let mut out = base.clone();
    if let (Some(out), Some(extra)) = (out.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

/// The detail of the post-build check of `payload`, `None` when it passes. A failure must
/// be a payload failure that names neither backend nor provider.
pub(super) fn detail(kind: &str, payload: &Value) -> Option<String> {
    let err = check_payload_contract(kind, payload).err()?;
    assert_eq!(
        (err.category, err.reason),
        (
            ContractCategory::RequestPayloadInvalid,
            ContractReason::InvalidRequestPayload
        ),
        "{kind}: {payload}"
    );
    assert_eq!(
        (err.backend_type.as_str(), err.provider_id.as_str()),
        ("", "")
    );
    err.detail
}

/// Runs `(extra fields, expected detail)` rows against `base`, which passes on its own.
pub(super) fn table(kind: &str, base: &Value, rows: &[(Value, Option<&str>)]) {
    assert_eq!(detail(kind, base), None, "base of {kind}");
    for (extra, expected) in rows {
        let payload = merged(base, extra);
        assert_eq!(
            detail(kind, &payload).as_deref(),
            *expected,
            "{kind}: {extra}"
        );
    }
}

/// A payload every contract of `kind` accepts.
fn valid(kind: &str) -> Value {
    match kind {
        "pass-through.run.v1" => json!({"kind": kind, "selectionContext": {}}),
        "skillrunner.job.v1" | "acp.skill.run.v1" => json!({"kind": kind, "skill_id": "s"}),
        "skillrunner.sequence.v1" => json!({"kind": kind, "final_step_id": "a",
            "steps": [{"id": "a", "skill_id": "s", "mode": "auto"}]}),
        "generic-http.request.v1" => {
            json!({"kind": kind, "request": {"method": "GET", "path": "/"}})
        }
        "generic-http.steps.v1" => json!({"kind": kind, "steps": [{}]}),
        _ => json!({"kind": kind, "message": "m"}),
    }
}

/// The message of the dispatch check of `kind` with its valid payload.
fn dispatch_message(kind: &str, backend: &str, provider: &str) -> Option<String> {
    check_payload(kind, &valid(kind), backend, provider)
        .err()
        .map(|e| e.to_string())
}

#[test]
fn blank_kind_is_missing_and_names_no_backend() {
    let err = check_payload(" ", &json!({"kind": " "}), "acp", "acp").err();
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some(
            "Provider request contract error (category=request_kind_unsupported, \
             reason=request_kind_missing, requestKind=, backendType=, providerId=, \
             detail=requestKind is required)"
        )
    );
}

#[test]
fn unknown_and_synthetic_kinds_carry_no_detail() {
    for kind in [
        "made.up.v1",
        "workflow.preflight.short-circuit.v1",
        "workflow.preflight.aggregate.v1",
    ] {
        let err = check_payload(kind, &json!({"kind": kind}), "acp", "acp").err();
        assert_eq!(
            err.map(|e| e.to_string()),
            Some(format!(
                "Provider request contract error (category=request_kind_unsupported, \
                 reason=unsupported_request_kind, requestKind={kind}, backendType=, \
                 providerId=)"
            ))
        );
        let err = check_payload_contract(kind, &json!({"kind": kind})).err();
        assert_eq!(err.and_then(|e| e.detail), None, "{kind}");
    }
}

#[test]
fn backend_mismatch_names_the_kinds_primary_provider() {
    assert_eq!(
        dispatch_message("skillrunner.job.v1", "acp", "acp").as_deref(),
        Some(
            "Provider request contract error (category=provider_backend_mismatch, \
             reason=backend_type_mismatch, requestKind=skillrunner.job.v1, backendType=acp, \
             providerId=skillrunner, detail=expected backendType=skillrunner|builtin-pi)"
        )
    );
    let err = check_payload(
        "pass-through.run.v1",
        &valid("pass-through.run.v1"),
        " generic-http ",
        "generic-http",
    )
    .err()
    .unwrap_or_else(|| panic!("pass-through dispatched to generic-http"));
    assert_eq!(err.category, ContractCategory::ProviderBackendMismatch);
    assert_eq!(err.reason, ContractReason::BackendTypeMismatch);
    assert_eq!(
        (err.backend_type.as_str(), err.provider_id.as_str()),
        ("generic-http", "pass-through")
    );
    assert_eq!(
        err.detail.as_deref(),
        Some("expected backendType=pass-through")
    );
}

#[test]
fn provider_mismatch_names_no_backend() {
    assert_eq!(
        dispatch_message("generic-http.steps.v1", "generic-http", " acp ").as_deref(),
        Some(
            "Provider request contract error (category=provider_contract_error, \
             reason=provider_type_mismatch, requestKind=generic-http.steps.v1, backendType=, \
             providerId=acp, detail=expected providerId=generic-http)"
        )
    );
}

#[test]
fn provider_and_backend_must_form_one_pair() {
    let pair_error = |kind: &str, backend: &str, provider: &str| {
        format!(
            "Provider request contract error (category=provider_backend_mismatch, \
             reason=backend_type_mismatch, requestKind={kind}, backendType={backend}, \
             providerId={provider}, detail=request kind does not allow this \
             provider/backend pair)"
        )
    };
    let sequence = "skillrunner.sequence.v1";
    let job = "skillrunner.job.v1";
    let cases = [
        (sequence, "acp", "skillrunner", true),
        (sequence, "skillrunner", "acp", true),
        (sequence, "skillrunner", "skillrunner", false),
        (sequence, "acp", "acp", false),
        (job, "skillrunner", "builtin-pi", true),
        (job, "builtin-pi", "skillrunner", true),
        (job, "builtin-pi", "builtin-pi", false),
    ];
    for (kind, backend, provider, refused) in cases {
        let expected = refused.then(|| pair_error(kind, backend, provider));
        assert_eq!(
            dispatch_message(kind, backend, provider),
            expected,
            "{kind} {backend}/{provider}"
        );
    }
    let invalid = json!({"kind": sequence, "steps": []});
    let err = check_payload(sequence, &invalid, "acp", "skillrunner").err();
    assert_eq!(
        err.map(|e| e.reason),
        Some(ContractReason::BackendTypeMismatch),
        "the pair is checked before the payload"
    );
}

#[test]
fn payload_errors_at_dispatch_name_no_backend_or_provider() {
    let payload = json!({"kind": "skillrunner.job.v1"});
    let err = check_payload(" skillrunner.job.v1 ", &payload, "builtin-pi", "builtin-pi").err();
    assert_eq!(
        err.map(|e| e.to_string()).as_deref(),
        Some(
            "Provider request contract error (category=request_payload_invalid, \
             reason=invalid_request_payload, requestKind=skillrunner.job.v1, backendType=, \
             providerId=, detail=payload.skill_id must be non-empty string)"
        )
    );
}

#[test]
fn kind_resolution_and_backend_compatibility() {
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
            let got = check_payload(kind, &valid(kind), backend, backend);
            if accepting.contains(&backend) {
                assert_eq!(got, Ok(()), "{kind} on {backend}");
                continue;
            }
            let err = got.err().unwrap_or_else(|| panic!("{kind} on {backend}"));
            assert_eq!(err.reason, ContractReason::BackendTypeMismatch);
            assert_eq!(err.category, ContractCategory::ProviderBackendMismatch);
            assert_eq!(
                (err.backend_type.as_str(), err.provider_id.as_str()),
                (backend, accepting[0]),
                "{kind} on {backend}"
            );
            assert_eq!(
                err.detail,
                Some(format!("expected backendType={}", accepting.join("|")))
            );
        }
    }
}

#[test]
fn every_kind_needs_an_object_and_all_but_http_their_own_kind() {
    for kind in RequestKind::ALL {
        let name = kind.as_str();
        for not_object in [json!([]), json!(null), json!("x")] {
            assert_eq!(
                detail(name, &not_object).as_deref(),
                Some("payload must be object"),
                "{name}"
            );
        }
        let mismatch = merged(&valid(name), &json!({"kind": "x"}));
        let expected = match kind {
            RequestKind::GenericHttpRequest | RequestKind::GenericHttpSteps => None,
            _ => Some(format!("payload.kind must be {name}")),
        };
        assert_eq!(detail(name, &mismatch), expected, "{name}");
        let spaced = merged(&valid(name), &json!({"kind": format!("  {name} ")}));
        assert_eq!(detail(name, &spaced), None, "{name}");
    }
    let listed = json!({"kind": ["pass-through.run.v1"], "selectionContext": {}});
    assert_eq!(detail("pass-through.run.v1", &listed), None);
    let http = json!({"request": {"method": "GET", "path": "/"}});
    assert_eq!(detail("generic-http.request.v1", &http), None);
}

#[test]
fn pass_through_requires_selection_context() {
    let base = valid("pass-through.run.v1");
    table(
        "pass-through.run.v1",
        &base,
        &[
            (json!({"selectionContext": null}), None),
            (json!({"parameter": {}}), None),
        ],
    );
    let payload = json!({"kind": "pass-through.run.v1"});
    assert_eq!(
        detail("pass-through.run.v1", &payload).as_deref(),
        Some("payload.selectionContext is required")
    );
}

#[test]
fn generic_http_rules() {
    table(
        "generic-http.request.v1",
        &json!({"kind": "generic-http.request.v1", "request": {"method": "POST", "path": "/x"}}),
        &[
            (
                json!({"request": []}),
                Some("payload.request must be object"),
            ),
            (
                json!({"request": null}),
                Some("payload.request must be object"),
            ),
            (
                json!({"request": {"path": "/x"}}),
                Some("payload.request.method must be non-empty string"),
            ),
            (
                json!({"request": {"method": "POST"}}),
                Some("payload.request.path must be non-empty string"),
            ),
            (
                json!({"request": {"method": "GET", "path": " "}}),
                Some("payload.request.path must be non-empty string"),
            ),
        ],
    );
    let no_steps = Some("payload.steps must be non-empty array");
    table(
        "generic-http.steps.v1",
        &valid("generic-http.steps.v1"),
        &[
            (json!({"steps": []}), no_steps),
            (json!({"steps": null}), no_steps),
            (json!({"steps": {"a": {}}}), no_steps),
        ],
    );
}

#[test]
fn acp_prompt_rules() {
    table(
        "acp.prompt.v1",
        &valid("acp.prompt.v1"),
        &[
            (
                json!({"message": ""}),
                Some("payload.message must be non-empty string"),
            ),
            (
                json!({"message": 1}),
                Some("payload.message must be non-empty string"),
            ),
            (json!({"hostContext": {"a": 1}}), None),
            (
                json!({"hostContext": []}),
                Some("payload.hostContext must be object when provided"),
            ),
            (
                json!({"hostContext": null}),
                Some("payload.hostContext must be object when provided"),
            ),
        ],
    );
}

#[test]
fn acp_skill_run_rules() {
    let workspace = |field: &str, value: Value| json!({"runtime_options": {field: value}});
    let not_local =
        Some("payload.input.source_path must be a local absolute path, not upload-relative path");
    table(
        "acp.skill.run.v1",
        &valid("acp.skill.run.v1"),
        &[
            (
                json!({"skill_id": null}),
                Some("payload.skill_id must be non-empty string"),
            ),
            (
                json!({"upload_files": []}),
                Some("payload.upload_files is not allowed for acp.skill.run.v1"),
            ),
            (json!({"runtime_options": "x"}), None),
            (json!({"input": "x"}), None),
            (json!({"input": ["inputs/a"]}), None),
            (
                workspace(
                    "workspace",
                    json!({"mode": " new ", "workflow_run_id": "w"}),
                ),
                None,
            ),
            (
                workspace("workspace", json!("w")),
                Some("payload.runtime_options.workspace must be object when provided"),
            ),
            (
                workspace(
                    "workflow_workspace",
                    json!({"mode": "old", "workflow_run_id": "r"}),
                ),
                Some("payload.runtime_options.workflow_workspace.mode must be new or reuse"),
            ),
            (
                workspace("workflow_workspace", json!({"mode": "reuse"})),
                Some(
                    "payload.runtime_options.workflow_workspace.workflow_run_id must be \
                     non-empty string",
                ),
            ),
            (
                json!({"runtime_options": {"workspace": {"mode": "x"},
                    "workflow_workspace": {"mode": "y"}}}),
                Some("payload.runtime_options.workspace.mode must be new or reuse"),
            ),
            (
                json!({"input": {"source_path": "/home/u/a.md", "n": 3, "list": ["inputs/a"]}}),
                None,
            ),
            (
                json!({"input": {"source_path": "inputs/source_path/example.md"}}),
                not_local,
            ),
            (json!({"input": {"source_path": " inputs "}}), not_local),
            (
                json!({"input": {"source_path": ".\\uploads\\a.md"}}),
                not_local,
            ),
            (
                json!({"input": {"source_path": ".//inputs/a.md"}}),
                not_local,
            ),
            (json!({"input": {"source_path": "././inputs/a.md"}}), None),
            (
                json!({"input": {"b": "inputs/b", "1": "inputs/1"}}),
                Some("payload.input.1 must be a local absolute path, not upload-relative path"),
            ),
        ],
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
