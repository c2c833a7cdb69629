//! A small collector of schema errors with JSON pointers, shared by every schema section.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::manifest::diagnostic::Diagnostic;
use crate::pointer;

/// The JSON pointer of property `key` below `parent` (`/` is the root).
pub fn child(parent: &str, key: &str) -> String {
    pointer::child(if parent == "/" { "" } else { parent }, key)
}

/// The JSON pointer of array element `index` below `parent`.
pub fn index(parent: &str, index: usize) -> String {
    child(parent, &index.to_string())
}

/// The property layout of an object schema.
pub struct Shape {
    /// Properties that must be present.
    pub required: &'static [&'static str],
    /// Properties that may be present.
    pub optional: &'static [&'static str],
    /// Properties whose schema is `false`.
    pub deprecated: &'static [&'static str],
    /// Whether other properties are rejected.
    pub closed: bool,
}

impl Shape {
    /// A closed object with the given required and optional properties.
    pub const fn closed(
        required: &'static [&'static str],
        optional: &'static [&'static str],
    ) -> Self {
        Shape {
            required,
            optional,
            deprecated: &[],
            closed: true,
        }
    }

    fn allows(&self, key: &str) -> bool {
        !self.closed || self.required.contains(&key) || self.optional.contains(&key)
    }
}

/// Collects every schema error as a `manifest_validation_error` diagnostic.
#[derive(Default)]
pub struct Checker {
    errors: Vec<Diagnostic>,
}

impl Checker {
    /// The collected diagnostics.
    pub fn into_errors(self) -> Vec<Diagnostic> {
        self.errors
    }

    /// Records `<pointer> <text>`.
    pub fn fail(&mut self, pointer: &str, text: &str) {
        self.errors.push(Diagnostic::validation(pointer, text));
    }

    /// Runs `check` on property `key` of `map` when it is present.
    pub fn field(
        &mut self,
        map: &Map<String, Value>,
        pointer: &str,
        key: &str,
        check: impl FnOnce(&mut Self, &str, &Value),
    ) {
        if let Some(value) = map.get(key) {
            check(self, &child(pointer, key), value);
        }
    }

    /// Requires an object.
    pub fn object<'a>(
        &mut self,
        pointer: &str,
        value: &'a Value,
    ) -> Option<&'a Map<String, Value>> {
        let map = value.as_object();
        if map.is_none() {
            self.fail(pointer, "must be object");
        }
        map
    }

    /// Requires an object laid out as `shape`: reports missing, unexpected and deprecated
    /// properties, and returns the object for the per-property checks.
    pub fn shape<'a>(
        &mut self,
        pointer: &str,
        value: &'a Value,
        shape: &Shape,
    ) -> Option<&'a Map<String, Value>> {
        let map = self.object(pointer, value)?;
        for name in shape.required {
            if !map.contains_key(*name) {
                self.fail(pointer, &format!("missing required property \"{name}\""));
            }
        }
        for key in map.keys() {
            if shape.deprecated.contains(&key.as_str()) {
                self.fail(&child(pointer, key), "uses deprecated field");
            } else if !shape.allows(key) {
                self.fail(pointer, &format!("unexpected property \"{key}\""));
            }
        }
        Some(map)
    }

    /// Requires a string.
    pub fn string<'a>(&mut self, pointer: &str, value: &'a Value) -> Option<&'a str> {
        let text = value.as_str();
        if text.is_none() {
            self.fail(pointer, "must be string");
        }
        text
    }

    /// Requires a non-empty string.
    pub fn non_empty<'a>(&mut self, pointer: &str, value: &'a Value) -> Option<&'a str> {
        let text = self.string(pointer, value)?;
        if text.is_empty() {
            self.fail(pointer, "must NOT have fewer than 1 characters");
            return None;
        }
        Some(text)
    }

    /// Requires a boolean.
    pub fn boolean(&mut self, pointer: &str, value: &Value) -> Option<bool> {
        let flag = value.as_bool();
        if flag.is_none() {
            self.fail(pointer, "must be boolean");
        }
        flag
    }

    /// Requires a number.
    pub fn number(&mut self, pointer: &str, value: &Value) -> Option<f64> {
        let number = value.as_f64();
        if number.is_none() {
            self.fail(pointer, "must be number");
        }
        number
    }

    /// Requires an integer `>= minimum` that fits in 64 bits and is written without a
    /// fraction or exponent (so that `2.0` and `1e3` are refused with a clear message).
    pub fn integer(&mut self, pointer: &str, value: &Value, minimum: u64) -> Option<u64> {
        let Some(number) = value.as_f64() else {
            self.fail(pointer, "must be integer");
            return None;
        };
        if let Some(n) = value.as_u64().filter(|n| *n >= minimum) {
            return Some(n);
        }
        let text = if number.fract() != 0.0 {
            "must be integer".to_string()
        } else if number < minimum as f64 || value.is_i64() || value.is_u64() {
            format!("must be >= {minimum}")
        } else {
            "must be a whole number below 2^64 written without a fraction or exponent".to_string()
        };
        self.fail(pointer, &text);
        None
    }

    /// Requires one of the `allowed` strings.
    pub fn one_of<'a>(
        &mut self,
        pointer: &str,
        value: &'a Value,
        allowed: &[&str],
    ) -> Option<&'a str> {
        let text = self.string(pointer, value)?;
        if !allowed.contains(&text) {
            let text = format!(
                "must be equal to one of the allowed values: {}",
                allowed.join(", ")
            );
            self.fail(pointer, &text);
            return None;
        }
        Some(text)
    }

    /// Requires the string `expected`.
    pub fn constant(&mut self, pointer: &str, value: &Value, expected: &str) -> bool {
        let ok = value.as_str() == Some(expected);
        if !ok {
            self.fail(
                pointer,
                &format!("must be equal to constant \"{expected}\""),
            );
        }
        ok
    }

    /// Requires an array with at least `min_items` elements, optionally without duplicates.
    pub fn array<'a>(
        &mut self,
        pointer: &str,
        value: &'a Value,
        min_items: usize,
        unique: bool,
    ) -> Option<&'a [Value]> {
        let Some(items) = value.as_array() else {
            self.fail(pointer, "must be array");
            return None;
        };
        if items.len() < min_items {
            self.fail(
                pointer,
                &format!("must NOT have fewer than {min_items} items"),
            );
        }
        if unique {
            self.unique(pointer, items);
        }
        Some(items)
    }

    /// Reports the first repeated string (every unique list of the schema holds strings;
    /// other items get their own type error).
    fn unique(&mut self, pointer: &str, items: &[Value]) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let Some(text) = item.as_str() else {
                continue;
            };
            if let Some(first) = seen.insert(text, i) {
                let text = format!(
                    "must NOT have duplicate items (items ## {i} and {first} are identical)"
                );
                self.fail(pointer, &text);
                return;
            }
        }
    }

    /// Requires an array (see [`Checker::array`]) and runs `item` on every element.
    pub fn each(
        &mut self,
        pointer: &str,
        value: &Value,
        min_items: usize,
        unique: bool,
        mut item: impl FnMut(&mut Self, &str, &Value),
    ) {
        if let Some(items) = self.array(pointer, value, min_items, unique) {
            for (i, element) in items.iter().enumerate() {
                item(self, &index(pointer, i), element);
            }
        }
    }

    /// Requires an array of non-empty strings.
    pub fn string_list(&mut self, pointer: &str, value: &Value, min_items: usize, unique: bool) {
        self.each(pointer, value, min_items, unique, |c, p, v| {
            c.non_empty(p, v);
        });
    }

    /// Requires an array of strings from `allowed`.
    pub fn enum_list(&mut self, pointer: &str, value: &Value, min_items: usize, allowed: &[&str]) {
        self.each(pointer, value, min_items, true, |c, p, v| {
            c.one_of(p, v, allowed);
        });
    }

    /// Requires an object and runs `entry` on every property.
    pub fn entries(
        &mut self,
        pointer: &str,
        value: &Value,
        mut entry: impl FnMut(&mut Self, &str, &str, &Value),
    ) {
        if let Some(map) = self.object(pointer, value) {
            for (key, v) in map {
                entry(self, &child(pointer, key), key, v);
            }
        }
    }

    /// Requires a CountRule: a closed `{min?, max?, exact?}` of integers `>= 0` with at
    /// least one property.
    pub fn count_rule(&mut self, pointer: &str, value: &Value) {
        const COUNT_RULE: Shape = Shape::closed(&[], &["min", "max", "exact"]);
        let Some(map) = self.shape(pointer, value, &COUNT_RULE) else {
            return;
        };
        if map.is_empty() {
            self.fail(pointer, "must NOT have fewer than 1 properties");
        }
        for key in ["min", "max", "exact"] {
            self.field(map, pointer, key, |c, p, v| {
                c.integer(p, v, 0);
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_and_root() {
        assert_eq!(child("/", "a/b~c"), "/a~1b~0c");
        assert_eq!(index("/x", 3), "/x/3");
    }
}
