//! `archive.measureEntries` and `archive.writeZipAtomic` after the reference
//! host's archive facade suite (`tests/workflows/91-workflow-host-api-archive.test.ts`):
//! integrity metadata of file, text and byte entries, the entry names and
//! content variants it refuses, its fixed bounds, and a failed write leaving the
//! target as it was. The extracted side of the suite runs through hooks in
//! `tests/ported_archive.rs`.

use serde_json::{Value, json};

use super::super::HookHost;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::world::HostWorld;

/// A files directory with `in/source.bin` (`[1, 2, 3, 4]`) and
/// `out/existing.zip` (`original`).
fn host(dir: &tempfile::TempDir) -> HookHost {
    std::fs::create_dir_all(dir.path().join("in")).unwrap();
    std::fs::create_dir_all(dir.path().join("out")).unwrap();
    std::fs::write(dir.path().join("in/source.bin"), [1, 2, 3, 4]).unwrap();
    std::fs::write(dir.path().join("out/existing.zip"), "original").unwrap();
    let world = HostWorld::default().with_files_dir(dir.path());
    let mut host = HookHost::new(world, HostAnswers::default());
    host.set_site("unit-1", "applyResult");
    host
}

fn text(name: &str, text: &str) -> Value {
    json!({"name": name, "content": {"kind": "text", "text": text}})
}

fn measure(host: &mut HookHost, entries: Value) -> Result<Value, HostError> {
    host.call(
        "archive.measureEntries",
        json!([{"entries": entries}]),
        None,
    )
}

/// The code, message and details of a refusal.
fn refusal(reply: Result<Value, HostError>) -> (String, String, Value) {
    let error = reply.unwrap_err();
    let message = error.message.clone();
    let (code, details) = reply_code(&Err(error));
    (code, message, details)
}

#[test]
fn file_text_and_byte_entries_are_written_with_their_integrity() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let entries = json!([
        text("manifest.json", "{\"kind\":\"test\"}"),
        {"name": "files/source.bin", "content": {"kind": "file", "sourcePath": "in/source.bin"}},
        {"name": "files/bytes.bin", "content": {"kind": "bytes", "bytes": {"$bytes": "BQYH"}}},
    ]);
    let request = json!([{"targetPath": "out/bundle.zip", "entries": entries}]);
    let written = host.call("archive.writeZipAtomic", request, None).unwrap();
    let files = json!({
        "manifest.json": {"sizeBytes": 15,
            "sha256": "12aaed84d588265b7ffe1b482a573a47e271256da638c627b78b38b4606fd1ba"},
        "files/source.bin": {"sizeBytes": 4,
            "sha256": "9f64a747e1b97f131fabb6b447296c9b6f0201e79fb3c5356e6c77e89b6a806a"},
        "files/bytes.bin": {"sizeBytes": 3,
            "sha256": "3774fed6f81e6d77fb664109f8ac3e35088e89722c6c8747166afe631cfcf43a"},
    });
    assert_eq!(
        written,
        json!({"files": files, "totalEntries": 3, "totalBytes": 22, "targetPath": "out/bundle.zip"})
    );
    let measured = measure(&mut host, entries).unwrap();
    assert_eq!(measured["files"], files);
    let exists = host.call("file.exists", json!(["out/bundle.zip"]), None);
    assert_eq!(exists.unwrap(), json!(true));
}

#[test]
fn a_byte_entry_is_measured_by_the_sha_256_of_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let entry = json!([{"name": "entry.bin", "content": {"kind": "bytes", "bytes": [1, 2, 3]}}]);
    assert_eq!(
        measure(&mut host, entry).unwrap(),
        json!({"files": {"entry.bin": {"sizeBytes": 3,
            "sha256": "039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81"}},
            "totalEntries": 1, "totalBytes": 3})
    );
}

#[test]
fn unsafe_and_repeated_entry_names_are_refused_case_aside() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let unsafe_path = json!({"reason": "unsafe_path", "field": "name"});
    let repeated = json!({"reason": "duplicate_value", "field": "name"});
    for (entries, message, details) in [
        (
            json!([text("../escape.txt", "x")]),
            "Workflow archive entry path is unsafe",
            &unsafe_path,
        ),
        (
            json!([text("same.txt", "a"), text("same.txt", "b")]),
            "Workflow archive contains a duplicate entry path",
            &repeated,
        ),
        (
            json!([text("Same.txt", "a"), text("same.txt", "b")]),
            "Workflow archive contains a duplicate entry path",
            &repeated,
        ),
    ] {
        let request = json!([{"targetPath": "out/named.zip", "entries": entries}]);
        let reply = host.call("archive.writeZipAtomic", request, None);
        assert_eq!(
            refusal(reply),
            ("invalid_request".into(), message.into(), details.clone())
        );
    }
    assert!(host.take_effects().is_empty());
}

#[test]
fn an_entry_needs_exactly_one_content_variant() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    for content in [
        Value::Null,
        json!({"kind": "file"}),
        json!({"kind": "unknown", "text": "x"}),
    ] {
        let entry = json!([{"name": "entry.txt", "content": content}]);
        assert_eq!(
            refusal(measure(&mut host, entry)),
            (
                "invalid_request".into(),
                "Workflow archive entry requires exactly one content variant".into(),
                json!({"reason": "invalid_combination", "field": "content"})
            )
        );
    }
}

#[test]
fn a_failed_write_leaves_an_existing_target_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let entries = json!([{"name": "missing.bin",
        "content": {"kind": "file", "sourcePath": "in/missing.bin"}}]);
    let request = json!([{"targetPath": "out/existing.zip", "entries": entries}]);
    assert_eq!(
        refusal(host.call("archive.writeZipAtomic", request, None)),
        (
            "not_found".into(),
            "Workflow file target does not exist".into(),
            json!({"kind": "resource"})
        )
    );
    let kept = host.call("file.readText", json!(["out/existing.zip"]), None);
    assert_eq!(kept.unwrap(), json!("original"));
    assert!(host.take_effects().is_empty());
}

#[test]
fn entry_names_and_counts_past_the_fixed_bounds_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    let long = format!("{}.txt", "a".repeat(1021));
    let limited = |resource: &str, limit: u64, observed: u64| {
        (
            "resource_limited".to_string(),
            "Workflow archive operation exceeds a fixed limit".to_string(),
            json!({"resource": resource, "limit": limit, "observed": observed}),
        )
    };
    assert_eq!(
        refusal(measure(&mut host, json!([text(&long, "x")]))),
        limited("path_length", 1024, 1025)
    );
    let deep = vec!["d"; 65].join("/");
    assert_eq!(
        refusal(measure(&mut host, json!([text(&deep, "x")]))),
        limited("depth", 64, 65)
    );
    let many: Vec<Value> = (0..20_001)
        .map(|i| text(&format!("entries/{i}.txt"), ""))
        .collect();
    assert_eq!(
        refusal(measure(&mut host, Value::Array(many))),
        limited("entries", 20_000, 20_001)
    );
    let at_bound = format!("{}.txt", "a".repeat(1020));
    assert!(measure(&mut host, json!([text(&at_bound, "x")])).is_ok());
}

#[test]
fn entries_that_are_not_a_list_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = host(&dir);
    assert_eq!(
        refusal(measure(&mut host, json!({"a.txt": "x"}))),
        (
            "invalid_request".into(),
            "Workflow archive entries must be an array".into(),
            json!({"reason": "invalid_type", "field": "entries"})
        )
    );
}
