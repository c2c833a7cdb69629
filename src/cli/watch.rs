//! `hookrun test --watch`: run, then run again whenever a file the run read
//! changes, until Ctrl-C.
//!
//! Changes are seen through the platform's file events (`notify` and its
//! debouncer), gathered for a moment so that an editor's save (often a write, a
//! rename and a chmod) starts one run, not three; files merely read (by the run
//! itself too) change nothing. Each run discovers the workflows again and runs
//! every case in fresh runtimes, so changed manifests, hooks, the modules they
//! import, cases and their fixture files all take effect.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anstream::{eprintln, println};
use anyhow::{Context, Result};
use notify_debouncer_full::notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, new_debouncer};

use super::frame::shown_path;
use super::style::{FAILED, paint};

/// How long changes are gathered before a run starts.
const SETTLE: Duration = Duration::from_millis(200);

/// What one run read: directories (watched with everything below them) and
/// single files.
#[derive(Default)]
pub struct Watched {
    /// Workflow and module roots, fixture directories.
    pub dirs: Vec<PathBuf>,
    /// Case inputs outside those directories.
    pub files: Vec<PathBuf>,
}

impl Watched {
    /// Whether a change of `path` may change the next run.
    fn covers(&self, path: &Path) -> bool {
        self.dirs.iter().any(|dir| path.starts_with(dir)) || self.files.iter().any(|f| f == path)
    }

    /// The watch list: every directory, and the directory of each file (a file
    /// an editor replaces is a new file, which a watch of the old one misses).
    fn roots(&self) -> Vec<(PathBuf, RecursiveMode)> {
        let mut roots: Vec<(PathBuf, RecursiveMode)> = self
            .dirs
            .iter()
            .map(|d| (d.clone(), RecursiveMode::Recursive))
            .collect();
        for file in &self.files {
            if let Some(dir) = file.parent()
                && !self.dirs.iter().any(|d| dir.starts_with(d))
            {
                roots.push((dir.to_path_buf(), RecursiveMode::NonRecursive));
            }
        }
        roots.sort();
        roots.dedup();
        roots
    }

    /// `path` made absolute and resolved where it exists, as file events name it.
    pub fn resolved(path: &Path) -> PathBuf {
        path.canonicalize()
            .unwrap_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Runs `run` until Ctrl-C, again after each change of what it read; a run that
/// cannot start (no workflow, a manifest that does not load) is reported and
/// `fallback` is watched instead. What the watcher says goes to standard
/// output, or to standard error when that carries JSON. Ends with status 0.
pub fn watch(fallback: &Path, json: bool, mut run: impl FnMut() -> Result<Watched>) -> Result<u8> {
    let say = |text: &str| {
        if json {
            eprintln!("{text}");
        } else {
            println!("{text}");
        }
    };
    catch_interrupt();
    let (events, changes) = mpsc::channel();
    let mut debouncer = new_debouncer(SETTLE, None, events).context("cannot watch for changes")?;
    let mut watching: Vec<PathBuf> = Vec::new();
    loop {
        let watched = run().unwrap_or_else(|e| {
            eprintln!("{}: {e:#}", paint(FAILED, "hookrun"));
            Watched {
                dirs: vec![Watched::resolved(fallback)],
                files: Vec::new(),
            }
        });
        for path in watching.drain(..) {
            let _ = debouncer.unwatch(&path);
        }
        for (path, mode) in watched.roots() {
            if debouncer.watch(&path, mode).is_ok() {
                watching.push(path);
            }
        }
        say("watching for changes; Ctrl-C to stop");
        let Some(changed) = next_change(&changes, &watched)? else {
            say("stopped watching");
            return Ok(0);
        };
        say(&format!(
            "\n{} changed; running again",
            shown_path(&changed)
        ));
    }
}

/// Sets Ctrl-C to stop the watch instead of the process.
fn catch_interrupt() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// Waits for a change of a path `watched` covers, reporting the watcher's
/// errors; the changed path, or `None` once Ctrl-C was pressed.
fn next_change(
    changes: &mpsc::Receiver<DebounceEventResult>,
    watched: &Watched,
) -> Result<Option<PathBuf>> {
    loop {
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Ok(None);
        }
        match changes.recv_timeout(Duration::from_millis(100)) {
            Ok(Ok(events)) => {
                let changed = events
                    .iter()
                    .filter(|e| !matches!(e.kind, EventKind::Access(_)))
                    .flat_map(|e| e.paths.iter())
                    .find(|path| watched.covers(path));
                if let Some(path) = changed {
                    return Ok(Some(path.clone()));
                }
            }
            Ok(Err(errors)) => {
                for e in errors {
                    eprintln!("{}: watching: {e}", paint(FAILED, "hookrun"));
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("the file watcher stopped")
            }
        }
    }
}
