//! A call's live description crosses into a runtime once: the animator's
//! `prepare` makes it ready once per runtime, and every call with an equal
//! description gets what it made.

use hookrun_sandbox::{Call, CallResult, Sandbox, SandboxOptions, Script, Startup};
use serde_json::{Value, json};

/// Counts `prepare` calls; `animate` answers the count its description was
/// made ready at, and the description.
static COUNTING: Startup = Startup {
    name: "test:counting",
    animator: Some(Script {
        name: "test:counting-animator",
        source: "(hostCall, tools) => { let prepared = 0; return {
            prepare: (live) => ({ live, at: ++prepared }),
            animate: (arg, ready) => ({ at: ready.at, live: ready.live }),
            finish() {},
        }; }",
    }),
    ..Startup::BARE
};

/// Without `prepare`, `animate` gets the description itself, frozen.
static PLAIN: Startup = Startup {
    name: "test:plain",
    animator: Some(Script {
        name: "test:plain-animator",
        source: "(hostCall, tools) => ({
            animate: (arg, live) => ({ live, frozen: Object.isFrozen(live) && Object.isFrozen(live[0]) }),
            finish() {},
        })",
    }),
    ..Startup::BARE
};

fn sandbox(startup: &'static Startup) -> (tempfile::TempDir, Sandbox) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("echo.mjs"), "export const echo = (x) => x;").unwrap();
    let options = SandboxOptions::default().startup(startup);
    let sandbox = Sandbox::new(dir.path(), options).unwrap();
    (dir, sandbox)
}

fn call(sandbox: &mut Sandbox, live: &Value) -> Value {
    let outcome = sandbox.run(Call::new("echo.mjs".as_ref(), "echo", &json!(null)).live(live));
    match outcome.result {
        CallResult::Ok(value) => value,
        other => panic!("the call failed: {other:?}"),
    }
}

#[test]
fn an_equal_description_is_made_ready_once_per_runtime() {
    let (_dir, mut sandbox) = sandbox(&COUNTING);
    let first = json!([{"path": ["runtime"], "kind": "runtime"}]);
    let second = json!([{"path": ["other"], "kind": "frozen"}]);
    assert_eq!(call(&mut sandbox, &first), json!({"at": 1, "live": first}));
    assert_eq!(
        call(&mut sandbox, &first.clone()),
        json!({"at": 1, "live": first})
    );
    assert_eq!(
        call(&mut sandbox, &second),
        json!({"at": 2, "live": second})
    );
    assert_eq!(call(&mut sandbox, &first), json!({"at": 1, "live": first}));
    // Past the descriptions a runtime holds, the oldest are made ready again.
    for i in 0..8 {
        let other = json!([{"path": [format!("m{i}")], "kind": "frozen"}]);
        assert_eq!(call(&mut sandbox, &other)["at"], json!(3 + i));
    }
    assert_eq!(call(&mut sandbox, &first)["at"], json!(11));
    // A fresh runtime holds none.
    sandbox.reset();
    assert_eq!(
        call(&mut sandbox, &second),
        json!({"at": 1, "live": second})
    );
}

#[test]
fn without_prepare_the_description_is_handed_frozen() {
    let (_dir, mut sandbox) = sandbox(&PLAIN);
    let live = json!([{"path": ["runtime"], "kind": "runtime"}]);
    for _ in 0..2 {
        assert_eq!(
            call(&mut sandbox, &live),
            json!({"live": live, "frozen": true})
        );
    }
}
