//! `hookrun new`: scaffold a workflow that passes `hookrun check` and
//! `hookrun test` right away.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use hookrun::manifest::discover;
use hookrun::sandbox::{Determinism, SandboxOptions};

use super::test::{Verdict, run_case};

const TYPES: &str = include_str!("../../js/hookrun.d.ts");
const PREFLIGHT: &str = include_str!("../../js/scaffold/preflight.mjs");
const APPLY_RESULT: &str = include_str!("../../js/scaffold/applyResult.mjs");
const JSCONFIG: &str = include_str!("../../js/scaffold/jsconfig.json");
/// The JSON Schema of workflow.json, written beside the types so editors check
/// the manifest offline (its `"$schema"` points here).
const SCHEMA: &str = include_str!("../../schema/workflow.v2.schema.json");
const SCHEMA_PATH: &str = "types/workflow.v2.schema.json";
/// The JSON Schema of fixture cases; each scaffolded case points here.
const CASE_SCHEMA: &str = include_str!("../../schema/case.schema.json");
const CASE_SCHEMA_PATH: &str = "types/case.schema.json";
/// Editor settings: cases checked against their schema.
const VSCODE_SETTINGS: &str = ".vscode/settings.json";
/// Editor tasks: `hookrun test` with a problem matcher for its failures.
const VSCODE_TASKS: &str = ".vscode/tasks.json";

/// Providers the scaffold can target.
#[derive(Clone, Copy, ValueEnum)]
#[non_exhaustive]
pub enum Provider {
    /// Runs locally; `applyResult` receives the unit's selection back.
    PassThrough,
    /// A Skill-Runner job (`skillrunner.job.v1`).
    Skillrunner,
    /// An HTTP request (`generic-http.request.v1`).
    GenericHttp,
}

#[derive(Args)]
pub struct NewArgs {
    /// The directory to create; its name becomes the workflow id.
    dir: PathBuf,
    /// The provider the workflow targets.
    #[arg(long, value_enum, default_value = "pass-through")]
    provider: Provider,
    /// Add only the editor support to the existing workflow in DIR: the types and
    /// schemas under `types/`, and `.vscode/` settings that check cases against
    /// their schema and a `hookrun test` task whose failures open in the editor
    /// (entries are added to existing `.vscode` files, nothing else is changed).
    #[arg(long, conflicts_with = "provider")]
    editor: bool,
}

/// The workflow id for a directory name: lower-case letters, digits and dashes.
fn workflow_id(dir: &Path) -> Result<String> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .to_string();
    if id.is_empty() {
        bail!(
            "{} has no usable name for a workflow id; name the directory like `my-workflow`",
            dir.display()
        );
    }
    Ok(id)
}

fn manifest(id: &str, provider: Provider) -> Value {
    let label: String = id
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut manifest = json!({
        "$schema": format!("./{SCHEMA_PATH}"),
        "schemaVersion": 2,
        "id": id,
        "label": label,
        "description": "Describe what this workflow does.",
        "provider": "pass-through",
        "trigger": {"requiresSelection": true},
        "inputs": {"member": {"kind": "attachment"}, "grouping": {"mode": "each"}},
        "validateSelection": {"select": {"policy": "input-member", "source": "selected"}, "filters": []},
        "hooks": {"preflight": "hooks/preflight.mjs", "applyResult": "hooks/applyResult.mjs"}
    });
    match provider {
        Provider::PassThrough => {}
        Provider::Skillrunner => {
            manifest["provider"] = json!("skillrunner");
            manifest["request"] =
                json!({"kind": "skillrunner.job.v1", "create": {"skill_id": id, "mode": "auto"}});
            manifest["result"] = json!({"fetch": {"type": "result"}});
        }
        Provider::GenericHttp => {
            manifest["provider"] = json!("generic-http");
            manifest["request"] = json!({"kind": "generic-http.request.v1", "http": {"method": "POST", "path": format!("/api/{id}")}});
        }
    }
    manifest
}

fn case(provider: Provider) -> Value {
    let mut case = json!({
        "$schema": format!("../{CASE_SCHEMA_PATH}"),
        "description": "One PDF of one paper.",
        "selection": {
            "items": [{
                "kind": "attachment", "ref": {"libraryId": 1, "key": "ATTACH01"}, "itemType": "attachment",
                "title": "paper.pdf", "parentRef": {"libraryId": 1, "key": "PAPER001"},
                "filename": "paper.pdf", "contentType": "application/pdf", "fileState": "available"
            }],
            "sampledAt": "2026-01-01T00:00:00.000Z"
        }
    });
    if !matches!(provider, Provider::PassThrough) {
        case["results"] = json!({"unit-1": {"requestId": "request-1", "resultJson": {"summary": "What the provider answered."}}});
    }
    case
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(super::unwritten(parent.display()))?;
    }
    super::write_file(path, text)
}

fn pretty(value: &Value) -> String {
    format!(
        "{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    )
}

/// The `json.schemas` entry that maps case files to their schema.
fn schema_setting() -> Value {
    json!({"fileMatch": ["cases/*.json"], "url": format!("./{CASE_SCHEMA_PATH}")})
}

/// The `hookrun test` task: its failures (`error[hook] unit: message` then
/// `--> file:line:col`, paths relative to the directory it runs in) become
/// problems the editor opens.
fn test_task() -> Value {
    json!({
        "label": "hookrun test",
        "type": "shell",
        "command": "hookrun test .",
        "group": "test",
        "problemMatcher": {
            "owner": "hookrun",
            "fileLocation": ["autoDetect", "${workspaceFolder}"],
            "pattern": [
                {"regexp": "^\\s*error\\[([^\\]]+)\\] (\\S+): (.*)$", "code": 1, "message": 3},
                {"regexp": "^\\s*--> (.+):(\\d+):(\\d+)$", "file": 1, "line": 2, "column": 3}
            ]
        }
    })
}

/// `path`'s JSON object (empty when missing) with `entry` added to its `list`
/// member unless an entry there already has the same `key`.
fn with_entry(path: &Path, list: &str, key: &str, entry: Value) -> Result<Value> {
    let mut doc = if path.exists() {
        let text = hookrun::input::read_text(path, hookrun::input::MAX_JSON_BYTES)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str::<Value>(&text).map_err(|e| {
            anyhow::anyhow!(
                "{} is not plain JSON ({e}); add the entry by hand: {entry}",
                path.display()
            )
        })?
    } else {
        json!({})
    };
    let Some(obj) = doc.as_object_mut() else {
        bail!("{} is not a JSON object", path.display());
    };
    let entries = obj.entry(list).or_insert_with(|| json!([]));
    let Some(entries) = entries.as_array_mut() else {
        bail!("{} has a {list} that is not a list", path.display());
    };
    if !entries.iter().any(|e| e.get(key) == entry.get(key)) {
        entries.push(entry);
    }
    Ok(doc)
}

/// Writes the types, the schemas, `jsconfig.json` (when missing) and the
/// `.vscode` entries into the workflow directory `dir`.
fn write_editor_support(dir: &Path) -> Result<()> {
    write(&dir.join("types/hookrun.d.ts"), TYPES)?;
    write(&dir.join(SCHEMA_PATH), SCHEMA)?;
    write(&dir.join(CASE_SCHEMA_PATH), CASE_SCHEMA)?;
    if !dir.join("jsconfig.json").exists() {
        write(&dir.join("jsconfig.json"), JSCONFIG)?;
    }
    let settings = dir.join(VSCODE_SETTINGS);
    let settings_doc = with_entry(&settings, "json.schemas", "url", schema_setting())?;
    let tasks = dir.join(VSCODE_TASKS);
    let mut tasks_doc = with_entry(&tasks, "tasks", "label", test_task())?;
    tasks_doc
        .as_object_mut()
        .map(|t| t.entry("version").or_insert_with(|| json!("2.0.0")));
    write(&settings, &pretty(&settings_doc))?;
    write(&tasks, &pretty(&tasks_doc))
}

/// `hookrun new --editor DIR`: the editor support of an existing workflow.
fn add_editor_support(dir: &Path) -> Result<u8> {
    if !dir.join("workflow.json").is_file() {
        bail!(
            "{} has no workflow.json; --editor adds editor support to an existing workflow (drop it to create one)",
            dir.display()
        );
    }
    write_editor_support(dir)?;
    println!(
        "added editor support to {}: {CASE_SCHEMA_PATH}, {SCHEMA_PATH}, types/hookrun.d.ts, {VSCODE_SETTINGS}, {VSCODE_TASKS}",
        dir.display()
    );
    Ok(0)
}

pub fn run_new(args: NewArgs) -> Result<u8> {
    let dir = &args.dir;
    if args.editor {
        return add_editor_support(dir);
    }
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        bail!(
            "{} already exists and is not empty; choose a new directory",
            dir.display()
        );
    }
    let id = workflow_id(dir)?;
    write(
        &dir.join("workflow.json"),
        &pretty(&manifest(&id, args.provider)),
    )?;
    write(&dir.join("hooks/preflight.mjs"), PREFLIGHT)?;
    write(&dir.join("hooks/applyResult.mjs"), APPLY_RESULT)?;
    write_editor_support(dir)?;
    let case_path = dir.join("cases/example.json");
    write(&case_path, &pretty(&case(args.provider)))?;
    record_expectations(dir, &case_path)?;
    println!("created workflow {id} in {}", dir.display());
    println!(
        "  hookrun check {}    validate the manifest and load the hooks",
        dir.display()
    );
    println!(
        "  hookrun test {}     run cases/*.json against their expectations",
        dir.display()
    );
    println!(
        "  hookrun test {} --bless   record new expectations after a change",
        dir.display()
    );
    Ok(0)
}

/// Runs the scaffold's case once and stores the result as its expectations.
fn record_expectations(dir: &Path, case_path: &Path) -> Result<()> {
    let found = discover(dir);
    let Some(workflow) = found.workflows.first() else {
        bail!("the scaffold does not load: {:?}", found.diagnostics);
    };
    match run_case(
        workflow,
        case_path,
        SandboxOptions::default().determinism(Some(Determinism::default())),
        true,
        false,
    ) {
        (Verdict::Blessed, Some(report)) if report.ok() => Ok(()),
        (Verdict::Invalid(message), _) => bail!("the scaffold's example case: {message}"),
        (_, report) => bail!(
            "the scaffold's example case fails: {:?}",
            report.map(|r| r.errors).unwrap_or_default()
        ),
    }
}
