//! Loading what `plan` and `run` work on: the workflow and a fixture case that
//! command-line flags override, each with an error naming the file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use clap::{Args, ValueEnum};

use hookrun::manifest::{Category, Library, Workflow};
use hookrun::run::{Case, CaseSelection, Shape, SharedSource};
use hookrun::zotero::{LibraryChoice, OpenOptions, SelectSpec, ZoteroSource, ZoteroWorld};

use super::input::{one_stdin, read_json, read_selection};
use super::library::LibraryArgs;

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
    /// A Zotero data directory to read the world from, read-only and lazily:
    /// its zotero.sqlite and storage/ (say what to select with --select).
    #[arg(long, value_name = "DATA_DIR", conflicts_with_all = ["selection", "library", "files"])]
    pub zotero: Option<PathBuf>,
    /// What to select in the Zotero library, as Zotero's item tree would:
    /// item:<KEY> (an attachment or note comes with its parent),
    /// collection:<KEY or name>, tag:<name>; library:<ID> picks a group
    /// library. Repeat it to combine.
    #[arg(long = "select", value_name = "SPEC", requires = "zotero")]
    pub select: Vec<String>,
    /// Zotero's "Linked Attachment Base Directory": where linked files stored
    /// as `attachments:<path>` are.
    #[arg(long, value_name = "DIR", requires = "zotero")]
    pub attachment_base: Option<PathBuf>,
    /// Read a `--selection` file on two threads (see `read_selection`).
    #[arg(skip)]
    pub threaded: bool,
}

impl CaseArgs {
    /// The fixture at `fixture` (or an empty case) with these flags applied.
    pub fn case(&self, fixture: Option<&Path>) -> Result<Case> {
        self.case_and_source(fixture).map(|(case, _)| case)
    }

    /// [`case`](Self::case), with the Zotero library it reads (`--zotero`).
    pub fn case_and_source(
        &self,
        fixture: Option<&Path>,
    ) -> Result<(Case, Option<Arc<ZoteroSource>>)> {
        one_stdin(&[
            ("--selection", self.selection.as_deref()),
            ("--settings", self.settings.as_deref()),
            ("--library", self.library.as_deref()),
        ])?;
        let mut case = match fixture {
            Some(path) => Case::load(path)?,
            None => Case::default(),
        };
        let source = match &self.zotero {
            Some(dir) => {
                let mut options = OpenOptions::new();
                if let Some(base) = &self.attachment_base {
                    options = options.base_attachment_dir(base);
                }
                Some(zotero_case(&mut case, dir, options, &self.select)?)
            }
            None => None,
        };
        // A selection that is JSON but not a SelectionContext is reported
        // after the other inputs are read, where the case's own would be.
        let selection = self
            .selection
            .as_deref()
            .map(|path| read_selection(path, self.threaded))
            .transpose()?;
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
        if let Some(selection) = selection {
            let selection = selection.map_err(|e| case.invalid_selection(e))?;
            case.selection = Some(CaseSelection::Read(selection));
        }
        if case.selection.is_none() {
            bail!(
                "give a selection with --selection (or --zotero with --select), or a fixture case with a \"selection\""
            );
        }
        Ok((case, source))
    }
}

/// Makes `case` read its selection and world from the Zotero data directory
/// `dir`, selecting what `specs` name.
fn zotero_case(
    case: &mut Case,
    dir: &Path,
    mut options: OpenOptions,
    specs: &[String],
) -> Result<Arc<ZoteroSource>> {
    if specs.is_empty() {
        bail!(
            "--zotero {} needs something to select: --select item:<KEY>, collection:<KEY or name> or tag:<name>",
            dir.display()
        );
    }
    let mut selected = Vec::new();
    for spec in specs {
        if spec.starts_with("library:") {
            let library: LibraryChoice =
                spec.parse().map_err(|e| anyhow!("--select {spec}: {e}"))?;
            options = options.library(library);
        } else {
            selected.push(
                spec.parse::<SelectSpec>()
                    .map_err(|e| anyhow!("--select {spec}: {e}"))?,
            );
        }
    }
    let zotero = ZoteroWorld::open(dir, &options, &selected).map_err(|e| anyhow!("{e}"))?;
    if let Some(bytes) = zotero.unread_wal_bytes {
        eprintln!(
            "warning: Zotero has {bytes} bytes of changes not yet written into {}; close Zotero (or let it checkpoint) to read them",
            dir.join("zotero.sqlite").display()
        );
    }
    case.files = zotero.files_dir();
    case.selection = Some(CaseSelection::Read(zotero.selection));
    case.source = Some(SharedSource(zotero.source.clone()));
    Ok(zotero.source)
}

/// The workflow and the case `plan` and `run` work on.
#[derive(Args)]
pub struct TargetArgs {
    /// The workflow: a workflow.json, its directory, or a package or workflows
    /// directory with --workflow (or name the roots with --workflows).
    workflow: Option<PathBuf>,
    /// The workflow, when the workflows hold several: <id>, <id>@<version> or
    /// <id>@<semver range> (the highest match).
    #[arg(long = "workflow", value_name = "ID[@VERSION]")]
    workflow_id: Option<String>,
    #[command(flatten)]
    library: LibraryArgs,
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
        let workflow = self.select()?;
        let case = self.case.case(self.fixture.as_deref())?;
        Ok((workflow, case))
    }

    /// [`load`](Self::load), with the Zotero library the case reads (`--zotero`).
    pub fn load_with_source(&self) -> Result<(Workflow, Case, Option<Arc<ZoteroSource>>)> {
        let workflow = self.select()?;
        let (case, source) = self.case.case_and_source(self.fixture.as_deref())?;
        Ok((workflow, case, source))
    }

    /// The fixture case named with --fixture, when there is one.
    pub fn fixture(&self) -> Option<&Path> {
        self.fixture.as_deref()
    }

    /// The one workflow named: `--workflow`'s, or the only one there is.
    fn select(&self) -> Result<Workflow> {
        let library = self.library.open(self.workflow.as_deref())?;
        let shown = self.library.shown(self.workflow.as_deref());
        if let Some(spec) = &self.workflow_id {
            return match library.resolve(spec) {
                Ok(resolution) => {
                    if let Some(note) = &resolution.note {
                        eprintln!("hookrun: {note}");
                    }
                    Ok(resolution.entry.workflow.clone())
                }
                Err(e) => Err(not_loaded(&library, Some(spec), &shown).unwrap_or_else(|| e.into())),
            };
        }
        let mut winners = library.winners();
        match winners.len() {
            1 => Ok(winners.remove(0).workflow.clone()),
            0 => Err(not_loaded(&library, None, &shown)
                .unwrap_or_else(|| anyhow!("no workflow found in {shown}"))),
            _ => Err(anyhow!(
                "{shown} holds several workflows ({}); choose one with --workflow <id>",
                winners
                    .iter()
                    .map(|e| e.workflow.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

/// The problems of a workflow (of id `spec`'s id, or any) that did not load, if any.
fn not_loaded(library: &Library, spec: Option<&str>, shown: &str) -> Option<anyhow::Error> {
    let id = spec.map(|s| s.split_once('@').map_or(s, |(id, _)| id));
    if id.is_some_and(|id| library.entries().iter().any(|e| e.workflow.id == id)) {
        return None;
    }
    let problems: Vec<String> = library
        .diagnostics()
        .iter()
        .filter(|d| id.is_none() || d.workflow_id.as_deref() == id)
        .filter(|d| d.category != Category::WorkflowOverridden)
        .map(|d| {
            let at = d.pointer.as_deref().unwrap_or("");
            match &d.reason {
                Some(reason) => format!("  {at} {} ({reason})", d.message),
                None => format!("  {at} {}", d.message),
            }
        })
        .collect();
    (!problems.is_empty()).then(|| {
        anyhow!(
            "the workflow in {shown} does not load; run `hookrun check {shown}`:\n{}",
            problems.join("\n")
        )
    })
}
