//! Writing a migrated manifest back in the style of the file it came from: the same
//! indentation unit, the same final newline, every array or object that the migration
//! left alone and that the file wrote on one line written as it was, and, in a file that
//! writes small containers on one line, the migration's small containers on one line
//! too.

use std::collections::HashMap;

use serde_json::Value;

use crate::pointer::escape;

/// The byte that opens a JSON object.
const OBJECT_OPEN: u8 = b'{';
/// The byte that closes a JSON object.
const OBJECT_CLOSE: u8 = b'}';
/// The byte that opens a JSON array.
const ARRAY_OPEN: u8 = b'[';
/// The byte that closes a JSON array.
const ARRAY_CLOSE: u8 = b']';

/// Renders `value` (the migration of `original_value`, parsed from `original`) as JSON
/// text shaped like `original`.
pub fn render_like(original: &str, original_value: &Value, value: &Value) -> String {
    let inline = inline_spans(original);
    let sample = |open: u8| {
        inline
            .values()
            .filter(|t| t.as_bytes().first() == Some(&open) && t.len() > 2)
            .min_by_key(|t| t.len())
            .map(|t| t[1..].starts_with(' '))
    };
    let style = Style {
        indent: indent_unit(original),
        pad_objects: sample(OBJECT_OPEN).unwrap_or(true),
        pad_arrays: sample(ARRAY_OPEN).unwrap_or(false),
        inline_new: inline.values().any(|t| t.len() > 2),
        inline,
        original: original_value,
    };
    let mut out = String::with_capacity(original.len() + 256);
    style.write(value, &mut String::new(), 0, &mut out);
    if original.ends_with('\n') || original.is_empty() {
        out.push('\n');
    }
    out
}

/// The indentation of the first indented line, or two spaces.
fn indent_unit(text: &str) -> String {
    text.lines()
        .skip(1)
        .map(|line| {
            let trimmed = line.trim_start_matches([' ', '\t']);
            &line[..line.len() - trimmed.len()]
        })
        .find(|ws| !ws.is_empty())
        .map_or_else(|| "  ".to_string(), str::to_string)
}

/// The widest line a container is written on one line in.
const MAX_INLINE: usize = 100;

struct Style<'a> {
    indent: String,
    /// Whether one-line objects are written `{ "k": v }` rather than `{"k": v}`.
    pad_objects: bool,
    /// Whether one-line arrays are written `[ a, b ]` rather than `[a, b]`.
    pad_arrays: bool,
    /// Whether the file writes small containers on one line.
    inline_new: bool,
    /// JSON pointer → the text of a one-line array or object in the original.
    inline: HashMap<String, &'a str>,
    original: &'a Value,
}

impl Style<'_> {
    fn write(&self, value: &Value, pointer: &mut String, depth: usize, out: &mut String) {
        let container = value.is_array() || value.is_object();
        let was_inline = self.inline.get(pointer.as_str());
        if container
            && let Some(text) = was_inline
            && self.original.pointer(pointer) == Some(value)
        {
            out.push_str(text);
            return;
        }
        let new_and_small =
            self.inline_new && self.original.pointer(pointer).is_none() && nesting(value) <= 2;
        if container && (was_inline.is_some() || new_and_small) {
            let mut line = String::new();
            self.compact(value, &mut line);
            let column = out.rsplit('\n').next().map_or(0, str::len);
            if column + line.len() <= MAX_INLINE {
                out.push_str(&line);
                return;
            }
        }
        match value {
            Value::Array(items) if !items.is_empty() => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    self.open_line(i, depth + 1, out);
                    let len = pointer.len();
                    pointer.push_str(&format!("/{i}"));
                    self.write(item, pointer, depth + 1, out);
                    pointer.truncate(len);
                }
                self.close_line(depth, out);
                out.push(']');
            }
            Value::Object(members) if !members.is_empty() => {
                out.push('{');
                for (i, (key, item)) in members.iter().enumerate() {
                    self.open_line(i, depth + 1, out);
                    out.push_str(&Value::String(key.clone()).to_string());
                    out.push_str(": ");
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&escape(key));
                    self.write(item, pointer, depth + 1, out);
                    pointer.truncate(len);
                }
                self.close_line(depth, out);
                out.push('}');
            }
            scalar_or_empty => out.push_str(&scalar_or_empty.to_string()),
        }
    }

    /// `value` on one line, in the file's spacing.
    fn compact(&self, value: &Value, out: &mut String) {
        let (items, open, close, pad): (Vec<(Option<&String>, &Value)>, _, _, _) = match value {
            Value::Array(items) if !items.is_empty() => (
                items.iter().map(|v| (None, v)).collect(),
                '[',
                ']',
                self.pad_arrays,
            ),
            Value::Object(members) if !members.is_empty() => (
                members.iter().map(|(k, v)| (Some(k), v)).collect(),
                '{',
                '}',
                self.pad_objects,
            ),
            scalar_or_empty => {
                out.push_str(&scalar_or_empty.to_string());
                return;
            }
        };
        out.push(open);
        if pad {
            out.push(' ');
        }
        for (i, (key, item)) in items.into_iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if let Some(key) = key {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
            }
            self.compact(item, out);
        }
        if pad {
            out.push(' ');
        }
        out.push(close);
    }

    fn open_line(&self, index: usize, depth: usize, out: &mut String) {
        if index > 0 {
            out.push(',');
        }
        out.push('\n');
        out.push_str(&self.indent.repeat(depth));
    }

    fn close_line(&self, depth: usize, out: &mut String) {
        out.push('\n');
        out.push_str(&self.indent.repeat(depth));
    }
}

/// Levels of containers in `value` (a scalar is 0, `[1]` is 1, `{"a": [1]}` is 2).
fn nesting(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

/// Every array and object of `text` written on one line, by JSON pointer. Text that
/// does not scan as JSON yields what was found before the problem.
fn inline_spans(text: &str) -> HashMap<String, &str> {
    let mut scanner = Spans {
        text,
        pos: 0,
        found: HashMap::new(),
    };
    scanner.value(&mut String::new(), 0);
    scanner.found
}

/// Containers nested deeper than this are not indexed (the parser refuses deeper ones).
const MAX_DEPTH: usize = 128;

struct Spans<'a> {
    text: &'a str,
    pos: usize,
    found: HashMap<String, &'a str>,
}

impl<'a> Spans<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// Scans one value at the cursor; `None` when the text is not JSON there.
    fn value(&mut self, pointer: &mut String, depth: usize) -> Option<()> {
        self.skip_ws();
        match self.peek()? {
            open @ (OBJECT_OPEN | ARRAY_OPEN) if depth < MAX_DEPTH => {
                self.container(open, pointer, depth)?;
            }
            b'"' => {
                self.string()?;
            }
            OBJECT_OPEN | ARRAY_OPEN => return None,
            _ => {
                while self.peek().is_some_and(|b| {
                    !matches!(b, b',' | OBJECT_CLOSE | ARRAY_CLOSE) && !b.is_ascii_whitespace()
                }) {
                    self.pos += 1;
                }
            }
        }
        Some(())
    }

    /// Scans the object or array that `open` starts at the cursor, members and all, and
    /// records it when it is written on one line.
    fn container(&mut self, open: u8, pointer: &mut String, depth: usize) -> Option<()> {
        let start = self.pos;
        self.pos += 1;
        let close = if open == OBJECT_OPEN {
            OBJECT_CLOSE
        } else {
            ARRAY_CLOSE
        };
        let mut index = 0usize;
        loop {
            self.skip_ws();
            if self.peek()? == close {
                self.pos += 1;
                break;
            }
            if index > 0 {
                (self.peek()? == b',').then_some(())?;
                self.pos += 1;
                self.skip_ws();
            }
            let len = pointer.len();
            pointer.push('/');
            if open == OBJECT_OPEN {
                let key: String = serde_json::from_str(self.string()?).ok()?;
                pointer.push_str(&escape(&key));
                self.skip_ws();
                (self.peek()? == b':').then_some(())?;
                self.pos += 1;
            } else {
                pointer.push_str(&index.to_string());
            }
            self.value(pointer, depth + 1)?;
            pointer.truncate(len);
            index += 1;
        }
        let span = &self.text[start..self.pos];
        if !span.contains('\n') {
            self.found.insert(pointer.clone(), span);
        }
        Some(())
    }

    /// Scans a string literal at the cursor and returns it with its quotes.
    fn string(&mut self) -> Option<&'a str> {
        let start = self.pos;
        (self.peek()? == b'"').then_some(())?;
        self.pos += 1;
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return self.text.get(start..self.pos);
                }
                _ => self.pos += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn render(original: &str, value: &Value) -> String {
        let parsed: Value = serde_json::from_str(original).unwrap_or_default();
        render_like(original, &parsed, value)
    }

    #[test]
    fn an_unchanged_document_renders_as_written() {
        let text = "{\n    \"id\": \"a\",\n    \"mime\": [\"application/pdf\", \"x\"],\n    \"o\": {\n        \"k\": 1\n    }\n}\n";
        let value: Value = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(render(text, &value), text);
    }

    #[test]
    fn keeps_tabs_and_a_missing_final_newline() {
        let text = "{\n\t\"a\": [\n\t\t1\n\t]\n}";
        assert_eq!(
            render(text, &json!({"a": [1], "b": true})),
            "{\n\t\"a\": [\n\t\t1\n\t],\n\t\"b\": true\n}"
        );
    }

    #[test]
    fn a_changed_inline_container_stays_on_one_line_while_it_fits() {
        let text = "{\n  \"a\": [1, 2],\n  \"o\": { \"k\": 1 }\n}\n";
        assert_eq!(
            render(text, &json!({"a": [1, 3], "o": {"k": 2}})),
            "{\n  \"a\": [1, 3],\n  \"o\": { \"k\": 2 }\n}\n"
        );
        let long: Vec<String> = (0..30).map(|i| format!("item-{i}")).collect();
        let rendered = render(text, &json!({"a": long}));
        assert!(
            rendered.starts_with("{\n  \"a\": [\n    \"item-0\",\n"),
            "{rendered}"
        );
    }

    #[test]
    fn new_small_containers_follow_the_file() {
        let inline = "{\n  \"o\": { \"k\": 1 }\n}\n";
        assert_eq!(
            render(inline, &json!({"o": {"k": 1}, "n": {"m": {"kind": "x"}}})),
            "{\n  \"o\": { \"k\": 1 },\n  \"n\": { \"m\": { \"kind\": \"x\" } }\n}\n"
        );
        let expanded = "{\n  \"o\": {\n    \"k\": 1\n  }\n}\n";
        assert_eq!(
            render(expanded, &json!({"o": {"k": 1}, "n": {"m": true}})),
            "{\n  \"o\": {\n    \"k\": 1\n  },\n  \"n\": {\n    \"m\": true\n  }\n}\n"
        );
    }

    #[test]
    fn text_that_is_not_json_still_renders() {
        assert_eq!(
            render("{\"a\": [1,", &json!({"a": []})),
            "{\n  \"a\": []\n}"
        );
        assert_eq!(render("", &json!({})), "{}\n");
    }

    #[test]
    fn keys_with_pointer_characters_are_matched() {
        let text = "{\n  \"a/b~c\": [1]\n}\n";
        assert_eq!(
            render(text, &json!({"a/b~c": [1], "z": 0})),
            "{\n  \"a/b~c\": [1],\n  \"z\": 0\n}\n"
        );
    }
}
