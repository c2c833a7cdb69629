//! The request of `library.searchItems`, read and bounded as the reference
//! host's search contract bounds it.

use serde_json::{Value, json};

use super::Member;
use super::request::{Request, arg, portable_ref};
use crate::host::HostError;
use crate::host::world::{Search, Sources};
use crate::selection::PortableItemRef;

/// Most characters of a query or a cursor.
const MAX_QUERY_CHARS: usize = 4096;
/// Most items of a page.
const MAX_LIMIT: u64 = 100;
/// Most items a whole search answers.
const MAX_RESULTS: u64 = 1000;
/// Most libraries or item refs a scope names.
const MAX_SCOPE: usize = 100;

/// The members of a search request besides its scope.
pub(super) const SEARCH: &[&str] = &["query", "limit", "maxResults", "cursor"];

/// The members that limit what a search reads.
pub(super) const SCOPE: &[&str] = &[
    "libraryIds",
    "itemRefs",
    "collectionRef",
    "tag",
    "itemType",
    "sourceKinds",
];

/// `library.searchItems(request)`.
#[derive(Debug)]
pub struct SearchRequest(pub Search);

fn out_of_bounds(reason: &str, field: &str) -> HostError {
    HostError::workflow(
        "invalid_request",
        "Search request is out of bounds",
        json!({"reason": reason, "field": field}),
    )
}

/// A whole number at `field` of at least 1 and at most `max` (`default` when absent).
fn count(request: &Value, field: &str, default: u64, max: u64) -> Result<usize, HostError> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(default as usize),
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=max).contains(n))
            .map(|n| n as usize)
            .ok_or_else(|| out_of_bounds("invalid_value", field)),
    }
}

/// A non-blank string at `field` of at most `max` characters.
fn text(request: &Value, field: &str, max: usize) -> Result<Option<String>, HostError> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.trim().is_empty() && s.trim().chars().count() <= max => {
            Ok(Some(s.trim().to_string()))
        }
        Some(Value::String(_)) => Err(out_of_bounds("invalid_value", field)),
        Some(_) => Err(out_of_bounds("invalid_type", field)),
    }
}

/// A list at `field` of at most [`MAX_SCOPE`] entries.
fn list<'a>(request: &'a Value, field: &str) -> Result<Option<&'a Vec<Value>>, HostError> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) if items.len() <= MAX_SCOPE => Ok(Some(items)),
        Some(Value::Array(_)) => Err(out_of_bounds("invalid_value", field)),
        Some(_) => Err(out_of_bounds("invalid_type", field)),
    }
}

impl Request for SearchRequest {
    fn decode(_: Member, args: &Value) -> Result<SearchRequest, HostError> {
        let request = arg(args, 0);
        let Value::Object(map) = request else {
            return Err(out_of_bounds("invalid_type", "request"));
        };
        let known = |k: &str| SEARCH.contains(&k) || SCOPE.contains(&k);
        if let Some(extra) = map.keys().find(|k| !known(k.as_str())) {
            return Err(out_of_bounds("invalid_schema", extra));
        }
        let query = text(request, "query", MAX_QUERY_CHARS)?
            .ok_or_else(|| out_of_bounds("missing_field", "query"))?;
        let terms = distinct_terms(&query);
        let limit = count(request, "limit", 25, MAX_LIMIT)?;
        let max_results = count(request, "maxResults", 100, MAX_RESULTS)?;
        if limit > max_results {
            return Err(HostError::workflow(
                "invalid_request",
                "Search limit cannot exceed maxResults",
                json!({"reason": "invalid_combination", "field": "limit"}),
            ));
        }
        let offset = match text(request, "cursor", MAX_QUERY_CHARS)? {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .map_err(|_| out_of_bounds("invalid_value", "cursor"))?,
        };
        let (library_ids, items, collection) = scope(request)?;
        let sources = sources(request)?;
        Ok(SearchRequest(Search {
            query,
            terms,
            limit,
            max_results,
            offset,
            library_ids,
            items,
            collection,
            tag: text(request, "tag", 256)?,
            item_type: text(request, "itemType", 64)?,
            sources,
        }))
    }
}

/// The query's lower-case terms, each once, in order.
fn distinct_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for term in query.to_lowercase().split_whitespace() {
        if !terms.iter().any(|t| t == term) {
            terms.push(term.to_string());
        }
    }
    terms
}

/// What a search is limited to: `libraryIds`, `itemRefs`, `collectionRef`.
type Scope = (
    Option<Vec<u64>>,
    Option<Vec<PortableItemRef>>,
    Option<PortableItemRef>,
);

/// The search's scope, each part checked as the reference host checks it.
fn scope(request: &Value) -> Result<Scope, HostError> {
    let library_ids = list(request, "libraryIds")?
        .map(|ids| {
            ids.iter()
                .map(|id| {
                    id.as_u64()
                        .filter(|id| *id >= 1)
                        .ok_or_else(|| out_of_bounds("invalid_value", "libraryIds"))
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let items = list(request, "itemRefs")?
        .map(|refs| {
            refs.iter()
                .map(|r| portable_ref(r, "item"))
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let collection = match request.get("collectionRef") {
        None | Some(Value::Null) => None,
        Some(r) => Some(portable_ref(r, "collection")?),
    };
    Ok((library_ids, items, collection))
}

/// `sourceKinds`: which sources a search reads (all when absent).
fn sources(request: &Value) -> Result<Sources, HostError> {
    let Some(kinds) = list(request, "sourceKinds")? else {
        return Ok(Sources {
            metadata: true,
            fulltext: true,
            analysis: true,
        });
    };
    let mut sources = Sources {
        metadata: false,
        fulltext: false,
        analysis: false,
    };
    for kind in kinds {
        match kind.as_str() {
            Some("metadata") => sources.metadata = true,
            Some("fulltext") => sources.fulltext = true,
            Some("analysis") => sources.analysis = true,
            _ => return Err(out_of_bounds("unsupported_value", "sourceKinds")),
        }
    }
    Ok(sources)
}
