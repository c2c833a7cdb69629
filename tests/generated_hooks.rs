//! Hostile hooks generated from building blocks: each source chains a few ways of
//! tampering with the realm (replaced or lying builtins, accessors on prototypes, a
//! frozen global, forged engine properties) with a few operations that reach the engine
//! layer and deno_core (imports with attributes, error stacks, dynamic imports of
//! throwing modules, console capture, results, thrown values). Whatever a combination
//! does, the call ends in a typed outcome and the host goes on.

use crate::common;

use std::path::Path;

use hookrun::sandbox::{CallResult, Limits, Sandbox};
use hookrun_hostile::Blocks;
use serde_json::{Value, json};

/// A small deterministic generator, so a failure names a reproducible case.
struct Lcg(u64);

impl Lcg {
    fn byte(&mut self) -> u8 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u8
    }
}

#[test]
fn generated_hostile_hooks_end_in_typed_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let helpers = common::fixture("sandbox/corpus/internals");
    for entry in std::fs::read_dir(&helpers).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let options = common::sandbox_options().limits(
        Limits::default()
            .timeout_ms(500)
            .max_heap_bytes(64 * 1024 * 1024),
    );
    let blocks = Blocks::load(&common::fixture("sandbox/corpus/blocks.json"));
    let mut rng = Lcg(0x5eed);
    for case in 0..120 {
        let choices: Vec<u8> = (0..8).map(|_| rng.byte()).collect();
        let text = blocks.source(&choices);
        let name = format!("generated-{case:03}.mjs");
        std::fs::write(dir.path().join(&name), &text).unwrap();
        let mut sb = Sandbox::new(dir.path(), options).unwrap();
        let outcome = sb.call(Path::new(&name), "hook", &Value::Null);
        assert!(
            !matches!(outcome.result, CallResult::LoadError(_)),
            "case {case}: {:?}\n{text}",
            outcome.result
        );
    }
    // The host is still whole: a clean hook in a new sandbox answers as always.
    std::fs::write(
        dir.path().join("clean.mjs"),
        "export function hook() { return [1, 2]; }\n",
    )
    .unwrap();
    let mut sb = Sandbox::new(dir.path(), options).unwrap();
    let outcome = sb.call(Path::new("clean.mjs"), "hook", &Value::Null);
    assert_eq!(outcome.result, CallResult::Ok(json!([1, 2])));
}
