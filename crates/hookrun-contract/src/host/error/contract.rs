//! The reference host's rules for a contract error's `details`: the members
//! each code allows and the closed sets their values come from.

use serde_json::{Map, Value};

/// What one member of `details` holds.
enum Shape {
    /// A string from a closed set.
    OneOf(&'static [&'static str]),
    /// Any string (sanitised to at most 128 characters by the reference).
    Text,
    /// A finite number at least 0.
    Count,
}

/// The members of one code's `details`: `(name, required, shape)`.
pub(super) struct Rule(&'static [(&'static str, bool, Shape)]);

/// What a target `kind` may be.
const KINDS: &[&str] = &[
    "library",
    "item",
    "note",
    "attachment",
    "annotation",
    "collection",
    "resource",
    "prepared_image",
    "bibliography_format",
    "workflow_input",
    "archive_entry",
];

const INVALID_REQUEST: &[&str] = &[
    "missing_field",
    "invalid_type",
    "invalid_value",
    "invalid_combination",
    "invalid_schema",
    "invalid_format",
    "duplicate_value",
    "checksum_failed",
    "unsafe_path",
    "unsupported_value",
];

const INVALID_REF: &[&str] = &[
    "invalid_shape",
    "invalid_library_id",
    "invalid_key",
    "wrong_kind",
    "foreign_scope",
    "expired",
    "forged",
];

const UNSUPPORTED: &[&str] = &[
    "location_unsupported",
    "target_kind_unsupported",
    "view_unsupported",
];

const INTERACTIVE: &[&str] = &[
    "context.getCurrentView",
    "context.getSelectedItems",
    "file.pickDirectory",
    "file.pickFile",
    "file.pickSaveFile",
    "file.pickFiles",
    "clipboard.readText",
    "clipboard.writeText",
    "clipboard.hasText",
    "clipboard.clear",
    "editor.openSession",
    "notifications.toast",
];

const RESOURCES: &[&str] = &[
    "items",
    "entries",
    "bytes",
    "characters",
    "depth",
    "pages",
    "duration_ms",
    "path_length",
    "translators",
    "candidates",
    "response_bytes",
    "selection",
];

const CONFLICTS: &[&str] = &[
    "revision_mismatch",
    "concurrent_modification",
    "idempotency_conflict",
    "operation_in_progress",
    "basis_mismatch",
    "ambiguous_state",
];

const UNAVAILABLE: &[&str] = &[
    "runtime",
    "capability",
    "filesystem",
    "navigation",
    "adapter",
    "outcome_unavailable",
];

const PHASES: &[&str] = &[
    "validation",
    "read",
    "staging",
    "write",
    "commit",
    "verification",
    "cleanup",
    "adapter",
];

const RECOVERIES: &[&str] = &[
    "none",
    "retry_same_operation",
    "refresh_and_retry_new_operation",
    "reconcile",
    "manual_repair",
];

/// The rule of `code`, if it is one of the reference's codes.
pub(super) fn rule(code: &str) -> Option<Rule> {
    use Shape::*;
    Some(Rule(match code {
        "invalid_request" => &[
            ("reason", true, OneOf(INVALID_REQUEST)),
            ("field", false, Text),
            ("operation", false, Text),
        ],
        "invalid_ref" => &[
            ("kind", true, OneOf(KINDS)),
            ("reason", true, OneOf(INVALID_REF)),
        ],
        "not_found" => &[("kind", true, OneOf(KINDS)), ("opaqueKey", false, Text)],
        "unsupported_operation" => &[
            ("memberOrOperation", true, Text),
            ("reason", false, OneOf(UNSUPPORTED)),
        ],
        "interaction_required" => &[("member", true, OneOf(INTERACTIVE))],
        "permission_denied" => &[
            (
                "reason",
                true,
                OneOf(&["host_permission", "security_policy", "authorization"]),
            ),
            ("kind", false, OneOf(KINDS)),
        ],
        "resource_limited" => &[
            ("resource", true, OneOf(RESOURCES)),
            ("limit", true, Count),
            ("observed", false, Count),
        ],
        "conflict" => &[
            ("reason", true, OneOf(CONFLICTS)),
            ("kind", false, OneOf(KINDS)),
        ],
        "unavailable" => &[
            ("reason", true, OneOf(UNAVAILABLE)),
            ("kind", false, OneOf(KINDS)),
        ],
        "canceled" => &[("reason", true, OneOf(&["caller_signal", "host_shutdown"]))],
        "execution_failed" => &[
            ("phase", true, OneOf(PHASES)),
            ("recovery", true, OneOf(RECOVERIES)),
            ("affectedCount", false, Count),
            ("residualCount", false, Count),
        ],
        _ => return None,
    }))
}

impl Rule {
    /// Whether `details` follows the rule.
    pub(super) fn check(&self, details: &Map<String, Value>) -> Result<(), String> {
        if let Some(unknown) = details
            .keys()
            .find(|k| !self.0.iter().any(|(name, _, _)| name == k))
        {
            return Err(format!("unknown member {unknown:?}"));
        }
        for (name, required, shape) in self.0 {
            let Some(value) = details.get(*name) else {
                if *required {
                    return Err(format!("no {name:?}"));
                }
                continue;
            };
            let fits = match shape {
                Shape::OneOf(set) => value.as_str().is_some_and(|v| set.contains(&v)),
                Shape::Text => value.is_string(),
                Shape::Count => value.as_f64().is_some_and(|n| n.is_finite() && n >= 0.0),
            };
            if !fits {
                return Err(format!("{name} {value} is not allowed"));
            }
        }
        Ok(())
    }
}
