//! Selection contexts and the planner: the first byte picks a fixture manifest and a
//! mode, the rest is read as a SelectionContext in either shape and planned against a
//! world that knows no extra items. The rest is also read from a seekable reader in
//! blocks of a size the first byte picks, on one thread or two, which must give the
//! one-pass reader's result or error over the same blocks, whatever the bytes.
#![no_main]

use std::io::{Cursor, Read, Seek, SeekFrom};

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

/// A seekable reader handing out at most `size` bytes a read.
struct Blocks<'a> {
    text: Cursor<&'a [u8]>,
    size: usize,
}

impl Read for Blocks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.size);
        self.text.read(&mut buf[..n])
    }
}

impl Seek for Blocks<'_> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        self.text.seek(to)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    // The same blocks for both: which of two faults a reader meets first (a
    // syntax error, bytes that are not UTF-8 further on) depends on its blocks.
    let blocks = || Blocks {
        text: Cursor::new(rest),
        size: 1 + usize::from(choice) * 37,
    };
    let one_pass = SelectionContext::from_reader(blocks()).map_err(|e| e.to_string());
    let blocks = blocks();
    let sliced = match choice % 2 {
        0 => SelectionContext::from_seekable(blocks),
        _ => SelectionContext::from_seekable_threaded(blocks),
    };
    assert_eq!(sliced.map_err(|e| e.to_string()), one_pass);
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
