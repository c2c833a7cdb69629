//! Subcommands, human and `--json` output, exit codes.

mod call;
mod check;
mod diff;
mod frame;
mod input;
mod inputs;
mod library;
mod migrate;
mod new;
mod plan;
mod progress;
mod report;
mod run;
mod test;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit status for bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "hookrun",
    version,
    about = "Run the JavaScript hooks of workflow manifests in a sandbox"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Call one export of one module with JSON input, under limits.
    Call(call::CallArgs),
    /// Validate workflow manifests and load every declared hook module.
    Check(check::CheckArgs),
    /// Show the input plan of a workflow for a selection.
    Plan(plan::PlanArgs),
    /// Run a workflow over a selection: preflight, requests, results, applies.
    Run(run::RunArgs),
    /// Run the fixture cases of workflows and compare with their expectations.
    Test(test::TestArgs),
    /// Create a new workflow with hooks, types and a fixture case.
    New(new::NewArgs),
    /// Bring pre-v2 manifests to schema v2: print a diff, or rewrite with --write.
    Migrate(migrate::MigrateArgs),
    /// List the workflows of one or more roots, overridden ones included.
    List(library::ListArgs),
    /// Pin the workflows of one or more roots to their content in a lock file.
    Lock(library::LockArgs),
}

/// Parses the command line, runs the subcommand and maps errors to exit codes.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Call(args) => call::run(args),
        Command::Check(args) => check::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Run(args) => run::run_command(args),
        Command::Test(args) => test::run_tests(args),
        Command::New(args) => new::run_new(args),
        Command::Migrate(args) => migrate::run_migrate(args),
        Command::List(args) => library::run_list(args),
        Command::Lock(args) => library::run_lock(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("hookrun: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
