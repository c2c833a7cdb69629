//! `hookrun test`: run every fixture case of a workflow and compare the run
//! with the case's expectations.

use std::path::{Path, PathBuf};

use anstream::{eprintln, println};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::{Map, Value, json};

use hookrun::manifest::Workflow;
use hookrun::run::expect::{Mismatch, actual, compare_for};
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

/// What a workflow's `cases` directory holds: its cases and the JSON files
/// that are none, by path.
#[derive(Default)]
pub struct CaseFiles {
    /// The cases, to run.
    pub cases: Vec<PathBuf>,
    /// JSON files that are not cases and that no case names, with why they are
    /// not cases: not run, and told.
    pub strays: Vec<(PathBuf, &'static str)>,
}

/// The cases of a workflow: the `cases/*.json` beside its `workflow.json` that
/// are JSON objects with a member only a case has (or that do not read as
/// JSON, which then fail as cases). The other JSON files there are the files
/// cases name (a library, a selection, answers) unless no case names them.
pub fn cases_of(workflow: &Workflow) -> CaseFiles {
    let mut json: Vec<PathBuf> = std::fs::read_dir(workflow.workflow_dir.join("cases"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
        .collect();
    json.sort();
    let mut found = CaseFiles::default();
    let mut others = Vec::new();
    for path in json {
        match not_a_case(&path) {
            None => found.cases.push(path),
            Some(reason) => others.push((path, reason)),
        }
    }
    let named: Vec<PathBuf> = found
        .cases
        .iter()
        .flat_map(|case| Case::referenced_paths(case))
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    found.strays = others
        .into_iter()
        .filter(|(path, _)| path.canonicalize().is_ok_and(|p| !named.contains(&p)))
        .collect();
    found
}

/// Why the JSON file at `path` is not a case, or `None` when it is one (or
/// does not read as JSON: the case's run says why).
fn not_a_case(path: &Path) -> Option<&'static str> {
    use serde::de::IgnoredAny;
    let text = hookrun::input::read_text(path, hookrun::input::MAX_JSON_BYTES).ok()?;
    match serde_json::from_str::<std::collections::HashMap<String, IgnoredAny>>(&text) {
        Ok(members) if Case::has_case_members(members.keys().map(String::as_str)) => None,
        Ok(_) => Some("it has none of a case's members"),
        Err(_) if serde_json::from_str::<IgnoredAny>(&text).is_ok() => {
            Some("it is not a JSON object")
        }
        Err(_) => None,
    }
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
    let cases: Vec<CaseFiles> = found.workflows.iter().map(cases_of).collect();
    if args.bless {
        // Blessing writes each case file: every one must be inside its workflow.
        for (workflow, files) in found.workflows.iter().zip(&cases) {
            for path in &files.cases {
                super::inside(&workflow.workflow_dir, path)?;
            }
        }
    }
    let (outcomes, strays, read) = run_cases(args, &found.workflows, cases, options);
    let failed = summarize(args, &outcomes, &strays, &found.workflows)?;
    Ok((failed, read))
}

/// Runs the selected cases of `workflows` (their [`CaseFiles`], in the same
/// order), telling which files of their `cases` directories are not cases;
/// the outcomes, those files, and (with `--watch`) what the cases read.
fn run_cases(
    args: &TestArgs,
    workflows: &[Workflow],
    cases: Vec<CaseFiles>,
    options: SandboxOptions,
) -> (Vec<Outcome>, Vec<Value>, Watched) {
    let mut outcomes = Vec::new();
    let mut strays = Vec::new();
    let mut read = Watched::default();
    for (workflow, files) in workflows.iter().zip(cases) {
        // Canonical, and the workflow's directory is inside it.
        read.dirs.push(workflow.jail_root.clone());
        let selected = |path: &Path| {
            let name = case_name(workflow, path);
            args.filter
                .as_deref()
                .is_none_or(|f| name.contains(f))
                .then_some(name)
        };
        for (path, reason) in files.strays {
            if selected(&path).is_some() {
                eprintln!(
                    "note: {} is not a case ({reason}) and no case names it; not run",
                    path.display()
                );
                strays.push(json!({"path": path, "reason": reason}));
            }
        }
        for path in files.cases {
            // Read again only to be watched.
            if args.watch {
                watch_inputs(&path, &mut read);
            }
            if let Some(name) = selected(&path) {
                outcomes.push(test_case(args, workflow, name, path, options));
            }
        }
    }
    (outcomes, strays, read)
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
fn summarize(
    args: &TestArgs,
    outcomes: &[Outcome],
    strays: &[Value],
    workflows: &[Workflow],
) -> Result<usize> {
    let failed = outcomes
        .iter()
        .filter(|o| !matches!(o.verdict, Verdict::Passed | Verdict::Blessed))
        .count();
    let passed = outcomes.len() - failed;
    if let Some(file) = &args.coverage {
        write_coverage(file, workflows)?;
    }
    if args.json {
        let mut out = to_json(outcomes, passed, failed);
        out["notCases"] = json!(strays);
        println!("{out}");
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
            Some(expect) => match compare_for(expect, &report, workflow) {
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
