//! `hookrun plan`: the input plan of a workflow for a selection.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use hookrun::plan::{Plan, PlanState, plan};
use hookrun::run::normalize_params;

use super::inputs::{CaseArgs, load_workflow};

#[derive(Args)]
pub struct PlanArgs {
    /// The workflow: a workflow.json, its directory, or a package directory with --workflow.
    workflow: PathBuf,
    /// Workflow id, when the path holds several workflows.
    #[arg(long = "workflow")]
    workflow_id: Option<String>,
    /// A fixture case to take the selection, settings and world from.
    #[arg(long)]
    fixture: Option<PathBuf>,
    #[command(flatten)]
    case: CaseArgs,
    /// Print the plan as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: PlanArgs) -> Result<u8> {
    let workflow = load_workflow(&args.workflow, args.workflow_id.as_deref())?;
    let case = args.case.case(args.fixture.as_deref())?;
    let input = case.input(args.case.convert.map(Into::into))?;
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
        println!("{}", plan.to_json_string());
    } else {
        print_human(&plan);
    }
    Ok(match plan.state {
        PlanState::Enabled => 0,
        PlanState::Disabled => 1,
    })
}

fn print_human(plan: &Plan) {
    match &plan.reason_code {
        Some(reason) => println!("plan: {} ({})", plan.state.as_str(), reason.as_str()),
        None => println!("plan: {}", plan.state.as_str()),
    }
    let c = &plan.selection_counts;
    println!(
        "selection: {} parents, {} children, {} attachments, {} notes",
        c.parents, c.children, c.attachments, c.notes
    );
    if !plan.units.is_empty() {
        println!("\n{:<10} {:<40} members", "unit", "task name");
        for unit in &plan.units {
            println!(
                "{:<10} {:<40} {}",
                unit.unit_id,
                unit.task_name,
                unit.member_identities.join(", ")
            );
        }
    }
    if !plan.skipped.is_empty() {
        println!("\n{:<40} reason", "skipped candidate");
        for skip in &plan.skipped {
            println!("{:<40} {}", skip.identity, skip.reason);
        }
    }
    let s = &plan.stats.candidates;
    println!(
        "\ncandidates: {} total, {} accepted, {} skipped; {} unit(s)",
        s.total,
        s.accepted,
        s.skipped,
        plan.units.len()
    );
}
