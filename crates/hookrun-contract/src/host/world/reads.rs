//! The `library.*` reads, in the reference host's shapes.

use serde_json::{Value, json};

use super::paging::{
    After, criteria_hash, cursor_refused, library_after, library_cursor, source_paged,
};
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
    /// The library listed: `libraryId`, else the `collectionRef`'s, else the
    /// user library (1), as the reference host lists one library at a time.
    pub library_id: u64,
    /// `collectionRef.key`.
    pub collection: Option<String>,
    /// `collectionRef` as the caller gave it (the page's criteria echo it).
    pub collection_ref: Option<Value>,
    /// `tag`.
    pub tag: Option<String>,
    /// `itemType`.
    pub item_type: Option<String>,
    /// `filter`, matched case-insensitively as a literal against key, title,
    /// date, publication, abstract, creators and tags.
    pub filter: Option<String>,
}

/// Most characters of a text criterion (the reference host's limit).
pub const MAX_CRITERION_CHARS: usize = 4000;

/// The user library, which a listing without a library reads.
const USER_LIBRARY: u64 = 1;

impl ItemCriteria {
    /// Reads the criteria members of a `listItems` / `traverseItems` input, as the
    /// reference host reads them: text criteria are strings of at most
    /// `MAX_CRITERION_CHARS` characters (trimmed; blank is none); members it
    /// does not know (`collectionKey`, `query`) change nothing.
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
        let collection = match input.get("collectionRef") {
            Some(v) if !v.is_null() => Some(
                PortableItemRef::parse(v, "/collectionRef")
                    .map_err(|e| HostWorldError::InvalidRequest(e.to_string()))?,
            ),
            _ => None,
        };
        let library_id = match input.get("libraryId") {
            None | Some(Value::Null) => collection.as_ref().map_or(USER_LIBRARY, |c| c.library_id),
            Some(v) => v.as_u64().filter(|id| *id >= 1).ok_or_else(|| {
                HostWorldError::InvalidRequest("libraryId must be a library id".into())
            })?,
        };
        if collection
            .as_ref()
            .is_some_and(|c| c.library_id != library_id)
        {
            return Err(HostWorldError::ForeignScope {
                kind: "collection",
                message: "collection is outside the requested library",
            });
        }
        Ok(ItemCriteria {
            library_id,
            collection: collection.map(|c| c.key),
            collection_ref: input.get("collectionRef").filter(|v| !v.is_null()).cloned(),
            tag: text("tag")?.map(|t| t.to_lowercase()),
            item_type: text("itemType")?,
            filter: text("filter")?.map(|f| f.to_lowercase()),
        })
    }

    fn matches(&self, record: &Record) -> bool {
        let z = record.zotero.get();
        let Some(reference) = &record.reference else {
            return false;
        };
        if self.library_id != reference.library_id
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

    /// The criteria a page answers, in the reference's key order: `libraryId`,
    /// `collectionRef` (the caller's), `tag`, `itemType`, `filter`, `order`.
    pub(super) fn to_json(&self) -> Value {
        json!({"libraryId": self.library_id, "collectionRef": self.collection_ref,
            "tag": self.tag, "itemType": self.item_type, "filter": self.filter,
            "order": "stable_identity"})
    }

    /// The hash a listing cursor is bound to: of the normalised criteria as the
    /// reference host writes them (the collection by its key where the
    /// reference writes its numeric id).
    pub(super) fn hash(&self) -> String {
        let text = |t: &Option<String>| t.clone().unwrap_or_default();
        criteria_hash(&json!({"libraryId": self.library_id,
            "collectionId": self.collection.clone().map_or(json!(0), Value::from),
            "tag": text(&self.tag), "itemType": text(&self.item_type),
            "filter": text(&self.filter), "schema": "zotero-agents.library-live-items.v1",
            "scope": "top-level-regular", "order": "stable_identity"}))
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
        source_paged("attachments", parent_criteria(parent), items, page)
    }

    /// `library.getItemNotes(ref, page)`: note summaries.
    pub fn get_item_notes(
        &self,
        parent: &PortableItemRef,
        page: &PageRequest,
    ) -> HostResult<Value> {
        let items = self.children_json(parent, DetailKind::Note, |r| self.note_summary(r))?;
        source_paged("notes", parent_criteria(parent), items, page)
    }

    /// `library.listAnnotations(ref, page)`: the annotations of an attachment, or
    /// of every attachment of a regular item, by `sortIndex`, then Zotero's item id
    /// (the world's order where it has none); trashed ones too, as the reference
    /// host lists them.
    pub fn list_annotations(
        &self,
        item: &PortableItemRef,
        page: &PageRequest,
    ) -> HostResult<Value> {
        let record = self.record_of(item, "item")?;
        let kind = record.kind.unwrap_or(DetailKind::Regular);
        let attachments: Vec<&Record> = match kind {
            DetailKind::Attachment => vec![record],
            DetailKind::Regular => self
                .child_records(record)
                .filter(|r| r.kind == Some(DetailKind::Attachment))
                .collect(),
            _ => {
                return Err(HostWorldError::WrongKind {
                    kind: "item".into(),
                    key: item.identity(),
                    needs: Some("annotation listing requires a regular item or attachment"),
                });
            }
        };
        let mut annotations: Vec<&Record> = attachments
            .into_iter()
            .flat_map(|a| self.child_records(a))
            .filter(|r| r.kind == Some(DetailKind::Annotation))
            .collect();
        annotations.sort_by_cached_key(|r| {
            let z = r.zotero.get();
            let index = z.fields.get("annotationSortIndex").and_then(Value::as_str);
            let index: Vec<u16> = index.unwrap_or_default().encode_utf16().collect();
            (index, r.id.is_none(), r.id)
        });
        let items = annotations
            .into_iter()
            .map(|r| self.annotation_detail(r))
            .collect();
        let mut criteria = parent_criteria(item);
        criteria["parentKind"] = kind.as_str().into();
        source_paged("annotations", criteria, items, page)
    }

    /// The top-level regular items `criteria` selects, in stable order.
    pub(super) fn regular_items<'a: 'c, 'c>(
        &'a self,
        criteria: &'c ItemCriteria,
    ) -> impl Iterator<Item = &'a Record> + 'c {
        self.records.iter().filter(move |r| listed(r, criteria))
    }

    /// The items `criteria` selects that come after `after`: after the cursor's
    /// row where the world still holds it (trashed or not), else, for a row gone
    /// from the world, those with a greater Zotero item id (or none).
    pub(super) fn items_after<'a: 'c, 'c>(
        &'a self,
        criteria: &'c ItemCriteria,
        after: &After,
    ) -> HostResult<impl Iterator<Item = &'a Record> + 'c> {
        let at = |found: &dyn Fn(&Record) -> bool| self.records.iter().position(found);
        let (start, floor) = match after {
            After::Start => (0, None),
            After::Id(id) => at(&|r| r.id == Some(*id)).map_or((0, Some(*id)), |i| (i + 1, None)),
            After::Key(key) => {
                let same = |r: &Record| {
                    r.reference
                        .as_ref()
                        .is_some_and(|own| own.library_id == criteria.library_id && own.key == *key)
                };
                let i = at(&same).ok_or_else(|| {
                    cursor_refused("library cursor does not match the current criteria")
                })?;
                (i + 1, None)
            }
        };
        let beyond = move |r: &Record| floor.is_none_or(|f| r.id.is_none_or(|own| own > f));
        let rest = self.records.get(start..).unwrap_or_default().iter();
        Ok(rest.filter(move |r| listed(r, criteria) && beyond(r)))
    }

    /// `library.listItems(input)`: one page of top-level regular items, after
    /// the row its `cursor` names.
    pub fn list_items(&self, input: &Value) -> HostResult<Value> {
        let criteria = ItemCriteria::parse(input)?;
        let hash = criteria.hash();
        let after = library_after(input.get("cursor"), &hash)?;
        let limit = super::paging::page_limit(input.get("limit"), MAX_LIST_LIMIT)?;
        let scanned = self.regular_items(&criteria).count();
        let mut rows: Vec<&Record> = self
            .items_after(&criteria, &after)?
            .take(limit + 1)
            .collect();
        let has_more = rows.len() > limit;
        rows.truncate(limit);
        let next = match rows.last() {
            Some(last) if has_more => Value::from(library_cursor(&hash, last)),
            _ => Value::Null,
        };
        let items: Vec<Value> = rows
            .iter()
            .map(|r| Value::Object(self.regular_summary(r)))
            .collect();
        Ok(
            json!({"items": items, "limit": limit, "returned": rows.len(), "hasMore": has_more,
            "nextCursor": next, "totalScanned": scanned, "criteria": criteria.to_json()}),
        )
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
                    needs: Some("portable export requires regular items"),
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
        let library = input.get("libraryId").cloned().unwrap_or(1.into());
        let page = PageRequest::from_value(Some(input));
        let criteria = json!({"libraryId": library});
        let mut page = source_paged("savedSearches", criteria, Vec::new(), &page)?;
        page["libraryId"] = library;
        page["order"] = "stable_identity".into();
        Ok(page)
    }
}

/// What a child listing of `parent` is bound to: its library and key.
fn parent_criteria(parent: &PortableItemRef) -> Value {
    json!({"libraryId": parent.library_id, "parentKey": parent.key})
}

/// Whether `record` is a top-level regular item, not trashed, that `criteria` selects.
fn listed(record: &Record, criteria: &ItemCriteria) -> bool {
    record.kind.unwrap_or(DetailKind::Regular) == DetailKind::Regular
        && record.parent_ref.is_none()
        && record.parent_id.is_none()
        && !record.zotero.get().deleted
        && criteria.matches(record)
}

/// Most items one `library.exportPortableItems` call exports.
pub const MAX_PORTABLE_ITEMS: u64 = 10_000;

/// Most bytes of JSON one `library.exportPortableItems` call answers.
pub const MAX_PORTABLE_BYTES: u64 = 64 * 1024 * 1024;

/// A read stopped by its call's budget; the call ends with the budget's breach.
pub(super) fn stopped(error: HostError) -> HostWorldError {
    HostWorldError::ResourceLimited {
        resource: error.fields["details"]["resource"]
            .as_str()
            .unwrap_or("duration_ms")
            .into(),
        limit: 0,
        observed: Value::Null,
    }
}
