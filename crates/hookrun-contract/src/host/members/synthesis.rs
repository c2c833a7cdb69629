//! The requests of the `synthesis.*` members whose contracts the reference
//! host's Synthesis client checks before it reaches its sidecar: the lexical
//! searches (`searchEvidence`, `topics.search`) and the tag-audit run
//! (`tags.withAuditRun`). A request the client refuses is refused here the same
//! way whether or not the fixture answers the member: `invalid_request` "The
//! Synthesis request is invalid", as the Workflow Host maps the client's
//! refusal.

use serde_json::{Map, Value, json};

use super::Member;
use super::request::{Request, arg};
use super::search::{SCOPE, SEARCH};
use crate::host::HostError;

/// Most characters of a query or a cursor.
const MAX_TEXT: usize = 4096;
/// Most libraries or item refs an evidence search names.
const MAX_SCOPE: usize = 100;
/// Most characters of a vocabulary hash.
const MAX_VOCABULARY_HASH: usize = 256;
/// The largest integer JavaScript represents exactly.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

const SOURCE_KINDS: &[&str] = &["metadata", "fulltext", "analysis"];

/// The Workflow Host's answer to a request its Synthesis client refuses.
pub fn synthesis_refusal() -> HostError {
    HostError::workflow(
        "invalid_request",
        "The Synthesis request is invalid",
        json!({"reason": "invalid_value"}),
    )
}

/// The Workflow Host's answer to a Synthesis call that failed other than as a
/// contract error (a callback that is not a function, a run without control).
pub fn synthesis_failure() -> HostError {
    HostError::workflow(
        "execution_failed",
        "The Synthesis operation failed",
        json!({"phase": "adapter", "recovery": "none"}),
    )
}

/// A checked search of `synthesis.searchEvidence` or `synthesis.topics.search`.
#[derive(Debug)]
pub struct SynthesisSearch;

impl Request for SynthesisSearch {
    fn decode(member: Member, args: &Value) -> Result<SynthesisSearch, HostError> {
        let Value::Object(request) = arg(args, 0) else {
            return Err(synthesis_refusal());
        };
        let scope: &[&str] = if member == Member::SynthesisSearchEvidence {
            SCOPE
        } else {
            &["sections"]
        };
        let known = |k: &String| SEARCH.contains(&k.as_str()) || scope.contains(&k.as_str());
        if !request.keys().all(known) || !paging_fits(request) {
            return Err(synthesis_refusal());
        }
        let fits = if member == Member::SynthesisSearchEvidence {
            evidence_scope_fits(request)
        } else {
            optional(request, "sections").is_none_or(|s| strings(s, usize::MAX, usize::MAX))
        };
        if !fits {
            return Err(synthesis_refusal());
        }
        Ok(SynthesisSearch)
    }
}

/// A present, non-null member.
fn optional<'a>(request: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    request.get(key).filter(|v| !v.is_null())
}

/// A whole number of at least 1.
fn positive(value: &Value) -> Option<u64> {
    value
        .as_u64()
        .filter(|n| (1..=MAX_SAFE_INTEGER).contains(n))
}

/// The query, cursor, `limit` and `maxResults` as the client bounds them: a
/// non-blank query and a cursor of at most 4,096 characters, a page no larger
/// than the whole search (25 and 100 by default).
fn paging_fits(request: &Map<String, Value>) -> bool {
    let text = |v: &Value| v.as_str().map(|s| s.chars().count() <= MAX_TEXT);
    let query_fits = request
        .get("query")
        .and_then(Value::as_str)
        .is_some_and(|q| !q.trim().is_empty() && q.chars().count() <= MAX_TEXT);
    let cursor_fits = optional(request, "cursor").is_none_or(|c| text(c) == Some(true));
    let number = |key: &str, default: u64| match optional(request, key) {
        None => Some(default),
        Some(v) => positive(v),
    };
    let (Some(limit), Some(max_results)) = (number("limit", 25), number("maxResults", 100)) else {
        return false;
    };
    query_fits && cursor_fits && limit <= max_results
}

/// A list of at most `count` non-empty strings of at most `chars` characters.
fn strings(value: &Value, count: usize, chars: usize) -> bool {
    value.as_array().is_some_and(|items| {
        items.len() <= count
            && items.iter().all(|s| {
                s.as_str()
                    .is_some_and(|s| !s.is_empty() && s.chars().count() <= chars)
            })
    })
}

/// A ref the search contract accepts: `{libraryId, key}`, a positive id and a
/// key of 1 to 64 letters and digits.
fn search_ref(value: &Value) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    map.len() == 2
        && map.get("libraryId").and_then(positive).is_some()
        && map.get("key").and_then(Value::as_str).is_some_and(|k| {
            (1..=64).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// The scope of an evidence search: at most 100 libraries and item refs, a
/// collection ref, a tag (1 to 256 characters), an item type (1 to 64) and at
/// most the three source kinds.
fn evidence_scope_fits(request: &Map<String, Value>) -> bool {
    let list = |key: &str, each: &dyn Fn(&Value) -> bool| {
        optional(request, key).is_none_or(|v| {
            v.as_array()
                .is_some_and(|items| items.len() <= MAX_SCOPE && items.iter().all(each))
        })
    };
    let text = |key: &str, max: usize| {
        optional(request, key).is_none_or(|v| {
            v.as_str()
                .is_some_and(|s| !s.is_empty() && s.chars().count() <= max)
        })
    };
    list("libraryIds", &|id| positive(id).is_some())
        && list("itemRefs", &search_ref)
        && optional(request, "collectionRef").is_none_or(search_ref)
        && text("tag", 256)
        && text("itemType", 64)
        && list("sourceKinds", &|k| {
            k.as_str().is_some_and(|k| SOURCE_KINDS.contains(&k))
        })
        && optional(request, "sourceKinds")
            .and_then(Value::as_array)
            .is_none_or(|kinds| kinds.len() <= SOURCE_KINDS.len())
}

/// `synthesis.tags.withAuditRun({libraryId, vocabularyHash}, control, callback)`.
#[derive(Debug)]
pub struct AuditRun {
    /// The library audited.
    pub library_id: u64,
    /// The vocabulary the run audits against.
    pub vocabulary_hash: String,
    /// Whether the hook passed a callback.
    pub has_callback: bool,
}

impl Request for AuditRun {
    fn decode(_: Member, args: &Value) -> Result<AuditRun, HostError> {
        let Value::Object(input) = arg(args, 0) else {
            return Err(synthesis_refusal());
        };
        if input.len() != 2 {
            return Err(synthesis_refusal());
        }
        let library_id = input.get("libraryId").and_then(positive);
        let vocabulary_hash = input
            .get("vocabularyHash")
            .and_then(Value::as_str)
            .filter(|h| !h.trim().is_empty() && h.chars().count() <= MAX_VOCABULARY_HASH);
        let (Some(library_id), Some(vocabulary_hash)) = (library_id, vocabulary_hash) else {
            return Err(synthesis_refusal());
        };
        // The reference's run reads `control.signal` once it has begun; without
        // a control object the run fails as the Workflow Host maps a failure.
        if !arg(args, 1).is_object() {
            return Err(synthesis_failure());
        }
        Ok(AuditRun {
            library_id,
            vocabulary_hash: vocabulary_hash.to_string(),
            has_callback: !arg(args, 2).is_string(),
        })
    }
}

/// Most entries of one `run.append`.
const MAX_APPEND_ROWS: usize = 500;
/// Most tags of one entry.
const MAX_ROW_TAGS: usize = 100;
/// Most bytes of one `run.append`'s entries, as JSON.
const MAX_APPEND_BYTES: usize = 8 * 1024 * 1024;

/// What `run.append` throws for entries the Synthesis contract refuses: the
/// client's own error, naming where.
fn invalid_audit(location: &str) -> HostError {
    let mut error = HostError::plain("SynthesisClientError", "Tag audit input is invalid");
    error.fields.insert("code".into(), json!("invalid_request"));
    error
        .fields
        .insert("details".into(), json!({"location": location}));
    error
}

/// The members of `value`, when it is an object with exactly `keys`.
fn exactly<'a>(value: &'a Value, keys: &[&str]) -> Option<&'a Map<String, Value>> {
    value
        .as_object()
        .filter(|m| m.len() == keys.len() && keys.iter().all(|k| m.contains_key(*k)))
}

/// Tags of an audit entry: at most 100 distinct non-blank strings of at most 200
/// UTF-16 units, in ascending code-unit order.
fn audit_tags(value: &Value, location: &str) -> Result<Vec<String>, HostError> {
    let items = value
        .as_array()
        .filter(|t| t.len() <= MAX_ROW_TAGS)
        .ok_or_else(|| invalid_audit(location))?;
    let mut tags: Vec<String> = Vec::with_capacity(items.len());
    for (i, tag) in items.iter().enumerate() {
        let tag = tag
            .as_str()
            .filter(|t| !t.trim().is_empty() && t.encode_utf16().count() <= 200)
            .ok_or_else(|| invalid_audit(&format!("{location}[{i}]")))?;
        if tags
            .last()
            .is_some_and(|last| last.encode_utf16().cmp(tag.encode_utf16()).is_ge())
        {
            return Err(invalid_audit(location));
        }
        tags.push(tag.to_string());
    }
    Ok(tags)
}

/// One entry of `run.append`, checked.
fn audit_entry(entry: &Value, location: &str) -> Result<(), HostError> {
    const KEYS: &[&str] = &[
        "target",
        "auditedRevision",
        "auditedTagDigest",
        "auditedTags",
        "evaluation",
    ];
    let input = exactly(entry, KEYS).ok_or_else(|| invalid_audit(location))?;
    let audited = audit_tags(&input["auditedTags"], &format!("{location}.auditedTags"))?;
    let evaluation = &input["evaluation"];
    let at = format!("{location}.evaluation");
    if evaluation["state"] == "compliant" {
        exactly(evaluation, &["state"]).ok_or_else(|| invalid_audit(&at))?;
    } else {
        exactly(evaluation, &["state", "nonCompliantTags"]).ok_or_else(|| invalid_audit(&at))?;
        if evaluation["state"] != "needs_regulation" {
            return Err(invalid_audit(&format!("{at}.state")));
        }
        let at = format!("{at}.nonCompliantTags");
        let flagged = audit_tags(&evaluation["nonCompliantTags"], &at)?;
        if flagged.iter().any(|t| !audited.contains(t)) {
            return Err(invalid_audit(&at));
        }
    }
    let target = exactly(&input["target"], &["libraryId", "itemKey"]);
    let target_fits = target.is_some_and(|t| {
        positive(&t["libraryId"]).is_some()
            && t["itemKey"].as_str().is_some_and(|k| !k.trim().is_empty())
    });
    if !target_fits {
        return Err(invalid_audit(&format!("{location}.target")));
    }
    for field in ["auditedRevision", "auditedTagDigest"] {
        let fits = input[field]
            .as_str()
            .is_some_and(|s| !s.trim().is_empty() && s.encode_utf16().count() <= 256);
        if !fits {
            return Err(invalid_audit(&format!("{location}.{field}")));
        }
    }
    Ok(())
}

/// The entries of `run.append(entries)` for a run of `library_id`, checked as
/// the reference's Synthesis contract and Workflow facade check them.
pub fn audit_entries(value: &Value, library_id: u64) -> Result<Vec<Value>, HostError> {
    let entries = value
        .as_array()
        .filter(|e| e.len() <= MAX_APPEND_ROWS)
        .ok_or_else(|| invalid_audit("tagAudit.entries"))?;
    for (i, entry) in entries.iter().enumerate() {
        audit_entry(entry, &format!("tagAudit.entries[{i}]"))?;
    }
    if serde_json::to_vec(entries).map_or(0, |b| b.len()) > MAX_APPEND_BYTES {
        return Err(invalid_audit("tagAudit.entries"));
    }
    if entries
        .iter()
        .any(|e| e["target"]["libraryId"].as_u64() != Some(library_id))
    {
        return Err(HostError::workflow(
            "invalid_request",
            "Tag-audit entry targets a different library",
            json!({"reason": "invalid_value"}),
        ));
    }
    Ok(entries.clone())
}
