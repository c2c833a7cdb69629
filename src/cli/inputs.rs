//! Loading what `plan` and `run` work on: the workflow and a fixture case that
//! command-line flags override, each with an error naming the file.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::{Args, ValueEnum};

use hookrun::manifest::{Workflow, discover};
use hookrun::run::{Case, Shape};

use super::input::read_json;

/// `--convert` values.
#[derive(Clone, Copy, ValueEnum)]
pub enum ShapeArg {
    /// The canonical flat shape (`items: [{kind, ref, …}]`).
    Canonical,
    /// The grouped shape (`items.parents/children/attachments/notes`).
    Grouped,
}

impl From<ShapeArg> for Shape {
    fn from(s: ShapeArg) -> Shape {
        match s {
            ShapeArg::Canonical => Shape::Canonical,
            ShapeArg::Grouped => Shape::Grouped,
        }
    }
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

impl ModeArg {
    fn as_str(self) -> &'static str {
        match self {
            ModeArg::Menu => "menu",
            ModeArg::Execute => "execute",
            ModeArg::Handoff => "handoff",
        }
    }
}

/// Flags describing a case: each overrides the fixture's member.
#[derive(Args)]
pub struct CaseArgs {
    /// The SelectionContext JSON (grouped or canonical shape).
    #[arg(long)]
    pub selection: Option<PathBuf>,
    /// Settings JSON: {"workflowParams": {...}, "providerOptions": {...}}.
    #[arg(long)]
    pub settings: Option<PathBuf>,
    /// Planning mode (default execute).
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Directory that attachment paths resolve against (Zotero data directory layout).
    #[arg(long)]
    pub files: Option<PathBuf>,
    /// JSON library description adding items the selection does not contain.
    #[arg(long)]
    pub library: Option<PathBuf>,
    /// Convert the selection to this shape before planning.
    #[arg(long, value_enum)]
    pub convert: Option<ShapeArg>,
}

impl CaseArgs {
    /// The fixture at `fixture` (or an empty case) with these flags applied.
    pub fn case(&self, fixture: Option<&Path>) -> Result<Case> {
        let mut case = match fixture {
            Some(path) => Case::load(path)?,
            None => Case::default(),
        };
        if let Some(path) = &self.selection {
            case.selection = Some(read_json(path)?);
        }
        if let Some(path) = &self.settings {
            case.settings = Some(read_json(path)?);
        }
        if let Some(path) = &self.library {
            case.library = Some(read_json(path)?);
        }
        if let Some(dir) = &self.files {
            if !dir.is_dir() {
                bail!("--files {} is not a directory", dir.display());
            }
            case.files = Some(dir.clone());
        }
        if let Some(mode) = self.mode {
            case.mode = Some(mode.as_str().to_string());
        }
        if case.selection.is_none() {
            bail!("give a selection with --selection, or a fixture case with a \"selection\"");
        }
        Ok(case)
    }
}

/// The workflow and the case `plan` and `run` work on.
#[derive(Args)]
pub struct TargetArgs {
    /// The workflow: a workflow.json, its directory, or a package directory with --workflow.
    workflow: PathBuf,
    /// Workflow id, when the path holds several workflows.
    #[arg(long = "workflow")]
    workflow_id: Option<String>,
    /// A fixture case carrying selection, settings, world and request results;
    /// the flags below override its members.
    #[arg(long)]
    pub fixture: Option<PathBuf>,
    #[command(flatten)]
    pub case: CaseArgs,
}

impl TargetArgs {
    /// The workflow and the case with the flags applied.
    pub fn load(&self) -> Result<(Workflow, Case)> {
        let workflow = load_workflow(&self.workflow, self.workflow_id.as_deref())?;
        let case = self.case.case(self.fixture.as_deref())?;
        Ok((workflow, case))
    }
}

/// Loads the single workflow at `path` (a workflow.json, its directory, or a
/// package or workflows directory together with `id`).
fn load_workflow(path: &Path, id: Option<&str>) -> Result<Workflow> {
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
