//! `hookrun test`: run every fixture case of a workflow and compare the run
//! with the case's expectations.

use std::path::{Path, PathBuf};

use anstream::{eprintln, println};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::{Map, Value, json};

use hookrun::manifest::Workflow;
use hookrun::run::expect::{Mismatch, actual, compare};
use hookrun::run::{Case, RunOptions, RunReport, run};
use hookrun::sandbox::{Determinism, SandboxOptions};

use super::call::LimitArgs;
use super::diff::json_diff;
use super::library::LibraryArgs;
use super::report::{log_lines, print_failures};
use super::style::{BLESSED, FAILED, PASSED, paint};
use super::watch::Watched;

#[derive(Args)]
pub struct TestArgs {
    /// A workflow.json, a workflow or package directory, or a directory of workflows.
    path: Option<PathBuf>,
    #[command(flatten)]
    library: LibraryArgs,
    /// Run only the cases whose name (`<workflow id>/<case>`) contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Write the current results into each case as its expectations.
    #[arg(long)]
    bless: bool,
    /// Hide console output of hooks.
    #[arg(long)]
    quiet: bool,
    /// Run every case as an interactive host would: members that need a person
    /// are answered from the case's `hostAnswers` (a case may ask for it with
    /// `"invocationMode": "interactive"`).
    #[arg(long)]
    interactive: bool,
    #[command(flatten)]
    limits: LimitArgs,
    /// Print one JSON object instead of human output.
    #[arg(long)]
    json: bool,
    /// Run again whenever a file the cases read changes (manifests, hooks and
    /// the modules they import, cases, their fixture files), until Ctrl-C.
    #[arg(long, conflicts_with = "bless")]
    watch: bool,
    /// Write the line, function and branch coverage of the workflows' own
    /// modules, summed over every case, to FILE as LCOV (runs in process).
    #[arg(long, value_name = "FILE")]
    coverage: Option<PathBuf>,
}

/// The cases of a workflow: `cases/*.json` beside its `workflow.json`, by name.
pub fn cases_of(workflow: &Workflow) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(workflow.workflow_dir.join("cases"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| !n.to_string_lossy().starts_with("library"))
        })
        .collect();
    cases.sort();
    cases
}

pub(super) enum Verdict {
    Passed,
    Blessed,
    NoExpectations,
    Failed(Vec<Mismatch>),
    Invalid(String),
}

struct Outcome {
    name: String,
    path: PathBuf,
    verdict: Verdict,
    report: Option<RunReport>,
}

pub fn run_tests(args: TestArgs) -> Result<u8> {
    if args.watch {
        let fallback = args.path.clone().unwrap_or_else(|| PathBuf::from("."));
        return super::watch::watch(&fallback, args.json, || {
            test_once(&args).map(|(_, read)| read)
        });
    }
    test_once(&args).map(|(failed, _)| u8::from(failed > 0))
}

/// Runs every selected case once and prints the outcome: how many failed, and
/// (with `--watch`) what the run read.
fn test_once(args: &TestArgs) -> Result<(usize, Watched)> {
    let found = args.library.open(args.path.as_deref())?.discovery();
    for d in &found.diagnostics {
        eprintln!("warning: {}", d.message);
    }
    if found.workflows.is_empty() {
        let shown = args.library.shown(args.path.as_deref());
        bail!("no workflow found in {shown}; run `hookrun check {shown}`");
    }
    let mut options = args.limits.options(Some(Determinism::default()), false)?;
    if args.coverage.is_some() {
        options.coverage = true;
        options.isolation = hookrun::sandbox::Isolation::InProcess;
        // What earlier runs of this thread left is not this run's.
        hookrun::sandbox::take_coverage();
    }
    if args.bless {
        // Blessing writes each case file: every one must be inside its workflow.
        for workflow in &found.workflows {
            for path in cases_of(workflow) {
                super::inside(&workflow.workflow_dir, &path)?;
            }
        }
    }
    let mut outcomes = Vec::new();
    let mut read = Watched::default();
    for workflow in &found.workflows {
        // Canonical, and the workflow's directory is inside it.
        read.dirs.push(workflow.jail_root.clone());
        for path in cases_of(workflow) {
            // Read again only to be watched.
            if args.watch {
                watch_inputs(&path, &mut read);
            }
            let name = case_name(workflow, &path);
            if args.filter.as_deref().is_some_and(|f| !name.contains(f)) {
                continue;
            }
            outcomes.push(test_case(args, workflow, name, path, options));
        }
    }
    let failed = summarize(args, &outcomes, &found.workflows)?;
    Ok((failed, read))
}

/// Adds the files and directories the case at `path` reads to `read`.
fn watch_inputs(path: &Path, read: &mut Watched) {
    for input in Case::referenced_paths(path) {
        let list = if input.is_dir() {
            &mut read.dirs
        } else {
            &mut read.files
        };
        list.push(Watched::resolved(&input));
    }
}

/// A case's name: `<workflow id>/<case file stem>`.
fn case_name(workflow: &Workflow, path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    format!("{}/{stem}", workflow.id)
}

/// Runs the case `name` at `path` and, unless the output is JSON, prints its
/// outcome.
fn test_case(
    args: &TestArgs,
    workflow: &Workflow,
    name: String,
    path: PathBuf,
    options: SandboxOptions,
) -> Outcome {
    let outcome = run_case(workflow, &path, options, args.bless, args.interactive);
    if !args.json {
        print_outcome(
            &name,
            &path,
            &outcome.0,
            outcome.1.as_ref(),
            workflow,
            args.quiet,
        );
    }
    Outcome {
        name,
        path,
        verdict: outcome.0,
        report: outcome.1,
    }
}

/// Writes the coverage when asked and prints the summary of `outcomes`; how
/// many cases failed.
fn summarize(args: &TestArgs, outcomes: &[Outcome], workflows: &[Workflow]) -> Result<usize> {
    let failed = outcomes
        .iter()
        .filter(|o| !matches!(o.verdict, Verdict::Passed | Verdict::Blessed))
        .count();
    let passed = outcomes.len() - failed;
    if let Some(file) = &args.coverage {
        write_coverage(file, workflows)?;
    }
    if args.json {
        println!("{}", to_json(outcomes, passed, failed));
    } else {
        println!("\n{}", summary(passed, failed));
    }
    Ok(failed)
}

/// Writes the coverage the cases' runtimes recorded of the modules of
/// `workflows` to `file` as LCOV, every path absolute.
fn write_coverage(file: &Path, workflows: &[Workflow]) -> Result<()> {
    let mut lcov = hookrun::sandbox::Lcov::default();
    // Module paths are under their sandbox's root, a workflow's canonical jail root.
    for module in hookrun::sandbox::take_coverage() {
        if !workflows
            .iter()
            .any(|w| module.path.starts_with(&w.jail_root))
        {
            continue;
        }
        let source = hookrun::input::read_text(&module.path, hookrun::input::MAX_JSON_BYTES)
            .with_context(|| format!("cannot read {} for its coverage", module.path.display()))?;
        lcov.add(&module, &source);
    }
    super::write_file(file, lcov.to_lcov())
}

/// Runs one case deterministically (on the calling thread); with `bless`,
/// writes the results into the case as its expectations. A case that does not
/// load, or whose expectations cannot be written, fails with the reason.
pub(super) fn run_case(
    workflow: &Workflow,
    path: &Path,
    sandbox: SandboxOptions,
    bless: bool,
    interactive: bool,
) -> (Verdict, Option<RunReport>) {
    let case = match Case::load(path) {
        Ok(case) => case,
        Err(e) => return (Verdict::Invalid(e.to_string()), None),
    };
    let input = match case.input(None) {
        Ok(input) => input,
        Err(e) => return (Verdict::Invalid(e.to_string()), None),
    };
    let mode = match case.mode() {
        Ok(mode) => mode,
        Err(e) => return (Verdict::Invalid(e.to_string()), None),
    };
    let mut options = RunOptions::default().mode(mode).sandbox(sandbox);
    options.runtime.invocation_mode = case.invocation(interactive);
    let report = run(workflow, input, &mut case.result_source(), &options);
    let verdict = if bless {
        match write_expectations(&workflow.workflow_dir, path, actual(&report)) {
            Ok(()) => Verdict::Blessed,
            Err(e) => Verdict::Invalid(format!("{e:#}")),
        }
    } else {
        match case.expect.as_ref().and_then(Value::as_object) {
            None => Verdict::NoExpectations,
            Some(expect) => match compare(expect, &report) {
                mismatches if mismatches.is_empty() => Verdict::Passed,
                mismatches => Verdict::Failed(mismatches),
            },
        }
    };
    (verdict, Some(report))
}

/// Rewrites the case file (inside `root`) with `expect` set, keeping its other
/// members.
fn write_expectations(root: &Path, path: &Path, expect: Map<String, Value>) -> Result<()> {
    let text = hookrun::input::read_text(path, hookrun::input::MAX_JSON_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut case: Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not valid JSON", path.display()))?;
    case["expect"] = Value::Object(expect);
    super::write_inside(
        root,
        path,
        format!("{}\n", serde_json::to_string_pretty(&case)?),
    )
}

fn print_outcome(
    name: &str,
    path: &Path,
    verdict: &Verdict,
    report: Option<&RunReport>,
    workflow: &Workflow,
    quiet: bool,
) {
    let label = match verdict {
        Verdict::Passed => paint(PASSED, "ok     "),
        Verdict::Blessed => paint(BLESSED, "blessed"),
        _ => paint(FAILED, "FAIL   "),
    };
    println!("{label} {name}");
    if let Some(report) = report
        && !quiet
    {
        for line in log_lines(report) {
            eprintln!("        {line}");
        }
    }
    match verdict {
        Verdict::Passed | Verdict::Blessed => {}
        Verdict::Invalid(message) => println!("        {message}"),
        Verdict::NoExpectations => println!(
            "        {} has no \"expect\"; run `hookrun test --bless` to record the current results",
            path.display()
        ),
        Verdict::Failed(mismatches) => {
            for m in mismatches {
                println!("        {} differ (- expected, + actual):", m.key);
                for line in json_diff(&m.expected, &m.actual).lines() {
                    println!("        {line}");
                }
            }
            if let Some(report) = report {
                print_failures(report, workflow);
            }
        }
    }
}

/// `N passed, M failed`, coloured by what it says.
fn summary(passed: usize, failed: usize) -> String {
    let failures = format!("{failed} failed");
    let failures = if failed == 0 {
        failures
    } else {
        paint(FAILED, failures)
    };
    format!("{}, {failures}", paint(PASSED, format!("{passed} passed")))
}

fn to_json(outcomes: &[Outcome], passed: usize, failed: usize) -> Value {
    let cases: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            let (status, detail) = match &o.verdict {
                Verdict::Passed => ("passed", Value::Null),
                Verdict::Blessed => ("blessed", Value::Null),
                Verdict::NoExpectations => ("failed", json!("the case has no expectations")),
                Verdict::Invalid(message) => ("failed", json!(message)),
                Verdict::Failed(mismatches) => (
                    "failed",
                    mismatches
                        .iter()
                        .map(|m| json!({"key": m.key, "expected": m.expected, "actual": m.actual}))
                        .collect(),
                ),
            };
            json!({"name": o.name, "path": o.path, "status": status, "detail": detail,
                   "errors": o.report.as_ref().map(|r| r.errors.len()).unwrap_or(0)})
        })
        .collect();
    json!({"cases": cases, "passed": passed, "failed": failed})
}
