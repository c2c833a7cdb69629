//! `hookrun run`: a whole workflow run over a selection, with results from a fixture.

use std::path::PathBuf;

use anyhow::{Context, Result, anyhow};
use clap::Args;

use hookrun::hooks::RuntimeInfo;
use hookrun::run::{
    ApplyReport, Case, NoResults, ResultSource, RunInput, RunOptions, RunReport, Settings,
    UnitStatus, run,
};
use hookrun::sandbox::{Determinism, SandboxOptions};
use hookrun::selection::SelectionContext;

use super::call::LimitArgs;
use super::inputs::{
    ModeArg, WorldArgs, load_workflow, read_selection, read_settings, world_and_selection,
};

#[derive(Args)]
pub struct RunArgs {
    /// The workflow: a workflow.json, its directory, or a package directory with --workflow.
    workflow: PathBuf,
    /// Workflow id, when the path holds several workflows.
    #[arg(long = "workflow")]
    workflow_id: Option<String>,
    /// A fixture case carrying selection, settings, world and request results.
    #[arg(long)]
    fixture: Option<PathBuf>,
    /// The SelectionContext JSON (overrides the fixture's).
    #[arg(long)]
    selection: Option<PathBuf>,
    /// Settings JSON (overrides the fixture's).
    #[arg(long)]
    settings: Option<PathBuf>,
    /// Planning mode (overrides the fixture's; default execute).
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    #[command(flatten)]
    world: WorldArgs,
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
    let case = args.fixture.as_deref().map(Case::load).transpose()?;
    let case_ref = case.as_ref();

    let selection = match (&args.selection, case_ref.and_then(|c| c.selection.as_ref())) {
        (Some(path), _) => read_selection(path)?,
        (None, Some(value)) => SelectionContext::from_value(value).with_context(|| {
            format!(
                "the selection of {} is not a valid SelectionContext",
                case_path(case_ref)
            )
        })?,
        (None, None) => {
            return Err(anyhow!(
                "give a selection with --selection or a fixture with a \"selection\""
            ));
        }
    };
    let settings = match (&args.settings, case_ref.and_then(|c| c.settings.as_ref())) {
        (Some(path), _) => read_settings(Some(path))?,
        (None, Some(value)) => Settings::from_value(value)
            .with_context(|| format!("the settings of {} are invalid", case_path(case_ref)))?,
        (None, None) => Settings::default(),
    };
    let mut world_args = args.world;
    if world_args.files.is_none() {
        world_args.files = case_ref.and_then(|c| c.files.clone());
    }
    let (mut world, selection) = world_and_selection(&world_args, selection)?;
    if world_args.library.is_none()
        && let Some(library) = case_ref.and_then(|c| c.library.as_ref())
    {
        world = world
            .with_library(library)
            .with_context(|| format!("the library of {} is invalid", case_path(case_ref)))?;
    }
    let mode = match (args.mode, case_ref.and_then(|c| c.mode.as_deref())) {
        (Some(mode), _) => mode.into(),
        (None, Some(mode)) => serde_json::from_value(serde_json::json!(mode)).map_err(|_| {
            anyhow!(
                "{}: mode must be menu, execute or handoff",
                case_path(case_ref)
            )
        })?,
        (None, None) => Default::default(),
    };
    let options = RunOptions {
        mode,
        sandbox: SandboxOptions {
            limits: args.limits.limits()?,
            determinism: args.deterministic.then(Determinism::default),
        },
        fresh_runtime_per_unit: args.fresh_runtime,
        runtime: RuntimeInfo {
            locale: args.locale,
            ..RuntimeInfo::default()
        },
    };
    let input = RunInput {
        selection,
        settings,
        world,
        identifiers: case_ref.map(|c| c.identifiers.clone()).unwrap_or_default(),
    };
    let mut fixture_results = case_ref.map(Case::result_source);
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

fn case_path(case: Option<&Case>) -> String {
    case.map(|c| c.path.display().to_string())
        .unwrap_or_default()
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
