//! `literature.ingest` on a small library, after the reference host's ingest
//! cases: a new paper, a paper already there (by DOI, arXiv id, title), the
//! paper's normalisation and its refusals, the identity search's bounds, the
//! enrichment and the preview plan.

use serde_json::{Value, json};

use super::super::super::HostWorld;
use super::super::{Keys, Prepared};
use crate::host::HostError;
use crate::host::members::Member;
use crate::selection::PortableItemRef;

fn library(extra_items: Vec<Value>) -> HostWorld {
    let mut items = vec![
        json!({"key": "PAPER001", "itemType": "journalArticle", "title": "Cats and Dogs",
               "DOI": "10.1000/Cats", "collections": ["COLLREAD"]}),
        json!({"key": "PAPER002", "itemType": "preprint", "title": "On Mice",
               "extra": "arXiv: 2101.00001"}),
        json!({"key": "ATTACH02", "itemType": "attachment", "parentItem": "PAPER002",
               "linkMode": "imported_file", "contentType": "application/pdf",
               "path": "attachments/ATTACH02/mice.pdf"}),
    ];
    items.extend(extra_items);
    HostWorld::default()
        .with_library(&json!({"items": items, "collections": [
            {"key": "COLLREAD", "name": "Reading"}, {"key": "COLLNEW0", "name": "New"}]}))
        .unwrap()
}

fn r(key: &str) -> Value {
    json!({"libraryId": 1, "key": key})
}

fn ingest(collection: &str, paper: Value) -> Value {
    json!({"operation": "literature.ingest", "operationId": "ingest-1",
           "collectionRef": r(collection), "paper": paper})
}

fn paper(fields: Value, identifiers: Value) -> Value {
    json!({"itemType": "journalArticle", "fields": fields, "creators": [], "identifiers": identifiers})
}

fn prepare(world: &HostWorld, request: &Value) -> Result<Prepared, HostError> {
    prepare_after(world, request, 0)
}

/// The write of `request` in a run that created `used` items before.
fn prepare_after(world: &HostWorld, request: &Value, used: u64) -> Result<Prepared, HostError> {
    world.prepare_write(Member::MutationsExecute, request, &mut Keys { used })
}

fn refusal(error: &HostError) -> (&str, &str, &Value) {
    (
        error.name.as_str(),
        error.fields["code"].as_str().unwrap_or_default(),
        &error.fields["details"],
    )
}

#[test]
fn a_new_paper_is_created_in_the_collection_with_its_identifiers_placed() {
    let mut world = library(vec![]);
    let request = ingest(
        "COLLNEW0",
        json!({"itemType": "journalArticle",
            "fields": {"title": "  Birds  ", "date": 2021, "extra": "Note\n\n DOI: https://doi.org/10.2/BIRDS "},
            "creators": [{"firstName": "Ada", "lastName": "Lovelace"}, {"name": "Team", "creatorType": "editor"}],
            "identifiers": {"doi": "doi: 10.2/birds", "arxiv": "2102.00002", "pmid": "123"}}),
    );
    let done = prepare(&world, &request).unwrap();
    assert!(done.changed);
    assert_eq!(done.result["itemOutcome"], "created");
    assert_eq!(done.result["collectionOutcome"], "added");
    assert_eq!(done.result["collectionRef"], r("COLLNEW0"));
    assert_eq!(
        done.result["enrichment"],
        json!([{"kind": "pdf", "outcome": "skipped"}])
    );
    assert_eq!(done.changes.len(), 1);
    assert_eq!(done.changes[0]["effect"], "created");
    assert_eq!(done.changes[0]["before"], Value::Null);
    let plan = done.plan.clone().unwrap();
    assert_eq!(
        plan["required"]["fields"],
        json!({"title": "Birds", "date": 2021, "extra": "Note\narXiv: 2102.00002\nPMID: 123",
               "DOI": "10.2/birds"})
    );
    assert_eq!(
        plan["required"]["creators"],
        json!([{"firstName": "Ada", "lastName": "Lovelace", "creatorType": "author"},
               {"name": "Team", "creatorType": "editor"}])
    );
    assert_eq!(
        plan["required"]["identifiers"],
        json!({"doi": "10.2/birds", "arxiv": "2102.00002", "pmid": "123"})
    );
    world.commit(&done);
    let key = done.result["item"]["ref"]["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let detail = world
        .get_item_detail(&PortableItemRef { library_id: 1, key })
        .unwrap();
    assert_eq!(detail["item"]["fields"]["DOI"], "10.2/birds");
    assert_eq!(detail["item"]["title"], "Birds");
    let listed = world
        .list_items(&json!({"collectionRef": r("COLLNEW0")}))
        .unwrap();
    assert_eq!(listed["items"].as_array().unwrap().len(), 1);
}

#[test]
fn a_paper_already_there_is_found_and_only_added_to_the_collection() {
    let mut world = library(vec![]);
    // The DOI as a resolver URL in other case finds PAPER001.
    let by_doi = ingest(
        "COLLNEW0",
        paper(json!({}), json!({"doi": "https://doi.org/10.1000/CATS"})),
    );
    let done = prepare(&world, &by_doi).unwrap();
    assert_eq!(done.result["itemOutcome"], "existing");
    assert_eq!(done.result["item"]["ref"], r("PAPER001"));
    assert_eq!(done.result["collectionOutcome"], "added");
    assert_eq!(done.changes[0]["effect"], "updated");
    assert_eq!(done.changes[0]["before"]["state"], "active");
    world.commit(&done);
    let again = prepare(&world, &by_doi).unwrap();
    assert!(
        !again.changed,
        "a paper already in the collection changes nothing"
    );
    assert_eq!(again.result["collectionOutcome"], "already_present");
    assert_eq!(again.changes[0]["effect"], "unchanged");
    assert_eq!(again.changes[0]["before"], again.changes[0]["after"]);
    // The arXiv id in `extra`, and the title without regard to case.
    let by_arxiv = ingest("COLLNEW0", paper(json!({}), json!({"arxiv": "2101.00001"})));
    assert_eq!(
        prepare(&world, &by_arxiv).unwrap().result["item"]["ref"],
        r("PAPER002")
    );
    let by_title = ingest("COLLNEW0", paper(json!({"title": "on MICE"}), json!({})));
    assert_eq!(
        prepare(&world, &by_title).unwrap().result["item"]["ref"],
        r("PAPER002")
    );
}

#[test]
fn a_paper_the_reference_cannot_normalise_is_refused_before_any_write() {
    let world = library(vec![]);
    for (paper, message) in [
        (
            paper(json!({"date": "2020"}), json!({})),
            "paper requires title or identifier",
        ),
        (
            paper(
                json!({"title": "X", "DOI": "10.1/a"}),
                json!({"doi": "10.1/b"}),
            ),
            "paper DOI representations conflict",
        ),
        (
            paper(
                json!({"title": "X", "extra": "DOI: 10.1/c"}),
                json!({"doi": "10.1/b"}),
            ),
            "paper DOI representations conflict",
        ),
        (
            json!({"itemType": "journalArticle", "fields": {"title": "X"}, "creators": [{"creatorType": "author"}], "identifiers": {}}),
            "paper.creators[0] requires name or firstName/lastName",
        ),
        (
            json!({"itemType": "  ", "fields": {"title": "X"}, "creators": [], "identifiers": {}}),
            "paper.itemType is required",
        ),
    ] {
        let error = prepare(&world, &ingest("COLLNEW0", paper)).unwrap_err();
        assert_eq!(error.message, message);
        assert_eq!(
            refusal(&error),
            (
                "MutationAuthorityExecutionError",
                "invalid_request",
                &json!({"reason": "invalid_schema", "operation": "literature.ingest"})
            )
        );
        assert_eq!(error.fields["phase"], "validation");
    }
}

#[test]
fn requests_outside_the_canonical_schema_and_unknown_collections_are_refused() {
    let world = library(vec![]);
    let schema = |request: Value| {
        let error = prepare(&world, &request).unwrap_err();
        (
            error.fields["code"].clone(),
            error.fields["details"]["field"].clone(),
        )
    };
    let good = paper(json!({"title": "X"}), json!({}));
    let mut extra = good.clone();
    extra["papers"] = json!([]);
    assert_eq!(
        schema(ingest("COLLNEW0", extra)),
        (json!("invalid_request"), json!("/paper/papers"))
    );
    let mut no_creators = good.clone();
    no_creators.as_object_mut().unwrap().remove("creators");
    assert_eq!(
        schema(ingest("COLLNEW0", no_creators)),
        (json!("invalid_request"), json!("/paper/creators"))
    );
    let mut nested = good.clone();
    nested["fields"]["title"] = json!({"a": 1});
    assert_eq!(
        schema(ingest("COLLNEW0", nested)),
        (json!("invalid_request"), json!("/paper/fields"))
    );
    let mut unknown_id = good.clone();
    unknown_id["identifiers"] = json!({"issn": "1234-5678"});
    assert_eq!(
        schema(ingest("COLLNEW0", unknown_id)),
        (json!("invalid_request"), json!("/paper/identifiers"))
    );
    let missing = prepare(&world, &ingest("COLLGONE", good)).unwrap_err();
    assert_eq!(missing.fields["code"], "not_found");
    assert_eq!(missing.fields["details"]["kind"], "collection");
}

#[test]
fn the_identity_search_is_bounded_and_one_paper_is_one_item() {
    let same_title = |key: &str| json!({"key": key, "itemType": "book", "title": "Common"});
    let world = library(
        (0..26)
            .map(|i| same_title(&format!("BOOK{i:04}")))
            .collect(),
    );
    let request = ingest("COLLNEW0", paper(json!({"title": "Common"}), json!({})));
    let error = prepare(&world, &request).unwrap_err();
    assert_eq!(
        refusal(&error),
        (
            "MutationAuthorityExecutionError",
            "resource_limited",
            &json!({"resource": "items", "limit": 25, "observed": 26})
        )
    );
    assert_eq!(error.fields["phase"], "read");
    let world = library(vec![same_title("BOOK0001"), same_title("BOOK0002")]);
    let error = prepare(&world, &request).unwrap_err();
    assert_eq!(
        error.message,
        "literature identity resolves to multiple items"
    );
    assert_eq!(
        refusal(&error).2,
        &json!({"reason": "ambiguous_state", "kind": "item"})
    );
}

#[test]
fn enrichment_attaches_a_pdf_or_else_the_landing_page() {
    let mut world = library(vec![]);
    let mut wanted = paper(json!({"title": "Owls"}), json!({}));
    wanted["pdfUrl"] = json!("https://example.org/owls.pdf");
    wanted["landingUrl"] = json!("https://example.org/owls");
    wanted["attachLandingUrlOnMissingPdf"] = json!(true);
    let done = prepare(&world, &ingest("COLLNEW0", wanted.clone())).unwrap();
    assert_eq!(
        done.result["enrichment"],
        json!([{"kind": "pdf", "outcome": "attached"}, {"kind": "landing", "outcome": "skipped"}])
    );
    assert_eq!(
        done.plan.as_ref().unwrap()["enrichment"],
        json!({"pdf": "requested", "landing": "requested_if_pdf_missing"})
    );
    world.commit(&done);
    let item = PortableItemRef {
        library_id: 1,
        key: done.result["item"]["ref"]["key"].as_str().unwrap().into(),
    };
    let attachments = world
        .get_item_attachments(&item, &Default::default())
        .unwrap();
    let pdf = &attachments["attachments"][0];
    assert_eq!(pdf["title"], "Owls PDF");
    assert_eq!(pdf["contentType"], "application/pdf");
    // Without a PDF the landing page is linked.
    wanted.as_object_mut().unwrap().remove("pdfUrl");
    wanted["fields"]["title"] = json!("Larks");
    let done = prepare_after(&world, &ingest("COLLNEW0", wanted), 2).unwrap();
    assert_eq!(
        done.result["enrichment"],
        json!([{"kind": "pdf", "outcome": "skipped"}, {"kind": "landing", "outcome": "attached"}])
    );
    world.commit(&done);
    let item = PortableItemRef {
        library_id: 1,
        key: done.result["item"]["ref"]["key"].as_str().unwrap().into(),
    };
    let attachments = world
        .get_item_attachments(&item, &Default::default())
        .unwrap();
    assert_eq!(attachments["attachments"][0]["title"], "Larks Landing Page");
    assert_eq!(attachments["attachments"][0]["contentType"], "text/html");
}

#[test]
fn a_field_the_item_type_lacks_fails_the_attempt() {
    let world = library(vec![]);
    let request = ingest(
        "COLLNEW0",
        json!({"itemType": "book", "fields": {"title": "X", "issue": "4"}, "creators": [], "identifiers": {}}),
    );
    let done = prepare(&world, &request).unwrap();
    let failure = done.failure.as_ref().unwrap();
    assert_eq!(
        failure.message,
        "'issue' is not a valid field for type 'book'"
    );
    assert_eq!(failure.fields["code"], "execution_failed");
    assert_eq!(
        failure.fields["details"]["recovery"],
        "retry_same_operation"
    );
    assert_eq!(done.failure_phase, "commit");
    assert!(done.changes.is_empty());
}

#[test]
fn the_preview_plan_names_the_target_and_the_collection_outcome() {
    let world = library(vec![]);
    let existing = prepare(
        &world,
        &ingest("COLLREAD", paper(json!({}), json!({"doi": "10.1000/cats"}))),
    )
    .unwrap();
    let plan = existing.plan.unwrap();
    assert_eq!(
        plan["target"],
        json!({"outcome": "existing", "itemRef": r("PAPER001")})
    );
    assert_eq!(plan["collectionOutcome"], "already_present");
    assert_eq!(plan["required"]["collection"], r("COLLREAD"));
    assert_eq!(
        plan["enrichment"],
        json!({"pdf": "skipped", "landing": "skipped"})
    );
    let created = prepare(
        &world,
        &ingest("COLLREAD", paper(json!({"title": "New"}), json!({}))),
    )
    .unwrap();
    assert_eq!(
        created.plan.unwrap()["target"],
        json!({"outcome": "created"})
    );
}

#[test]
fn a_preview_would_change_for_a_new_item_a_new_membership_or_a_missing_pdf() {
    let world = library(vec![]);
    let would_change = |request: Value| {
        let prepared = prepare(&world, &request).unwrap();
        world.ingest_would_change(prepared.plan.as_ref().unwrap())
    };
    assert!(would_change(ingest(
        "COLLREAD",
        paper(json!({"title": "New"}), json!({}))
    )));
    let cats = || paper(json!({}), json!({"doi": "10.1000/cats"}));
    assert!(would_change(ingest("COLLNEW0", cats())));
    assert!(!would_change(ingest("COLLREAD", cats())));
    let mut with_pdf = cats();
    with_pdf["pdfUrl"] = json!("https://example.org/cats.pdf");
    assert!(would_change(ingest("COLLREAD", with_pdf)));
    // PAPER002 has a PDF already: asking for one changes nothing.
    let mut mice = paper(json!({}), json!({"arxiv": "2101.00001"}));
    mice["pdfUrl"] = json!("https://example.org/mice.pdf");
    let prepared = prepare(&world, &ingest("COLLNEW0", mice.clone())).unwrap();
    let mut plan = prepared.plan.unwrap();
    plan["collectionOutcome"] = json!("already_present");
    assert!(!world.ingest_would_change(&plan));
}
