use serde_json::{Map, Value, json};

use super::*;
use crate::request::error::{ContractReason, RequestError};
use crate::request::test_support::{declaring, fixture, host, load, manifest, selection};

fn run(workflow: &Workflow, selection: &SelectionContext) -> Result<Value, RequestError> {
    compile(
        workflow,
        selection,
        &ExecutionOptions::default(),
        &host,
        false,
    )
}

fn message(result: Result<Value, RequestError>) -> String {
    match result {
        Ok(value) => panic!("compiled: {value}"),
        Err(err) => err.to_string(),
    }
}

fn ok(result: Result<Value, RequestError>) -> Value {
    result.unwrap_or_else(|e| panic!("{e}"))
}

fn pdf_parent() -> Value {
    json!({"libraryId": 1, "key": "PARENT01"})
}

mod pass_through {
    use super::*;

    #[test]
    fn canonical_unit() {
        let mut m = manifest("pass-through");
        m["parameters"] = json!({"a": {"type": "string", "default": "x"},
            "b": {"type": "number", "default": 1}, "c": {"type": "boolean"}});
        let workflow = load(&m);
        let unit = fixture("canonical-single-pdf");
        let mut explicit = Map::new();
        explicit.insert("b".into(), json!(2));
        explicit.insert("c".into(), json!(true));
        let execution = ExecutionOptions {
            workflow_params: explicit,
            provider_options: Map::new(),
        };
        let got = compile(&workflow, &unit, &execution, &host, false);
        assert_eq!(
            ok(got),
            json!({"kind": "pass-through.run.v1", "taskName": "cats.pdf",
                "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTPDF01"}],
                "selectionContext": unit.to_value(), "parameter": {"a": "x", "b": 2, "c": true},
                "targetParentRef": pdf_parent()})
        );
    }

    #[test]
    fn grouped_unit() {
        let unit = fixture("grouped-single-pdf");
        let got = run(&load(&manifest("pass-through")), &unit);
        assert_eq!(
            ok(got),
            json!({"kind": "pass-through.run.v1", "taskName": "cats.pdf",
                "sourceAttachmentPaths": ["attachments/ATTPDF01/cats.pdf"],
                "selectionContext": unit.to_value(), "parameter": {}, "targetParentID": 10,
                "targetParentRef": pdf_parent()})
        );
    }

    #[test]
    fn never_requires_a_target_parent() {
        let workflow = load(&manifest("pass-through"));
        for name in ["canonical-empty", "grouped-empty"] {
            let got = ok(run(&workflow, &fixture(name)));
            assert!(got.get("targetParentRef").is_none(), "{name}");
            assert!(got.get("targetParentID").is_none(), "{name}");
            assert_eq!(got["taskName"], "Workflow: Demo");
        }
    }
}

mod skillrunner_job {
    use super::*;

    fn job(request: Value) -> Workflow {
        let mut m = declaring("skillrunner", request);
        m["parameters"] = json!({"language": {"type": "string", "default": "en-US"}});
        m["execution"] = json!({"poll_interval_ms": 2000, "timeout_ms": 60000});
        load(&m)
    }

    /// A job workflow whose `request.input` (set after loading, so that declarations the
    /// schema refuses can be compiled too) has `inline` fields and upload `files`.
    fn with_uploads(files: Value, inline: Value) -> Workflow {
        let mut workflow = job(json!({"kind": "skillrunner.job.v1",
            "create": {"skill_id": "digest", "mode": "auto"}}));
        let mut input = inline;
        input["upload"] = json!({"files": files});
        workflow.manifest["request"]["input"] = input;
        workflow
    }

    #[test]
    fn canonical_unit_with_upload() {
        let workflow = job(json!({"kind": "skillrunner.job.v1",
            "create": {"skill_id": " digest ", "mode": "interactive", "skill_source": "installed"},
            "input": {"upload": {"files": [{"key": "source path", "from": "selected.source"}]},
                "language": "de"},
            "poll": {"interval_ms": 500}}));
        let got = run(&workflow, &fixture("canonical-single-pdf"));
        assert_eq!(
            ok(got),
            json!({"kind": "skillrunner.job.v1", "taskName": "cats.pdf",
                "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTPDF01"}],
                "skill_id": "digest", "skill_source": "installed",
                "runtime_options": {"execution_mode": "interactive"},
                "upload_files": [{"key": "source path",
                    "path": "/zotero/storage/ATTPDF01/cats.pdf"}],
                "parameter": {"language": "en-US"},
                "input": {"language": "de", "source path": "inputs/source-path/cats.pdf"},
                "poll": {"interval_ms": 500}, "fetch_type": "bundle",
                "targetParentRef": pdf_parent()})
        );
    }

    #[test]
    fn grouped_unit_with_upload() {
        let mut m = declaring(
            "skillrunner",
            json!({"kind": "skillrunner.job.v1",
            "create": {"skill_id": "digest", "mode": "auto"},
            "input": {"upload": {"files": [{"key": "pdf", "from": "selected.pdf"}]}},
            "poll": {"timeout_ms": 9000}}),
        );
        m["execution"] = json!({"poll_interval_ms": 2000, "timeout_ms": 60000});
        m["result"] = json!({"fetch": {"type": "result"}});
        let got = run(&load(&m), &fixture("grouped-single-pdf"));
        assert_eq!(
            ok(got),
            json!({"kind": "skillrunner.job.v1", "taskName": "cats.pdf",
                "sourceAttachmentPaths": ["attachments/ATTPDF01/cats.pdf"],
                "skill_id": "digest", "skill_source": "local-package",
                "runtime_options": {"execution_mode": "auto"},
                "upload_files": [{"key": "pdf", "path": "/data/attachments/ATTPDF01/cats.pdf"}],
                "parameter": {}, "input": {"pdf": "inputs/pdf/cats.pdf"},
                "poll": {"interval_ms": 2000, "timeout_ms": 9000}, "fetch_type": "result",
                "targetParentID": 10, "targetParentRef": pdf_parent()})
        );
    }

    #[test]
    fn without_uploads_there_is_no_input() {
        let workflow = job(json!({"kind": "skillrunner.job.v1",
            "create": {"skill_id": "chat", "mode": "auto"}}));
        let got = ok(run(&workflow, &fixture("canonical-parent")));
        assert_eq!((got.get("upload_files"), got.get("input")), (None, None));
        assert_eq!(got["poll"], json!({"interval_ms": 2000}));
        assert_eq!(got["sourceAttachmentRefs"], json!([]));
    }

    #[test]
    fn selectors_over_both_shapes() {
        let cases = [
            (
                "canonical-mixed-same-parent",
                "selected.markdown",
                Ok("cats.md"),
            ),
            (
                "canonical-mixed-same-parent",
                "selected.pdf",
                Ok("cats.pdf"),
            ),
            (
                "canonical-attachments-different-parents",
                "selected.markdown",
                Ok("dogs.md"),
            ),
            (
                "canonical-single-markdown",
                "selected.source",
                Ok("cats.md"),
            ),
            (
                "grouped-mixed-same-parent",
                "selected.markdown",
                Ok("cats.md"),
            ),
            ("grouped-mixed-same-parent", "selected.pdf", Ok("cats.pdf")),
            (
                "canonical-mixed-same-parent",
                "selected.source",
                Err("Selector selected.source requires exactly 1 matched attachment, got 3"),
            ),
            (
                "grouped-mixed-same-parent",
                "selected.source",
                Err("Selector selected.source requires exactly 1 matched attachment, got 3"),
            ),
            (
                "canonical-single-pdf",
                "selected.markdown",
                Err("Selector selected.markdown requires exactly 1 matched attachment, got 0"),
            ),
            (
                "canonical-parent",
                "selected.pdf",
                Err("Selector selected.pdf requires exactly 1 matched attachment, got 0"),
            ),
            (
                "canonical-single-pdf",
                "selected.any",
                Err("Unsupported upload selector: selected.any"),
            ),
        ];
        for (name, from, expected) in cases {
            let workflow = with_uploads(json!([{"key": "f", "from": from}]), json!({}));
            let got = run(&workflow, &fixture(name));
            match expected {
                Ok(file) => assert_eq!(
                    ok(got)["input"]["f"],
                    format!("inputs/f/{file}"),
                    "{name} {from}"
                ),
                Err(text) => assert_eq!(message(got), text, "{name} {from}"),
            }
        }
    }

    #[test]
    fn upload_declaration_errors() {
        let pdf = || json!({"key": "a", "from": "selected.pdf"});
        let cases = [
            (
                json!([{"from": "selected.pdf"}]),
                json!({}),
                "request.input.upload.files[].key is required",
            ),
            (
                json!([{"key": "", "from": "selected.pdf"}]),
                json!({}),
                "request.input.upload.files[].key is required",
            ),
            (
                json!([{"key": 3, "from": "selected.pdf"}]),
                json!({}),
                "request.input.upload.files[].key is required",
            ),
            (
                json!([pdf(), pdf()]),
                json!({}),
                "Duplicated upload file key: a",
            ),
            (
                json!([pdf()]),
                json!({"a": "inline"}),
                "request.input field conflict: a is declared by both inline input and upload selector",
            ),
        ];
        for (files, inline, expected) in cases {
            let got = run(
                &with_uploads(files, inline),
                &fixture("canonical-single-pdf"),
            );
            assert_eq!(message(got), expected);
        }
    }

    #[test]
    fn unavailable_files() {
        let workflow = with_uploads(json!([{"key": "a", "from": "selected.source"}]), json!({}));
        let missing = selection(json!({"items": [{"kind": "attachment",
            "ref": {"libraryId": 1, "key": "ATTMISS1"}, "itemType": "attachment",
            "filename": "gone.pdf", "fileState": "missing"}], "sampledAt": "2026-01-01T00:00:00Z"}));
        assert_eq!(
            message(run(&workflow, &missing)),
            "Source attachment file is unavailable"
        );
        let grouped = |path: Value| {
            selection(json!({"items": {"parents": [], "children": [], "notes": [],
                "attachments": [{"item": {"id": 3, "key": "K3", "libraryID": 1},
                    "parent": {"id": 2, "key": "P2", "libraryID": 1},
                    "filePath": path, "mimeType": "application/pdf"}]},
                "sampledAt": "2026-01-01T00:00:00Z"}))
        };
        assert_eq!(
            message(run(&workflow, &grouped(Value::Null))),
            "Selector selected.source resolved attachment without filePath"
        );
        assert_eq!(
            message(run(&workflow, &grouped(json!("  ")))),
            "Selector selected.source resolved attachment without filePath"
        );
        assert_eq!(
            message(run(&workflow, &grouped(json!("MISSING/a.pdf")))),
            "Source attachment file is unavailable"
        );
    }

    #[test]
    fn handoff_asks_the_host_in_handoff_mode() {
        let workflow = with_uploads(json!([{"key": "a", "from": "selected.pdf"}]), json!({}));
        let unit = fixture("canonical-single-pdf");
        let got = compile(&workflow, &unit, &ExecutionOptions::default(), &host, true);
        assert_eq!(
            ok(got)["upload_files"],
            json!([{"key": "a", "path": "/bridge/ATTPDF01/cats.pdf"}])
        );
    }

    #[test]
    fn create_requirements() {
        let mut workflow = job(json!({"kind": "skillrunner.job.v1",
            "create": {"skill_id": "s", "mode": "auto"}}));
        workflow.manifest["request"]["create"]["mode"] = json!("batch");
        assert_eq!(
            message(run(&workflow, &fixture("canonical-single-pdf"))),
            "Workflow demo skillrunner.job.v1 requires request.create.mode"
        );
        workflow.manifest["request"]["create"] = json!({"skill_id": " ", "mode": "auto"});
        assert_eq!(
            message(run(&workflow, &fixture("canonical-single-pdf"))),
            "Workflow demo skillrunner.job.v1 requires request.create.skill_id"
        );
    }

    #[test]
    fn target_parent_is_required_unless_selection_is_optional() {
        let request =
            json!({"kind": "skillrunner.job.v1", "create": {"skill_id": "s", "mode": "auto"}});
        let mut workflow = load(&declaring("skillrunner", request));
        for name in ["canonical-empty", "grouped-empty"] {
            assert_eq!(
                message(run(&workflow, &fixture(name))),
                "Cannot resolve target parent item from selection context"
            );
        }
        workflow.manifest["trigger"]["requiresSelection"] = json!(false);
        for name in ["canonical-empty", "grouped-empty"] {
            let got = ok(run(&workflow, &fixture(name)));
            assert!(got.get("targetParentRef").is_none() && got.get("targetParentID").is_none());
        }
    }

    #[test]
    fn upload_paths_sanitise_keys() {
        let cases = [
            ("source_path", "/a/b/c.pdf", "inputs/source_path/c.pdf"),
            ("  my key!! ", "C:\\docs\\x.md", "inputs/my-key-/x.md"),
            ("ключ", "/x/y.pdf", "inputs/-/y.pdf"),
            ("   ", "/x/y.pdf", "inputs/file/y.pdf"),
            ("v1.2-a", "/x/", "inputs/v1.2-a/upload.bin"),
        ];
        for (key, path, expected) in cases {
            assert_eq!(upload_path(key, path), expected, "{key}");
        }
        assert_eq!(sanitize_key("a/b\\c"), "a-b-c");
    }

    #[test]
    fn compiled_uploads_pass_through_the_contract_check() {
        let workflow = with_uploads(json!([{"key": "..", "from": "selected.pdf"}]), json!({}));
        match run(&workflow, &fixture("canonical-single-pdf")) {
            Err(RequestError::Contract(err)) => {
                assert_eq!(err.reason, ContractReason::InvalidRequestPayload);
                assert_eq!(
                    err.detail.as_deref(),
                    Some("payload.input... must not contain '.' or '..' path segments")
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

mod skillrunner_sequence {
    use super::*;

    fn sequence(provider: &str) -> Value {
        let mut m = declaring(
            provider,
            json!({"kind": "skillrunner.sequence.v1", "sequence": {"steps": [
            {"id": "read", "skill_id": "reader", "mode": "auto", "workspace": "new"},
            {"id": "write", "skill_id": "writer", "mode": "interactive", "input": {"style": "brief"},
                "include_if": {"kind": "parameter", "parameter": "deep", "equals": true},
                "handoff": {"bindings": [{"kind": "file", "target": "/input/notes", "step": "read"}]}}]},
            "poll": {"interval_ms": 100}}),
        );
        m["result"] = json!({"final_step_id": "write"});
        m["parameters"] = json!({"deep": {"type": "boolean", "default": false}});
        m
    }

    #[test]
    fn both_shapes() {
        let expected_steps = json!([
            {"id": "read", "skill_id": "reader", "mode": "auto", "workspace": "new"},
            {"id": "write", "skill_id": "writer", "mode": "interactive", "input": {"style": "brief"},
                "handoff": {"bindings": [{"kind": "file", "target": "/input/notes", "step": "read"}]}}]);
        let workflow = load(&sequence("acp"));
        assert_eq!(
            ok(run(&workflow, &fixture("canonical-single-markdown"))),
            json!({"kind": "skillrunner.sequence.v1", "taskName": "cats.md",
                "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTMD001"}],
                "steps": expected_steps, "final_step_id": "write", "parameter": {"deep": false},
                "poll": {"interval_ms": 100}, "targetParentRef": pdf_parent()})
        );
        let grouped = ok(run(&workflow, &fixture("grouped-single-markdown")));
        assert_eq!(
            grouped["sourceAttachmentPaths"],
            json!(["attachments/ATTMD001/cats.md"])
        );
        assert_eq!(
            (&grouped["targetParentID"], &grouped["steps"]),
            (&json!(10), &expected_steps)
        );
    }

    #[test]
    fn declaration_requirements() {
        let mut workflow = load(&sequence("skillrunner"));
        workflow.provider = "generic-http".into();
        assert_eq!(
            message(run(&workflow, &fixture("canonical-single-pdf"))),
            "Workflow demo skillrunner.sequence.v1 requires provider acp or skillrunner"
        );
        workflow.manifest["request"]["sequence"]["steps"] = json!([]);
        assert_eq!(
            message(run(&workflow, &fixture("canonical-single-pdf"))),
            "Workflow demo skillrunner.sequence.v1 requires request.sequence.steps[]"
        );
        let mut workflow = load(&sequence("skillrunner"));
        workflow.manifest["result"] = json!({});
        assert_eq!(
            message(run(&workflow, &fixture("canonical-single-pdf"))),
            "Workflow demo skillrunner.sequence.v1 requires result.final_step_id"
        );
    }

    #[test]
    fn compiled_steps_pass_through_the_contract_check() {
        let mut workflow = load(&sequence("skillrunner"));
        workflow.manifest["request"]["sequence"]["steps"][1]["handoff"]["bindings"][0]["target"] =
            json!("notes");
        match run(&workflow, &fixture("canonical-single-pdf")) {
            Err(RequestError::Contract(err)) => assert_eq!(
                err.detail.as_deref(),
                Some(
                    "payload.steps[1].handoff.bindings[0].target must start with /input/ or /parameter/"
                )
            ),
            other => panic!("{other:?}"),
        }
    }
}

mod generic_http {
    use super::*;

    fn http(request: Value, execution: Option<Value>) -> Workflow {
        let mut m = declaring("generic-http", request);
        if let Some(execution) = execution {
            m["execution"] = execution;
        }
        load(&m)
    }

    #[test]
    fn request_for_both_shapes() {
        let workflow = http(
            json!({"kind": "generic-http.request.v1", "http": {"method": "post", "path": " /v1/x ",
                "headers": {"X-A": "1"}, "json": {"fast": true, "workflow_label": "Over"}}}),
            Some(json!({"timeout_ms": 5000})),
        );
        assert_eq!(
            ok(run(&workflow, &fixture("canonical-single-pdf"))),
            json!({"kind": "generic-http.request.v1", "taskName": "cats.pdf",
                "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTPDF01"}],
                "request": {"method": "POST", "path": "/v1/x", "headers": {"X-A": "1"},
                    "json": {"workflow_id": "demo", "workflow_label": "Over",
                        "attachment_refs": [{"libraryId": 1, "key": "ATTPDF01"}],
                        "target_parent_ref": pdf_parent(), "fast": true}},
                "timeout_ms": 5000, "targetParentRef": pdf_parent()})
        );
        let grouped = ok(run(&workflow, &fixture("grouped-single-pdf")));
        assert_eq!(
            grouped["request"]["json"],
            json!({"workflow_id": "demo", "workflow_label": "Over",
                "attachment_paths": ["attachments/ATTPDF01/cats.pdf"], "target_parent_id": 10,
                "fast": true})
        );
        assert_eq!(grouped["targetParentID"], 10);
    }

    #[test]
    fn non_object_json_becomes_input_and_timeout_prefers_http() {
        let workflow = http(
            json!({"kind": "generic-http.request.v1", "http": {"method": "GET", "path": "/",
                "json": [1, 2], "timeout_ms": 10}}),
            Some(json!({"timeout_ms": 5000})),
        );
        let got = ok(run(&workflow, &fixture("canonical-single-pdf")));
        assert_eq!(got["request"]["json"]["input"], json!([1, 2]));
        assert_eq!(
            (got["timeout_ms"].clone(), got["request"].get("headers")),
            (json!(10), None)
        );
        let workflow = http(
            json!({"kind": "generic-http.request.v1", "http": {"method": "GET", "path": "/"}}),
            None,
        );
        let got = ok(run(&workflow, &fixture("canonical-single-pdf")));
        assert_eq!(
            (got.get("timeout_ms"), got["request"]["json"].get("input")),
            (None, None)
        );
    }

    #[test]
    fn request_requires_method_and_path() {
        let mut workflow = http(
            json!({"kind": "generic-http.request.v1", "http": {"method": "GET", "path": "/"}}),
            None,
        );
        for broken in [
            json!({"method": "GET"}),
            json!({"path": "/"}),
            json!({"method": " ", "path": "/"}),
        ] {
            workflow.manifest["request"]["http"] = broken;
            assert_eq!(
                message(run(&workflow, &fixture("canonical-single-pdf"))),
                "Workflow demo generic-http.request.v1 requires request.http.method and request.http.path"
            );
        }
    }

    fn steps_workflow() -> Workflow {
        let mut m = declaring(
            "generic-http",
            json!({"kind": "generic-http.steps.v1",
            "context": {"base": "x", "source_attachment_name": "renamed"},
            "steps": [{"id": "upload", "request": {"method": "POST", "path": "/upload/{base}"}}],
            "poll": {"interval_ms": 10}}),
        );
        m["parameters"] = json!({"workflow_id": {"type": "string", "default": "shadowed"},
            "target_language": {"type": "string", "default": "zh"}});
        m["execution"] = json!({"timeout_ms": 900});
        load(&m)
    }

    #[test]
    fn steps_context_order_canonical() {
        let got = ok(run(&steps_workflow(), &fixture("canonical-single-pdf")));
        let context = &got["context"];
        let keys: Vec<&str> = context
            .as_object()
            .map(|c| c.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "workflow_id",
                "target_language",
                "workflow_label",
                "source_attachment_ref",
                "source_attachment_name",
                "source_attachment_stem",
                "base",
                "target_parent_ref"
            ]
        );
        assert_eq!(
            context,
            &json!({"workflow_id": "demo", "target_language": "zh", "workflow_label": "Demo",
                "source_attachment_ref": {"libraryId": 1, "key": "ATTPDF01"},
                "source_attachment_name": "renamed", "source_attachment_stem": "cats",
                "base": "x", "target_parent_ref": pdf_parent()})
        );
        assert_eq!(
            got["steps"],
            json!([{"id": "upload", "request": {"method": "POST", "path": "/upload/{base}"}}])
        );
        assert_eq!(got["poll"], json!({"interval_ms": 10, "timeout_ms": 900}));
        assert_eq!(
            got["sourceAttachmentRefs"],
            json!([{"libraryId": 1, "key": "ATTPDF01"}])
        );
    }

    #[test]
    fn steps_context_grouped() {
        let got = ok(run(&steps_workflow(), &fixture("grouped-single-pdf")));
        assert_eq!(
            got["context"],
            json!({"workflow_id": "demo", "target_language": "zh", "workflow_label": "Demo",
                "source_attachment_path": "attachments/ATTPDF01/cats.pdf",
                "source_attachment_name": "renamed", "source_attachment_stem": "cats",
                "source_attachment_item_id": 11, "source_attachment_item_key": "ATTPDF01",
                "base": "x", "target_parent_id": 10})
        );
    }

    #[test]
    fn steps_context_without_attachments() {
        let mut workflow = steps_workflow();
        workflow.manifest["request"]["context"] = json!({});
        let canonical = ok(run(&workflow, &fixture("canonical-parent")));
        assert_eq!(
            (
                &canonical["context"]["source_attachment_ref"],
                &canonical["context"]["source_attachment_name"]
            ),
            (&Value::Null, &json!(""))
        );
        let grouped = ok(run(
            &workflow,
            &fixture("grouped-parent-with-attachments-notes"),
        ));
        assert_eq!(
            (
                &grouped["context"]["source_attachment_path"],
                &grouped["context"]["source_attachment_item_id"]
            ),
            (&json!(""), &Value::Null)
        );
    }

    #[test]
    fn steps_are_required() {
        let mut workflow = steps_workflow();
        workflow.manifest["request"]["steps"] = json!([]);
        assert_eq!(
            message(run(&workflow, &fixture("canonical-single-pdf"))),
            "Workflow demo generic-http.steps.v1 requires request.steps[]"
        );
    }
}

mod kinds {
    use super::*;

    #[test]
    fn unknown_kind_is_a_contract_error() {
        let mut workflow = load(&manifest("pass-through"));
        workflow.request_kind = Some("made.up.v1".into());
        match run(&workflow, &fixture("canonical-single-pdf")) {
            Err(RequestError::Contract(err)) => {
                assert_eq!(err.reason, ContractReason::UnsupportedRequestKind);
                assert_eq!(err.request_kind, "made.up.v1");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn acp_kinds_have_no_compiler() {
        let mut workflow = load(&manifest("pass-through"));
        workflow.provider = "acp".into();
        for kind in ["acp.prompt.v1", "acp.skill.run.v1"] {
            workflow.request_kind = Some(kind.into());
            assert_eq!(
                message(run(&workflow, &fixture("canonical-single-pdf"))),
                format!("Unsupported declarative request kind: {kind}")
            );
        }
    }

    #[test]
    fn no_kind_means_no_declaration() {
        let mut workflow = load(&manifest("pass-through"));
        workflow.provider = "skillrunner".into();
        assert_eq!(
            message(run(&workflow, &fixture("canonical-single-pdf"))),
            "Workflow demo missing buildRequest hook and request declaration"
        );
    }
}
