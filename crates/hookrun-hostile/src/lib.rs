//! Hostile hook sources assembled from the building blocks in
//! `fixtures/sandbox/corpus/blocks.json`: a few ways of tampering with the realm, then a
//! few operations that reach the engine layer and deno_core. Shared by hookrun's
//! `tests/generated_hooks.rs` and the sandbox's `hook_source` fuzz target.

use std::path::Path;

/// The building blocks.
pub struct Blocks {
    tamper: Vec<String>,
    act: Vec<String>,
}

impl Blocks {
    /// Reads `blocks.json`.
    pub fn load(path: &Path) -> Blocks {
        let text = std::fs::read_to_string(path).expect("blocks.json");
        let value: serde_json::Value = serde_json::from_str(&text).expect("blocks.json is JSON");
        let list = |key: &str| -> Vec<String> {
            value[key]
                .as_array()
                .expect("a list of blocks")
                .iter()
                .filter_map(|b| b.as_str().map(str::to_string))
                .collect()
        };
        Blocks {
            tamper: list("tamper"),
            act: list("act"),
        }
    }

    /// The module source `choices` pick: its bytes say how many blocks of each kind and
    /// which (read cyclically; no bytes means one of each, the first).
    pub fn source(&self, choices: &[u8]) -> String {
        let mut at = 0;
        let mut next = || {
            let byte = if choices.is_empty() {
                0
            } else {
                choices[at % choices.len()]
            };
            at += 1;
            byte as usize
        };
        let mut body = String::from("export async function hook() {\n  const seen = [];\n");
        for _ in 0..1 + next() % 3 {
            let block = &self.tamper[next() % self.tamper.len()];
            body += &format!("  try {{ {block} }} catch {{}}\n");
        }
        for _ in 0..1 + next() % 4 {
            let block = &self.act[next() % self.act.len()];
            body += &format!(
                "  try {{ await {block}; seen[seen.length] = 'ok'; }} catch {{ seen[seen.length] = 'threw'; }}\n"
            );
        }
        body += "  return { seen, nested: [1, { x: 'y' }] };\n}\n";
        body
    }
}
