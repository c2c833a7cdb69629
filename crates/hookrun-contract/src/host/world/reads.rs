//! The `library.*` reads, in the reference host's shapes.

use serde_json::{Map, Value, json};

use super::dto::digest;
use super::paging::paged;
use super::record::{DetailKind, Record};
use super::{HostResult, HostWorld, HostWorldError, PageRequest};
use crate::host::{Budget, HostError};
use crate::plan::ItemLocator;
use crate::selection::PortableItemRef;

/// Largest `listItems` page (the reference host's limit).
const MAX_LIST_LIMIT: usize = 100;

/// What `listItems` and `traverseItems` select: top-level regular items of a
/// library, optionally in a collection, with a tag, of a type or matching a query.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ItemCriteria {
    /// `libraryId` (default: every library).
    pub library_id: Option<u64>,
    /// `collectionRef.key`.
    pub collection: Option<String>,
    /// `tag`.
    pub tag: Option<String>,
    /// `itemType`.
    pub item_type: Option<String>,
    /// `filter` (the reference host's newest name; `query` before it), matched
    /// case-insensitively as a literal against key, title, date, publication,
    /// abstract, creators and tags.
    pub filter: Option<String>,
    /// Whether the request named the filter `query` (echoed as it was given).
    pub named_query: bool,
}

/// Most characters of a text criterion (the reference host's limit).
pub const MAX_CRITERION_CHARS: usize = 4000;

impl ItemCriteria {
    /// Reads the criteria members of a `listItems` / `traverseItems` input, as the
    /// reference host reads them: text criteria are strings of at most
    /// `MAX_CRITERION_CHARS` characters (trimmed; blank is none).
    pub fn parse(input: &Value) -> HostResult<ItemCriteria> {
        let text = |key: &'static str| -> HostResult<Option<String>> {
            let refused = |reason| HostWorldError::InvalidField {
                message: format!("library criterion is invalid: {key}"),
                reason,
                field: key,
            };
            match input.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) if s.trim().chars().count() > MAX_CRITERION_CHARS => {
                    Err(refused("invalid_value"))
                }
                Some(Value::String(s)) => Ok(Some(s.trim().to_string()).filter(|s| !s.is_empty())),
                Some(_) => Err(refused("invalid_type")),
            }
        };
        let library_id = match input.get("libraryId") {
            None | Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().filter(|id| *id >= 1).ok_or_else(|| {
                HostWorldError::InvalidRequest("libraryId must be a library id".into())
            })?),
        };
        // `collectionRef`, or the bare `collectionKey` some hooks pass.
        let collection = match (input.get("collectionRef"), input.get("collectionKey")) {
            (Some(v), _) if !v.is_null() => Some(
                PortableItemRef::parse(v, "/collectionRef")
                    .map_err(|e| HostWorldError::InvalidRequest(e.to_string()))?
                    .key,
            ),
            (_, Some(Value::String(key))) => Some(key.clone()),
            _ => None,
        };
        let query = text("query")?;
        let filter = text("filter")?;
        Ok(ItemCriteria {
            library_id,
            collection,
            tag: text("tag")?.map(|t| t.to_lowercase()),
            item_type: text("itemType")?,
            named_query: filter.is_none() && query.is_some(),
            filter: filter.or(query).map(|f| f.to_lowercase()),
        })
    }

    fn matches(&self, record: &Record) -> bool {
        let z = record.zotero.get();
        let Some(reference) = &record.reference else {
            return false;
        };
        if self.library_id.is_some_and(|id| id != reference.library_id)
            || self
                .collection
                .as_ref()
                .is_some_and(|c| !z.collections.contains(c))
            || self
                .tag
                .as_ref()
                .is_some_and(|t| !z.tags.iter().any(|tag| tag.to_lowercase() == *t))
            || self.item_type.as_ref().is_some_and(|t| {
                !record
                    .item_type
                    .as_ref()
                    .is_some_and(|own| own.eq_ignore_ascii_case(t))
            })
        {
            return false;
        }
        let Some(query) = &self.filter else {
            return true;
        };
        let mut haystack = vec![
            reference.key.clone(),
            record.title.clone().unwrap_or_default(),
        ];
        for name in ["date", "publicationTitle", "abstractNote"] {
            haystack.push(z.field(name).unwrap_or_default().to_owned());
        }
        haystack.extend(z.creators.iter().map(|c| c.display()));
        haystack.extend(z.tags.iter().cloned());
        haystack.iter().any(|h| h.to_lowercase().contains(query))
    }

    fn to_json(&self, library_id: u64) -> Value {
        let name = if self.named_query { "query" } else { "filter" };
        let mut criteria = json!({"libraryId": self.library_id.unwrap_or(library_id),
            "collectionRef": self.collection.as_ref().map(|key| json!({"libraryId": self.library_id.unwrap_or(library_id), "key": key})),
            "tag": self.tag, "itemType": self.item_type});
        criteria[name] = json!(self.filter);
        criteria["order"] = json!("stable_identity");
        criteria
    }
}

impl HostWorld {
    fn record_of(&self, reference: &PortableItemRef, kind: &str) -> HostResult<&Record> {
        self.find(&ItemLocator::Ref(reference.clone()))
            .ok_or_else(|| HostWorldError::NotFound {
                kind: kind.to_owned(),
                key: reference.identity(),
            })
    }

    /// `library.getItemDetail(ref)`: `{kind, item}` in the shape of the item's kind.
    pub fn get_item_detail(&self, reference: &PortableItemRef) -> HostResult<Value> {
        let record = self.record_of(reference, "item")?;
        let kind = record.kind.unwrap_or(DetailKind::Regular);
        let item = match kind {
            DetailKind::Regular => self.regular_detail(record),
            DetailKind::Note => self.note_summary(record),
            DetailKind::Attachment => self.attachment_detail(record),
            DetailKind::Annotation => self.annotation_detail(record),
        };
        Ok(json!({"kind": kind.as_str(), "item": item}))
    }

    fn children_json(
        &self,
        parent: &PortableItemRef,
        kind: DetailKind,
        shape: impl Fn(&Record) -> Value,
    ) -> HostResult<Vec<Value>> {
        let list = self.children_of(&ItemLocator::Ref(parent.clone()), kind)?;
        Ok(list.into_iter().map(shape).collect())
    }

    /// `library.getItemAttachments(ref, page)`.
    pub fn get_item_attachments(
        &self,
        parent: &PortableItemRef,
        page: &PageRequest,
    ) -> HostResult<Value> {
        let items = self.children_json(parent, DetailKind::Attachment, |r| {
            self.attachment_detail(r)
        })?;
        paged("attachments", items, page)
    }

    /// `library.getItemNotes(ref, page)`: note summaries.
    pub fn get_item_notes(
        &self,
        parent: &PortableItemRef,
        page: &PageRequest,
    ) -> HostResult<Value> {
        let items = self.children_json(parent, DetailKind::Note, |r| self.note_summary(r))?;
        paged("notes", items, page)
    }

    /// `library.listAnnotations(ref, page)`: the annotations of an attachment.
    pub fn list_annotations(
        &self,
        attachment: &PortableItemRef,
        page: &PageRequest,
    ) -> HostResult<Value> {
        let items = self.children_json(attachment, DetailKind::Annotation, |r| {
            self.annotation_detail(r)
        })?;
        paged("annotations", items, page)
    }

    /// The top-level regular items `criteria` selects, in stable order.
    fn regular_items<'a>(&'a self, criteria: &'a ItemCriteria) -> impl Iterator<Item = &'a Record> {
        self.records.iter().filter(move |r| {
            r.kind.unwrap_or(DetailKind::Regular) == DetailKind::Regular
                && r.parent_ref.is_none()
                && r.parent_id.is_none()
                && !r.zotero.get().deleted
                && criteria.matches(r)
        })
    }

    /// `library.listItems(input)`: one page of top-level regular items.
    pub fn list_items(&self, input: &Value) -> HostResult<Value> {
        let criteria = ItemCriteria::parse(input)?;
        let limit = super::paging::page_limit(input.get("limit"), MAX_LIST_LIMIT)?;
        let items: Vec<Value> = self
            .regular_items(&criteria)
            .map(|r| Value::Object(self.regular_summary(r)))
            .collect();
        let scanned = items.len();
        let cursor = input
            .get("cursor")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut page = paged(
            "items",
            items,
            &PageRequest {
                limit: Some(limit.into()),
                cursor,
            },
        )?;
        let library_id = self
            .records
            .iter()
            .find_map(|r| r.reference.as_ref())
            .map_or(1, |r| r.library_id);
        page["totalScanned"] = scanned.into();
        page["criteria"] = criteria.to_json(library_id);
        if let Some(m) = page.as_object_mut() {
            m.remove("total");
        }
        Ok(page)
    }

    /// The batches `traverseItems` hands its callback, `pageSize` items each, and
    /// how the traversal ended; a `resumeCursor` from a traversal that hit a budget
    /// continues after the items it visited.
    pub fn traverse_items(
        &self,
        input: &Value,
        budget: &Budget,
    ) -> HostResult<(Vec<Value>, Value)> {
        self.traverse(input, 500, budget, |r| {
            let mut summary = self.regular_summary(r);
            let mut tags = r.zotero.get().tags.clone();
            tags.sort();
            tags.dedup();
            let digest = digest(&json!(tags));
            summary.insert("tags".into(), json!(tags));
            summary.insert(
                "tagDigest".into(),
                digest.trim_start_matches("sha256:").into(),
            );
            Value::Object(summary)
        })
    }

    /// The batches `withItemSnapshot` hands its callback (`batchSize` items each, at
    /// most 1,000) and how the snapshot ended.
    pub fn snapshot_items(
        &self,
        library_id: u64,
        batch_size: &Value,
        budget: &Budget,
    ) -> HostResult<(Vec<Value>, Value)> {
        let input =
            json!({"scope": "top-level-regular", "libraryId": library_id, "pageSize": batch_size});
        self.traverse(&input, 1_000, budget, |r| self.snapshot_item(r))
    }

    /// The batches of a traversal, shaping only the items it visits (and one more,
    /// to know whether it ends there), one step of `budget` each.
    fn traverse(
        &self,
        input: &Value,
        max_page: u64,
        budget: &Budget,
        shape: impl Fn(&Record) -> Value,
    ) -> HostResult<(Vec<Value>, Value)> {
        if input.get("scope").and_then(Value::as_str) != Some("top-level-regular") {
            return Err(HostWorldError::InvalidRequest(
                "traversal scope is unsupported: scope must be \"top-level-regular\"".into(),
            ));
        }
        let criteria = ItemCriteria::parse(input)?;
        let bounds = Traversal::parse(input, max_page)?;
        let cap = bounds.max_items.min(bounds.page_size * bounds.max_pages);
        let mut items: Vec<Value> = Vec::new();
        let mut more = false;
        for record in self.regular_items(&criteria).skip(bounds.start) {
            budget.tick().map_err(stopped)?;
            if items.len() == cap {
                more = true;
                break;
            }
            items.push(shape(record));
        }
        let batches: Vec<Value> = items
            .chunks(bounds.page_size)
            .enumerate()
            .map(|(i, chunk)| json!([{"batchIndex": i, "items": chunk}]))
            .collect();
        let ending = bounds.ending(&criteria, &items, batches.len(), more);
        Ok((batches, ending))
    }

    /// `library.exportPortableItems(refs)`: regular items in ref order, at most
    /// [`MAX_PORTABLE_ITEMS`] of them and [`MAX_PORTABLE_BYTES`] of JSON together (the
    /// reference host's limits), one step of `budget` each.
    pub fn export_portable_items(&self, refs: &Value, budget: &Budget) -> HostResult<Value> {
        let limited =
            |resource: &str, limit: u64, observed: Value| HostWorldError::ResourceLimited {
                resource: resource.into(),
                limit,
                observed,
            };
        let refs = match refs.as_array() {
            Some(refs) if refs.len() as u64 <= MAX_PORTABLE_ITEMS => refs,
            Some(refs) => return Err(limited("items", MAX_PORTABLE_ITEMS, refs.len().into())),
            None => return Err(limited("items", MAX_PORTABLE_ITEMS, Value::Null)),
        };
        let mut out = Vec::with_capacity(refs.len());
        let mut bytes = 0u64;
        for (i, value) in refs.iter().enumerate() {
            budget.tick().map_err(stopped)?;
            let reference = PortableItemRef::parse(value, &format!("/{i}"))
                .map_err(|e| HostWorldError::InvalidRequest(e.to_string()))?;
            let record = self.record_of(&reference, "item")?;
            if record.kind.unwrap_or(DetailKind::Regular) != DetailKind::Regular {
                return Err(HostWorldError::WrongKind {
                    kind: "item".into(),
                    key: reference.identity(),
                });
            }
            let item = self.portable(record);
            bytes += serde_json::to_vec(&item).map_or(0, |t| t.len() as u64);
            if bytes > MAX_PORTABLE_BYTES {
                return Err(limited("bytes", MAX_PORTABLE_BYTES, bytes.into()));
            }
            budget.spend(0).map_err(stopped)?;
            out.push(item);
        }
        Ok(Value::Array(out))
    }

    /// `library.listSavedSearches(input)`: a simulated library has none.
    pub fn list_saved_searches(&self, input: &Value) -> HostResult<Value> {
        let mut page = paged(
            "savedSearches",
            Vec::new(),
            &PageRequest::from_value(Some(input)),
        )?;
        page["libraryId"] = input.get("libraryId").cloned().unwrap_or(1.into());
        page["order"] = "stable_identity".into();
        Ok(page)
    }

    /// `library.listNotePayloads(ref, page)`: a managed note's payload.
    pub fn list_note_payloads(
        &self,
        note: &PortableItemRef,
        page: &PageRequest,
    ) -> HostResult<Value> {
        let record = self.note_record(note)?;
        let payloads: Vec<Value> = payload_summary(record).into_iter().collect();
        let mut found = paged("payloads", payloads, page)?;
        found["scanned"] = found["returned"].clone();
        found["total"] = Value::Null;
        Ok(found)
    }

    /// `library.getNotePayload(ref, {payloadType})`: `{summary, value}`.
    pub fn get_note_payload(
        &self,
        note: &PortableItemRef,
        payload_type: &str,
    ) -> HostResult<Value> {
        let record = self.note_record(note)?;
        match payload_summary(record) {
            Some(summary) if summary["payloadType"] == payload_type => {
                Ok(json!({"summary": summary, "value": record.payload}))
            }
            _ => Err(HostWorldError::NotFound {
                kind: "payload".into(),
                key: format!("{} {payload_type}", note.identity()),
            }),
        }
    }

    fn note_record(&self, note: &PortableItemRef) -> HostResult<&Record> {
        let record = self.record_of(note, "note")?;
        if record.kind != Some(DetailKind::Note) {
            return Err(HostWorldError::WrongKind {
                kind: "note".into(),
                key: note.identity(),
            });
        }
        Ok(record)
    }
}

/// The payload a managed note carries, summarised.
fn payload_summary(record: &Record) -> Option<Value> {
    let payload = record.payload.as_ref()?;
    let kind = record.note_kind.clone().unwrap_or_else(|| "custom".into());
    let payload_type = payload
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| format!("{kind}-json"));
    let mut m = Map::new();
    m.insert("payloadType".into(), payload_type.into());
    m.insert("noteKind".into(), kind.into());
    m.insert("version".into(), 1.into());
    m.insert("format".into(), "json".into());
    m.insert("encoding".into(), "utf-8".into());
    m.insert("estimatedBytes".into(), payload.to_string().len().into());
    m.insert("source".into(), json!({"kind": "inline"}));
    m.insert("state".into(), "available".into());
    m.insert("issues".into(), json!([]));
    Some(Value::Object(m))
}

/// Most items one `library.exportPortableItems` call exports.
pub const MAX_PORTABLE_ITEMS: u64 = 10_000;

/// Most bytes of JSON one `library.exportPortableItems` call answers.
pub const MAX_PORTABLE_BYTES: u64 = 64 * 1024 * 1024;

/// A read stopped by its call's budget; the call ends with the budget's breach.
fn stopped(error: HostError) -> HostWorldError {
    HostWorldError::ResourceLimited {
        resource: error.fields["details"]["resource"]
            .as_str()
            .unwrap_or("duration_ms")
            .into(),
        limit: 0,
        observed: Value::Null,
    }
}

/// A traversal's bounds and where it starts, as its request gives them.
struct Traversal {
    page_size: usize,
    max_items: usize,
    max_pages: usize,
    /// Items skipped (`resumeCursor`).
    start: usize,
}

impl Traversal {
    /// The bounds of `input` (pages at most `max_page` items), each checked
    /// against the reference host's limit.
    fn parse(input: &Value, max_page: u64) -> HostResult<Traversal> {
        let limit = |key: &str, resource: &str, default: u64, max: u64| -> HostResult<u64> {
            match input.get(key) {
                None | Some(Value::Null) => Ok(default),
                Some(v) => match v.as_u64() {
                    Some(n @ 1..) if n <= max => Ok(n),
                    Some(n @ 1..) => Err(HostWorldError::ResourceLimited {
                        resource: resource.into(),
                        limit: max,
                        observed: n.into(),
                    }),
                    _ => Err(HostWorldError::InvalidRequest(format!(
                        "traversal budget is invalid: {key}"
                    ))),
                },
            }
        };
        let page_size = limit("pageSize", "items", 100.min(max_page), max_page)? as usize;
        let max_items = limit("maxItems", "items", 100_000, 1_000_000)? as usize;
        let max_pages = limit("maxPages", "pages", 1_000, 10_000)? as usize;
        limit("maxDurationMs", "duration_ms", 300_000, 1_800_000)?;
        let start = match input.get("resumeCursor") {
            None | Some(Value::Null) => 0,
            Some(cursor) => cursor
                .as_str()
                .and_then(|c| c.parse::<usize>().ok())
                .ok_or_else(|| HostWorldError::InvalidRequest("resumeCursor is invalid".into()))?,
        };
        Ok(Traversal {
            page_size,
            max_items,
            max_pages,
            start,
        })
    }

    /// How a traversal that visited `items` in `batches` ends: `resource_limited`
    /// with a resume cursor when there was `more`, else `completed` with its
    /// completion evidence.
    fn ending(
        &self,
        criteria: &ItemCriteria,
        items: &[Value],
        batches: usize,
        more: bool,
    ) -> Value {
        let library_id = criteria.library_id.unwrap_or(1);
        let visited = items.len();
        if more {
            let reason = if visited == self.max_items {
                "max_items"
            } else {
                "max_pages"
            };
            return json!({"outcome": "resource_limited", "libraryId": library_id, "visitedItems": visited,
                "visitedBatches": batches, "reason": reason,
                "resumeCursor": (self.start + visited).to_string()});
        }
        let criteria_digest = digest(&criteria.to_json(library_id));
        let coverage = digest(&json!(items));
        json!({"outcome": "completed", "libraryId": library_id, "scope": "top-level-regular",
            "visitedItems": visited, "visitedBatches": batches,
            "completionEvidence": {"evidenceId": format!("traversal-{}", &coverage[7..19]),
                "criteriaDigest": criteria_digest.trim_start_matches("sha256:"),
                "coverageDigest": coverage.trim_start_matches("sha256:")}})
    }
}
