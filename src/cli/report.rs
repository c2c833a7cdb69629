//! Human output of run reports: errors shown the way a compiler shows them.

use std::path::Path;

use anstream::eprintln;

use hookrun::hooks::HookRecord;
use hookrun::manifest::Workflow;
use hookrun::run::{RunError, RunReport};

use super::frame::{code_frame, shown_path};
use super::style::{FAILED, paint};

/// Console output of the report's hooks, one line each, attributed to the unit
/// and hook with its level.
pub fn log_lines(report: &RunReport) -> impl Iterator<Item = String> + '_ {
    report.hooks.iter().flat_map(record_log_lines)
}

/// Console output of one hook call, one line each, attributed to its unit and
/// hook with its level.
pub fn record_log_lines(hook: &HookRecord) -> impl Iterator<Item = String> + '_ {
    hook.logs.iter().map(move |log| {
        format!(
            "[{} {} {}] {}",
            hook.unit_id,
            hook.hook,
            log.level.as_str(),
            log.message
        )
    })
}

/// A stack line (`at f (hooks/a.mjs:3:7)`, `at hooks/a.mjs:3:7`) with its file,
/// relative to `root` in reports, shown from the current directory instead.
fn relocated(line: &str, root: &Path) -> String {
    let (start, end) = match (line.rfind('('), line.strip_suffix(')')) {
        (Some(open), Some(_)) => (open + 1, line.len() - 1),
        _ => match line.find("at ") {
            Some(at) => (at + 3, line.len()),
            None => return line.to_string(),
        },
    };
    let location = &line[start..end];
    let mut parts = location.rsplitn(3, ':');
    let (Some(column), Some(number), Some(file)) = (parts.next(), parts.next(), parts.next())
    else {
        return line.to_string();
    };
    if column.parse::<u32>().is_err() || number.parse::<u32>().is_err() {
        return line.to_string();
    }
    let path = root.join(file);
    if !path.is_file() {
        return line.to_string();
    }
    format!(
        "{}{}:{number}:{column}{}",
        &line[..start],
        shown_path(&path),
        &line[end..]
    )
}

/// Prints every error of `report` to standard error, where hook logs go too;
/// hook failures get a code frame of the failing line and the hook's stack
/// below, every location shown from the current directory (reports keep them
/// relative to the workflow's module root, and a hook's file relative to its
/// directory).
pub fn print_failures(report: &RunReport, workflow: &Workflow) {
    for error in &report.errors {
        print_failure(error, workflow);
    }
}

/// Prints one error of a run (see [`print_failures`]).
pub fn print_failure(error: &RunError, workflow: &Workflow) {
    let root = workflow.jail_root.as_path();
    let unit = error.unit_id.as_deref().unwrap_or("run");
    let at = match &error.hook {
        Some(hook) => hook.hook.clone(),
        None => error.stage.to_string(),
    };
    eprintln!(
        "{} {unit}: {}: {}",
        paint(FAILED, format!("error[{at}]")),
        error.name,
        error.message
    );
    let Some(hook) = &error.hook else {
        return;
    };
    match &hook.location {
        Some(loc) => {
            for line in code_frame(root, loc).lines() {
                eprintln!("  {line}");
            }
        }
        None => eprintln!(
            "    --> {}",
            shown_path(&workflow.workflow_dir.join(&hook.file))
        ),
    }
    for line in hook.stack.lines() {
        eprintln!("  {}", relocated(line, root));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_lines_name_files_from_the_current_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("hooks")).unwrap();
        std::fs::write(dir.path().join("hooks/a.mjs"), "").unwrap();
        let shown = shown_path(&dir.path().join("hooks/a.mjs"));
        assert_eq!(
            relocated("    at probe (hooks/a.mjs:3:7)", dir.path()),
            format!("    at probe ({shown}:3:7)")
        );
        assert_eq!(
            relocated("    at hooks/a.mjs:3:7", dir.path()),
            format!("    at {shown}:3:7")
        );
        for untouched in ["    at <anonymous>", "    at f (missing.mjs:1:2)", "text"] {
            assert_eq!(relocated(untouched, dir.path()), untouched);
        }
    }
}
