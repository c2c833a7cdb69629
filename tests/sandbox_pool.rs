//! The sandbox pool: warm runtimes are reused per root and options, runtimes
//! that breached a limit are never returned, and the eviction policy holds.

use crate::common;

use std::path::Path;
use std::time::Duration;

use hookrun::sandbox::{CallResult, Limits, PoolOptions, PoolStats, SandboxOptions, SandboxPool};
use serde_json::{Value, json};

fn options(timeout_ms: u64) -> SandboxOptions {
    SandboxOptions::default()
        .limits(Limits::default().timeout_ms(timeout_ms))
        .determinism(None)
        .measure_heap(false)
        .isolation(common::isolation())
        .coverage(false)
        .startup(&hookrun::hooks::STARTUP)
}

/// One loan calling `counter.mjs#next`: how many calls its runtime has served.
fn count(pool: &SandboxPool, root: &str, options: SandboxOptions) -> Value {
    let mut sandbox = pool.acquire(common::fixture(root), options).unwrap();
    match sandbox
        .call(Path::new("counter.mjs"), "next", &Value::Null)
        .result
    {
        CallResult::Ok(value) => value,
        other => panic!("expected ok, got {other:?}"),
    }
}

#[test]
fn a_returned_runtime_is_lent_again_with_its_modules_loaded() {
    let pool = SandboxPool::new(PoolOptions::default());
    assert_eq!(count(&pool, "sandbox", options(1_000)), json!(1));
    assert_eq!(pool.idle(), 1);
    assert_eq!(count(&pool, "sandbox", options(1_000)), json!(2));
    assert_eq!(
        pool.stats(),
        PoolStats {
            hits: 1,
            misses: 1,
            evicted: 0,
            discarded: 0,
            prewarmed: 0
        }
    );
}

#[test]
fn a_pool_without_reuse_lends_prewarmed_runtimes_no_hook_has_run_in() {
    let pool = SandboxPool::new(PoolOptions {
        reuse: false,
        ..PoolOptions::default()
    });
    let opts = options(1_000);
    assert_eq!(
        pool.prewarm(common::fixture("sandbox"), opts, 5).unwrap(),
        2,
        "bounded by max_idle_per_root"
    );
    assert_eq!(pool.idle(), 2);
    for _ in 0..2 {
        assert_eq!(
            count(&pool, "sandbox", opts),
            json!(1),
            "a clean module state"
        );
    }
    assert_eq!(pool.idle(), 0, "a used runtime is not taken back");
    assert_eq!(count(&pool, "sandbox", opts), json!(1));
    assert_eq!(
        pool.stats(),
        PoolStats {
            hits: 2,
            misses: 1,
            evicted: 0,
            discarded: 3,
            prewarmed: 2
        }
    );
    assert_eq!(
        pool.prewarm(common::fixture("sandbox"), opts, 1).unwrap(),
        1
    );
    assert_eq!(
        pool.prewarm(common::fixture("sandbox"), opts, 1).unwrap(),
        0,
        "already ready"
    );
    assert!(
        pool.prewarm(common::fixture("no-such-dir"), opts, 1)
            .is_err()
    );
}

#[test]
fn other_options_get_another_runtime() {
    let pool = SandboxPool::new(PoolOptions::default());
    assert_eq!(count(&pool, "sandbox", options(1_000)), json!(1));
    assert_eq!(count(&pool, "sandbox", options(2_000)), json!(1));
    assert_eq!(pool.stats().misses, 2);
}

#[test]
fn a_runtime_that_breached_a_limit_is_not_returned() {
    let pool = SandboxPool::new(PoolOptions::default());
    let opts = options(200);
    assert_eq!(count(&pool, "sandbox", opts), json!(1));
    {
        let mut sandbox = pool.acquire(common::fixture("sandbox"), opts).unwrap();
        let outcome = sandbox.call(Path::new("hostile.mjs"), "endlessLoop", &Value::Null);
        assert!(matches!(outcome.result, CallResult::Timeout { .. }));
        assert!(!sandbox.is_warm());
    }
    assert_eq!(pool.idle(), 0);
    assert_eq!(pool.stats().discarded, 1);
    assert_eq!(count(&pool, "sandbox", opts), json!(1), "a fresh runtime");
}

#[test]
fn a_sandbox_without_a_runtime_is_not_kept() {
    let pool = SandboxPool::new(PoolOptions::default());
    let mut sandbox = pool
        .acquire(common::fixture("sandbox"), options(1_000))
        .unwrap();
    sandbox.warm_up().unwrap();
    assert!(sandbox.is_warm());
    sandbox.reset();
    drop(sandbox);
    assert_eq!(pool.idle(), 0);
    assert_eq!(pool.stats().discarded, 1);
}

#[test]
fn the_least_recently_returned_runtime_of_a_root_is_evicted_first() {
    let pool = SandboxPool::new(PoolOptions {
        max_idle_per_root: 1,
        ..PoolOptions::default()
    });
    let opts = options(1_000);
    let mut first = pool.acquire(common::fixture("sandbox"), opts).unwrap();
    let mut second = pool.acquire(common::fixture("sandbox"), opts).unwrap();
    for _ in 0..3 {
        first.call(Path::new("counter.mjs"), "next", &Value::Null);
    }
    second.call(Path::new("counter.mjs"), "next", &Value::Null);
    drop(first);
    drop(second);
    assert_eq!(pool.idle(), 1);
    assert_eq!(pool.stats().evicted, 1);
    assert_eq!(
        count(&pool, "sandbox", opts),
        json!(2),
        "the second runtime stayed"
    );
}

#[test]
fn the_pool_keeps_at_most_max_idle_runtimes() {
    let pool = SandboxPool::new(PoolOptions {
        max_idle: 1,
        ..PoolOptions::default()
    });
    let opts = options(1_000);
    let mut a = pool.acquire(common::fixture("sandbox"), opts).unwrap();
    let mut b = pool
        .acquire(common::fixture("bench/pass-through"), opts)
        .unwrap();
    a.warm_up().unwrap();
    b.warm_up().unwrap();
    drop(a);
    drop(b);
    assert_eq!(pool.idle(), 1);
    assert_eq!(pool.idle_for(&common::fixture("bench/pass-through")), 1);
}

#[test]
fn a_runtime_is_retired_after_max_loans() {
    let pool = SandboxPool::new(PoolOptions {
        max_loans: 2,
        ..PoolOptions::default()
    });
    let opts = options(1_000);
    assert_eq!(count(&pool, "sandbox", opts), json!(1));
    assert_eq!(count(&pool, "sandbox", opts), json!(2));
    assert_eq!(pool.idle(), 0);
    assert_eq!(count(&pool, "sandbox", opts), json!(1));
}

#[test]
fn idle_runtimes_expire() {
    let pool = SandboxPool::new(PoolOptions {
        idle_timeout: Duration::ZERO,
        ..PoolOptions::default()
    });
    let opts = options(1_000);
    assert_eq!(count(&pool, "sandbox", opts), json!(1));
    assert_eq!(count(&pool, "sandbox", opts), json!(1));
    assert_eq!(pool.stats().hits, 0);
}

#[test]
fn a_pooled_run_reuses_the_runtime_of_the_previous_run() {
    use hookrun::host::world::HostWorld;
    use hookrun::run::{NoResults, RunInput, Settings, run};
    use hookrun::selection::SelectionContext;

    let workflow = common::workflow("bench/pass-through");
    let selection = SelectionContext::from_value(
        &serde_json::from_str(
            &std::fs::read_to_string(common::fixture("selections/canonical-single-pdf.json"))
                .unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    let pool = SandboxPool::new(PoolOptions::default());
    let options = common::run_options().pool(Some(pool.clone()));
    for _ in 0..2 {
        let input = RunInput {
            world: HostWorld::from_selection(&selection),
            selection: selection.clone(),
            settings: Settings::default(),
            answers: Default::default(),
        };
        let report = run(&workflow, input, &mut NoResults, &options);
        assert!(report.ok(), "{:?}", report.errors);
    }
    assert_eq!(pool.stats().hits, 1);
    assert_eq!(pool.idle(), 1);
}
