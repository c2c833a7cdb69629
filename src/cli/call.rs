//! `hookrun call`: one export of one module, JSON in, one typed outcome out.

use std::path::{Path, PathBuf};

use anstream::{eprint, eprintln};
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use serde_json::Value;

use hookrun::sandbox::{
    CallResult, Determinism, Isolation, Limits, Outcome, Sandbox, SandboxOptions,
};

use super::input::read_json;

/// Exit status for any outcome other than `ok`.
const EXIT_NOT_OK: u8 = 3;

#[derive(Args)]
pub struct CallArgs {
    /// The module file (.mjs or .js).
    module: PathBuf,
    /// The export to call.
    #[arg(long)]
    export: String,
    /// JSON file whose value is the single argument (`-` for standard input).
    #[arg(long)]
    input: Option<PathBuf>,
    /// The module jail root (default: the module's directory).
    #[arg(long)]
    root: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Freeze `Date` and seed `Math.random` for reproducible results.
    #[arg(long)]
    deterministic: bool,
    /// Print one JSON object instead of human output.
    #[arg(long)]
    json: bool,
}

/// Limit flags shared by every subcommand that runs hooks.
#[derive(Args)]
pub struct LimitArgs {
    /// Wall-clock limit per hook call, in milliseconds.
    #[arg(long, default_value_t = Limits::default().timeout_ms)]
    timeout_ms: u64,
    /// Heap cap, in MiB.
    #[arg(long, default_value_t = Limits::default().max_heap_bytes / (1024 * 1024))]
    max_heap_mb: u64,
    /// Largest JSON value a hook may return, in bytes.
    #[arg(long, default_value_t = Limits::default().max_output_bytes)]
    max_output_bytes: u64,
    /// Largest console output kept per call, in bytes.
    #[arg(long, default_value_t = Limits::default().max_log_bytes)]
    max_log_bytes: u64,
    /// Where hooks run: in this process, or in worker processes that an engine crash
    /// cannot take this one down with.
    #[arg(long, value_enum, default_value = "in-process")]
    isolate: IsolateArg,
}

/// `--isolate` values.
#[derive(Clone, Copy, ValueEnum)]
pub enum IsolateArg {
    /// In the hookrun process (fastest).
    InProcess,
    /// In worker processes with kernel limits of their own.
    Process,
}

impl LimitArgs {
    /// The limits these flags describe.
    pub fn limits(&self) -> Result<Limits> {
        let limits = Limits::default()
            .timeout_ms(self.timeout_ms)
            .max_heap_bytes(self.max_heap_mb.saturating_mul(1024 * 1024))
            .max_output_bytes(self.max_output_bytes)
            .max_log_bytes(self.max_log_bytes);
        if let Err(e) = limits.check() {
            bail!("--timeout-ms / --max-heap-mb: {e}");
        }
        Ok(limits)
    }

    /// The isolation `--isolate` asks for.
    pub fn isolation(&self) -> Isolation {
        match self.isolate {
            IsolateArg::InProcess => Isolation::InProcess,
            IsolateArg::Process => Isolation::process(),
        }
    }

    /// Sandbox options with these limits and isolation.
    pub fn options(
        &self,
        determinism: Option<Determinism>,
        measure_heap: bool,
    ) -> Result<SandboxOptions> {
        Ok(SandboxOptions::default()
            .limits(self.limits()?)
            .determinism(determinism)
            .measure_heap(measure_heap)
            .isolation(self.isolation())
            .startup(&hookrun::hooks::STARTUP))
    }
}

pub fn run(args: CallArgs) -> Result<u8> {
    let arg = match &args.input {
        Some(path) => read_json(path)?,
        None => Value::Null,
    };
    let root = match &args.root {
        Some(root) => root.clone(),
        None => args
            .module
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    if !args.module.is_file() {
        bail!(
            "module {} does not exist or is not a file",
            args.module.display()
        );
    }
    let options = args
        .limits
        .options(args.deterministic.then(Determinism::default), true)?;
    let mut sandbox = Sandbox::new(&root, options)
        .with_context(|| format!("cannot use {} as the module root", root.display()))?;
    let module = args
        .module
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", args.module.display()))?;
    let outcome = sandbox.call(&module, &args.export, &arg);
    if args.json {
        println!("{}", outcome.to_json());
    } else {
        print_human(&outcome, sandbox.root());
    }
    Ok(if outcome.is_ok() { 0 } else { EXIT_NOT_OK })
}

fn print_human(outcome: &Outcome, root: &Path) {
    for log in &outcome.logs {
        eprintln!("[{}] {}", log.level.as_str(), log.message);
    }
    match &outcome.result {
        CallResult::Ok(value) => {
            println!(
                "{}",
                serde_json::to_string_pretty(value).unwrap_or_default()
            );
        }
        CallResult::HookError(f) | CallResult::LoadError(f) => {
            eprintln!(
                "{}: {}",
                outcome.result.name(),
                outcome.result.error_message().unwrap_or_default()
            );
            if let Some(loc) = &f.location {
                eprint!("{}", super::frame::code_frame(root, loc));
            }
            if !f.stack.is_empty() {
                eprintln!("{}", f.stack);
            }
        }
        other => eprintln!(
            "{}: {}",
            other.name(),
            other.error_message().unwrap_or_default()
        ),
    }
}
