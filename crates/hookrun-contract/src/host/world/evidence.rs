//! The completion evidence of `library.traverseItems`, computed as the reference
//! host computes it: digests of JSON text in the order the reference writes its
//! keys (not sorted), as plain lower-case hex.
//!
//! - `tagDigest` of an item: over `["a","b"]`, its unique tags in UTF-16 order;
//! - `criteriaDigest`: over the first page's criteria with `scope` appended;
//! - `coverageDigest`: one digest over a line `[{"libraryId":N,"key":"K"},"<revision>","<tagDigest>"]`
//!   per visited item, in library then key order (the empty traversal hashes no
//!   bytes);
//! - `evidenceId`: over `{criteriaDigest, coverageDigest, completedAt, sequence}`,
//!   `sequence` counting the evidence the host issued (from 1).

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use super::dto::hex_sha256;

/// The only scope a traversal has.
pub(super) const TRAVERSAL_SCOPE: &str = "top-level-regular";

/// The plain hex SHA-256 of `value`'s JSON text, its keys in their order.
pub(super) fn plain_digest(value: &Value) -> String {
    hex_sha256(value.to_string().as_bytes())
}

/// An item's tags as a traversal batch carries them: each once, in the order of
/// their UTF-16 code units.
pub(super) fn traversal_tags(tags: &[String]) -> Vec<String> {
    let mut tags = tags.to_vec();
    tags.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
    tags.dedup();
    tags
}

/// The `tagDigest` of tags [`traversal_tags`] gave.
pub(super) fn tag_digest(tags: &[String]) -> String {
    plain_digest(&json!(tags))
}

/// What the coverage of a traversal knows of one visited item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Covered {
    pub(super) library_id: u64,
    pub(super) key: String,
    /// The item's revision, as its summary shows it.
    pub(super) revision: String,
    pub(super) tag_digest: String,
}

/// The `coverageDigest` of the items a completed traversal visited, whatever the
/// order it visited them in.
pub(super) fn coverage_digest(mut covered: Vec<Covered>) -> String {
    covered.sort_by(|a, b| {
        a.library_id
            .cmp(&b.library_id)
            .then_with(|| a.key.encode_utf16().cmp(b.key.encode_utf16()))
    });
    let mut text = String::new();
    for item in &covered {
        let line = json!([{"libraryId": item.library_id, "key": item.key}, item.revision, item.tag_digest]);
        text.push_str(&line.to_string());
        text.push('\n');
    }
    hex_sha256(text.as_bytes())
}

/// The `criteriaDigest` of a traversal whose first page had `criteria`.
pub(super) fn criteria_digest(criteria: &Value) -> String {
    let mut hashed = criteria.clone();
    hashed["scope"] = TRAVERSAL_SCOPE.into();
    plain_digest(&hashed)
}

/// `completionEvidence`: `{evidenceId, criteriaDigest, coverageDigest, completedAt}`.
pub(super) fn completion_evidence(
    criteria_digest: String,
    coverage_digest: String,
    completed_at: &str,
    sequence: u64,
) -> Value {
    let evidence_id = plain_digest(&json!({"criteriaDigest": criteria_digest,
        "coverageDigest": coverage_digest, "completedAt": completed_at, "sequence": sequence}));
    json!({"evidenceId": evidence_id, "criteriaDigest": criteria_digest,
        "coverageDigest": coverage_digest, "completedAt": completed_at})
}

/// The evidence a host has issued, counted from 1; a copy of a world counts on
/// from where the original was.
#[derive(Debug, Default)]
pub(super) struct Sequence(AtomicU64);

impl Sequence {
    /// The number of the next evidence.
    pub(super) fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }
}

impl Clone for Sequence {
    fn clone(&self) -> Self {
        Sequence(AtomicU64::new(self.0.load(Ordering::Relaxed)))
    }
}
