//! Managed notes and literature artifacts: one note of each kind under a parent,
//! written in place when it exists.

use serde_json::{Value, json};

use super::super::record::{DetailKind, Fields, Record};
use super::super::{HostWorld, NoteFormat, note_detail};
use super::{Keys, Prepared, invalid, ref_at, text_at};
use crate::host::HostError;
use crate::plan::ItemLocator;
use crate::selection::PortableItemRef;

impl HostWorld {
    /// The managed note of `kind` under `parent`, when there is one.
    fn managed_note(&self, parent: &PortableItemRef, kind: &str) -> Option<&Record> {
        self.children_of(&ItemLocator::Ref(parent.clone()), DetailKind::Note)
            .ok()?
            .into_iter()
            .find(|r| r.note_kind.as_deref() == Some(kind))
    }

    /// Puts `note` under `parent` (or in place of `existing`); returns its detail.
    fn put_managed(
        &self,
        prepared: &mut Prepared,
        parent: &PortableItemRef,
        existing: Option<&Record>,
        note: ManagedNote<'_>,
        keys: &mut Keys,
    ) -> Value {
        let ManagedNote {
            kind,
            title,
            payload,
        } = note;
        let mut after = existing.cloned().unwrap_or_else(|| Record {
            reference: Some(keys.next(parent.library_id)),
            kind: Some(DetailKind::Note),
            parent_ref: Some(parent.clone()),
            fields: Fields {
                item_type: Some("note".into()),
                ..Fields::default()
            }
            .into(),
            ..Record::default()
        });
        let before_changes = prepared.changed;
        after.note_kind = Some(kind.into());
        after.html = Some(format!("<h1>{}</h1>", escape_html(&title)));
        after.title = Some(title);
        after.payload = Some(payload);
        prepared.changed = false;
        prepared.put(existing, after.clone());
        if let Some(b) = existing {
            after.edits = b.edits.saturating_add(u32::from(prepared.changed));
        }
        prepared.changed |= before_changes;
        note_detail(&after, NoteFormat::Html)
    }

    pub(super) fn managed_write(
        &self,
        op: &str,
        request: &Value,
        kind: &str,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let title = text_at(request, "/content/title")
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| invalid(op, "invalid_value", "content.title"))?;
        let markdown = text_at(request, "/content/markdown")
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| invalid(op, "invalid_value", "content.markdown"))?;
        let target = request
            .get("target")
            .ok_or_else(|| invalid(op, "missing_field", "target"))?;
        let (parent, existing) = match target.get("kind").and_then(Value::as_str) {
            Some("create") => (ref_at(target, "parentRef")?, None),
            Some("update") => {
                let note_ref = ref_at(target, "noteRef")?;
                let note = self.of_kind(op, &note_ref, DetailKind::Note)?;
                if note.note_kind.as_deref() != Some(kind) {
                    return Err(HostError::capability(
                        "conflict",
                        format!("{op}: {} is not a {kind} note", note_ref.identity()),
                        json!({"reason": "ambiguous_state", "kind": "note"}),
                    ));
                }
                let parent = note
                    .parent_ref
                    .clone()
                    .ok_or_else(|| invalid(op, "invalid_value", "target.noteRef"))?;
                (parent, Some(note))
            }
            _ => return Err(invalid(op, "invalid_value", "target.kind")),
        };
        self.of_kind(op, &parent, DetailKind::Regular)?;
        let operation = format!(
            "managed_note.write_{}",
            if kind == "custom" {
                "custom"
            } else {
                "conversation"
            }
        );
        let mut prepared = Prepared::new(&operation);
        let payload =
            json!({"type": format!("{kind}-markdown"), "title": title, "markdown": markdown});
        let note = ManagedNote {
            kind,
            title: title.to_owned(),
            payload,
        };
        let note = self.put_managed(&mut prepared, &parent, existing, note, keys);
        prepared.result = json!({"note": note});
        Ok(prepared)
    }

    pub(super) fn upsert_artifact(
        &self,
        member: &str,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let Some((_, kind, field)) = ARTIFACTS.iter().find(|(name, _, _)| *name == op) else {
            return Err(HostError::capability(
                "unsupported_operation",
                format!("{member} is not supported by this host"),
                json!({"memberOrOperation": member}),
            ));
        };
        let parent = ref_at(request, "parentRef")?;
        self.of_kind(member, &parent, DetailKind::Regular)?;
        let value = request
            .get(*field)
            .filter(|v| !v.is_null())
            .ok_or_else(|| invalid(member, "missing_field", field))?;
        let operation = format!("literature_artifact.{}", snake(op));
        let mut prepared = Prepared::new(&operation);
        let existing = self.managed_note(&parent, kind);
        let note = ManagedNote {
            kind,
            title: artifact_title(kind),
            payload: json!({"type": kind, *field: value}),
        };
        let note = self.put_managed(&mut prepared, &parent, existing, note, keys);
        prepared.result = json!({"note": note});
        Ok(prepared)
    }

    /// `literatureArtifacts.applyAnalysis`: each part given (digest, references,
    /// citation analysis, score) written as its managed note under the parent.
    pub(super) fn apply_analysis(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        refuse_unknown_analysis_fields(op, request)?;
        let parent = ref_at(request, "parentRef")?;
        self.of_kind(op, &parent, DetailKind::Regular)?;
        let parts = analysis_parts(op, request)?;
        let mut prepared = Prepared::new("managed_note.apply_parent_set");
        let mut notes = Vec::new();
        for (kind, payload) in parts {
            let existing = self.managed_note(&parent, kind);
            let note = ManagedNote {
                kind,
                title: artifact_title(kind),
                payload,
            };
            notes.push(self.put_managed(&mut prepared, &parent, existing, note, keys));
        }
        prepared.result = json!({"notes": notes});
        Ok(prepared)
    }
}

/// The singleton managed note kinds of `literatureArtifacts.upsert*`, with the
/// request member that carries each payload.
const ARTIFACTS: &[(&str, &str, &str)] = &[
    ("upsertDigest", "digest", "markdown"),
    ("upsertReferences", "references", "references"),
    (
        "upsertCitationAnalysis",
        "citation-analysis",
        "citationAnalysis",
    ),
    ("upsertScore", "literature-score", "score"),
];

/// A managed note to write: its kind, title and payload.
struct ManagedNote<'a> {
    kind: &'a str,
    title: String,
    payload: Value,
}

fn artifact_title(kind: &str) -> String {
    match kind {
        "digest" => "Digest",
        "references" => "References",
        "citation-analysis" => "Citation Analysis",
        "literature-score" => "Literature Score",
        other => other,
    }
    .to_string()
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `CitationAnalysis` → `citation_analysis`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The members `literatureArtifacts.applyAnalysis` takes.
const ANALYSIS_FIELDS: &[&str] = &[
    "operationId",
    "parentRef",
    "digest",
    "score",
    "references",
    "citationAnalysis",
    "compactCitationSnippets",
    "matchingMetadata",
];

/// Refuses a member of an analysis write the reference host does not take.
fn refuse_unknown_analysis_fields(op: &str, request: &Value) -> Result<(), HostError> {
    let extra = request
        .as_object()
        .and_then(|o| o.keys().find(|k| !ANALYSIS_FIELDS.contains(&k.as_str())));
    match extra {
        Some(extra) => Err(HostError::workflow(
            "invalid_request",
            format!("{op}: unknown field {extra}"),
            json!({"reason": "unsupported_value", "field": format!("{op}.{extra}")}),
        )),
        None => refuse_unknown_digest_fields(op, request),
    }
}

/// Refuses a member of an analysis write's `digest` other than `markdown`,
/// `sourceRef` and `representativeImage`.
fn refuse_unknown_digest_fields(op: &str, request: &Value) -> Result<(), HostError> {
    let Some(digest) = request.get("digest").filter(|d| !d.is_null()) else {
        return Ok(());
    };
    let refuse = |message: &str, reason: &str, field: String| {
        Err(HostError::workflow(
            "invalid_request",
            format!("{op}: {message}"),
            json!({"reason": reason, "field": field}),
        ))
    };
    let Some(digest) = digest.as_object() else {
        return refuse("digest must be an object", "invalid_type", "digest".into());
    };
    let allowed = ["markdown", "sourceRef", "representativeImage"];
    match digest.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(extra) => refuse(
            "digest contains an unknown field",
            "unsupported_value",
            format!("digest.{extra}"),
        ),
        None => Ok(()),
    }
}

/// The managed notes an analysis write gives, as (note kind, payload), in the
/// reference host's order; at least one.
fn analysis_parts(op: &str, request: &Value) -> Result<Vec<(&'static str, Value)>, HostError> {
    let part = |pointer: &str, kind: &'static str, member: &str| {
        request
            .pointer(pointer)
            .filter(|v| !v.is_null())
            .map(|v| (kind, json!({"type": kind, member: v})))
    };
    let parts: Vec<(&'static str, Value)> = [
        part("/digest/markdown", "digest", "markdown"),
        part("/references", "references", "references"),
        part("/citationAnalysis", "citation-analysis", "citationAnalysis"),
        part("/score", "literature-score", "score"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        return Err(HostError::workflow(
            "invalid_request",
            format!("{op}: none of digest, references, citationAnalysis or score was given"),
            json!({"reason": "missing_field", "field": "digest|references|citationAnalysis|score"}),
        ));
    }
    Ok(parts)
}
