//! The Citation Analysis contract (`citation_analysis_artifact.v1`) and the
//! linkage of a citation analysis to the References it cites.

use std::collections::HashSet;

use serde_json::Value;

use super::{
    Checked, FRACTION_OR_NULL, LINE_OR_NULL, MANY, Member, OPAQUE_ID, Rule, TEXT, TEXT_OR_NULL,
    check_references, child, issue, list, schema_invalid, shaped, unique, within_limit,
};

/// The `schema` of a Citation Analysis artifact.
const CITATION_SCHEMA: &str = "citation_analysis_artifact.v1";

/// The scope a citation analysis covers: a section title and its lines.
const SCOPE: [Member; 3] = [
    ("section_title", Some(TEXT_OR_NULL)),
    ("line_start", Some(LINE_OR_NULL)),
    ("line_end", Some(LINE_OR_NULL)),
];

/// A citation analysis's `meta`: language, scope and how it was decided,
/// mapping reliability and how References were extracted.
fn citation_meta(value: &Value, path: &str) -> Checked {
    let members = shaped(
        value,
        path,
        &[
            ("language", Some(TEXT)),
            ("scope", None),
            ("scope_source", Some(TEXT_OR_NULL)),
            ("scope_decision", None),
            (
                "mapping_reliability",
                Some(Rule::OneOf(&["normal", "reduced"], false)),
            ),
            ("reference_extraction", None),
        ],
        &[],
    )?;
    shaped(&members["scope"], &child(path, "scope"), &SCOPE, &[])?;
    let decision_path = child(path, "scope_decision");
    let decision = shaped(
        &members["scope_decision"],
        &decision_path,
        &[
            ("selection_reason", Some(TEXT_OR_NULL)),
            ("covered_sections", Some(Rule::Texts(512))),
            ("fallback_from", None),
            ("fallback_reason", Some(TEXT_OR_NULL)),
        ],
        &[],
    )?;
    let fallback = &decision["fallback_from"];
    if !fallback.is_null() {
        shaped(
            fallback,
            &child(&decision_path, "fallback_from"),
            &SCOPE,
            &[],
        )?;
    }
    let status = Rule::OneOf(&["completed", "abandoned"], false);
    shaped(
        &members["reference_extraction"],
        &child(path, "reference_extraction"),
        &[("status", Some(status))],
        &[
            ("reason", Some(TEXT)),
            ("file_quality_low", Some(Rule::Boolean)),
            ("triggered_signals", Some(Rule::Texts(128))),
        ],
    )?;
    Ok(())
}

/// A citation analysis's `timeline`: early, mid and recent buckets, each a
/// summary and the distinct Source Reference ids it names.
fn citation_timeline(value: &Value, path: &str) -> Checked {
    let members = shaped(
        value,
        path,
        &[("early", None), ("mid", None), ("recent", None)],
        &[],
    )?;
    for bucket in ["early", "mid", "recent"] {
        let bucket_path = child(path, bucket);
        let entry = shaped(
            &members[bucket],
            &bucket_path,
            &[("summary", Some(TEXT)), ("sourceReferenceIds", None)],
            &[],
        )?;
        let ids_path = child(&bucket_path, "sourceReferenceIds");
        let ids = list(
            &entry["sourceReferenceIds"],
            &ids_path,
            (0, MANY),
            |id, p| {
                if OPAQUE_ID.holds(id) {
                    Ok(())
                } else {
                    Err(schema_invalid(p))
                }
            },
        )?;
        let texts: Vec<&str> = ids.iter().filter_map(Value::as_str).collect();
        if texts.iter().collect::<HashSet<_>>().len() != texts.len() {
            return Err(schema_invalid(&ids_path));
        }
    }
    Ok(())
}

/// A citation mention: where and how a citation appears, and the hints that
/// tie it to a Source Reference.
const MENTION: [Member; 11] = [
    ("mention_id", Some(OPAQUE_ID)),
    ("marker", Some(TEXT_OR_NULL)),
    ("style", Some(TEXT_OR_NULL)),
    ("line_start", Some(LINE_OR_NULL)),
    ("line_end", Some(LINE_OR_NULL)),
    ("snippet", Some(TEXT_OR_NULL)),
    ("ref_number_hint", Some(LINE_OR_NULL)),
    (
        "year_hint",
        Some(Rule::Integer {
            min: None,
            nullable: true,
        }),
    ),
    ("surname_hint", Some(TEXT_OR_NULL)),
    ("citation_label_hint", Some(TEXT_OR_NULL)),
    ("citekey_hint", Some(TEXT_OR_NULL)),
];

/// A mention no Source Reference was mapped to: a [`MENTION`] and why.
const UNRESOLVED: [Member; 12] = {
    let mut all: [Member; 12] = [("reason", Some(TEXT_OR_NULL)); 12];
    let mut i = 0;
    while i < MENTION.len() {
        all[i] = MENTION[i];
        i += 1;
    }
    all
};

/// The functions a citation may serve.
const FUNCTIONS: &[&str] = &[
    "background",
    "baseline",
    "contrast",
    "component",
    "dataset",
    "tooling",
    "historical",
    "uncategorized",
];

/// One cited Source Reference of a citation analysis, with its mentions.
fn citation_item(value: &Value, path: &str) -> Checked {
    let members = shaped(
        value,
        path,
        &[
            ("sourceReferenceId", Some(OPAQUE_ID)),
            ("function", Some(Rule::OneOf(FUNCTIONS, true))),
            ("role_in_context", Some(TEXT_OR_NULL)),
            ("topic", Some(TEXT_OR_NULL)),
            ("usage", Some(TEXT_OR_NULL)),
            ("keywords", Some(Rule::Texts(256))),
            ("summary", Some(TEXT_OR_NULL)),
            ("key_reference_reason", Some(TEXT_OR_NULL)),
            ("confidence", Some(FRACTION_OR_NULL)),
            ("mentions", None),
        ],
        &[],
    )?;
    list(
        &members["mentions"],
        &child(path, "mentions"),
        (0, MANY),
        |m, p| shaped(m, p, &MENTION, &[]).map(|_| ()),
    )?;
    Ok(())
}

/// The entries of the list `value[key]`, numbered (none when it is no list).
fn entries<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = (usize, &'a Value)> {
    value[key].as_array().into_iter().flatten().enumerate()
}

/// The mention ids of a (schema-valid) citation analysis, with their pointers:
/// its items' mentions, then its unresolved mentions.
fn mention_ids(citation: &Value) -> Vec<(&str, String)> {
    let mut ids = Vec::new();
    for (i, item) in entries(citation, "items") {
        for (j, mention) in entries(item, "mentions") {
            let id = mention["mention_id"].as_str().unwrap_or_default();
            ids.push((id, format!("/items/{i}/mentions/{j}/mention_id")));
        }
    }
    for (i, mention) in entries(citation, "unresolved") {
        let id = mention["mention_id"].as_str().unwrap_or_default();
        ids.push((id, format!("/unresolved/{i}/mention_id")));
    }
    ids
}

/// Checks a Citation Analysis artifact (`citation_analysis_artifact.v1`, without
/// the `referencesBasis` a stored one carries).
pub(in crate::host::world) fn check_citation(value: &Value) -> Checked {
    within_limit(value)?;
    let members = shaped(
        value,
        "",
        &[
            ("schema", Some(Rule::Exactly(CITATION_SCHEMA))),
            ("meta", None),
            ("summary", Some(TEXT)),
            ("timeline", None),
            ("items", None),
            ("unresolved", None),
        ],
        &[],
    )?;
    citation_meta(&members["meta"], "/meta")?;
    citation_timeline(&members["timeline"], "/timeline")?;
    list(&members["items"], "/items", (0, MANY), citation_item)?;
    list(&members["unresolved"], "/unresolved", (0, MANY), |m, p| {
        shaped(m, p, &UNRESOLVED, &[]).map(|_| ())
    })?;
    unique(mention_ids(value).into_iter(), "duplicate_mention_id")
}

/// Checks `citation` against the complete `references` it cites: both valid,
/// and every Source Reference id its items and timeline name one of theirs.
pub(in crate::host::world) fn check_linkage(citation: &Value, references: &Value) -> Checked {
    check_citation(citation)?;
    check_references(references).map_err(|i| {
        let path = if i.path == "/" { "" } else { i.path.as_str() };
        issue(&format!("/references{path}"), i.code)
    })?;
    let known: HashSet<&str> = references["references"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["sourceReferenceId"].as_str())
        .collect();
    let unknown = |id: &Value, path: String| match id.as_str() {
        Some(id) if known.contains(id) => Ok(()),
        _ => Err(issue(&path, "unknown_source_reference_id")),
    };
    for (i, item) in entries(citation, "items") {
        unknown(
            &item["sourceReferenceId"],
            format!("/items/{i}/sourceReferenceId"),
        )?;
    }
    for bucket in ["early", "mid", "recent"] {
        for (i, id) in entries(&citation["timeline"][bucket], "sourceReferenceIds") {
            unknown(id, format!("/timeline/{bucket}/sourceReferenceIds/{i}"))?;
        }
    }
    Ok(())
}
