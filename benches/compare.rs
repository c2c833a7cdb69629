//! Sandbox micro-benchmarks: ready-runtime creation and warm hook calls.
//!
//! `cargo bench --bench sandbox` prints the median and quartiles of each case.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hookrun::sandbox::{CallResult, Sandbox, SandboxOptions};
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/sandbox")
}

fn report(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let q = |p: usize| samples[(samples.len() - 1) * p / 100];
    println!(
        "{name:<40} median {:>10.1?}  p25 {:>10.1?}  p75 {:>10.1?}  (n={})",
        q(50),
        q(25),
        q(75),
        samples.len()
    );
}

fn time<F: FnMut()>(n: usize, mut f: F) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect()
}

fn selection_of_about_10kb() -> Value {
    let items: Vec<Value> = (0..40)
        .map(|i| {
            json!({
                "kind": "attachment",
                "ref": {"libraryId": 1, "key": format!("ATT{i:05}")},
                "itemType": "attachment",
                "title": format!("Attachment number {i} with a reasonably long title"),
                "parentRef": {"libraryId": 1, "key": format!("PAR{i:05}")},
                "filename": format!("paper-{i}.pdf"),
                "contentType": "application/pdf",
                "createdAt": "2024-05-01 10:00:00",
                "fileState": "available"
            })
        })
        .collect();
    json!({"selectionContext": {"items": items, "sampledAt": "2026-01-01T00:00:00.000Z"}})
}

fn main() {
    let root = fixtures();
    let module = Path::new("bench.mjs");
    report(
        "ready runtime (first call of a sandbox)",
        time(30, || {
            let mut sb = Sandbox::new(&root, SandboxOptions::default()).unwrap();
            let out = sb.call(module, "noop", &Value::Null);
            assert!(matches!(out.result, CallResult::Ok(_)));
        }),
    );
    let mut sb = Sandbox::new(&root, SandboxOptions::default()).unwrap();
    let arg = selection_of_about_10kb();
    println!(
        "selection argument: {} bytes of JSON",
        arg.to_string().len()
    );
    sb.call(module, "summarise", &arg);
    report(
        "warm call, ~10 KB in, small object out",
        time(2000, || {
            let out = sb.call(module, "summarise", &arg);
            assert!(matches!(out.result, CallResult::Ok(_)));
        }),
    );
}
