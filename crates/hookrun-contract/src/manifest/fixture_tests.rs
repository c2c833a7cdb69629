//! The shared fixture manifests under `fixtures/manifests` (relative to the crate root).

use std::path::PathBuf;

use serde_json::Value;

use crate::manifest::{read_json, validate_document};

/// The repository's manifest fixtures of `kind` (`valid`, `invalid`).
pub fn fixture_dir(kind: &str) -> PathBuf {
    crate::manifest::test_support::repo()
        .join("fixtures/manifests")
        .join(kind)
}

/// Every `*.json` fixture of `kind` with its parsed content, sorted by path.
pub fn fixtures(kind: &str) -> Vec<(PathBuf, Value)> {
    let dir = fixture_dir(kind);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no fixtures in {}", dir.display());
    paths
        .into_iter()
        .map(|p| {
            let value = read_json(&p).unwrap_or_else(|d| panic!("{}", d.message));
            (p, value)
        })
        .collect()
}

#[test]
fn valid_fixtures_pass_every_layer() {
    for (path, manifest) in fixtures("valid") {
        assert_eq!(validate_document(&manifest), vec![], "{}", path.display());
    }
}

#[test]
fn invalid_fixtures_report_exactly_their_expected_messages() {
    for (path, manifest) in fixtures("invalid") {
        let expected = manifest.get("x-expect").cloned().unwrap_or_default();
        let found: Vec<String> = validate_document(&manifest)
            .into_iter()
            .map(|d| d.message)
            .collect();
        assert_eq!(
            serde_json::to_value(found).unwrap_or_default(),
            expected,
            "{}",
            path.display()
        );
    }
}

/// The editor schema agrees with the Rust validator on every fixture. Fixtures named
/// `semantic-*` fail only the semantic layer, which JSON Schema cannot express.
#[test]
fn editor_schema_accepts_valid_and_rejects_schema_invalid_fixtures() {
    let validator = crate::manifest::test_support::editor_schema();
    for (path, manifest) in fixtures("valid") {
        let errors: Vec<String> = validator
            .iter_errors(&manifest)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
    for (path, manifest) in fixtures("invalid") {
        let semantic_only = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("semantic-"));
        assert_eq!(
            validator.is_valid(&manifest),
            semantic_only,
            "{}",
            path.display()
        );
    }
}

/// Replaces every value of every valid fixture, one at a time, with values of the wrong
/// type or range; validation must report or accept, never panic, and whatever the schema
/// accepts must deserialise into the typed model.
#[test]
fn mutated_fixtures_never_panic() {
    let odd = [
        Value::Null,
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!(""),
        serde_json::json!(-1),
        serde_json::json!(1.5),
        serde_json::json!(1e300),
        serde_json::json!(u64::MAX),
        serde_json::json!([[{"a": [null]}]]),
    ];
    for (_, manifest) in fixtures("valid") {
        let mut pointers = vec![String::new()];
        let mut pending = vec![(String::new(), manifest.clone())];
        while let Some((pointer, value)) = pending.pop() {
            let children: Vec<(String, Value)> = match value {
                Value::Object(map) => map.into_iter().collect(),
                Value::Array(items) => items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v))
                    .collect(),
                _ => Vec::new(),
            };
            for (key, child) in children {
                let child_pointer = crate::pointer::child(&pointer, &key);
                pointers.push(child_pointer.clone());
                pending.push((child_pointer, child));
            }
        }
        for pointer in &pointers {
            for value in &odd {
                let mut mutated = manifest.clone();
                if let Some(slot) = mutated.pointer_mut(pointer) {
                    *slot = value.clone();
                }
                for d in validate_document(&mutated) {
                    assert!(
                        !d.message.contains("typed"),
                        "schema and model disagree: {d:?}"
                    );
                }
            }
        }
    }
}
