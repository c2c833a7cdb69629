//! Live hook arguments: the runtime object, its Host API facade, bundle readers
//! and result contexts, served by a host bridge.

use crate::common;

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::time::Instant;

use hookrun::hooks::bridge_error;
use hookrun::host::HostError;
use hookrun::sandbox::{BridgeError, Call, CallResult, HostBridge, Outcome, Sandbox};
use serde_json::{Value, json};

#[derive(Default)]
struct RecordingHost {
    calls: Vec<(String, Value)>,
}

impl HostBridge for RecordingHost {
    fn call(&mut self, member: &str, args: Value, _: Instant) -> Result<Value, BridgeError> {
        self.calls.push((member.to_string(), args.clone()));
        match member {
            "library.getItemDetail" => Ok(json!({"kind": "attachment", "item": {"ref": args[0]}})),
            "file.readBytes" => Ok(json!({"$bytes": "AQID"})),
            "bundle.readText" => Ok(json!("{\"answer\": 42}")),
            "result.resolveArtifact" => {
                Ok(json!({"text": "# digest", "entryPath": "artifacts/a.md"}))
            }
            other => Err(bridge_error(HostError::workflow(
                "unsupported_operation",
                format!("{other} is not supported"),
                json!({"memberOrOperation": other, "reason": "not_supported"}),
            ))),
        }
    }
}

fn run(
    sb: &mut Sandbox,
    export: &str,
    arg: Value,
    live: Value,
    host: &Rc<RefCell<RecordingHost>>,
) -> CallResult {
    run_outcome(sb, export, arg, live, host).result
}

/// Calls `export` of `fixtures/sandbox/facade.mjs` with `arg` made live as
/// `live` describes, `host` answering its host calls.
fn run_outcome(
    sb: &mut Sandbox,
    export: &str,
    arg: Value,
    live: Value,
    host: &Rc<RefCell<RecordingHost>>,
) -> Outcome {
    let bridge: Rc<RefCell<dyn HostBridge>> = host.clone();
    sb.run(
        Call::new(Path::new("facade.mjs"), export, &arg)
            .live(&live)
            .host(bridge),
    )
}

#[test]
fn the_runtime_facade_reaches_the_host_and_closes_after_the_call() {
    let mut sb = Sandbox::new(common::fixture("sandbox"), common::sandbox_options()).unwrap();
    let host = Rc::new(RefCell::new(RecordingHost::default()));
    let arg = json!({"runtime": null, "selectionContext": {"items": []}});
    let live = json!([
        {"path": ["runtime"], "kind": "runtime", "hookName": "preflight", "workflowId": "w"},
        {"path": ["selectionContext"], "kind": "frozen"}
    ]);
    let result = run(&mut sb, "useHost", arg, live, &host);
    assert_eq!(
        result,
        CallResult::Ok(json!({
            "detail": {"kind": "attachment", "item": {"ref": {"libraryId": 1, "key": "ATT1"}}},
            "bytes": [1, 2, 3],
            "refused": {"name": "WorkflowHostError", "code": "unsupported_operation", "message": "notes.remove is not supported"},
            "frozen": true,
            "version": 12,
            "hookName": "preflight",
            "scriptGlobal": "function",
            "viaProxy": "function",
            "viaDerived": "function",
            "aborted": false,
            "sameApi": true,
            "sameSignal": true,
            "frozenRuntime": true,
            "keys": "hostApi,hostApiVersion,invocationMode,debugMode,workflowId,packageId,workflowRootDir,packageRootDir,workflowSourceKind,hookName,locale,signal,fetch,Buffer,btoa,atob,TextEncoder,TextDecoder,FileReader",
            "b64": "aGk="
        }))
    );
    assert_eq!(host.borrow().calls[0].0, "library.getItemDetail");
    let answered = host.borrow().calls.len();
    let late = run(&mut sb, "lateCall", json!({}), json!([]), &host);
    assert_eq!(
        late,
        CallResult::Ok(json!(["canceled", "canceled", "canceled"]))
    );
    assert_eq!(
        host.borrow().calls.len(),
        answered,
        "late calls never reach the host"
    );
}

#[test]
fn bundle_readers_and_result_contexts_call_through_the_bridge() {
    let mut sb = Sandbox::new(common::fixture("sandbox"), common::sandbox_options()).unwrap();
    let host = Rc::new(RefCell::new(RecordingHost::default()));
    let arg = json!({"bundleReader": "r1", "resultContext": {"resultJson": null}});
    let live = json!([
        {"path": ["resultContext"], "kind": "resultContext", "reader": ["bundleReader"], "readerKind": "zip"}
    ]);
    let result = run(&mut sb, "readBundle", arg, live, &host);
    assert_eq!(
        result,
        CallResult::Ok(json!({
            "data": {"answer": 42},
            "art": {"text": "# digest", "entryPath": "artifacts/a.md"},
            "same": true,
            "hasDir": "function"
        }))
    );
    let calls = &host.borrow().calls;
    assert_eq!(
        calls[0],
        (
            "bundle.readText".to_string(),
            json!(["r1", "result/result.json"])
        )
    );
    assert_eq!(calls[1].1[0], json!("r1"));
}

/// How many bytes the engine's heap grew by from the second to the fourth of
/// four calls of a hook that ignores its argument, each with 256 KB of text
/// in `arg(text)` and the live objects of `live`.
fn heap_growth(arg: impl Fn(String) -> Value, live: Value) -> u64 {
    let mut sb = common::sandbox::sandbox();
    let host = Rc::new(RefCell::new(RecordingHost::default()));
    let mut heap_after = Vec::new();
    for call in 0..4 {
        let arg = arg(format!("{call}{}", "x".repeat(256 * 1024)));
        let outcome = run_outcome(&mut sb, "ignoreArgument", arg, live.clone(), &host);
        assert_eq!(outcome.result, CallResult::Ok(Value::Null));
        heap_after.push(outcome.usage.heap_used_bytes.unwrap());
    }
    heap_after[3].saturating_sub(heap_after[1])
}

#[test]
fn arguments_with_live_objects_leave_the_heap_with_their_call() {
    // Freed as the call ends, not at the engine's next cycle collection.
    let result_context = heap_growth(
        |text| json!({"bundleReader": "r1", "resultContext": {"resultJson": {"text": text}}}),
        json!([
            {"path": ["resultContext"], "kind": "resultContext", "reader": ["bundleReader"], "readerKind": "zip"}
        ]),
    );
    assert!(result_context < 64 * 1024, "grew by {result_context} bytes");
    let deferred = heap_growth(
        |text| json!({"selectionContext": null, "text": text}),
        json!([{"path": ["selectionContext"], "kind": "deferred", "id": "selectionContext",
                "freeze": true}]),
    );
    assert!(deferred < 64 * 1024, "grew by {deferred} bytes");
}

struct PanickingHost;

impl HostBridge for PanickingHost {
    fn call(&mut self, _member: &str, _args: Value, _: Instant) -> Result<Value, BridgeError> {
        panic!("a defect in the host");
    }
}

/// A host that panics while answering fails that host call; the panic never unwinds
/// through the engine (which would abort the process).
#[test]
fn a_panicking_host_fails_the_host_call_not_the_process() {
    let mut sb = Sandbox::new(common::fixture("sandbox"), common::sandbox_options()).unwrap();
    let bridge: Rc<RefCell<dyn HostBridge>> = Rc::new(RefCell::new(PanickingHost));
    let arg = json!({"runtime": null});
    let live = json!([{"path": ["runtime"], "kind": "runtime", "hookName": "applyResult"}]);
    let outcome = sb.run(
        Call::new(Path::new("facade.mjs"), "askTheHost", &arg)
            .live(&live)
            .host(bridge),
    );
    let CallResult::Ok(value) = outcome.result else {
        panic!("{:?}", outcome.result);
    };
    assert_eq!(value["code"], "execution_failed");
    assert!(
        value["message"]
            .as_str()
            .unwrap()
            .contains("a defect in the host"),
        "{value}"
    );
}

/// A frozen member is frozen at every level: objects, arrays (empty, nested,
/// with numeric keys), and 1,500 levels deep, which the engine's native walk
/// reaches and a walk in JavaScript does not (its stack overflows).
#[test]
fn frozen_members_are_frozen_at_every_level() {
    let mut sb = Sandbox::new(common::fixture("sandbox"), common::sandbox_options()).unwrap();
    let host = Rc::new(RefCell::new(RecordingHost::default()));
    let live = json!([{"path": ["value"], "kind": "frozen"}]);
    let mixed = json!({"items": [{"tags": [], "grid": [[1, [2, {"k": "v"}]]]}, {"7": {"x": null}}],
                       "empty": {}, "text": "t"});
    let mut deep = json!({"leaf": {}});
    for _ in 0..1_500 {
        deep = json!({"next": deep, "list": [1]});
    }
    for (value, objects) in [(mixed, 11), (deep, 3_002)] {
        let result = run(
            &mut sb,
            "frozenEverywhere",
            json!({ "value": value }),
            live.clone(),
            &host,
        );
        assert_eq!(
            result,
            CallResult::Ok(json!({"objects": objects, "thawed": 0, "refused": true}))
        );
    }
}
