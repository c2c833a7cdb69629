//! `hookrun plan`: the input plan of a workflow for a selection.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;

use hookrun::plan::{Plan, PlanState, plan};
use hookrun::run::normalize_params;
use hookrun::run::refs::RefEncoder;

use super::inputs::TargetArgs;

#[derive(Args)]
pub struct PlanArgs {
    #[command(flatten)]
    target: TargetArgs,
    /// Print the plan as JSON.
    #[arg(long)]
    json: bool,
    /// In the JSON plan, write a value that repeats one written before it as
    /// {"$ref": "<JSON Pointer>"} to the first one.
    #[arg(long, requires = "json")]
    refs: bool,
}

pub fn run(mut args: PlanArgs) -> Result<u8> {
    // Planning is all a plan does: the selection is read on two threads
    // where there are two to use.
    args.target.case.threaded = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    let (workflow, mut case) = args.target.load()?;
    let input = case.take_input(args.target.case.convert.map(Into::into))?;
    let params = normalize_params(&workflow, &input.settings.workflow_params);
    for w in &params.warnings {
        eprintln!("warning: {}: {}", w.parameter, w.message);
    }
    let effective = workflow.parameters.effective(&params.values);
    let plan = plan(
        &workflow.planning,
        &input.selection,
        case.mode()?,
        &effective,
        &input.world,
    )
    .with_context(|| format!("planning {} failed", workflow.id))?;
    if args.json {
        // Serialised as it is written, without a copy of the text in memory.
        let mut out = super::block_out();
        let written = match args.refs {
            true => RefEncoder::new().write(&mut out, &[], &plan, true),
            false => hookrun::selection::write_compact(&mut out, &plan).map_err(Into::into),
        };
        written
            .and_then(|()| writeln!(out))
            .and_then(|()| out.flush())
            .map_err(super::unwritten("the plan to standard output"))?;
    } else {
        print_human(&plan).map_err(super::unwritten("the plan to standard output"))?;
    }
    Ok(match plan.state {
        PlanState::Enabled => 0,
        PlanState::Disabled => 1,
    })
}

/// The plan for a person, written in blocks (one write a unit's line made a
/// system call each: 100,000 of them for as many units).
fn print_human(plan: &Plan) -> std::io::Result<()> {
    let mut out = super::block_out();
    match &plan.reason_code {
        Some(reason) => writeln!(out, "plan: {} ({})", plan.state.as_str(), reason.as_str())?,
        None => writeln!(out, "plan: {}", plan.state.as_str())?,
    }
    let c = &plan.selection_counts;
    writeln!(
        out,
        "selection: {} parents, {} children, {} attachments, {} notes",
        c.parents, c.children, c.attachments, c.notes
    )?;
    if !plan.units.is_empty() {
        writeln!(out, "\n{:<10} {:<40} members", "unit", "task name")?;
        for unit in &plan.units {
            writeln!(
                out,
                "{:<10} {:<40} {}",
                unit.unit_id,
                unit.task_name,
                unit.member_identities.join(", ")
            )?;
        }
    }
    if !plan.skipped.is_empty() {
        writeln!(out, "\n{:<40} reason", "skipped candidate")?;
        for skip in &plan.skipped {
            writeln!(out, "{:<40} {}", skip.identity, skip.reason)?;
        }
    }
    let s = &plan.stats.candidates;
    writeln!(
        out,
        "\ncandidates: {} total, {} accepted, {} skipped; {} unit(s)",
        s.total,
        s.accepted,
        s.skipped,
        plan.units.len()
    )?;
    out.flush()
}
