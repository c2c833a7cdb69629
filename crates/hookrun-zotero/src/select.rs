//! Selections as Zotero's item tree makes them: `item:<KEY>`,
//! `collection:<KEY or name>`, `tag:<name>`, several combined.
//!
//! Each spec gives items in a stable order (an item alone; a collection's items and
//! a tag's items in the order they were added, then by key); specs combine as a
//! union in the order given, each item once, where it first appears. A selected
//! attachment, note or annotation names its parent ([`Selected::parent`]), and
//! [`Selection::keys_to_read`] lists the parents with the selected items.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use hookrun_contract::selection::{
    CanonicalSelection, ItemKind, PortableItemRef, SelectionContext,
};

use crate::error::{Error, Result};
use crate::item::{ADDED_ORDER, VISIBLE};
use crate::open::Library;

/// One `--select` spec.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SelectSpec {
    /// `item:<KEY>`: one item.
    Item(String),
    /// `collection:<KEY or name>`: the items directly in a collection.
    Collection(String),
    /// `tag:<name>`: the items carrying a tag (manual or automatic).
    Tag(String),
}

impl FromStr for SelectSpec {
    type Err = Error;

    /// Parses `item:<KEY>`, `collection:<KEY or name>` or `tag:<name>`; anything
    /// else, or an empty value, is [`Error::UnknownSpec`].
    fn from_str(spec: &str) -> Result<SelectSpec> {
        let unknown = || Error::UnknownSpec {
            spec: spec.to_owned(),
        };
        let (kind, value) = spec.split_once(':').ok_or_else(unknown)?;
        if value.is_empty() {
            return Err(unknown());
        }
        let value = value.to_owned();
        match kind {
            "item" => Ok(SelectSpec::Item(value)),
            "collection" => Ok(SelectSpec::Collection(value)),
            "tag" => Ok(SelectSpec::Tag(value)),
            _ => Err(unknown()),
        }
    }
}

impl fmt::Display for SelectSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelectSpec::Item(key) => write!(f, "item:{key}"),
            SelectSpec::Collection(c) => write!(f, "collection:{c}"),
            SelectSpec::Tag(t) => write!(f, "tag:{t}"),
        }
    }
}

/// One selected item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected {
    /// The item.
    pub reference: PortableItemRef,
    /// Its selection kind (`parent`, `child` for annotations, `attachment`, `note`).
    pub kind: ItemKind,
    /// Its parent, for child notes, attachments and annotations.
    pub parent: Option<PortableItemRef>,
}

/// The items some specs select, in selection order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// The selected items, each once.
    pub items: Vec<Selected>,
}

impl Selection {
    /// The keys of the selected items and of their parents, each once, in
    /// selection order (an item's parent right after it): what a world built from
    /// this selection reads first.
    pub fn keys_to_read(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut keys = Vec::new();
        for s in &self.items {
            for r in std::iter::once(&s.reference).chain(s.parent.as_ref()) {
                if seen.insert(r.key.as_str()) {
                    keys.push(r.key.clone());
                }
            }
        }
        keys
    }
}

impl Library {
    /// Resolves `specs` to the items they select (see the module documentation):
    /// [`Error::ItemNotFound`], [`Error::CollectionNotFound`],
    /// [`Error::AmbiguousCollection`] or [`Error::TagNotFound`] name a spec's value
    /// the library does not have.
    pub fn select(&self, specs: &[SelectSpec]) -> Result<Selection> {
        let mut seen = HashSet::new();
        let mut items = Vec::new();
        for spec in specs {
            for key in self.spec_keys(spec)? {
                if seen.contains(&key) {
                    continue;
                }
                let head = self.required_head(&key)?;
                items.push(Selected {
                    reference: PortableItemRef {
                        library_id: self.library_id(),
                        key: head.key,
                    },
                    kind: head.class.selection_kind(),
                    parent: head.parent_key.map(|key| PortableItemRef {
                        library_id: self.library_id(),
                        key,
                    }),
                });
                seen.insert(key);
            }
        }
        Ok(Selection { items })
    }

    /// The keys one spec selects, in its order.
    fn spec_keys(&self, spec: &SelectSpec) -> Result<Vec<String>> {
        match spec {
            SelectSpec::Item(key) => self.required_head(key).map(|h| vec![h.key]),
            SelectSpec::Collection(given) => {
                let collection = self.collection(given)?;
                self.collection_items(&collection.key)
            }
            SelectSpec::Tag(name) => {
                let sql = format!(
                    "SELECT DISTINCT i.key, i.dateAdded FROM itemTags it \
                     JOIN tags t ON t.tagID = it.tagID JOIN items i ON i.itemID = it.itemID \
                     WHERE t.name = ?1 AND i.libraryID = ?2 AND {VISIBLE} {ADDED_ORDER}"
                );
                let keys = self.keys(&sql, (name, self.library_id))?;
                if keys.is_empty() {
                    return Err(Error::TagNotFound {
                        library_id: self.library_id(),
                        name: name.clone(),
                    });
                }
                Ok(keys)
            }
        }
    }

    /// The canonical SelectionContext of `selection`: one fact per selected item
    /// (see [`crate::Item::fact`]), `sampledAt` as given.
    pub fn selection_context(
        &self,
        selection: &Selection,
        sampled_at: &str,
    ) -> Result<SelectionContext> {
        let items = selection
            .items
            .iter()
            .map(|s| self.item(&s.reference.key).map(|item| item.fact()))
            .collect::<Result<Vec<_>>>()?;
        Ok(SelectionContext::Canonical(CanonicalSelection {
            items,
            sampled_at: sampled_at.to_owned(),
            export_candidates: None,
            digest_representative_image_target: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        for (text, spec) in [
            ("item:ABCD2345", SelectSpec::Item("ABCD2345".into())),
            (
                "collection:To read",
                SelectSpec::Collection("To read".into()),
            ),
            ("tag:a:b", SelectSpec::Tag("a:b".into())),
        ] {
            assert_eq!(text.parse::<SelectSpec>().unwrap(), spec);
            assert_eq!(spec.to_string(), text);
        }
        for bad in ["items:X", "item:", "ABCD2345", "search:x", ""] {
            let err = bad.parse::<SelectSpec>().unwrap_err();
            assert!(matches!(&err, Error::UnknownSpec { spec } if spec == bad));
            assert!(err.to_string().contains(&format!("{bad:?}")));
        }
    }

    #[test]
    fn parents_are_read_right_after_their_children() {
        let r = |key: &str| PortableItemRef {
            library_id: 1,
            key: key.into(),
        };
        let selection = Selection {
            items: vec![
                Selected {
                    reference: r("ATT1"),
                    kind: ItemKind::Attachment,
                    parent: Some(r("PAR1")),
                },
                Selected {
                    reference: r("PAR1"),
                    kind: ItemKind::Parent,
                    parent: None,
                },
                Selected {
                    reference: r("NOTE1"),
                    kind: ItemKind::Note,
                    parent: Some(r("PAR1")),
                },
            ],
        };
        assert_eq!(selection.keys_to_read(), ["ATT1", "PAR1", "NOTE1"]);
    }
}
