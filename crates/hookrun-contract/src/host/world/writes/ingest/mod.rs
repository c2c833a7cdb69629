//! `literature.ingest`: one paper brought into a collection as the reference host
//! brings it. The paper is normalised, looked for in the collection's library by
//! its identifiers and title (at most 25 candidates, one match), created when it
//! is not there, added to the collection, and enriched with a PDF attachment from
//! `pdfUrl` and, when asked and no PDF is there, a link to its landing page.
//!
//! The simulated host has no network: an enrichment it is asked for is recorded
//! as attached (the attachment's item exists, its file does not).

mod paper;

use serde_json::{Map, Value, json};

use self::paper::{Paper, comparable, normalize, type_has_field};
use super::super::HostWorld;
use super::super::record::{DetailKind, Fields, Record};
use super::super::zotero::{ZoteroData, base_of, fields_of};
use super::{Keys, Prepared, closed};
use crate::host::HostError;
use crate::host::members::request::canonical_refusal;
use crate::selection::PortableItemRef;

/// The most items the identity search may find.
const MAX_CANDIDATES: usize = 25;
/// The members a paper may have, as its canonical schema declares them.
const PAPER_MEMBERS: &[&str] = &[
    "itemType",
    "fields",
    "creators",
    "identifiers",
    "landingUrl",
    "pdfUrl",
    "attachLandingUrlOnMissingPdf",
];
/// The identifiers a paper may name.
const IDENTIFIERS: &[&str] = &["doi", "arxiv", "pmid", "isbn"];

/// What an ingest found before writing: the paper and where it goes.
struct Planned<'a> {
    paper: Paper,
    collection: PortableItemRef,
    existing: Option<&'a Record>,
}

impl HostWorld {
    /// `literature.ingest`: the paper found or created, in the collection,
    /// enriched; its preview plan.
    pub(in crate::host::world::writes) fn literature_ingest(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        check_schema(request)?;
        let planned = self.plan_ingest(op, request)?;
        let mut prepared = Prepared::new(op);
        prepared.plan = Some(self.ingest_plan(&planned));
        let key = planned.collection.key.clone();
        let (before, mut after) = match planned.existing {
            Some(record) => (Some(record), record.clone()),
            None => match paper_item(&planned.paper, planned.collection.library_id, keys) {
                Ok(record) => (None, record),
                Err(message) => return Ok(Prepared::failed(op, "commit", core_failure(message))),
            },
        };
        let added = !after.zotero.get().collections.contains(&key);
        if added {
            after.zotero.get_mut().collections.push(key);
        }
        let (enrichment, attachments) = self.enrich(&planned.paper, &after, keys);
        prepared.result = json!({"item": self.mutation_item(&after),
            "collectionRef": planned.collection.to_value(),
            "itemOutcome": if before.is_some() { "existing" } else { "created" },
            "collectionOutcome": if added { "added" } else { "already_present" },
            "enrichment": enrichment});
        prepared.put(before, after);
        // The receipt names only the item; its new attachments come after it.
        prepared.upserts.extend(attachments);
        Ok(prepared)
    }

    /// The collection, the normalised paper and the item it already is, each
    /// refused as the reference refuses it before anything is written.
    fn plan_ingest(&self, op: &str, request: &Value) -> Result<Planned<'_>, HostError> {
        let collection = self.existing_collection(op, request, "collectionRef")?;
        let paper = normalize(&request["paper"]).map_err(|message| {
            mutation_error(
                "invalid_request",
                "validation",
                "refresh_and_retry_new_operation",
                json!({"reason": "invalid_schema", "operation": op}),
                message,
            )
        })?;
        let library = collection.reference.library_id;
        let existing = self.identity(&paper, library)?;
        Ok(Planned {
            paper,
            collection: collection.reference,
            existing,
        })
    }

    /// The item of `library` the paper already is: Zotero's search by each
    /// identifier and the title (at most 25 candidates), then the candidates
    /// that are regular items matching the paper (at most one).
    fn identity(&self, paper: &Paper, library: u64) -> Result<Option<&Record>, HostError> {
        let candidates: Vec<&Record> = self
            .records
            .iter()
            .filter(|r| {
                r.reference
                    .as_ref()
                    .is_some_and(|k| k.library_id == library)
            })
            .filter(|r| !r.zotero.get().deleted && searched(r, paper))
            .take(MAX_CANDIDATES + 1)
            .collect();
        if candidates.len() > MAX_CANDIDATES {
            return Err(mutation_error(
                "resource_limited",
                "read",
                "refresh_and_retry_new_operation",
                json!({"resource": "items", "limit": MAX_CANDIDATES, "observed": candidates.len()}),
                "bounded Zotero identity search returned too many candidates".into(),
            ));
        }
        let mut matches: Vec<&Record> = candidates
            .into_iter()
            .filter(|r| r.kind.unwrap_or(DetailKind::Regular) == DetailKind::Regular)
            .filter(|r| matches_paper(r, paper))
            .collect();
        matches.dedup_by(|a, b| a.reference == b.reference);
        if matches.len() > 1 {
            return Err(mutation_error(
                "conflict",
                "read",
                "refresh_and_retry_new_operation",
                json!({"reason": "ambiguous_state", "kind": "item"}),
                "literature identity resolves to multiple items".into(),
            ));
        }
        Ok(matches.pop())
    }

    /// The preview's plan: the target, what is required of it, the enrichment
    /// asked for and whether the collection gains it.
    fn ingest_plan(&self, planned: &Planned<'_>) -> Value {
        let paper = &planned.paper;
        let collection = planned.collection.to_value();
        let target = match planned.existing.and_then(|r| r.reference.as_ref()) {
            Some(item) => json!({"outcome": "existing", "itemRef": item.to_value()}),
            None => json!({"outcome": "created"}),
        };
        let member = planned
            .existing
            .is_some_and(|r| r.zotero.get().collections.contains(&planned.collection.key));
        json!({"collectionRef": collection, "target": target,
            "required": {"itemType": paper.item_type, "fields": paper.fields,
                "creators": paper.creators, "identifiers": paper.identifiers(),
                "collection": collection},
            "enrichment": {
                "pdf": if paper.pdf_url.is_empty() { "skipped" } else { "requested" },
                "landing": if paper.attach_landing && !paper.landing_url.is_empty() {
                    "requested_if_pdf_missing"
                } else {
                    "skipped"
                }},
            "collectionOutcome": if member { "already_present" } else { "added" }})
    }

    /// Whether the ingest its preview `plan` describes would change the library:
    /// a new item, a new membership, or an enrichment asked for an item without
    /// a PDF.
    pub(in crate::host::world::writes) fn ingest_would_change(&self, plan: &Value) -> bool {
        if plan["target"]["outcome"] != "existing" || plan["collectionOutcome"] == "added" {
            return true;
        }
        let asked = plan["enrichment"]["pdf"] == "requested"
            || plan["enrichment"]["landing"] == "requested_if_pdf_missing";
        let item = PortableItemRef::parse(&plan["target"]["itemRef"], "/itemRef").ok();
        let has_pdf = item
            .and_then(|r| self.find(&crate::plan::ItemLocator::Ref(r)))
            .is_some_and(|record| self.child_records(record).any(is_pdf));
        asked && !has_pdf
    }

    /// The enrichment of `item`: a PDF attachment from `pdfUrl`, then (when asked)
    /// a landing-page link if the item has no PDF; the outcomes and the new
    /// attachments.
    fn enrich(&self, paper: &Paper, item: &Record, keys: &mut Keys) -> (Vec<Value>, Vec<Record>) {
        let (mut outcomes, mut attachments) = (Vec::new(), Vec::new());
        let library = item.reference.as_ref().map_or(1, |r| r.library_id);
        let title = |suffix: &str, alone: &str| match paper.title.as_str() {
            "" => alone.to_owned(),
            title => format!("{title} {suffix}"),
        };
        if paper.pdf_url.is_empty() {
            outcomes.push(json!({"kind": "pdf", "outcome": "skipped"}));
        } else {
            let mut pdf = attachment(item, keys.next(library), "application/pdf", &paper.pdf_url);
            pdf.title = Some(title("PDF", "Full Text PDF"));
            pdf.filename = Some("full-text.pdf".into());
            pdf.zotero.get_mut().link_mode = Some("imported_url".into());
            attachments.push(pdf);
            outcomes.push(json!({"kind": "pdf", "outcome": "attached"}));
        }
        if paper.attach_landing {
            let has_pdf = !attachments.is_empty() || self.child_records(item).any(is_pdf);
            if has_pdf || paper.landing_url.is_empty() {
                outcomes.push(json!({"kind": "landing", "outcome": "skipped"}));
            } else {
                let mut link =
                    attachment(item, keys.next(library), "text/html", &paper.landing_url);
                link.title = Some(title("Landing Page", "Literature Landing Page"));
                link.zotero.get_mut().link_mode = Some("linked_url".into());
                attachments.push(link);
                outcomes.push(json!({"kind": "landing", "outcome": "attached"}));
            }
        }
        (outcomes, attachments)
    }
}

/// Refuses a request its canonical schema refuses: only `collectionRef` and a
/// `paper` of the declared members, with the required ones of their types.
fn check_schema(request: &Value) -> Result<(), HostError> {
    closed(request, &["collectionRef", "paper"])?;
    let refuse = |member: &str| Err(canonical_refusal(Some(&format!("/paper{member}"))));
    let Some(paper) = request.get("paper").and_then(Value::as_object) else {
        return Err(canonical_refusal(Some("/paper")));
    };
    if let Some(extra) = paper.keys().find(|k| !PAPER_MEMBERS.contains(&k.as_str())) {
        return refuse(&format!("/{extra}"));
    }
    if paper
        .get("itemType")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return refuse("/itemType");
    }
    let scalars =
        |fields: &Map<String, Value>| fields.values().all(|v| !v.is_array() && !v.is_object());
    if !paper
        .get("fields")
        .and_then(Value::as_object)
        .is_some_and(scalars)
    {
        return refuse("/fields");
    }
    if !paper.get("creators").is_some_and(Value::is_array) {
        return refuse("/creators");
    }
    let identifiers_fit = |ids: &Map<String, Value>| {
        ids.iter()
            .all(|(k, v)| IDENTIFIERS.contains(&k.as_str()) && v.is_string())
    };
    if !paper
        .get("identifiers")
        .and_then(Value::as_object)
        .is_some_and(identifiers_fit)
    {
        return refuse("/identifiers");
    }
    for (member, fits) in [
        ("landingUrl", Value::is_string as fn(&Value) -> bool),
        ("pdfUrl", Value::is_string),
        ("attachLandingUrlOnMissingPdf", Value::is_boolean),
    ] {
        if paper.get(member).is_some_and(|v| !fits(v)) {
            return refuse(&format!("/{member}"));
        }
    }
    Ok(())
}

/// Whether Zotero's identity search would return `record` for `paper`: a field
/// equal to the DOI, ISBN or landing URL, `extra` containing the arXiv id or
/// PMID, or the title equal to the paper's (compared without ASCII case).
fn searched(record: &Record, paper: &Paper) -> bool {
    let data = record.zotero.get();
    let field = |name: &str| data.field(name).unwrap_or_default();
    let equal =
        |value: &str, wanted: &str| !wanted.is_empty() && value.eq_ignore_ascii_case(wanted);
    let extra = field("extra").to_lowercase();
    let contains = |wanted: &str| !wanted.is_empty() && extra.contains(&wanted.to_lowercase());
    equal(field("DOI"), &paper.doi)
        || equal(field("ISBN"), &paper.isbn)
        || equal(field("url"), &paper.landing_url)
        || contains(&paper.arxiv)
        || contains(&paper.pmid)
        || equal(record.title.as_deref().unwrap_or_default(), &paper.title)
}

/// Whether `record` is the paper: the same DOI or ISBN, its `extra` naming the
/// arXiv id or PMID, the same landing URL, or the same title (each compared as
/// identities are).
fn matches_paper(record: &Record, paper: &Paper) -> bool {
    let data = record.zotero.get();
    let field = |name: &str| comparable(data.field(name).unwrap_or_default());
    let same = |mine: &str, theirs: &str| {
        !theirs.is_empty() && !mine.is_empty() && mine == comparable(theirs)
    };
    let extra = field("extra");
    same(&field("DOI"), &paper.doi)
        || same(&field("ISBN"), &paper.isbn)
        || (!paper.arxiv.is_empty() && extra.contains(&comparable(&paper.arxiv)))
        || (!paper.pmid.is_empty() && extra.contains(&comparable(&paper.pmid)))
        || same(&field("url"), &paper.landing_url)
        || same(
            &comparable(record.title.as_deref().unwrap_or_default()),
            &paper.title,
        )
}

/// Whether an attachment is a PDF: by its content type, or a title or path
/// ending `.pdf`.
fn is_pdf(record: &Record) -> bool {
    let ends_pdf =
        |s: Option<&String>| s.is_some_and(|s| s.trim().to_lowercase().ends_with(".pdf"));
    record.kind == Some(DetailKind::Attachment)
        && (record
            .content_type
            .as_deref()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/pdf"))
            || ends_pdf(record.title.as_ref())
            || ends_pdf(record.path.as_ref()))
}

/// A new attachment of `parent` at `reference` with a URL.
fn attachment(
    parent: &Record,
    reference: PortableItemRef,
    content_type: &str,
    url: &str,
) -> Record {
    let mut record = Record {
        reference: Some(reference),
        kind: Some(DetailKind::Attachment),
        parent_ref: parent.reference.clone(),
        fields: Fields {
            item_type: Some("attachment".into()),
            content_type: Some(content_type.into()),
            ..Fields::default()
        }
        .into(),
        ..Record::default()
    };
    record
        .zotero
        .get_mut()
        .fields
        .insert("url".into(), url.into());
    record
}

/// The new item of `paper` in `library`, its fields set as Zotero sets them (a
/// base field on the type's own field); `Err` holds the message of the field or
/// creator Zotero refuses.
fn paper_item(paper: &Paper, library: u64, keys: &mut Keys) -> Result<Record, String> {
    let type_fields = fields_of(&paper.item_type)
        .ok_or_else(|| format!("Invalid item type '{}'", paper.item_type))?;
    let mut obj = Map::new();
    for (name, value) in &paper.fields {
        let field = if type_has_field(&paper.item_type, name) {
            name.as_str()
        } else {
            type_fields
                .iter()
                .map(String::as_str)
                .find(|f| base_of(f) == name)
                .ok_or_else(|| {
                    format!(
                        "'{name}' is not a valid field for type '{}'",
                        paper.item_type
                    )
                })?
        };
        let text = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        obj.insert(field.into(), text.into());
    }
    obj.insert("creators".into(), json!(paper.creators));
    let zotero = ZoteroData::parse(&obj, "").map_err(|e| e.to_string())?;
    let title = zotero.field("title").map(str::to_owned);
    Ok(Record {
        reference: Some(keys.next(library)),
        kind: Some(DetailKind::Regular),
        fields: Fields {
            item_type: Some(paper.item_type.clone()),
            title,
            ..Fields::default()
        }
        .into(),
        zotero: zotero.into(),
        ..Record::default()
    })
}

/// The failed attempt of an ingest whose item could not be made.
fn core_failure(message: String) -> HostError {
    mutation_error(
        "execution_failed",
        "commit",
        "retry_same_operation",
        json!({"phase": "commit", "recovery": "retry_same_operation", "residualCount": 0}),
        message,
    )
}

/// An error of the reference's mutation authority: raised while a write is
/// worked out, before it is admitted, the hook's promise rejects with it; raised
/// while it runs, it is the failed attempt's error.
fn mutation_error(
    code: &str,
    phase: &str,
    recovery: &str,
    details: Value,
    message: String,
) -> HostError {
    let mut error = HostError::plain("MutationAuthorityExecutionError", message);
    for (name, value) in [
        ("status", json!("failed")),
        ("code", json!(code)),
        ("phase", json!(phase)),
        ("recovery", json!(recovery)),
        ("details", details),
        ("affectedRefs", json!([])),
        ("residualRefs", json!([])),
    ] {
        error.fields.insert(name.into(), value);
    }
    error
}

#[cfg(test)]
mod tests;
