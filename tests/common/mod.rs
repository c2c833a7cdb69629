//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod sandbox;

/// `fixtures/<rel>` in the repository.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// Loads the single workflow at `fixtures/<rel>`.
pub fn workflow(rel: &str) -> hookrun::manifest::Workflow {
    let found = hookrun::manifest::discover(&fixture(rel));
    assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
    assert_eq!(found.workflows.len(), 1);
    found.workflows.into_iter().next().unwrap()
}

/// Runs the case `fixtures/<case>` of the workflow `fixtures/<workflow>`
/// through the library, deterministically.
pub fn run_case(workflow_rel: &str, case_rel: &str) -> hookrun::run::RunReport {
    use hookrun::run::{Case, RunOptions, run};
    use hookrun::sandbox::{Determinism, SandboxOptions};
    let workflow = workflow(workflow_rel);
    let case = Case::load(&fixture(case_rel)).unwrap();
    let input = case.input(None).unwrap();
    let options = RunOptions {
        mode: case.mode().unwrap(),
        sandbox: SandboxOptions {
            determinism: Some(Determinism::default()),
            ..SandboxOptions::default()
        },
        ..RunOptions::default()
    };
    run(&workflow, input, &mut case.result_source(), &options)
}
