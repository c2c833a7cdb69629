//! The request of `notes.upsertPayload`, checked as the reference host checks a
//! logical note payload before it looks at the note.

use serde_json::{Value, json};

use super::super::payloads::{Format, Logical, MANAGED, MAX_PAYLOAD_BYTES};
use super::closed;
use crate::host::HostError;
use crate::host::members::request::canonical_refusal;

/// Checks `request` (`{noteRef, payload}`): first the canonical schema (`payload`
/// exactly `{payloadType, noteKind, schemaVersion, format, value}`, the first four
/// non-empty strings, `format` one of `json`, `markdown`, `text`), then the
/// reference's own rules: the payload type's form, the identity's lengths, a
/// string value for markdown and text, at most [`MAX_PAYLOAD_BYTES`], and no type a
/// managed owner reserves.
pub(super) fn check_payload_request(op: &str, request: &Value) -> Result<(), HostError> {
    let payload = Payload::read(request)?;
    let refuse = |message: &str, reason: &str, field: &str| {
        HostError::capability(
            "invalid_request",
            message,
            json!({"reason": reason, "field": field, "operation": op}),
        )
    };
    if !is_payload_type(payload.payload_type.trim()) {
        let field = "payload.payloadType";
        return Err(refuse("payload type is invalid", "invalid_value", field));
    }
    for (value, limit, field) in [
        (payload.note_kind, 80, "payload.noteKind"),
        (payload.version, 200, "payload.schemaVersion"),
    ] {
        let value = value.trim();
        if value.is_empty() || value.chars().count() > limit {
            return Err(refuse(
                "payload identity is invalid",
                "invalid_value",
                field,
            ));
        }
    }
    let bytes = match (payload.format, payload.value) {
        ("json", value) => value.to_string().len(),
        (_, Value::String(value)) => value.len(),
        _ => {
            return Err(refuse(
                "payload value is invalid",
                "invalid_type",
                "payload.value",
            ));
        }
    };
    if bytes as u64 > MAX_PAYLOAD_BYTES {
        return Err(HostError::capability(
            "resource_limited",
            "note payload exceeds the limit",
            json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES, "observed": bytes}),
        ));
    }
    Ok(())
}

/// A payload as the canonical schema reads it.
struct Payload<'a> {
    payload_type: &'a str,
    note_kind: &'a str,
    version: &'a str,
    format: &'a str,
    value: &'a Value,
}

impl<'a> Payload<'a> {
    /// `request.payload`, refused by the canonical schema unless it has exactly
    /// its five members, the first four non-empty strings and `format` one of
    /// `json`, `markdown`, `text`.
    fn read(request: &'a Value) -> Result<Payload<'a>, HostError> {
        closed(request, &["noteRef", "payload"])?;
        let Some(Value::Object(payload)) = request.get("payload") else {
            return Err(canonical_refusal(Some("/payload")));
        };
        const KEYS: [&str; 5] = [
            "payloadType",
            "noteKind",
            "schemaVersion",
            "format",
            "value",
        ];
        if let Some(extra) = payload.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(canonical_refusal(Some(&format!("/payload/{extra}"))));
        }
        let text = |key: &str| {
            payload
                .get(key)
                .and_then(Value::as_str)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| canonical_refusal(Some(&format!("/payload/{key}"))))
        };
        let (payload_type, note_kind, version) = (
            text("payloadType")?,
            text("noteKind")?,
            text("schemaVersion")?,
        );
        let format = text("format")?;
        if !["json", "markdown", "text"].contains(&format) {
            return Err(canonical_refusal(Some("/payload/format")));
        }
        let Some(value) = payload.get("value") else {
            return Err(canonical_refusal(Some("/payload/value")));
        };
        Ok(Payload {
            payload_type,
            note_kind,
            version,
            format,
            value,
        })
    }
}

/// The payload of a checked `notes.upsertPayload` request, its identity trimmed.
pub(super) fn logical_payload(request: &Value) -> Logical {
    let text = |key: &str| {
        request
            .pointer(&format!("/payload/{key}"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim()
            .to_owned()
    };
    Logical {
        payload_type: text("payloadType"),
        note_kind: text("noteKind"),
        schema_version: text("schemaVersion"),
        format: Format::parse(&text("format")).unwrap_or(Format::Json),
        value: request
            .pointer("/payload/value")
            .cloned()
            .unwrap_or(Value::Null),
    }
}

/// Refuses a payload type a managed owner reserves, once the note is known.
pub(super) fn check_unreserved(request: &Value) -> Result<(), HostError> {
    let payload_type = request
        .pointer("/payload/payloadType")
        .and_then(Value::as_str)
        .map(str::trim);
    // The payload types the managed-note owners keep for themselves.
    if payload_type.is_some_and(|t| MANAGED.iter().any(|m| m.payload_type == t)) {
        return Err(HostError::capability(
            "conflict",
            "reserved managed payload requires its semantic owner",
            json!({"reason": "ambiguous_state", "kind": "note"}),
        ));
    }
    Ok(())
}

/// Whether `value` is a payload type: a lower-case letter or digit, then lower-case
/// letters, digits, `.`, `_` and `-`.
fn is_payload_type(value: &str) -> bool {
    let mut chars = value.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-".contains(c))
}
