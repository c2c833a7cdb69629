//! Reading a SelectionContext from JSON text in one pass.
//!
//! A grouped selection's entries are read one at a time as the text arrives: each
//! entry is parsed, read into a [`GroupedEntry`] and let go before the next, so a
//! selection of 100,000 entries is never held as a `serde_json::Value` tree (about
//! seven times its text). Everything else (the top-level members, a canonical
//! selection, anything of an unexpected shape) is read as a `Value` and checked by
//! the same code as [`SelectionContext::from_value`], so the result and the first
//! error reported are the same as parsing the text first and reading the value.

use std::fmt;
use std::io;

use serde::Deserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::SelectionContext;
use super::error::SelectionError;
use super::grouped::{GroupedEntry, GroupedSelection};
use super::json::{Read, as_object, child, index};
use super::refs::ItemKind;

/// Why JSON text is not a SelectionContext.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The text is not JSON, or could not be read.
    #[error("invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The JSON is not a SelectionContext.
    #[error(transparent)]
    Selection(#[from] SelectionError),
}

/// Reads a SelectionContext from `deserializer`, which must then be at the end of
/// its input (checked by the caller).
pub(crate) fn read<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Read<SelectionContext>, D::Error> {
    Ok(match deserializer.deserialize_any(RootVisitor)? {
        Root::Other => Err(SelectionError::invalid("", "expected an object")),
        Root::Object { mut members, items } => match items {
            Some(Items::Grouped {
                members: list,
                read,
            }) => {
                members.insert("items".into(), Value::Object(list));
                let value = Value::Object(members);
                as_object(&value, "")
                    .and_then(|obj| GroupedSelection::parse_read(obj, read))
                    .map(SelectionContext::Grouped)
            }
            Some(Items::Other(items)) => {
                members.insert("items".into(), items);
                SelectionContext::from_value(&Value::Object(members))
            }
            None => SelectionContext::from_value(&Value::Object(members)),
        },
    })
}

/// The entries of one grouped array, read up to the first entry in error.
pub(crate) type ReadEntries = Vec<(ItemKind, Read<Vec<GroupedEntry>>)>;

/// The top level: an object read member by member, or anything else.
enum Root {
    Object {
        /// The members, `items` as a `null` placeholder in its place.
        members: Map<String, Value>,
        /// The last `items` member.
        items: Option<Items>,
    },
    Other,
}

/// `items`: the grouped object with its arrays read, or any other value.
enum Items {
    Grouped {
        /// The members, each array read into `read` left as an empty array.
        members: Map<String, Value>,
        read: ReadEntries,
    },
    Other(Value),
}

/// One array of the grouped `items`: read entries, or any other value.
enum Array {
    Read(Read<Vec<GroupedEntry>>),
    Other(Value),
}

/// The `visit_*` methods of a visitor for everything but objects and arrays,
/// each giving its value to `$wrap`.
macro_rules! scalars {
    ($wrap:expr) => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok($wrap(Value::Bool(v)))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
    };
}

struct RootVisitor;

impl<'de> Visitor<'de> for RootVisitor {
    type Value = Root;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a SelectionContext")
    }

    scalars!(|_| Root::Other);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Root, A::Error> {
        // Read as values, not skipped, so the nesting limit holds as it does
        // for a parsed value.
        while seq.next_element::<Value>()?.is_some() {}
        Ok(Root::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Root, A::Error> {
        let mut members = Map::new();
        let mut items = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "items" {
                items = Some(map.next_value_seed(ItemsSeed)?);
                members.insert(key, Value::Null);
            } else {
                let value = map.next_value::<Value>()?;
                members.insert(key, value);
            }
        }
        Ok(Root::Object { members, items })
    }
}

struct ItemsSeed;

impl<'de> DeserializeSeed<'de> for ItemsSeed {
    type Value = Items;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Items, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed {
    type Value = Items;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the selection's items")
    }

    scalars!(Items::Other);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Items, A::Error> {
        let mut list = Vec::new();
        while let Some(value) = seq.next_element::<Value>()? {
            list.push(value);
        }
        Ok(Items::Other(Value::Array(list)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Items, A::Error> {
        let mut members = Map::new();
        let mut read: ReadEntries = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let Some(kind) = ItemKind::ALL.into_iter().find(|k| k.array_name() == key) else {
                let value = map.next_value::<Value>()?;
                members.insert(key, value);
                continue;
            };
            read.retain(|(k, _)| *k != kind);
            let value = match map.next_value_seed(ArraySeed(kind))? {
                Array::Read(entries) => {
                    read.push((kind, entries));
                    Value::Array(Vec::new())
                }
                Array::Other(value) => value,
            };
            members.insert(key, value);
        }
        Ok(Items::Grouped { members, read })
    }
}

struct ArraySeed(ItemKind);

impl<'de> DeserializeSeed<'de> for ArraySeed {
    type Value = Array;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Array, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ArraySeed {
    type Value = Array;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of context entries")
    }

    scalars!(Array::Other);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Array, A::Error> {
        // A later duplicate key replaces the value in the first one's place, as
        // `serde_json` does.
        let mut members = Map::new();
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            members.insert(key, value);
        }
        Ok(Array::Other(Value::Object(members)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Array, A::Error> {
        let kind = self.0;
        let ptr = child(&child("", "items"), kind.array_name());
        let mut entries = Vec::new();
        while let Some(value) = seq.next_element::<Value>()? {
            match GroupedEntry::parse(kind, &value, &index(&ptr, entries.len())) {
                Ok(entry) => entries.push(entry),
                Err(e) => {
                    // The first error is the one reported; the rest is only
                    // checked to be JSON within the nesting limit.
                    while seq.next_element::<Value>()?.is_some() {}
                    return Ok(Array::Read(Err(e)));
                }
            }
        }
        // Kept for the whole run: without the room it grew into.
        entries.shrink_to_fit();
        Ok(Array::Read(Ok(entries)))
    }
}

/// Passes a reader's bytes on, failing as `read_to_string` does (`InvalidData`,
/// "stream did not contain valid UTF-8") where they stop being UTF-8: JSON text
/// is UTF-8, and a binary file is better refused as such than as a syntax error
/// at its first byte.
pub(crate) struct Utf8Reader<R> {
    inner: R,
    /// The start of a character the last read cut off, and the bytes read after it.
    pending: Vec<u8>,
}

impl<R> Utf8Reader<R> {
    pub(crate) fn new(inner: R) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }
}

fn not_utf8() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "stream did not contain valid UTF-8",
    )
}

impl<R: io::Read> io::Read for Utf8Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 {
            return match self.pending.is_empty() {
                true => Ok(0),
                false => Err(not_utf8()),
            };
        }
        let read = &buf[..n];
        let checked = if self.pending.is_empty() {
            std::str::from_utf8(read).map(drop)
        } else {
            self.pending.extend_from_slice(read);
            std::str::from_utf8(&self.pending).map(drop)
        };
        let tail = match checked {
            Ok(()) => None,
            // Only an incomplete character at the end may be completed later.
            Err(e) if e.error_len().is_none() => Some(e.valid_up_to()),
            Err(_) => return Err(not_utf8()),
        };
        let from_pending = !self.pending.is_empty();
        let mut rest = match (tail, from_pending) {
            (None, _) => Vec::new(),
            (Some(at), true) => self.pending.split_off(at),
            (Some(at), false) => read[at..].to_vec(),
        };
        std::mem::swap(&mut self.pending, &mut rest);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    /// Reads `bytes` through a [`Utf8Reader`], `chunk` bytes at a time.
    fn through(bytes: &[u8], chunk: usize) -> io::Result<Vec<u8>> {
        struct Chunks<'a>(&'a [u8], usize);
        impl io::Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(self.1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut out = Vec::new();
        Utf8Reader::new(Chunks(bytes, chunk)).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn passes_utf8_on_whatever_the_chunks_and_refuses_the_rest() {
        let text = "{\"t\": \"é → 𝄞 ok\"}".as_bytes();
        for chunk in 1..=text.len() {
            assert_eq!(through(text, chunk).unwrap(), text, "chunks of {chunk}");
        }
        for bad in [
            &b"\xff\xfe{"[..],
            b"{\"a\": \"\xc3\"}",
            b"\"\xe2\x86",
            b"ok\xf0\x9d",
        ] {
            for chunk in 1..=bad.len() {
                let e = through(bad, chunk).unwrap_err();
                assert_eq!(
                    e.kind(),
                    io::ErrorKind::InvalidData,
                    "{bad:?} in chunks of {chunk}"
                );
                assert_eq!(e.to_string(), "stream did not contain valid UTF-8");
            }
        }
    }
}
