//! Schema of `execution`, `result` and `request`, and the conditional rules
//! (`01-manifest.md` §2.1, §9).

use serde_json::{Map, Value};

use crate::manifest::schema::checker::{Checker, Shape, child};

/// Request kind whose declarative form needs `request.create.mode`.
pub const SKILLRUNNER_JOB: &str = "skillrunner.job.v1";
/// Request kind of multi-step Skill-Runner runs.
pub const SKILLRUNNER_SEQUENCE: &str = "skillrunner.sequence.v1";

const MODES: &[&str] = &["auto", "interactive"];
const FETCH_TYPES: &[&str] = &["bundle", "result"];

const EXECUTION: Shape = Shape::closed(
    &[],
    &[
        "mcp",
        "zoteroHostAccess",
        "poll_interval_ms",
        "timeout_ms",
        "feedback",
    ],
);
const MCP: Shape = Shape::closed(&[], &["requiredTools"]);
const HOST_ACCESS: Shape = Shape::closed(&[], &["required", "allowWriteApprovalBypass"]);
const FEEDBACK: Shape = Shape::closed(&[], &["showNotifications"]);
const RESULT: Shape = Shape::closed(&[], &["fetch", "expects", "final_step_id"]);
const FETCH: Shape = Shape::closed(&[], &["type"]);
const EXPECTS: Shape = Shape::closed(&[], &["result_json", "artifacts"]);
const REQUEST: Shape = Shape {
    required: &["kind"],
    optional: &[],
    deprecated: &["result"],
    closed: false,
};
const CREATE: Shape = Shape {
    required: &["mode"],
    optional: &[],
    deprecated: &["engine", "model", "parameter", "runtime_options"],
    closed: false,
};
const INPUT: Shape = Shape {
    required: &[],
    optional: &[],
    deprecated: &[],
    closed: false,
};
const UPLOAD: Shape = Shape::closed(&[], &["files"]);
const UPLOAD_FILE: Shape = Shape::closed(&["key", "from"], &[]);
const POLL: Shape = Shape {
    required: &[],
    optional: &[],
    deprecated: &[],
    closed: false,
};
const SEQUENCE: Shape = Shape::closed(&["steps"], &[]);
const STEP: Shape = Shape::closed(
    &["id", "skill_id", "mode"],
    &[
        "input",
        "parameter",
        "fetch_type",
        "workspace",
        "apply_result",
        "handoff",
        "short_circuit",
        "include_if",
    ],
);
const APPLY_RESULT: Shape = Shape::closed(&[], &["workflow_id", "on_failure"]);
const HANDOFF: Shape = Shape::closed(&["bindings"], &[]);
const BINDING: Shape = Shape::closed(
    &["kind", "target"],
    &["source", "step", "required", "value"],
);
const SHORT_CIRCUIT: Shape = Shape::closed(&["when", "result"], &[]);
const WHEN: Shape = Shape::closed(&["path", "equals"], &[]);
const INCLUDE_IF_PARAMETER: Shape = Shape::closed(&["kind", "parameter", "equals"], &[]);
const INCLUDE_IF_RUNTIME: Shape = Shape::closed(&["kind", "condition"], &[]);

/// `execution`.
pub fn execution(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &EXECUTION) else {
        return;
    };
    c.field(map, p, "mcp", |c, p, v| {
        if let Some(mcp) = c.shape(p, v, &MCP) {
            c.field(mcp, p, "requiredTools", |c, p, v| {
                c.string_list(p, v, 0, true)
            });
        }
    });
    c.field(map, p, "zoteroHostAccess", |c, p, v| {
        if let Some(access) = c.shape(p, v, &HOST_ACCESS) {
            booleans(c, access, p, &["required", "allowWriteApprovalBypass"]);
        }
    });
    for key in ["poll_interval_ms", "timeout_ms"] {
        c.field(map, p, key, |c, p, v| {
            c.number(p, v);
        });
    }
    c.field(map, p, "feedback", |c, p, v| {
        if let Some(feedback) = c.shape(p, v, &FEEDBACK) {
            booleans(c, feedback, p, &["showNotifications"]);
        }
    });
}

/// `result`.
pub fn result(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &RESULT) else {
        return;
    };
    c.field(map, p, "fetch", |c, p, v| {
        if let Some(fetch) = c.shape(p, v, &FETCH) {
            c.field(fetch, p, "type", |c, p, v| {
                c.one_of(p, v, FETCH_TYPES);
            });
        }
    });
    c.field(map, p, "expects", |c, p, v| {
        let Some(expects) = c.shape(p, v, &EXPECTS) else {
            return;
        };
        c.field(expects, p, "result_json", |c, p, v| {
            c.non_empty(p, v);
        });
        c.field(expects, p, "artifacts", |c, p, v| {
            c.each(p, v, 0, false, |c, p, v| {
                c.string(p, v);
            })
        });
    });
    c.field(map, p, "final_step_id", |c, p, v| {
        c.non_empty(p, v);
    });
}

/// `request`.
pub fn request(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &REQUEST) else {
        return;
    };
    c.field(map, p, "kind", |c, p, v| {
        c.non_empty(p, v);
    });
    c.field(map, p, "create", |c, p, v| {
        let Some(create) = c.shape(p, v, &CREATE) else {
            return;
        };
        c.field(create, p, "skill_id", |c, p, v| {
            c.non_empty(p, v);
        });
        c.field(create, p, "mode", |c, p, v| {
            c.one_of(p, v, MODES);
        });
        c.field(create, p, "skill_source", |c, p, v| {
            c.one_of(p, v, &["local-package", "installed"]);
        });
    });
    c.field(map, p, "input", input);
    c.field(map, p, "poll", |c, p, v| {
        if let Some(poll) = c.shape(p, v, &POLL) {
            for key in ["interval_ms", "timeout_ms"] {
                c.field(poll, p, key, |c, p, v| {
                    c.number(p, v);
                });
            }
        }
    });
    c.field(map, p, "sequence", |c, p, v| {
        if let Some(sequence) = c.shape(p, v, &SEQUENCE) {
            c.field(sequence, p, "steps", |c, p, v| c.each(p, v, 1, false, step));
        }
    });
}

fn input(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &INPUT) else {
        return;
    };
    c.field(map, p, "upload", |c, p, v| {
        let Some(upload) = c.shape(p, v, &UPLOAD) else {
            return;
        };
        c.field(upload, p, "files", |c, p, v| {
            c.each(p, v, 0, false, |c, p, v| {
                let Some(file) = c.shape(p, v, &UPLOAD_FILE) else {
                    return;
                };
                c.field(file, p, "key", |c, p, v| {
                    c.non_empty(p, v);
                });
                c.field(file, p, "from", |c, p, v| {
                    c.one_of(
                        p,
                        v,
                        &["selected.markdown", "selected.pdf", "selected.source"],
                    );
                });
            })
        });
    });
}

fn step(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &STEP) else {
        return;
    };
    c.field(map, p, "id", |c, p, v| {
        c.non_empty(p, v);
    });
    c.field(map, p, "skill_id", |c, p, v| {
        c.non_empty(p, v);
    });
    c.field(map, p, "mode", |c, p, v| {
        c.one_of(p, v, MODES);
    });
    for key in ["input", "parameter"] {
        c.field(map, p, key, |c, p, v| {
            c.object(p, v);
        });
    }
    c.field(map, p, "fetch_type", |c, p, v| {
        c.one_of(p, v, FETCH_TYPES);
    });
    c.field(map, p, "workspace", |c, p, v| {
        c.one_of(p, v, &["new", "reuse-workflow"]);
    });
    c.field(map, p, "apply_result", |c, p, v| {
        let Some(apply) = c.shape(p, v, &APPLY_RESULT) else {
            return;
        };
        c.field(apply, p, "workflow_id", |c, p, v| {
            c.non_empty(p, v);
        });
        c.field(apply, p, "on_failure", |c, p, v| {
            c.one_of(p, v, &["continue", "fail_sequence"]);
        });
    });
    c.field(map, p, "handoff", |c, p, v| {
        if let Some(handoff) = c.shape(p, v, &HANDOFF) {
            c.field(handoff, p, "bindings", |c, p, v| {
                c.each(p, v, 1, false, binding)
            });
        }
    });
    c.field(map, p, "short_circuit", short_circuit);
    c.field(map, p, "include_if", include_if);
}

fn binding(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &BINDING) else {
        return;
    };
    c.field(map, p, "kind", |c, p, v| {
        c.one_of(p, v, &["value", "file"]);
    });
    c.field(map, p, "target", |c, p, v| {
        c.non_empty(p, v);
    });
    for key in ["source", "step"] {
        c.field(map, p, key, |c, p, v| {
            c.non_empty(p, v);
        });
    }
    booleans(c, map, p, &["required"]);
}

/// `short_circuit`: the schema's checks; whether `when.path` names anything once trimmed
/// is checked semantically.
fn short_circuit(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &SHORT_CIRCUIT) else {
        return;
    };
    c.field(map, p, "when", |c, p, v| {
        let Some(when) = c.shape(p, v, &WHEN) else {
            return;
        };
        c.field(when, p, "path", |c, p, v| {
            c.non_empty(p, v);
        });
        c.field(when, p, "equals", |c, p, v| {
            if v.is_array() || v.is_object() {
                c.fail(p, "must be string, number, boolean or null");
            }
        });
    });
    c.field(map, p, "result", |c, p, v| {
        c.one_of(p, v, &["step_output"]);
    });
}

fn include_if(c: &mut Checker, p: &str, v: &Value) {
    let Some(kind) = c.object(p, v).and_then(|m| m.get("kind")) else {
        c.shape(p, v, &INCLUDE_IF_RUNTIME);
        return;
    };
    let kind_pointer = child(p, "kind");
    let Some(kind) = c.one_of(&kind_pointer, kind, &["parameter", "runtime"]) else {
        return;
    };
    let (shape, text_key) = if kind == "parameter" {
        (&INCLUDE_IF_PARAMETER, "parameter")
    } else {
        (&INCLUDE_IF_RUNTIME, "condition")
    };
    if let Some(map) = c.shape(p, v, shape) {
        c.field(map, p, text_key, |c, p, v| {
            c.non_empty(p, v);
        });
    }
}

fn booleans(c: &mut Checker, map: &Map<String, Value>, p: &str, keys: &[&str]) {
    for key in keys {
        c.field(map, p, key, |c, p, v| {
            c.boolean(p, v);
        });
    }
}

/// The conditional rules of §2.1 on the top-level object.
pub fn conditional_rules(c: &mut Checker, top: &Map<String, Value>) {
    let Some(request) = top.get("request").and_then(Value::as_object) else {
        return;
    };
    let has_build_hook = top
        .get("hooks")
        .and_then(Value::as_object)
        .is_some_and(|h| h.contains_key("buildRequest"));
    match request.get("kind").and_then(Value::as_str) {
        Some(SKILLRUNNER_JOB) if !has_build_hook && !request.contains_key("create") => {
            c.fail("/request", "missing required property \"create\"");
        }
        Some(SKILLRUNNER_SEQUENCE) => {
            if let Some(provider) = top.get("provider").and_then(Value::as_str)
                && !matches!(provider, "acp" | "skillrunner")
            {
                c.fail(
                    "/provider",
                    "must be equal to one of the allowed values: acp, skillrunner (required by skillrunner.sequence.v1)",
                );
            }
            if !has_build_hook && !request.contains_key("sequence") {
                c.fail(
                    "/request",
                    "missing required property \"sequence\" (or declare hooks.buildRequest)",
                );
            }
        }
        _ => {}
    }
}
