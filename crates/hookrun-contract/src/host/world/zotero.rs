//! An item's Zotero data, read from Zotero's JSON export shape: its fields,
//! creators, tags, collections, relations and dates.
//!
//! The item types and their fields are Zotero's schema (`zotero-fields.json`,
//! derived from the `zotero-schema` repository's `schema.json`, version 41, the
//! schema of Zotero 7 and later: it has `PMID`, `PMCID`, `eventPlace`,
//! `originalDate`, …): a library fixture naming a field Zotero does not know is
//! refused with its pointer. The file keeps the item types in name order, each with
//! its fields in Zotero's order, and each type-specific field's base field.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value, json};

use super::lazy::{Lazy, Readable};
use super::{HostResult, HostWorldError};
use crate::selection::{ItemBase, ItemJson};

/// Zotero's item types with their fields in schema order, and each type-specific
/// field's base field (`bookTitle` → `publicationTitle`).
#[derive(Deserialize)]
struct Schema {
    #[serde(rename = "itemTypes")]
    item_types: HashMap<String, TypeFields>,
    #[serde(rename = "baseFields")]
    base_fields: HashMap<String, String>,
}

#[derive(Deserialize)]
struct TypeFields {
    fields: Vec<String>,
}

fn schema() -> &'static Schema {
    static SCHEMA: LazyLock<Schema> = LazyLock::new(|| {
        // Part of the build and parsed by a test, so this cannot fail in a tested build.
        serde_json::from_str(include_str!("zotero-fields.json")).expect("zotero-fields.json")
    });
    &SCHEMA
}

/// Whether `name` is a field of any Zotero item type.
pub(super) fn is_field(name: &str) -> bool {
    static ALL: LazyLock<std::collections::HashSet<&'static str>> = LazyLock::new(|| {
        schema()
            .item_types
            .values()
            .flat_map(|t| t.fields.iter().map(String::as_str))
            .collect()
    });
    ALL.contains(name)
}

/// The fields of item type `item_type`, in schema order; `None` for a type Zotero
/// does not know.
pub(super) fn fields_of(item_type: &str) -> Option<&'static [String]> {
    schema()
        .item_types
        .get(item_type)
        .map(|t| t.fields.as_slice())
}

/// The base field of a type-specific field (`bookTitle` → `publicationTitle`), or the
/// field itself.
pub(super) fn base_of(field: &str) -> &str {
    schema()
        .base_fields
        .get(field)
        .map_or(field, String::as_str)
}

/// The members of Zotero's JSON export of an item that are not fields.
const EXPORT_MEMBERS: &[&str] = &[
    "key",
    "version",
    "itemType",
    "parentItem",
    "creators",
    "tags",
    "collections",
    "relations",
    "dateAdded",
    "dateModified",
    "deleted",
    "inPublications",
    "note",
    "linkMode",
    "contentType",
    "charset",
    "filename",
    "path",
    "md5",
    "mtime",
];

/// Whether `name` is a member of Zotero's JSON export (a field or one of
/// [`EXPORT_MEMBERS`]).
pub(super) fn is_export_member(name: &str) -> bool {
    EXPORT_MEMBERS.contains(&name) || is_field(name) || name.starts_with("annotation")
}

/// One creator, as Zotero exports it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Creator {
    /// `{creatorType, firstName, lastName}`.
    TwoField {
        creator_type: String,
        first_name: String,
        last_name: String,
    },
    /// `{creatorType, name}`.
    SingleField { creator_type: String, name: String },
}

impl Creator {
    fn parse(value: &Value, ptr: &str) -> HostResult<Creator> {
        let bad = |what: &str| HostWorldError::InvalidRequest(format!("{ptr}: {what}"));
        let obj = value
            .as_object()
            .ok_or_else(|| bad("expected a creator object"))?;
        let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
        if let Some(extra) = obj.keys().find(|k| {
            !["creatorType", "firstName", "lastName", "name", "fieldMode"].contains(&k.as_str())
        }) {
            return Err(bad(&format!(
                "unknown creator member {extra}; a creator has creatorType and firstName/lastName or name"
            )));
        }
        let creator_type = text("creatorType").unwrap_or_else(|| "author".into());
        Ok(match text("name") {
            Some(name) => Creator::SingleField { creator_type, name },
            None => Creator::TwoField {
                creator_type,
                first_name: text("firstName").unwrap_or_default(),
                last_name: text("lastName")
                    .ok_or_else(|| bad("a creator needs lastName or name"))?,
            },
        })
    }

    /// The reference host's canonical creator.
    pub(super) fn canonical(&self) -> Value {
        match self {
            Creator::TwoField {
                creator_type,
                first_name,
                last_name,
            } => json!({"representation": "two_field", "creatorType": creator_type,
                "firstName": first_name, "lastName": last_name}),
            Creator::SingleField { creator_type, name } => {
                json!({"representation": "single_field", "creatorType": creator_type, "name": name})
            }
        }
    }

    /// `First Last`, or the single name.
    pub(super) fn display(&self) -> String {
        match self {
            Creator::TwoField {
                first_name,
                last_name,
                ..
            } => format!("{first_name} {last_name}").trim().to_string(),
            Creator::SingleField { name, .. } => name.clone(),
        }
    }
}

/// An item's [`ZoteroData`], read from the selection's JSON of the item when first
/// needed.
pub(super) type Zotero = Lazy<Arc<ItemBase>, ZoteroData>;

impl Readable<Arc<ItemBase>> for ZoteroData {
    fn read_from(item: Option<&Arc<ItemBase>>) -> Self {
        read_item(item.map(|item| &item.raw))
    }

    /// Fills what `self` lacks from `other`.
    fn absorb(&mut self, other: ZoteroData) {
        for (k, v) in other.fields {
            self.fields.entry(k).or_insert(v);
        }
        if self.creators.is_empty() {
            self.creators = other.creators;
        }
        if self.tags.is_empty() {
            self.tags = other.tags;
        }
        if self.collections.is_empty() {
            self.collections = other.collections;
        }
        if self.relations.is_empty() {
            self.relations = other.relations;
        }
        self.date_added = self.date_added.take().or(other.date_added);
        self.date_modified = self.date_modified.take().or(other.date_modified);
        self.version = self.version.or(other.version);
        self.deleted |= other.deleted;
        self.link_mode = self.link_mode.take().or(other.link_mode);
        self.charset = self.charset.take().or(other.charset);
    }
}

impl Zotero {
    /// The collection keys the data names, without keeping the data read
    /// (building a world asks this of every item).
    pub(super) fn collections(&self) -> Cow<'_, [String]> {
        match self.parts() {
            (Some(data), _) => Cow::Borrowed(&data.collections),
            (None, Some(item)) if may_name_collections(&item.raw) => {
                Cow::Owned(read_item(Some(&item.raw)).collections)
            }
            _ => Cow::Borrowed(&[]),
        }
    }
}

/// Whether `item`'s data may name collections: not when its `data` has no
/// `collections` member or an empty array there (read without parsing the
/// rest, and without reading it at all when no `collections` member anywhere
/// holds more than `[]`).
fn may_name_collections(item: &ItemJson) -> bool {
    if !item.may_have_filled("collections") {
        return false;
    }
    #[derive(Deserialize)]
    struct Data {
        collections: Option<Vec<IgnoredAny>>,
    }
    #[derive(Deserialize)]
    struct Item {
        data: Option<Data>,
    }
    match serde_json::from_str::<Item>(&item.text()) {
        Ok(Item { data: None }) => false,
        Ok(Item { data: Some(data) }) => data.collections.is_some_and(|list| !list.is_empty()),
        Err(_) => true,
    }
}

/// The export data of an item's `data` member, as far as it reads (the selection
/// was checked when it was loaded).
fn read_item(item: Option<&ItemJson>) -> ZoteroData {
    item.and_then(ItemJson::data)
        .and_then(|data| ZoteroData::parse(&data, "").ok())
        .unwrap_or_default()
}

/// The refusal of member `key` of the item at `ptr`.
fn bad(ptr: &str, key: &str, what: &str) -> HostWorldError {
    HostWorldError::InvalidRequest(format!("{ptr}/{key}: {what}"))
}

/// What Zotero's JSON export says about an item besides its identity.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct ZoteroData {
    /// Field values by field name (`title`, `DOI`, `url`, `extra`, …).
    pub(super) fields: Map<String, Value>,
    pub(super) creators: Vec<Creator>,
    /// Tag names, in order.
    pub(super) tags: Vec<String>,
    /// Collection keys.
    pub(super) collections: Vec<String>,
    /// Relation predicate → object URIs.
    pub(super) relations: Map<String, Value>,
    pub(super) date_added: Option<String>,
    pub(super) date_modified: Option<String>,
    pub(super) version: Option<u64>,
    pub(super) deleted: bool,
    pub(super) link_mode: Option<String>,
    pub(super) charset: Option<String>,
}

impl ZoteroData {
    /// Reads the export members of `obj` (others are the caller's): fields under
    /// `fields` or at the top level; a name under `fields` must be a Zotero field.
    pub(super) fn parse(obj: &Map<String, Value>, ptr: &str) -> HostResult<ZoteroData> {
        let mut data = ZoteroData::default();
        data.read_fields(obj, ptr)?;
        data.read_creators(obj, ptr)?;
        data.read_tags(obj, ptr)?;
        data.read_collections(obj, ptr)?;
        if let Some(relations) = obj.get("relations") {
            data.relations = relations
                .as_object()
                .cloned()
                .ok_or_else(|| bad(ptr, "relations", "expected {predicate: uri | [uri]}"))?;
        }
        data.read_scalars(obj, ptr)?;
        Ok(data)
    }

    /// Keeps field `name`'s `value` (a string, a number as its text; `null` is no
    /// value); `at` points at it.
    fn take_field(&mut self, name: &str, value: &Value, at: &str) -> HostResult<()> {
        match value {
            Value::String(_) => {
                self.fields.insert(name.to_owned(), value.clone());
            }
            Value::Number(n) => {
                self.fields.insert(name.to_owned(), n.to_string().into());
            }
            Value::Null => {}
            _ => {
                return Err(HostWorldError::InvalidRequest(format!(
                    "{at}: a field value is a string"
                )));
            }
        }
        Ok(())
    }

    /// The fields under `fields` (each must be a Zotero field), then those at the
    /// top level, an annotation's `annotation*` members included.
    fn read_fields(&mut self, obj: &Map<String, Value>, ptr: &str) -> HostResult<()> {
        if let Some(fields) = obj.get("fields") {
            let fields = fields
                .as_object()
                .ok_or_else(|| bad(ptr, "fields", "expected an object of Zotero fields"))?;
            for (name, value) in fields {
                let at = crate::pointer::child(&format!("{ptr}/fields"), name);
                if !is_field(name) {
                    return Err(HostWorldError::InvalidRequest(format!(
                        "{at}: {name} is not a Zotero field"
                    )));
                }
                self.take_field(name, value, &at)?;
            }
        }
        for (name, value) in obj {
            if is_field(name) {
                self.take_field(name, value, &crate::pointer::child(ptr, name))?;
            } else if name.starts_with("annotation") && !value.is_null() {
                // An annotation's members (type, text, sort index, position, …)
                // are kept as Zotero exports them.
                self.fields.insert(name.clone(), value.clone());
            }
        }
        Ok(())
    }

    /// `creators`: a list of creators.
    fn read_creators(&mut self, obj: &Map<String, Value>, ptr: &str) -> HostResult<()> {
        let Some(creators) = obj.get("creators") else {
            return Ok(());
        };
        let list = creators
            .as_array()
            .ok_or_else(|| bad(ptr, "creators", "expected a list of creators"))?;
        for (i, c) in list.iter().enumerate() {
            self.creators
                .push(Creator::parse(c, &format!("{ptr}/creators/{i}"))?);
        }
        Ok(())
    }

    /// `tags`: names, or `{"tag": name}` objects.
    fn read_tags(&mut self, obj: &Map<String, Value>, ptr: &str) -> HostResult<()> {
        let Some(tags) = obj.get("tags") else {
            return Ok(());
        };
        let list = tags
            .as_array()
            .ok_or_else(|| bad(ptr, "tags", "expected a list of tags"))?;
        for (i, tag) in list.iter().enumerate() {
            let name = tag
                .as_str()
                .or_else(|| tag.get("tag").and_then(Value::as_str))
                .ok_or_else(|| {
                    bad(
                        ptr,
                        &format!("tags/{i}"),
                        "expected \"name\" or {\"tag\": \"name\"}",
                    )
                })?;
            self.tags.push(name.to_owned());
        }
        Ok(())
    }

    /// `collections`: collection keys.
    fn read_collections(&mut self, obj: &Map<String, Value>, ptr: &str) -> HostResult<()> {
        let Some(collections) = obj.get("collections") else {
            return Ok(());
        };
        let list = collections
            .as_array()
            .ok_or_else(|| bad(ptr, "collections", "expected a list of collection keys"))?;
        for (i, key) in list.iter().enumerate() {
            let key = key.as_str().ok_or_else(|| {
                bad(
                    ptr,
                    &format!("collections/{i}"),
                    "expected a collection key",
                )
            })?;
            self.collections.push(key.to_owned());
        }
        Ok(())
    }

    /// The dates, the attachment's link mode and charset, `version` and `deleted`.
    fn read_scalars(&mut self, obj: &Map<String, Value>, ptr: &str) -> HostResult<()> {
        let text = |key: &str| -> HostResult<Option<String>> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(bad(ptr, key, "expected a string")),
            }
        };
        self.date_added = text("dateAdded")?;
        self.date_modified = text("dateModified")?;
        self.link_mode = text("linkMode")?;
        self.charset = text("charset")?;
        self.version = match obj.get("version") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .ok_or_else(|| bad(ptr, "version", "expected a number"))?,
            ),
        };
        self.deleted = match obj.get("deleted") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(Value::Number(n)) => n.as_u64() == Some(1),
            Some(_) => return Err(bad(ptr, "deleted", "expected a boolean")),
        };
        Ok(())
    }

    /// A field's value, through its base field (`publicationTitle` of a book
    /// section is its `bookTitle`).
    pub(super) fn field(&self, name: &str) -> Option<&str> {
        if let Some(v) = self.fields.get(name).and_then(Value::as_str) {
            return Some(v);
        }
        let base = &schema().base_fields;
        self.fields
            .iter()
            .find(|(k, _)| base.get(k.as_str()).is_some_and(|b| b == name))
            .and_then(|(_, v)| v.as_str())
    }

    /// The keys of the items `dc:relation` points at (Zotero item URIs end in
    /// `/items/<KEY>`).
    pub(super) fn related_keys(&self) -> Vec<String> {
        let uris = match self.relations.get("dc:relation") {
            Some(Value::String(uri)) => vec![uri.as_str()],
            Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        uris.into_iter()
            .filter_map(|uri| uri.rsplit_once("/items/").map(|(_, key)| key.to_owned()))
            .collect()
    }
}

/// The four-digit year of a Zotero date (`2020-05-01`, `May 2020`, `2020`).
pub(super) fn year_of(date: &str) -> Option<String> {
    let bytes = date.as_bytes();
    (0..bytes.len().saturating_sub(3)).find_map(|i| {
        let window = &bytes[i..i + 4];
        let digits = window.iter().all(u8::is_ascii_digit);
        let alone = (i == 0 || !bytes[i - 1].is_ascii_digit())
            && bytes.get(i + 4).is_none_or(|b| !b.is_ascii_digit());
        (digits && alone).then(|| date[i..i + 4].to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(value: Value) -> Arc<ItemBase> {
        Arc::new(ItemBase::of_map(value.as_object().unwrap()))
    }

    #[test]
    fn an_item_s_data_is_read_when_first_needed_and_kept_once_changed() {
        let json = item(
            json!({"key": "A", "data": {"title": "T", "tags": [{"tag": "x"}],
            "collections": ["C1"], "version": 4}}),
        );
        let mut zotero = Zotero::of(json.clone());
        // Collections are answered without keeping the data.
        assert_eq!(zotero.collections().as_ref(), ["C1".to_string()]);
        assert!(!zotero.is_read());
        assert_eq!(zotero.get().field("title"), Some("T"));
        assert!(zotero.is_read());
        zotero.get_mut().tags.push("y".into());
        // Changed, it is the world's own and no longer read from the item.
        assert!(matches!(zotero.parts(), (Some(_), None)));
        assert_eq!(zotero.get().tags, ["x", "y"]);
        assert_eq!(zotero.get().version, Some(4));
        // Without collections (absent or empty), nothing is read at all.
        for data in [
            json!({"title": "T"}),
            json!({"collections": []}),
            json!(null),
        ] {
            let zotero = Zotero::of(item(json!({"data": data})));
            assert!(zotero.collections().is_empty());
            assert!(!zotero.is_read());
        }
    }

    #[test]
    fn absorbing_the_same_item_leaves_it_unread_and_another_fills_gaps() {
        let a = item(json!({"data": {"title": "T", "DOI": "10.1/a"}}));
        let mut zotero = Zotero::of(a.clone());
        zotero.absorb(Zotero::of(a.clone()));
        assert!(!zotero.is_read());
        zotero.absorb(Zotero::of(item(
            json!({"data": {"title": "Other", "url": "https://x"}}),
        )));
        assert_eq!(zotero.get().field("title"), Some("T"));
        assert_eq!(zotero.get().field("url"), Some("https://x"));
        assert_eq!(zotero, Zotero::from(zotero.get().clone()));
    }

    #[test]
    fn the_schema_knows_journal_article_fields_and_base_fields() {
        assert!(is_field("DOI"));
        assert!(is_field("extra"));
        assert!(!is_field("doi"));
        let obj = json!({"itemType": "bookSection", "bookTitle": "Cats", "date": "May 2020"});
        let data = ZoteroData::parse(obj.as_object().unwrap(), "/items/0").unwrap();
        assert_eq!(data.field("publicationTitle"), Some("Cats"));
        assert_eq!(year_of("May 2020").as_deref(), Some("2020"));
        assert_eq!(year_of("12345"), None);
        assert_eq!(year_of(""), None);
    }

    #[test]
    fn fields_of_newer_zotero_schemas_are_known() {
        let version: Value = serde_json::from_str(include_str!("zotero-fields.json")).unwrap();
        assert_eq!(version["version"], 41);
        for field in ["PMID", "PMCID", "eventPlace", "originalDate", "partTitle"] {
            assert!(is_field(field), "{field}");
        }
        assert!(
            fields_of("journalArticle")
                .unwrap()
                .contains(&"PMID".to_string())
        );
        assert_eq!(base_of("sessionTitle"), "publicationTitle");
        let obj = json!({"itemType": "conferencePaper", "eventPlace": "Vienna",
            "fields": {"PMID": "12345", "PMCID": "PMC1"}});
        let data = ZoteroData::parse(obj.as_object().unwrap(), "/items/0").unwrap();
        assert_eq!(data.field("eventPlace"), Some("Vienna"));
        assert_eq!(data.field("PMID"), Some("12345"));
    }

    #[test]
    fn each_member_is_refused_with_its_pointer() {
        for (obj, message) in [
            (
                json!({"fields": []}),
                "/i/fields: expected an object of Zotero fields",
            ),
            (
                json!({"title": true}),
                "/i/title: a field value is a string",
            ),
            (
                json!({"creators": {}}),
                "/i/creators: expected a list of creators",
            ),
            (
                json!({"tags": [1]}),
                "/i/tags/0: expected \"name\" or {\"tag\": \"name\"}",
            ),
            (
                json!({"collections": [1]}),
                "/i/collections/0: expected a collection key",
            ),
            (
                json!({"relations": []}),
                "/i/relations: expected {predicate: uri | [uri]}",
            ),
            (json!({"dateAdded": 1}), "/i/dateAdded: expected a string"),
            (json!({"version": "1"}), "/i/version: expected a number"),
            (json!({"deleted": "yes"}), "/i/deleted: expected a boolean"),
        ] {
            let err = ZoteroData::parse(obj.as_object().unwrap(), "/i").unwrap_err();
            assert_eq!(err.to_string(), message);
        }
        let obj = json!({"url": 5, "volume": null, "deleted": 1, "version": 3});
        let data = ZoteroData::parse(obj.as_object().unwrap(), "/i").unwrap();
        assert_eq!(data.field("url"), Some("5"));
        assert_eq!(data.field("volume"), None);
        assert!(data.deleted);
        assert_eq!(data.version, Some(3));
    }

    #[test]
    fn fields_under_fields_must_be_zotero_fields() {
        let obj = json!({"fields": {"DOI": "10.1/x", "doi": "nope"}});
        let err = ZoteroData::parse(obj.as_object().unwrap(), "/items/3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "/items/3/fields/doi: doi is not a Zotero field"
        );
    }

    #[test]
    fn creators_tags_and_relations_are_read() {
        let obj = json!({
            "creators": [{"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"},
                         {"creatorType": "editor", "name": "The Cat Society"}],
            "tags": [{"tag": "cats", "type": 1}, "dogs"],
            "relations": {"dc:relation": ["http://zotero.org/users/local/ab/items/REL00001"]}
        });
        let data = ZoteroData::parse(obj.as_object().unwrap(), "").unwrap();
        assert_eq!(data.creators[0].display(), "Ada Lovelace");
        assert_eq!(
            data.creators[1].canonical()["representation"],
            "single_field"
        );
        assert_eq!(data.tags, ["cats", "dogs"]);
        assert_eq!(data.related_keys(), ["REL00001"]);
    }
}
