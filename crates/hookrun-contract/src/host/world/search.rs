//! `library.searchItems`: a lexical search over the library's top-level regular
//! items, their metadata, the text of their text attachments and their analyses
//! (managed notes), as the reference host's broker answers it: items with the
//! places their terms were found, no scores, in stable identity order.

use serde_json::{Value, json};

use super::record::{DetailKind, Record};
use super::{HostWorld, strip_tags};
use crate::host::{Budget, HostError};
use crate::selection::PortableItemRef;

/// Where a search looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sources {
    /// Fields, creators and tags.
    pub metadata: bool,
    /// The text of attachments whose files are text.
    pub fulltext: bool,
    /// Managed notes: digests, references, citation analyses, scores.
    pub analysis: bool,
}

/// A search, read and bounded by its request type.
#[derive(Debug, Clone)]
pub struct Search {
    /// The query as given (trimmed).
    pub query: String,
    /// Its distinct lower-cased terms.
    pub terms: Vec<String>,
    /// Items per page.
    pub limit: usize,
    /// Items the whole search answers at most.
    pub max_results: usize,
    /// Items already answered by earlier pages.
    pub offset: usize,
    /// Libraries searched (`None`: every one).
    pub library_ids: Option<Vec<u64>>,
    /// Items searched (`None`: every one).
    pub items: Option<Vec<PortableItemRef>>,
    /// A collection the items must be in.
    pub collection: Option<PortableItemRef>,
    /// A tag the items must have (any case).
    pub tag: Option<String>,
    /// An item type the items must have (any case).
    pub item_type: Option<String>,
    /// Where to look.
    pub sources: Sources,
}

/// Most bytes of one attachment's text a search reads.
const MAX_FULLTEXT_BYTES: u64 = 4 * 1024 * 1024;

/// The kinds of managed notes that are analyses.
const ANALYSES: [&str; 4] = [
    "digest",
    "references",
    "citation-analysis",
    "literature-score",
];

/// How the sources of one search fared.
#[derive(Default)]
struct Scanned {
    metadata: u64,
    fulltext: u64,
    analysis: u64,
    unreadable: u64,
}

impl HostWorld {
    /// Answers `search` (see the module docs); each item and each source read is
    /// one step of `budget`, and text read from files is spent from it.
    pub fn search_items(&self, search: &Search, budget: &Budget) -> Result<Value, HostError> {
        let mut scanned = Scanned::default();
        let mut found: Vec<Value> = Vec::new();
        let mut limited = false;
        for (index, record) in self.records.iter().enumerate() {
            budget.tick()?;
            if !self.in_scope(record, search) {
                continue;
            }
            let matches = self.matches_of(index, record, search, budget, &mut scanned)?;
            if matches.is_empty() {
                continue;
            }
            if found.len() == search.max_results {
                limited = true;
                break;
            }
            let item = Value::Object(self.regular_summary(record));
            found.push(json!({"item": item, "matches": matches}));
        }
        let total = found.len();
        let page: Vec<Value> = found
            .into_iter()
            .skip(search.offset)
            .take(search.limit)
            .collect();
        let next = search.offset + page.len();
        let has_more = next < total;
        let status = |on: bool, count: u64| {
            json!({"status": if !on { "not_requested" } else if limited { "limited" } else { "complete" },
                "sourcesScanned": count})
        };
        let issues: Vec<Value> = (scanned.unreadable > 0)
            .then(|| json!({"code": "source_read_failed", "sourceKind": "fulltext", "affectedCount": scanned.unreadable}))
            .into_iter()
            .chain(limited.then(|| json!({"code": "result_budget_exhausted", "sourceKind": null, "affectedCount": 1})))
            .collect();
        Ok(json!({
            "results": page,
            "status": if limited { "limited" } else { "completed" },
            "method": "lexical",
            "coverage": {"kind": "library", "sources": {
                "metadata": status(search.sources.metadata, scanned.metadata),
                "fulltext": status(search.sources.fulltext, scanned.fulltext),
                "analysis": status(search.sources.analysis, scanned.analysis)}},
            "issues": issues,
            "nextCursor": has_more.then(|| next.to_string()),
            "hasMore": has_more,
            "total": if limited { Value::Null } else { total.into() },
        }))
    }

    /// Whether `record` is a top-level regular item the search's scope holds.
    fn in_scope(&self, record: &Record, search: &Search) -> bool {
        let Some(reference) = &record.reference else {
            return false;
        };
        let z = record.zotero.get();
        record.kind.unwrap_or(DetailKind::Regular) == DetailKind::Regular
            && record.parent_ref.is_none()
            && record.parent_id.is_none()
            && !z.deleted
            && search
                .library_ids
                .as_ref()
                .is_none_or(|ids| ids.contains(&reference.library_id))
            && search
                .items
                .as_ref()
                .is_none_or(|refs| refs.contains(reference))
            && search.collection.as_ref().is_none_or(|c| {
                c.library_id == reference.library_id && z.collections.contains(&c.key)
            })
            && search
                .tag
                .as_ref()
                .is_none_or(|t| z.tags.iter().any(|tag| tag.eq_ignore_ascii_case(t)))
            && search.item_type.as_ref().is_none_or(|t| {
                record
                    .item_type
                    .as_ref()
                    .is_some_and(|own| own.eq_ignore_ascii_case(t))
            })
    }

    /// The places the search's terms are found in the item at `index`.
    fn matches_of(
        &self,
        index: usize,
        record: &Record,
        search: &Search,
        budget: &Budget,
        scanned: &mut Scanned,
    ) -> Result<Vec<Value>, HostError> {
        let mut matches = Vec::new();
        if search.sources.metadata {
            scanned.metadata += 1;
            metadata_matches(record, search, &mut matches);
        }
        for child in self.children.of(index) {
            budget.tick()?;
            let Some(child) = self.records.get(child) else {
                continue;
            };
            let Some(child_ref) = child.reference.as_ref().map(PortableItemRef::to_value) else {
                continue;
            };
            let hit = match child.kind {
                Some(DetailKind::Note) if search.sources.analysis => {
                    let kind = self.managed_kind(child);
                    analysis_match(child, kind.as_deref(), child_ref, search, scanned)
                }
                Some(DetailKind::Attachment) if search.sources.fulltext => {
                    self.fulltext_match(child, child_ref, search, budget, scanned)?
                }
                _ => None,
            };
            matches.extend(hit);
        }
        Ok(matches)
    }

    /// Where the search's terms are found in the text of the attachment `child`
    /// (read within [`MAX_FULLTEXT_BYTES`], spent from `budget`).
    fn fulltext_match(
        &self,
        child: &Record,
        child_ref: Value,
        search: &Search,
        budget: &Budget,
        scanned: &mut Scanned,
    ) -> Result<Option<Value>, HostError> {
        let Some(path) = child.path.as_deref().filter(|_| is_text(child)) else {
            return Ok(None);
        };
        scanned.fulltext += 1;
        let Ok(size) = self.file_size(path) else {
            scanned.unreadable += 1;
            return Ok(None);
        };
        budget.spend(size.min(MAX_FULLTEXT_BYTES))?;
        let text = match self.read_bytes_within(path, MAX_FULLTEXT_BYTES) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(_) => {
                scanned.unreadable += 1;
                return Ok(None);
            }
        };
        Ok(find(&text, search).map(|hit| {
            hit.place(
                json!({"kind": "fulltext", "attachmentRef": child_ref}),
                &child.revision(),
                json!({"unit": "paragraph", "field": null}),
            )
        }))
    }
}

/// Where the search's terms are found in `record`'s title, fields, creators and
/// tags, added to `matches`.
fn metadata_matches(record: &Record, search: &Search, matches: &mut Vec<Value>) {
    let version = record.revision();
    let z = record.zotero.get();
    let mut fields: Vec<(String, String)> =
        vec![("title".into(), record.title.clone().unwrap_or_default())];
    for (name, value) in &z.fields {
        if name != "title"
            && let Some(text) = value.as_str()
        {
            fields.push((name.clone(), text.to_string()));
        }
    }
    let creators: Vec<String> = z.creators.iter().map(|c| c.display()).collect();
    fields.push(("creators".into(), creators.join("; ")));
    fields.push(("tags".into(), z.tags.join("; ")));
    for (field, text) in fields {
        if let Some(hit) = find(&text, search) {
            matches.push(hit.place(
                json!({"kind": "metadata", "field": field}),
                &version,
                json!({"unit": "field", "field": field}),
            ));
        }
    }
}

/// Where the search's terms are found in the note `child` of managed kind
/// `kind`, when it is an analysis.
fn analysis_match(
    child: &Record,
    kind: Option<&str>,
    child_ref: Value,
    search: &Search,
    scanned: &mut Scanned,
) -> Option<Value> {
    let kind = kind.filter(|k| ANALYSES.contains(k))?;
    scanned.analysis += 1;
    let text = strip_tags(child.html.as_deref().unwrap_or_default());
    find(&text, search).map(|hit| {
        hit.place(
            json!({"kind": "analysis", "artifactType": kind, "noteRef": child_ref}),
            &child.revision(),
            // The search contract names the analysis field of every such match.
            json!({"unit": "analysis_field", "field": "content"}),
        )
    })
}

/// Whether an attachment's file is text a search reads.
fn is_text(record: &Record) -> bool {
    let by_type = record
        .content_type
        .as_deref()
        .is_some_and(|t| t.starts_with("text/"));
    let by_name = record
        .filename
        .as_deref()
        .or(record.path.as_deref())
        .is_some_and(|n| {
            let n = n.to_ascii_lowercase();
            [".md", ".markdown", ".txt", ".html", ".htm"]
                .iter()
                .any(|ext| n.ends_with(ext))
        });
    by_type || by_name
}

/// Where the terms were found in one text.
struct Hit {
    matched: Vec<String>,
    phrase: bool,
    start: usize,
    end: usize,
}

impl Hit {
    fn place(self, source: Value, version: &str, mut location: Value) -> Value {
        location["range"] = json!({"start": self.start, "end": self.end});
        json!({"source": source, "sourceVersion": version, "location": location,
            "matchedTerms": self.matched, "phraseMatch": self.phrase})
    }
}

/// The terms of `search` found in `text` (case-insensitive), with the range of
/// the first one found, in characters.
fn find(text: &str, search: &Search) -> Option<Hit> {
    if text.is_empty() {
        return None;
    }
    let lower = text.to_lowercase();
    let mut first: Option<(usize, usize)> = None;
    let mut matched = Vec::new();
    for term in &search.terms {
        if let Some(at) = lower.find(term.as_str()) {
            matched.push(term.clone());
            if first.is_none_or(|(start, _)| at < start) {
                first = Some((at, at + term.len()));
            }
        }
    }
    let (start, end) = first?;
    let chars = |byte: usize| lower[..byte].chars().count();
    Some(Hit {
        phrase: lower.contains(&search.query.to_lowercase()),
        matched,
        start: chars(start),
        end: chars(end),
    })
}
