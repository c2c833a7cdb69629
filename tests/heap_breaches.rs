//! Heap-cap breaches at scale (`cargo test --release --test integration heap_breaches --
//! --ignored`): every memory bomb, repeated until an engine fault that shows up
//! once in hundreds of breaches would have shown up.

use crate::common;

use common::sandbox::{assert_healthy, call, sandbox};
use hookrun::sandbox::CallResult;
use serde_json::Value;

fn breach_repeatedly(module: &str, export: &str, times: usize) {
    for _ in 0..times {
        let mut sb = sandbox();
        let outcome = call(&mut sb, module, export, Value::Null);
        assert!(
            matches!(outcome.result, CallResult::MemoryLimit { .. }),
            "{export}: {:?}",
            outcome.result
        );
        assert_healthy(&mut sb);
    }
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn array_bomb_breaches() {
    breach_repeatedly("hostile.mjs", "memoryBomb", 2_000);
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn error_bomb_breaches() {
    breach_repeatedly("corpus/exhaust.mjs", "errorBomb", 1_000);
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn named_error_bomb_breaches() {
    breach_repeatedly("corpus/exhaust.mjs", "namedErrorBomb", 100);
}

#[test]
#[ignore = "slow: thousands of heap-cap breaches"]
fn prepared_error_bomb_breaches() {
    breach_repeatedly("corpus/exhaust.mjs", "preparedErrorBomb", 300);
}
