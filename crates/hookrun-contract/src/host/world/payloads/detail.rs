//! `library.getNoteDetail`: an ordinary note's content, or a managed note's
//! value with its size, health and provenance, as the reference host answers.

use serde_json::{Map, Value, json};

use super::super::record::Record;
use super::super::{HostWorld, NoteFormat};
use super::citation_report::render;
use super::codec::MAX_PAYLOAD_BYTES;
use super::html::text_from_html;
use super::inspect::{InspectError, Inspection};
use super::text::json_bytes;
use super::validators::references_basis;
use crate::host::HostError;
use crate::plan::WorldNote;
use crate::selection::PortableItemRef;

/// A ref as a detail carries it (`null` when absent).
fn ref_value(reference: Option<&PortableItemRef>) -> Value {
    reference.map_or(Value::Null, PortableItemRef::to_value)
}

impl HostWorld {
    /// `library.getNoteDetail(ref, {format})`: `{kind: "ordinary", …, format,
    /// content}` or `{kind: "managed", noteKind, …, payload, payloadBytes,
    /// detailBytes, revision, health}`.
    pub fn get_note_detail(
        &self,
        reference: &PortableItemRef,
        format: NoteFormat,
    ) -> Result<Value, HostError> {
        let note = self
            .payload_note(reference)
            .map_err(|e| super::note_error(&e, reference))?;
        match self.inspect(note).map_err(InspectError::into_read_error)? {
            Inspection::Ordinary { title } => Ok(ordinary_detail(note, &title, format)),
            Inspection::Managed {
                kind,
                title,
                payload,
            } => self.managed_detail(note, (&kind, &title), payload, None),
        }
    }

    /// A managed note's detail: its value (a citation analysis's without its
    /// `referencesBasis`, which is its provenance), the value's and the
    /// detail's UTF-8 sizes, and its health (a citation analysis's against
    /// `references` when a write gives them, else its parent's).
    pub(in crate::host::world) fn managed_detail(
        &self,
        note: &Record,
        (kind, title): (&str, &str),
        payload: Value,
        references: Option<&Value>,
    ) -> Result<Value, HostError> {
        let mut payload = payload;
        let basis = match payload.as_object_mut() {
            Some(members) if kind == "citation-analysis" => members.shift_remove("referencesBasis"),
            _ => None,
        };
        let payload_bytes = json_bytes(&payload);
        let mut m = Map::new();
        m.insert("kind".into(), "managed".into());
        if !kind.is_empty() {
            m.insert("noteKind".into(), kind.into());
        }
        m.insert("ref".into(), ref_value(note.reference.as_ref()));
        m.insert("parentRef".into(), ref_value(note.parent_ref.as_ref()));
        m.insert("title".into(), title.into());
        m.insert("payload".into(), payload);
        m.insert("payloadBytes".into(), payload_bytes.into());
        m.insert("detailBytes".into(), 0.into());
        m.insert("revision".into(), note.revision().into());
        m.insert("health".into(), json!({"state": "current"}));
        if let Some(basis) = basis.filter(Value::is_string) {
            m.insert("provenance".into(), json!({"referencesBasis": basis}));
        }
        if kind == "citation-analysis" {
            let references = match references {
                Some(given) => Some(given.clone()),
                None => self.parent_references(note)?,
            };
            citation_health(&mut m, references.as_ref());
        }
        finalize(m)
    }

    /// The value of the References note of `note`'s parent; `None` without a
    /// parent, without one, or when it is damaged, legacy or ambiguous.
    fn parent_references(&self, note: &Record) -> Result<Option<Value>, HostError> {
        let Some(parent) = &note.parent_ref else {
            return Ok(None);
        };
        match self.managed_singleton(parent, "references") {
            Ok(Some((_, Inspection::Managed { payload, .. }))) => Ok(Some(payload)),
            Ok(_) => Ok(None),
            Err(e) if e.is_reference_dependency() => Ok(None),
            Err(e) => Err(e.into_read_error()),
        }
    }
}

/// A citation analysis's health and derived report: stale without
/// `references`; else current when the basis it was written against is the
/// References' current basis (`currentReferencesBasis`, the canonical digest of
/// the References when they satisfy their contract), with the report it
/// derives from them (`derived.markdown`, when it can be rendered).
fn citation_health(m: &mut Map<String, Value>, references: Option<&Value>) {
    let Some(references) = references else {
        m.insert("health".into(), json!({"state": "stale"}));
        return;
    };
    let current = references_basis(references);
    let stored = m
        .get("provenance")
        .and_then(|p| p.get("referencesBasis"))
        .and_then(Value::as_str);
    let state = match WorldNote::basis_is_current(stored, current.as_deref()) {
        true => "current",
        false => "stale",
    };
    let mut health = json!({"state": state});
    if let Some(current) = current {
        health["currentReferencesBasis"] = current.into();
    }
    m.insert("health".into(), health);
    let mut derived = Map::new();
    if let Some(markdown) = render(&m["payload"], references) {
        derived.insert("markdown".into(), markdown.into());
    }
    m.insert("derived".into(), Value::Object(derived));
}

/// An ordinary note's detail: its HTML as stored, or its text.
fn ordinary_detail(note: &Record, title: &str, format: NoteFormat) -> Value {
    let html = note.html.clone().unwrap_or_default();
    let content = match format {
        NoteFormat::Html => html,
        NoteFormat::Text => text_from_html(&html),
    };
    json!({"kind": "ordinary", "ref": ref_value(note.reference.as_ref()),
        "parentRef": ref_value(note.parent_ref.as_ref()), "title": title,
        "format": format.as_str(), "content": content, "revision": note.revision()})
}

/// The detail with its `detailBytes`: the UTF-8 size of the detail that
/// carries it, at most [`MAX_PAYLOAD_BYTES`].
fn finalize(mut m: Map<String, Value>) -> Result<Value, HostError> {
    let mut bytes = 0;
    for _ in 0..8 {
        m.insert("detailBytes".into(), bytes.into());
        let next = json_bytes(&Value::Object(m.clone()));
        if next == bytes {
            break;
        }
        bytes = next;
    }
    m.insert("detailBytes".into(), bytes.into());
    if bytes > MAX_PAYLOAD_BYTES {
        return Err(HostError::capability(
            "resource_limited",
            "managed note detail exceeds the Broker limit",
            json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES, "observed": bytes}),
        ));
    }
    Ok(Value::Object(m))
}
