//! Schema of `i18n`, `display` and `resourceRequirements` (`01-manifest.md` §2, §8).

use serde_json::Value;

use crate::manifest::schema::checker::{Checker, Shape};

const I18N: Shape = Shape::closed(&[], &["defaultLocale", "messages"]);
const DISPLAY: Shape = Shape::closed(&[], &["core", "emoji"]);
const RESOURCE: Shape = Shape::closed(
    &["id", "direction", "kind", "cardinality", "required"],
    &["accept", "suggestedName"],
);
const ACCEPT: Shape = Shape::closed(&[], &["contentTypes", "extensions", "maxCount", "maxBytes"]);

/// `i18n`: `{defaultLocale?, messages?: {<locale>: {<key>: string}}}`.
pub fn i18n(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &I18N) else {
        return;
    };
    c.field(map, p, "defaultLocale", |c, p, v| {
        c.non_empty(p, v);
    });
    c.field(map, p, "messages", |c, p, v| {
        c.entries(p, v, |c, p, _, v| {
            c.entries(p, v, |c, p, _, v| {
                c.string(p, v);
            });
        });
    });
}

/// `display`: `{core?: boolean, emoji?: 1–16 characters}`.
pub fn display(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &DISPLAY) else {
        return;
    };
    c.field(map, p, "core", |c, p, v| {
        c.boolean(p, v);
    });
    c.field(map, p, "emoji", |c, p, v| {
        let Some(emoji) = c.string(p, v) else {
            return;
        };
        let length = emoji.chars().count();
        if length < 1 {
            c.fail(p, "must NOT have fewer than 1 characters");
        } else if length > 16 {
            c.fail(p, "must NOT have more than 16 characters");
        }
    });
}

/// `resourceRequirements[]`.
pub fn resource_requirements(c: &mut Checker, p: &str, v: &Value) {
    c.each(p, v, 0, false, |c, p, v| {
        let Some(map) = c.shape(p, v, &RESOURCE) else {
            return;
        };
        for key in ["id", "suggestedName"] {
            c.field(map, p, key, |c, p, v| {
                c.non_empty(p, v);
            });
        }
        c.field(map, p, "direction", |c, p, v| {
            c.one_of(p, v, &["input", "output"]);
        });
        c.field(map, p, "kind", |c, p, v| {
            c.one_of(p, v, &["file", "archive"]);
        });
        c.field(map, p, "cardinality", |c, p, v| {
            c.one_of(p, v, &["one", "many"]);
        });
        c.field(map, p, "required", |c, p, v| {
            c.boolean(p, v);
        });
        c.field(map, p, "accept", accept);
    });
}

fn accept(c: &mut Checker, p: &str, v: &Value) {
    let Some(map) = c.shape(p, v, &ACCEPT) else {
        return;
    };
    for key in ["contentTypes", "extensions"] {
        c.field(map, p, key, |c, p, v| c.string_list(p, v, 0, false));
    }
    for key in ["maxCount", "maxBytes"] {
        c.field(map, p, key, |c, p, v| {
            c.integer(p, v, 1);
        });
    }
}
