//! `hookrun case capture`: a run over a Zotero library written as a fixture
//! case that reproduces it without the database: the selection, the items the
//! run read (in Zotero's JSON export shape), the library's collections, the
//! stored files of the attachments it read, and the run's results as the
//! case's expectations.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

use hookrun::host::world::{LibrarySource, show_linked_file};
use hookrun::run::expect::actual;
use hookrun::run::{RunOptions, run};
use hookrun::sandbox::Determinism;
use hookrun::zotero::ZoteroSource;

use super::call::LimitArgs;
use super::inputs::TargetArgs;

/// `hookrun case …`.
#[derive(Subcommand)]
pub enum CaseCommand {
    /// Run a workflow over a Zotero library (--zotero, --select) and write a
    /// fixture case that reproduces the run without the database.
    Capture(CaptureArgs),
}

/// `hookrun case capture`.
#[derive(Args)]
pub struct CaptureArgs {
    #[command(flatten)]
    target: TargetArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// The case file to write; the files it needs go to <NAME>-files/ beside it.
    #[arg(long, value_name = "CASE.json")]
    out: PathBuf,
    /// Replace the case file (and its files directory) when they exist.
    #[arg(long)]
    force: bool,
}

/// Members of a `--fixture` case a capture keeps (what the database does not give).
const KEPT: &[&str] = &[
    "description",
    "settings",
    "mode",
    "invocationMode",
    "identifiers",
    "hostAnswers",
    "results",
];

/// Runs `hookrun case …`.
pub fn run_case_command(command: CaseCommand) -> Result<u8> {
    match command {
        CaseCommand::Capture(args) => capture(args),
    }
}

fn capture(args: CaptureArgs) -> Result<u8> {
    let (workflow, case, source) = args.target.load_with_source()?;
    let Some(source) = source else {
        bail!("case capture reads a Zotero library: give --zotero <DATA_DIR> and --select");
    };
    let files_dir = files_dir_of(&args.out)?;
    if !args.force && (args.out.exists() || files_dir.exists()) {
        bail!(
            "{} or {} exists already; give --force to replace them",
            args.out.display(),
            files_dir.display()
        );
    }
    let sandbox = args.limits.options(Some(Determinism::default()), false)?;
    let mut options = RunOptions::default().mode(case.mode()?).sandbox(sandbox);
    options.runtime.invocation_mode = case.invocation(false);
    // The selection as the run sees it (converted when asked), for the case.
    let input = case.input(args.target.case.convert.map(Into::into))?;
    let selection = serde_json::to_value(&input.selection)?;
    let report = run(&workflow, input, &mut case.result_source(), &options);
    let (library, files) = captured_library(&source)?;
    let copied = copy_files(&files, &files_dir, args.force)?;
    let mut out = kept_members(args.target.fixture())?;
    out.insert("selection".into(), selection);
    out.insert("library".into(), library);
    if copied > 0 {
        let name = files_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        out.insert("files".into(), name.into());
    }
    out.insert("expect".into(), Value::Object(actual(&report)));
    let text = format!("{}\n", serde_json::to_string_pretty(&Value::Object(out))?);
    super::write_file(&args.out, text)?;
    eprintln!(
        "captured {} item(s) and {copied} file(s) into {}",
        source.served_keys().len(),
        args.out.display()
    );
    Ok(0)
}

/// `<dir>/<stem>-files` for the case file `out`.
fn files_dir_of(out: &Path) -> Result<PathBuf> {
    let stem = out
        .file_stem()
        .ok_or_else(|| anyhow!("--out {} names no file", out.display()))?;
    let dir = out.parent().unwrap_or(Path::new(""));
    Ok(dir.join(format!("{}-files", stem.to_string_lossy())))
}

/// The members of the `--fixture` case a capture keeps.
fn kept_members(fixture: Option<&Path>) -> Result<Map<String, Value>> {
    let Some(path) = fixture else {
        return Ok(Map::new());
    };
    let text = hookrun::input::read_text(path, hookrun::input::MAX_JSON_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let case: Map<String, Value> = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a JSON object", path.display()))?;
    Ok(case
        .into_iter()
        .filter(|(k, _)| KEPT.contains(&k.as_str()))
        .collect())
}

/// The items the run read, as the database has them (a linked file's path as
/// hooks see it), the library's collections, and the files they name: where
/// the case keeps each (`<KEY>/<file name>`) and where it is now.
fn captured_library(source: &Arc<ZoteroSource>) -> Result<(Value, Vec<(String, PathBuf)>)> {
    let storage = source.storage_dir();
    let (mut items, mut files) = (Vec::new(), Vec::new());
    for key in source.served_keys() {
        let Some(mut item) = source.item(&key).map_err(|e| anyhow!(e))? else {
            continue;
        };
        if let Some(linked) = show_linked_file(&mut item) {
            files.push(linked);
        } else if let Some(path) = item["path"].as_str().filter(|p| is_stored_path(p)) {
            files.push((path.to_string(), storage.join(path)));
        }
        items.push(item);
    }
    let collections = source.collections().map_err(|e| anyhow!(e))?;
    Ok((json!({"items": items, "collections": collections}), files))
}

/// Whether `path` is a stored file's `<KEY>/<file name>`.
fn is_stored_path(path: &str) -> bool {
    let relative = Path::new(path);
    relative.components().count() == 2
        && relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Copies `files` (each to `dir/<where the case keeps it>`) that are regular
/// files, never through a link; how many were copied.
fn copy_files(files: &[(String, PathBuf)], dir: &Path, force: bool) -> Result<usize> {
    if force && dir.is_dir() {
        std::fs::remove_dir_all(dir)
            .with_context(|| format!("cannot replace {}", dir.display()))?;
    }
    let mut copied = 0;
    for (kept, from) in files {
        let regular = std::fs::symlink_metadata(from).is_ok_and(|m| m.is_file());
        if !regular {
            continue;
        }
        let to = dir.join(kept);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::copy(from, &to)
            .with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
        copied += 1;
    }
    Ok(copied)
}
