//! SelectionContext in both shapes (contract `02-selection-and-planning.md` §1).
//!
//! [`SelectionContext::from_value`] detects the shape: an object whose `items` is an
//! array is canonical, one whose `items` is an object is grouped; anything else is
//! rejected with the JSON pointer of the first problem. Each shape keeps what it needs
//! to serialise back faithfully ([`SelectionContext::to_value`] is deterministic).
//! Conversion between the shapes is explicit ([`convert`]).

pub mod canonical;
pub mod convert;
pub mod error;
pub mod grouped;
pub mod item_json;
mod json;
mod member_names;
mod merge;
pub mod refs;
mod split;
pub mod stream;

use serde::{Serialize, Serializer};
use serde_json::Value;

pub use canonical::{CanonicalSelection, FileState, ItemFact};
pub use error::SelectionError;
pub use grouped::{GroupedEntry, GroupedSelection, ItemBase};
pub use item_json::{ItemJson, value_of, write_compact};
pub use refs::{ItemKind, PortableItemRef, SelectionCounts};
pub use stream::ReadError;

/// A SelectionContext in either shape.
#[derive(Debug, Clone, PartialEq)]
pub enum SelectionContext {
    /// The grouped shape (`items.parents/children/attachments/notes`).
    Grouped(GroupedSelection),
    /// The canonical flat shape (`items: [{kind, ref, …}]`).
    Canonical(CanonicalSelection),
}

impl SelectionContext {
    /// Parses either shape, detected from the type of `items`.
    pub fn from_value(value: &Value) -> Result<Self, SelectionError> {
        let obj = json::as_object(value, "")?;
        match obj.get("items") {
            Some(Value::Array(_)) => CanonicalSelection::parse(obj).map(Self::Canonical),
            Some(Value::Object(_)) => GroupedSelection::parse(obj).map(Self::Grouped),
            _ => Err(SelectionError::CanonicalRequired),
        }
    }

    /// Parses either shape from an owned value, letting each grouped entry's
    /// JSON go once it is read (the same result as [`from_value`](Self::from_value)
    /// without holding the selection twice).
    pub fn from_owned(value: Value) -> Result<Self, SelectionError> {
        match value.get("items") {
            Some(Value::Object(_)) => GroupedSelection::parse_owned(value).map(Self::Grouped),
            _ => Self::from_value(&value),
        }
    }

    /// Parses JSON text (see [`SelectionContext::from_value`]), reading a grouped
    /// selection's entries one at a time (see [`stream`]).
    pub fn from_json_str(text: &str) -> Result<Self, SelectionError> {
        Self::from_text(text).map_err(|e| match e {
            ReadError::Json(e) => SelectionError::invalid("", format!("invalid JSON: {e}")),
            ReadError::Selection(e) => e,
        })
    }

    /// Parses JSON text held in memory, with the errors of
    /// [`from_reader`](Self::from_reader): the same result, several times
    /// faster than reading it from a reader, for the price of holding the text.
    ///
    /// ```
    /// use hookrun_contract::selection::{ReadError, SelectionContext};
    ///
    /// let text = r#"{"items": [], "sampledAt": "2026-01-01T00:00:00.000Z"}"#;
    /// assert_eq!(SelectionContext::from_text(text)?.counts().total, 0);
    /// assert!(matches!(SelectionContext::from_text("{"), Err(ReadError::Json(_))));
    /// # Ok::<(), ReadError>(())
    /// ```
    pub fn from_text(text: &str) -> Result<Self, ReadError> {
        Self::read(serde_json::Deserializer::from_str(text))
    }

    /// Parses JSON text as `reader` delivers it (see [`from_json_str`](Self::from_json_str)):
    /// a grouped selection is never held whole, neither as text nor as a
    /// `serde_json::Value`. The reader is buffered here; bytes that are not
    /// UTF-8 are an I/O error of kind `InvalidData`, as `read_to_string` reports.
    ///
    /// ```
    /// use hookrun_contract::selection::SelectionContext;
    ///
    /// let text = r#"{"items": {"parents": [], "children": [], "notes": [],
    ///   "attachments": [{"item": {"id": 2, "key": "ATT1", "libraryID": 1}}]},
    ///   "sampledAt": "2026-01-01T00:00:00.000Z"}"#;
    /// let selection = SelectionContext::from_reader(text.as_bytes())?;
    /// assert_eq!(selection.counts().attachments, 1);
    /// # Ok::<(), hookrun_contract::selection::ReadError>(())
    /// ```
    pub fn from_reader(reader: impl std::io::Read) -> Result<Self, ReadError> {
        let reader = std::io::BufReader::new(stream::Utf8Reader::new(reader));
        Self::read(serde_json::Deserializer::from_reader(reader))
    }

    /// Parses JSON text from a reader that can go back to where it started: the
    /// result and the errors of [`from_reader`](Self::from_reader), without
    /// its byte-by-byte reading. A grouped selection's entries are each parsed
    /// from their own slice of the text, which is never held whole (only the
    /// rest of it, up to 32 MiB, and the entry being read; planning 100,000
    /// units from a file took about three quarters of the time that way, on
    /// one thread); where that reading might differ from the one-pass reader's
    /// (text that is not a valid selection, among others), the text is read
    /// again from the start that way.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use hookrun_contract::selection::{ReadError, SelectionContext};
    ///
    /// let text = r#"{"items": {"parents": [], "children": [], "notes": [],
    ///   "attachments": [{"item": {"id": 2, "key": "ATT1", "libraryID": 1}}]},
    ///   "sampledAt": "2026-01-01T00:00:00.000Z"}"#;
    /// let selection = SelectionContext::from_seekable(Cursor::new(text))?;
    /// assert_eq!(selection.counts().attachments, 1);
    /// assert!(matches!(
    ///     SelectionContext::from_seekable(Cursor::new("{")),
    ///     Err(ReadError::Json(_))
    /// ));
    /// # Ok::<(), ReadError>(())
    /// ```
    pub fn from_seekable<R: std::io::Read + std::io::Seek>(reader: R) -> Result<Self, ReadError> {
        Self::seek_read(reader, false)
    }

    /// [`from_seekable`](Self::from_seekable) on two threads: a helper thread
    /// checks the entries and builds what is kept of them while the caller's
    /// parses the text (planning 100,000 units from a file took about seven
    /// eighths of the time it takes on one thread).
    /// Without a thread to start, it reads as `from_seekable` does.
    pub fn from_seekable_threaded<R: std::io::Read + std::io::Seek>(
        reader: R,
    ) -> Result<Self, ReadError> {
        Self::seek_read(reader, true)
    }

    fn seek_read<R: std::io::Read + std::io::Seek>(
        mut reader: R,
        helper: bool,
    ) -> Result<Self, ReadError> {
        let start = reader.stream_position().map_err(serde_json::Error::io)?;
        if let Some(read) = split::read(&mut reader, helper) {
            return read;
        }
        reader
            .seek(std::io::SeekFrom::Start(start))
            .map_err(serde_json::Error::io)?;
        Self::from_reader(reader)
    }

    fn read<'de, R: serde_json::de::Read<'de>>(
        mut deserializer: serde_json::Deserializer<R>,
    ) -> Result<Self, ReadError> {
        let selection = stream::read(&mut deserializer)?;
        deserializer.end()?;
        Ok(selection?)
    }

    /// The JSON form, in the context's own shape.
    pub fn to_value(&self) -> Value {
        match self {
            Self::Grouped(g) => g.to_value(),
            Self::Canonical(c) => c.to_value(),
        }
    }

    /// Raw selection counts (canonical: facts by kind; grouped: array lengths).
    pub fn counts(&self) -> SelectionCounts {
        match self {
            Self::Grouped(g) => g.counts(),
            Self::Canonical(c) => SelectionCounts::of_kinds(c.items.iter().map(|f| f.kind)),
        }
    }

    /// `sampledAt`.
    pub fn sampled_at(&self) -> &str {
        match self {
            Self::Grouped(g) => &g.sampled_at,
            Self::Canonical(c) => &c.sampled_at,
        }
    }

    /// The target ref: `parentRef` of the first item if present, else its `ref`
    /// (grouped: the first entry in the order parents, children, attachments, notes;
    /// `None` when its refs are incomplete).
    pub fn target_ref(&self) -> Option<PortableItemRef> {
        match self {
            Self::Canonical(c) => c
                .items
                .first()
                .map(|f| f.parent_ref.clone().unwrap_or_else(|| f.reference.clone())),
            Self::Grouped(g) => {
                let first = ItemKind::ALL
                    .into_iter()
                    .find_map(|k| g.entries(k).first())?;
                first.target_ref()
            }
        }
    }

    /// Union of `parts` by item identity (contract §8): the first part's top-level
    /// members, all `exportCandidates`, the first `digestRepresentativeImageTarget`.
    /// Parts whose shape differs from the first part's are ignored; `None` when
    /// `parts` is empty.
    pub fn merge(parts: &[&SelectionContext]) -> Option<SelectionContext> {
        fn same_shape<'a, T>(
            parts: &[&'a SelectionContext],
            pick: fn(&'a SelectionContext) -> Option<&'a T>,
        ) -> Vec<&'a T> {
            parts.iter().filter_map(|p| pick(p)).collect()
        }
        match parts.first()? {
            Self::Grouped(_) => {
                merge::merge(&same_shape(parts, Self::as_grouped)).map(Self::Grouped)
            }
            Self::Canonical(_) => {
                merge::merge(&same_shape(parts, Self::as_canonical)).map(Self::Canonical)
            }
        }
    }

    /// The grouped content, if this context is grouped.
    pub fn as_grouped(&self) -> Option<&GroupedSelection> {
        match self {
            Self::Grouped(g) => Some(g),
            Self::Canonical(_) => None,
        }
    }

    /// The canonical content, if this context is canonical.
    pub fn as_canonical(&self) -> Option<&CanonicalSelection> {
        match self {
            Self::Canonical(c) => Some(c),
            Self::Grouped(_) => None,
        }
    }

    /// A copy with `exportCandidates` and `digestRepresentativeImageTarget` replaced.
    pub fn with_extras(
        &self,
        export_candidates: Option<Vec<Value>>,
        digest_target: Option<Value>,
    ) -> SelectionContext {
        let mut out = self.clone();
        let (exports, digest) = match &mut out {
            Self::Grouped(g) => (
                &mut g.export_candidates,
                &mut g.digest_representative_image_target,
            ),
            Self::Canonical(c) => (
                &mut c.export_candidates,
                &mut c.digest_representative_image_target,
            ),
        };
        *exports = export_candidates;
        *digest = digest_target.map(Box::new);
        out
    }

    /// The canonical form: unchanged when already canonical, else converted with
    /// [`convert::grouped_to_canonical`].
    pub fn to_canonical(
        &self,
        file_exists: &dyn Fn(&str) -> bool,
    ) -> Result<CanonicalSelection, SelectionError> {
        match self {
            Self::Canonical(c) => Ok(c.clone()),
            Self::Grouped(g) => convert::grouped_to_canonical(g, file_exists),
        }
    }

    /// The grouped form: unchanged when already grouped, else converted with
    /// [`convert::canonical_to_grouped`].
    pub fn to_grouped(&self) -> GroupedSelection {
        match self {
            Self::Grouped(g) => g.clone(),
            Self::Canonical(c) => convert::canonical_to_grouped(c),
        }
    }
}

/// The JSON of [`SelectionContext::to_value`].
impl Serialize for SelectionContext {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Grouped(grouped) => grouped.serialize(serializer),
            Self::Canonical(canonical) => canonical.to_value().serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests;
