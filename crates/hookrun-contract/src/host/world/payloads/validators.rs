//! The contracts of the artifacts literature notes hold, as the reference host
//! checks them: `source_reference_artifact.v1` (References),
//! `citation_analysis_artifact.v1` (Citation Analysis) and `literature_score.v1`
//! (Literature Score). Each is a closed JSON shape (the checks its JSON schema
//! expresses) within the Broker's 1 MiB, plus the identity rules beside the
//! schemas: Source Reference ids and mention ids unique within an artifact, and a
//! citation analysis naming only References of the set it is checked against.

use std::collections::HashSet;

use serde_json::{Map, Value};

mod citation;
mod score;

pub(in crate::host::world) use citation::{check_citation, check_linkage};
pub(in crate::host::world) use score::{check_score, stored_score};

use super::super::dto::digest;
use super::codec::MAX_PAYLOAD_BYTES;
use super::text::json_bytes;

/// The `schema` of a References artifact.
const REFERENCES_SCHEMA: &str = "source_reference_artifact.v1";
/// Most characters of an artifact's strings.
const STRING: usize = 65_536;
/// Most characters of an opaque id.
const OPAQUE: usize = 512;
/// Most entries of an artifact's long lists.
const MANY: usize = 25_000;

/// Why an artifact fails its contract: where, and the reference's issue code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::host::world) struct Issue {
    /// A JSON pointer into the artifact (`/` for the whole of it).
    pub(in crate::host::world) path: String,
    /// `schema_invalid`, `resource_limited`, `duplicate_source_reference_id`,
    /// `duplicate_mention_id` or `unknown_source_reference_id`.
    pub(in crate::host::world) code: &'static str,
}

/// A check's outcome.
type Checked<T = ()> = Result<T, Issue>;

/// The issue `code` at `path`.
fn issue(path: &str, code: &'static str) -> Issue {
    let path = if path.is_empty() { "/" } else { path };
    Issue {
        path: path.to_owned(),
        code,
    }
}

/// A value its schema refuses at `path`.
fn schema_invalid(path: &str) -> Issue {
    issue(path, "schema_invalid")
}

/// The pointer of member `name` of the value at `path`.
fn child(path: &str, name: impl std::fmt::Display) -> String {
    format!("{path}/{name}")
}

/// What a scalar member of an artifact must be.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// A string of `.0` to `.1` characters.
    Text(usize, usize),
    /// A string of at most `.0` characters, or `null`.
    TextOrNull(usize),
    /// An integer of at least `min`, or `null` when `nullable`.
    Integer { min: Option<f64>, nullable: bool },
    /// A number within `[min, max]`, or `null` when `nullable`.
    Number { min: f64, max: f64, nullable: bool },
    /// `true` or `false`.
    Boolean,
    /// One of the strings, or `null` when `.1`.
    OneOf(&'static [&'static str], bool),
    /// Exactly this string.
    Exactly(&'static str),
    /// A list of at most `.0` strings of at most [`STRING`] characters.
    Texts(usize),
}

/// A string of at most [`STRING`] characters.
const TEXT: Rule = Rule::Text(0, STRING);
/// A non-empty string without a length bound.
const FILLED: Rule = Rule::Text(1, usize::MAX);
/// A string of at most [`STRING`] characters, or `null`.
const TEXT_OR_NULL: Rule = Rule::TextOrNull(STRING);
/// An opaque id: 1 to [`OPAQUE`] characters.
const OPAQUE_ID: Rule = Rule::Text(1, OPAQUE);
/// A line number of at least 0, or `null`.
const LINE_OR_NULL: Rule = Rule::Integer {
    min: Some(0.0),
    nullable: true,
};
/// A fraction from 0 to 1.
const FRACTION: Rule = Rule::Number {
    min: 0.0,
    max: 1.0,
    nullable: false,
};
/// A fraction from 0 to 1, or `null`.
const FRACTION_OR_NULL: Rule = Rule::Number {
    min: 0.0,
    max: 1.0,
    nullable: true,
};

/// Whether `text` has `min` to `max` characters (code points, as the schema
/// validator counts them).
fn within(text: &str, min: usize, max: usize) -> bool {
    let count = text.chars().count();
    min <= count && count <= max
}

/// Whether `value` is an integer of at least `min`.
fn integer(value: &serde_json::Number, min: Option<f64>) -> bool {
    value
        .as_f64()
        .is_some_and(|x| x.fract() == 0.0 && min.is_none_or(|m| x >= m))
}

impl Rule {
    /// Whether `value` satisfies the rule.
    fn holds(self, value: &Value) -> bool {
        match (self, value) {
            (
                Rule::TextOrNull(_)
                | Rule::Integer { nullable: true, .. }
                | Rule::Number { nullable: true, .. }
                | Rule::OneOf(_, true),
                Value::Null,
            ) => true,
            (Rule::Text(min, max), Value::String(s)) => within(s, min, max),
            (Rule::TextOrNull(max), Value::String(s)) => within(s, 0, max),
            (Rule::Integer { min, .. }, Value::Number(n)) => integer(n, min),
            (Rule::Number { min, max, .. }, Value::Number(n)) => {
                n.as_f64().is_some_and(|x| min <= x && x <= max)
            }
            (Rule::Boolean, Value::Bool(_)) => true,
            (Rule::OneOf(options, _), Value::String(s)) => options.contains(&s.as_str()),
            (Rule::Exactly(expected), Value::String(s)) => s == expected,
            (Rule::Texts(max), Value::Array(items)) => {
                items.len() <= max
                    && items
                        .iter()
                        .all(|i| i.as_str().is_some_and(|s| within(s, 0, STRING)))
            }
            _ => false,
        }
    }
}

/// A member of an object's schema: its name and rule (`None`: the caller
/// checks what it holds).
type Member = (&'static str, Option<Rule>);

/// The object at `path` with every `required` member and no member its schema
/// does not name, each member satisfying its rule.
fn shaped<'a>(
    value: &'a Value,
    path: &str,
    required: &[Member],
    optional: &[Member],
) -> Checked<&'a Map<String, Value>> {
    let members = value.as_object().ok_or_else(|| schema_invalid(path))?;
    for (name, rule) in required {
        let member = members
            .get(*name)
            .ok_or_else(|| schema_invalid(&child(path, name)))?;
        if rule.is_some_and(|r| !r.holds(member)) {
            return Err(schema_invalid(&child(path, name)));
        }
    }
    for (name, rule) in optional {
        if let (Some(member), Some(rule)) = (members.get(*name), rule)
            && !rule.holds(member)
        {
            return Err(schema_invalid(&child(path, name)));
        }
    }
    let named = |key: &str| required.iter().chain(optional).any(|(n, _)| *n == key);
    match members.keys().find(|k| !named(k)) {
        Some(extra) => Err(schema_invalid(&child(path, extra))),
        None => Ok(members),
    }
}

/// The list at `path`, of `min` to `max` entries, each satisfying `check`.
fn list<'a>(
    value: &'a Value,
    path: &str,
    (min, max): (usize, usize),
    check: impl Fn(&'a Value, &str) -> Checked,
) -> Checked<&'a [Value]> {
    let items = value
        .as_array()
        .filter(|items| min <= items.len() && items.len() <= max)
        .ok_or_else(|| schema_invalid(path))?;
    for (i, item) in items.iter().enumerate() {
        check(item, &child(path, i))?;
    }
    Ok(items)
}

/// The Broker's size bound: the artifact's JSON within 1 MiB.
fn within_limit(value: &Value) -> Checked {
    if json_bytes(value) > MAX_PAYLOAD_BYTES {
        return Err(issue("/", "resource_limited"));
    }
    Ok(())
}

/// Whether `ids` (with the pointer of each) repeat one: the first repeat's issue.
fn unique<'a>(ids: impl Iterator<Item = (&'a str, String)>, code: &'static str) -> Checked {
    let mut seen = HashSet::new();
    for (id, path) in ids {
        if !seen.insert(id) {
            return Err(issue(&path, code));
        }
    }
    Ok(())
}

/// The members of a Source Reference's bibliography besides the required ones.
const BIBLIOGRAPHY_OPTIONAL: [Member; 12] = [
    ("publicationTitle", Some(TEXT)),
    ("conferenceName", Some(TEXT)),
    ("university", Some(TEXT)),
    ("archiveID", Some(TEXT)),
    ("volume", Some(TEXT)),
    ("issue", Some(TEXT)),
    ("pages", Some(TEXT)),
    ("place", Some(TEXT)),
    (
        "numPages",
        Some(Rule::Integer {
            min: Some(0.0),
            nullable: false,
        }),
    ),
    ("publisher", Some(TEXT)),
    ("itemType", Some(TEXT)),
    ("date", Some(TEXT)),
];

/// One Source Reference: its opaque id, extraction (or `null`), bibliography
/// and matching facts.
fn source_reference(value: &Value, path: &str) -> Checked {
    let members = shaped(
        value,
        path,
        &[
            ("sourceReferenceId", Some(OPAQUE_ID)),
            ("extraction", None),
            ("bibliography", None),
            ("matching", None),
        ],
        &[],
    )?;
    let extraction = &members["extraction"];
    if !extraction.is_null() {
        let raw = ("raw", Some(TEXT));
        let confidence = ("confidence", Some(FRACTION_OR_NULL));
        shaped(
            extraction,
            &child(path, "extraction"),
            &[raw, confidence],
            &[],
        )?;
    }
    let year = Rule::Integer {
        min: None,
        nullable: true,
    };
    shaped(
        &members["bibliography"],
        &child(path, "bibliography"),
        &[
            ("title", Some(TEXT)),
            ("authors", Some(Rule::Texts(512))),
            ("year", Some(year)),
        ],
        &BIBLIOGRAPHY_OPTIONAL,
    )?;
    let matching = ["DOI", "url", "ISBN", "ISSN", "citekey"].map(|k| (k, Some(TEXT)));
    shaped(
        &members["matching"],
        &child(path, "matching"),
        &[],
        &matching,
    )?;
    Ok(())
}

/// Checks a References artifact (`source_reference_artifact.v1`).
pub(in crate::host::world) fn check_references(value: &Value) -> Checked {
    within_limit(value)?;
    let members = shaped(
        value,
        "",
        &[
            ("schema", Some(Rule::Exactly(REFERENCES_SCHEMA))),
            ("references", None),
        ],
        &[],
    )?;
    let references = list(
        &members["references"],
        "/references",
        (0, MANY),
        source_reference,
    )?;
    unique(
        references.iter().enumerate().map(|(i, r)| {
            let id = r["sourceReferenceId"].as_str().unwrap_or_default();
            (id, format!("/references/{i}/sourceReferenceId"))
        }),
        "duplicate_source_reference_id",
    )
}

/// The References basis `references` gives: the canonical digest of the value
/// when it satisfies its contract.
pub(in crate::host::world) fn references_basis(references: &Value) -> Option<String> {
    check_references(references)
        .ok()
        .map(|()| digest(references))
}

#[cfg(test)]
#[path = "validators_tests.rs"]
pub(in crate::host::world) mod tests;
