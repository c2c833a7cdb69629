//! `hookrun run`: a whole workflow run over a selection, with results from a fixture.

use anstream::{eprintln, println};
use anyhow::Result;
use clap::Args;

use hookrun::hooks::{HookRecord, RuntimeInfo};
use hookrun::host::effects::Effect;
use hookrun::manifest::Workflow;
use hookrun::plan::Plan;
use hookrun::run::{
    ApplyReport, JsonReportWriter, NoResults, ResultSource, RunError, RunObserver, RunOptions,
    SettingsReport, Summary, UnitReport, UnitStatus, run_observed,
};
use hookrun::sandbox::Determinism;

use super::call::LimitArgs;
use super::inputs::TargetArgs;
use super::report::{print_failure, record_log_lines};
use super::style::{FAILED, PASSED, paint};

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    target: TargetArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// Give every unit a fresh runtime instead of one per run.
    #[arg(long)]
    fresh_runtime: bool,
    /// Most bytes of write arguments (as JSON) the run's hooks may record; the write
    /// that would pass it ends its call with `write-limit`.
    #[arg(long, value_name = "N", default_value_t = hookrun::host::effects::DEFAULT_MAX_WRITE_BYTES)]
    max_write_bytes: u64,
    /// Most bytes one host call may hold outside the engine (file reads, archive
    /// entries, its reply); the call that would pass it ends its hook call with
    /// `host-limit`.
    #[arg(long, value_name = "N", default_value_t = hookrun::host::budget::DEFAULT_HOST_CALL_BYTES)]
    max_host_call_bytes: u64,
    /// Run the units on N threads (this one and N − 1 workers), each with its
    /// own runtime and the same contiguous part of every window of 256 units;
    /// the report stays in unit order.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,
    /// `runtime.locale` of the hooks.
    #[arg(long, default_value = "en-US")]
    locale: String,
    /// Run as an interactive host would: members that need a person are answered
    /// from the case's `hostAnswers` instead of refused (a case may ask for it
    /// with `"invocationMode": "interactive"`).
    #[arg(long)]
    interactive: bool,
    /// Freeze `Date`, seed `Math.random` and omit timings, for reproducible reports.
    #[arg(long)]
    deterministic: bool,
    /// Hide console output of hooks.
    #[arg(long)]
    quiet: bool,
    /// Print the run report as JSON.
    #[arg(long)]
    json: bool,
    /// In the JSON report, write a value that repeats one written before it
    /// as {"$ref": "<JSON Pointer>"} to the first one.
    #[arg(long, requires = "json")]
    refs: bool,
}

pub fn run_command(mut args: RunArgs) -> Result<u8> {
    // Units on several threads: the selection is read on two as well.
    args.target.case.threaded = args.jobs > 1;
    let (workflow, mut case) = args.target.load()?;
    let input = case.take_input(args.target.case.convert.map(Into::into))?;
    let options = RunOptions::default()
        .mode(case.mode()?)
        .sandbox(
            args.limits
                .options(args.deterministic.then(Determinism::default), false)?,
        )
        .fresh_runtime_per_unit(args.fresh_runtime)
        .jobs(usize::from(args.jobs))
        .runtime(
            RuntimeInfo::default()
                .locale(args.locale)
                .invocation_mode(case.invocation(args.interactive)),
        )
        .progress(super::progress::terminal_bar())
        .max_write_bytes(Some(args.max_write_bytes))
        .max_host_call_bytes(Some(args.max_host_call_bytes));
    let mut fixture_results = args.target.fixture.is_some().then(|| case.result_source());
    let results: &mut dyn ResultSource = match &mut fixture_results {
        Some(source) => source,
        None => &mut NoResults,
    };
    if args.json {
        // Each unit is written as soon as it is done.
        let stdout = super::block_out();
        let mut writer = JsonReportWriter::new(stdout, &workflow.id, args.deterministic);
        if args.refs {
            writer = writer.with_refs();
        }
        run_observed(&workflow, input, results, &options, &mut writer);
        let errors = writer.errors();
        writer
            .into_inner()
            .and_then(|mut out| std::io::Write::flush(&mut out))
            .map_err(super::unwritten("the report to standard output"))?;
        return Ok(if errors == 0 { 0 } else { 1 });
    }
    // Each unit is printed as soon as it is done, as with --json.
    let mut human = HumanReport::new(&workflow, args.quiet);
    run_observed(&workflow, input, results, &options, &mut human);
    Ok(u8::from(human.errors > 0))
}

/// The human report of a run, printed part by part as the run hands it over
/// (a [`RunObserver`]): each unit's line with its applies and the writes
/// recorded since the unit before, hook logs and failures (with code frames)
/// on standard error as they come, the counts last. It holds only the writes
/// of units not handed over yet.
struct HumanReport<'a> {
    workflow: &'a Workflow,
    quiet: bool,
    /// Writes recorded since the last unit was printed.
    effects: Vec<Effect>,
    /// Errors printed.
    errors: usize,
}

impl<'a> HumanReport<'a> {
    fn new(workflow: &'a Workflow, quiet: bool) -> HumanReport<'a> {
        HumanReport {
            workflow,
            quiet,
            effects: Vec::new(),
            errors: 0,
        }
    }

    /// A unit's line, its applies, and the writes recorded since the last one.
    fn print_unit(&mut self, unit: UnitReport) {
        let status = match unit.status {
            UnitStatus::Succeeded => paint(PASSED, "ok     "),
            UnitStatus::Skipped => "skipped".to_string(),
            UnitStatus::Failed => paint(FAILED, "FAILED "),
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
        self.print_effects();
    }

    fn print_effects(&mut self) {
        for effect in self.effects.drain(..) {
            println!(
                "          effect #{} {} {} {}",
                effect.seq, effect.unit_id, effect.call, effect.args
            );
        }
    }
}

impl RunObserver for HumanReport<'_> {
    // Everything printed during the run goes past the progress bar.
    fn settings(&mut self, settings: &SettingsReport) {
        for warning in &settings.warnings {
            eprintln!("settings: {}: {}", warning.parameter, warning.message);
        }
    }

    fn plan(&mut self, _: &Plan) {}

    fn unit(&mut self, unit: UnitReport) {
        super::progress::suspended(|| self.print_unit(unit));
    }

    fn effect(&mut self, effect: Effect) {
        self.effects.push(effect);
    }

    fn hook(&mut self, record: HookRecord) {
        if !self.quiet {
            super::progress::suspended(|| {
                for line in record_log_lines(&record) {
                    eprintln!("{line}");
                }
            });
        }
    }

    fn error(&mut self, error: RunError) {
        self.errors += 1;
        super::progress::suspended(|| print_failure(&error, self.workflow));
    }

    fn finish(&mut self, s: Summary) {
        self.print_effects();
        println!(
            "\n{} unit(s): {} succeeded, {} skipped, {} failed; {} request(s), {} effect(s)",
            s.units, s.succeeded, s.skipped, s.failed, s.requests, s.effects
        );
    }
}
