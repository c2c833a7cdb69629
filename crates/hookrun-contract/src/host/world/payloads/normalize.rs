//! The value a managed note keeps, read from its payload block as the reference
//! host's managed-note owner reads it (`normalizePayload`): the markdown of a
//! custom, conversation or digest note, and the artifact of a References,
//! Citation Analysis or Literature Score note once it satisfies its contract.

use serde_json::{Value, json};

use super::codec::{Block, Format};
use super::inspect::InspectError;
use super::text::js_trim;
use super::validators::{check_citation, check_references, stored_score};

/// A managed note of `kind` in the first storage version.
pub(super) fn legacy_storage(kind: &str) -> InspectError {
    InspectError::owner(
        "legacy_artifact_requires_migration",
        "managed note uses a legacy payload storage version",
        json!({"managedType": kind, "noteKind": kind}),
    )
}

/// The value a managed note of `kind` keeps, from its `block`: `{title,
/// markdown}` of a custom or conversation note, `{markdown}` of a digest, the
/// artifact of the others (a citation analysis with its `referencesBasis` last,
/// a score unwrapped from an older writer's wrapper).
pub(in crate::host::world) fn normalize(
    kind: &str,
    block: &Block,
    title: &str,
) -> Result<Value, InspectError> {
    if block.storage_version == Some(1) {
        return Err(legacy_storage(kind));
    }
    let payload = match &block.payload {
        Some(payload) if block.errors.is_empty() => payload.clone(),
        _ => {
            return Err(InspectError::invalid(
                kind,
                "managed note payload is unreadable",
            ));
        }
    };
    let filled = |s: &str| !js_trim(s).is_empty();
    match (kind, &payload) {
        ("custom", Value::String(markdown)) if filled(markdown) => {
            Ok(json!({"title": title, "markdown": markdown}))
        }
        ("custom", _) => Err(InspectError::invalid(
            kind,
            "custom note markdown is invalid",
        )),
        ("conversation-note", Value::String(markdown))
            if block.format == Format::Markdown && filled(markdown) =>
        {
            Ok(json!({"title": title, "markdown": markdown}))
        }
        ("conversation-note", _) => conversation(&payload, title),
        ("digest", _) => digest_markdown(block, &payload),
        _ => artifact(kind, payload),
    }
}

/// The artifact a References, Citation Analysis or Literature Score note keeps,
/// refused (`invalid_artifact`) when it fails its contract; another kind's
/// value as it is.
fn artifact(kind: &str, payload: Value) -> Result<Value, InspectError> {
    match kind {
        "references" => match check_references(&payload) {
            Ok(()) => Ok(payload),
            Err(_) => Err(InspectError::invalid(
                kind,
                "references artifact is invalid",
            )),
        },
        "citation-analysis" => stored_citation(payload),
        "literature-score" => stored_score(&payload)
            .ok_or_else(|| InspectError::invalid(kind, "literature score artifact is invalid")),
        _ => Ok(payload),
    }
}

/// A stored citation analysis: the artifact without its `referencesBasis`
/// satisfying its contract, the basis (a string when present) last.
fn stored_citation(payload: Value) -> Result<Value, InspectError> {
    let invalid =
        || InspectError::invalid("citation-analysis", "citation analysis artifact is invalid");
    let Value::Object(mut members) = payload else {
        return Err(invalid());
    };
    let basis = members.shift_remove("referencesBasis");
    let mut artifact = Value::Object(members);
    if check_citation(&artifact).is_err() || basis.as_ref().is_some_and(|b| !b.is_string()) {
        return Err(invalid());
    }
    if let (Some(basis), Some(members)) = (basis, artifact.as_object_mut()) {
        members.insert("referencesBasis".into(), basis);
    }
    Ok(artifact)
}

/// A conversation note's `{title, markdown}` from its stored
/// `{version: 1, path, format: "markdown", content}`.
fn conversation(payload: &Value, title: &str) -> Result<Value, InspectError> {
    let kind = "conversation-note";
    let Some(members) = payload.as_object() else {
        return Err(InspectError::invalid(
            kind,
            "conversation note payload is invalid",
        ));
    };
    let mut keys: Vec<&str> = members.keys().map(String::as_str).collect();
    keys.sort_unstable();
    let shaped = keys == ["content", "format", "path", "version"]
        && members["version"] == 1
        && members["format"] == "markdown"
        && members["path"]
            .as_str()
            .is_some_and(|p| !js_trim(p).is_empty());
    if !shaped {
        return Err(InspectError::invalid(
            kind,
            "conversation note payload has an invalid shape",
        ));
    }
    match members["content"].as_str() {
        Some(content) if !js_trim(content).is_empty() => {
            Ok(json!({"title": title, "markdown": content}))
        }
        _ => Err(InspectError::invalid(
            kind,
            "conversation note markdown is missing",
        )),
    }
}

/// A digest's `{markdown}`: its stored text, or the markdown of its block.
fn digest_markdown(block: &Block, payload: &Value) -> Result<Value, InspectError> {
    let markdown = match (payload, &block.markdown) {
        (Value::String(text), _) => text.clone(),
        (_, Some(markdown)) if block.format == Format::Markdown => markdown.clone(),
        _ => {
            return Err(InspectError::invalid(
                "digest",
                "digest markdown representation is invalid",
            ));
        }
    };
    if js_trim(&markdown).is_empty() {
        return Err(InspectError::invalid(
            "digest",
            "digest markdown is invalid",
        ));
    }
    Ok(json!({"markdown": markdown}))
}
