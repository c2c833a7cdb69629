//! Schema-level validation of `workflow.json` v2 (validation layer 2).
//!
//! Works on the raw [`Value`] and collects every problem, each as its own
//! `manifest_validation_error` diagnostic whose message is `<pointer> <text>`.

mod checker;
mod display;
mod package;
mod parameters;
mod request;
mod selection;

use serde_json::Value;

use crate::manifest::diagnostic::Diagnostic;

pub use checker::child as pointer_child;
use checker::{Checker, Shape};
pub use package::validate_package;
pub use request::{SKILLRUNNER_JOB, SKILLRUNNER_SEQUENCE};

/// Top-level properties: required, optional, deprecated (schema `false`). Others are
/// tolerated because the top level is open.
const TOP: Shape = Shape {
    required: &[
        "schemaVersion",
        "id",
        "label",
        "provider",
        "trigger",
        "inputs",
        "validateSelection",
        "hooks",
    ],
    optional: &[],
    deprecated: &["backend", "defaults"],
    closed: false,
};

const TRIGGER: Shape = Shape::closed(&["requiresSelection"], &[]);
const HOOKS: Shape = Shape::closed(
    &["applyResult"],
    &["preflight", "buildRequest", "normalizeSettings"],
);

/// Validates a parsed `workflow.json` against schema v2, returning every error.
pub fn validate_manifest(manifest: &Value) -> Vec<Diagnostic> {
    let mut c = Checker::default();
    let p = "/";
    let Some(map) = c.shape(p, manifest, &TOP) else {
        return c.into_errors();
    };
    c.field(map, p, "schemaVersion", |c, p, v| {
        if v.as_f64() != Some(2.0) {
            c.fail(p, "must be equal to constant 2");
        }
    });
    for key in [
        "id",
        "label",
        "provider",
        "description",
        "version",
        "taskNameTemplate",
    ] {
        c.field(map, p, key, |c, p, v| {
            c.non_empty(p, v);
        });
    }
    c.field(map, p, "trigger", trigger);
    c.field(map, p, "hooks", hooks);
    c.field(map, p, "executionModes", |c, p, v| {
        c.enum_list(p, v, 1, &["auto", "interactive"]);
    });
    c.field(map, p, "supportedInvocationModes", |c, p, v| {
        c.enum_list(p, v, 1, &["interactive", "non-interactive"]);
    });
    c.field(map, p, "debug_only", |c, p, v| {
        c.boolean(p, v);
    });
    c.field(map, p, "inputs", selection::inputs);
    c.field(map, p, "validateSelection", selection::validate_selection);
    c.field(map, p, "parameters", parameters::parameters);
    c.field(map, p, "i18n", display::i18n);
    c.field(map, p, "display", display::display);
    c.field(
        map,
        p,
        "resourceRequirements",
        display::resource_requirements,
    );
    c.field(map, p, "execution", request::execution);
    c.field(map, p, "result", request::result);
    c.field(map, p, "request", request::request);
    request::conditional_rules(&mut c, map);
    c.into_errors()
}

/// `trigger`: a closed object whose `requiresSelection` is a boolean.
fn trigger(c: &mut Checker, p: &str, v: &Value) {
    if let Some(trigger) = c.shape(p, v, &TRIGGER) {
        c.field(trigger, p, "requiresSelection", |c, p, v| {
            c.boolean(p, v);
        });
    }
}

/// `hooks`: a closed object of hook paths, each a non-empty string.
fn hooks(c: &mut Checker, p: &str, v: &Value) {
    if let Some(hooks) = c.shape(p, v, &HOOKS) {
        for key in HOOKS.required.iter().chain(HOOKS.optional) {
            c.field(hooks, p, key, |c, p, v| {
                c.non_empty(p, v);
            });
        }
    }
}

#[cfg(test)]
mod enum_tests;
#[cfg(test)]
mod tests;
