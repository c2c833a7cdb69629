//! Planner throughput: plans N attachments (1k, 10k, 100k) in both selection shapes
//! and prints the median time, to show that planning is linear in the input size.
//!
//! Run with `cargo bench --bench plan`.

use std::time::{Duration, Instant};

use hookrun::host::world::HostWorld;
use hookrun::manifest::model::PlanningSpec;
use hookrun::plan::{Mode, plan};
use hookrun::selection::SelectionContext;
use serde_json::{Map, Value, json};

/// A named selection builder with the spec it is planned against.
type Case = (&'static str, fn(usize) -> SelectionContext, PlanningSpec);

const SAMPLED_AT: &str = "2026-03-01T09:00:00.000Z";

/// `n` selected attachments spread over `n / 10` parents, every other one a PDF.
fn canonical(n: usize) -> SelectionContext {
    let items: Vec<Value> = (0..n)
        .map(|i| {
            let (name, mime) = if i % 2 == 0 {
                ("paper.pdf", "application/pdf")
            } else {
                ("notes.md", "text/plain")
            };
            json!({"kind": "attachment", "ref": {"libraryId": 1, "key": format!("A{i:07}")},
                   "itemType": "attachment", "title": format!("Attachment {i}"),
                   "parentRef": {"libraryId": 1, "key": format!("P{:07}", i / 10)},
                   "filename": name, "contentType": mime, "fileState": "available"})
        })
        .collect();
    SelectionContext::from_value(&json!({"items": items, "sampledAt": SAMPLED_AT})).expect("valid")
}

/// One selected parent with `n` nested attachments.
fn grouped(n: usize) -> SelectionContext {
    let parent = json!({"id": 1, "key": "PARENT01", "itemType": "book", "title": "Big Book",
                        "libraryID": 1, "parentItemID": null, "data": null});
    let attachments: Vec<Value> = (0..n)
        .map(|i| {
            let name = if i % 2 == 0 { "paper.pdf" } else { "notes.md" };
            let path = format!("attachments/A{i:07}/{name}");
            json!({"item": {"id": i + 2, "key": format!("A{i:07}"), "itemType": "attachment",
                            "title": format!("Attachment {i}"), "libraryID": 1, "parentItemID": 1,
                            "data": {"path": path, "dateAdded": "2026-01-01T00:00:00Z"}},
                   "parent": parent, "filePath": path, "mimeType": null})
        })
        .collect();
    SelectionContext::from_value(&json!({
        "selectionType": "parent",
        "items": {"parents": [{"item": parent, "attachments": attachments, "notes": [], "tags": [],
                               "collections": [], "children": []}],
                  "children": [], "attachments": [], "notes": []},
        "warnings": [], "sampledAt": SAMPLED_AT}))
    .expect("valid")
}

fn spec(source: &str, grouping: &str) -> PlanningSpec {
    serde_json::from_value(json!({
        "id": "bench", "label": "Bench", "trigger": {"requiresSelection": true},
        "inputs": {"member": {"kind": "attachment", "accepts": {"mime": ["application/pdf"]}},
                   "grouping": {"mode": grouping}},
        "validateSelection": {"select": {"policy": "input-member", "source": source},
            "filters": [{"kind": "candidates-per-parent", "phase": "availability", "counts": {"min": 1}}]}
    }))
    .expect("valid spec")
}

/// Median wall time of planning `selection` `runs` times.
fn median(spec: &PlanningSpec, selection: &SelectionContext, runs: usize) -> (Duration, usize) {
    let world = HostWorld::from_selection(selection);
    let params = Map::new();
    let mut times = Vec::with_capacity(runs);
    let mut units = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let p = plan(spec, selection, Mode::Execute, &params, &world).expect("plans");
        times.push(start.elapsed());
        units = p.units.len();
    }
    times.sort();
    (times[runs / 2], units)
}

fn main() {
    let cases: [Case; 2] = [
        (
            "canonical, selected, parent grouping",
            canonical,
            spec("selected", "parent"),
        ),
        ("grouped, related, each", grouped, spec("related", "each")),
    ];
    for (name, build, spec) in &cases {
        for n in [1_000, 10_000, 100_000] {
            let selection = build(n);
            let runs = if n >= 100_000 { 3 } else { 7 };
            let (time, units) = median(spec, &selection, runs);
            let per_item = time.as_nanos() as f64 / n as f64 / 1000.0;
            println!(
                "{name:<40} n={n:>7}  units={units:>6}  median={time:>10.2?}  {per_item:.2} µs/attachment"
            );
        }
    }
}
