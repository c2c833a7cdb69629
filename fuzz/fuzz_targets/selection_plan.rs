//! Selection contexts and the planner: the first byte picks a fixture manifest and a
//! mode, the rest is read as a SelectionContext in either shape and planned against a
//! world that knows no extra items.
#![no_main]

use hookrun_contract::manifest::model::PlanningSpec;
use hookrun_contract::plan::{ItemLocator, Mode, World, WorldAttachment, WorldError, WorldNote, plan};
use hookrun_contract::selection::SelectionContext;
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;

const MANIFESTS: &[&str] = &[
    include_str!("../../fixtures/workflows/export-summary/workflow.json"),
    include_str!("../../fixtures/workflows/mineru-package/pdf-split/workflow.json"),
];

struct EmptyWorld;

impl World for EmptyWorld {
    fn item_attachments(&self, _: &ItemLocator) -> Result<Vec<WorldAttachment>, WorldError> {
        Ok(Vec::new())
    }
    fn item_notes(&self, _: &ItemLocator) -> Result<Vec<WorldNote>, WorldError> {
        Ok(Vec::new())
    }
    fn note_detail(&self, _: &ItemLocator) -> Result<WorldNote, WorldError> {
        Err(WorldError("no notes".into()))
    }
    fn attachment_detail(&self, _: &ItemLocator) -> Result<WorldAttachment, WorldError> {
        Err(WorldError("no attachments".into()))
    }
    fn file_exists(&self, _: &str) -> bool {
        false
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(selection) = SelectionContext::from_json_str(text) else {
        return;
    };
    let _ = selection.counts();
    let _ = selection.to_value();
    let manifest: serde_json::Value =
        serde_json::from_str(MANIFESTS[usize::from(choice) % MANIFESTS.len()])
            .expect("fixture manifests are JSON");
    let spec = PlanningSpec::deserialize(&manifest).expect("fixture manifests are valid");
    let mode = [Mode::Menu, Mode::Execute, Mode::Handoff][usize::from(choice / 2) % 3];
    let _ = plan(
        &spec,
        &selection,
        mode,
        &serde_json::Map::new(),
        &EmptyWorld,
    );
});
