//! Notes: where a created note goes (`placement`), its content and tags as the
//! reference host checks them, and `notes.*` writes.

use serde_json::{Value, json};

use super::super::payloads::{Inspection, TooLarge};
use super::super::record::{DetailKind, Fields, Record};
use super::super::{HostWorld, strip_tags};
use super::payload_request::{check_payload_request, check_unreserved, logical_payload};
use super::{Keys, Prepared, ref_at};
use payload_store::{StoreError, ambiguous_payload, put_stored};

#[path = "payload_store.rs"]
pub(super) mod payload_store;
use crate::host::HostError;
use crate::host::members::request::canonical_refusal;
use crate::selection::PortableItemRef;

impl HostWorld {
    /// Where a created note or attachment goes (`placement`), checked as the
    /// reference host checks it: the canonical schema's union of
    /// `{kind: "child", parentRef}` and `{kind: "top_level", libraryId?,
    /// collectionRefs?}`, then the collections named must exist in the library.
    pub(super) fn placement(
        &self,
        operation: &str,
        request: &Value,
    ) -> Result<Placement, HostError> {
        let Some(Value::Object(placement)) = request.get("placement") else {
            return Err(canonical_refusal(Some("/placement")));
        };
        let allowed: &[&str] = match placement.get("kind").and_then(Value::as_str) {
            Some("child") => &["kind", "parentRef"],
            Some("top_level") => &["kind", "libraryId", "collectionRefs"],
            _ => return Err(canonical_refusal(Some("/placement/kind"))),
        };
        if let Some(extra) = placement.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(canonical_refusal(Some(&format!("/placement/{extra}"))));
        }
        let placement = Value::Object(placement.clone());
        if allowed.contains(&"parentRef") {
            return ref_at(&placement, "parentRef").map(Placement::Child);
        }
        let library_id = match placement.get("libraryId") {
            None => 1,
            Some(id) => id
                .as_u64()
                .filter(|id| *id >= 1)
                .ok_or_else(|| canonical_refusal(Some("/placement/libraryId")))?,
        };
        let refs = match placement.get("collectionRefs") {
            None => Vec::new(),
            Some(Value::Array(refs)) => refs.clone(),
            Some(_) => return Err(canonical_refusal(Some("/placement/collectionRefs"))),
        };
        let collections = self.placement_collections(operation, &refs, library_id)?;
        Ok(Placement::TopLevel {
            library_id,
            collections,
        })
    }

    /// The keys of the collections a top-level placement names (repeats
    /// dropped), each of which must exist in `library_id`.
    fn placement_collections(
        &self,
        operation: &str,
        refs: &[Value],
        library_id: u64,
    ) -> Result<Vec<String>, HostError> {
        let mut collections = Vec::with_capacity(refs.len());
        for reference in refs {
            let reference = ref_at(&json!({"collectionRef": reference}), "collectionRef")?;
            if !self.collections.iter().any(|c| c.reference == reference) {
                return Err(HostError::capability(
                    "not_found",
                    "collection not found",
                    json!({"kind": "collection", "opaqueKey": reference.key}),
                ));
            }
            if reference.library_id != library_id {
                let what = if operation.starts_with("attachments.") {
                    "attachment"
                } else {
                    "note"
                };
                return Err(HostError::capability(
                    "invalid_request",
                    format!("{what} placement crosses libraries"),
                    json!({"reason": "invalid_combination", "operation": operation}),
                ));
            }
            if !collections.contains(&reference.key) {
                collections.push(reference.key);
            }
        }
        Ok(collections)
    }

    /// A note's content (`{format, value, embeddedImages?}`), checked as the
    /// reference host checks ordinary note content: what it stores.
    fn note_content(operation: &str, request: &Value) -> Result<String, HostError> {
        let Some(Value::Object(content)) = request.get("content") else {
            return Err(canonical_refusal(Some("/content")));
        };
        if let Some(extra) = content
            .keys()
            .find(|k| !["format", "value", "embeddedImages"].contains(&k.as_str()))
        {
            return Err(canonical_refusal(Some(&format!("/content/{extra}"))));
        }
        let format = match content.get("format").and_then(Value::as_str) {
            Some(format @ ("html" | "text")) => format,
            _ => return Err(canonical_refusal(Some("/content/format"))),
        };
        let Some(value) = content.get("value").and_then(Value::as_str) else {
            return Err(canonical_refusal(Some("/content/value")));
        };
        let trimmed = value.trim();
        if trimmed.is_empty() || trimmed.chars().count() > MAX_NOTE_CHARS {
            return Err(HostError::capability(
                "invalid_request",
                "note content is invalid",
                json!({"reason": "invalid_value", "field": "content.value", "operation": operation}),
            ));
        }
        if uses_managed_marker(trimmed) {
            return Err(HostError::capability(
                "invalid_request",
                "ordinary note content uses a reserved managed marker",
                json!({"reason": "unsupported_value", "field": "content.value", "operation": operation}),
            ));
        }
        let images = content
            .get("embeddedImages")
            .and_then(Value::as_array)
            .is_some_and(|images| !images.is_empty());
        if format == "text" && images {
            return Err(HostError::capability(
                "invalid_request",
                "text note content cannot contain embedded images",
                json!({"reason": "invalid_combination", "field": "content.embeddedImages", "operation": operation}),
            ));
        }
        Ok(if format == "html" {
            trimmed.to_string()
        } else {
            value.to_string()
        })
    }

    /// A note as `notes.create` / `updateContent` answer it.
    fn note_result(record: &Record) -> Value {
        let html = record.html.clone().unwrap_or_default();
        let text = strip_tags(&html);
        let reference = record.reference.clone().unwrap_or(PortableItemRef {
            library_id: 1,
            key: String::new(),
        });
        let mut note = json!({"key": reference.key, "libraryId": reference.library_id,
            "title": record.title.clone().unwrap_or_else(|| text.chars().take(80).collect()),
            "html": html, "text": text.chars().take(4000).collect::<String>(),
            "textExcerpt": text.chars().take(800).collect::<String>(),
            "textLength": text.chars().count(), "htmlLength": html.chars().count(),
            "ref": reference.to_value(), "revision": record.revision()});
        if let Some(parent) = &record.parent_ref {
            note["parent"] = json!({"key": parent.key});
        }
        note
    }

    pub(super) fn note_create(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let placement = self.placement(op, request)?;
        let (library_id, parent, collections) = match placement {
            Placement::Child(parent) => {
                let record = self.of_kind(op, &parent, DetailKind::Regular)?;
                if record.zotero.get().deleted {
                    return Err(HostError::capability(
                        "invalid_ref",
                        "parent item is not active",
                        json!({"kind": "item", "reason": "wrong_kind"}),
                    ));
                }
                (parent.library_id, Some(parent), Vec::new())
            }
            Placement::TopLevel {
                library_id,
                collections,
            } => (library_id, None, collections),
        };
        let tags = initial_tags(op, request)?;
        let html = Self::note_content(op, request)?;
        let mut record = Record {
            reference: Some(keys.next(library_id)),
            kind: Some(DetailKind::Note),
            parent_ref: parent,
            fields: Fields {
                item_type: Some("note".into()),
                title: Some(note_title(&html)),
                html: Some(html),
                ..Fields::default()
            }
            .into(),
            ..Record::default()
        };
        record.zotero.get_mut().tags = tags;
        record.zotero.get_mut().collections = collections;
        let mut prepared = Prepared::new(op);
        prepared.result = json!({"note": Self::note_result(&record)});
        prepared.put(None, record);
        Ok(prepared)
    }

    pub(super) fn note_update(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let reference = ref_at(request, "noteRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Note)?;
        if matches!(self.inspect(before), Ok(Inspection::Managed { .. })) {
            return Err(HostError::capability(
                "conflict",
                "ordinary note content cannot update a managed note",
                json!({"reason": "ambiguous_state", "kind": "note"}),
            ));
        }
        let html = Self::note_content(op, request)?;
        let mut after = before.clone();
        after.title = Some(note_title(&html));
        after.html = Some(html);
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"note": Self::note_result(&after)});
        Ok(prepared)
    }

    pub(super) fn remove_item(
        &self,
        op: &str,
        request: &Value,
        field: &str,
        kind: DetailKind,
    ) -> Result<Prepared, HostError> {
        let reference = ref_at(request, field)?;
        // The schema holds a removal to `disposition: "permanent"`.
        if request.get("disposition").and_then(Value::as_str) != Some("permanent") {
            return Err(canonical_refusal(Some("/disposition")));
        }
        let record = if kind == DetailKind::Attachment {
            match self.ordinary_attachment(op, request)? {
                Ok(record) => record,
                Err(failed) => return Ok(failed),
            }
        } else {
            self.of_kind(op, &reference, kind)?
        };
        let mut prepared = Prepared::new(op);
        prepared.remove(record);
        prepared.result = json!({field: reference.to_value(), "outcome": "permanently_deleted"});
        Ok(prepared)
    }

    /// `notes.upsertPayload`: the payload stored in a carrier attachment of the
    /// note (see [`payload_store`]); `{note, payload, outcome}`.
    pub(super) fn note_payload(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        check_payload_request(op, request)?;
        let reference = ref_at(request, "noteRef")?;
        let before = self.of_kind(op, &reference, DetailKind::Note)?;
        let payload = logical_payload(request);
        let blocks = self.payload_blocks(before).map_err(codec_limit)?;
        let same_type = blocks
            .iter()
            .filter(|b| b.payload_type == payload.payload_type);
        if same_type.count() > 1 {
            return Err(ambiguous_payload());
        }
        check_unreserved(request)?;
        let stored = match self.store_payload(before.clone(), &payload, keys) {
            Ok(stored) => stored,
            Err(StoreError::TooLarge(e)) => return Err(codec_limit(e)),
            Err(StoreError::Ambiguous) => return Err(ambiguous_payload()),
        };
        let mut prepared = Prepared::new(op);
        let after = put_stored(&mut prepared, Some(before), &stored);
        let fresh = stored.carrier.as_ref().and_then(|c| c.reference.as_ref());
        let summary = self.payload_summary(&stored.block, &after, fresh.map(|r| r.key.as_str()));
        prepared.result = json!({"note": self.note_summary(&after), "payload": summary,
            "outcome": stored.outcome});
        Ok(prepared)
    }
}

/// A note's HTML or carrier past the payload limit, as the reference's codec
/// raises it before the write is admitted (not a host error).
fn codec_limit(error: TooLarge) -> HostError {
    let mut e = HostError::plain("ZoteroNotePayloadResourceLimitError", error.message());
    e.fields
        .insert("code".into(), "note_payload_resource_limited".into());
    e
}

/// The title Zotero gives a note: its first line of text.
pub(super) fn note_title(html: &str) -> String {
    let mut lines = html.to_string();
    for end in [
        "</p>", "</h1>", "</h2>", "</h3>", "</h4>", "</li>", "</div>", "<br>", "<br/>", "<br />",
    ] {
        lines = lines.replace(end, &format!("{end}\n"));
    }
    strip_tags(&lines)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default()
        .chars()
        .take(80)
        .collect()
}

/// Where a created note or attachment goes.
pub(super) enum Placement {
    /// Under a regular item.
    Child(PortableItemRef),
    /// In a library, in these collections (keys).
    TopLevel {
        library_id: u64,
        collections: Vec<String>,
    },
}

/// Most characters of an ordinary note's content (the reference host's limit).
const MAX_NOTE_CHARS: usize = 50_000;

/// Most tags a write gives an item.
const MAX_TAGS: usize = 100;

/// Most characters of a tag.
const MAX_TAG_CHARS: usize = 200;

/// Whether `html` carries one of the attributes that mark managed notes
/// (`data-zs-payload=`, `data-zs-note-kind=`, `data-zs-payload-anchor=`, in any
/// case, spaces allowed before `=`).
fn uses_managed_marker(html: &str) -> bool {
    let lower = html.to_ascii_lowercase();
    [
        "data-zs-payload",
        "data-zs-note-kind",
        "data-zs-payload-anchor",
    ]
    .iter()
    .any(|marker| {
        lower.match_indices(marker).any(|(at, _)| {
            lower[at + marker.len()..]
                .trim_start_matches([' ', '\t', '\n', '\r'])
                .starts_with('=')
        })
    })
}

/// `initialTags`, checked as the reference host checks them: a list of at most
/// [`MAX_TAGS`] non-blank tags of at most [`MAX_TAG_CHARS`] characters, trimmed,
/// repeats dropped.
fn initial_tags(operation: &str, request: &Value) -> Result<Vec<String>, HostError> {
    let tags = match request.get("initialTags") {
        None => return Ok(Vec::new()),
        Some(Value::Array(tags)) => tags,
        Some(_) => return Err(canonical_refusal(Some("/initialTags"))),
    };
    if tags.len() > MAX_TAGS {
        return Err(HostError::capability(
            "resource_limited",
            "initialTags exceeds the limit",
            json!({"resource": "entries", "limit": MAX_TAGS, "observed": tags.len()}),
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(tags.len());
    for (i, tag) in tags.iter().enumerate() {
        let Some(tag) = tag.as_str().filter(|t| !t.is_empty()) else {
            return Err(canonical_refusal(Some(&format!("/initialTags/{i}"))));
        };
        let tag = tag.trim();
        if tag.is_empty() {
            return Err(HostError::capability(
                "invalid_request",
                "initialTags is invalid",
                json!({"reason": "invalid_value", "field": format!("initialTags.{i}"), "operation": operation}),
            ));
        }
        let chars = tag.chars().count();
        if chars > MAX_TAG_CHARS {
            return Err(HostError::capability(
                "resource_limited",
                "initial tag exceeds the limit",
                json!({"resource": "characters", "limit": MAX_TAG_CHARS, "observed": chars}),
            ));
        }
        if !out.iter().any(|t| t == tag) {
            out.push(tag.to_string());
        }
    }
    Ok(out)
}
