//! The engine's checked `JSON.stringify` (`v8::json::stringify_checked`,
//! docs/engine-patches.md, "QuickJS-ng and v8x: results checked in one native
//! walk"): what the prelude's replacer checked in JavaScript, value by value.
#![cfg(feature = "quickjs")]

use deno_core::v8::json::{CheckedJson, JsonChecks, JsonRefusal, stringify_checked};
use deno_core::{JsRuntime, RuntimeOptions, v8};

/// What the walk made of a value, in plain Rust.
#[derive(Debug, PartialEq)]
enum Made {
    /// The text (`None`: `undefined`) and the references written.
    Written(Option<String>, u32),
    /// The refusal and the key of the refused value.
    Refused(JsonRefusal, String),
    /// The message of the exception left pending.
    Threw(String),
}

/// The value of the script `code`.
fn eval<'s>(scope: &mut v8::PinScope<'s, '_>, code: &str) -> v8::Local<'s, v8::Value> {
    let source = v8::String::new(scope, code).unwrap();
    let script = v8::Script::compile(scope, source, None).unwrap();
    script.run(scope).unwrap()
}

/// Checks the value `code` evaluates to, after `setup`, with a budget of
/// `budget` bytes and `max_depth` levels; the kept values are `kept` (a
/// `WeakMap` the setup makes), referred to in call 3 as `"<marker><id>"`.
fn check(setup: &str, code: &str, budget: i64, max_depth: u32) -> Made {
    let mut runtime = JsRuntime::new(RuntimeOptions::default());
    deno_core::scope!(scope, &mut runtime);
    eval(scope, "globalThis.kept = new WeakMap();");
    eval(scope, setup);
    let value = eval(scope, code);
    let kept = eval(scope, "kept");
    let marker = v8::String::new(scope, "<ref>").unwrap().into();
    let checks = JsonChecks {
        budget,
        max_depth,
        kept: Some(kept),
        call: 3.0,
        marker: Some(marker),
    };
    v8::tc_scope!(let tc, scope);
    match stringify_checked(tc, value, &checks) {
        CheckedJson::Written(written, refs) => {
            assert!(!tc.has_caught(), "written, yet an exception is pending");
            let written = (!written.is_undefined()).then(|| written.to_rust_string_lossy(tc));
            Made::Written(written, refs)
        }
        CheckedJson::Refused(refusal, key) => {
            assert!(!tc.has_caught(), "refused, yet an exception is pending");
            Made::Refused(refusal, key.to_rust_string_lossy(tc))
        }
        CheckedJson::Threw => {
            let exception = tc.exception().expect("an exception is pending");
            Made::Threw(exception.to_rust_string_lossy(tc))
        }
    }
}

fn written(text: &str, refs: u32) -> Made {
    Made::Written(Some(text.to_string()), refs)
}

fn refused(refusal: JsonRefusal, key: &str) -> Made {
    Made::Refused(refusal, key.to_string())
}

const ROOMY: i64 = 1 << 20;

#[test]
fn plain_data_is_written_as_json_stringify_writes_it() {
    let code = r#"({a: [1, "x", null, true, 1.5], b: {c: -0, u: undefined, d: new Date(0)},
                  s: new String("boxed"), p: new Proxy({q: 1}, {})})"#;
    assert_eq!(
        check("", code, ROOMY, 100),
        written(
            r#"{"a":[1,"x",null,true,1.5],"b":{"c":0,"d":"1970-01-01T00:00:00.000Z"},"s":"boxed","p":{"q":1}}"#,
            0
        )
    );
    assert_eq!(
        check("", "({toJSON() { return undefined; }})", ROOMY, 100),
        Made::Written(None, 0)
    );
}

#[test]
fn kept_objects_of_the_call_are_written_as_references() {
    let setup = "globalThis.sel = {k: 1}; globalThis.old = {k: 2};
                 kept.set(sel, {id: 7, bytes: 7, depth: 1, call: 3});
                 kept.set(old, {id: 8, bytes: 7, depth: 1, call: 2});";
    assert_eq!(
        check(setup, "({s: sel, t: [sel, old]})", ROOMY, 100),
        written(r#"{"s":"<ref>7","t":["<ref>7",{"k":2}]}"#, 2)
    );
    // A reference weighs what the value does, and nests as deep.
    assert_eq!(
        check(setup, "({s: sel})", 7 + 1 + 4 - 1, 100),
        refused(JsonRefusal::TooLarge, "s")
    );
    assert_eq!(
        check(
            "globalThis.deep = {}; kept.set(deep, {id: 1, bytes: 2, depth: 3, call: 3});",
            "({a: {b: deep}})",
            ROOMY,
            4
        ),
        refused(JsonRefusal::TooDeep, "b")
    );
}

#[test]
fn values_json_cannot_carry_are_refused_with_their_key() {
    let cases = [
        ("({a: {b: NaN}})", JsonRefusal::NotFinite(f64::NAN), "b"),
        (
            "[1, -Infinity]",
            JsonRefusal::NotFinite(f64::NEG_INFINITY),
            "1",
        ),
        ("({f() {}})", JsonRefusal::Function, "f"),
        ("({s: Symbol()})", JsonRefusal::Symbol, "s"),
        ("({n: 10n})", JsonRefusal::BigInt, "n"),
        ("(() => 1)", JsonRefusal::Function, ""),
        (
            "({x: {toJSON() { return Infinity; }}})",
            JsonRefusal::NotFinite(f64::INFINITY),
            "x",
        ),
    ];
    for (code, refusal, key) in cases {
        match check("", code, ROOMY, 100) {
            Made::Refused(JsonRefusal::NotFinite(n), k) => match refusal {
                JsonRefusal::NotFinite(m) => {
                    assert!(n == m || (n.is_nan() && m.is_nan()), "{code}: {n}");
                    assert_eq!(k, key, "{code}");
                }
                other => panic!("{code}: expected {other:?}, got NotFinite({n})"),
            },
            made => assert_eq!(made, refused(refusal, key), "{code}"),
        }
    }
}

#[test]
fn nesting_and_size_are_bounded() {
    assert_eq!(
        check("", "({a: {b: {c: 1}}})", ROOMY, 3),
        written(r#"{"a":{"b":{"c":1}}}"#, 0)
    );
    assert_eq!(
        check("", "({a: {b: {c: {}}}})", ROOMY, 3),
        refused(JsonRefusal::TooDeep, "c")
    );
    // "abc": 3 + 2; its key is not weighed, the object's is (0 + 4).
    assert_eq!(
        check("", r#"({k: "abc"})"#, 9, 100),
        written(r#"{"k":"abc"}"#, 0)
    );
    assert_eq!(
        check("", r#"({k: "abc"})"#, 8, 100),
        refused(JsonRefusal::TooLarge, "k")
    );
}

/// The nesting is the walk's own count: a script that is handed the walk's
/// stack of open objects (through an index setter on `Array.prototype`) and
/// empties it from a getter at every level does not lift the limit.
#[test]
fn nesting_is_counted_where_no_script_reaches() {
    let setup = r#"
        globalThis.seen = new Set();
        for (let i = 0; i < 8; i++) {
          Object.defineProperty(Array.prototype, i, { set(v) { seen.add(this); }, configurable: true });
        }
        globalThis.nest = (n) => n === 0 ? 1 : {
          get x() { for (const s of seen) s.length = 0; return nest(n - 1); },
        };"#;
    assert_eq!(
        check(setup, "nest(150)", ROOMY, 100),
        refused(JsonRefusal::TooDeep, "x")
    );
    assert_eq!(
        check(setup, "nest(2)", ROOMY, 100),
        written(r#"{"x":{"x":1}}"#, 0)
    );
}

#[test]
fn exceptions_of_getters_and_cycles_stay_pending() {
    assert_eq!(
        check(
            "",
            r#"({get a() { throw new Error("boom"); }})"#,
            ROOMY,
            100
        ),
        Made::Threw("Error: boom".into())
    );
    match check("", "{const o = {}; o.self = o; o}", ROOMY, 100) {
        Made::Threw(message) => assert!(message.contains("circular"), "{message}"),
        other => panic!("expected a pending TypeError, got {other:?}"),
    }
}

/// What the engine's own `JSON.stringify` writes for `code`'s value.
fn stringified(code: &str) -> String {
    let mut runtime = JsRuntime::new(RuntimeOptions::default());
    deno_core::scope!(scope, &mut runtime);
    let text = eval(scope, &format!("JSON.stringify({code})"));
    text.to_rust_string_lossy(scope)
}

/// Objects list their keys and strings are quoted as the language says,
/// whether the keys come from the object's shape (an ordinary object without
/// index keys) or from the generic listing, and checked or not.
#[test]
fn keys_are_listed_and_strings_quoted_as_the_language_says() {
    let cases = [
        ("({b: 1, 2: 2, 1: 1, a: 0})", r#"{"1":1,"2":2,"b":1,"a":0}"#),
        (
            r#"({b: 1, "4294967295": 2, "4294967294": 3})"#,
            r#"{"4294967294":3,"b":1,"4294967295":2}"#,
        ),
        (
            "({get a() { delete this.b; return 1; }, b: 2, c: 3})",
            r#"{"a":1,"c":3}"#,
        ),
        (
            "({get a() { this.z = 9; return 1; }, b: 2})",
            r#"{"a":1,"b":2}"#,
        ),
        (
            r#"(() => { const o = {a: 1, b: 2, c: 3}; delete o.b;
                Object.defineProperty(o, "hidden", {value: 1, enumerable: false});
                o[Symbol("s")] = 4; return o; })()"#,
            r#"{"a":1,"c":3}"#,
        ),
        (
            "new (class { #p = 1; x = 2; get y() { return 3; } })()",
            r#"{"x":2}"#,
        ),
        (
            r#"JSON.parse('{"__proto__": 1, "a\\"b": 2}')"#,
            r#"{"__proto__":1,"a\"b":2}"#,
        ),
        (
            r#"["q\"b\\c\n\t\u0001\u001f é ÿ", "😀\ud800x", "", "plain"]"#,
            r#"["q\"b\\c\n\t\u0001\u001f é ÿ","😀\ud800x","","plain"]"#,
        ),
        (r#"({"k\u00e9y\n": "v"})"#, r#"{"kéy\n":"v"}"#),
        ("new Proxy({b: 1, 1: 0}, {})", r#"{"1":0,"b":1}"#),
    ];
    for (code, expected) in cases {
        assert_eq!(stringified(code), expected, "JSON.stringify of {code}");
        assert_eq!(
            check("", code, ROOMY, 100),
            written(expected, 0),
            "checked {code}"
        );
    }
}
