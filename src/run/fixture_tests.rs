//! Reading case files: members, references, results and the case schema.

use super::results::RESULT_MEMBERS;
use super::*;
use crate::run::results::{JobRequest, ResultSource};

/// The editor schema of cases (`schema/case.schema.json`) names what the
/// reader accepts: its members, the members of a result, the expectation
/// keys, the planning and invocation modes, and the Host API members
/// `hostAnswers` may answer.
#[test]
fn the_case_schema_lists_what_the_reader_accepts() {
    let schema: Value =
        serde_json::from_str(include_str!("../../schema/case.schema.json")).unwrap();
    let keys = |at: &str| -> Vec<String> {
        let mut keys: Vec<String> = schema
            .pointer(at)
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("{at}"))
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    };
    let sorted = |list: &[&str]| {
        let mut list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        list.sort();
        list
    };
    assert_eq!(keys("/properties"), sorted(MEMBERS));
    assert_eq!(keys("/$defs/result/properties"), sorted(RESULT_MEMBERS));
    assert_eq!(
        keys("/properties/expect/properties"),
        sorted(crate::run::expect::KEYS)
    );
    let modes: Vec<Mode> =
        serde_json::from_value(schema["properties"]["mode"]["enum"].clone()).unwrap();
    assert_eq!(modes.len(), 3);
    let mut answered: Vec<&str> = hookrun_contract::host::api::host_api()
        .members()
        .filter(|(_, m)| {
            matches!(
                m.answer,
                hookrun_contract::host::api::Answer::Fixture
                    | hookrun_contract::host::api::Answer::Person
            )
        })
        .map(|(name, _)| name)
        .collect();
    answered.sort();
    assert_eq!(
        schema["properties"]["hostAnswers"]["propertyNames"]["enum"],
        serde_json::json!(answered)
    );
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn references_resolve_relative_to_the_case_with_pointers() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "other.json",
        r#"{"selection": {"items": [], "sampledAt": "x"}}"#,
    );
    let case = write(
        dir.path(),
        "case.json",
        r#"{"selection": "other.json#/selection", "results": {"unit-1": {"error": "boom"}, "*": {"resultJson": 1}}}"#,
    );
    let case = Case::load(&case).unwrap();
    let Some(CaseSelection::Json(selection)) = &case.selection else {
        panic!("a case file's selection is its JSON");
    };
    assert_eq!(selection["sampledAt"], "x");
    let mut source = case.result_source();
    let job = |unit: &str| JobRequest {
        index: 0,
        unit_id: unit.into(),
        subunit_id: "main".into(),
        request: Value::Null,
    };
    assert!(matches!(
        source.result(&job("unit-1")),
        ProviderResult::Failed { .. }
    ));
    assert!(matches!(
        source.result(&job("unit-9")),
        ProviderResult::Succeeded { .. }
    ));
}

#[test]
fn taking_the_input_gives_the_same_input_and_lets_the_selection_go() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "case.json",
        r#"{"selection": {"items": [{"kind": "parent", "ref": {"libraryId": 1, "key": "P1"},
            "itemType": "book", "title": "T"}], "sampledAt": "x"}}"#,
    );
    let mut case = Case::load(&path).unwrap();
    let kept = case.input(None).unwrap();
    let taken = case.take_input(None).unwrap();
    assert_eq!(taken.selection, kept.selection);
    assert_eq!(taken.settings, kept.settings);
    assert!(case.selection.is_none());
    let again = case.take_input(None).err().unwrap();
    assert_eq!(again.pointer, "/selection");
}

#[test]
fn errors_name_the_file_and_pointer() {
    let dir = tempfile::tempdir().unwrap();
    let case = write(
        dir.path(),
        "case.json",
        r#"{"results": {"unit-1": {"bundle": "missing.zip"}}}"#,
    );
    let e = Case::load(&case).unwrap_err();
    assert_eq!(e.pointer, "/results/unit-1");
    assert!(e.message.contains("missing.zip"), "{e}");
    let case = write(dir.path(), "bad.json", r#"{"selecton": {}}"#);
    assert_eq!(Case::load(&case).unwrap_err().pointer, "/selecton");
    let case = write(dir.path(), "trunc.json", r#"{"selection": "#);
    assert!(Case::load(&case).unwrap_err().message.contains("line 1"));
}

/// `identifiers` and `hostAnswers` resolve `file.json#/pointer` as other members do.
#[test]
fn identifiers_and_host_answers_may_point_into_another_file() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "answers.json",
        r#"{"answers": {"resources.get": [{"args": ["r1"], "answer": {"id": "r1"}}]},
            "ids": {"doi:10.1/x": {"outcome": "matched"}}}"#,
    );
    let case = write(
        dir.path(),
        "case.json",
        r#"{"hostAnswers": "answers.json#/answers", "identifiers": "answers.json#/ids"}"#,
    );
    let case = Case::load(&case).unwrap();
    let found = case
        .answers
        .find("resources.get", &serde_json::json!(["r1"]));
    assert_eq!(
        found.map(|a| a.reply.clone()),
        Some(Ok(serde_json::json!({"id": "r1"})))
    );
    assert_eq!(
        Value::Object(case.answers.identifiers.clone()),
        serde_json::json!({"doi:10.1/x": {"outcome": "matched"}})
    );
    let bad = write(
        dir.path(),
        "bad.json",
        r#"{"hostAnswers": "answers.json#/ids"}"#,
    );
    let e = Case::load(&bad).unwrap_err();
    assert_eq!(e.pointer, "/hostAnswers/doi:10.1~1x");
    let missing = write(dir.path(), "gone.json", r#"{"identifiers": "nope.json"}"#);
    assert_eq!(Case::load(&missing).unwrap_err().pointer, "/identifiers");
}

/// A member only a case has makes a case; `$schema` alone does not.
#[test]
fn a_case_is_told_by_a_member_only_a_case_has() {
    let has = |names: &[&str]| Case::has_case_members(names.iter().copied());
    assert!(has(&["selection"]));
    assert!(has(&["$schema", "expect"]));
    assert!(has(&["description", "selecton"]));
    assert!(!has(&["items", "collections"]));
    assert!(!has(&["$schema"]));
    assert!(!has(&[]));
}
