//! Subcommands, human and `--json` output, exit codes.

mod call;
mod case;
mod check;
mod diff;
mod docs;
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
mod style;
mod test;
mod watch;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Exit status when the work found failures: a run's errors, a failing case,
/// output that could not be written.
pub const EXIT_FAILURE: u8 = 1;

/// Exit status for bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;

/// Output the command made but could not write (a file, standard output): the
/// input was fine, so the exit status is [`EXIT_FAILURE`], not [`EXIT_USAGE`].
#[derive(Debug)]
pub struct Unwritten(pub String);

impl std::fmt::Display for Unwritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}", self.0)
    }
}

/// Turns a failed write of `what` into an [`Unwritten`] error.
pub fn unwritten(what: impl std::fmt::Display) -> impl FnOnce(std::io::Error) -> anyhow::Error {
    move |e| anyhow::Error::new(e).context(Unwritten(what.to_string()))
}

/// Standard output for a long document (a JSON report, a plan): buffered
/// in large blocks and, on Unix, written to the descriptor itself. Standard
/// output's own writer looks for a line end in every block it passes on, a
/// search over every byte of a report of tens of megabytes; nothing else is
/// printed while the document is written.
pub fn block_out() -> impl std::io::Write {
    const BLOCK: usize = 64 * 1024;
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            let out: Box<dyn std::io::Write> = Box::new(std::fs::File::from(fd));
            return std::io::BufWriter::with_capacity(BLOCK, out);
        }
    }
    let out: Box<dyn std::io::Write> = Box::new(std::io::stdout().lock());
    std::io::BufWriter::with_capacity(BLOCK, out)
}

/// Where `path` really is, checked to lie inside `root` whatever the symbolic
/// links on the way say: hookrun writes only inside the directory a command was
/// pointed at. `Err` names the path and where it leads (exit status 2).
pub fn inside(
    root: &std::path::Path,
    path: &std::path::Path,
) -> anyhow::Result<std::path::PathBuf> {
    let outside = |target: &std::path::Path| {
        anyhow::anyhow!(
            "{} leads to {}, outside {}: hookrun writes only inside the directory it was given; replace the symbolic link with the file itself",
            path.display(),
            target.display(),
            root.display()
        )
    };
    let root = root
        .canonicalize()
        .map_err(|e| anyhow::anyhow!("cannot resolve {}: {e}", root.display()))?;
    let target = match path.canonicalize() {
        Ok(target) => target,
        // A file still to be made: its directory decides.
        Err(_) => {
            let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
                return Err(outside(path));
            };
            let dir = if dir.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                dir
            };
            let dir = dir
                .canonicalize()
                .map_err(|e| anyhow::anyhow!("cannot resolve {}: {e}", dir.display()))?;
            dir.join(name)
        }
    };
    if target.starts_with(&root) {
        Ok(target)
    } else {
        Err(outside(&target))
    }
}

/// [`write_file`] of a `path` that must lie inside `root` (see [`inside`]).
pub fn write_inside(
    root: &std::path::Path,
    path: &std::path::Path,
    contents: impl AsRef<[u8]>,
) -> anyhow::Result<()> {
    write_file(&inside(root, path)?, contents)
}

/// Writes `contents` to `path`; a failure is [`Unwritten`]. An existing
/// regular file (through a symbolic link, its target) is replaced by way of a
/// temporary file beside it with the file's permissions, so a write that fails
/// half-way leaves it as it was. Anything else (a new file, a device, a pipe,
/// `/dev/stdout`, `/proc/self/fd/…`) is written directly; a new file that could
/// not be written whole is removed.
pub fn write_file(path: &std::path::Path, contents: impl AsRef<[u8]>) -> anyhow::Result<()> {
    use std::io::Write;
    let contents = contents.as_ref();
    let special = path.starts_with("/dev") || path.starts_with("/proc");
    let existing = std::fs::metadata(path).ok();
    let written = match existing {
        Some(meta) if meta.is_file() && !special => {
            let target = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
            let dir = match target.parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir,
                _ => std::path::Path::new("."),
            };
            tempfile::NamedTempFile::new_in(dir).and_then(|mut file| {
                file.write_all(contents)?;
                file.as_file().set_permissions(meta.permissions())?;
                file.persist(&target).map_err(|e| e.error)?;
                Ok(())
            })
        }
        Some(_) => std::fs::write(path, contents),
        None => std::fs::write(path, contents).inspect_err(|_| {
            let _ = std::fs::remove_file(path);
        }),
    };
    written.map_err(unwritten(path.display()))
}

/// The exit status of a command that ended with `error`.
fn exit_status(error: &anyhow::Error) -> u8 {
    if error.downcast_ref::<Unwritten>().is_some() {
        EXIT_FAILURE
    } else {
        EXIT_USAGE
    }
}

#[derive(Parser)]
#[command(
    name = "hookrun",
    version,
    propagate_version = true,
    about = "Run the JavaScript hooks of workflow manifests in a sandbox"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// When to colour the human output: `auto` colours a terminal unless
    /// `NO_COLOR` is set (`CLICOLOR_FORCE` colours anywhere); `always` and
    /// `never` win over both variables.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value = "auto"
    )]
    color: style::ColorChoice,
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
    /// Fixture cases: `case capture` writes a run over a Zotero library as a case.
    #[command(subcommand)]
    Case(case::CaseCommand),
    /// Bring pre-v2 manifests to schema v2: print a diff, or rewrite with --write.
    Migrate(migrate::MigrateArgs),
    /// List the workflows of one or more roots, overridden ones included.
    List(library::ListArgs),
    /// Pin the workflows of one or more roots to their content in a lock file.
    Lock(library::LockArgs),
    /// Print the shell completion script of hookrun.
    Completions(docs::CompletionsArgs),
    /// Print the man page of hookrun or of one subcommand (roff, for `man -l -`).
    Man(docs::ManArgs),
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
    style::init(cli.color);
    let result = match cli.command {
        Command::Call(args) => call::run(args),
        Command::Check(args) => check::run(args),
        Command::Plan(args) => plan::run(args),
        Command::Run(args) => run::run_command(args),
        Command::Test(args) => test::run_tests(args),
        Command::New(args) => new::run_new(args),
        Command::Case(command) => case::run_case_command(command),
        Command::Migrate(args) => migrate::run_migrate(args),
        Command::List(args) => library::run_list(args),
        Command::Lock(args) => library::run_lock(args),
        Command::Completions(args) => docs::completions(args, Cli::command()),
        Command::Man(args) => docs::man(args, Cli::command()),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            anstream::eprintln!("{}: {e:#}", style::paint(style::FAILED, "hookrun"));
            ExitCode::from(exit_status(&e))
        }
    }
}
