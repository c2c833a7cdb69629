//! A runner host embedding hookrun: load a workflow, plan a selection, run it
//! with limits while answering requests itself, then apply the recorded effects.
//!
//! `cargo run --example embed` runs the PDF-splitting example workflow.

use std::path::Path;

use hookrun::host::world::HostWorld;
use hookrun::manifest::discover;
use hookrun::run::{
    BundleSource, JobRequest, ProviderResult, ResultSource, RunInput, RunOptions, Settings, run,
};
use hookrun::sandbox::{Isolation, Limits, SandboxOptions};
use hookrun::selection::SelectionContext;
use serde_json::{Map, json};

/// Stands in for the host's HTTP backend: every part of the PDF gets the
/// Markdown bundle the fixtures ship.
struct Backend<'a> {
    bundles: &'a Path,
}

impl ResultSource for Backend<'_> {
    fn result(&mut self, job: &JobRequest) -> ProviderResult {
        println!("dispatching {} ({})", job.key(), job.request["taskName"]);
        let part = job.subunit_id.as_str();
        ProviderResult::Succeeded {
            request_id: Some(format!("backend-{}", job.index)),
            result_json: None,
            bundle: Some(BundleSource::Dir(self.bundles.join(part))),
            extra: Map::new(),
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // First thing, before the host starts threads: no hook bytecode on disk.
    hookrun::sandbox::disable_engine_disk_cache();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let found = discover(&fixtures.join("workflows/mineru-package"));
    let workflow = found
        .workflows
        .first()
        .ok_or("the example package did not load")?;

    let selection = SelectionContext::from_value(&json!({
        "items": [{
            "kind": "attachment", "ref": {"libraryId": 1, "key": "ATTBIG01"}, "itemType": "attachment",
            "title": "long-book.pdf", "parentRef": {"libraryId": 1, "key": "PARENT03"},
            "filename": "long-book.pdf", "contentType": "application/pdf", "fileState": "available"
        }],
        "sampledAt": "2026-03-01T09:00:00.000Z"
    }))?;
    let library = serde_json::from_str(&std::fs::read_to_string(
        fixtures.join("workflows/mineru-package/pdf-split/cases/library.json"),
    )?)?;
    let world = HostWorld::from_selection(&selection)
        .with_library(&library)?
        .with_files_dir(fixtures.join("files"));

    let input = RunInput {
        selection,
        settings: Settings::default(),
        world,
        answers: Default::default(),
    };
    // `Isolation::process()` runs hooks in worker processes instead (the
    // `hookrun` binary; see `set_worker_binary`): an engine crash then costs
    // one call, never this process. The run gives its sandboxes the hooks'
    // startup (the host facade).
    let sandbox = SandboxOptions::default()
        .limits(Limits::default().timeout_ms(2_000))
        .isolation(Isolation::InProcess);
    let options = RunOptions::default().sandbox(sandbox);
    let mut backend = Backend {
        bundles: &fixtures.join("workflows/mineru-package/pdf-split/cases/bundles"),
    };
    let report = run(workflow, input, &mut backend, &options);
    for error in &report.errors {
        eprintln!("{}: {}", error.stage, error.message);
    }
    for effect in &report.effects {
        println!(
            "host would now apply #{} {} {}",
            effect.seq, effect.call, effect.args
        );
    }
    println!(
        "{} unit(s), {} effect(s)",
        report.summary.units, report.summary.effects
    );
    if report.ok() {
        Ok(())
    } else {
        Err("the run failed".into())
    }
}
