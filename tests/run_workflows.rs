//! The example workflows end to end through the library: exact outcomes,
//! requests and effects for every preflight outcome and provider.

use crate::common;

use common::run_case;
use hookrun::run::{ApplyReport, RunReport, UnitStatus};
use serde_json::{Value, json};

fn effects(report: &RunReport) -> Vec<(String, String, Value)> {
    report
        .effects
        .iter()
        .map(|e| (e.unit_id.clone(), e.call.clone(), e.args[0].clone()))
        .collect()
}

fn applied(apply: &ApplyReport) -> &Value {
    match apply {
        ApplyReport::Succeeded { value } => value,
        other => panic!("apply did not succeed: {other:?}"),
    }
}

#[test]
fn pass_through_export_writes_one_note_per_paper() {
    let report = run_case(
        "workflows/export-summary",
        "workflows/export-summary/cases/grouped-two-papers.json",
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(report.summary.units, 2);
    let unit = &report.units[0];
    let request = unit.jobs[0].request.as_ref().unwrap();
    assert_eq!(request["kind"], "pass-through.run.v1");
    assert_eq!(request["parameter"], json!({"heading": "Attachments"}));
    assert_eq!(
        unit.jobs[0].result.as_ref().unwrap()["resultJson"]["kind"],
        "pass-through.run.v1"
    );
    let ids: Vec<_> = report
        .units
        .iter()
        .map(|u| u.jobs[0].request_id.clone().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "pass-through-mjuohs00-7f7rfb",
            "pass-through-mjuohs00-jvd0en"
        ],
        "pass-through ids: frozen clock in base 36 and six seeded characters"
    );
    assert_eq!(
        effects(&report),
        [
            (
                "unit-1".to_string(),
                "notes.create".to_string(),
                json!({"operationId": "export-summary:1:PARENT01", "placement": {"kind": "child", "parentRef": {"libraryId": 1, "key": "PARENT01"}},
                       "content": {"format": "html", "value": "<h2>Attachments</h2><ul><li>cats.pdf (available)</li></ul>"}})
            ),
            (
                "unit-2".to_string(),
                "notes.create".to_string(),
                json!({"operationId": "export-summary:1:PARENT02", "placement": {"kind": "child", "parentRef": {"libraryId": 1, "key": "PARENT02"}},
                       "content": {"format": "html", "value": "<h2>Attachments</h2><ul><li>dogs.md (available)</li></ul>"}})
            ),
        ]
    );
    assert_eq!(
        applied(&report.units[1].jobs[0].apply)["note"],
        json!({"libraryId": 1, "key": "NEW00002"})
    );
    let logs: Vec<_> = report
        .hooks
        .iter()
        .map(|h| (h.unit_id.as_str(), h.logs[0].message.as_str()))
        .collect();
    assert_eq!(
        logs,
        [
            ("unit-1", "exporting 1 attachment(s) of PARENT01"),
            ("unit-2", "exporting 1 attachment(s) of PARENT02")
        ]
    );
}

#[test]
fn skillrunner_job_uploads_markdown_and_applies_the_zip_bundle() {
    let report = run_case(
        "workflows/literature-digest",
        "workflows/literature-digest/cases/markdown-paper.json",
    );
    assert!(report.ok(), "{:?}", report.errors);
    let job = &report.units[0].jobs[0];
    assert_eq!(
        job.request.as_ref().unwrap(),
        &json!({
            "kind": "skillrunner.job.v1",
            "taskName": "Digest: cats.md",
            "sourceAttachmentRefs": [{"libraryId": 1, "key": "ATTMD001"}],
            "skill_id": "literature-digest",
            "skill_source": "local-package",
            "runtime_options": {"execution_mode": "auto"},
            "upload_files": [{"key": "source_md", "path": "attachments/ATTMD001/cats.md"}],
            "parameter": {"language": "en"},
            "input": {"style": "concise", "source_md": "inputs/source_md/cats.md"},
            "poll": {"interval_ms": 1500},
            "fetch_type": "bundle",
            "targetParentRef": {"libraryId": 1, "key": "PARENT01"}
        })
    );
    assert_eq!(job.request_id.as_deref(), Some("run-0001"));
    assert_eq!(
        applied(&job.apply),
        &json!({"digestEntry": "artifacts/digest.md", "referencesEntry": "artifacts/references.json",
                "model": "fixture-model", "taskName": "Digest: cats.md", "warnings": []})
    );
    let calls: Vec<_> = report.effects.iter().map(|e| e.call.as_str()).collect();
    assert_eq!(
        calls,
        ["literatureArtifacts.applyAnalysis", "statusTags.transition"]
    );
    assert!(
        report.effects[0].args[0]["digest"]["markdown"]
            .as_str()
            .unwrap()
            .starts_with("# Digest: Cats and Dogs")
    );
}

#[test]
fn a_failed_provider_result_fails_the_unit_without_applying() {
    let report = run_case(
        "workflows/literature-digest",
        "workflows/literature-digest/cases/provider-failure.json",
    );
    assert!(!report.ok());
    assert_eq!(report.units[0].status, UnitStatus::Failed);
    assert_eq!(report.units[0].jobs[0].apply, ApplyReport::NotRun);
    assert_eq!(report.errors[0].stage, hookrun::run::Stage::Provider);
    assert_eq!(
        report.errors[0].message,
        "skill runner rejected the job: quota exceeded"
    );
    assert!(report.effects.is_empty());
}

#[test]
fn expand_with_aggregate_applies_once_with_ordered_children() {
    let report = run_case(
        "workflows/mineru-package",
        "workflows/mineru-package/pdf-split/cases/long-book.json",
    );
    assert!(report.ok(), "{:?}", report.errors);
    let unit = &report.units[0];
    let ranges: Vec<_> = unit
        .jobs
        .iter()
        .map(|j| j.preflight["context"]["page_ranges"].clone())
        .collect();
    assert_eq!(ranges, [json!("1-150"), json!("151-300"), json!("301-450")]);
    let names: Vec<_> = unit
        .jobs
        .iter()
        .map(|j| j.request.as_ref().unwrap()["taskName"].clone())
        .collect();
    assert_eq!(
        names,
        [
            json!("long-book.pdf (1/3: 1-150)"),
            json!("long-book.pdf (2/3: 151-300)"),
            json!("long-book.pdf (3/3: 301-450)")
        ]
    );
    assert!(unit.jobs.iter().all(|j| j.apply == ApplyReport::Deferred));
    assert_eq!(
        unit.jobs[0].preflight["aggregate"],
        json!({"id": "mineru-ATTBIG01", "mode": "single-apply"})
    );
    let aggregate = unit.aggregate.as_ref().unwrap();
    assert_eq!(aggregate.id, "mineru-ATTBIG01");
    assert_eq!(applied(&aggregate.apply)["part_count"], 3);
    let calls: Vec<_> = report.effects.iter().map(|e| e.call.as_str()).collect();
    // The parts' images are staged, checked and moved next to the Markdown.
    assert_eq!(
        calls,
        [
            "file.makeDirectory",
            "file.copy",
            "file.copy",
            "file.remove",
            "file.move",
            "file.remove",
            "file.writeText",
            "attachments.create",
            "statusTags.transition"
        ]
    );
    assert_eq!(
        report.effects[6].args,
        json!([
            "attachments/ATTBIG01/long-book.md",
            "# Part one\n\nPages 1 to 150. ![figure](Images_ATTBIG01/fig1.png)\n\n# Part two\n\nPages 151 to 300. ![figure](Images_ATTBIG01/fig2.png)\n\n# Part three\n\nPages 301 to 450.\n"
        ])
    );
    assert_eq!(
        applied(&aggregate.apply)["images"],
        json!(["fig1.png", "fig2.png"])
    );
    assert_eq!(
        applied(&aggregate.apply)["listed_markdown"],
        json!(["long-book.md"])
    );
}

#[test]
fn an_aggregate_with_a_failed_child_applies_nothing() {
    let report = run_case(
        "workflows/mineru-package",
        "workflows/mineru-package/pdf-split/cases/long-book-part-fails.json",
    );
    assert_eq!(report.units[0].status, UnitStatus::Failed);
    let aggregate = report.units[0].aggregate.as_ref().unwrap();
    match &aggregate.apply {
        ApplyReport::Failed { error } => {
            assert_eq!(error.message, "aggregate child failed: index=1")
        }
        other => panic!("{other:?}"),
    }
    assert!(report.effects.is_empty());
    assert!(report.hooks.iter().all(|h| h.hook != "applyResult"));
}

#[test]
fn short_pdfs_continue_with_one_request() {
    let report = run_case(
        "workflows/mineru-package",
        "workflows/mineru-package/pdf-split/cases/short-pdf.json",
    );
    assert!(report.ok(), "{:?}", report.errors);
    let job = &report.units[0].jobs[0];
    assert_eq!(job.preflight["unitId"], "main");
    assert_eq!(
        job.preflight["context"]["mineruSplit"]["reason"],
        "within-page-limit"
    );
    assert_eq!(
        applied(&job.apply)["markdown_path"],
        "attachments/ATTPDF01/cats.md"
    );
}

#[test]
fn preflight_skips_papers_already_processed() {
    let report = run_case(
        "workflows/skip-processed",
        "workflows/skip-processed/cases/two-papers.json",
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(report.units[0].status, UnitStatus::Skipped);
    assert_eq!(
        report.units[0].skip_reason.as_deref(),
        Some("PARENT01 already has a digest")
    );
    assert!(report.units[0].jobs.is_empty());
    assert_eq!(report.units[1].status, UnitStatus::Succeeded);
    assert_eq!(
        applied(&report.units[1].jobs[0].apply),
        &json!({"parentKey": "PARENT02", "outcome": "committed", "planId": "unit-2"})
    );
    assert_eq!((report.summary.skipped, report.summary.succeeded), (1, 1));
}

#[test]
fn preflight_short_circuits_with_a_synthetic_request() {
    let report = run_case(
        "workflows/metadata-curator",
        "workflows/metadata-curator/cases/doi-fast-path.json",
    );
    assert!(report.ok(), "{:?}", report.errors);
    let short = &report.units[0].jobs[0];
    assert_eq!(short.kind.as_str(), "short-circuit");
    assert_eq!(short.preflight["unitId"], "short-circuit");
    assert_eq!(
        applied(&short.apply),
        &json!({"requestKind": "workflow.preflight.short-circuit.v1", "source": "zotero-translate-search",
                "update": "committed", "title": "Deep Learning for Cats", "date": "2024-05-01",
                "creators": ["Ada Lovelace", "Grace Hopper"],
                "tagsRemoved": ["status:need-metadata-curation"], "tags": []})
    );
    let full = &report.units[1].jobs[0];
    assert_eq!(
        full.request.as_ref().unwrap()["skill_id"],
        "literature-metadata-search"
    );
    assert_eq!(full.request.as_ref().unwrap()["fetch_type"], "result");
    assert_eq!(applied(&full.apply)["source"], "skill-runner");
    // The second paper's identifier came from its arXiv URL.
    assert_eq!(
        full.preflight["context"]["identifier"],
        json!({"type": "arXiv", "value": "2101.00001v2", "source": "url"})
    );
    let calls: Vec<_> = report
        .effects
        .iter()
        .map(|e| (e.unit_id.as_str(), e.call.as_str()))
        .collect();
    assert_eq!(
        calls,
        [
            ("unit-1", "mutations.execute"),
            ("unit-1", "statusTags.transition"),
            ("unit-2", "mutations.execute"),
            ("unit-2", "statusTags.transition")
        ]
    );
}

#[test]
fn settings_are_normalised_reported_and_patched_by_the_hook() {
    let report = run_case(
        "workflows/settings-normalizer",
        "workflows/settings-normalizer/cases/coerced-settings.json",
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(
        report.settings.workflow_params,
        *json!({"title": "Weekly report", "depth": "thorough", "style": "handwritten", "limit": 20,
                "verbose": true, "tags": ["report"]})
        .as_object()
        .unwrap()
    );
    let warned: Vec<_> = report
        .settings
        .warnings
        .iter()
        .map(|w| w.parameter.as_str())
        .collect();
    assert_eq!(warned, ["color", "limit", "verbose"]);
    let value = applied(&report.units[0].jobs[0].apply);
    assert_eq!(value["parent"], Value::Null);
    assert_eq!(value["selected"], 0);
}

#[test]
fn a_missing_required_parameter_stops_the_run() {
    let report = run_case(
        "workflows/settings-normalizer",
        "workflows/settings-normalizer/cases/missing-title.json",
    );
    assert_eq!(report.errors.len(), 1);
    let error = &report.errors[0];
    assert_eq!(
        error.message,
        "Missing required workflow parameter(s): title"
    );
    assert_eq!(error.details["code"], "missing_required_workflow_parameter");
    assert_eq!(error.details["requiredFields"], json!(["title"]));
    assert!(report.plan.is_none());
}

#[test]
fn deterministic_reports_are_identical() {
    let a = run_case(
        "workflows/mineru-package",
        "workflows/mineru-package/pdf-split/cases/long-book.json",
    );
    let b = run_case(
        "workflows/mineru-package",
        "workflows/mineru-package/pdf-split/cases/long-book.json",
    );
    assert_eq!(a.to_json(true).to_string(), b.to_json(true).to_string());
    let a = run_case(
        "workflows/export-summary",
        "workflows/export-summary/cases/canonical-parent.json",
    );
    let b = run_case(
        "workflows/export-summary",
        "workflows/export-summary/cases/canonical-parent.json",
    );
    assert_eq!(a.to_json(true).to_string(), b.to_json(true).to_string());
}

#[test]
fn streamed_reports_are_the_reports_json() {
    let report = run_case(
        "workflows/mineru-package",
        "workflows/mineru-package/pdf-split/cases/long-book.json",
    );
    for deterministic in [false, true] {
        let mut out = Vec::new();
        report.write_json(&mut out, deterministic).unwrap();
        let expected = format!("{}\n", report.to_json(deterministic));
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }
}

#[test]
fn progress_is_reported_after_each_unit_of_each_phase() {
    use hookrun::run::{Case, Phase, Progress, ProgressHook, run};
    use std::sync::{Arc, Mutex};
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let workflow = common::workflow("workflows/export-summary");
    let case = Case::load(&common::fixture(
        "workflows/export-summary/cases/grouped-two-papers.json",
    ))
    .unwrap();
    let options = common::run_options().progress(Some(ProgressHook(Arc::new(move |p| {
        sink.lock().unwrap().push(p)
    }))));
    let report = run(
        &workflow,
        case.input(None).unwrap(),
        &mut case.result_source(),
        &options,
    );
    assert!(report.ok());
    let seen: Vec<(Phase, usize, usize)> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|p| (p.phase, p.done, p.total))
        .collect();
    let mut expected = Vec::new();
    for phase in [
        Phase::Preflight,
        Phase::Requests,
        Phase::Results,
        Phase::Apply,
    ] {
        expected.extend([(phase, 1, 2), (phase, 2, 2)]);
    }
    assert_eq!(seen, expected);
}

#[test]
fn module_state_is_shared_by_a_run_unless_each_unit_gets_a_fresh_runtime() {
    use hookrun::run::{Case, run};
    let dir = tempfile::tempdir().unwrap();
    let workflow_dir = dir.path().join("counter");
    std::fs::create_dir_all(workflow_dir.join("hooks")).unwrap();
    std::fs::write(
        workflow_dir.join("hooks/apply.mjs"),
        "let calls = 0;\nexport function applyResult() { calls += 1; return calls; }\n",
    )
    .unwrap();
    let manifest =
        std::fs::read_to_string(common::fixture("workflows/export-summary/workflow.json"))
            .unwrap()
            .replace("hooks/applyResult.mjs", "hooks/apply.mjs");
    std::fs::write(workflow_dir.join("workflow.json"), manifest).unwrap();
    let found = hookrun::manifest::discover(&workflow_dir);
    let workflow = &found.workflows[0];
    let case = Case::load(&common::fixture(
        "workflows/export-summary/cases/grouped-two-papers.json",
    ))
    .unwrap();
    let counts = |fresh: bool| -> Vec<Value> {
        let options = common::run_options().fresh_runtime_per_unit(fresh);
        let report = run(
            workflow,
            case.input(None).unwrap(),
            &mut case.result_source(),
            &options,
        );
        report
            .units
            .iter()
            .map(|u| applied(&u.jobs[0].apply).clone())
            .collect()
    };
    assert_eq!(counts(false), [json!(1), json!(2)]);
    assert_eq!(counts(true), [json!(1), json!(1)]);
}

#[test]
fn asynchronous_result_sources_answer_requests() {
    use hookrun::run::{AsyncResultSource, Blocking, Case, JobRequest, ProviderResult, run};
    use std::future::Future;
    use std::pin::Pin;
    struct Remote;
    impl AsyncResultSource for Remote {
        fn result<'a>(
            &'a mut self,
            job: &'a JobRequest,
        ) -> Pin<Box<dyn Future<Output = ProviderResult> + 'a>> {
            Box::pin(async move {
                ProviderResult::Succeeded {
                    request_id: Some(format!("async-{}", job.key())),
                    result_json: Some(
                        json!({"kind": "literature_metadata_curation", "source": "async", "metadata": {"title": "T"}}),
                    ),
                    bundle: None,
                    extra: Default::default(),
                }
            })
        }
    }
    let workflow = common::workflow("workflows/metadata-curator");
    let case = Case::load(&common::fixture(
        "workflows/metadata-curator/cases/doi-fast-path.json",
    ))
    .unwrap();
    let report = run(
        &workflow,
        case.input(None).unwrap(),
        &mut Blocking(Remote),
        &common::run_options(),
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(
        report.units[1].jobs[0].request_id.as_deref(),
        Some("async-unit-2")
    );
    assert_eq!(applied(&report.units[1].jobs[0].apply)["source"], "async");
}

/// Answers each request with one shape of result JSON, by the request's index.
struct Shapes;

impl hookrun::run::ResultSource for Shapes {
    fn result(&mut self, job: &hookrun::run::JobRequest) -> hookrun::run::ProviderResult {
        let large: Vec<Value> = (0..3_000).map(Value::from).collect();
        let result_json = match job.index {
            0 => json!({"a": {"b": 1}}),
            1 => json!({"status": "success", "data": {"d": [1, 2]}, "error": null}),
            2 => json!("{\"a\":{\"b\":1}}"),
            _ => json!({"large": large}),
        };
        hookrun::run::ProviderResult::Succeeded {
            request_id: Some(format!("shape-{}", job.index)),
            result_json: Some(result_json),
            bundle: None,
            extra: Default::default(),
        }
    }
}

#[test]
fn the_result_context_holds_the_run_result_s_own_result_json() {
    // As on the reference host: `resultContext.resultJson` is the object
    // `runResult.resultJson` holds (or its envelope's `data`, the envelope
    // being `resultContext.envelope`), not a copy; result JSON given as text
    // is parsed into a new object. A run result large enough to stay on the
    // host until read (the fourth) is read for it.
    let dir = tempfile::tempdir().unwrap();
    let apply = "export function applyResult({ resultContext, runResult }) {
        const given = runResult.resultJson;
        const own = resultContext.resultJson;
        const same = own === given;
        const data = typeof given === \"object\" && own === given.data;
        const envelope = resultContext.envelope === given;
        if (typeof given === \"object\") given.seen = true;
        return { same, data, envelope, seen: own.seen === true, keys: Object.keys(resultContext) };
    }";
    let build = "export function buildRequest({ selectionContext }) {
        return { kind: \"probe\", title: selectionContext.items[0].title };
    }";
    let workflow = common::probe_workflow_of(
        "skillrunner",
        dir.path(),
        &[("buildRequest", build), ("applyResult", apply)],
    );
    let input = common::probe_input(&["object", "envelope", "text", "large"]);
    let report = hookrun::run::run(&workflow, input, &mut Shapes, &common::run_options());
    assert!(report.ok(), "{:?}", report.errors);
    let got: Vec<Value> = report
        .units
        .iter()
        .map(|u| applied(&u.jobs[0].apply).clone())
        .collect();
    let keys = |envelope: bool| {
        let mut keys = vec!["resultJson"];
        if envelope {
            keys.push("envelope");
        }
        keys.extend(["resultJsonSource", "warnings", "errors", "bundleReader"]);
        keys.extend([
            "resolveArtifact",
            "readArtifactText",
            "resolveArtifactBytes",
        ]);
        json!(keys)
    };
    let expected = [
        (true, false, false, true, keys(false)),
        (false, true, true, false, keys(true)),
        (false, false, false, false, keys(false)),
        (true, false, false, true, keys(false)),
    ]
    .map(|(same, data, envelope, seen, keys)| {
        json!({"same": same, "data": data, "envelope": envelope, "seen": seen, "keys": keys})
    });
    assert_eq!(got, expected);
}

#[test]
fn an_aggregate_child_s_result_context_holds_its_run_result_s_result_json() {
    let dir = tempfile::tempdir().unwrap();
    let preflight = "export function preflight() {
        return {
            kind: \"replace-units\",
            units: [0, 1, 2].map((i) => ({ id: `part-${i}`, order: i, context: { i } })),
            aggregate: { id: \"all\", mode: \"single-apply\", applyWhen: \"all-succeeded\", orderBy: \"unit.order\" },
        };
    }";
    let build = "export function buildRequest({ preflight }) {
        return { kind: \"probe\", taskName: `part ${preflight.context.i}` };
    }";
    let apply = "export function applyResult({ resultContext }) {
        return resultContext.aggregate.children.map((child) => {
            const given = child.runResult.resultJson;
            const own = child.resultContext.resultJson;
            return typeof given === \"object\" && (own === given || own === given.data);
        });
    }";
    let workflow = common::probe_workflow_of(
        "skillrunner",
        dir.path(),
        &[
            ("preflight", preflight),
            ("buildRequest", build),
            ("applyResult", apply),
        ],
    );
    let input = common::probe_input(&["book"]);
    let report = hookrun::run::run(&workflow, input, &mut Shapes, &common::run_options());
    assert!(report.ok(), "{:?}", report.errors);
    let aggregate = report.units[0].aggregate.as_ref().expect("an aggregate");
    // Children 0 and 1 answer an object and an envelope; child 2's result JSON
    // is text, parsed into an object of its own.
    assert_eq!(applied(&aggregate.apply), &json!([true, true, false]));
}

#[test]
fn a_pass_through_run_result_s_response_is_its_result() {
    // As the reference host's pass-through provider answers: one object as
    // `resultJson` and `responseJson`.
    let probe = "(runResult, request, resultContext) => [
        runResult.responseJson === runResult.resultJson,
        runResult.resultJson.selectionContext.items[0].title === request.selectionContext.items[0].title,
        resultContext.resultJson === runResult.resultJson,
    ]";
    let build = "export function buildRequest({ selectionContext }) {
        return { kind: \"pass-through.run.v1\", taskName: \"t\", selectionContext };
    }";
    let each = format!(
        "const probe = {probe};
        export function applyResult({{ runResult, request, resultContext }}) {{
            return probe(runResult, request, resultContext);
        }}"
    );
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(
        dir.path(),
        &[("buildRequest", build), ("applyResult", &each)],
    );
    let report = hookrun::run::run(
        &workflow,
        common::probe_input(&["a", "b"]),
        &mut hookrun::run::NoResults,
        &common::run_options(),
    );
    assert!(report.ok(), "{:?}", report.errors);
    for unit in &report.units {
        assert_eq!(applied(&unit.jobs[0].apply), &json!([true, true, true]));
        // The report keeps both members.
        let result = unit.jobs[0].result.as_ref().unwrap();
        assert_eq!(result["responseJson"], result["resultJson"]);
        assert_eq!(result["resultJson"]["kind"], "pass-through.run.v1");
    }
    let preflight = "export function preflight() {
        return {
            kind: \"replace-units\",
            units: [0, 1].map((i) => ({ id: `part-${i}`, order: i, context: { i } })),
            aggregate: { id: \"all\", mode: \"single-apply\", applyWhen: \"all-succeeded\", orderBy: \"unit.order\" },
        };
    }";
    let aggregate = format!(
        "const probe = {probe};
        export function applyResult({{ resultContext }}) {{
            return resultContext.aggregate.children.map((c) => probe(c.runResult, c.request, c.resultContext));
        }}"
    );
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(
        dir.path(),
        &[
            ("preflight", preflight),
            ("buildRequest", build),
            ("applyResult", &aggregate),
        ],
    );
    let report = hookrun::run::run(
        &workflow,
        common::probe_input(&["book"]),
        &mut hookrun::run::NoResults,
        &common::run_options(),
    );
    assert!(report.ok(), "{:?}", report.errors);
    let aggregate = report.units[0].aggregate.as_ref().expect("an aggregate");
    assert_eq!(
        applied(&aggregate.apply),
        &json!([[true, true, true], [true, true, true]])
    );
}
