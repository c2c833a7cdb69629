//! A workflow named on its own that a package lists is loaded with its package.

use std::path::Path;

use serde_json::json;

use super::{load_package_workflow, package_of};
use crate::manifest::discover;
use crate::manifest::test_support::{edited, write_tree};

/// A package `pkg` listing `listed` (of workflows `a` and `b`, whose hooks import the
/// package's `lib/shared.mjs`), and a workflow `pkg/loose` it does not list.
fn package(root: &Path, listed: serde_json::Value) {
    let manifest = |id: &str| {
        edited(&[
            ("/id", Some(json!(id))),
            ("/hooks/applyResult", Some(json!("apply.mjs"))),
            ("/hooks/buildRequest", None),
            ("/provider", Some(json!("pass-through"))),
        ])
        .to_string()
    };
    let hook =
        "import { x } from \"../lib/shared.mjs\";\nexport function applyResult() { return x; }\n";
    write_tree(
        root,
        &[
            (
                "pkg/workflow-package.json",
                json!({"id": "pkg", "version": "2.0.0", "workflows": listed}).to_string(),
            ),
            ("pkg/lib/shared.mjs", "export const x = 1;\n".into()),
            ("pkg/a/workflow.json", manifest("a")),
            ("pkg/a/apply.mjs", hook.into()),
            ("pkg/b/workflow.json", manifest("b")),
            ("pkg/b/apply.mjs", hook.into()),
            ("pkg/loose/workflow.json", manifest("loose")),
            ("pkg/loose/apply.mjs", hook.into()),
        ],
    );
}

/// Only a package that lists the workflow is its package.
#[test]
fn the_package_of_a_workflow_is_the_one_that_lists_it() {
    let tmp = tempfile::tempdir().unwrap();
    package(tmp.path(), json!(["a/workflow.json", "./b/workflow.json"]));
    let root = tmp.path().join("pkg").canonicalize().unwrap();
    let pkg = tmp.path().join("pkg");
    assert_eq!(package_of(&pkg.join("a/workflow.json")), Some(root.clone()));
    assert_eq!(package_of(&pkg.join("b/workflow.json")), Some(root));
    assert_eq!(package_of(&pkg.join("loose/workflow.json")), None);
    assert_eq!(package_of(&pkg.join("missing/workflow.json")), None);
}

/// A listed workflow named alone has its package's root, id, version and digest.
#[test]
fn a_listed_workflow_named_alone_loads_with_its_package_root() {
    let tmp = tempfile::tempdir().unwrap();
    package(tmp.path(), json!(["a/workflow.json", "b/workflow.json"]));
    let pkg = tmp.path().join("pkg");
    let root = pkg.canonicalize().unwrap();
    for named in [pkg.join("a"), pkg.join("a/workflow.json")] {
        let found = discover(&named);
        assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
        let ids: Vec<&str> = found.workflows.iter().map(|w| w.id.as_str()).collect();
        assert_eq!(ids, ["a"], "only the named workflow");
        let w = &found.workflows[0];
        assert_eq!(w.jail_root, root);
        assert_eq!(w.package_root, root);
        assert_eq!(w.workflow_dir, root.join("a"));
        assert!(w.in_package);
        assert_eq!(w.package_id, "pkg");
        assert_eq!(w.version.as_deref(), Some("2.0.0"));
        assert_eq!(
            w.manifest_path,
            pkg.join("a/workflow.json"),
            "kept as given"
        );
    }
    // The same workflow as the whole package gives it: same digest and root.
    let whole = discover(&pkg);
    assert_eq!(
        whole.workflows[0].content_digest,
        discover(&pkg.join("a")).workflows[0].content_digest
    );
}

/// A workflow inside a package directory that does not list it stays on its own.
#[test]
fn a_workflow_no_package_lists_keeps_its_own_root() {
    let tmp = tempfile::tempdir().unwrap();
    package(tmp.path(), json!(["a/workflow.json"]));
    let loose = tmp.path().join("pkg/loose");
    let found = discover(&loose);
    let w = &found.workflows[0];
    assert_eq!(w.jail_root, loose.canonicalize().unwrap());
    assert!(!w.in_package);
    assert_eq!(w.package_id, "loose");
}

/// A directory of the package's workflows loads each with the package.
#[test]
fn a_directory_of_listed_workflows_loads_each_with_the_package() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(tmp.path(), &[("pkg/group/.keep", String::new())]);
    package(tmp.path(), json!(["a/workflow.json", "b/workflow.json"]));
    let pkg = tmp.path().join("pkg");
    std::fs::rename(pkg.join("a"), pkg.join("group/a")).unwrap();
    std::fs::rename(pkg.join("b"), pkg.join("group/b")).unwrap();
    let text = json!({"id": "pkg", "version": "2.0.0", "workflows": ["group/a/workflow.json", "group/b/workflow.json"]});
    std::fs::write(pkg.join("workflow-package.json"), text.to_string()).unwrap();
    for dir in ["group/a", "group/b"] {
        let hook = "import { x } from \"../../lib/shared.mjs\";\nexport function applyResult() { return x; }\n";
        std::fs::write(pkg.join(dir).join("apply.mjs"), hook).unwrap();
    }
    let found = discover(&pkg.join("group"));
    let roots: Vec<_> = found
        .workflows
        .iter()
        .map(|w| (w.id.as_str(), w.in_package))
        .collect();
    assert_eq!(roots, [("a", true), ("b", true)]);
    assert!(
        found
            .workflows
            .iter()
            .all(|w| w.jail_root == pkg.canonicalize().unwrap())
    );
}

/// One workflow of a package loads without the others or their problems.
#[test]
fn loading_one_workflow_of_a_package_skips_the_others_and_their_problems() {
    let tmp = tempfile::tempdir().unwrap();
    package(
        tmp.path(),
        json!(["a/workflow.json", "b/workflow.json", "../x/workflow.json"]),
    );
    let pkg = tmp.path().join("pkg");
    std::fs::write(pkg.join("b/workflow.json"), "{").unwrap();
    let found = load_package_workflow(&pkg, &pkg.join("a/workflow.json"));
    let ids: Vec<&str> = found.workflows.iter().map(|w| w.id.as_str()).collect();
    assert_eq!(ids, ["a"]);
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    // The whole package reports both.
    assert_eq!(
        load_package_workflow(&pkg, &pkg.join("b/workflow.json"))
            .workflows
            .len(),
        0
    );
    assert_eq!(crate::manifest::load_package(&pkg).diagnostics.len(), 2);
}
