//! Arrays the engine builds for the host (`v8::Array::new_with_elements`, the
//! keys of `get_own_property_names`) hold their elements whatever a script put
//! on `Array.prototype` (docs/engine-patches.md, "QuickJS-ng and v8x: results
//! checked in one native walk").
#![cfg(feature = "quickjs")]

use deno_core::{JsRuntime, RuntimeOptions, v8};

/// The value of the script `code`.
fn eval<'s>(scope: &mut v8::PinScope<'s, '_>, code: &str) -> v8::Local<'s, v8::Value> {
    let source = v8::String::new(scope, code).unwrap();
    let script = v8::Script::compile(scope, source, None).unwrap();
    script.run(scope).unwrap()
}

/// Setters on the first indexes of `Array.prototype` that swallow what is
/// assigned, and getters that answer `"polluted"`.
const POLLUTE: &str = r#"
for (const index of [0, 1, 2]) {
  Object.defineProperty(Array.prototype, index, {
    get() { return "polluted"; }, set(v) { globalThis.swallowed = (globalThis.swallowed || 0) + 1; },
    configurable: true,
  });
}
"#;

/// What the setters swallowed so far, the length of `array`, and whether each
/// of its elements is its own and what the script reads.
fn elements(scope: &mut v8::PinScope<'_, '_>, array: v8::Local<v8::Array>) -> String {
    let name = v8::String::new(scope, "seen").unwrap();
    let global = scope.get_current_context().global(scope);
    global.set(scope, name.into(), array.into()).unwrap();
    // Read without building arrays (whose elements the setters would see).
    let seen = eval(
        scope,
        r#"`${globalThis.swallowed || 0} ${seen.length} ${Object.hasOwn(seen, 0)} ${seen[0]} ${Object.hasOwn(seen, 1)} ${seen[1]} ${Object.hasOwn(seen, 2)} ${seen[2]}`"#,
    );
    seen.to_rust_string_lossy(scope)
}

#[test]
fn arrays_built_for_the_host_define_their_elements() {
    let mut runtime = JsRuntime::new(RuntimeOptions::default());
    deno_core::scope!(scope, &mut runtime);
    eval(scope, POLLUTE);
    let items: Vec<v8::Local<v8::Value>> = ["a", "b", "c"]
        .iter()
        .map(|s| v8::String::new(scope, s).unwrap().into())
        .collect();
    let array = v8::Array::new_with_elements(scope, &items);
    assert_eq!(elements(scope, array), "0 3 true a true b true c");

    let object = eval(scope, "({x: 1, y: 2, z: 3})");
    let object = v8::Local::<v8::Object>::try_from(object).unwrap();
    let keys = object
        .get_own_property_names(scope, v8::GetPropertyNamesArgs::default())
        .unwrap();
    assert_eq!(elements(scope, keys), "0 3 true x true y true z");
}
