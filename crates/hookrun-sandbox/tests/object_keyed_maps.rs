//! Maps, sets and their weak kinds keyed by objects and symbols, whose hash
//! is taken from their address (`map_hash_key`, docs/engine-patches.md,
//! "QuickJS-ng: object keys hashed by every bit of their address"): every key
//! is found, deleted keys are gone, insertion order holds while the tables
//! grow, and keys equal by content but not by identity stay apart.
#![cfg(feature = "quickjs")]

use deno_core::{JsRuntime, RuntimeOptions, v8};

/// What the script `code` answers, as text.
fn text(runtime: &mut JsRuntime, code: &str) -> String {
    deno_core::scope!(scope, runtime);
    let source = v8::String::new(scope, code).unwrap();
    let script = v8::Script::compile(scope, source, None).unwrap();
    script.run(scope).unwrap().to_rust_string_lossy(scope)
}

#[test]
fn every_object_and_symbol_key_is_found_in_order_and_deleted_ones_are_gone() {
    let mut runtime = JsRuntime::new(RuntimeOptions::default());
    let answer = text(
        &mut runtime,
        r#"
        (() => {
          const n = 20000;
          // Objects of several sizes, arrays, functions and symbols: keys
          // spread over the allocator's size classes and alignments.
          const keys = [];
          for (let i = 0; i < n; i++) {
            switch (i % 5) {
              case 0: keys.push({ i }); break;
              case 1: keys.push({ i, a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }); break;
              case 2: keys.push([i]); break;
              case 3: keys.push(() => i); break;
              default: keys.push(Symbol(String(i)));
            }
          }
          const objects = keys.filter((k) => typeof k !== "symbol");
          const map = new Map(), set = new Set(), weak = new WeakMap(), weakSet = new WeakSet();
          keys.forEach((k, i) => { map.set(k, i); set.add(k); });
          objects.forEach((k, i) => { weak.set(k, i); weakSet.add(k); });
          const problems = [];
          keys.forEach((k, i) => {
            if (map.get(k) !== i || !set.has(k)) problems.push(`missing ${i}`);
          });
          objects.forEach((k, i) => {
            if (weak.get(k) !== i || !weakSet.has(k)) problems.push(`weakly missing ${i}`);
          });
          // Alike by content, not the same key.
          if (map.has({ i: 0 }) || weak.has({ i: 0 }) || map.has(Symbol("4"))) problems.push("a look-alike is found");
          let order = 0;
          for (const [k, v] of map) {
            if (k !== keys[order] || v !== order) { problems.push(`order at ${order}`); break; }
            order++;
          }
          keys.forEach((k, i) => { if (i % 2 === 0) { map.delete(k); set.delete(k); } });
          objects.forEach((k, i) => { if (i % 2 === 0) { weak.delete(k); weakSet.delete(k); } });
          keys.forEach((k, i) => {
            const kept = i % 2 === 1;
            if (map.has(k) !== kept || set.has(k) !== kept) problems.push(`after delete ${i}`);
          });
          objects.forEach((k, i) => {
            const kept = i % 2 === 1;
            if (weak.has(k) !== kept || weakSet.has(k) !== kept) problems.push(`weakly after delete ${i}`);
          });
          const left = [...map.keys()];
          if (left.length !== n / 2 || left.some((k, j) => k !== keys[2 * j + 1])) problems.push("order after delete");
          return problems.length === 0 ? "ok" : problems.slice(0, 5).join("; ");
        })()
        "#,
    );
    assert_eq!(answer, "ok");
}
