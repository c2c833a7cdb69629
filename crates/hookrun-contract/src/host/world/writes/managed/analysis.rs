//! The request of `literatureArtifacts.applyAnalysis`, checked as the
//! reference host's managed-note owner checks it before anything is read
//! (`assertLiteratureArtifactApplyAnalysisRequest`): its members, the digest's,
//! the References, Citation Analysis and Literature Score against their
//! contracts, and at least one of them.

use serde_json::{Value, json};

use super::super::super::payloads::{check_citation, check_references, check_score};
use crate::host::HostError;
use crate::host::js_value::js_trim;

/// The members `literatureArtifacts.applyAnalysis` takes.
const ANALYSIS_FIELDS: &[&str] = &[
    "operationId",
    "parentRef",
    "digest",
    "references",
    "citationAnalysis",
    "compactCitationSnippets",
    "score",
    "matchingMetadata",
];

/// The owner's refusal of an analysis write: `invalid_request` "`message`" on
/// `field` for `reason`.
fn refusal(message: &str, reason: &str, field: &str) -> HostError {
    HostError::workflow(
        "invalid_request",
        message,
        json!({"reason": reason, "field": field}),
    )
}

/// Refuses a member of an analysis write the reference host does not take.
pub(super) fn refuse_unknown_fields(op: &str, request: &Value) -> Result<(), HostError> {
    let extra = request
        .as_object()
        .and_then(|o| o.keys().find(|k| !ANALYSIS_FIELDS.contains(&k.as_str())));
    match extra {
        Some(extra) => Err(refusal(
            &format!("{op} contains an unknown field"),
            "unsupported_value",
            &format!("{op}.{extra}"),
        )),
        None => Ok(()),
    }
}

/// The digest's markdown: the `digest` must be an object of `markdown`,
/// `sourceRef` and `representativeImage`, its markdown a non-blank string.
fn digest_markdown(digest: &Value) -> Result<&Value, HostError> {
    let Some(members) = digest.as_object() else {
        return Err(refusal(
            "digest must be an object",
            "invalid_type",
            "digest",
        ));
    };
    let allowed = ["markdown", "sourceRef", "representativeImage"];
    if let Some(extra) = members.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(refusal(
            "digest contains an unknown field",
            "unsupported_value",
            &format!("digest.{extra}"),
        ));
    }
    match members.get("markdown") {
        Some(markdown @ Value::String(text)) if !js_trim(text).is_empty() => Ok(markdown),
        _ => Err(refusal(
            "digest.markdown is invalid",
            "invalid_value",
            "digest.markdown",
        )),
    }
}

/// The artifacts of an analysis write, each with its note kind, member, the
/// owner's message on failing its contract, and its check.
type ArtifactCheck = fn(&Value) -> Result<(), super::super::super::payloads::Issue>;

/// The References, Citation Analysis and Literature Score an analysis write
/// may give, in the owner's order.
const ARTIFACT_PARTS: [(&str, &str, &str, ArtifactCheck); 3] = [
    (
        "references",
        "references",
        "references artifact is invalid",
        check_references,
    ),
    (
        "citation-analysis",
        "citationAnalysis",
        "citation analysis artifact is invalid",
        check_citation,
    ),
    (
        "literature-score",
        "score",
        "literature score artifact is invalid",
        check_score,
    ),
];

/// The managed notes an analysis write gives, as (note kind, value), in the
/// reference host's order, each given artifact satisfying its contract; at
/// least one.
pub(super) fn analysis_parts(request: &Value) -> Result<Vec<(&'static str, Value)>, HostError> {
    if request
        .get("compactCitationSnippets")
        .is_some_and(|c| *c != Value::Bool(true))
    {
        return Err(refusal(
            "compactCitationSnippets is invalid",
            "invalid_value",
            "compactCitationSnippets",
        ));
    }
    let mut parts = Vec::new();
    if let Some(digest) = request.get("digest") {
        parts.push(("digest", json!({"markdown": digest_markdown(digest)?})));
    }
    for (kind, field, message, check) in ARTIFACT_PARTS {
        if let Some(value) = request.get(field) {
            check(value).map_err(|_| refusal(message, "invalid_schema", field))?;
            parts.push((kind, value.clone()));
        }
    }
    if request
        .get("matchingMetadata")
        .is_some_and(|m| !m.is_object())
    {
        return Err(refusal(
            "matchingMetadata must be an object",
            "invalid_type",
            "matchingMetadata",
        ));
    }
    if parts.is_empty() {
        return Err(refusal(
            "literature artifact request has no semantic entries",
            "missing_field",
            "digest|references|citationAnalysis|score",
        ));
    }
    Ok(parts)
}
