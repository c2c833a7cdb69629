//! Schema of `inputs` and `validateSelection` (`01-manifest.md` §3–§4).

use serde_json::Value;

use crate::manifest::schema::checker::{Checker, Shape, child};

const MEMBER_KINDS: &[&str] = &[
    "selection",
    "parent",
    "child",
    "attachment",
    "note",
    "generated-note",
    "digest-image-target",
];
/// Note kinds a `generated-note-kinds-absent` filter may name (`literature-score`
/// deliberately absent). A readiness artifact's `noteKinds` take any note kind.
const NOTE_KINDS: &[&str] = &[
    "digest",
    "references",
    "citation-analysis",
    "conversation-note",
    "custom",
];
const POLICIES: &[&str] = &[
    "input-member",
    "selection",
    "literature-source",
    "generated-note-candidates",
    "digest-representative-image",
];
const FILTER_KINDS: &[&str] = &[
    "source-file-exists",
    "candidates-per-parent",
    "generated-note-kinds-absent",
    "generated-note-readiness",
    "artifact-absent",
];

const INPUTS: Shape = Shape::closed(&["member", "grouping"], &[]);
const MEMBER: Shape = Shape::closed(&["kind"], &["accepts"]);
const ACCEPTS: Shape = Shape::closed(&["mime"], &[]);
const GROUPING: Shape = Shape::closed(&["mode"], &[]);
const VALIDATE_SELECTION: Shape = Shape::closed(&["select", "filters"], &["require"]);
const REQUIRE: Shape = Shape::closed(&[], &["selection", "candidates"]);
const REQUIRE_SELECTION: Shape = Shape::closed(&[], &["counts", "allowMixed"]);
const COUNTS: Shape = Shape::closed(
    &[],
    &["parents", "attachments", "notes", "children", "total"],
);
const SELECT_INPUT_MEMBER: Shape = Shape::closed(&["policy", "source"], &[]);
const SELECT_OTHER: Shape = Shape::closed(&["policy"], &[]);
const FILTER_PLAIN: Shape = Shape::closed(&["kind", "phase"], &[]);
const FILTER_PER_PARENT: Shape = Shape::closed(&["kind", "phase", "counts"], &[]);
const FILTER_KINDS_ABSENT: Shape = Shape::closed(&["kind", "phase", "noteKinds"], &[]);
const FILTER_READINESS: Shape =
    Shape::closed(&["kind", "phase", "artifacts", "modes", "acceptModes"], &[]);
const FILTER_ARTIFACT_AVAILABILITY: Shape =
    Shape::closed(&["kind", "phase", "target"], &["parameter"]);
const FILTER_ARTIFACT_EXECUTE: Shape =
    Shape::closed(&["kind", "phase", "target", "parameter"], &[]);
const ARTIFACT: Shape = Shape::closed(&["id", "noteKinds"], &["payload"]);
const PAYLOAD: Shape = Shape::closed(&["type"], &["requirements"]);
const REQUIREMENT: Shape = Shape::closed(
    &["pointer"],
    &["const", "type", "minimum", "maximum", "length"],
);
const MODE: Shape = Shape::closed(&["id"], &["allAvailable", "allUnavailable", "default"]);

/// `inputs`.
pub fn inputs(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &INPUTS) else {
        return;
    };
    c.field(map, p, "member", |c, p, v| {
        let Some(member) = c.shape(p, v, &MEMBER) else {
            return;
        };
        c.field(member, p, "kind", |c, p, v| {
            c.one_of(p, v, MEMBER_KINDS);
        });
        c.field(member, p, "accepts", |c, p, v| {
            if let Some(accepts) = c.shape(p, v, &ACCEPTS) {
                c.field(accepts, p, "mime", |c, p, v| c.string_list(p, v, 1, true));
            }
        });
    });
    c.field(map, p, "grouping", |c, p, v| {
        if let Some(grouping) = c.shape(p, v, &GROUPING) {
            c.field(grouping, p, "mode", |c, p, v| {
                c.one_of(p, v, &["each", "all", "parent"]);
            });
        }
    });
}

/// `validateSelection`.
pub fn validate_selection(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &VALIDATE_SELECTION) else {
        return;
    };
    c.field(map, p, "require", require);
    c.field(map, p, "select", select);
    c.field(map, p, "filters", |c, p, v| c.each(p, v, 0, false, filter));
}

fn require(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &REQUIRE) else {
        return;
    };
    c.field(map, p, "selection", |c, p, v| {
        let Some(selection) = c.shape(p, v, &REQUIRE_SELECTION) else {
            return;
        };
        c.field(selection, p, "counts", |c, p, v| {
            if let Some(counts) = c.shape(p, v, &COUNTS) {
                if counts.is_empty() {
                    c.fail(p, "must NOT have fewer than 1 properties");
                }
                for key in COUNTS.optional {
                    c.field(counts, p, key, Checker::count_rule);
                }
            }
        });
        c.field(selection, p, "allowMixed", |c, p, v| {
            c.boolean(p, v);
        });
    });
    c.field(map, p, "candidates", Checker::count_rule);
}

/// Reads the discriminator `key` of a tagged object, reporting a missing or unknown tag.
fn tag<'a>(c: &mut Checker, p: &str, v: &'a Value, key: &str, allowed: &[&str]) -> Option<&'a str> {
    let map = c.object(p, v)?;
    match map.get(key) {
        None => {
            c.fail(p, &format!("missing required property \"{key}\""));
            None
        }
        Some(tag) => c.one_of(&child(p, key), tag, allowed),
    }
}

fn select(c: &mut Checker, p: &str, v: &Value) {
    let Some(policy) = tag(c, p, v, "policy", POLICIES) else {
        return;
    };
    if policy == "input-member" {
        if let Some(map) = c.shape(p, v, &SELECT_INPUT_MEMBER) {
            c.field(map, p, "source", |c, p, v| {
                c.one_of(p, v, &["selected", "related"]);
            });
        }
    } else {
        c.shape(p, v, &SELECT_OTHER);
    }
}

fn filter(c: &mut Checker, p: &str, v: &Value) {
    let Some(kind) = tag(c, p, v, "kind", FILTER_KINDS) else {
        return;
    };
    let map = match kind {
        "source-file-exists" => c.shape(p, v, &FILTER_PLAIN),
        "candidates-per-parent" => c.shape(p, v, &FILTER_PER_PARENT),
        "generated-note-kinds-absent" => c.shape(p, v, &FILTER_KINDS_ABSENT),
        "generated-note-readiness" => c.shape(p, v, &FILTER_READINESS),
        _ => return artifact_absent(c, p, v),
    };
    let Some(map) = map else {
        return;
    };
    c.field(map, p, "phase", |c, p, v| {
        c.constant(p, v, "availability");
    });
    c.field(map, p, "counts", Checker::count_rule);
    c.field(map, p, "noteKinds", |c, p, v| {
        c.enum_list(p, v, 1, NOTE_KINDS)
    });
    c.field(map, p, "artifacts", |c, p, v| {
        c.each(p, v, 1, false, artifact)
    });
    c.field(map, p, "modes", |c, p, v| c.each(p, v, 1, false, mode));
    c.field(map, p, "acceptModes", |c, p, v| {
        c.string_list(p, v, 1, true)
    });
}

/// `artifact-absent`: the phase decides the allowed targets and whether `parameter` is
/// required. `parameter` is tolerated in the availability phase so that the semantic check
/// can name the problem precisely.
fn artifact_absent(c: &mut Checker, p: &str, v: &Value) {
    let Some(phase) = v.get("phase") else {
        c.shape(p, v, &FILTER_ARTIFACT_AVAILABILITY);
        return;
    };
    let (shape, targets): (&Shape, &[&str]) = match phase.as_str() {
        Some("execute") => (&FILTER_ARTIFACT_EXECUTE, &["translator-markdown"]),
        _ => (
            &FILTER_ARTIFACT_AVAILABILITY,
            &["deep-reading-html", "mineru-markdown"],
        ),
    };
    let Some(map) = c.shape(p, v, shape) else {
        return;
    };
    c.field(map, p, "phase", |c, p, v| {
        c.one_of(p, v, &["availability", "execute"]);
    });
    c.field(map, p, "target", |c, p, v| {
        c.one_of(p, v, targets);
    });
    c.field(map, p, "parameter", |c, p, v| {
        c.non_empty(p, v);
    });
}

fn artifact(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &ARTIFACT) else {
        return;
    };
    c.field(map, p, "id", |c, p, v| {
        c.non_empty(p, v);
    });
    c.field(map, p, "noteKinds", |c, p, v| c.string_list(p, v, 1, true));
    c.field(map, p, "payload", |c, p, v| {
        let Some(payload) = c.shape(p, v, &PAYLOAD) else {
            return;
        };
        c.field(payload, p, "type", |c, p, v| {
            c.non_empty(p, v);
        });
        c.field(payload, p, "requirements", |c, p, v| {
            c.each(p, v, 0, false, requirement)
        });
    });
}

fn requirement(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &REQUIREMENT) else {
        return;
    };
    c.field(map, p, "pointer", |c, p, v| {
        if let Some(pointer) = c.string(p, v)
            && !pointer.starts_with('/')
        {
            c.fail(p, "must match pattern \"^/\"");
        }
    });
    c.field(map, p, "type", |c, p, v| {
        c.one_of(p, v, &["string", "number", "array", "object"]);
    });
    for key in ["minimum", "maximum"] {
        c.field(map, p, key, |c, p, v| {
            c.number(p, v);
        });
    }
    c.field(map, p, "length", |c, p, v| {
        c.integer(p, v, 0);
    });
}

fn mode(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &MODE) else {
        return;
    };
    c.field(map, p, "id", |c, p, v| {
        c.non_empty(p, v);
    });
    for key in ["allAvailable", "allUnavailable"] {
        c.field(map, p, key, |c, p, v| c.string_list(p, v, 0, true));
    }
    c.field(map, p, "default", |c, p, v| {
        c.boolean(p, v);
    });
}
