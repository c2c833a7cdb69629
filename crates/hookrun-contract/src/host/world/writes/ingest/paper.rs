//! The paper of a `literature.ingest` request, normalised as the reference host
//! normalises it before looking for it in the library: texts trimmed and cut,
//! identifiers stripped of their resolver prefixes, the DOI agreed between its
//! representations and placed where the item type keeps it, other identifiers
//! written into `extra`.

use serde_json::{Map, Value, json};

use super::super::super::zotero::fields_of;
use crate::host::js_value::{is_truthy, js_string, js_trim};
use crate::host::members::strip_any;

/// The most UTF-16 units a field value keeps.
const FIELD_LIMIT: usize = 4000;
/// The most creators a paper keeps.
const MAX_CREATORS: usize = 50;
/// The resolver prefixes an identifier may come with.
const DOI_RESOLVERS: [&str; 4] = [
    "https://dx.doi.org/",
    "http://dx.doi.org/",
    "https://doi.org/",
    "http://doi.org/",
];

/// A paper as the ingest works with it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Paper {
    pub(super) item_type: String,
    /// Field values in the order given, `DOI` and `extra` settled.
    pub(super) fields: Map<String, Value>,
    /// `{name, creatorType}` or `{firstName, lastName, creatorType}`.
    pub(super) creators: Vec<Map<String, Value>>,
    pub(super) title: String,
    pub(super) doi: String,
    pub(super) arxiv: String,
    pub(super) pmid: String,
    pub(super) isbn: String,
    pub(super) landing_url: String,
    pub(super) pdf_url: String,
    pub(super) attach_landing: bool,
}

/// The text of `value` trimmed and, past `limit` UTF-16 units, cut to one unit
/// less followed by an ellipsis.
pub(super) fn text(value: Option<&Value>, limit: usize) -> String {
    let text = value
        .filter(|v| !v.is_null())
        .map(js_string)
        .unwrap_or_default();
    let text = js_trim(&text).to_owned();
    let units: Vec<u16> = text.encode_utf16().collect();
    if units.len() <= limit {
        return text;
    }
    format!("{}…", String::from_utf16_lossy(&units[..limit - 1]))
}

/// `text` without a DOI resolver prefix and then without `doi:` and the white
/// space after it (ASCII case ignored), as the reference strips both.
fn without_resolver(text: &str) -> &str {
    let text = strip_any(text, &DOI_RESOLVERS);
    let rest = strip_any(text, &["doi:"]);
    if rest.len() == text.len() {
        text
    } else {
        rest.trim_start()
    }
}

/// An identifier: at most 300 units, a DOI resolver or `doi:` prefix dropped.
fn identifier(value: Option<&Value>) -> String {
    without_resolver(&text(value, 300)).trim().to_owned()
}

/// An identifier as identities are compared: lower-cased, resolver prefix
/// dropped, runs of white space made one space.
pub(super) fn comparable(value: &str) -> String {
    let lower = value.trim().to_lowercase();
    let text = without_resolver(&lower);
    let mut collapsed = String::with_capacity(text.len());
    for c in text.chars() {
        if !c.is_whitespace() {
            collapsed.push(c);
        } else if !collapsed.ends_with(' ') {
            collapsed.push(' ');
        }
    }
    collapsed
}

/// The paper's creators: the first fifty, each a name or a first/last name pair.
fn creators(value: &Value) -> Result<Vec<Map<String, Value>>, String> {
    let list = value.as_array().ok_or("paper.creators must be an array")?;
    let mut creators = Vec::new();
    for (index, creator) in list.iter().take(MAX_CREATORS).enumerate() {
        let creator = creator
            .as_object()
            .ok_or_else(|| format!("paper.creators[{index}] must be an object"))?;
        let name = text(creator.get("name"), 300);
        let first = text(creator.get("firstName"), 150);
        let last = text(creator.get("lastName"), 150);
        let mut kind = text(creator.get("creatorType"), 80);
        if kind.is_empty() {
            kind = "author".into();
        }
        let made = if !name.is_empty() {
            json!({"name": name, "creatorType": kind})
        } else if !first.is_empty() || !last.is_empty() {
            json!({"firstName": first, "lastName": last, "creatorType": kind})
        } else {
            return Err(format!(
                "paper.creators[{index}] requires name or firstName/lastName"
            ));
        };
        creators.extend(made.as_object().cloned());
    }
    Ok(creators)
}

/// The paper's fields: empty values dropped, scalars only, strings trimmed and cut.
fn fields(value: Option<&Value>) -> Result<Map<String, Value>, String> {
    let given = value
        .and_then(Value::as_object)
        .ok_or("paper.fields must be an object")?;
    let mut fields = Map::new();
    for (name, raw) in given {
        let key = name.trim();
        if key.is_empty() || raw.is_null() || raw.as_str() == Some("") {
            continue;
        }
        let kept = match raw {
            Value::String(_) => Value::String(text(Some(raw), FIELD_LIMIT)),
            Value::Number(_) | Value::Bool(_) => raw.clone(),
            _ => return Err(format!("paper.fields.{key} must be a scalar value")),
        };
        fields.insert(key.to_owned(), kept);
    }
    Ok(fields)
}

/// Whether items of `item_type` have a field `field`.
pub(super) fn type_has_field(item_type: &str, field: &str) -> bool {
    fields_of(item_type).is_some_and(|fields| fields.iter().any(|f| f == field))
}

/// The paper's DOI: `identifiers.doi`, else `fields.DOI`, which must agree when
/// both are there.
fn doi_of(identifiers: &Map<String, Value>, fields: &Map<String, Value>) -> Result<String, String> {
    let given = identifier(identifiers.get("doi"));
    let field = identifier(fields.get("DOI"));
    if !given.is_empty() && !field.is_empty() && comparable(&given) != comparable(&field) {
        return Err("paper DOI representations conflict".into());
    }
    Ok(if given.is_empty() { field } else { given })
}

/// Normalises the request's `paper`; `Err` holds the reference's message.
pub(super) fn normalize(input: &Value) -> Result<Paper, String> {
    let input = input.as_object().ok_or("paper must be an object")?;
    let item_type = text(input.get("itemType"), 100);
    if item_type.is_empty() {
        return Err("paper.itemType is required".into());
    }
    let mut fields = fields(input.get("fields"))?;
    let creators = creators(input.get("creators").unwrap_or(&Value::Null))?;
    let identifiers = input
        .get("identifiers")
        .and_then(Value::as_object)
        .ok_or("paper.identifiers must be an object")?;
    let doi = doi_of(identifiers, &fields)?;
    let isbn_source = identifiers
        .get("isbn")
        .filter(|v| is_truthy(Some(v)))
        .or_else(|| fields.get("ISBN"));
    let mut paper = Paper {
        arxiv: identifier(identifiers.get("arxiv")),
        pmid: identifier(identifiers.get("pmid")),
        isbn: identifier(isbn_source),
        title: String::new(),
        landing_url: text(input.get("landingUrl"), 1000),
        pdf_url: text(input.get("pdfUrl"), 1000),
        attach_landing: input.get("attachLandingUrlOnMissingPdf") == Some(&Value::Bool(true)),
        item_type,
        fields: Map::new(),
        creators,
        doi,
    };
    let native_doi = !paper.doi.is_empty() && type_has_field(&paper.item_type, "DOI");
    if native_doi {
        fields.insert("DOI".into(), paper.doi.clone().into());
    } else {
        fields.retain(|name, _| name != "DOI");
    }
    paper.title = text(fields.get("title"), 500);
    if [
        &paper.title,
        &paper.doi,
        &paper.arxiv,
        &paper.pmid,
        &paper.isbn,
    ]
    .iter()
    .all(|s| s.is_empty())
    {
        return Err("paper requires title or identifier".into());
    }
    paper.fields = fields;
    settle_extra(&mut paper, native_doi)?;
    Ok(paper)
}

/// The DOI of an `extra` line `DOI: …`, if the line is one.
fn extra_doi(line: &str) -> Option<&str> {
    let head = line.get(..4)?;
    if !head.eq_ignore_ascii_case("doi:") {
        return None;
    }
    let rest = line[4..].trim_start();
    (!rest.is_empty()).then_some(rest)
}

/// `extra` with the identifiers the item has no field for: its own lines kept
/// (trimmed, blank ones dropped; `DOI:` lines dropped when the paper has a DOI,
/// after checking they agree), then `DOI:`, `ISBN:`, `arXiv:`, `PMID:` lines not
/// already there (compared without case).
fn settle_extra(paper: &mut Paper, native_doi: bool) -> Result<(), String> {
    let existing = text(paper.fields.get("extra"), FIELD_LIMIT);
    let lines: Vec<&str> = existing
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).trim())
        .filter(|l| !l.is_empty())
        .collect();
    let has_doi = !paper.doi.is_empty();
    if has_doi
        && lines
            .iter()
            .filter_map(|l| extra_doi(l))
            .any(|d| comparable(d) != comparable(&paper.doi))
    {
        return Err("paper DOI representations conflict".into());
    }
    let mut kept: Vec<String> = lines
        .iter()
        .filter(|l| !has_doi || extra_doi(l).is_none())
        .map(|l| (*l).to_owned())
        .collect();
    let isbn_field = is_truthy(paper.fields.get("ISBN"));
    let additions = [
        (has_doi && !native_doi).then(|| format!("DOI: {}", paper.doi)),
        (!paper.isbn.is_empty() && !isbn_field).then(|| format!("ISBN: {}", paper.isbn)),
        (!paper.arxiv.is_empty()).then(|| format!("arXiv: {}", paper.arxiv)),
        (!paper.pmid.is_empty()).then(|| format!("PMID: {}", paper.pmid)),
    ];
    let additions: Vec<String> = additions.into_iter().flatten().collect();
    if !has_doi && additions.is_empty() {
        return Ok(());
    }
    let mut seen: std::collections::HashSet<String> =
        kept.iter().map(|l| l.to_lowercase()).collect();
    kept.extend(
        additions
            .into_iter()
            .filter(|l| seen.insert(l.to_lowercase())),
    );
    if kept.is_empty() {
        paper.fields.retain(|name, _| name != "extra");
    } else {
        paper.fields.insert("extra".into(), kept.join("\n").into());
    }
    Ok(())
}

impl Paper {
    /// The identifiers the paper has, as the preview plan shows them.
    pub(super) fn identifiers(&self) -> Value {
        let mut ids = Map::new();
        for (name, value) in [
            ("doi", &self.doi),
            ("arxiv", &self.arxiv),
            ("pmid", &self.pmid),
            ("isbn", &self.isbn),
        ] {
            if !value.is_empty() {
                ids.insert(name.into(), value.clone().into());
            }
        }
        Value::Object(ids)
    }
}
