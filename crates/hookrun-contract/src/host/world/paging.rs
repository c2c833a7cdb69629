//! Paging of the library list reads (`hasMore` / `nextCursor`).

use serde_json::{Map, Value};

use super::{HostResult, HostWorldError};

/// Default page size of the paged library reads.
pub const DEFAULT_PAGE_LIMIT: usize = 25;
/// Largest page size of the paged library reads.
pub const MAX_PAGE_LIMIT: usize = 100;

/// A page request of the paged library reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageRequest {
    /// Page size (default 25, at most 100).
    pub limit: Option<usize>,
    /// Cursor from a previous page's `nextCursor`.
    pub cursor: Option<String>,
}

impl PageRequest {
    /// The `{limit, cursor}` of a read's page argument (or input); a missing or
    /// malformed member is left out.
    pub fn from_value(page: Option<&Value>) -> PageRequest {
        let page = page.unwrap_or(&Value::Null);
        PageRequest {
            limit: page
                .get("limit")
                .and_then(Value::as_u64)
                .map(|l| l as usize),
            cursor: page
                .get("cursor")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }
}

/// One page of `items` under `key`, with `limit`, `total`, `returned`, `hasMore`
/// and `nextCursor` (`null` on the last page).
pub(super) fn paged(key: &str, items: Vec<Value>, page: &PageRequest) -> HostResult<Value> {
    let limit = match page.limit {
        None => DEFAULT_PAGE_LIMIT,
        Some(0) => {
            return Err(HostWorldError::InvalidRequest(
                "page limit must be at least 1".into(),
            ));
        }
        Some(n) => n.min(MAX_PAGE_LIMIT),
    };
    let start = match &page.cursor {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .ok()
            .filter(|s| *s <= items.len())
            .ok_or_else(|| HostWorldError::InvalidRequest(format!("invalid cursor {c}")))?,
    };
    let end = start.saturating_add(limit).min(items.len());
    let has_more = end < items.len();
    let total = items.len();
    let slice: Vec<Value> = items.into_iter().skip(start).take(end - start).collect();
    let mut m = Map::new();
    let returned = slice.len();
    m.insert(key.into(), Value::Array(slice));
    m.insert("limit".into(), limit.into());
    m.insert("total".into(), total.into());
    m.insert("returned".into(), returned.into());
    m.insert("hasMore".into(), has_more.into());
    m.insert(
        "nextCursor".into(),
        if has_more {
            end.to_string().into()
        } else {
            Value::Null
        },
    );
    Ok(Value::Object(m))
}
