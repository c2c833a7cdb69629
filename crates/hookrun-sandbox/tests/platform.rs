//! The engine's platform is one shared value for the whole process: every
//! thread that drops a runtime takes a reference to it and lets it go
//! (docs/engine-patches.md, "The platform's reference count is atomic").

use std::panic::{AssertUnwindSafe, catch_unwind};

use deno_core::v8;
use hookrun_sandbox::{CallResult, Sandbox, SandboxOptions};

/// References to the platform (when fewer than 64), found by asking which
/// count the engine's own check accepts.
fn references(platform: &v8::SharedRef<v8::Platform>) -> Option<usize> {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let found = (1..64)
        .find(|&n| catch_unwind(AssertUnwindSafe(|| platform.assert_use_count_eq(n))).is_ok());
    std::panic::set_hook(quiet);
    found
}

/// Two threads taking and dropping references at once, as two threads
/// disposing runtimes do, leave the count where it was. A count that is not
/// atomic loses updates: the platform is then freed while still in use (the
/// process aborts in `free`) or never freed.
#[test]
fn threads_taking_and_dropping_platform_references_at_once_keep_the_count() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hook.mjs"),
        "export function f() { return 1; }\n",
    )
    .unwrap();
    let start_and_call = || {
        let mut sandbox = Sandbox::new(dir.path(), SandboxOptions::default()).unwrap();
        let outcome = sandbox.call("hook.mjs".as_ref(), "f", &serde_json::json!(null));
        assert_eq!(outcome.result, CallResult::Ok(serde_json::json!(1)));
        sandbox
    };
    let sandbox = start_and_call();

    let platform = v8::V8::get_current_platform();
    let before = references(&platform);
    assert!(
        before.is_some(),
        "the platform's reference count is out of range"
    );
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                for _ in 0..200_000 {
                    drop(v8::V8::get_current_platform());
                }
            });
        }
    });
    assert_eq!(references(&platform), before);

    // Runtimes still start and run on the same platform.
    drop(sandbox);
    start_and_call();
}
