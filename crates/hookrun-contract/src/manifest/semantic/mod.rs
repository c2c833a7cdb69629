//! Semantic validation (validation layer 3, `01-manifest.md` §5).
//!
//! Runs on a manifest that passed the schema. Every failing check is reported (the
//! sequence group first, then the input-planning group); each message is the contract's
//! `<pointer> <text>` and the diagnostic's pointer is that prefix.

mod counts;
mod planning;
mod sequence;

use serde_json::Value;

use crate::manifest::diagnostic::Diagnostic;
use crate::manifest::model::PlanningSpec;

pub use planning::produced_kind;

/// Runs every semantic check of §5.1 and §5.2.
pub fn check_semantics(manifest: &Value, spec: &PlanningSpec) -> Vec<Diagnostic> {
    let mut failures = sequence::check(manifest);
    failures.extend(counts::check(spec));
    failures.extend(planning::check(manifest, spec));
    failures
        .into_iter()
        .map(|(pointer, text)| Diagnostic::validation(&pointer, &text))
        .collect()
}

/// One failed check: the pointer and the text after it.
type Failure = (String, String);

fn failure(pointer: impl Into<String>, text: impl Into<String>) -> Failure {
    (pointer.into(), text.into())
}

#[cfg(test)]
mod tests;
