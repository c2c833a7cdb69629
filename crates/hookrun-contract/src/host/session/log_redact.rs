//! What the reference host's runtime log keeps of a hook's entry: in the
//! message, an assignment to a name that reads like a credential, the value
//! after `Bearer` and private locations (`file:` URLs, drive paths, home,
//! `tmp` and `var` paths) are replaced; in the details, a member named like a
//! credential or a location is withheld whatever it holds, and long strings,
//! deep values, long arrays and wide objects are cut.

use serde_json::{Map, Value};

use crate::host::js_value::{is_js_space, utf16_len};

/// What stands for a withheld value.
const REDACTED: &str = "<redacted>";

/// What stands for a private location in the message.
const REDACTED_PATH: &str = "<redacted-path>";

/// The longest string kept whole, in UTF-16 code units.
const STRING_LIMIT: u64 = 4000;

/// How deep a value of the details is kept (deeper ones become a marker).
const DEPTH_LIMIT: usize = 6;

/// How many items of an array of the details are kept.
const ARRAY_LIMIT: usize = 100;

/// How many members of an object of the details are kept.
const MEMBER_LIMIT: usize = 200;

/// Words that make a name in the message read like a credential.
const CREDENTIAL_WORDS: &[&str] = &[
    "token", "secret", "password", "apikey", "api-key", "api_key",
];

/// Words that make a member of the details withheld.
const WITHHELD_WORDS: &[&str] = &[
    "authorization",
    "token",
    "secret",
    "password",
    "apikey",
    "api-key",
    "api_key",
    "cookie",
    "bearer",
    "path",
    "stack",
    "cause",
    "url",
    "uri",
    "location",
];

/// The top folders whose paths are private.
const PRIVATE_ROOTS: &[&str] = &["home", "Users", "tmp", "var"];

/// Finds, at a position, the end of a span to replace.
type SpanEnd = fn(&[char], usize) -> Option<usize>;

/// The message as the log stores it.
pub(super) fn redact_message(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let chars = replace_spans(&chars, credential_end, REDACTED);
    let chars = replace_spans(&chars, bearer_end, "Bearer <redacted>");
    let chars = replace_spans(&chars, path_end, REDACTED_PATH);
    cut(&chars.into_iter().collect::<String>())
}

/// The details as the log stores them.
pub(super) fn redact_details(details: &Value) -> Value {
    redact_value(details, None, 0)
}

/// `text`, or its first 4000 code units and a truncation mark.
fn cut(text: &str) -> String {
    if utf16_len(text) <= STRING_LIMIT {
        return text.to_string();
    }
    let mut units = 0;
    let kept: String = text
        .chars()
        .take_while(|c| {
            units += c.len_utf16() as u64;
            units <= STRING_LIMIT
        })
        .collect();
    format!("{kept}...<truncated>")
}

/// `chars` with each span `end_of` finds, leftmost first, replaced.
fn replace_spans(chars: &[char], end_of: SpanEnd, replacement: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(chars.len());
    let mut at = 0;
    while let Some(&c) = chars.get(at) {
        match end_of(chars, at) {
            Some(end) => {
                out.extend(replacement.chars());
                at = end;
            }
            None => {
                out.push(c);
                at += 1;
            }
        }
    }
    out
}

/// Whether `c` is a word character to a regular expression's `\b`.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `c` may be part of a credential's name.
fn is_name(c: char) -> bool {
    is_word(c) || c == '-'
}

/// Whether a word starts or ends at `at`.
fn at_boundary(chars: &[char], at: usize) -> bool {
    let before = at.checked_sub(1).and_then(|i| chars.get(i));
    before.is_some_and(|c| is_word(*c)) != chars.get(at).is_some_and(|c| is_word(*c))
}

/// Where the run of characters keeping `keep` that starts at `from` ends.
fn run_end(chars: &[char], from: usize, keep: impl Fn(char) -> bool) -> usize {
    from + chars.iter().skip(from).take_while(|c| keep(**c)).count()
}

/// Where the non-blank run at `from` ends, if it is not empty.
fn token_end(chars: &[char], from: usize) -> Option<usize> {
    let end = run_end(chars, from, |c| !is_js_space(c));
    (end > from).then_some(end)
}

/// Whether `word` is written at `at` (ASCII letters in any case if `any_case`).
fn written_at(chars: &[char], at: usize, word: &str, any_case: bool) -> bool {
    let mut found = chars.iter().skip(at);
    word.chars().all(|w| {
        found
            .next()
            .is_some_and(|c| *c == w || (any_case && c.eq_ignore_ascii_case(&w)))
    })
}

/// Where the blanks after a `Bearer` word at `at` end.
fn after_bearer(chars: &[char], at: usize) -> Option<usize> {
    if !at_boundary(chars, at) || !written_at(chars, at, "bearer", true) {
        return None;
    }
    let end = run_end(chars, at + 6, is_js_space);
    (end > at + 6).then_some(end)
}

/// The end of `name: value` or `name=value` with a credential's name at `at`,
/// `Bearer` and blanks first allowed.
fn credential_end(chars: &[char], at: usize) -> Option<usize> {
    if !at_boundary(chars, at) {
        return None;
    }
    after_bearer(chars, at)
        .and_then(|name| assignment_end(chars, name))
        .or_else(|| assignment_end(chars, at))
}

/// The end of an assignment whose name, starting at `at`, reads like a credential.
fn assignment_end(chars: &[char], at: usize) -> Option<usize> {
    let name_end = run_end(chars, at, is_name);
    let name: String = chars[at..name_end].iter().collect::<String>();
    let name = name.to_ascii_lowercase();
    if !CREDENTIAL_WORDS.iter().any(|w| name.contains(w)) {
        return None;
    }
    let sign = run_end(chars, name_end, is_js_space);
    if !matches!(chars.get(sign), Some(':' | '=')) {
        return None;
    }
    token_end(chars, run_end(chars, sign + 1, is_js_space))
}

/// The end of `Bearer <value>` at `at`.
fn bearer_end(chars: &[char], at: usize) -> Option<usize> {
    token_end(chars, after_bearer(chars, at)?)
}

/// The end of a private location at `at`.
fn path_end(chars: &[char], at: usize) -> Option<usize> {
    let word = at_boundary(chars, at);
    if word && written_at(chars, at, "file://", false) {
        return token_end(chars, at + 7);
    }
    let drive = chars.get(at).is_some_and(char::is_ascii_alphabetic);
    if word && drive && written_at(chars, at + 1, ":\\", false) {
        return token_end(chars, at + 3);
    }
    if chars.get(at) != Some(&'/') {
        return None;
    }
    let root = PRIVATE_ROOTS.iter().find(|r| {
        written_at(chars, at + 1, r, false) && chars.get(at + 1 + r.len()) == Some(&'/')
    })?;
    token_end(chars, at + root.len() + 2)
}

/// Whether a member of the details named `key` is withheld.
fn withheld(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    WITHHELD_WORDS.iter().any(|w| key.contains(w))
}

/// `value`, found under `key` (none in an array) `depth` levels down, as kept.
fn redact_value(value: &Value, key: Option<&str>, depth: usize) -> Value {
    if key.is_some_and(withheld) {
        return Value::from(REDACTED);
    }
    match value {
        Value::Null => Value::Null,
        _ if depth >= DEPTH_LIMIT => Value::from("[max-depth]"),
        Value::String(s) => Value::from(cut(s)),
        Value::Array(items) => {
            let mut kept: Vec<Value> = items
                .iter()
                .take(ARRAY_LIMIT)
                .map(|v| redact_value(v, None, depth + 1))
                .collect();
            if items.len() > ARRAY_LIMIT {
                kept.push(format!("[... {} more items]", items.len() - ARRAY_LIMIT).into());
            }
            Value::Array(kept)
        }
        Value::Object(members) => Value::Object(redact_members(members, depth)),
        other => other.clone(),
    }
}

/// The members of an object `depth` levels down, as kept.
fn redact_members(members: &Map<String, Value>, depth: usize) -> Map<String, Value> {
    let mut kept: Map<String, Value> = members
        .iter()
        .take(MEMBER_LIMIT)
        .map(|(k, v)| (k.clone(), redact_value(v, Some(k), depth + 1)))
        .collect();
    if members.len() > MEMBER_LIMIT {
        kept.insert(
            "__truncated_keys__".into(),
            Value::from(members.len() - MEMBER_LIMIT),
        );
    }
    kept
}

#[cfg(test)]
#[path = "log_redact_tests.rs"]
mod log_redact_tests;
