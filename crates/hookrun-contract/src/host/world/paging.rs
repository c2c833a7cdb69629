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
    /// Page size as given (default 25, at most 100; see `page_limit`).
    pub limit: Option<Value>,
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
                .filter(|l| !l.is_null() && l.as_str() != Some(""))
                .cloned(),
            cursor: page
                .get("cursor")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }
}

/// A page size as the reference host reads it: a number (or a numeric string)
/// that is a whole number from 1 to `max`, else `resource_limited` naming it.
pub(super) fn page_limit(limit: Option<&Value>, max: usize) -> HostResult<usize> {
    let Some(limit) = limit.filter(|l| !l.is_null() && l.as_str() != Some("")) else {
        return Ok(DEFAULT_PAGE_LIMIT);
    };
    let n = match limit {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match n {
        Some(n) if n.fract() == 0.0 && n >= 1.0 && n <= max as f64 => Ok(n as usize),
        _ => Err(HostWorldError::ResourceLimited {
            resource: "items".into(),
            limit: max as u64,
            observed: match n {
                Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => Value::from(n as u64),
                Some(n) if n.is_finite() && n >= 0.0 => Value::from(n),
                _ => Value::Null,
            },
        }),
    }
}

/// One page of `items` under `key`, with `limit`, `total`, `returned`, `hasMore`
/// and `nextCursor` (`null` on the last page).
pub(super) fn paged(key: &str, items: Vec<Value>, page: &PageRequest) -> HostResult<Value> {
    let limit = page_limit(page.limit.as_ref(), MAX_PAGE_LIMIT)?;
    let start = match &page.cursor {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .ok()
            .filter(|s| *s <= items.len())
            .ok_or_else(|| HostWorldError::InvalidField {
                message: "source cursor is malformed".into(),
                reason: "invalid_value",
                field: "cursor",
            })?,
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

#[cfg(test)]
#[path = "ported_paging_tests.rs"]
mod ported_paging_tests;
