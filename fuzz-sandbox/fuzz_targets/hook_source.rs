//! Hook sources generated from building blocks (`fixtures/sandbox/corpus/blocks.json`):
//! the input picks how the hook tampers with its realm and which engine-reaching
//! operations it then runs. Every call must end in an outcome; an abort of the process
//! is the finding.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hookrun_hostile::Blocks;
use hookrun_sandbox::{Limits, Sandbox, SandboxOptions};
use libfuzzer_sys::fuzz_target;

struct Setup {
    dir: tempfile::TempDir,
    blocks: Blocks,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        hookrun_sandbox::disable_engine_disk_cache();
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sandbox/corpus");
        let dir = tempfile::tempdir().expect("temporary directory");
        for entry in std::fs::read_dir(corpus.join("internals")).expect("helper modules") {
            let path: PathBuf = entry.expect("entry").path();
            std::fs::copy(&path, dir.path().join(path.file_name().expect("name"))).expect("copy");
        }
        Setup {
            dir,
            blocks: Blocks::load(&corpus.join("blocks.json")),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let setup = setup();
    let module = setup.dir.path().join("hook.mjs");
    std::fs::write(&module, setup.blocks.source(data)).expect("hook source");
    // The bare startup: the first sandbox makes its snapshot in this instrumented
    // process (docs/engine-patches.md, snapshot writing).
    let limits = Limits::default()
        .timeout_ms(200)
        .max_heap_bytes(64 * 1024 * 1024);
    let options = SandboxOptions::default().limits(limits);
    let mut sandbox = Sandbox::new(setup.dir.path(), options).expect("sandbox root");
    let _ = sandbox.call(Path::new("hook.mjs"), "hook", &serde_json::Value::Null);
});
