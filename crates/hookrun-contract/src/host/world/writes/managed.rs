//! Managed notes and literature artifacts, written as the reference host's
//! owners write them: one note of a kind under a parent (written in place when
//! it exists, two of a kind refused), its HTML the structured template with the
//! value as an inline block, the value then stored in a carrier attachment of
//! the note (see `payload_store`), answered with the note's managed detail.

use serde_json::{Value, json};

use super::super::HostWorld;
use super::super::dto::digest;
use super::super::payloads::{
    InspectError, Inspection, ManagedContent, artifact_note, check_citation, check_linkage,
    check_references, check_score, markdown_note, normalize,
};
use super::super::record::{DetailKind, Fields, Record};
use super::notes::note_title;
use super::notes::payload_store::{StoreError, ambiguous_payload, put_stored};
use super::{Keys, Prepared, invalid, ref_at, text_at};
use crate::host::HostError;
use crate::host::js_value::js_text;
use crate::host::members::request::canonical_refusal;
use crate::selection::PortableItemRef;
use analysis::{analysis_parts, refuse_unknown_fields};

mod analysis;

/// What writing an artifact note gives besides its detail.
#[derive(Default)]
struct Written {
    /// The References basis a References or Citation Analysis write records.
    basis: Option<String>,
    /// Whether a References write leaves the parent's Citation Analysis stale.
    dependent_stale: bool,
}

/// `conflict` "citation analysis requires references".
fn references_required() -> HostError {
    HostError::capability(
        "conflict",
        "citation analysis requires references",
        json!({"reason": "basis_mismatch", "kind": "note"}),
    )
}

impl HostWorld {
    /// Writes `content` as the managed note `existing` (else as a new note under
    /// `parent`): the note's HTML set to the content, then its value stored in a
    /// carrier; answers the note's managed detail.
    fn put_managed(
        &self,
        prepared: &mut Prepared,
        parent: &PortableItemRef,
        existing: Option<&Record>,
        (content, references): (&ManagedContent, Option<&Value>),
        keys: &mut Keys,
    ) -> Result<Value, HostError> {
        let kind = content.payload.note_kind.clone();
        let mut note = existing.cloned().unwrap_or_else(|| Record {
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
        if note.html.as_deref() != Some(content.content.as_str()) {
            note.title = Some(note_title(&content.content));
            note.html = Some(content.content.clone());
        }
        note.note_kind = Some(kind.clone());
        note.payload = None;
        let stored = match self.store_payload(note, &content.payload, keys) {
            Ok(stored) => stored,
            Err(StoreError::TooLarge(e)) => {
                return Err(InspectError::TooLarge(e).into_write_error());
            }
            Err(StoreError::Ambiguous) => return Err(ambiguous_payload()),
        };
        let (was_changed, at) = (prepared.changed, prepared.changes.len());
        let after = put_stored(prepared, existing, &stored);
        // The reference counts a rewritten note whose value stays as unchanged.
        if existing.is_some() && stored.outcome == "unchanged" {
            prepared.changed = was_changed;
            prepared.changes[at]["effect"] = "unchanged".into();
        }
        let title = after
            .title
            .clone()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| content.title.clone());
        let payload =
            normalize(&kind, &stored.block, &title).map_err(InspectError::into_write_error)?;
        self.managed_detail(&after, (&kind, &title), payload, references)
    }

    /// The managed note of `kind` under `parent`, as a write reads it.
    fn singleton(
        &self,
        parent: &PortableItemRef,
        kind: &str,
    ) -> Result<Option<(&Record, Inspection)>, HostError> {
        self.managed_singleton(parent, kind)
            .map_err(InspectError::into_write_error)
    }

    /// `managedNotes.writeCustom` / `writeConversation`: a note of `kind` created
    /// under `target.parentRef` (the parent's one of the kind written in place),
    /// or the managed note `target.noteRef` of the same kind written.
    pub(super) fn managed_write(
        &self,
        op: &str,
        request: &Value,
        kind: &str,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let content = markdown_note(
            kind,
            text_at(request, "/content/title").unwrap_or_default(),
            text_at(request, "/content/markdown").unwrap_or_default(),
        )?;
        let target = request
            .get("target")
            .ok_or_else(|| invalid(op, "missing_field", "target"))?;
        let (parent, existing) = match target.get("kind").and_then(Value::as_str) {
            Some("create") => {
                let parent = ref_at(target, "parentRef")?;
                let record = self.existing(op, &parent, "item")?;
                if record.kind.unwrap_or(DetailKind::Regular) != DetailKind::Regular {
                    return Err(HostError::capability(
                        "invalid_ref",
                        "note parent must be a regular item",
                        json!({"kind": "item", "reason": "wrong_kind"}),
                    ));
                }
                let existing = self.singleton(&parent, kind)?.map(|(note, _)| note);
                (parent, existing)
            }
            Some("update") => {
                let note_ref = ref_at(target, "noteRef")?;
                let note = self.of_kind(op, &note_ref, DetailKind::Note)?;
                let inspection = self.inspect(note).map_err(InspectError::into_write_error)?;
                if !matches!(&inspection, Inspection::Managed { kind: k, .. } if k == kind) {
                    return Err(HostError::capability(
                        "conflict",
                        "managed note kind does not match the writer",
                        json!({"reason": "ambiguous_state", "kind": "note"}),
                    ));
                }
                (note.parent_ref.clone().unwrap_or(note_ref), Some(note))
            }
            _ => return Err(invalid(op, "invalid_value", "target.kind")),
        };
        let suffix = if kind == "custom" {
            "custom"
        } else {
            "conversation"
        };
        let mut prepared = Prepared::new(&format!("managed_note.write_{suffix}"));
        let note = self.put_managed(&mut prepared, &parent, existing, (&content, None), keys)?;
        prepared.result = json!({"note": note});
        Ok(prepared)
    }

    /// Writes the artifact note of `kind` holding `value` under `parent` (the
    /// References a Citation Analysis cites: `references` when the write gives
    /// them, else the parent's, every id it names one of theirs).
    fn put_artifact(
        &self,
        prepared: &mut Prepared,
        parent: &PortableItemRef,
        (kind, value): (&str, &Value),
        references: Option<&Value>,
        keys: &mut Keys,
    ) -> Result<(Value, Written), HostError> {
        let mut content = artifact_note(kind, value)?;
        let existing = self.singleton(parent, kind)?.map(|(note, _)| note);
        let mut written = Written::default();
        let mut cited = None;
        if kind == "citation-analysis" {
            let references = match references {
                Some(given) => given.clone(),
                None => match self.singleton(parent, "references")? {
                    Some((_, Inspection::Managed { payload, .. })) => payload,
                    _ => return Err(references_required()),
                },
            };
            if check_linkage(value, &references).is_err() {
                return Err(HostError::capability(
                    "conflict",
                    "citation analysis references are stale",
                    json!({"reason": "basis_mismatch", "kind": "note"}),
                ));
            }
            let basis = digest(&references);
            let mut stored = value.clone();
            if let Some(members) = stored.as_object_mut() {
                members.insert("referencesBasis".into(), basis.clone().into());
            }
            content = artifact_note(kind, &stored)?;
            written.basis = Some(basis);
            cited = Some(references);
        } else if kind == "references" {
            let basis = digest(value);
            if let Some((_, Inspection::Managed { payload, .. })) =
                self.singleton(parent, "citation-analysis")?
            {
                written.dependent_stale = payload.get("referencesBasis") != Some(&json!(basis));
            }
            written.basis = Some(basis);
        }
        let note =
            self.put_managed(prepared, parent, existing, (&content, cited.as_ref()), keys)?;
        Ok((note, written))
    }

    /// `literatureArtifacts.upsertDigest` / `upsertReferences` /
    /// `upsertCitationAnalysis` / `upsertScore`: the parent's one note of the
    /// kind written; `{note, referencesBasis?, dependentStale?}`.
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
        let operation = format!("literature_artifact.{}", snake(op));
        let parent = ref_at(request, "parentRef")?;
        let value = request
            .get(*field)
            .filter(|v| !v.is_null())
            .ok_or_else(|| invalid(member, "missing_field", field))?;
        let value = if *kind == "digest" {
            let markdown = js_text(Some(value));
            if markdown.trim().is_empty() {
                return Err(HostError::capability(
                    "invalid_request",
                    "digest markdown is empty",
                    json!({"reason": "invalid_value", "field": "markdown", "operation": operation}),
                ));
            }
            json!({"markdown": markdown})
        } else {
            checked_artifact(kind, value, &operation)?;
            value.clone()
        };
        let mut prepared = Prepared::new(&operation);
        let (note, written) =
            self.put_artifact(&mut prepared, &parent, (kind, &value), None, keys)?;
        prepared.result = artifact_result(json!({"note": note}), written);
        Ok(prepared)
    }

    /// `literatureArtifacts.applyAnalysis`: each part given (digest, references,
    /// citation analysis, score) written as its managed note under the parent;
    /// `{notes, referencesBasis?, dependentStale?}`.
    pub(super) fn apply_analysis(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        refuse_unknown_fields(op, request)?;
        let parent = ref_at(request, "parentRef")?;
        let parts = analysis_parts(request)?;
        self.of_kind(op, &parent, DetailKind::Regular)?;
        let references = request.get("references").filter(|v| !v.is_null());
        let with_citation = parts.iter().any(|(k, _)| *k == "citation-analysis");
        let mut prepared = Prepared::new("managed_note.apply_parent_set");
        let mut notes = Vec::new();
        let mut all = Written::default();
        for (kind, value) in &parts {
            let (note, written) =
                self.put_artifact(&mut prepared, &parent, (kind, value), references, keys)?;
            notes.push(note);
            all.basis = all.basis.or(written.basis);
            all.dependent_stale |= written.dependent_stale && !with_citation;
        }
        prepared.result = artifact_result(json!({"notes": notes}), all);
        Ok(prepared)
    }
}

/// An artifact write's result: `result` with `referencesBasis` and
/// `dependentStale` when the write gives them.
fn artifact_result(mut result: Value, written: Written) -> Value {
    if let Some(basis) = written.basis {
        result["referencesBasis"] = basis.into();
    }
    if written.dependent_stale {
        result["dependentStale"] = true.into();
    }
    result
}

/// Refuses an artifact of an `upsert*` write as the reference host does before
/// any read: References and Citation Analyses failing their contracts are
/// `invalid_request` on the field; a score failing its contract fails the
/// canonical schema (which declares the score), one past 1 MiB the score check.
fn checked_artifact(kind: &str, value: &Value, operation: &str) -> Result<(), HostError> {
    let (field, message) = match kind {
        "references" if check_references(value).is_err() => {
            ("references", "references artifact is invalid")
        }
        "citation-analysis" if check_citation(value).is_err() => {
            ("citationAnalysis", "citation analysis artifact is invalid")
        }
        "literature-score" => {
            return match check_score(value) {
                Ok(()) => Ok(()),
                Err(issue) if issue.code == "resource_limited" => Err(HostError::capability(
                    "invalid_request",
                    "literature score is invalid",
                    json!({"reason": "invalid_schema", "field": "score"}),
                )),
                Err(_) => Err(canonical_refusal(None)),
            };
        }
        _ => return Ok(()),
    };
    Err(HostError::capability(
        "invalid_request",
        message,
        json!({"reason": "invalid_value", "field": field, "operation": operation}),
    ))
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
