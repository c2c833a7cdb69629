use serde_json::{Value, json};

use crate::manifest::Workflow;
use crate::request::error::{ContractReason, RequestError};
use crate::request::finish;
use crate::request::test_support::{fixture, load, manifest, selection};

/// A hook-built workflow of `provider`, declaring `kind` when given.
fn hook_built(provider: &str, kind: Option<&str>, execution: Option<Value>) -> Workflow {
    let mut m = manifest(provider);
    m["hooks"]["buildRequest"] = json!("hooks/build.mjs");
    if let Some(kind) = kind {
        m["request"] = json!({"kind": kind});
    }
    if let Some(execution) = execution {
        m["execution"] = execution;
    }
    load(&m)
}

fn contract_detail(result: Result<Value, RequestError>) -> Option<String> {
    match result {
        Err(RequestError::Contract(err)) => {
            assert_eq!(err.reason, ContractReason::InvalidRequestPayload);
            assert_eq!(
                (err.backend_type.as_str(), err.provider_id.as_str()),
                ("", "")
            );
            err.detail
        }
        other => panic!("expected a contract error, got {other:?}"),
    }
}

#[test]
fn non_objects_are_refused() {
    let workflow = hook_built("skillrunner", None, None);
    for value in [json!([]), json!([{}]), json!("x"), json!(null), json!(3)] {
        assert_eq!(
            finish(&workflow, &fixture("canonical-single-pdf"), value),
            Err(RequestError::NotAnObject)
        );
    }
}

#[test]
fn canonical_enrichment_adds_what_is_missing() {
    let workflow = hook_built("skillrunner", None, None);
    let got = finish(
        &workflow,
        &fixture("canonical-single-pdf"),
        json!({"kind": "x"}),
    );
    assert_eq!(
        got,
        Ok(
            json!({"kind": "x", "targetParentRef": {"libraryId": 1, "key": "PARENT01"},
            "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTPDF01"}], "taskName": "cats.pdf"})
        )
    );
}

#[test]
fn canonical_enrichment_keeps_what_is_given() {
    let workflow = hook_built("skillrunner", None, None);
    let given = json!({"kind": "x", "targetParentRef": {"libraryId": 2, "key": "OTHER"},
        "sourceAttachmentRefs": [], "taskName": "Mine"});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), given.clone());
    assert_eq!(got, Ok(given));
    let replaced = json!({"kind": "x", "targetParentRef": "PARENT01",
        "sourceAttachmentRefs": {}, "taskName": "  "});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), replaced);
    assert_eq!(
        got,
        Ok(
            json!({"kind": "x", "targetParentRef": {"libraryId": 1, "key": "PARENT01"},
            "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTPDF01"}], "taskName": "cats.pdf"})
        )
    );
}

#[test]
fn canonical_enrichment_without_selection() {
    let workflow = hook_built("skillrunner", None, None);
    let got = finish(&workflow, &fixture("canonical-empty"), json!({}));
    assert_eq!(
        got,
        Ok(json!({"sourceAttachmentRefs": [], "taskName": "Workflow: Demo"}))
    );
}

#[test]
fn grouped_enrichment_adds_id_ref_and_paths() {
    let workflow = hook_built("skillrunner", None, None);
    let got = finish(
        &workflow,
        &fixture("grouped-single-pdf"),
        json!({"kind": "x"}),
    );
    assert_eq!(
        got,
        Ok(json!({"kind": "x", "targetParentID": 10,
            "targetParentRef": {"libraryId": 1, "key": "PARENT01"},
            "sourceAttachmentPaths": ["attachments/ATTPDF01/cats.pdf"], "taskName": "cats.pdf"}))
    );
    let given = json!({"targetParentID": 99, "targetParentRef": {"libraryId": 1, "key": "Z"},
        "sourceAttachmentPaths": ["/x"], "taskName": "t"});
    assert_eq!(
        finish(&workflow, &fixture("grouped-single-pdf"), given.clone()),
        Ok(given)
    );
}

#[test]
fn grouped_source_paths_are_deduplicated() {
    let workflow = hook_built("skillrunner", None, None);
    let entry = |id: i64| {
        json!({"item": {"id": id, "key": format!("K{id}"), "libraryID": 1, "parentItemID": 5},
            "parent": {"id": 5, "key": "P5", "libraryID": 1}, "filePath": " a/same.pdf ",
            "mimeType": null})
    };
    let grouped = selection(json!({"items": {"parents": [], "children": [], "notes": [],
        "attachments": [entry(1), entry(2)]}, "sampledAt": "2026-01-01T00:00:00Z"}));
    let got = finish(&workflow, &grouped, json!({}));
    assert_eq!(
        got,
        Ok(
            json!({"targetParentID": 5, "targetParentRef": {"libraryId": 1, "key": "P5"},
            "sourceAttachmentPaths": ["a/same.pdf"], "taskName": "same.pdf"})
        )
    );
}

#[test]
fn job_mode_moves_into_runtime_options() {
    let workflow = hook_built("skillrunner", Some("skillrunner.job.v1"), None);
    let request = json!({"kind": "skillrunner.job.v1", "skill_id": "s", "mode": "interactive",
        "taskName": "t"});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), request);
    assert_eq!(
        got,
        Ok(
            json!({"kind": "skillrunner.job.v1", "skill_id": "s", "taskName": "t",
            "targetParentRef": {"libraryId": 1, "key": "PARENT01"},
            "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTPDF01"}],
            "runtime_options": {"execution_mode": "interactive"}})
        )
    );
}

#[test]
fn explicit_execution_mode_wins_and_invalid_mode_is_refused() {
    let workflow = hook_built("skillrunner", Some("skillrunner.job.v1"), None);
    let request = json!({"kind": "skillrunner.job.v1", "skill_id": "s", "mode": "auto",
        "runtime_options": {"execution_mode": "interactive"}});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), request);
    assert_eq!(
        got.map(|r| (r.get("mode").cloned(), r["runtime_options"].clone())),
        Ok((None, json!({"execution_mode": "interactive"})))
    );
    let request = json!({"kind": "skillrunner.job.v1", "skill_id": "s", "mode": "batch"});
    assert_eq!(
        contract_detail(finish(&workflow, &fixture("canonical-single-pdf"), request)).as_deref(),
        Some(
            "payload.mode must be normalized to runtime_options.execution_mode before provider \
             dispatch"
        )
    );
}

#[test]
fn mcp_tools_and_host_access_are_added_to_runtime_options() {
    let execution = json!({"mcp": {"requiredTools": ["zotero.search"]},
        "zoteroHostAccess": {"required": true}});
    let workflow = hook_built("skillrunner", Some("skillrunner.job.v1"), Some(execution));
    let request = json!({"kind": "skillrunner.job.v1", "skill_id": "s",
        "runtime_options": {"workflow_mcp": {"server": "z"}}});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), request);
    assert_eq!(
        got.map(|r| r["runtime_options"].clone()),
        Ok(
            json!({"workflow_mcp": {"server": "z", "required_tools": ["zotero.search"]},
            "zotero_host_access": {"required": true}})
        )
    );
}

#[test]
fn empty_runtime_options_are_removed() {
    let workflow = hook_built("skillrunner", Some("skillrunner.sequence.v1"), None);
    let request = json!({"kind": "skillrunner.sequence.v1", "runtime_options": {},
        "steps": [{"id": "a", "skill_id": "s", "mode": "auto"}], "final_step_id": "a",
        "mode": "auto"});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), request);
    let got = got.unwrap_or_else(|e| panic!("{e}"));
    assert!(got.get("runtime_options").is_none());
    assert_eq!(
        got["mode"], "auto",
        "sequence requests keep a top-level mode"
    );
}

#[test]
fn no_normalisation_for_other_kinds() {
    let execution = json!({"mcp": {"requiredTools": ["t"]}});
    let workflow = hook_built(
        "generic-http",
        Some("generic-http.request.v1"),
        Some(execution),
    );
    let request = json!({"kind": "generic-http.request.v1", "mode": "auto",
        "request": {"method": "GET", "path": "/"}});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), request);
    let got = got.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (got.get("runtime_options"), &got["mode"]),
        (None, &json!("auto"))
    );
}

#[test]
fn declared_kind_is_checked_after_building() {
    let workflow = hook_built("skillrunner", Some("skillrunner.job.v1"), None);
    let request = json!({"kind": "skillrunner.job.v1"});
    let got = finish(&workflow, &fixture("canonical-single-pdf"), request);
    assert_eq!(
        got.map_err(|e| e.to_string()),
        Err(
            "Provider request contract error (category=request_payload_invalid, \
             reason=invalid_request_payload, requestKind=skillrunner.job.v1, backendType=, \
             providerId=, detail=payload.skill_id must be non-empty string)"
                .to_string()
        )
    );
}

#[test]
fn pass_through_providers_check_the_fallback_kind() {
    let workflow = hook_built("pass-through", None, None);
    let got = finish(
        &workflow,
        &fixture("canonical-single-pdf"),
        json!({"kind": "pass-through.run.v1"}),
    );
    assert_eq!(
        contract_detail(got).as_deref(),
        Some("payload.selectionContext is required")
    );
}

#[test]
fn without_a_declared_kind_nothing_is_checked() {
    let workflow = hook_built("skillrunner", None, None);
    let got = finish(
        &workflow,
        &fixture("canonical-single-pdf"),
        json!({"kind": "anything"}),
    );
    assert!(got.is_ok());
}
