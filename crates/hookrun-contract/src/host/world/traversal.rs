//! `library.traverseItems` and `library.withItemSnapshot`: the library's top-level
//! regular items in batches for a callback, within the request's bounds, and how
//! the traversal ended.

use serde_json::{Value, json};

use super::dto::digest;
use super::evidence::{
    Covered, TRAVERSAL_SCOPE, completion_evidence, coverage_digest, criteria_digest, tag_digest,
    traversal_tags,
};
use super::paging::{library_after, library_cursor};
use super::reads::{ItemCriteria, stopped};
use super::record::Record;
use super::{HostResult, HostWorld, HostWorldError};
use crate::host::Budget;

impl HostWorld {
    /// The batches `traverseItems` hands its callback, `pageSize` items each, and
    /// how the traversal ended (completed at `completed_at`, with its completion
    /// evidence); a `resumeCursor` from a traversal that hit a budget continues
    /// after the items it visited.
    pub fn traverse_items(
        &self,
        input: &Value,
        budget: &Budget,
        completed_at: &str,
    ) -> HostResult<(Vec<Value>, Value)> {
        let walk = self.traverse(input, 500, budget, |r| {
            let mut summary = self.regular_summary(r);
            let tags = traversal_tags(&r.zotero.get().tags);
            let digest = tag_digest(&tags);
            summary.insert("tags".into(), json!(tags));
            summary.insert("tagDigest".into(), digest.into());
            Value::Object(summary)
        })?;
        if let Some(limited) = walk.limited() {
            return Ok((walk.batches, limited));
        }
        let covered = walk
            .visited
            .iter()
            .filter_map(|r| {
                let reference = r.reference.as_ref()?;
                Some(Covered {
                    library_id: reference.library_id,
                    key: reference.key.clone(),
                    revision: r.revision(),
                    tag_digest: tag_digest(&traversal_tags(&r.zotero.get().tags)),
                })
            })
            .collect();
        let criteria = walk.criteria.to_json();
        let evidence = completion_evidence(
            criteria_digest(&criteria),
            coverage_digest(covered),
            completed_at,
            self.evidence.next(),
        );
        let ending = walk.completed(evidence);
        Ok((walk.batches, ending))
    }

    /// The batches `withItemSnapshot` hands its callback (`batchSize` items each, at
    /// most 1,000) and how the snapshot ended: its `coverageDigest` is over the
    /// library and the `{ref, revision}` of its items in key order.
    pub fn snapshot_items(
        &self,
        library_id: u64,
        batch_size: &Value,
        budget: &Budget,
    ) -> HostResult<(Vec<Value>, Value)> {
        let input =
            json!({"scope": TRAVERSAL_SCOPE, "libraryId": library_id, "pageSize": batch_size});
        let walk = self.traverse(&input, 1_000, budget, |r| self.snapshot_item(r))?;
        let mut items: Vec<&Value> = walk
            .batches
            .iter()
            .filter_map(|call| call[0]["items"].as_array())
            .flatten()
            .collect();
        let order = |item: &Value| {
            let r = &item["ref"];
            format!(
                "{}\n{}",
                r["libraryId"],
                r["key"].as_str().unwrap_or_default()
            )
        };
        items.sort_by_cached_key(|item| order(item).encode_utf16().collect::<Vec<u16>>());
        let items: Vec<Value> = items
            .into_iter()
            .map(|i| json!({"ref": i["ref"], "revision": i["revision"]}))
            .collect();
        let content = digest(&json!({"libraryId": library_id, "items": items}));
        let ending = walk.limited().unwrap_or_else(|| {
            walk.completed(json!({"coverageDigest": content.trim_start_matches("sha256:")}))
        });
        Ok((walk.batches, ending))
    }

    /// The items of a traversal in batches, shaping only the items it visits (and
    /// looking at one more, to know whether it ends there), one step of `budget`
    /// each.
    fn traverse<'a>(
        &'a self,
        input: &Value,
        max_page: u64,
        budget: &Budget,
        shape: impl Fn(&Record) -> Value,
    ) -> HostResult<Walk<'a>> {
        if input.get("scope").and_then(Value::as_str) != Some(TRAVERSAL_SCOPE) {
            return Err(HostWorldError::InvalidRequest(
                "traversal scope is unsupported: scope must be \"top-level-regular\"".into(),
            ));
        }
        let criteria = ItemCriteria::parse(input)?;
        let bounds = Traversal::parse(input, max_page)?;
        let after = library_after(input.get("resumeCursor"), &criteria.hash())?;
        let cap = bounds.max_items.min(bounds.page_size * bounds.max_pages);
        let mut visited: Vec<&Record> = Vec::new();
        let mut more = false;
        for record in self.items_after(&criteria, &after)? {
            budget.tick().map_err(stopped)?;
            if visited.len() == cap {
                more = true;
                break;
            }
            visited.push(record);
        }
        let items: Vec<Value> = visited.iter().map(|r| shape(r)).collect();
        let batches: Vec<Value> = items
            .chunks(bounds.page_size)
            .enumerate()
            .map(|(i, chunk)| json!([{"batchIndex": i, "items": chunk}]))
            .collect();
        Ok(Walk {
            criteria,
            bounds,
            visited,
            batches,
            more,
        })
    }
}

/// A traversal's bounds and where it starts, as its request gives them.
struct Traversal {
    page_size: usize,
    max_items: usize,
    max_pages: usize,
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
        Ok(Traversal {
            page_size,
            max_items,
            max_pages,
        })
    }
}

/// A traversal: its criteria and bounds, the items it visited and the batches
/// they make, and whether the library had more.
struct Walk<'a> {
    criteria: ItemCriteria,
    bounds: Traversal,
    visited: Vec<&'a Record>,
    batches: Vec<Value>,
    more: bool,
}

impl Walk<'_> {
    fn library_id(&self) -> u64 {
        self.criteria.library_id
    }

    /// How a traversal that stopped at a budget ends: `resource_limited`, with a
    /// resume cursor after the last item it visited; `None` when it visited
    /// everything.
    fn limited(&self) -> Option<Value> {
        let last = self.visited.last().filter(|_| self.more)?;
        let visited = self.visited.len();
        let reason = if visited == self.bounds.max_items {
            "max_items"
        } else {
            "max_pages"
        };
        Some(
            json!({"outcome": "resource_limited", "libraryId": self.library_id(), "visitedItems": visited,
            "visitedBatches": self.batches.len(), "reason": reason,
            "resumeCursor": library_cursor(&self.criteria.hash(), last)}),
        )
    }

    /// How a traversal that visited everything ends: `completed`, with `evidence`.
    fn completed(&self, evidence: Value) -> Value {
        json!({"outcome": "completed", "libraryId": self.library_id(), "scope": TRAVERSAL_SCOPE,
            "visitedItems": self.visited.len(), "visitedBatches": self.batches.len(),
            "completionEvidence": evidence})
    }
}
