//! `hookrun migrate`: bring pre-v2 manifests to schema v2.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use similar::TextDiff;

use hookrun::manifest::migrate::{FileMigration, Status, migrate_path};

#[derive(Args)]
pub struct MigrateArgs {
    /// A workflow.json, a workflow-package.json, a workflow or package directory, or a tree of them.
    path: PathBuf,
    /// Rewrite the manifests in place (without it, print a unified diff per manifest).
    #[arg(long)]
    write: bool,
    /// Print one JSON object {"files": [...]} instead of human output.
    #[arg(long)]
    json: bool,
}

/// Exit 0 when every manifest is v2 with nothing left for a person, 1 otherwise.
pub fn run_migrate(args: MigrateArgs) -> Result<u8> {
    let files = migrate_path(&args.path)?;
    if files.is_empty() {
        bail!(
            "no workflow.json or workflow-package.json under {}",
            args.path.display()
        );
    }
    if args.write {
        // Every file is checked before any is written: a migration writes all of
        // its files or none.
        let root = if args.path.is_dir() {
            args.path.clone()
        } else {
            args.path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), PathBuf::from)
        };
        let targets = files
            .iter()
            .filter(|f| f.is_changed())
            .map(|f| Ok((super::inside(&root, &f.path)?, f)))
            .collect::<Result<Vec<_>>>()?;
        for (target, file) in targets {
            super::write_file(&target, &file.migrated)?;
        }
    }
    if args.json {
        let files: Vec<_> = files.iter().map(FileMigration::to_json).collect();
        println!("{}", serde_json::json!({ "files": files }));
    } else {
        for file in &files {
            if !args.write && file.is_changed() {
                print!("{}", unified_diff(file));
            }
        }
        let report: String = files.iter().map(|f| describe(f, args.write)).collect();
        if args.write {
            print!("{report}");
        } else {
            eprint!("{report}");
        }
    }
    let attention = files.iter().any(|f| f.status == Status::NeedsAttention);
    Ok(u8::from(attention))
}

fn unified_diff(file: &FileMigration) -> String {
    let shown = file.path.display().to_string();
    TextDiff::from_lines(&file.original, &file.migrated)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{shown}"), &format!("b/{shown}"))
        .to_string()
}

/// One block per file: the outcome, then each lossy change and each point for a person.
fn describe(file: &FileMigration, written: bool) -> String {
    let what = match file.generation {
        Some(generation) => format!("generation {}", generation.as_str()),
        None => "package".to_string(),
    };
    let outcome = match (file.status, file.is_changed(), written) {
        (Status::AlreadyV2, _, _) => "already v2".to_string(),
        (_, true, true) => format!("{}, rewritten", file.status.as_str()),
        (_, true, false) => format!("{}, not written (pass --write)", file.status.as_str()),
        (status, false, _) => status.as_str().to_string(),
    };
    let mut out = format!(
        "{}: {what}: {outcome} ({} change(s))\n",
        file.path.display(),
        file.changes.len()
    );
    for change in file.changes.iter().filter(|c| c.lossy) {
        out.push_str(&format!(
            "  note: {} [{}]: {}\n",
            change.pointer, change.rule, change.message
        ));
    }
    for point in &file.manual {
        let place = match (&point.file, point.line, &point.pointer) {
            (Some(file), Some(line), _) => format!("{file}:{line}"),
            (_, _, Some(pointer)) => pointer.clone(),
            (Some(file), None, None) => file.clone(),
            _ => String::new(),
        };
        out.push_str(&format!("  needs attention: {place}: {}\n", point.message));
    }
    out
}
