//! Loading workflows from disk: hooks, build strategies, packages, locales, discovery.

use std::path::Path;

use serde_json::{Value, json};

use crate::manifest::test_support::{base, edited, messages, write_tree, write_workflow};
use crate::manifest::{
    BuildStrategy, Category, DeclaredKind, HookName, Level, Provider, RequestKind, Workflow,
    discover, load_package, load_workflow,
};

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}

fn load(root: &Path, manifest: &Value) -> (Option<Workflow>, Vec<String>) {
    let dir = write_workflow(root, "wf", manifest);
    let loaded = load_workflow(&dir.join("workflow.json"));
    (loaded.workflow, messages(&loaded.diagnostics))
}

#[test]
fn loads_a_hook_built_workflow_with_resolved_hooks() {
    let tmp = tempdir();
    let manifest = edited(&[
        ("/provider", Some(json!("  skillrunner "))),
        ("/request", Some(json!({"kind": "skillrunner.job.v1"}))),
        (
            "/parameters",
            Some(json!({"b": {"type": "string"}, "a": {"type": "number"}})),
        ),
        ("/debug_only", Some(json!(true))),
    ]);
    let (workflow, problems) = load(tmp.path(), &manifest);
    assert_eq!(problems, Vec::<String>::new());
    let w = workflow.unwrap_or_else(|| panic!("loaded"));
    assert_eq!(w.provider, Provider::SkillRunner);
    assert_eq!(w.build_strategy, BuildStrategy::Hook);
    assert_eq!(
        w.request_kind,
        Some(DeclaredKind::Known(RequestKind::SkillRunnerJob))
    );
    assert!(w.debug_only && !w.in_package);
    let names: Vec<_> = w
        .hooks
        .iter()
        .map(|h| (h.export, h.relative.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("applyResult", "hooks/apply.mjs"),
            ("buildRequest", "hooks/build.mjs")
        ]
    );
    let apply = w
        .hook(HookName::ApplyResult)
        .map(|h| h.path.clone())
        .unwrap_or_default();
    assert!(apply.is_absolute() && apply.ends_with("wf/hooks/apply.mjs"));
    assert_eq!(w.jail_root, w.workflow_dir);
    assert_eq!(w.package_root, w.workflow_dir);
    assert_eq!(w.package_id, "demo");
    assert_eq!(w.content_digest.as_ref().map(String::len), Some(64));
    let keys: Vec<_> = w
        .parameters
        .entries
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(keys, ["b", "a"]);
}

#[test]
fn build_strategies() {
    let tmp = tempdir();
    let no_hook = |provider: &str, request: Option<Value>| {
        edited(&[
            ("/hooks/buildRequest", None),
            ("/provider", Some(json!(provider))),
            ("/request", request),
        ])
    };
    let (w, _) = load(tmp.path(), &no_hook("pass-through", None));
    assert_eq!(
        w.map(|w| w.build_strategy),
        Some(BuildStrategy::Declarative {
            kind: "pass-through.run.v1".into()
        })
    );
    let job = json!({"kind": "skillrunner.job.v1", "create": {"skill_id": "s", "mode": "auto"}});
    let (w, _) = load(tmp.path(), &no_hook("skillrunner", Some(job)));
    assert_eq!(
        w.map(|w| w.build_strategy),
        Some(BuildStrategy::Declarative {
            kind: "skillrunner.job.v1".into()
        })
    );
    let (w, problems) = load(tmp.path(), &no_hook("generic-http", None));
    assert!(w.is_none());
    assert_eq!(
        problems,
        ["Skip workflow demo: missing hooks.buildRequest and request declaration"]
    );
}

#[test]
fn hook_path_rules() {
    let tmp = tempdir();
    let with_hook = |name: &str, path: &str| edited(&[(name, Some(json!(path)))]);
    let (w, problems) = load(
        tmp.path(),
        &with_hook("/hooks/preflight", "hooks/missing.mjs"),
    );
    assert!(w.is_none());
    assert_eq!(
        problems,
        ["Skip workflow demo: Hook file missing: hooks/missing.mjs"]
    );
    let (_, problems) = load(tmp.path(), &with_hook("/hooks/preflight", "../outside.mjs"));
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].starts_with("/hooks/preflight leaves the module root "),
        "{problems:?}"
    );
    let (_, problems) = load(tmp.path(), &with_hook("/hooks/preflight", "/etc/passwd.js"));
    assert!(
        problems[0].starts_with("/hooks/preflight leaves the module root "),
        "{problems:?}"
    );
    let (_, problems) = load(
        tmp.path(),
        &with_hook("/hooks/normalizeSettings", "hooks/n.ts"),
    );
    assert_eq!(
        problems,
        ["/hooks/normalizeSettings must name a .mjs or .js module: hooks/n.ts"]
    );
    // `.js` is accepted for single workflows; a path through `..` that stays inside is fine.
    write_tree(
        tmp.path(),
        &[("wf/lib/p.js", "export function preflight() {}".into())],
    );
    let (w, problems) = load(
        tmp.path(),
        &with_hook("/hooks/preflight", "hooks/../lib/p.js"),
    );
    assert_eq!(problems, Vec::<String>::new());
    assert!(w.is_some_and(|w| w.hook(HookName::Preflight).is_some()));
}

#[cfg(unix)]
#[test]
fn symlinked_hook_leaving_the_root_is_refused() {
    let tmp = tempdir();
    write_tree(tmp.path(), &[("secret.mjs", "export const x = 1;".into())]);
    let dir = write_workflow(
        tmp.path(),
        "wf",
        &edited(&[("/hooks/preflight", Some(json!("hooks/link.mjs")))]),
    );
    std::os::unix::fs::symlink(tmp.path().join("secret.mjs"), dir.join("hooks/link.mjs"))
        .unwrap_or_else(|e| panic!("symlink: {e}"));
    let loaded = load_workflow(&dir.join("workflow.json"));
    assert!(loaded.workflow.is_none());
    let d = &loaded.diagnostics[0];
    assert_eq!(d.category, Category::ManifestValidationError);
    assert_eq!(d.pointer.as_deref(), Some("/hooks/preflight"));
    assert!(d.message.contains("keep hook preflight() inside it"));
}

#[test]
fn skipped_workflow_diagnostics_carry_context() {
    let tmp = tempdir();
    let dir = write_workflow(
        tmp.path(),
        "wf",
        &edited(&[("/schemaVersion", Some(json!(1)))]),
    );
    let loaded = load_workflow(&dir.join("workflow.json"));
    let d = &loaded.diagnostics[1];
    assert_eq!(d.level, Level::Warning);
    assert_eq!(d.workflow_id.as_deref(), Some("demo"));
    assert_eq!(d.path.as_deref(), Some(dir.join("workflow.json").as_path()));
    let json = serde_json::to_value(d).unwrap_or_default();
    assert_eq!(json["workflowId"], "demo");
    assert_eq!(json["pointer"], "/schemaVersion");

    std::fs::write(dir.join("workflow.json"), "{\"id\": ").unwrap_or_default();
    let loaded = load_workflow(&dir.join("workflow.json"));
    assert_eq!(loaded.diagnostics[0].category, Category::ManifestParseError);
    assert_eq!(loaded.diagnostics[0].line, Some(1));
}

#[test]
fn localisation_inline_package_raw_key() {
    let tmp = tempdir();
    let manifest = edited(&[
        ("/hooks/applyResult", Some(json!("apply.mjs"))),
        ("/hooks/buildRequest", None),
        ("/provider", Some(json!("pass-through"))),
        (
            "/parameters",
            Some(json!({"lang": {"type": "string", "title": "Language"}})),
        ),
        (
            "/i18n",
            Some(
                json!({"defaultLocale": "en", "messages": {"en": {"label": "Demo EN"}, "de": {"label": "Demo DE"}}}),
            ),
        ),
    ]);
    write_tree(
        tmp.path(),
        &[
            ("pkg/workflow-package.json", json!({"id": "pkg", "version": "1.0.0", "workflows": ["demo/workflow.json"],
                "i18n": {"defaultLocale": "en", "locales": {"fr": "locales/fr.json", "es": "../es.json", "it": 3, "nl": "locales/nl.json", "pt": "locales/none.json"}}}).to_string()),
            ("pkg/locales/fr.json", json!({"workflows.demo.label": "Démo", "workflows.demo.parameters.lang.title": "Langue"}).to_string()),
            ("pkg/locales/nl.json", json!({"workflows.demo.label": 5}).to_string()),
            ("pkg/demo/workflow.json", manifest.to_string()),
            ("pkg/demo/apply.mjs", "export function applyResult() {}".into()),
        ],
    );
    let found = load_package(&tmp.path().join("pkg"));
    let w = found
        .workflows
        .first()
        .cloned()
        .unwrap_or_else(|| panic!("{:#?}", found.diagnostics));
    assert_eq!(w.localized("label", "de-AT"), "Demo DE");
    assert_eq!(
        w.localized("label", "fr-FR"),
        "Demo EN",
        "inline default locale wins over package file"
    );
    assert_eq!(w.localized("parameters.lang.title", "fr"), "Langue");
    assert_eq!(w.localized("parameters.lang.title", "de"), "Language");
    assert_eq!(w.localized("skills.s1.name", "de"), "skills.s1.name");
    let mut problems: Vec<(String, String)> = found
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.pointer.clone().unwrap_or_default(),
                d.category.as_str().to_string(),
            )
        })
        .collect();
    problems.sort();
    let pointers: Vec<_> = problems.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/i18n/locales/es",
            "/i18n/locales/it",
            "/i18n/locales/nl",
            "/i18n/locales/pt"
        ]
    );
    assert!(
        problems
            .iter()
            .all(|(_, c)| c == "manifest_validation_error")
    );
    assert!(w.in_package && w.package_id == "pkg");
    assert_eq!(w.jail_root, w.package_root);
    assert_ne!(w.jail_root, w.workflow_dir);
}

fn package_tree(root: &Path, workflows: Value, hook: &str) {
    let m = |id: &str| {
        edited(&[
            ("/id", Some(json!(id))),
            ("/hooks/applyResult", Some(json!(hook))),
            ("/hooks/buildRequest", None),
            ("/provider", Some(json!("pass-through"))),
        ])
    };
    write_tree(
        root,
        &[
            (
                "pkg/workflow-package.json",
                json!({"id": "pkg", "version": "1", "workflows": workflows}).to_string(),
            ),
            ("pkg/a/workflow.json", m("a").to_string()),
            ("pkg/b/workflow.json", m("b").to_string()),
            ("pkg/a/apply.mjs", "export function applyResult() {}".into()),
            ("pkg/b/apply.mjs", "export function applyResult() {}".into()),
            ("pkg/a/apply.js", "export function applyResult() {}".into()),
            (
                "pkg/lib/shared.mjs",
                "export function applyResult() {}".into(),
            ),
        ],
    );
}

#[test]
fn package_rules() {
    let tmp = tempdir();
    package_tree(
        tmp.path(),
        json!([
            "a/workflow.json",
            "b/workflow.json",
            "../x/workflow.json",
            "c/workflow.json"
        ]),
        "apply.mjs",
    );
    let found = load_package(&tmp.path().join("pkg"));
    let ids: Vec<_> = found.workflows.iter().map(|w| w.id.as_str()).collect();
    assert_eq!(ids, ["a", "b"]);
    assert_eq!(
        found.workflows[0].content_digest,
        found.workflows[1].content_digest
    );
    let msgs = messages(&found.diagnostics);
    assert!(
        msgs.contains(
            &"/workflows/2 must be a package-relative path inside the package: ../x/workflow.json"
                .to_string()
        ),
        "{msgs:?}"
    );
    assert!(msgs.iter().any(|m| m.starts_with("Invalid workflow manifest: ") && m.ends_with("c/workflow.json")), "{msgs:?}");

    let tmp = tempdir();
    package_tree(tmp.path(), json!(["a/workflow.json"]), "apply.js");
    let found = load_package(&tmp.path().join("pkg"));
    assert_eq!(
        messages(&found.diagnostics),
        ["Skip workflow a: Workflow-package hook must use .mjs: apply.js"]
    );

    // Hooks of package workflows may reach shared package code but not leave the package.
    let tmp = tempdir();
    package_tree(tmp.path(), json!(["a/workflow.json"]), "../lib/shared.mjs");
    assert_eq!(load_package(&tmp.path().join("pkg")).workflows.len(), 1);
    let tmp = tempdir();
    package_tree(tmp.path(), json!(["a/workflow.json"]), "../../outside.mjs");
    let found = load_package(&tmp.path().join("pkg"));
    assert!(found.workflows.is_empty());
    assert!(
        found.diagnostics[0]
            .message
            .starts_with("/hooks/applyResult leaves the module root")
    );
}

#[test]
fn package_manifest_schema() {
    let cases = [
        (
            json!({"id": "p", "version": "1", "workflows": []}),
            "/workflows must NOT have fewer than 1 items",
        ),
        (
            json!({"id": "p", "version": "1", "workflows": [""]}),
            "/workflows/0 must NOT have fewer than 1 characters",
        ),
        (
            json!({"id": "p", "workflows": ["a"]}),
            "/ missing required property \"version\"",
        ),
        (
            json!({"id": "p", "version": "1", "workflows": ["a"], "name": "x"}),
            "/ unexpected property \"name\"",
        ),
        (
            json!({"id": "p", "version": "1", "workflows": ["a"], "i18n": {"locales": []}}),
            "/i18n/locales must be object",
        ),
        (
            json!({"id": "p", "version": "1", "workflows": ["a"], "i18n": {"messages": {}}}),
            "/i18n unexpected property \"messages\"",
        ),
    ];
    for (package, expected) in cases {
        let tmp = tempdir();
        write_tree(
            tmp.path(),
            &[("workflow-package.json", package.to_string())],
        );
        let found = load_package(tmp.path());
        assert_eq!(messages(&found.diagnostics), [expected]);
    }
}

#[test]
fn discovery_of_a_workflows_directory() {
    let tmp = tempdir();
    let root = tmp.path();
    write_workflow(root, "alpha", &edited(&[("/id", Some(json!("alpha")))]));
    write_workflow(root, "broken", &edited(&[("/trigger", None)]));
    write_tree(
        root,
        &[
            ("garbage/workflow.json", "{not json".into()),
            ("notes/readme.txt", "x".into()),
        ],
    );
    write_workflow(root, "dup", &edited(&[("/id", Some(json!("alpha")))]));
    package_tree(root, json!(["a/workflow.json"]), "apply.mjs");
    let found = discover(root);
    let ids: Vec<_> = found.workflows.iter().map(|w| w.id.as_str()).collect();
    assert_eq!(ids, ["a", "alpha"]);
    let winner = &found.workflows[1];
    assert!(
        winner.manifest_path.ends_with("dup/workflow.json"),
        "last loaded wins"
    );
    let summary: Vec<(&str, Option<&str>, Option<&str>)> = found
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.category.as_str(),
                d.workflow_id.as_deref(),
                d.entry.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("manifest_parse_error", None, Some("garbage")),
            ("manifest_validation_error", None, Some("broken")),
            ("manifest_validation_error", Some("demo"), Some("broken")),
            ("scan_runtime_warning", Some("alpha"), None),
        ]
    );
    assert!(
        found.diagnostics[3]
            .message
            .starts_with("Duplicate workflow id alpha: ")
    );

    // manifest.json restricts the children scanned.
    write_tree(
        root,
        &[(
            "manifest.json",
            json!({"files": ["alpha/workflow.json", "./pkg"]}).to_string(),
        )],
    );
    let found = discover(root);
    let ids: Vec<_> = found.workflows.iter().map(|w| w.id.as_str()).collect();
    assert_eq!(ids, ["a", "alpha"]);
    assert!(found.diagnostics.is_empty(), "{:#?}", found.diagnostics);
}

#[test]
fn discovery_entry_points_and_path_errors() {
    let tmp = tempdir();
    let dir = write_workflow(tmp.path(), "wf", &base());
    assert_eq!(discover(&dir).workflows.len(), 1);
    assert_eq!(discover(&dir.join("workflow.json")).workflows.len(), 1);
    package_tree(tmp.path(), json!(["a/workflow.json"]), "apply.mjs");
    assert_eq!(
        discover(&tmp.path().join("pkg/workflow-package.json"))
            .workflows
            .len(),
        1
    );
    assert_eq!(discover(&tmp.path().join("pkg")).workflows.len(), 1);

    let missing = discover(&tmp.path().join("nope"));
    assert_eq!(missing.diagnostics[0].category, Category::ScanPathError);
    assert_eq!(missing.diagnostics[0].level, Level::Error);
    assert_eq!(
        (missing.errors().count(), missing.warnings().count()),
        (1, 0)
    );
    let other = discover(&dir.join("hooks/apply.mjs"));
    assert_eq!(other.diagnostics[0].category, Category::ScanPathError);
    assert!(other.diagnostics[0].message.starts_with("Not a workflow: "));
}

#[test]
fn broken_listing_is_reported_and_ignored() {
    let tmp = tempdir();
    write_workflow(tmp.path(), "wf", &base());
    write_tree(tmp.path(), &[("manifest.json", "[".into())]);
    let found = discover(tmp.path());
    assert_eq!(found.workflows.len(), 1);
    assert_eq!(found.diagnostics[0].category, Category::ScanRuntimeWarning);
}

#[test]
fn caller_side_hook_diagnostics_use_contract_messages() {
    let tmp = tempdir();
    let (w, _) = load(tmp.path(), &base());
    let w = w.unwrap_or_else(|| panic!("loaded"));
    let build = w
        .hook(HookName::BuildRequest)
        .cloned()
        .unwrap_or_else(|| panic!("declared"));
    let import = build.import_failed(&w.id, "SyntaxError: unexpected token");
    assert_eq!(
        import.message,
        "Skip workflow demo: Hook import failed: hooks/build.mjs"
    );
    assert_eq!(import.category, Category::HookImportError);
    assert_eq!(
        import.reason.as_deref(),
        Some("SyntaxError: unexpected token")
    );
    let export = build.export_missing(&w.id);
    assert_eq!(
        export.message,
        "Skip workflow demo: Hook export buildRequest() not found: hooks/build.mjs"
    );
    assert_eq!(export.category, Category::HookExportError);
    assert_eq!(export.pointer.as_deref(), Some("/hooks/buildRequest"));
    assert_eq!(
        export.reason.as_deref(),
        Some("buildRequest export missing")
    );
}

/// The reference loader reports a manifest it rejects (schema or semantics) as one
/// `Invalid workflow manifest: <path>` warning whose reason holds the problems; hookrun
/// leads its per-problem diagnostics with it.
#[test]
fn a_rejected_manifest_leads_with_the_loaders_message() {
    let tmp = tempdir();
    let invalid = edited(&[
        ("/schemaVersion", Some(json!(1))),
        ("/label", Some(json!(7))),
    ]);
    let dir = write_workflow(tmp.path(), "wf", &invalid);
    let path = dir.join("workflow.json");
    let loaded = load_workflow(&path);
    let lead = &loaded.diagnostics[0];
    assert_eq!(
        lead.message,
        format!("Invalid workflow manifest: {}", path.display())
    );
    assert_eq!(lead.category, Category::ManifestValidationError);
    assert_eq!(lead.level, Level::Warning);
    assert_eq!(lead.path.as_deref(), Some(path.as_path()));
    assert_eq!(lead.workflow_id, None);
    let problems: Vec<_> = messages(&loaded.diagnostics[1..]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(lead.reason.as_deref(), Some(problems.join("; ").as_str()));
    assert!(
        loaded.diagnostics[1..]
            .iter()
            .all(|d| d.workflow_id.as_deref() == Some("demo"))
    );

    // Semantic problems: the reference checker stops at the first one.
    let contradictory = edited(&[
        ("/trigger/requiresSelection", Some(json!(false))),
        (
            "/validateSelection/require",
            Some(json!({"selection": {"counts": {"parents": {"min": 1}}}})),
        ),
    ]);
    let dir = write_workflow(tmp.path(), "semantic", &contradictory);
    let loaded = load_workflow(&dir.join("workflow.json"));
    let problems = messages(&loaded.diagnostics[1..]);
    assert!(!problems.is_empty());
    assert_eq!(
        loaded.diagnostics[0].reason.as_deref(),
        Some(problems[0].as_str())
    );

    // A valid manifest the loader skips for other reasons gets no lead.
    let (_, problems) = load(
        tmp.path(),
        &edited(&[("/hooks/preflight", Some(json!("hooks/none.mjs")))]),
    );
    assert_eq!(
        problems,
        ["Skip workflow demo: Hook file missing: hooks/none.mjs"]
    );
}

#[test]
fn skip_diagnostics_carry_the_reference_loaders_reasons() {
    let tmp = tempdir();
    let reasons = |manifest: &Value| {
        let dir = write_workflow(tmp.path(), "wf", manifest);
        let loaded = load_workflow(&dir.join("workflow.json"));
        loaded
            .diagnostics
            .iter()
            .map(|d| d.reason.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        reasons(&edited(&[(
            "/hooks/preflight",
            Some(json!("hooks/none.mjs"))
        )])),
        ["Error: workflow path does not exist"]
    );
    assert_eq!(
        reasons(&edited(&[
            ("/hooks/buildRequest", None),
            ("/provider", Some(json!("generic-http"))),
            ("/request", None),
        ])),
        ["build strategy unresolved"]
    );
    package_tree(tmp.path(), json!(["a/workflow.json"]), "apply.js");
    let found = load_package(&tmp.path().join("pkg"));
    assert_eq!(
        found.diagnostics[0].reason.as_deref(),
        Some("applyResult hook in workflow-package must use .mjs")
    );
}
