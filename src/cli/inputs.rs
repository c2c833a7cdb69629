//! Loading what `plan` and `run` work on: the workflow, the selection, settings
//! and the host world, each with an error naming the file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueEnum};

use hookrun::host::world::HostWorld;
use hookrun::manifest::{Workflow, discover};
use hookrun::plan::Mode;
use hookrun::run::Settings;
use hookrun::selection::SelectionContext;

use super::input::read_json;

/// Which shape to convert the selection to before planning.
#[derive(Clone, Copy, ValueEnum)]
pub enum Shape {
    /// The canonical flat shape (`items: [{kind, ref, …}]`).
    Canonical,
    /// The grouped shape (`items.parents/children/attachments/notes`).
    Grouped,
}

/// Planning mode flag values.
#[derive(Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// Menu enablement and preview.
    Menu,
    /// A confirmed run (default).
    Execute,
    /// A run handed over by an external bridge.
    Handoff,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Menu => Mode::Menu,
            ModeArg::Execute => Mode::Execute,
            ModeArg::Handoff => Mode::Handoff,
        }
    }
}

/// Flags describing the world a workflow plans and runs against.
#[derive(Args)]
pub struct WorldArgs {
    /// Directory that attachment paths resolve against (Zotero data directory layout).
    #[arg(long)]
    pub files: Option<PathBuf>,
    /// JSON library description adding items the selection does not contain.
    #[arg(long)]
    pub library: Option<PathBuf>,
    /// Convert the selection to this shape before planning.
    #[arg(long, value_enum)]
    pub convert: Option<Shape>,
}

/// Loads the single workflow at `path` (a workflow.json, its directory, or a
/// package or workflows directory together with `id`).
pub fn load_workflow(path: &Path, id: Option<&str>) -> Result<Workflow> {
    if !path.exists() {
        bail!("{} does not exist", path.display());
    }
    let found = discover(path);
    let problems: Vec<String> = found
        .diagnostics
        .iter()
        .filter(|d| id.is_none() || d.workflow_id.as_deref() == id)
        .map(|d| {
            let at = d.pointer.as_deref().unwrap_or("");
            match &d.reason {
                Some(reason) => format!("  {at} {} ({reason})", d.message),
                None => format!("  {at} {}", d.message),
            }
        })
        .collect();
    let mut candidates: Vec<Workflow> = found
        .workflows
        .into_iter()
        .filter(|w| id.is_none_or(|id| w.id == id))
        .collect();
    match candidates.len() {
        1 => Ok(candidates.remove(0)),
        0 if problems.is_empty() => Err(anyhow!(
            "no workflow{} found at {}",
            id.map(|i| format!(" with id {i}")).unwrap_or_default(),
            path.display()
        )),
        0 => Err(anyhow!(
            "the workflow at {} does not load; run `hookrun check {}`:\n{}",
            path.display(),
            path.display(),
            problems.join("\n")
        )),
        _ => Err(anyhow!(
            "{} holds several workflows ({}); choose one with --workflow <id>",
            path.display(),
            candidates
                .iter()
                .map(|w| w.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Reads a selection context file (either shape).
pub fn read_selection(path: &Path) -> Result<SelectionContext> {
    let value = read_json(path)?;
    SelectionContext::from_value(&value)
        .with_context(|| format!("{} is not a valid SelectionContext", path.display()))
}

/// Reads a settings file, or empty settings.
pub fn read_settings(path: Option<&Path>) -> Result<Settings> {
    match path {
        None => Ok(Settings::default()),
        Some(path) => Settings::from_value(&read_json(path)?)
            .with_context(|| format!("{} is not a valid settings file", path.display())),
    }
}

/// Applies `--convert`, then builds the host world of the selection.
pub fn world_and_selection(
    args: &WorldArgs,
    selection: SelectionContext,
) -> Result<(HostWorld, SelectionContext)> {
    let selection = match args.convert {
        None => selection,
        Some(Shape::Grouped) => SelectionContext::Grouped(selection.to_grouped()),
        Some(Shape::Canonical) => {
            let world = build_world(args, &selection)?;
            let exists = |path: &str| world.file_exists(path);
            SelectionContext::Canonical(
                selection
                    .to_canonical(&exists)
                    .context("the selection cannot be converted to the canonical shape")?,
            )
        }
    };
    Ok((build_world(args, &selection)?, selection))
}

fn build_world(args: &WorldArgs, selection: &SelectionContext) -> Result<HostWorld> {
    let mut world = HostWorld::from_selection(selection);
    if let Some(path) = &args.library {
        world = world
            .with_library(&read_json(path)?)
            .with_context(|| format!("{} is not a valid library description", path.display()))?;
    }
    if let Some(dir) = &args.files {
        if !dir.is_dir() {
            bail!("--files {} is not a directory", dir.display());
        }
        world = world.with_files_dir(dir);
    }
    Ok(world)
}
