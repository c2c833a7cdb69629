//! Where commands find workflows: a path, several roots (`--workflows`, lowest
//! precedence first) or a lock; and `hookrun list` / `hookrun lock`.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;
use serde_json::{Value, json};

use hookrun::manifest::{LOCK_FILE, Library, Lock};

/// `--workflows` and `--lock`, for the commands that take workflows.
#[derive(Args)]
pub struct LibraryArgs {
    /// A workflows root; repeat for several, lowest precedence first (a later root's
    /// workflow replaces an earlier one with the same id).
    #[arg(long = "workflows", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// Use exactly the workflows pinned in this lock file (see hookrun lock).
    #[arg(long, value_name = "FILE")]
    pub lock: Option<PathBuf>,
}

impl LibraryArgs {
    /// How the workflows were named, as command-line words (`<path>`, `--workflows <a>
    /// --workflows <b>` or `--lock <file>`).
    pub fn shown(&self, path: Option<&Path>) -> String {
        if let Some(lock) = &self.lock {
            return format!("--lock {}", lock.display());
        }
        match path {
            Some(path) => path.display().to_string(),
            None => self
                .roots
                .iter()
                .map(|r| format!("--workflows {}", r.display()))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// The library named by `path` (a workflow or workflows path), the roots or the lock.
    pub fn open(&self, path: Option<&Path>) -> Result<Library> {
        if let Some(lock) = &self.lock {
            if path.is_some() || !self.roots.is_empty() {
                bail!("--lock names the workflows: give no workflow path or --workflows with it");
            }
            return Ok(Lock::read(lock)?.open(lock)?);
        }
        let roots: Vec<PathBuf> = match (path, self.roots.is_empty()) {
            (Some(path), true) => vec![path.to_path_buf()],
            (None, false) => self.roots.clone(),
            (Some(_), false) => bail!("give a workflow path or --workflows <dir>, not both"),
            (None, true) => {
                bail!("name the workflows: a path, --workflows <dir> (repeatable) or --lock <file>")
            }
        };
        open_roots(&roots)
    }
}

/// The library of `roots`, each of which must exist.
pub fn open_roots(roots: &[PathBuf]) -> Result<Library> {
    if let Some(missing) = roots.iter().find(|r| !r.exists()) {
        bail!("{} does not exist", missing.display());
    }
    Ok(Library::open(roots))
}

#[derive(Args)]
pub struct ListArgs {
    /// Workflows roots, lowest precedence first.
    #[arg(required = true)]
    roots: Vec<PathBuf>,
    /// Print {"workflows": [...]} instead of a table.
    #[arg(long)]
    json: bool,
}

/// One row per workflow found, overridden ones included.
pub fn run_list(args: ListArgs) -> Result<u8> {
    let library = open_roots(&args.roots)?;
    let entries = library.entries();
    let rows: Vec<Value> = entries
        .iter()
        .map(|e| {
            let w = &e.workflow;
            json!({
                "id": w.id,
                "version": e.version(),
                "label": w.label,
                "provider": w.provider.as_str(),
                "root": library.roots()[e.root].display().to_string(),
                "package": w.in_package.then(|| w.package_id.clone()),
                "path": w.manifest_path.display().to_string(),
                "overriddenBy": e.overridden_by.map(|i| entries[i].workflow.manifest_path.display().to_string()),
            })
        })
        .collect();
    if args.json {
        println!("{}", json!({ "workflows": rows }));
    } else {
        print_table(&rows);
    }
    print_diagnostics(&library);
    Ok(0)
}

/// The library's diagnostics (overrides, skipped workflows) on standard error.
fn print_diagnostics(library: &Library) {
    for d in library.diagnostics() {
        eprintln!("{}: {}", d.category.as_str(), d.message);
    }
}

fn print_table(rows: &[Value]) {
    const COLUMNS: [&str; 8] = [
        "id",
        "version",
        "label",
        "provider",
        "root",
        "package",
        "path",
        "overriddenBy",
    ];
    let cell = |row: &Value, key: &str| match &row[key] {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_string(),
        other => other.to_string(),
    };
    let widths: Vec<usize> = COLUMNS
        .iter()
        .map(|c| {
            rows.iter()
                .map(|r| cell(r, c).chars().count())
                .chain([c.len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        println!("{}", padded.join("  ").trim_end());
    };
    line(COLUMNS.iter().map(|c| c.to_string()).collect());
    for row in rows {
        line(COLUMNS.iter().map(|c| cell(row, c)).collect());
    }
}

#[derive(Args)]
pub struct LockArgs {
    /// Workflows roots, lowest precedence first.
    #[arg(required = true)]
    roots: Vec<PathBuf>,
    /// Where to write the lock (default hookrun.lock.json).
    #[arg(long, value_name = "FILE", default_value = LOCK_FILE)]
    out: PathBuf,
}

/// Writes the lock of the roots' winners.
pub fn run_lock(args: LockArgs) -> Result<u8> {
    let library = open_roots(&args.roots)?;
    print_diagnostics(&library);
    let base = match args.out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let lock = Lock::of(&library, &base)?;
    super::write_file(&args.out, lock.to_text())?;
    println!(
        "locked {} workflow(s) in {}",
        lock.workflows.len(),
        args.out.display()
    );
    Ok(0)
}
