//! `hookrun run`: a whole workflow run over a selection, with results from a fixture.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use hookrun::hooks::RuntimeInfo;
use hookrun::run::{ApplyReport, NoResults, ResultSource, RunOptions, RunReport, UnitStatus, run};
use hookrun::sandbox::{Determinism, SandboxOptions};

use super::call::LimitArgs;
use super::inputs::{CaseArgs, load_workflow};

#[derive(Args)]
pub struct RunArgs {
    /// The workflow: a workflow.json, its directory, or a package directory with --workflow.
    workflow: PathBuf,
    /// Workflow id, when the path holds several workflows.
    #[arg(long = "workflow")]
    workflow_id: Option<String>,
    /// A fixture case carrying selection, settings, world and request results;
    /// the flags below override its members.
    #[arg(long)]
    fixture: Option<PathBuf>,
    #[command(flatten)]
    case: CaseArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// Give every unit a fresh runtime instead of one per run.
    #[arg(long)]
    fresh_runtime: bool,
    /// `runtime.locale` of the hooks.
    #[arg(long, default_value = "en-US")]
    locale: String,
    /// Freeze `Date`, seed `Math.random` and omit timings, for reproducible reports.
    #[arg(long)]
    deterministic: bool,
    /// Print the run report as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run_command(args: RunArgs) -> Result<u8> {
    let workflow = load_workflow(&args.workflow, args.workflow_id.as_deref())?;
    let case = args.case.case(args.fixture.as_deref())?;
    let input = case.input(args.case.convert.map(Into::into))?;
    let options = RunOptions {
        mode: case.mode()?,
        sandbox: SandboxOptions {
            limits: args.limits.limits()?,
            determinism: args.deterministic.then(Determinism::default),
            measure_heap: false,
        },
        fresh_runtime_per_unit: args.fresh_runtime,
        pool: None,
        runtime: RuntimeInfo {
            locale: args.locale,
            ..RuntimeInfo::default()
        },
    };
    let mut fixture_results = args.fixture.is_some().then(|| case.result_source());
    let results: &mut dyn ResultSource = match &mut fixture_results {
        Some(source) => source,
        None => &mut NoResults,
    };
    let report = run(&workflow, input, results, &options);
    if args.json {
        println!("{}", report.to_json(args.deterministic));
    } else {
        print_human(&report);
    }
    Ok(if report.ok() { 0 } else { 1 })
}

fn print_human(report: &RunReport) {
    for warning in &report.settings.warnings {
        println!("settings: {}: {}", warning.parameter, warning.message);
    }
    for unit in &report.units {
        let status = match unit.status {
            UnitStatus::Succeeded => "ok     ",
            UnitStatus::Skipped => "skipped",
            UnitStatus::Failed => "FAILED ",
        };
        let detail = match (&unit.skip_reason, unit.jobs.len()) {
            (Some(reason), _) => format!(" ({reason})"),
            (None, 0) => String::new(),
            (None, n) => format!(
                " ({n} request(s){})",
                if unit.aggregate.is_some() {
                    ", aggregate apply"
                } else {
                    ""
                }
            ),
        };
        println!("{status} {} {}{detail}", unit.unit_id, unit.task_name);
        for job in &unit.jobs {
            if let ApplyReport::Succeeded { value } = &job.apply {
                println!("          {} → {}", job.subunit_id, value);
            }
        }
        if let Some(aggregate) = &unit.aggregate
            && let ApplyReport::Succeeded { value } = &aggregate.apply
        {
            println!("          aggregate {} → {}", aggregate.id, value);
        }
    }
    for hook in &report.hooks {
        for log in &hook.logs {
            eprintln!(
                "[{} {} {}] {}",
                hook.unit_id,
                hook.hook,
                log.level.as_str(),
                log.message
            );
        }
    }
    if !report.effects.is_empty() {
        println!("\neffects:");
        for effect in &report.effects {
            println!(
                "  #{} {} {} {}",
                effect.seq, effect.unit_id, effect.call, effect.args
            );
        }
    }
    if !report.errors.is_empty() {
        println!("\nerrors:");
        for error in &report.errors {
            let unit = error.unit_id.as_deref().unwrap_or("run");
            match &error.hook {
                Some(hook) => {
                    let at = hook
                        .location
                        .as_ref()
                        .map(|l| format!(" at {}:{}:{}", l.file, l.line, l.column))
                        .unwrap_or_default();
                    println!(
                        "  {unit} {} ({}{at}): {}: {}",
                        hook.hook, hook.file, error.name, error.message
                    );
                }
                None => println!(
                    "  {unit} {}: {}: {}",
                    error.stage, error.name, error.message
                ),
            }
        }
    }
    let s = &report.summary;
    println!(
        "\n{} unit(s): {} succeeded, {} skipped, {} failed; {} request(s), {} effect(s)",
        s.units, s.succeeded, s.skipped, s.failed, s.requests, s.effects
    );
}
