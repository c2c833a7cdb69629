//! Planner tests over the fixtures in `fixtures/selections` and `fixtures/files`.

mod citation_health;
mod example;
mod filters;
mod grouping;
mod pipeline;
mod selectors;

use serde_json::{Map, Value, json};

use super::{Mode, Plan, plan};
use crate::host::world::HostWorld;
use crate::manifest::model::PlanningSpec;
use crate::selection::SelectionContext;

/// The fixtures directory.
pub(super) const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures");

/// Loads `fixtures/selections/<name>.json` as JSON.
pub(super) fn fixture_json(name: &str) -> Value {
    let path = format!("{FIXTURES}/selections/{name}.json");
    let text = std::fs::read_to_string(&path).expect("fixture exists");
    serde_json::from_str(&text).expect("fixture is JSON")
}

/// Loads a selection fixture.
pub(super) fn selection(name: &str) -> SelectionContext {
    SelectionContext::from_value(&fixture_json(name)).expect("fixture parses")
}

/// The host world of `selection` with the fixture library and files.
pub(super) fn world(selection: &SelectionContext) -> HostWorld {
    HostWorld::from_selection(selection)
        .with_library(&fixture_json("library-cats-and-dogs"))
        .expect("library parses")
        .with_files_dir(format!("{FIXTURES}/files"))
}

/// Deep-merges `patch` into `base`.
fn merge(base: &mut Value, patch: Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                merge(b.entry(k).or_insert(Value::Null), v);
            }
        }
        (b, p) => *b = p,
    }
}

/// A planning spec: attachment members, `each` grouping, `input-member`/`selected`,
/// no filters, with `patch` merged in.
pub(super) fn spec(patch: Value) -> PlanningSpec {
    let mut base = json!({
        "id": "wf-test", "label": "Test Workflow",
        "trigger": {"requiresSelection": true},
        "inputs": {"member": {"kind": "attachment"}, "grouping": {"mode": "each"}},
        "validateSelection": {"select": {"policy": "input-member", "source": "selected"},
                              "filters": []}
    });
    merge(&mut base, patch);
    serde_json::from_value(base).expect("valid spec")
}

/// Plans `selection` with the fixture world.
pub(super) fn run_mode(spec: &PlanningSpec, selection: &SelectionContext, mode: Mode) -> Plan {
    plan(spec, selection, mode, &Map::new(), &world(selection)).expect("plans")
}

/// Plans in `execute` mode.
pub(super) fn run(spec: &PlanningSpec, selection: &SelectionContext) -> Plan {
    run_mode(spec, selection, Mode::Execute)
}

/// Candidate identities.
pub(super) fn ids(plan: &Plan) -> Vec<&str> {
    plan.candidates
        .iter()
        .map(|c| c.identity.as_ref())
        .collect()
}

/// `(identity, reason)` of every skip.
pub(super) fn skips(plan: &Plan) -> Vec<(&str, &str)> {
    plan.skipped
        .iter()
        .map(|s| (s.identity.as_ref(), s.reason.as_str()))
        .collect()
}

/// `(taskName, inputUnitIdentity)` of every unit.
pub(super) fn units(plan: &Plan) -> Vec<(&str, &str)> {
    plan.units
        .iter()
        .map(|u| (&*u.task_name, &*u.input_unit_identity))
        .collect()
}

/// The plan's JSON.
pub(super) fn plan_json(plan: &Plan) -> Value {
    serde_json::to_value(plan).expect("serialises")
}
