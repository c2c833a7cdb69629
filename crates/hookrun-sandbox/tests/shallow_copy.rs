//! `v8::Object::shallow_copy` (`JS_ShallowCopy`, docs/engine-patches.md,
//! "QuickJS-ng and v8x: an object copied with its shape"): a copy has the
//! original's prototype, keys in order, attributes, values and accessors, and
//! extensibility, and either object changes without touching the other.
#![cfg(feature = "quickjs")]

use deno_core::{JsRuntime, RuntimeOptions, v8};

/// The value of the script `code`.
fn eval<'s>(scope: &mut v8::PinScope<'s, '_>, code: &str) -> v8::Local<'s, v8::Value> {
    let source = v8::String::new(scope, code).unwrap();
    let script = v8::Script::compile(scope, source, None).unwrap();
    script.run(scope).unwrap()
}

/// Copies the global `original` to the global `copy`; false when the engine
/// refused.
fn copy_global(scope: &mut v8::PinScope<'_, '_>) -> bool {
    let original = eval(scope, "original");
    let Ok(original) = v8::Local::<v8::Object>::try_from(original) else {
        return false;
    };
    let Some(copy) = original.shallow_copy(scope) else {
        return false;
    };
    let name = v8::String::new(scope, "copy").unwrap();
    let global = scope.get_current_context().global(scope);
    global.set(scope, name.into(), copy.into()).unwrap();
    true
}

/// What the script `code` answers, as text.
fn text(scope: &mut v8::PinScope<'_, '_>, code: &str) -> String {
    eval(scope, code).to_rust_string_lossy(scope)
}

/// Every own key of `name` with its descriptor's attributes, in order.
const DESCRIBE: &str = r#"
globalThis.describe = (o) => Reflect.ownKeys(o).map((k) => {
  const d = Object.getOwnPropertyDescriptor(o, k);
  const kind = "value" in d ? `value=${String(d.value)} w=${d.writable}` : `get=${typeof d.get} set=${typeof d.set}`;
  return `${String(k)}:${kind} e=${d.enumerable} c=${d.configurable}`;
}).join(";") + ` ext=${Object.isExtensible(o)} frozen=${Object.isFrozen(o)}`;
"#;

#[test]
fn a_copy_has_the_originals_keys_attributes_accessors_and_prototype() {
    let mut runtime = JsRuntime::new(RuntimeOptions::default());
    deno_core::scope!(scope, &mut runtime);
    eval(scope, DESCRIBE);
    eval(
        scope,
        r#"
        const proto = { inherited: 1 };
        const getter = function () { return this.b * 2; };
        globalThis.original = Object.create(proto);
        original.b = 21;
        Object.defineProperty(original, "a", { value: "x", enumerable: false, writable: false, configurable: true });
        Object.defineProperty(original, "twice", { get: getter, enumerable: true, configurable: false });
        original[Symbol.for("s")] = "sym";
        original.gone = 0;
        delete original.gone;
        original.last = null;
        globalThis.getter = getter;
        "#,
    );
    assert!(copy_global(scope));
    assert_eq!(
        text(scope, "describe(copy)"),
        text(scope, "describe(original)")
    );
    assert_eq!(
        text(
            scope,
            r#"`${Object.getPrototypeOf(copy) === Object.getPrototypeOf(original)} ${copy.inherited} ${copy.twice}
               ${Object.getOwnPropertyDescriptor(copy, "twice").get === getter} ${copy !== original}`"#
        ),
        "true 1 42\n               true true"
    );
    // Either object changes on its own, whatever shape they shared.
    eval(
        scope,
        r#"copy.b = 5; copy.added = 1; delete original.last; Object.defineProperty(original, "a", { value: "y" });"#,
    );
    assert_eq!(
        text(
            scope,
            r#"`${original.b} ${copy.b} ${"added" in original} ${"last" in copy} ${copy.a} ${original.a} ${copy.twice}`"#
        ),
        "21 5 false true x y 10"
    );
}

#[test]
fn frozen_and_sealed_objects_copy_as_they_are_and_stay_independent() {
    let mut runtime = JsRuntime::new(RuntimeOptions::default());
    deno_core::scope!(scope, &mut runtime);
    eval(scope, DESCRIBE);
    for make in [
        "Object.freeze({ __proto__: null, a: 1, get b() { return 2; }, c: [3] })",
        "Object.seal({ a: 1, b: 'two' })",
        "Object.preventExtensions({ a: 1 })",
        "({})",
    ] {
        eval(scope, &format!("globalThis.original = {make};"));
        assert!(copy_global(scope), "{make}");
        assert_eq!(
            text(scope, "describe(copy)"),
            text(scope, "describe(original)"),
            "{make}"
        );
        // A copy of a frozen object refuses what the original refuses, in strict code too.
        assert_eq!(
            text(
                scope,
                r#""use strict"; (() => { try { copy.z = 1; return `${"z" in copy}`; } catch (e) { return e.constructor.name; } })()"#
            ),
            text(
                scope,
                r#""use strict"; (() => { try { original.z = 1; return `${"z" in original}`; } catch (e) { return e.constructor.name; } })()"#
            ),
            "{make}"
        );
    }
    // The copy's array is the original's: shallow.
    eval(scope, "globalThis.original = Object.freeze({ list: [1] });");
    assert!(copy_global(scope));
    assert_eq!(text(scope, "`${copy.list === original.list}`"), "true");
}

#[test]
fn objects_that_are_not_ordinary_are_refused() {
    let mut runtime = JsRuntime::new(RuntimeOptions::default());
    deno_core::scope!(scope, &mut runtime);
    for make in [
        "[1, 2]",
        "new Map()",
        "new Proxy({}, {})",
        "function f() {}",
        "new (class { #secret = 1; })()",
        "new Date(0)",
    ] {
        eval(scope, &format!("globalThis.original = {make};"));
        assert!(!copy_global(scope), "{make}");
        // Refused without an exception left pending.
        assert_eq!(text(scope, "'still running'"), "still running");
    }
}
