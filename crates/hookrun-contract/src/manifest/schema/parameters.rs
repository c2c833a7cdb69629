//! Schema of `parameters` (`01-manifest.md` §6.1).

use serde_json::Value;

use crate::manifest::schema::checker::{Checker, Shape, child};

/// Parameter types.
pub const PARAMETER_TYPES: &[&str] = &["string", "number", "boolean", "array"];

/// A parameter entry is open; only `type` is required.
const PARAMETER: Shape = Shape {
    required: &["type"],
    optional: &[],
    deprecated: &[],
    closed: false,
};
const VISIBLE_IF: Shape = Shape::closed(&["parameter", "equals"], &[]);
const ITEMS: Shape = Shape::closed(&["type"], &[]);
const OPTIONS_SOURCE: Shape = Shape {
    required: &["kind"],
    optional: &[],
    deprecated: &[],
    closed: false,
};

/// `parameters`: `{<key>: ParameterSchema}`.
pub fn parameters(c: &mut Checker, p: &str, v: &Value) {
    c.entries(p, v, |c, p, _, v| parameter(c, p, v));
}

fn parameter(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &PARAMETER) else {
        return;
    };
    c.field(map, p, "type", |c, p, v| {
        c.one_of(p, v, PARAMETER_TYPES);
    });
    for key in ["required", "allowCustom", "integer"] {
        c.field(map, p, key, |c, p, v| {
            c.boolean(p, v);
        });
    }
    for key in ["title", "description"] {
        c.field(map, p, key, |c, p, v| {
            c.string(p, v);
        });
    }
    c.field(map, p, "enum", |c, p, v| {
        c.array(p, v, 1, false);
    });
    c.field(map, p, "visible_if", |c, p, v| {
        if let Some(visible) = c.shape(p, v, &VISIBLE_IF) {
            c.field(visible, p, "parameter", |c, p, v| {
                c.non_empty(p, v);
            });
            c.field(visible, p, "equals", |c, p, v| {
                c.boolean(p, v);
            });
        }
    });
    c.field(map, p, "items", |c, p, v| {
        if let Some(items) = c.shape(p, v, &ITEMS) {
            c.field(items, p, "type", |c, p, v| {
                c.constant(p, v, "string");
            });
        }
    });
    c.field(map, p, "optionsSource", options_source);
    let mut bound = |key: &str| {
        let mut number = None;
        c.field(map, p, key, |c, p, v| number = c.number(p, v));
        number
    };
    if let (Some(min), Some(max)) = (bound("min"), bound("max"))
        && min > max
    {
        let text = format!("must be <= {max} (the value of max)");
        c.fail(&child(p, "min"), &text);
    }
}

fn options_source(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &OPTIONS_SOURCE) else {
        return;
    };
    c.field(map, p, "kind", |c, p, v| {
        c.non_empty(p, v);
    });
    c.field(map, p, "library", |c, p, v| {
        if !v.is_number() && !matches!(v.as_str(), Some("current" | "user")) {
            c.fail(p, "must be \"current\", \"user\" or a library number");
        }
    });
    for key in ["includeEmpty", "allowStale"] {
        c.field(map, p, key, |c, p, v| {
            c.boolean(p, v);
        });
    }
    for key in ["valueFormat", "labelFormat"] {
        c.field(map, p, key, |c, p, v| {
            c.string(p, v);
        });
    }
}
