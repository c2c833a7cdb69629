//! The Literature Score contract (`literature_score.v1`).

use serde_json::Value;

use super::super::text::js_trim;
use super::{Checked, FILLED, FRACTION, FRACTION_OR_NULL, Rule, child, list, shaped, within_limit};

/// The `schema` of a Literature Score artifact.
const SCORE_SCHEMA: &str = "literature_score.v1";
/// A score from 0 to 100.
const PERCENT: Rule = Rule::Number {
    min: 0.0,
    max: 100.0,
    nullable: false,
};

/// One criterion of a score dimension, with the evidence lines it rests on.
fn score_criterion(value: &Value, path: &str) -> Checked {
    let status = Rule::OneOf(&["scored", "not_applicable"], false);
    let score = Rule::Integer {
        min: Some(0.0),
        nullable: true,
    };
    let max_score = Rule::Integer {
        min: Some(1.0),
        nullable: false,
    };
    let members = shaped(
        value,
        path,
        &[
            ("criterion_key", Some(FILLED)),
            ("name", Some(FILLED)),
            ("status", Some(status)),
            ("score", Some(score)),
            ("max_score", Some(max_score)),
            ("reason", Some(FILLED)),
            ("evidence", None),
        ],
        &[],
    )?;
    let line = Rule::Integer {
        min: Some(1.0),
        nullable: false,
    };
    let evidence = [
        ("line_start", Some(line)),
        ("line_end", Some(line)),
        ("quote", Some(Rule::Text(1, 500))),
    ];
    list(
        &members["evidence"],
        &child(path, "evidence"),
        (0, usize::MAX),
        |e, p| shaped(e, p, &evidence, &[]).map(|_| ()),
    )?;
    Ok(())
}

/// One of a score's six dimensions, with its criteria.
fn score_dimension(value: &Value, path: &str) -> Checked {
    let count = Rule::Integer {
        min: Some(0.0),
        nullable: false,
    };
    let score = Rule::Number {
        min: 0.0,
        max: 100.0,
        nullable: true,
    };
    let members = shaped(
        value,
        path,
        &[
            ("dimension_key", Some(FILLED)),
            ("name", Some(FILLED)),
            ("configured_weight", Some(FRACTION)),
            ("effective_weight", Some(FRACTION)),
            ("raw_score", Some(count)),
            ("applicable_max_score", Some(count)),
            ("score", Some(score)),
            ("confidence", Some(FRACTION_OR_NULL)),
            ("summary", Some(FILLED)),
            ("criteria", None),
        ],
        &[],
    )?;
    list(
        &members["criteria"],
        &child(path, "criteria"),
        (1, usize::MAX),
        score_criterion,
    )?;
    Ok(())
}

/// The paper types a score may name.
const PAPER_TYPES: &[&str] = &[
    "empirical",
    "review",
    "theoretical",
    "qualitative",
    "mixed_methods",
    "other",
];

/// Checks a Literature Score artifact (`literature_score.v1`).
pub(in crate::host::world) fn check_score(value: &Value) -> Checked {
    within_limit(value)?;
    let members = shaped(
        value,
        "",
        &[
            ("schema", Some(Rule::Exactly(SCORE_SCHEMA))),
            ("rubric_id", Some(FILLED)),
            ("paper_type", Some(Rule::OneOf(PAPER_TYPES, false))),
            ("paper_type_reason", Some(FILLED)),
            ("overall_score", Some(PERCENT)),
            ("confidence", Some(FRACTION)),
            ("confidence_adjusted_score", Some(PERCENT)),
            ("dimensions", None),
        ],
        &[],
    )?;
    list(
        &members["dimensions"],
        "/dimensions",
        (6, 6),
        score_dimension,
    )?;
    Ok(())
}

/// A stored Literature Score: the artifact, or the one an older writer wrapped
/// as `{version: 1, format: "json", entry, literature_score}`; `None` when it
/// does not satisfy its contract.
pub(in crate::host::world) fn stored_score(value: &Value) -> Option<Value> {
    let wrapped = value.as_object().filter(|members| {
        let mut keys: Vec<&str> = members.keys().map(String::as_str).collect();
        keys.sort_unstable();
        keys == ["entry", "format", "literature_score", "version"]
            && members["version"].as_f64() == Some(1.0)
            && members["format"] == "json"
            && members["entry"]
                .as_str()
                .is_some_and(|e| !js_trim(e).is_empty())
    });
    let score = wrapped.map_or(value, |members| &members["literature_score"]);
    check_score(score).ok().map(|()| score.clone())
}
