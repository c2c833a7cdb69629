//! `hookrun check`: validate manifests and load every declared hook module.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use hookrun::hooks::{CheckReport, check_library};
use hookrun::manifest::Diagnostic;

use super::call::LimitArgs;
use super::library::LibraryArgs;

#[derive(Args)]
pub struct CheckArgs {
    /// A workflow.json, a workflow directory, a package directory or a directory of workflows.
    path: Option<PathBuf>,
    #[command(flatten)]
    library: LibraryArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// Print one JSON object instead of human output.
    #[arg(long)]
    json: bool,
}

/// Severity as `check` reports it: a problem that makes a host skip the
/// workflow is an error here, whatever level the loader gives it.
fn level(d: &Diagnostic) -> &'static str {
    if d.category.is_advisory() {
        "warning"
    } else {
        "error"
    }
}

pub fn run(args: CheckArgs) -> Result<u8> {
    let library = args.library.open(args.path.as_deref())?;
    let options = args.limits.options(None, false)?;
    let report = check_library(&library, options);
    if args.json {
        println!("{}", to_json(&report));
    } else {
        print_human(&report);
    }
    let failed = report.diagnostics.iter().any(|d| level(d) == "error");
    Ok(u8::from(failed))
}

fn to_json(report: &CheckReport) -> serde_json::Value {
    let diagnostics: Vec<serde_json::Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            serde_json::json!({
                "level": level(d),
                "category": d.category.as_str(),
                "message": d.message,
                "path": d.path,
                "pointer": d.pointer,
                "line": d.line,
                "column": d.column,
                "workflowId": d.workflow_id,
                "reason": d.reason,
            })
        })
        .collect();
    serde_json::json!({"workflows": report.workflows, "diagnostics": diagnostics})
}

fn location(d: &Diagnostic) -> String {
    let file = d
        .path
        .as_deref()
        .map(shorten)
        .unwrap_or_else(|| "<input>".to_string());
    match (d.line, d.column, &d.pointer) {
        (Some(line), Some(column), _) => format!("{file}:{line}:{column}"),
        (_, _, Some(pointer)) => format!("{file}:{pointer}"),
        _ => file,
    }
}

/// A path relative to the working directory when it lies below it.
fn shorten(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

fn print_human(report: &CheckReport) {
    for d in &report.diagnostics {
        let reason = d
            .reason
            .as_deref()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        println!(
            "{}: {}: {}{reason} [{}]",
            location(d),
            level(d),
            d.message,
            d.category.as_str()
        );
    }
    for w in &report.workflows {
        println!(
            "{} {} ({} hooks)",
            if w.ok { "ok  " } else { "FAIL" },
            w.id,
            w.hooks.len()
        );
    }
    let errors = report
        .diagnostics
        .iter()
        .filter(|d| level(d) == "error")
        .count();
    println!(
        "{} workflow(s) checked, {} error(s), {} warning(s)",
        report.workflows.len(),
        errors,
        report.diagnostics.len() - errors
    );
}
