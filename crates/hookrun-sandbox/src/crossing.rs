//! Hands a hook its argument as engine values.
//!
//! Under QuickJS the argument is written straight into the engine's own binary
//! object format (what `JS_WriteObject` writes for plain data) and read back
//! through `v8::ValueDeserializer`, which the QuickJS backend serves with
//! `JS_ReadObject`. That skips writing JSON text on the host and tokenizing it
//! in the engine, and each distinct key is turned into an engine atom once per
//! argument instead of once per occurrence. The result is the value
//! `JSON.parse` would build from the argument's JSON text: the same own
//! enumerable data properties in the same order, array-index keys as numbers.
//! Under V8 the argument crosses as JSON text.

use deno_core::v8;
#[cfg(feature = "quickjs")]
use deno_core::v8::ValueDeserializerHelper;
use serde_json::{Map, Value};

use crate::Placed;

/// The argument as engine values, if the engine could build it, and the size
/// it crossed in as.
pub(crate) struct Crossed<'s> {
    pub value: Option<v8::Local<'s, v8::Value>>,
    pub bytes: usize,
}

/// A call's argument: a value with the top-level members [`Call::placed`]
/// gives by reference, or its engine encoding made ahead of the call (by the
/// parent of a worker process, with [`encode`]).
///
/// [`Call::placed`]: crate::Call::placed
#[derive(Clone, Copy)]
pub(crate) enum Arg<'a> {
    Value(&'a Value, Placed<'a>),
    Encoded(&'a [u8]),
}

/// The engine's own encoding of `value` with its `placed` members, when the
/// engine has one it reads directly (QuickJS) and the value fits it.
pub(crate) fn encode(value: &Value, placed: Placed<'_>) -> Option<Vec<u8>> {
    #[cfg(feature = "quickjs")]
    return quickjs::encode(value, placed, &[]);
    #[cfg(not(feature = "quickjs"))]
    {
        let _ = (value, placed);
        None
    }
}

/// The members of object `members`, each with its value or the one `placed`
/// gives for its key.
pub(crate) fn members_placing<'v>(
    members: &'v Map<String, Value>,
    placed: Placed<'v>,
) -> impl Iterator<Item = (&'v String, &'v Value)> {
    members.iter().map(move |(key, own)| {
        let value = placed
            .iter()
            .find(|(name, _)| *name == key)
            .map_or(own, |(_, value)| *value);
        (key, value)
    })
}

/// `value` with its `placed` members in place and the nodes `holes` (inside
/// either) replaced by `null`, as one owned value.
pub(crate) fn filled(value: &Value, placed: Placed<'_>, holes: &[*const Value]) -> Value {
    match value {
        Value::Object(members) if !placed.is_empty() => Value::Object(
            members_placing(members, placed)
                .map(|(key, value)| (key.clone(), without(value, holes)))
                .collect(),
        ),
        _ => without(value, holes),
    }
}

/// Builds the argument in the engine. The value is `None` when the engine cannot
/// hold it: a string longer than the engine allows, nesting deeper than its
/// stack, or the heap cap reached meanwhile.
pub(crate) fn cross<'s>(scope: &mut v8::PinScope<'s, '_>, arg: Arg<'_>) -> Crossed<'s> {
    cross_with_holes(scope, arg, &[])
}

/// Builds the argument in the engine like [`cross`], with the nodes `holes`
/// (sorted addresses inside the value) crossing as `null`.
pub(crate) fn cross_with_holes<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    arg: Arg<'_>,
    holes: &[*const Value],
) -> Crossed<'s> {
    let (value, placed) = match arg {
        Arg::Value(value, placed) => (value, placed),
        Arg::Encoded(wire) => return read_encoded(scope, wire),
    };
    #[cfg(feature = "quickjs")]
    if let Some(wire) = quickjs::encode(value, placed, holes) {
        return read_encoded(scope, &wire);
    }
    let whole;
    let value = if holes.is_empty() && placed.is_empty() {
        value
    } else {
        whole = filled(value, placed, holes);
        &whole
    };
    let text = serde_json::to_string(value).unwrap_or_default();
    let value = v8::String::new(scope, &text).and_then(|string| v8::json::parse(scope, string));
    Crossed {
        value,
        bytes: text.len(),
    }
}

/// Builds an array of `values` in the engine, in one crossing; `None` when the
/// engine cannot hold it. The array's elements are defined, not assigned, so
/// setters a hook put on `Array.prototype` do not see them.
pub(crate) fn cross_list<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    values: &[&Value],
) -> Option<v8::Local<'s, v8::Value>> {
    #[cfg(feature = "quickjs")]
    if let Some(wire) = quickjs::encode_list(values) {
        return read_encoded(scope, &wire).value;
    }
    let items: Vec<String> = values
        .iter()
        .map(|value| serde_json::to_string(value).unwrap_or_default())
        .collect();
    let text = format!("[{}]", items.join(","));
    v8::String::new(scope, &text).and_then(|string| v8::json::parse(scope, string))
}

/// A copy of `value` with the nodes `holes` replaced by `null`.
fn without(value: &Value, holes: &[*const Value]) -> Value {
    if holes.binary_search(&(value as *const Value)).is_ok() {
        return Value::Null;
    }
    match value {
        Value::Array(items) => Value::Array(items.iter().map(|v| without(v, holes)).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), without(v, holes)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Reads an argument in the engine's own encoding.
#[cfg(feature = "quickjs")]
fn read_encoded<'s>(scope: &mut v8::PinScope<'s, '_>, wire: &[u8]) -> Crossed<'s> {
    struct Plain;
    impl v8::ValueDeserializerImpl for Plain {}
    let context = scope.get_current_context();
    let reader = v8::ValueDeserializer::new(scope, Box::new(Plain), wire);
    let value = match reader.read_header(context) {
        Some(true) => reader.read_value(context),
        _ => None,
    };
    Crossed {
        value,
        bytes: wire.len(),
    }
}

/// Without an engine encoding nothing is ever encoded ahead.
#[cfg(not(feature = "quickjs"))]
fn read_encoded<'s>(_scope: &mut v8::PinScope<'s, '_>, wire: &[u8]) -> Crossed<'s> {
    Crossed {
        value: None,
        bytes: wire.len(),
    }
}

/// The QuickJS-ng binary object format (`BC_VERSION` 28), restricted to the
/// tags JSON needs, wrapped the way v8x's value deserializer expects it.
#[cfg(feature = "quickjs")]
mod quickjs {
    use std::collections::HashMap;

    use foldhash::fast::RandomState;
    use serde_json::{Map, Number, Value};

    use crate::Placed;

    /// v8x's wire header and magic, then its tag for one `JS_WriteObject` blob.
    const WIRE_PREFIX: &[u8] = b"\xff\x0fQJSVV";
    const BC_VERSION: u8 = 28;
    /// The sum that tells the reader not to check the blob's sum.
    const UNCHECKED: u32 = u32::MAX;
    const TAG_NULL: u8 = 1;
    const TAG_FALSE: u8 = 3;
    const TAG_TRUE: u8 = 4;
    const TAG_INT32: u8 = 5;
    const TAG_FLOAT64: u8 = 6;
    const TAG_STRING: u8 = 7;
    const TAG_OBJECT: u8 = 8;
    const TAG_ARRAY: u8 = 9;
    const ATOM_TYPE_STRING: u8 = 1;
    /// Atom indexes start after the null atom.
    const FIRST_ATOM: u32 = 1;
    /// Keys that are array indexes are integer atoms, not strings.
    const MAX_INT_ATOM: u32 = (1 << 31) - 1;
    /// The reader refuses more distinct keys than this.
    const MAX_ATOMS: usize = 1_000_000;
    /// The longest string the engine holds, in characters (`JS_STRING_LEN_MAX`).
    const MAX_STRING_LEN: usize = (1 << 30) - 1;

    /// The argument in v8x's wire format, or `None` when the format cannot
    /// carry it (then it crosses as JSON text, where the engine refuses
    /// what it cannot hold), with its `placed` members in place and the
    /// nodes `holes` (addresses inside either) written as `null`. Every
    /// length is checked, so the reader never takes string contents for tags.
    pub(super) fn encode(
        value: &Value,
        placed: Placed<'_>,
        holes: &[*const Value],
    ) -> Option<Vec<u8>> {
        let mut writer = Writer::new(holes);
        match value {
            Value::Object(map) if !placed.is_empty() => writer.object(map, placed)?,
            _ => writer.value(value)?,
        }
        writer.finish()
    }

    /// An array of `values`, written as one argument.
    pub(super) fn encode_list(values: &[&Value]) -> Option<Vec<u8>> {
        let mut writer = Writer::new(&[]);
        writer.body.push(TAG_ARRAY);
        leb128(&mut writer.body, u32::try_from(values.len()).ok()?);
        for value in values {
            writer.value(value)?;
        }
        writer.finish()
    }

    struct Writer<'v, 'h> {
        body: Vec<u8>,
        atoms: Vec<&'v str>,
        /// Seeded per process: keys come from hooks, so a fixed hash would
        /// let one pick colliding keys.
        atom_index: HashMap<&'v str, u32, RandomState>,
        holes: &'h [*const Value],
    }

    impl<'v, 'h> Writer<'v, 'h> {
        /// A writer with room for a typical argument's values and keys.
        fn new(holes: &'h [*const Value]) -> Self {
            Writer {
                body: Vec::with_capacity(256),
                atoms: Vec::with_capacity(64),
                atom_index: HashMap::with_capacity_and_hasher(64, RandomState::default()),
                holes,
            }
        }

        /// The wire bytes: v8x's header, the blob's header and atom table,
        /// then the body written so far.
        fn finish(self) -> Option<Vec<u8>> {
            let mut wire = Vec::with_capacity(self.body.len() + 16 * self.atoms.len() + 32);
            wire.extend_from_slice(WIRE_PREFIX);
            let blob_start = wire.len() + 4;
            wire.extend_from_slice(&[0; 4]);
            wire.push(BC_VERSION);
            // No integrity sum: the reader skips its check for this value.
            // The bytes never leave the host's own processes, and the reader
            // checks every length against the buffer whatever the sum says.
            wire.extend_from_slice(&UNCHECKED.to_ne_bytes());
            leb128(&mut wire, self.atoms.len() as u32);
            for key in &self.atoms {
                wire.push(ATOM_TYPE_STRING);
                string(&mut wire, key)?;
            }
            wire.extend_from_slice(&self.body);
            let blob_len = u32::try_from(wire.len() - blob_start).ok()?;
            wire[blob_start - 4..blob_start].copy_from_slice(&blob_len.to_le_bytes());
            Some(wire)
        }

        fn value(&mut self, value: &'v Value) -> Option<()> {
            if !self.holes.is_empty() && self.holes.binary_search(&(value as *const Value)).is_ok()
            {
                self.body.push(TAG_NULL);
                return Some(());
            }
            match value {
                Value::Null => self.body.push(TAG_NULL),
                Value::Bool(false) => self.body.push(TAG_FALSE),
                Value::Bool(true) => self.body.push(TAG_TRUE),
                Value::Number(n) => self.number(n),
                Value::String(s) => {
                    self.body.push(TAG_STRING);
                    string(&mut self.body, s)?;
                }
                Value::Array(items) => {
                    self.body.push(TAG_ARRAY);
                    leb128(&mut self.body, u32::try_from(items.len()).ok()?);
                    for item in items {
                        self.value(item)?;
                    }
                }
                Value::Object(map) => self.object(map, &[])?,
            }
            Some(())
        }

        fn number(&mut self, n: &Number) {
            match n.as_i64().and_then(|i| i32::try_from(i).ok()) {
                Some(i) => {
                    self.body.push(TAG_INT32);
                    // Zigzag, as the reader's signed LEB128 expects.
                    leb128(&mut self.body, ((i << 1) ^ (i >> 31)) as u32);
                }
                None => {
                    self.body.push(TAG_FLOAT64);
                    let f = n.as_f64().unwrap_or(f64::NAN);
                    self.body.extend_from_slice(&f.to_bits().to_ne_bytes());
                }
            }
        }

        /// An object, with the values `placed` gives for its keys.
        fn object(&mut self, map: &'v Map<String, Value>, placed: Placed<'v>) -> Option<()> {
            self.body.push(TAG_OBJECT);
            leb128(&mut self.body, u32::try_from(map.len()).ok()?);
            for (key, item) in super::members_placing(map, placed) {
                let atom = match index_key(key) {
                    Some(n) => (n << 1) | 1,
                    None => self.atom(key)? << 1,
                };
                leb128(&mut self.body, atom);
                self.value(item)?;
            }
            Some(())
        }

        /// The index of `key` in the atom table; `None` once the table has
        /// more keys than the reader accepts.
        fn atom(&mut self, key: &'v str) -> Option<u32> {
            if let Some(&index) = self.atom_index.get(key) {
                return Some(index);
            }
            if self.atoms.len() >= MAX_ATOMS {
                return None;
            }
            let index = FIRST_ATOM + self.atoms.len() as u32;
            self.atoms.push(key);
            self.atom_index.insert(key, index);
            Some(index)
        }
    }

    /// The number a key names when the engine stores it as an integer atom:
    /// canonical decimal (no sign, no leading zero) up to 2³¹ − 1.
    fn index_key(key: &str) -> Option<u32> {
        let bytes = key.as_bytes();
        if bytes.is_empty() || bytes.len() > 10 || (bytes[0] == b'0' && bytes.len() > 1) {
            return None;
        }
        let mut n: u64 = 0;
        for &b in bytes {
            if !b.is_ascii_digit() {
                return None;
            }
            n = n * 10 + u64::from(b - b'0');
        }
        u32::try_from(n).ok().filter(|&n| n <= MAX_INT_ATOM)
    }

    /// A string as the engine stores it: Latin-1 when every character fits,
    /// UTF-16 otherwise, after its length and width; `None` when the engine
    /// cannot hold it.
    fn string(out: &mut Vec<u8>, s: &str) -> Option<()> {
        if s.is_ascii() {
            leb128(out, string_header(s.len(), false)?);
            out.extend_from_slice(s.as_bytes());
        } else if s.chars().all(|c| u32::from(c) <= 0xff) {
            leb128(out, string_header(s.chars().count(), false)?);
            out.extend(s.chars().map(|c| c as u8));
        } else {
            leb128(out, string_header(s.encode_utf16().count(), true)?);
            for unit in s.encode_utf16() {
                out.extend_from_slice(&unit.to_ne_bytes());
            }
        }
        Some(())
    }

    /// A string's length and width as the reader takes them.
    fn string_header(len: usize, wide: bool) -> Option<u32> {
        (len <= MAX_STRING_LEN).then_some(((len as u32) << 1) | u32::from(wide))
    }

    fn leb128(out: &mut Vec<u8>, mut v: u32) {
        while v >= 0x80 {
            out.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use serde_json::json;

        #[test]
        fn index_keys_are_canonical_numbers_below_two_to_the_31() {
            assert_eq!(index_key("0"), Some(0));
            assert_eq!(index_key("42"), Some(42));
            assert_eq!(index_key("2147483647"), Some(2_147_483_647));
            for key in [
                "",
                "01",
                "-1",
                "1.5",
                "2147483648",
                "4294967295",
                "12345678901",
                "1a",
            ] {
                assert_eq!(index_key(key), None, "{key}");
            }
        }

        #[test]
        fn leb128_and_zigzag_match_the_reader() {
            let mut out = Vec::new();
            leb128(&mut out, 300);
            assert_eq!(out, [0xac, 0x02]);
            let mut w = Writer::new(&[]);
            w.number(&Number::from(-1));
            w.number(&Number::from(1));
            assert_eq!(w.body, [TAG_INT32, 1, TAG_INT32, 2]);
        }

        #[test]
        fn keys_repeat_as_one_atom() {
            let value = serde_json::json!([{"a": 1, "b": 2}, {"a": 3, "7": 4}]);
            let mut w = Writer::new(&[]);
            w.value(&value).unwrap();
            assert_eq!(w.atoms, ["a", "b"]);
        }

        #[test]
        fn strings_longer_than_the_engine_holds_are_refused_not_wrapped() {
            assert_eq!(string_header(3, false), Some(6));
            assert_eq!(string_header(3, true), Some(7));
            assert_eq!(string_header(MAX_STRING_LEN, true), Some((1 << 31) - 1));
            assert_eq!(string_header(MAX_STRING_LEN + 1, false), None);
            assert_eq!(string_header(1 << 31, false), None);
        }

        #[test]
        fn placed_members_are_written_as_if_they_were_in_the_argument() {
            let selection = json!({"items": [{"key": "A", "tags": ["x"]}], "n": 1.5});
            let manifest = json!({"id": "w", "hooks": {"preflight": "p.mjs"}});
            let arg = json!({"selectionContext": null, "manifest": null, "other": [1, 2]});
            let placed: &[(&str, &Value)] =
                &[("selectionContext", &selection), ("manifest", &manifest)];
            let whole = json!({"selectionContext": selection, "manifest": manifest,
                               "other": [1, 2]});
            assert_eq!(encode(&arg, placed, &[]), encode(&whole, &[], &[]));
            assert_eq!(super::super::filled(&arg, placed, &[]), whole);
            // Holes inside a placed member cross as `null` both ways.
            let hole: &[*const Value] = &[&selection["items"] as *const Value];
            let holed = json!({"selectionContext": {"items": null, "n": 1.5},
                               "manifest": manifest, "other": [1, 2]});
            assert_eq!(encode(&arg, placed, hole), encode(&holed, &[], &[]));
            assert_eq!(super::super::filled(&arg, placed, hole), holed);
        }

        #[test]
        fn more_keys_than_the_reader_accepts_cross_as_json_text() {
            let keys: serde_json::Map<String, Value> = (0..=MAX_ATOMS)
                .map(|i| (format!("k{i}"), Value::Null))
                .collect();
            assert!(encode(&Value::Object(keys), &[], &[]).is_none());
        }
    }
}
