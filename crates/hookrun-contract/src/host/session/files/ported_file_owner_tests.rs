//! Workflow inputs and the run's temporary files after the reference host's input
//! materialization suite (`test/core/90-workflow-input-materialization.test.ts`):
//! each materialized input a file of its own under the temporary directory,
//! content refused before anything is written unless it is one variant, and the
//! file owner's `stat`, `list`, `move` and `remove` there, removal of a directory
//! only when asked to recurse.

use serde_json::{Value, json};

use super::super::HookHost;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::world::HostWorld;

fn host() -> HookHost {
    let mut host = HookHost::new(HostWorld::default(), HostAnswers::default());
    host.set_site("unit-1", "applyResult");
    host
}

fn call(host: &mut HookHost, member: &str, args: Value) -> Result<Value, HostError> {
    host.call(member, args, None)
}

fn materialize(host: &mut HookHost, content: Value) -> Result<Value, HostError> {
    let request = json!({"key": "valid_tags", "fileName": "valid_tags.yaml", "content": content});
    call(host, "file.materializeWorkflowInputFile", json!([request]))
}

#[test]
fn each_materialized_input_is_a_file_of_its_own_under_the_temporary_directory() {
    let mut host = host();
    let first = materialize(
        &mut host,
        json!({"kind": "text", "text": "- topic:sequence\n"}),
    );
    let second = materialize(
        &mut host,
        json!({"kind": "text", "text": "- topic:other\n"}),
    );
    let binary = materialize(&mut host, json!({"kind": "bytes", "bytes": [1, 2, 3]}));
    let (first, second, binary) = (first.unwrap(), second.unwrap(), binary.unwrap());
    for input in [&first, &second, &binary] {
        let path = input["path"].as_str().unwrap();
        assert!(
            path.starts_with("/tmp/hookrun/workflow-inputs/valid_tags/"),
            "{path}"
        );
        assert!(!path.split('/').any(|s| s == ".."), "{path}");
    }
    assert_ne!(first["path"], second["path"]);
    assert_eq!(
        call(&mut host, "file.readText", json!([first["path"]])).unwrap(),
        "- topic:sequence\n"
    );
    assert_eq!(
        call(&mut host, "file.readBytes", json!([binary["path"]])).unwrap(),
        json!({"$bytes": "AQID"})
    );
    assert_eq!(
        (binary["sizeBytes"].clone(), binary["sha256"].clone()),
        (
            json!(3),
            json!("039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81")
        )
    );
}

#[test]
fn content_that_is_not_one_variant_is_refused_before_anything_is_written() {
    let mut host = host();
    for content in [
        Value::Null,
        json!({"kind": "path", "path": "x"}),
        json!({"text": "t"}),
    ] {
        let error = materialize(&mut host, content).unwrap_err();
        assert_eq!(error.message, "Workflow input content variant is invalid");
        assert_eq!(
            reply_code(&Err(error)),
            (
                "invalid_request".into(),
                json!({"reason": "invalid_value", "field": "content"})
            )
        );
    }
    let listed = call(
        &mut host,
        "file.exists",
        json!(["/tmp/hookrun/workflow-inputs"]),
    );
    assert_eq!(listed.unwrap(), json!(false));
}

#[test]
fn the_file_owner_stats_lists_moves_and_removes_temporary_files() {
    let mut host = host();
    let root = "/tmp/hookrun/workflow-file-owner";
    let (source, moved) = (
        format!("{root}/nested/source.txt"),
        format!("{root}/nested/moved.txt"),
    );
    call(
        &mut host,
        "file.makeDirectory",
        json!([{"path": format!("{root}/nested")}]),
    )
    .unwrap();
    call(&mut host, "file.writeText", json!([source, "owned file\n"])).unwrap();
    let stat = call(&mut host, "file.stat", json!([source])).unwrap();
    assert_eq!(
        (
            stat["path"].clone(),
            stat["kind"].clone(),
            stat["sizeBytes"].clone()
        ),
        (json!(source), json!("file"), json!(11))
    );
    let listing = call(
        &mut host,
        "file.list",
        json!([{"path": root, "recursive": true}]),
    )
    .unwrap();
    let paths: Vec<&Value> = listing["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["relativePath"])
        .collect();
    assert_eq!(paths, [&json!("nested"), &json!("nested/source.txt")]);
    assert_eq!(listing["totalFileBytes"], 11);
    call(
        &mut host,
        "file.move",
        json!([{"sourcePath": source, "targetPath": moved}]),
    )
    .unwrap();
    let exists =
        |host: &mut HookHost, path: &str| call(host, "file.exists", json!([path])).unwrap();
    assert_eq!(
        (exists(&mut host, &source), exists(&mut host, &moved)),
        (json!(false), json!(true))
    );
    let removed = call(
        &mut host,
        "file.remove",
        json!([{"path": root, "recursive": true}]),
    );
    assert_eq!(removed.unwrap(), json!({"removed": true}));
    assert_eq!(exists(&mut host, root), json!(false));
}

#[test]
fn a_directory_is_removed_only_when_asked_to_recurse_and_a_missing_path_may_be_ignored() {
    let mut host = host();
    let root = "/tmp/hookrun/workflow-file-remove";
    call(
        &mut host,
        "file.writeText",
        json!([format!("{root}/file.txt"), "content"]),
    )
    .unwrap();
    let error = call(&mut host, "file.remove", json!([{"path": root}])).unwrap_err();
    assert_eq!(
        error.message,
        "Recursive workflow directory removal was not requested"
    );
    assert_eq!(
        reply_code(&Err(error)),
        (
            "invalid_request".into(),
            json!({"reason": "invalid_combination", "field": "recursive"})
        )
    );
    let missing = json!([{"path": format!("{root}/missing"), "missing": "ignore"}]);
    assert_eq!(
        call(&mut host, "file.remove", missing).unwrap(),
        json!({"removed": false})
    );
    let kept = call(
        &mut host,
        "file.readText",
        json!([format!("{root}/file.txt")]),
    );
    assert_eq!(kept.unwrap(), "content");
}
