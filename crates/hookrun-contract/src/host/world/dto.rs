//! The reference host's shapes of library items: the canonical base every kind
//! shares, regular items, note summaries, attachment details, annotations,
//! portable exports and the item of a mutation result.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::payloads::anchors_attachment;
use super::record::{DetailKind, Record};
use super::zotero::year_of;
use super::{HostWorld, strip_tags};
use crate::selection::{FileState, PortableItemRef};

/// The fields a mutation result's item carries (the reference host's fixed list).
const RESULT_FIELDS: &[&str] = &[
    "title",
    "abstractNote",
    "date",
    "publicationTitle",
    "journalAbbreviation",
    "DOI",
    "url",
    "pages",
    "volume",
    "issue",
    "publisher",
    "place",
    "ISBN",
    "ISSN",
    "language",
    "shortTitle",
];

fn reference(record: &Record) -> Value {
    record
        .reference
        .as_ref()
        .map(PortableItemRef::to_value)
        .unwrap_or(Value::Null)
}

fn parent(record: &Record) -> Value {
    record
        .parent_ref
        .as_ref()
        .map(PortableItemRef::to_value)
        .unwrap_or(Value::Null)
}

/// `sha256:<hex>` of a JSON value's canonical text (object keys sorted at every
/// level), so that the same value hashes the same whatever its key order.
pub fn digest(value: &Value) -> String {
    format!(
        "sha256:{}",
        hex_sha256(canonical(value).to_string().as_bytes())
    )
}

/// The lower-case hex SHA-256 of `bytes`.
pub fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&members[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

impl HostWorld {
    fn collection_refs(&self, record: &Record) -> Vec<Value> {
        let library_id = record.reference.as_ref().map_or(1, |r| r.library_id);
        record
            .zotero
            .get()
            .collections
            .iter()
            .map(|key| json!({"libraryId": library_id, "key": key}))
            .collect()
    }

    /// How many children of `kind` the item has.
    fn child_count(&self, record: &Record, kind: DetailKind) -> usize {
        self.child_records(record)
            .filter(|r| r.kind == Some(kind) && !r.zotero.get().deleted)
            .count()
    }

    /// The base every kind shares: `{ref, itemType, title, parentRef, state,
    /// revision, tags, collectionRefs}`.
    pub(super) fn base(&self, record: &Record) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("ref".into(), reference(record));
        m.insert(
            "itemType".into(),
            record
                .item_type
                .clone()
                .unwrap_or_else(|| "document".into())
                .into(),
        );
        m.insert(
            "title".into(),
            record.title.clone().unwrap_or_default().into(),
        );
        m.insert("parentRef".into(), parent(record));
        m.insert(
            "state".into(),
            if record.zotero.get().deleted {
                "trashed"
            } else {
                "active"
            }
            .into(),
        );
        m.insert("revision".into(), record.revision().into());
        m.insert("tags".into(), json!(record.zotero.get().tags));
        m.insert(
            "collectionRefs".into(),
            Value::Array(self.collection_refs(record)),
        );
        m
    }

    /// A regular item's summary (`listItems`): the base with `kind`, `creators`,
    /// `date`, `year` and `publicationTitle`.
    pub(super) fn regular_summary(&self, record: &Record) -> Map<String, Value> {
        let mut m = self.base(record);
        m.insert("kind".into(), "regular".into());
        let z = record.zotero.get();
        m.insert(
            "creators".into(),
            z.creators.iter().map(|c| c.canonical()).collect(),
        );
        let date = z.field("date").unwrap_or_default();
        m.insert("date".into(), date.into());
        m.insert(
            "year".into(),
            year_of(date).map_or(Value::Null, Value::String),
        );
        m.insert(
            "publicationTitle".into(),
            z.field("publicationTitle").unwrap_or_default().into(),
        );
        m
    }

    /// A regular item as `withItemSnapshot` batches carry it: the summary with its
    /// identifiers, URL, child counts, `modifiedAt` and a content revision.
    pub(super) fn snapshot_item(&self, record: &Record) -> Value {
        let mut m = self.regular_summary(record);
        let z = record.zotero.get();
        let field = |name: &str| z.field(name).filter(|v| !v.is_empty()).map(str::to_owned);
        let extra = z.field("extra").unwrap_or_default();
        let from_extra = |label: &str| {
            extra.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                key.trim()
                    .eq_ignore_ascii_case(label)
                    .then(|| value.trim().to_owned())
            })
        };
        m.insert(
            "identifiers".into(),
            json!({"doi": field("DOI").or_else(|| from_extra("DOI")), "isbn": field("ISBN"),
                   "issn": field("ISSN"), "arxiv": from_extra("arXiv"), "pmid": from_extra("PMID")}),
        );
        m.insert("url".into(), json!(field("url")));
        let count = |kind| self.child_count(record, kind);
        m.insert("noteCount".into(), count(DetailKind::Note).into());
        m.insert(
            "attachmentCount".into(),
            count(DetailKind::Attachment).into(),
        );
        m.insert(
            "annotationCount".into(),
            count(DetailKind::Annotation).into(),
        );
        m.insert(
            "modifiedAt".into(),
            z.date_modified.clone().unwrap_or_default().into(),
        );
        let revision = digest(&Value::Object(m.clone()));
        m.insert("revision".into(), revision.into());
        Value::Object(m)
    }

    /// A regular item's detail: the summary with `fields`, `relatedRefs`,
    /// `childCounts`, `createdAt` and `modifiedAt`.
    pub(super) fn regular_detail(&self, record: &Record) -> Value {
        let mut m = self.regular_summary(record);
        let z = record.zotero.get();
        let mut fields = Map::new();
        if let Some(title) = record.title.as_ref().filter(|t| !t.is_empty()) {
            fields.insert("title".into(), title.clone().into());
        }
        for (name, value) in &z.fields {
            if value.as_str().is_some_and(|v| !v.is_empty()) {
                fields.insert(name.clone(), value.clone());
            }
        }
        m.insert("fields".into(), Value::Object(fields));
        let library_id = record.reference.as_ref().map_or(1, |r| r.library_id);
        m.insert(
            "relatedRefs".into(),
            z.related_keys()
                .into_iter()
                .map(|key| json!({"libraryId": library_id, "key": key}))
                .collect(),
        );
        let count = |kind| self.child_count(record, kind);
        m.insert(
            "childCounts".into(),
            json!({"notes": count(DetailKind::Note), "attachments": count(DetailKind::Attachment),
                   "annotations": count(DetailKind::Annotation)}),
        );
        m.insert(
            "createdAt".into(),
            record.created_at.clone().unwrap_or_default().into(),
        );
        m.insert(
            "modifiedAt".into(),
            z.date_modified
                .clone()
                .or_else(|| record.created_at.clone())
                .unwrap_or_default()
                .into(),
        );
        Value::Object(m)
    }

    /// A note's summary: `{ref, parentRef, title, textExcerpt, textLength,
    /// htmlLength, revision}`.
    pub(super) fn note_summary(&self, record: &Record) -> Value {
        let html = record.html.clone().unwrap_or_default();
        let text = strip_tags(&html);
        let excerpt: String = text.chars().take(800).collect();
        json!({"ref": reference(record), "parentRef": parent(record),
            "title": record.title.clone().unwrap_or_else(|| text.chars().take(80).collect()),
            "textExcerpt": excerpt, "textLength": text.chars().count(),
            "htmlLength": html.chars().count(), "revision": record.revision()})
    }

    /// An attachment's detail, with its file's state.
    pub(super) fn attachment_detail(&self, record: &Record) -> Value {
        let attachment = self.attachment(record);
        let link_mode = record.zotero.get().link_mode.clone().unwrap_or_else(|| {
            match (&attachment, record.zotero.get().fields.get("url")) {
                (Some(a), _) if a.path.is_some() || a.filename.is_some() => "stored_file",
                (_, Some(_)) => "linked_url",
                _ => "stored_file",
            }
            .into()
        });
        let link_mode = canonical_link_mode(&link_mode);
        let file = match &attachment {
            _ if matches!(link_mode, "linked_url" | "stored_url") => {
                json!({"state": "not_applicable"})
            }
            Some(a) if a.file_state == FileState::Available => {
                let path = a.path.clone().unwrap_or_default();
                let size = self
                    .stat(&path)
                    .ok()
                    .and_then(|s| s["sizeBytes"].as_u64())
                    .unwrap_or(0);
                json!({"state": "available", "path": path, "sizeBytes": size, "modifiedAt": Value::Null})
            }
            _ => json!({"state": "missing"}),
        };
        let filename = attachment.as_ref().and_then(|a| a.filename.clone());
        json!({"ref": reference(record), "parentRef": parent(record), "revision": record.revision(),
            "title": record.title.clone().unwrap_or_default(),
            "filename": filename, "contentType": record.content_type,
            "charset": record.zotero.get().charset, "url": record.zotero.get().fields.get("url"),
            "linkMode": link_mode, "role": self.attachment_role(record, link_mode),
            "createdAt": record.created_at.clone().unwrap_or_default(), "file": file})
    }

    /// An attachment's role: `note_payload` when its parent note anchors a payload
    /// on it, else `note_image` for an embedded image, else `ordinary`.
    fn attachment_role(&self, record: &Record, link_mode: &str) -> &'static str {
        let key = record.reference.as_ref().map(|r| r.key.as_str());
        let carrier = self.parent_record(record).is_some_and(|parent| {
            parent.kind == Some(DetailKind::Note)
                && key.is_some_and(|k| {
                    anchors_attachment(parent.html.as_deref().unwrap_or_default(), k)
                })
        });
        match (carrier, link_mode) {
            (true, _) => "note_payload",
            (false, "embedded_image") => "note_image",
            _ => "ordinary",
        }
    }

    /// An annotation's detail.
    pub(super) fn annotation_detail(&self, record: &Record) -> Value {
        let f = |name: &str| {
            record
                .zotero
                .get()
                .fields
                .get(name)
                .cloned()
                .unwrap_or(Value::Null)
        };
        // The attachment's parent, or the attachment itself when it has none.
        let parent_item = self
            .parent_record(record)
            .and_then(|a| a.parent_ref.clone().or_else(|| a.reference.clone()))
            .map(|r| r.to_value());
        json!({"ref": reference(record), "itemRef": parent_item, "attachmentRef": parent(record),
            "revision": record.revision(), "annotationType": f("annotationType"),
            "text": f("annotationText"), "comment": f("annotationComment"), "color": f("annotationColor"),
            "location": {"pageIndex": Value::Null, "pageLabel": f("annotationPageLabel"),
                         "sortIndex": f("annotationSortIndex"), "position": f("annotationPosition")},
            "tags": record.zotero.get().tags, "createdAt": record.created_at.clone().unwrap_or_default(),
            "modifiedAt": record.zotero.get().date_modified.clone().unwrap_or_default()})
    }

    /// A regular item as `exportPortableItems` gives it.
    pub(super) fn portable(&self, record: &Record) -> Value {
        let Value::Object(fields) = self.regular_detail(record)["fields"].take() else {
            unreachable!("regular_detail always has fields")
        };
        json!({"schema": "zotero-agents.portable-regular-item.v1",
            "itemType": record.item_type.clone().unwrap_or_else(|| "document".into()),
            "fields": fields,
            "creators": record.zotero.get().creators.iter().map(|c| c.canonical()).collect::<Vec<_>>(),
            "tags": record.zotero.get().tags})
    }

    /// The item of a mutation result: `{ref, revision, itemType, title, fields,
    /// creators, tags, collectionIds, relatedItemKeys}`, creators as display names.
    pub(super) fn mutation_item(&self, record: &Record) -> Value {
        let mut fields = Map::new();
        for name in RESULT_FIELDS {
            let value = if *name == "title" {
                record.title.as_deref()
            } else {
                record.zotero.get().field(name)
            };
            if let Some(v) = value.filter(|v| !v.is_empty()) {
                fields.insert((*name).into(), v.into());
            }
        }
        let title: String = record.title.clone().unwrap_or_default();
        let title = if title.chars().count() > 300 {
            format!("{}…", title.chars().take(299).collect::<String>())
        } else {
            title
        };
        let mut item = json!({"ref": reference(record),
            "itemType": record.item_type.clone().unwrap_or_else(|| "document".into()),
            "title": title, "fields": fields,
            "creators": record.zotero.get().creators.iter().take(10).map(|c| c.display()).collect::<Vec<_>>(),
            "tags": record.zotero.get().tags,
            "collectionIds": Vec::<u64>::new(),
            "relatedItemKeys": record.zotero.get().related_keys()});
        item["revision"] = digest(&item).into();
        item
    }
}

/// Zotero's link modes as the reference host names them (`imported_file` is a
/// stored file).
fn canonical_link_mode(mode: &str) -> &'static str {
    match mode {
        "linked_file" => "linked_file",
        "linked_url" => "linked_url",
        "imported_url" | "stored_url" => "stored_url",
        "embedded_image" => "embedded_image",
        _ => "stored_file",
    }
}
