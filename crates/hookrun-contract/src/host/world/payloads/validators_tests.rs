//! The artifact contracts, on the artifacts of the reference host's contract
//! tests (the References and Citation Analysis of its citation report test, the
//! score of its score contract test).

use serde_json::{Value, json};

use super::{
    Issue, check_citation, check_linkage, check_references, check_score, references_basis,
    stored_score,
};

/// The References artifact of the tests: two Source References.
pub(in crate::host::world) fn references() -> Value {
    serde_json::from_str(include_str!("testdata/references.json")).unwrap()
}

/// The Citation Analysis of the tests, citing both References.
pub(in crate::host::world) fn citation() -> Value {
    serde_json::from_str(include_str!("testdata/citation.json")).unwrap()
}

/// The Literature Score of the tests: six dimensions of one criterion each.
pub(in crate::host::world) fn score() -> Value {
    serde_json::from_str(include_str!("testdata/score.json")).unwrap()
}

/// The issue `code` at `path`.
fn at(path: &str, code: &'static str) -> Result<(), Issue> {
    Err(Issue {
        path: path.into(),
        code,
    })
}

#[test]
fn references_are_a_closed_shape_of_unique_opaque_ids() {
    assert_eq!(check_references(&references()), Ok(()));
    let mut aliased = references();
    aliased["references"][0]["author"] = json!(["Doe, Jane"]);
    assert_eq!(
        check_references(&aliased),
        at("/references/0/author", "schema_invalid")
    );
    let mut repeated = references();
    let first = repeated["references"][0].clone();
    repeated["references"].as_array_mut().unwrap().push(first);
    assert_eq!(
        check_references(&repeated),
        at(
            "/references/2/sourceReferenceId",
            "duplicate_source_reference_id"
        )
    );
    let cases = [
        ("/schema", json!("source_reference_artifact.v2")),
        ("/references/0/sourceReferenceId", json!("")),
        ("/references/0/bibliography/year", json!("2024")),
        ("/references/0/bibliography/numPages", json!(-1)),
        ("/references/0/extraction/confidence", json!(1.5)),
        ("/references/0/matching/doi", json!("10.1/x")),
    ];
    for (pointer, value) in cases {
        let mut bad = references();
        set(&mut bad, pointer, value);
        assert_eq!(
            check_references(&bad),
            at(pointer, "schema_invalid"),
            "{pointer}"
        );
    }
}

/// Sets the member `pointer` names (creating it in its object).
fn set(value: &mut Value, pointer: &str, member: Value) {
    let (parent, name) = pointer.rsplit_once('/').unwrap();
    value.pointer_mut(parent).unwrap()[name] = member;
}

#[test]
fn numbers_and_lengths_are_read_as_the_schema_validator_reads_them() {
    let mut loose = references();
    // An integral float is an integer; a long id of multi-byte characters
    // counts its characters.
    set(&mut loose, "/references/0/bibliography/year", json!(2024.0));
    set(
        &mut loose,
        "/references/1/sourceReferenceId",
        json!("é".repeat(512)),
    );
    assert_eq!(check_references(&loose), Ok(()));
    set(
        &mut loose,
        "/references/1/sourceReferenceId",
        json!("é".repeat(513)),
    );
    assert_eq!(
        check_references(&loose),
        at("/references/1/sourceReferenceId", "schema_invalid")
    );
    let mut huge = references();
    set(
        &mut huge,
        "/references/0/extraction/raw",
        json!("x".repeat(60_000)),
    );
    let many: Vec<Value> = (0..20)
        .map(|i| {
            let mut r = huge["references"][0].clone();
            r["sourceReferenceId"] = json!(format!("id-{i}"));
            r
        })
        .collect();
    huge["references"] = json!(many);
    assert_eq!(check_references(&huge), at("/", "resource_limited"));
}

#[test]
fn citation_analyses_are_closed_and_name_mentions_once() {
    assert_eq!(check_citation(&citation()), Ok(()));
    let mut projected = citation();
    projected["report_md"] = json!("derived report");
    assert_eq!(
        check_citation(&projected),
        at("/report_md", "schema_invalid")
    );
    let mut labelled = citation();
    labelled["items"][0]["citation_label"] = json!("[1]");
    assert_eq!(
        check_citation(&labelled),
        at("/items/0/citation_label", "schema_invalid")
    );
    let mut stored = citation();
    stored["referencesBasis"] = json!("sha256:references");
    assert_eq!(
        check_citation(&stored),
        at("/referencesBasis", "schema_invalid")
    );
    let mut repeated = citation();
    repeated["unresolved"][0]["mention_id"] = json!("mention-2");
    assert_eq!(
        check_citation(&repeated),
        at("/unresolved/0/mention_id", "duplicate_mention_id")
    );
    let mut twice = citation();
    twice["timeline"]["early"]["sourceReferenceIds"] = json!(["a", "a"]);
    assert_eq!(
        check_citation(&twice),
        at("/timeline/early/sourceReferenceIds", "schema_invalid")
    );
    let cases = [
        ("/meta/mapping_reliability", json!("high")),
        ("/items/0/function", json!("support")),
        ("/items/1/confidence", json!(-0.1)),
        ("/items/0/mentions/0/line_start", json!(-1)),
        ("/meta/reference_extraction/status", json!("done")),
        (
            "/meta/scope_decision/fallback_from",
            json!({"section_title": null}),
        ),
    ];
    for (pointer, value) in cases {
        let mut bad = citation();
        set(&mut bad, pointer, value);
        assert!(check_citation(&bad).is_err(), "{pointer}");
    }
    let mut nullable = citation();
    set(&mut nullable, "/items/0/function", Value::Null);
    set(
        &mut nullable,
        "/meta/scope_decision/fallback_from",
        json!({"section_title": null, "line_start": null, "line_end": 3}),
    );
    assert_eq!(check_citation(&nullable), Ok(()));
}

#[test]
fn a_citation_analysis_names_only_references_of_its_set() {
    assert_eq!(check_linkage(&citation(), &references()), Ok(()));
    let mut unknown = citation();
    unknown["items"][0]["sourceReferenceId"] = json!("missing-source-reference");
    assert_eq!(
        check_linkage(&unknown, &references()),
        at("/items/0/sourceReferenceId", "unknown_source_reference_id")
    );
    let mut timeline = citation();
    timeline["timeline"]["mid"]["sourceReferenceIds"] = json!(["gone"]);
    assert_eq!(
        check_linkage(&timeline, &references()),
        at(
            "/timeline/mid/sourceReferenceIds/0",
            "unknown_source_reference_id"
        )
    );
    let mut bad_references = references();
    bad_references["schema"] = json!("x");
    assert_eq!(
        check_linkage(&citation(), &bad_references),
        at("/references/schema", "schema_invalid")
    );
}

#[test]
fn scores_are_six_dimensions_of_criteria_with_evidence() {
    assert_eq!(check_score(&score()), Ok(()));
    assert_eq!(
        check_score(&json!({"literature_score": score()})),
        at("/schema", "schema_invalid")
    );
    let mut summary_only = score();
    summary_only["dimensions"][0]
        .as_object_mut()
        .unwrap()
        .remove("criteria");
    assert_eq!(
        check_score(&summary_only),
        at("/dimensions/0/criteria", "schema_invalid")
    );
    let cases = [
        ("/overall_score", json!(101)),
        ("/paper_type", json!("survey")),
        ("/dimensions/0/criteria/0/max_score", json!(0)),
        (
            "/dimensions/0/criteria/0/evidence/0/quote",
            json!("q".repeat(501)),
        ),
        ("/dimensions/0/criteria/0/evidence/0/line_start", json!(0)),
        ("/dimensions/5/raw_score", json!(1.5)),
    ];
    for (pointer, value) in cases {
        let mut bad = score();
        set(&mut bad, pointer, value);
        assert_eq!(
            check_score(&bad),
            at(pointer, "schema_invalid"),
            "{pointer}"
        );
    }
    let mut five = score();
    five["dimensions"].as_array_mut().unwrap().pop();
    assert_eq!(check_score(&five), at("/dimensions", "schema_invalid"));
}

#[test]
fn a_stored_score_may_be_wrapped_by_an_older_writer() {
    assert_eq!(stored_score(&score()), Some(score()));
    let wrapped = json!({"version": 1, "format": "json", "entry": "score.json",
        "literature_score": score()});
    assert_eq!(stored_score(&wrapped), Some(score()));
    let blank_entry = json!({"version": 1, "format": "json", "entry": " ",
        "literature_score": score()});
    assert_eq!(stored_score(&blank_entry), None);
    assert_eq!(stored_score(&json!({"overall_score": 70})), None);
}

#[test]
fn the_references_basis_is_the_digest_of_a_valid_references_artifact() {
    assert_eq!(
        references_basis(&references()),
        Some(super::super::super::dto::digest(&references()))
    );
    assert_eq!(references_basis(&json!({"references": []})), None);
}
