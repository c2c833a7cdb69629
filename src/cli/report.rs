//! Human output of run reports: errors shown the way a compiler shows them.

use std::path::Path;

use hookrun::run::RunReport;

use super::frame::code_frame;

/// Console output of the report's hooks, one line each, attributed to the unit
/// and hook with its level.
pub fn log_lines(report: &RunReport) -> impl Iterator<Item = String> + '_ {
    report.hooks.iter().flat_map(|hook| {
        hook.logs.iter().map(move |log| {
            format!(
                "[{} {} {}] {}",
                hook.unit_id,
                hook.hook,
                log.level.as_str(),
                log.message
            )
        })
    })
}

/// Prints every error of `report` to standard error, where hook logs go too;
/// hook failures get a code frame of the failing line (paths relative to
/// `root`) and the hook's stack below.
pub fn print_failures(report: &RunReport, root: &Path) {
    for error in &report.errors {
        let unit = error.unit_id.as_deref().unwrap_or("run");
        match &error.hook {
            Some(hook) => {
                eprintln!(
                    "error[{}] {unit}: {}: {}",
                    hook.hook, error.name, error.message
                );
                match &hook.location {
                    Some(loc) => {
                        for line in code_frame(root, loc).lines() {
                            eprintln!("  {line}");
                        }
                    }
                    None => eprintln!("    --> {}", hook.file),
                }
                for line in hook.stack.lines() {
                    eprintln!("  {line}");
                }
            }
            None => eprintln!(
                "error[{}] {unit}: {}: {}",
                error.stage, error.name, error.message
            ),
        }
    }
}
