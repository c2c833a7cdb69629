//! `hookrun check` warns of the pre-v2 hook API only where it is code: the names in
//! the strings, comments, template text and regular expressions of
//! `fixtures/legacy-names/in-literals` pass without a warning, while the same hook
//! with one real use inside a template's `${}` (`in-code`) still warns of that use.

use crate::common;

use serde_json::Value;

use common::{fixture, hookrun_in_fixtures as hookrun, stdout_json};

/// The `legacy_hook_api` diagnostics of a `check --json` report, as
/// `(message, line, column)`.
fn legacy_warnings(report: &Value) -> Vec<(String, Value, Value)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["category"] == "legacy_hook_api")
        .map(|d| {
            let message = d["message"].as_str().unwrap().to_string();
            (message, d["line"].clone(), d["column"].clone())
        })
        .collect()
}

#[test]
fn legacy_names_in_literals_and_comments_do_not_warn() {
    let hook =
        std::fs::read_to_string(fixture("legacy-names/in-literals/hooks/applyResult.mjs")).unwrap();
    for name in [
        "runtime.helpers.",
        "Zotero.Items.get",
        "IOUtils.writeUTF8",
        "runtime.handlers.parent.addNote",
        "Services.prefs",
        ".getField(",
    ] {
        assert!(hook.contains(name), "the fixture no longer mentions {name}");
    }
    let clean = stdout_json(
        hookrun().args(["check", "legacy-names/in-literals", "--json"]),
        0,
    );
    assert_eq!(clean["workflows"][0]["ok"], true, "{clean}");
    assert_eq!(clean["diagnostics"], serde_json::json!([]), "{clean}");
    hookrun()
        .args(["check", "legacy-names/in-literals"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("0 warning(s)"));
}

#[test]
fn a_legacy_use_in_code_beside_them_still_warns() {
    let report = stdout_json(hookrun().args(["check", "legacy-names", "--json"]), 0);
    assert_eq!(report["workflows"].as_array().unwrap().len(), 2, "{report}");
    let warnings = legacy_warnings(&report);
    assert_eq!(
        warnings,
        [(
            "Zotero.Items.get is not provided by v2 hosts; use hostApi.library.getItemDetail(ref)"
                .to_string(),
            Value::from(21),
            Value::from(20),
        )],
        "{report}"
    );
    let path = report["diagnostics"][0]["path"].as_str().unwrap();
    assert!(path.ends_with("in-code/hooks/applyResult.mjs"), "{path}");
}
