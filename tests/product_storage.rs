//! `productStorage` as `applyResult` hooks receive it: one member,
//! `registerProduct`, registering products from result artifacts, local files
//! and inline text by the reference host's rules; every call an effect, the
//! products in the run report and in a case's expectations. And the other
//! writes a run cannot perform: members answered from the fixture that change
//! something on the reference host are recorded as effects too.

use crate::common;

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use hookrun::hooks::InvocationMode;
use hookrun::run::{
    BundleSource, JobRequest, ProviderResult, ResultSource, RunOptions, RunReport, run,
};
use hookrun::sandbox::Determinism;

/// Answers every request with request id `R` and the bundle directory it holds.
struct Bundled(PathBuf);

impl ResultSource for Bundled {
    fn result(&mut self, _: &JobRequest) -> ProviderResult {
        ProviderResult::Succeeded {
            request_id: Some("R".into()),
            result_json: Some(json!({"ok": true})),
            bundle: Some(BundleSource::Dir(self.0.clone())),
            extra: Default::default(),
        }
    }
}

const BUILD: &str = "export function buildRequest(arg) {
    return { kind: \"probe\", storageInBuild: \"productStorage\" in arg };
}";

/// Runs `apply` over one parent of a provider workflow whose result bundle
/// holds `entries`; returns the report and what the hook returned.
fn run_with(apply: &str, entries: &[(&str, &[u8])], options: &RunOptions) -> (RunReport, Value) {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("bundle");
    for (name, bytes) in entries
        .iter()
        .chain([("result/result.json", &b"{}"[..])].iter())
    {
        let path = bundle.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let hooks = [("buildRequest", BUILD), ("applyResult", apply)];
    let workflow = common::probe_workflow_of("skillrunner", &dir.path().join("wf"), &hooks);
    let input = common::probe_input(&["Cats"]);
    let report = run(&workflow, input, &mut Bundled(bundle), options);
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap();
    (report, value)
}

/// [`run_with`] with the default options; the hook must succeed.
fn register(apply: &str, entries: &[(&str, &[u8])]) -> (RunReport, Value) {
    let (report, apply) = run_with(apply, entries, &common::run_options());
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(apply["status"], "succeeded", "{apply}");
    (report, apply["value"].clone())
}

/// A hook registering each input of `inputs` (JSON) in turn, answering each
/// receipt or the error it got.
fn registering(inputs: &str) -> String {
    format!(
        "export async function applyResult({{ productStorage }}) {{
            const out = [];
            for (const input of {inputs}) {{
                try {{
                    out.push(await productStorage.registerProduct(input));
                }} catch (e) {{
                    out.push({{ name: e.name, message: e.message, code: e.code ?? null,
                        host: e instanceof Error && !(\"details\" in e) }});
                }}
            }}
            return out;
        }}"
    )
}

fn sha(bytes: &[u8]) -> String {
    format!("sha256:{:x}", Sha256::digest(bytes))
}

fn calls(report: &RunReport) -> Vec<(&str, bool)> {
    report
        .effects
        .iter()
        .map(|e| (e.call.as_str(), e.error.is_some()))
        .collect()
}

#[test]
fn apply_result_alone_receives_a_storage_with_one_member_in_both_modes() {
    let apply = "export async function applyResult(arg) {
        const storage = arg.productStorage;
        let thrown = null;
        try { storage.getProduct(\"x\"); } catch (e) { thrown = e.name; }
        return {
            type: typeof storage.registerProduct,
            keys: Object.keys(storage),
            getProduct: typeof storage.getProduct,
            thrown,
            frozen: Object.isFrozen(storage),
            inHostApi: \"productStorage\" in arg.runtime.hostApi,
            inBuild: arg.request.storageInBuild,
        };
    }";
    for mode in [InvocationMode::NonInteractive, InvocationMode::Interactive] {
        let mut options = common::run_options();
        options.runtime.invocation_mode = mode;
        let (report, apply) = run_with(apply, &[], &options);
        assert!(report.ok(), "{:?}", report.errors);
        assert_eq!(
            apply["value"],
            json!({"type": "function", "keys": ["registerProduct"], "getProduct": "undefined",
                "thrown": "TypeError", "frozen": true, "inHostApi": false, "inBuild": false})
        );
        assert!(report.effects.is_empty() && report.products.is_empty());
    }
}

#[test]
fn a_short_circuit_apply_receives_one_too() {
    let dir = tempfile::tempdir().unwrap();
    let preflight = "export function preflight() {
        return { kind: \"short-circuit-apply\", apply: { resultJson: { done: true } } };
    }";
    let apply = registering(
        "[{ productKey: \"note\", kind: \"k\", title: \"T\",
            assets: [{ assetId: \"a\", source: { kind: \"inline-text\", text: \"hi\" } }] }]",
    );
    let workflow = common::probe_workflow(
        dir.path(),
        &[("preflight", preflight), ("applyResult", &apply)],
    );
    let report = run(
        &workflow,
        common::probe_input(&["Cats"]),
        &mut hookrun::run::NoResults,
        &common::run_options(),
    );
    assert!(report.ok(), "{:?}", report.errors);
    let (id, record) = report.products.iter().next().expect("a product");
    assert!(
        id.starts_with("preflight-probe-") && id.ends_with(":note"),
        "{id}"
    );
    assert_eq!(record["assets"][0]["availability"], "available");
}

#[test]
fn a_result_artifact_is_registered_with_its_digest_and_recorded() {
    let plan = br#"{"title":"Plan"}"#;
    let apply = registering(
        "[{ productKey: \"draft\", kind: \"writing.test\", title: \"Local Product\",
            assets: [{ assetId: \"plan\", label: \"Plan\", rawPath: \"result/writing-plan.json\",
                contentType: \"application/json\" }] }]",
    );
    let (report, value) = register(&apply, &[("result/writing-plan.json", plan)]);
    let receipt = json!({"productId": "R:draft", "assetCount": 1, "availableAssetCount": 1,
        "missingAssetCount": 0});
    assert_eq!(value, json!([receipt]));
    let record = &report.products["R:draft"];
    assert_eq!(record["schemaVersion"], 2);
    assert_eq!(record["workflowId"], "probe");
    assert_eq!(record["workflowLabel"], "Probe");
    assert_eq!(record["requestId"], "R");
    assert_eq!(
        record["assets"],
        json!([{"assetId": "plan", "label": "Plan", "relativePath": "result/writing-plan.json",
            "contentType": "application/json", "availability": "available", "size": plan.len(),
            "sha256": sha(plan)}])
    );
    assert!(record.get("cacheDir").is_none());
    assert_eq!(report.effects.len(), 1);
    let effect = &report.effects[0];
    assert_eq!(effect.call, "productStorage.registerProduct");
    assert_eq!(effect.args[0]["productKey"], "draft");
    assert_eq!(effect.result, receipt);
    let json = report.to_json(true);
    assert_eq!(json["products"]["R:draft"], *record);
    assert!(json["effects"][0].get("product").is_none());
}

#[test]
fn product_asset_paths_and_fallback_paths_name_the_relative_path() {
    let deep = format!("papers/paper-001/Images_IX5R2J7K/{}.jpg", "a".repeat(64));
    let apply = registering(&format!(
        "[{{ productKey: \"draft\", kind: \"k\", title: \"T\", assets: [
            {{ assetId: \"intro\", rawPath: \"result/intro.md\", productAssetPath: \"draft/intro.md\",
               contentType: \"text/markdown\" }},
            {{ assetId: \"tex\", rawPath: \"D:/remote/run/result/introduction.tex\",
               fallbackPath: \"result/introduction.tex\", contentType: \"text/x-tex\" }},
            {{ assetId: \"deep\", source: {{ kind: \"inline-text\", text: \"jpg\" }},
               productAssetPath: \"{deep}\" }}] }}]"
    ));
    let (report, value) = register(
        &apply,
        &[
            ("result/intro.md", b"# Intro\n\nBody"),
            ("result/introduction.tex", b"\\section{Intro}"),
        ],
    );
    assert_eq!(value[0]["availableAssetCount"], 3, "{value}");
    let paths: Vec<&Value> = report.products["R:draft"]["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["relativePath"])
        .collect();
    assert_eq!(
        paths,
        [
            &json!("draft/intro.md"),
            &json!("result/introduction.tex"),
            &json!(deep)
        ]
    );
}

#[test]
fn binary_sources_keep_their_size_and_digest() {
    let pdf: &[u8] = &[0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10];
    let png: &[u8] = &[0x89, 0x50, 0x4e, 0x47, 0x00, 0xfe];
    let apply = "export async function applyResult({ productStorage, runtime }) {
        const file = runtime.hostApi.file;
        const path = `${file.getTempDirectoryPath()}/paper.pdf`;
        await file.writeBytes(path, new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]));
        return productStorage.registerProduct({ productKey: \"bin\", kind: \"k\", title: \"T\",
            failurePolicy: \"atomic\", assets: [
                { assetId: \"pdf\", source: { kind: \"local-file\", path: `file://${path}` },
                  productAssetPath: \"papers/paper.pdf\" },
                { assetId: \"png\", rawPath: \"result/image.png\", productAssetPath: \"images/image.png\" }] });
    }";
    let (report, value) = register(apply, &[("result/image.png", png)]);
    assert_eq!(value["availableAssetCount"], 2, "{value}");
    let assets = &report.products["R:bin"]["assets"];
    assert_eq!(
        (&assets[0]["size"], &assets[1]["size"]),
        (&json!(7), &json!(6))
    );
    assert_eq!(assets[0]["sha256"], sha(pdf));
    assert_eq!(assets[1]["sha256"], sha(png));
    assert_eq!(
        calls(&report),
        [
            ("file.writeBytes", false),
            ("productStorage.registerProduct", false)
        ]
    );
}

#[test]
fn duplicate_and_unsafe_paths_fail_with_plain_errors_and_record_nothing() {
    let text = "source: { kind: \"inline-text\", text: \"x\" }";
    let apply = registering(&format!(
        "[{{ productKey: \"duplicate\", kind: \"k\", title: \"T\", failurePolicy: \"atomic\", assets: [
            {{ assetId: \"a\", productAssetPath: \"same.txt\", {text} }},
            {{ assetId: \"b\", productAssetPath: \"same.txt\", {text} }}] }},
          ...[\"../escape.txt\", \"/absolute.txt\", \"C:\\\\absolute.txt\"].map((p, i) => ({{
            productKey: `unsafe-${{i}}`, kind: \"k\", title: \"T\", failurePolicy: \"atomic\",
            assets: [{{ assetId: \"a\", productAssetPath: p, {text} }}] }}))]"
    ));
    let (report, value) = register(&apply, &[]);
    let invalid = |m: &str| json!({"name": "ManagedPathPolicyError", "message": m, "code": "managed_path_invalid", "host": true});
    assert_eq!(
        value,
        json!([
            {"name": "Error", "message": "duplicate product asset path: same.txt", "code": null, "host": true},
            invalid("Managed relative path must not traverse directories."),
            invalid("Managed relative path must not be absolute."),
            invalid("Managed relative path must not be absolute."),
        ])
    );
    assert!(report.products.is_empty());
    assert_eq!(
        calls(&report),
        [("productStorage.registerProduct", true); 4]
    );
    let error = report.effects[0].error.as_ref().unwrap();
    assert_eq!(error["message"], "duplicate product asset path: same.txt");
}

#[test]
fn a_failed_atomic_update_keeps_the_published_product() {
    let apply = registering(
        "[{ productKey: \"same\", kind: \"k\", title: \"First\",
            assets: [{ assetId: \"a\", source: { kind: \"inline-text\", text: \"first revision\" } }] },
          { productKey: \"same\", kind: \"k\", title: \"Broken\", failurePolicy: \"atomic\",
            assets: [{ assetId: \"a\", source: { kind: \"local-file\", path: \"/nowhere/missing-image.png\" } }] }]",
    );
    let (report, value) = register(&apply, &[]);
    assert_eq!(
        value[1]["message"],
        "local product asset does not exist: /nowhere/missing-image.png"
    );
    let record = &report.products["R:same"];
    assert_eq!(record["title"], "First");
    assert_eq!(record["assets"][0]["sha256"], sha(b"first revision"));
    assert_eq!(
        calls(&report),
        [
            ("productStorage.registerProduct", false),
            ("productStorage.registerProduct", true)
        ]
    );
}

#[test]
fn a_later_registration_replaces_the_product_and_keeps_its_creation_date() {
    let apply = registering(
        "[{ productKey: \"same\", kind: \"k\", title: \"Slow\",
            assets: [{ assetId: \"a\", source: { kind: \"inline-text\", text: \"slow\" } }] },
          { productKey: \"same\", kind: \"k\", title: \"Fast\",
            assets: [{ assetId: \"b\", source: { kind: \"inline-text\", text: \"fast\" } }] }]",
    );
    let (report, value) = register(&apply, &[]);
    assert_eq!(value[1]["productId"], "R:same");
    let record = &report.products["R:same"];
    assert_eq!(record["title"], "Fast");
    assert_eq!(record["assets"][0]["sha256"], sha(b"fast"));
    assert_eq!(record["assets"].as_array().unwrap().len(), 1);
    assert!(record["createdAt"].as_str().unwrap() <= record["updatedAt"].as_str().unwrap());
    assert_eq!(report.effects.len(), 2);
}

#[test]
fn duplicates_are_found_on_the_resolved_entry() {
    let apply = registering(
        "[{ productKey: \"shared\", kind: \"k\", title: \"T\", assets: [
            { assetId: \"first\", rawPath: \"/srv/one/result/shared.txt\" },
            { assetId: \"second\", rawPath: \"/srv/two/result/shared.txt\" }] }]",
    );
    let (report, value) = register(&apply, &[("result/shared.txt", b"shared")]);
    assert_eq!(
        value[0]["message"],
        "duplicate product asset path: result/shared.txt"
    );
    assert!(report.products.is_empty());
}

#[test]
fn an_unresolved_asset_is_recorded_missing_by_default_and_ids_are_sanitised() {
    let apply = registering(
        "[{ productKey: \"my key/x\", kind: \"k\", title: \"T\",
            assets: [{ assetId: \"plan\", rawPath: \"result/absent.json\" }] },
          { kind: \"\", title: \"\", metadata: [1], assets: [{ source: { kind: \"inline-text\", text: \"t\" } }] },
          { productKey: \"gone\", kind: \"k\", title: \"T\", failurePolicy: \"atomic\",
            assets: [{ assetId: \"i\", source: { kind: \"local-file\", path: \"file:///nowhere/missing-image.png\" } }] }]",
    );
    let (report, value) = register(&apply, &[]);
    assert_eq!(
        value[0],
        json!({"productId": "R:my-key-x", "assetCount": 1, "availableAssetCount": 0, "missingAssetCount": 1})
    );
    let missing = &report.products["R:my-key-x"]["assets"][0];
    assert_eq!(missing["availability"], "missing");
    assert_eq!(missing["relativePath"], "plan");
    assert_eq!(missing["diagnostics"].as_array().unwrap().len(), 1);
    assert!(missing.get("sha256").is_none());
    let default = &report.products["R:default"];
    assert_eq!(
        (&default["kind"], &default["title"]),
        (&json!("workflow.product"), &json!("R:default"))
    );
    assert_eq!(default["metadata"], json!({}));
    assert_eq!(default["assets"][0]["assetId"], "product");
    assert!(
        value[2]["message"]
            .as_str()
            .unwrap()
            .starts_with("local product asset does not exist: file:///nowhere/"),
        "{value}"
    );
    assert!(!report.products.contains_key("R:gone"));
}

#[test]
fn cases_may_expect_products_without_their_revisions_and_dates() {
    let apply = registering(
        "[{ productKey: \"note\", kind: \"k\", title: \"T\", metadata: { topic: \"x\" },
            assets: [{ assetId: \"a\", source: { kind: \"inline-text\", text: \"hi\" } }] }]",
    );
    let (report, _) = register(&apply, &[]);
    let actual = hookrun::run::expect::actual(&report);
    let product = json!({"schemaVersion": 2, "productId": "R:note", "productKey": "note",
        "kind": "k", "title": "T", "workflowId": "probe", "workflowLabel": "Probe",
        "backendType": "skillrunner", "backendId": "skillrunner", "runId": "R", "runKey": "R",
        "requestId": "R", "metadata": {"topic": "x"},
        "assets": [{"assetId": "a", "label": "a", "relativePath": "a", "availability": "available",
            "size": 2, "sha256": sha(b"hi")}]});
    assert_eq!(actual["products"], json!({"R:note": product}));
    let mut expect = Map::new();
    expect.insert("products".into(), json!({"R:note": product}));
    assert!(hookrun::run::expect::compare(&expect, &report).is_empty());
    expect.insert("products".into(), json!({}));
    assert_eq!(hookrun::run::expect::compare(&expect, &report).len(), 1);
}

#[test]
fn the_streamed_report_lists_the_products_as_the_collected_one_does() {
    let apply = registering(
        "[{ productKey: \"note\", kind: \"k\", title: \"T\",
            assets: [{ assetId: \"a\", source: { kind: \"inline-text\", text: \"hi\" } }] }]",
    );
    let dir = tempfile::tempdir().unwrap();
    let hooks = [("applyResult", apply.as_str())];
    let workflow = common::probe_workflow(&dir.path().join("wf"), &hooks);
    let options = common::run_options()
        .sandbox(common::sandbox_options().determinism(Some(Determinism::default())));
    let collected = run(
        &workflow,
        common::probe_input(&["Cats"]),
        &mut hookrun::run::NoResults,
        &options,
    );
    let mut writer = hookrun::run::JsonReportWriter::new(Vec::new(), "probe", true);
    hookrun::run::run_observed(
        &workflow,
        common::probe_input(&["Cats"]),
        &mut hookrun::run::NoResults,
        &options,
        &mut writer,
    );
    let streamed: Value = serde_json::from_slice(&writer.into_inner().unwrap()).unwrap();
    let products = &collected.to_json(true)["products"];
    assert_eq!(products.as_object().unwrap().len(), 1);
    assert_eq!(&streamed["products"], products);
    let keys: Vec<&String> = streamed.as_object().unwrap().keys().collect();
    let at = |k: &str| keys.iter().position(|x| *x == k).unwrap();
    assert_eq!(at("products"), at("effects") + 1);
}

#[test]
fn fixture_answered_writes_are_recorded_and_imports_replay_by_operation_id() {
    let apply = "export async function applyResult({ runtime }) {
        const api = runtime.hostApi;
        const first = { operationId: \"imp-1\", papers: [{ title: \"A\" }] };
        const out = [await api.researchBundles.importPapers(first)];
        out.push(await api.researchBundles.importPapers(first));
        for (const call of [
            () => api.researchBundles.importPapers({ operationId: \"imp-1\", papers: [] }),
            () => api.researchBundles.importPapers({ operationId: \"imp-2\", papers: [] }),
        ]) {
            try { out.push(await call()); } catch (e) { out.push([e.code, e.details.reason ?? null]); }
        }
        out.push(await api.resources.publishOutput({ outputId: \"o\" }));
        out.push(await api.synthesis.tags.loadVocabulary({}));
        return out;
    }";
    let imported =
        json!({"schema": "zotero-agents.research-import.v1", "papers": [{"outcome": "committed"}]});
    let answers = json!({
        "researchBundles.importPapers": [{"args": [{"operationId": "imp-1", "papers": [{"title": "A"}]}], "answer": imported}],
        "resources.publishOutput": [{"args": [], "answer": {"published": true}}],
        "synthesis.tags.loadVocabulary": [{"args": [], "answer": {"tags": []}}]
    });
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), &[("applyResult", apply)]);
    let mut input = common::probe_input(&["Cats"]);
    input.answers.members = hookrun::host::answers::HostAnswers::parse_members(&answers).unwrap();
    let report = run(
        &workflow,
        input,
        &mut hookrun::run::NoResults,
        &common::run_options(),
    );
    assert!(report.ok(), "{:?}", report.errors);
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    assert_eq!(
        value,
        json!([imported, imported, ["conflict", "idempotency_conflict"], ["unavailable", "runtime"],
            {"published": true}, {"tags": []}])
    );
    assert_eq!(
        calls(&report),
        [
            ("researchBundles.importPapers", false),
            ("researchBundles.importPapers", true),
            ("researchBundles.importPapers", true),
            ("resources.publishOutput", false),
        ]
    );
    assert_eq!(report.effects[0].result, imported);
}
