//! Heap-cap breaches at scale (`cargo test --release --test heap_breaches --
//! --ignored`): every memory bomb, repeated until an engine fault that shows up
//! once in hundreds of breaches would have shown up.

mod common;

use common::sandbox::{assert_healthy, call, sandbox};
use hookrun::sandbox::{CallResult, on_fresh_thread};
use serde_json::Value;

fn breach_repeatedly(module: &str, export: &str, threads: usize, per_thread: usize) {
    for _ in 0..threads {
        on_fresh_thread(|| {
            for _ in 0..per_thread {
                let mut sb = sandbox();
                let outcome = call(&mut sb, module, export, Value::Null);
                assert!(
                    matches!(outcome.result, CallResult::MemoryLimit { .. }),
                    "{export}: {:?}",
                    outcome.result
                );
                assert_healthy(&mut sb);
            }
        })
        .unwrap();
    }
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn array_bomb_breaches() {
    breach_repeatedly("hostile.mjs", "memoryBomb", 20, 100);
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn error_bomb_breaches() {
    breach_repeatedly("corpus/exhaust.mjs", "errorBomb", 10, 100);
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn named_error_bomb_breaches() {
    breach_repeatedly("corpus/exhaust.mjs", "namedErrorBomb", 2, 50);
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn prepared_error_bomb_breaches() {
    breach_repeatedly("corpus/exhaust.mjs", "preparedErrorBomb", 5, 60);
}
