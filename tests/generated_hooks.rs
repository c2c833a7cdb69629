//! Hostile hooks generated from building blocks: each source chains a few ways of
//! tampering with the realm (replaced or lying builtins, accessors on prototypes, a
//! frozen global, forged engine properties) with a few operations that reach the engine
//! layer and deno_core (imports with attributes, error stacks, dynamic imports of
//! throwing modules, console capture, results, thrown values). Whatever a combination
//! does, the call ends in a typed outcome and the host goes on.

mod common;

use std::path::Path;

use hookrun::sandbox::{CallResult, Limits, Sandbox, SandboxOptions};
use serde_json::{Value, json};

/// Ways to tamper with the realm, each a statement.
const TAMPER: &[&str] = &[
    "Array.prototype.push = function () {};",
    "Array.prototype.map = function () { return { length: 2, get 0() { throw new Error('index'); } }; };",
    "Array.prototype.join = () => { throw new Error('join'); };",
    "Object.keys = () => ({ length: 7 });",
    "Object.prototype.__v82_wasm_stack_frames = { length: 2 ** 31 - 1 };",
    "Object.defineProperty(Object.prototype, 'message', { __proto__: null, get() { throw 1; }, configurable: true });",
    "Object.defineProperty(Array.prototype, 0, { __proto__: null, get() { throw 2; }, set() {}, configurable: true });",
    "Object.defineProperty(Array, Symbol.species, { __proto__: null, get() { return function () { return {}; }; }, configurable: true });",
    "Promise.prototype.then = function () { throw new Error('then'); };",
    "Promise.resolve = () => { throw new Error('resolve'); };",
    "Error.captureStackTrace = () => { throw new Error('capture'); }; globalThis.Error = 0;",
    "Symbol.for = () => Symbol('forged');",
    "JSON.stringify = () => '{';",
    "Reflect.ownKeys = () => { throw new Error('ownKeys'); };",
    "Function.prototype.call = function () { return 42; };",
    "Object.freeze(globalThis);",
];

/// Operations that reach engine code, each an expression awaited in a try block.
const ACT: &[&str] = &[
    "import('./data.mjs', { with: { type: 'json' } })",
    "new Error('x').stack",
    "import('./number-message.mjs')",
    "import('./throwing-message.mjs')",
    "import('./symbol-message.mjs')",
    "import('./trapped.mjs')",
    "console.log({ a: [1, { b: 2 }] }, [3])",
    "(() => { throw Symbol('s'); })()",
    "(() => { throw new Proxy({}, { get() { throw 3; } }); })()",
    "[1, [2, [3]]].flat(Infinity)",
];

/// A small deterministic generator, so a failure names a reproducible case.
struct Lcg(u64);

impl Lcg {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn source(rng: &mut Lcg) -> String {
    let mut body = String::from("export async function hook() {\n  const seen = [];\n");
    for _ in 0..1 + rng.pick(3) {
        body += &format!(
            "  try {{ {} }} catch {{}}\n",
            TAMPER[rng.pick(TAMPER.len())]
        );
    }
    for _ in 0..1 + rng.pick(4) {
        body += &format!(
            "  try {{ await {}; seen[seen.length] = 'ok'; }} catch {{ seen[seen.length] = 'threw'; }}\n",
            ACT[rng.pick(ACT.len())]
        );
    }
    body += "  return { seen, nested: [1, { x: 'y' }] };\n}\n";
    body
}

#[test]
fn generated_hostile_hooks_end_in_typed_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let helpers = common::fixture("sandbox/corpus/internals");
    for entry in std::fs::read_dir(&helpers).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    let options = SandboxOptions {
        limits: Limits {
            timeout_ms: 500,
            max_heap_bytes: 64 * 1024 * 1024,
            ..Limits::default()
        },
        ..SandboxOptions::default()
    };
    let mut rng = Lcg(0x5eed);
    for case in 0..120 {
        let text = source(&mut rng);
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
