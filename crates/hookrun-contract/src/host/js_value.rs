//! JavaScript's conversions of JSON values, as the reference host applies them
//! to the requests and payloads it reads: `String(x)`, `Number(x)`, truthiness,
//! `trim()`, `JSON.stringify` and string lengths in UTF-16 code units.

use serde_json::Value;

/// Whether `c` is white space to JavaScript's `\s` and `trim()`.
pub(crate) fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n'
            | '\u{b}'
            | '\u{c}'
            | '\r'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    ) || ('\u{2000}'..='\u{200a}').contains(&c)
}

/// `text.trim()`.
pub(crate) fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_space)
}

/// `text.length`: UTF-16 code units.
pub(crate) fn utf16_len(text: &str) -> u64 {
    text.encode_utf16().count() as u64
}

/// Whether `value` is truthy (`None` is `undefined`).
pub(crate) fn is_truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null | Value::Bool(false)) => false,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// `String(value)`.
pub(crate) fn js_string(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|v| {
                if v.is_null() {
                    String::new()
                } else {
                    js_string(v)
                }
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".into(),
        other => js_json(other),
    }
}

/// `String(value || "")`.
pub(crate) fn js_text(value: Option<&Value>) -> String {
    match value {
        Some(v) if is_truthy(Some(v)) => js_string(v),
        _ => String::new(),
    }
}

/// `Number(value)` (`NaN` for what it cannot read).
pub(crate) fn js_number(value: &Value) -> f64 {
    match value {
        Value::Null => 0.0,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => {
            let s = js_trim(s);
            if s.is_empty() {
                0.0
            } else {
                s.parse::<f64>()
                    .ok()
                    .filter(|_| !s.contains(['i', 'I', 'n', 'N']))
                    .unwrap_or(f64::NAN)
            }
        }
        Value::Array(items) if items.is_empty() => 0.0,
        Value::Array(items) if items.len() == 1 => js_number(&Value::String(js_string(value))),
        _ => f64::NAN,
    }
}

/// `value` with each integral floating-point number written as an integer, as
/// JavaScript writes numbers.
fn as_javascript(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => Value::from(x as i64),
            _ => value.clone(),
        },
        Value::Array(items) => items.iter().map(as_javascript).collect(),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), as_javascript(v)))
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// `JSON.stringify(value)`.
pub(crate) fn js_json(value: &Value) -> String {
    as_javascript(value).to_string()
}

/// `JSON.stringify(value, null, 2)`.
pub(crate) fn js_json_pretty(value: &Value) -> String {
    serde_json::to_string_pretty(&as_javascript(value)).unwrap_or_default()
}

/// The UTF-8 bytes of `JSON.stringify(value)`.
pub(crate) fn json_bytes(value: &Value) -> u64 {
    js_json(value).len() as u64
}

/// The bounds of the reference's "bounded strict JSON": how deep a value nests,
/// how many entries one array or object holds, and how many UTF-16 code units
/// one string or member name has.
#[derive(Debug, Clone, Copy)]
pub(crate) struct JsonBounds {
    /// Levels below the top.
    pub(crate) depth: usize,
    /// Entries of one array or object.
    pub(crate) entries: usize,
    /// UTF-16 code units of one string or member name.
    pub(crate) characters: u64,
}

impl JsonBounds {
    /// Whether `value` keeps the bounds.
    pub(crate) fn hold(&self, value: &Value) -> bool {
        self.hold_at(value, 0)
    }

    /// Whether `value`, found `depth` levels below the top, keeps the bounds.
    fn hold_at(&self, value: &Value, depth: usize) -> bool {
        let short = |s: &str| utf16_len(s) <= self.characters;
        depth <= self.depth
            && match value {
                Value::String(s) => short(s),
                Value::Array(items) => {
                    items.len() <= self.entries && items.iter().all(|v| self.hold_at(v, depth + 1))
                }
                Value::Object(members) => {
                    members.len() <= self.entries
                        && members
                            .iter()
                            .all(|(k, v)| short(k) && self.hold_at(v, depth + 1))
                }
                _ => true,
            }
    }
}
