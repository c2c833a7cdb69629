//! An item's original JSON object, held as compact text.
//!
//! A selection of tens of thousands of items holds each item's object for as long as
//! the run needs it, to hand it to hooks and write it back unchanged. As a parsed
//! `serde_json::Map` an item takes five to seven times its JSON's size (a node, a
//! string and a map slot per member); as text it takes its size, less the member
//! names Zotero's export repeats in every item, which it holds as two-byte codes
//! (see `member_names`). The text is what `serde_json` writes for the parsed object,
//! so it reads back to the same value and serialises to the same bytes, in whatever
//! format the serializer writes.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::io;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::member_names;

/// An item's JSON object as compact text, shared by the item's copies; the
/// names of Zotero's members are held as codes and written out by
/// [`text`](Self::text).
#[derive(Clone, PartialEq, Eq)]
pub struct ItemJson(Arc<str>);

impl ItemJson {
    /// The compact JSON of `map`.
    pub fn of(map: &Map<String, Value>) -> Self {
        match Self::of_marking(map, &[]) {
            Some((item, [])) => item,
            // Without members to mark, writing cannot stop.
            None => Self(Arc::from(serde_json::to_string(map).unwrap_or_default())),
        }
    }

    /// The compact JSON of `map` (the bytes [`of`](Self::of) writes), with where
    /// each string member `members` names is in it ([`Span::ABSENT`] for one that
    /// is missing or not a string); `None` when one of them is written with
    /// escapes, so that its text is not its characters.
    pub(crate) fn of_marking<const N: usize>(
        map: &Map<String, Value>,
        members: &[Member; N],
    ) -> Option<(Self, [Span; N])> {
        let mut marking = Marking {
            members,
            spans: [Span::ABSENT; N],
        };
        let mut out = Vec::with_capacity(256);
        marking.object(&mut out, map, None)?;
        let text = String::from_utf8(out).ok()?;
        Some((Self(Arc::from(text)), marking.spans))
    }

    /// The compact JSON text, the bytes `serde_json` writes for the object.
    pub fn text(&self) -> Cow<'_, str> {
        member_names::unpack(&self.0)
    }

    /// The text as held, member names as codes: where a [`Span`] points.
    pub(crate) fn packed(&self) -> &str {
        &self.0
    }

    /// Whether the object may have a member named `name` (a name JSON writes
    /// without escapes), at any depth; read without parsing.
    pub(crate) fn may_have_key(&self, name: &str) -> bool {
        member_names::may_have_key(&self.0, name)
    }

    /// Whether the object may have a member named `name` (as for
    /// [`may_have_key`](Self::may_have_key)) holding anything but an empty
    /// array, at any depth; read without parsing.
    pub(crate) fn may_have_filled(&self, name: &str) -> bool {
        member_names::may_have_filled(&self.0, name)
    }

    /// The object, parsed.
    pub fn to_map(&self) -> Map<String, Value> {
        // The text is what `serde_json` wrote for a map, so it reads back.
        serde_json::from_str(&self.text()).unwrap_or_default()
    }

    /// The object's `data` member when it is an object, read without parsing the
    /// rest.
    pub fn data(&self) -> Option<Map<String, Value>> {
        #[derive(Deserialize)]
        struct Item {
            data: Option<Value>,
        }
        match serde_json::from_str::<Item>(&self.text()).ok()?.data? {
            Value::Object(data) => Some(data),
            _ => None,
        }
    }

    /// The string `note` member, else the string `note` of `data`, read without
    /// parsing the rest.
    pub fn note(&self) -> Option<String> {
        #[derive(Deserialize)]
        struct Data {
            note: Option<Value>,
        }
        #[derive(Deserialize)]
        struct Item {
            note: Option<Value>,
            data: Option<Data>,
        }
        let item = serde_json::from_str::<Item>(&self.text()).ok()?;
        let text = |value: Option<Value>| match value {
            Some(Value::String(text)) => Some(text),
            _ => None,
        };
        text(item.note).or_else(|| text(item.data?.note))
    }
}

/// A string member of an item object: `(member, None)` at its top level,
/// `(member, Some(inner))` inside its object member `member`.
pub(crate) type Member = (&'static str, Option<&'static str>);

/// Where a string member's characters are in an [`ItemJson`]'s text (a string
/// written without escapes is its own characters there), so that an item need
/// not keep a second copy of the strings it reads.
///
/// Six bytes, packed: an item's seven spans fit beside its text and ids in the
/// allocator's 128-byte class. A string longer than `u16::MAX` bytes has no
/// span (its item keeps its strings apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(2))]
pub(crate) struct Span {
    start: u32,
    len: u16,
}

impl Span {
    /// No such string member.
    pub(crate) const ABSENT: Span = Span {
        start: u32::MAX,
        len: 0,
    };

    /// The string in `text`, the item's JSON text.
    pub(crate) fn read(self, text: &str) -> Option<&str> {
        if self == Self::ABSENT {
            return None;
        }
        let start = self.start as usize;
        text.get(start..start + self.len as usize)
    }
}

/// String members of an object read from its [`ItemJson`] text: where they are
/// in it, or, when one of them is written with escapes, copies of them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Marked<const N: usize> {
    /// Where they are in the text.
    Spans([Span; N]),
    /// Kept apart.
    Owned(Box<[Option<Box<str>>; N]>),
}

impl<const N: usize> Marked<N> {
    /// The compact JSON of `map` and its string `members` (missing, or not
    /// strings: `None`).
    pub(crate) fn of(map: &Map<String, Value>, members: &[Member; N]) -> (ItemJson, Self) {
        match ItemJson::of_marking(map, members) {
            Some((text, spans)) => (text, Marked::Spans(spans)),
            None => {
                let owned = members.map(|(member, inner)| {
                    let outer = map.get(member);
                    let value = match inner {
                        None => outer,
                        Some(inner) => outer.and_then(Value::as_object).and_then(|o| o.get(inner)),
                    };
                    value.and_then(Value::as_str).map(Box::from)
                });
                (ItemJson::of(map), Marked::Owned(Box::new(owned)))
            }
        }
    }

    /// Member number `index`, read from `text`, the object's [`ItemJson`].
    pub(crate) fn get<'a>(&'a self, index: usize, text: &'a ItemJson) -> Option<&'a str> {
        match self {
            Marked::Spans(spans) => spans.get(index)?.read(text.packed()),
            Marked::Owned(owned) => owned.get(index)?.as_deref(),
        }
    }
}

/// Writes an item object's compact JSON, noting where the members it looks for are.
struct Marking<'m, const N: usize> {
    members: &'m [Member; N],
    spans: [Span; N],
}

impl<const N: usize> Marking<'_, N> {
    /// Writes `map`, the object member `outer` (the item itself when `None`).
    fn object(
        &mut self,
        out: &mut Vec<u8>,
        map: &Map<String, Value>,
        outer: Option<&str>,
    ) -> Option<()> {
        let members = self.members;
        write_object(out, map, |out, key, value| {
            let looked_into = |m: &Member| m.0 == key && m.1.is_some();
            match value {
                Value::Object(inner) if outer.is_none() && members.iter().any(looked_into) => {
                    self.object(out, inner, Some(key))
                }
                Value::String(text) => {
                    let at = out.len();
                    serde_json::to_writer(&mut *out, text).ok()?;
                    let wanted = |m: &Member| match outer {
                        None => m.0 == key && m.1.is_none(),
                        Some(outer) => m.0 == outer && m.1 == Some(key),
                    };
                    if let Some(j) = members.iter().position(wanted) {
                        if out.len() - at != text.len() + 2 {
                            return None;
                        }
                        self.spans[j] = Span {
                            start: u32::try_from(at + 1).ok()?,
                            len: u16::try_from(text.len()).ok()?,
                        };
                    }
                    Some(())
                }
                other => write_value(out, other),
            }
        })
    }
}

/// Writes `map` as a JSON object, each member's name as [`member_names`]
/// writes it and its value by `value`.
fn write_object(
    out: &mut Vec<u8>,
    map: &Map<String, Value>,
    mut value: impl FnMut(&mut Vec<u8>, &str, &Value) -> Option<()>,
) -> Option<()> {
    out.push(b'{');
    for (i, (key, member)) in map.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        member_names::write_key(out, key);
        value(out, key, member)?;
    }
    out.push(b'}');
    Some(())
}

/// Writes `value` as compact JSON with its member names as [`member_names`]
/// writes them.
fn write_value(out: &mut Vec<u8>, value: &Value) -> Option<()> {
    match value {
        Value::Object(map) => write_object(out, map, |out, _, member| write_value(out, member))?,
        Value::Array(list) => {
            out.push(b'[');
            for (i, value) in list.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, value)?;
            }
            out.push(b']');
        }
        scalar => serde_json::to_writer(&mut *out, scalar).ok()?,
    }
    Some(())
}

impl Default for ItemJson {
    fn default() -> Self {
        Self(Arc::from("{}"))
    }
}

impl fmt::Debug for ItemJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// Writes the object as the serializer writes JSON values (compact or pretty),
/// straight from the text, without building it; inside [`write_compact`], the
/// text itself.
impl Serialize for ItemJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if VERBATIM.get() {
            // serde_json's raw value: its serializers write the text as it is
            // (the value serializer parses it).
            let mut raw = serializer.serialize_struct(RAW_VALUE, 1)?;
            raw.serialize_field(RAW_VALUE, &*self.text())?;
            return raw.end();
        }
        self.serialize_placing(serializer, |_| None)
    }
}

/// The name under which serde_json's serializers take a value's JSON text as
/// it is (`serde_json::value::RawValue`).
const RAW_VALUE: &str = "$serde_json::private::RawValue";

thread_local! {
    /// Whether items are written as their text (inside [`write_compact`]).
    static VERBATIM: Cell<bool> = const { Cell::new(false) };
}

/// Restores the thread's [`VERBATIM`] setting when dropped.
struct Verbatim(bool);

impl Drop for Verbatim {
    fn drop(&mut self) {
        VERBATIM.set(self.0);
    }
}

/// Writes `value` as compact JSON, as `serde_json::to_writer` does, with each
/// item copied from its text instead of read and written again: the same
/// bytes, for a fraction of the work when `value` holds selections (plans,
/// units, scoped contexts).
///
/// ```
/// use hookrun_contract::selection::{SelectionContext, write_compact};
///
/// let text = r#"{"items": {"parents": [], "children": [], "notes": [],
///   "attachments": [{"item": {"id": 2, "key": "ATT1", "libraryID": 1}}]},
///   "sampledAt": "2026-01-01T00:00:00.000Z"}"#;
/// let selection = SelectionContext::from_json_str(text)?;
/// let mut out = Vec::new();
/// write_compact(&mut out, &selection)?;
/// assert_eq!(out, serde_json::to_vec(&selection)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_compact<W: io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let _restore = Verbatim(VERBATIM.replace(true));
    serde_json::to_writer(writer, value)
}

/// `value` as a `serde_json::Value`, the one `serde_json::to_value` makes,
/// with each item parsed from its text instead of read and written again
/// member by member: the same value, for about half the work when `value`
/// holds selections (a unit's scoped context).
///
/// ```
/// use hookrun_contract::selection::{SelectionContext, value_of};
///
/// let text = r#"{"items": {"parents": [], "children": [], "notes": [],
///   "attachments": [{"item": {"id": 2, "key": "ATT1", "libraryID": 1}}]},
///   "sampledAt": "2026-01-01T00:00:00.000Z"}"#;
/// let selection = SelectionContext::from_json_str(text)?;
/// assert_eq!(value_of(&selection)?, serde_json::to_value(&selection)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn value_of<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Value> {
    let _restore = Verbatim(VERBATIM.replace(true));
    serde_json::to_value(value)
}

/// What to write as the value of a top-level member instead of what the text
/// holds there (its placeholder), if anything.
type Placed<'f, 'a> = &'f dyn Fn(&str) -> Option<&'a ItemJson>;

impl ItemJson {
    /// Writes the object as its [`Serialize`] does, but with the value `placed`
    /// gives for a member's key in place of the member's own.
    pub(crate) fn serialize_placing<'a, S: Serializer>(
        &'a self,
        serializer: S,
        placed: impl Fn(&str) -> Option<&'a ItemJson>,
    ) -> Result<S::Ok, S::Error> {
        let text = self.text();
        let mut reader = serde_json::Deserializer::from_str(&text);
        transcode(&mut reader, serializer, &placed)
    }
}

/// Writes the JSON value `deserializer` reads into `serializer` as it is read,
/// with `placed` values in place of a top-level object's members. A failure of
/// the serializer (a closed pipe) comes back as it was, not as a message.
fn transcode<'de, D: Deserializer<'de>, S: Serializer>(
    deserializer: D,
    serializer: S,
    placed: Placed<'_, '_>,
) -> Result<S::Ok, S::Error> {
    let mut failed = None;
    let read = deserializer.deserialize_any(Transcode {
        serializer,
        failed: &mut failed,
        placed,
    });
    match (read, failed) {
        (_, Some(e)) => Err(e),
        (Ok(written), None) => Ok(written),
        (Err(e), None) => Err(ser::Error::custom(e)),
    }
}

/// Keeps a serializer's failure in `failed` and stops the reading with an error
/// of the deserializer's type.
fn keep<T, E, F: de::Error>(written: Result<T, E>, failed: &mut Option<E>) -> Result<T, F> {
    written.map_err(|e| {
        *failed = Some(e);
        F::custom("the value could not be written")
    })
}

/// The visitor of [`transcode`]: each value read is written at once.
struct Transcode<'f, 'p, 'a, S: Serializer> {
    serializer: S,
    failed: &'f mut Option<S::Error>,
    placed: Placed<'p, 'a>,
}

/// A value still to be read, written when it is serialised (once).
struct Pending<D>(Cell<Option<D>>);

impl<D> Pending<D> {
    fn new(deserializer: D) -> Self {
        Self(Cell::new(Some(deserializer)))
    }
}

impl<'de, D: Deserializer<'de>> Serialize for Pending<D> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.take() {
            // Only a top-level object's members are placed.
            Some(deserializer) => transcode(deserializer, serializer, &|_| None),
            None => Err(ser::Error::custom("a value is written once")),
        }
    }
}

/// Writes the next element of a sequence.
struct ElementInto<'a, C>(&'a mut C);

impl<'de, C: SerializeSeq> DeserializeSeed<'de> for ElementInto<'_, C> {
    type Value = Result<(), C::Error>;

    fn deserialize<D: Deserializer<'de>>(self, value: D) -> Result<Self::Value, D::Error> {
        Ok(self.0.serialize_element(&Pending::new(value)))
    }
}

/// Writes the value of a member whose key was written.
struct ValueInto<'a, C>(&'a mut C);

impl<'de, C: SerializeMap> DeserializeSeed<'de> for ValueInto<'_, C> {
    type Value = Result<(), C::Error>;

    fn deserialize<D: Deserializer<'de>>(self, value: D) -> Result<Self::Value, D::Error> {
        Ok(self.0.serialize_value(&Pending::new(value)))
    }
}

impl<'de, S: Serializer> Visitor<'de> for Transcode<'_, '_, '_, S> {
    type Value = S::Ok;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<S::Ok, E> {
        keep(self.serializer.serialize_bool(v), self.failed)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<S::Ok, E> {
        keep(self.serializer.serialize_i64(v), self.failed)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<S::Ok, E> {
        keep(self.serializer.serialize_u64(v), self.failed)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<S::Ok, E> {
        keep(self.serializer.serialize_f64(v), self.failed)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<S::Ok, E> {
        keep(self.serializer.serialize_str(v), self.failed)
    }

    fn visit_unit<E: de::Error>(self) -> Result<S::Ok, E> {
        keep(self.serializer.serialize_unit(), self.failed)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<S::Ok, A::Error> {
        let mut out = keep(self.serializer.serialize_seq(seq.size_hint()), self.failed)?;
        while let Some(written) = seq.next_element_seed(ElementInto(&mut out))? {
            keep(written, self.failed)?;
        }
        keep(out.end(), self.failed)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Ok, A::Error> {
        let mut out = keep(self.serializer.serialize_map(map.size_hint()), self.failed)?;
        while let Some(key) = map.next_key::<String>()? {
            keep(out.serialize_key(&key), self.failed)?;
            let written = match (self.placed)(&key) {
                Some(value) => {
                    map.next_value::<IgnoredAny>()?;
                    out.serialize_value(value)
                }
                None => map.next_value_seed(ValueInto(&mut out))?,
            };
            keep(written, self.failed)?;
        }
        keep(out.end(), self.failed)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn sample() -> Map<String, Value> {
        let value = json!({"id": 2, "key": "A", "title": "é \"q\"", "n": 1.5, "big": 18446744073709551615u64,
            "neg": -3, "data": {"path": "a/b.pdf", "tags": [], "nested": {"x": null, "t": true}}});
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn reads_back_to_the_same_object_in_the_same_order() {
        let map = sample();
        let item = ItemJson::of(&map);
        assert_eq!(item.to_map(), map);
        let keys: Vec<_> = item.to_map().keys().cloned().collect();
        assert_eq!(keys, map.keys().cloned().collect::<Vec<_>>());
    }

    #[test]
    fn holds_zotero_member_names_as_codes_and_writes_them_out() {
        let map = sample();
        let item = ItemJson::of(&map);
        let json = serde_json::to_string(&map).unwrap();
        assert_eq!(item.text(), json);
        // `id`, `key`, `title`, `data`, `path` and `tags` are Zotero's names;
        // `n`, `big`, `neg`, `nested`, `x` and `t` are not.
        let saved = ["id", "key", "title", "data", "path", "tags"]
            .iter()
            .map(|name| name.len() + 3 - 2)
            .sum::<usize>();
        assert_eq!(item.packed().len(), json.len() - saved);
        assert!(item.packed().contains("\"nested\":"));
        assert_eq!(format!("{item:?}"), json);
        assert!(item.may_have_key("tags") && item.may_have_key("nested"));
        assert!(!item.may_have_key("collections") && !item.may_have_key("A"));
    }

    #[test]
    fn serialises_to_the_bytes_the_parsed_object_does() {
        let map = sample();
        let item = ItemJson::of(&map);
        assert_eq!(
            serde_json::to_string(&item).unwrap(),
            serde_json::to_string(&map).unwrap()
        );
        assert_eq!(
            serde_json::to_string_pretty(&item).unwrap(),
            serde_json::to_string_pretty(&map).unwrap()
        );
        assert_eq!(serde_json::to_value(&item).unwrap(), Value::Object(map));
    }

    #[test]
    fn compact_writing_copies_items_as_their_text() {
        let map = sample();
        let item = ItemJson::of(&map);
        let nested = json!({"before": [1, "two"], "after": null});
        let wrapped = |item: &ItemJson| {
            let mut out = Vec::new();
            write_compact(&mut out, &(nested.clone(), item, vec![item])).unwrap();
            String::from_utf8(out).unwrap()
        };
        let read = serde_json::to_string(&(nested.clone(), &map, vec![&map])).unwrap();
        assert_eq!(wrapped(&item), read);
        // The text is copied, not read: spacing the serializer would not
        // write shows through.
        let spaced = ItemJson(Arc::from("{\"a\": [1, 2]}"));
        assert_eq!(
            wrapped(&spaced),
            format!("[{nested},{{\"a\": [1, 2]}},[{{\"a\": [1, 2]}}]]")
        );
        // Outside it, and in a value built inside it, items are read as before.
        assert_eq!(serde_json::to_string(&spaced).unwrap(), "{\"a\":[1,2]}");
        let _restore = Verbatim(VERBATIM.replace(true));
        assert_eq!(serde_json::to_value(&spaced).unwrap(), json!({"a": [1, 2]}));
    }

    #[test]
    fn marking_writes_the_same_text_and_finds_the_strings() {
        let mut map = sample();
        map.insert("itemType".into(), json!("book"));
        const MEMBERS: [Member; 5] = [
            ("key", None),
            ("itemType", None),
            ("id", None),
            ("data", Some("path")),
            ("data", Some("missing")),
        ];
        let (item, spans) = ItemJson::of_marking(&map, &MEMBERS).unwrap();
        assert_eq!(item, ItemJson::of(&map));
        let read: Vec<_> = spans.iter().map(|s| s.read(item.packed())).collect();
        assert_eq!(read, [Some("A"), Some("book"), None, Some("a/b.pdf"), None]);
        // A string written with escapes is not its own text: no spans.
        assert!(ItemJson::of_marking(&map, &[("title", None)]).is_none());
        // Members not looked for may hold anything.
        assert!(ItemJson::of_marking(&map, &[("key", None)]).is_some());
        let nested = json!({"data": {"path": "x"}, "other": {"path": "y\n"}});
        let (_, [span]) =
            ItemJson::of_marking(nested.as_object().unwrap(), &[("data", Some("path"))]).unwrap();
        // `{`, the code of `data`, `{`, the code of `path`, `"`.
        assert_eq!(span, Span { start: 7, len: 1 });
        // A string too long for a span is kept apart, and still read.
        let long = "x".repeat(usize::from(u16::MAX) + 1);
        let map = json!({"key": "A", "title": long});
        let map = map.as_object().unwrap();
        assert!(ItemJson::of_marking(map, &[("title", None)]).is_none());
        let (item, marked) = Marked::of(map, &[("key", None), ("title", None)]);
        assert_eq!(marked.get(1, &item), Some(long.as_str()));
        assert_eq!(marked.get(0, &item), Some("A"));
    }

    #[test]
    fn reads_data_and_notes() {
        let item = ItemJson::of(&sample());
        assert_eq!(item.data(), sample()["data"].as_object().cloned());
        assert_eq!(item.note(), None);
        assert_eq!(ItemJson::default().data(), None);
        let of = |v: Value| ItemJson::of(v.as_object().unwrap());
        assert_eq!(of(json!({"data": null})).data(), None);
        assert_eq!(of(json!({"data": null})).note(), None);
        assert_eq!(
            of(json!({"note": "<p>a</p>", "data": {"note": "b"}}))
                .note()
                .as_deref(),
            Some("<p>a</p>")
        );
        assert_eq!(
            of(json!({"note": 3, "data": {"note": "b"}}))
                .note()
                .as_deref(),
            Some("b")
        );
        assert_eq!(of(json!({"data": {"note": 1}})).note(), None);
    }
}
