//! Paging of the library list reads (`hasMore` / `nextCursor`).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value, json};

use super::dto::hex_sha256;
use super::record::Record;
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

/// One page of `items` under `key` (a listing with no criteria but its kind).
pub(super) fn paged(key: &str, items: Vec<Value>, page: &PageRequest) -> HostResult<Value> {
    source_paged(key, json!({}), items, page)
}

/// One page of `items` under `key`, with `limit`, `total`, `returned`, `hasMore`
/// and `nextCursor` (`null` on the last page): a cursor bound to the listing's
/// kind and `criteria` that resumes after the row it names.
pub(super) fn source_paged(
    key: &str,
    criteria: Value,
    items: Vec<Value>,
    page: &PageRequest,
) -> HostResult<Value> {
    let limit = page_limit(page.limit.as_ref(), MAX_PAGE_LIMIT)?;
    let domain = if key == "savedSearches" {
        "saved-searches"
    } else {
        key
    };
    let mut hashed = json!({"schema": "zotero-agents.zotero-source-page.v1", "domain": domain});
    if let (Some(all), Value::Object(criteria)) = (hashed.as_object_mut(), criteria) {
        all.extend(criteria);
    }
    hashed["order"] = "stable_identity".into();
    let hash = criteria_hash(&hashed);
    let start = match page.cursor.as_deref().filter(|c| !c.is_empty()) {
        None => Some(0),
        Some(text) => resume_at(&items, &source_position(text, domain, &hash)?),
    };
    let start = start.ok_or_else(|| cursor_refused("source cursor position is invalid"))?;
    let total = items.len();
    let rows: Vec<Value> = items.into_iter().skip(start).take(limit).collect();
    let has_more = start + rows.len() < total;
    let next = match rows.last() {
        Some(last) if has_more => {
            let cursor = json!({"version": CURSOR_VERSION, "domain": domain,
                "criteriaHash": hash, "position": row_position(domain, last)});
            Value::from(URL_SAFE_NO_PAD.encode(cursor.to_string()))
        }
        _ => Value::Null,
    };
    let mut m = Map::new();
    let returned = rows.len();
    m.insert(key.into(), Value::Array(rows));
    m.insert("limit".into(), limit.into());
    m.insert("total".into(), total.into());
    m.insert("returned".into(), returned.into());
    m.insert("hasMore".into(), has_more.into());
    m.insert("nextCursor".into(), next);
    Ok(Value::Object(m))
}

/// Where a source page's row stands: its key, and an annotation's sort index.
fn row_position(domain: &str, row: &Value) -> Value {
    let key = row["ref"]["key"].clone();
    if domain == "annotations" {
        json!({"sortIndex": row["location"]["sortIndex"].as_str().unwrap_or_default(), "key": key})
    } else {
        json!({"key": key})
    }
}

/// Reads a source cursor of `domain` issued under the criteria hashed `hash`,
/// with the reference's texts; answers the position it names.
fn source_position(text: &str, domain: &str, hash: &str) -> HostResult<Map<String, Value>> {
    let body = decode_cursor(text).ok_or_else(|| cursor_refused("source cursor is malformed"))?;
    let mut members: Vec<&str> = body.keys().map(String::as_str).collect();
    members.sort_unstable();
    if members != ["criteriaHash", "domain", "position", "version"]
        || body["version"].as_u64() != Some(CURSOR_VERSION)
        || body["domain"] != domain
        || body["criteriaHash"] != hash
    {
        return Err(cursor_refused("source cursor does not match the query"));
    }
    let invalid = || cursor_refused("source cursor position is invalid");
    let position = body["position"].as_object().ok_or_else(invalid)?;
    let text = |member: &str| position.get(member).and_then(Value::as_str);
    let mut members: Vec<&str> = position.keys().map(String::as_str).collect();
    members.sort_unstable();
    let expected: &[&str] = if domain == "annotations" {
        &["key", "sortIndex"]
    } else {
        &["key"]
    };
    let fits = members == expected
        && text("key").is_some_and(|k| !k.is_empty())
        && (domain != "annotations" || text("sortIndex").is_some());
    fits.then(|| position.clone()).ok_or_else(invalid)
}

/// The index of the first row after `position`'s row, where the listing still
/// has it.
fn resume_at(items: &[Value], position: &Map<String, Value>) -> Option<usize> {
    let key = position.get("key");
    let at = items.iter().position(|r| r["ref"].get("key") == key)?;
    Some(at + 1)
}

/// The version of the listing cursors.
const CURSOR_VERSION: u64 = 1;

/// Where a `listItems` page (or a traversal) resumes: at the start, or after the
/// row with this Zotero item id, or, for a row the world knows no id of, this key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum After {
    /// The first page.
    Start,
    /// After the item with this Zotero item id.
    Id(i64),
    /// After the item with this key (in the listing's library).
    Key(String),
}

/// The hex SHA-256 of a listing's criteria, as JSON in the order written.
pub(super) fn criteria_hash(criteria: &Value) -> String {
    hex_sha256(criteria.to_string().as_bytes())
}

/// A listing cursor refused with `message`: `invalid_request` naming `cursor`.
pub(super) fn cursor_refused(message: &str) -> HostWorldError {
    HostWorldError::InvalidField {
        message: message.into(),
        reason: "invalid_value",
        field: "cursor",
    }
}

/// The JSON object a cursor text carries (base64url of its JSON), or `None`
/// when the text is not one.
fn decode_cursor(text: &str) -> Option<Map<String, Value>> {
    let alphabet = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
    if text.is_empty() || !text.bytes().all(alphabet) {
        return None;
    }
    let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
    match serde_json::from_slice(&bytes).ok()? {
        Value::Object(body) => Some(body),
        _ => None,
    }
}

/// Reads a `listItems` cursor (a traversal's `resumeCursor`) issued under the
/// criteria hashed `hash`; absent or `null` is the first page.
pub(super) fn library_after(cursor: Option<&Value>, hash: &str) -> HostResult<After> {
    let text = match cursor {
        None | Some(Value::Null) => return Ok(After::Start),
        Some(Value::String(text)) => text,
        Some(_) => return Err(cursor_refused("library cursor must be a string")),
    };
    let malformed = || cursor_refused("library cursor is malformed");
    let body = decode_cursor(text).ok_or_else(malformed)?;
    if body.get("version").and_then(Value::as_u64) != Some(CURSOR_VERSION) {
        return Err(cursor_refused("library cursor version is unsupported"));
    }
    if body.get("criteriaHash").and_then(Value::as_str) != Some(hash) {
        return Err(cursor_refused(
            "library cursor does not match the current criteria",
        ));
    }
    match (body.get("afterItemId"), body.get("afterKey")) {
        (Some(id), None) => id
            .as_i64()
            .filter(|id| *id > 0)
            .map(After::Id)
            .ok_or_else(malformed),
        (None, Some(Value::String(key))) if !key.is_empty() => Ok(After::Key(key.clone())),
        _ => Err(malformed()),
    }
}

/// The cursor of the page after `last`, under the criteria hashed `hash`:
/// base64url of `{version, criteriaHash, afterItemId}` (`afterKey` for an
/// item the world knows no Zotero item id of).
pub(super) fn library_cursor(hash: &str, last: &Record) -> String {
    let mut cursor = json!({"version": CURSOR_VERSION, "criteriaHash": hash});
    match (last.id.filter(|id| *id > 0), &last.reference) {
        (Some(id), _) => cursor["afterItemId"] = id.into(),
        (None, Some(reference)) => cursor["afterKey"] = reference.key.clone().into(),
        (None, None) => {}
    }
    URL_SAFE_NO_PAD.encode(cursor.to_string())
}

#[cfg(test)]
#[path = "ported_paging_tests.rs"]
mod ported_paging_tests;
