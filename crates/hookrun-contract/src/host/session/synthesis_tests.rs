//! The `synthesis.*` members the host checks or runs itself, driven through
//! [`HookHost::call`] without an engine: the searches' request contracts and
//! answers, and a tag-audit run from its callback's writer to its settlement.

use serde_json::{Value, json};

use super::HookHost;
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::world::HostWorld;

const AUDIT: &str = "synthesis.tags.withAuditRun";

fn library() -> HostWorld {
    HostWorld::default()
        .with_library(&json!({"items": [
            {"key": "PAPER001", "itemType": "journalArticle", "title": "Cats", "tags": ["b", "a"]},
            {"key": "PAPER002", "itemType": "book", "title": "Dogs", "tags": []}
        ]}))
        .unwrap()
}

fn host_with(answers: Value) -> HookHost {
    let members = HostAnswers::parse_members(&answers).unwrap();
    HookHost::new(
        library(),
        HostAnswers {
            members,
            ..HostAnswers::default()
        },
    )
}

fn host() -> HookHost {
    host_with(json!({}))
}

#[test]
fn searches_answer_from_the_fixture_else_as_an_unconfigured_host() {
    let found = json!({"results": [], "status": "completed", "method": "lexical", "issues": [],
        "nextCursor": null, "hasMore": false, "total": 0});
    let mut answered = host_with(json!({
        "synthesis.searchEvidence": [{"args": [{"query": "cats"}], "answer": found}],
        "synthesis.topics.getContext": [{"args": [{"topicId": "t1"}], "answer": {"topic": "t1"}}]
    }));
    let call = |host: &mut HookHost, member: &str, args: Value| host.call(member, args, None);
    assert_eq!(
        call(
            &mut answered,
            "synthesis.searchEvidence",
            json!([{"query": "cats"}])
        )
        .unwrap(),
        found
    );
    assert_eq!(
        call(
            &mut answered,
            "synthesis.topics.getContext",
            json!([{"topicId": "t1"}])
        )
        .unwrap()["topic"],
        "t1"
    );
    for (member, args) in [
        ("synthesis.searchEvidence", json!([{"query": "dogs"}])),
        (
            "synthesis.topics.search",
            json!([{"query": "cats", "sections": ["summary"]}]),
        ),
        ("synthesis.topics.getContext", json!([{"anything": 1}])),
    ] {
        let reply = call(&mut answered, member, args);
        let error = reply.as_ref().unwrap_err();
        assert_eq!(
            reply_code(&reply),
            ("unavailable".into(), json!({"reason": "runtime"}))
        );
        assert!(
            error
                .message
                .starts_with("The Synthesis runtime is unavailable")
        );
        assert_eq!(error.fields["retryable"], false);
    }
}

#[test]
fn search_requests_are_checked_before_the_fixture_is_asked() {
    let refused = |member: &str, request: Value| {
        let mut host = host_with(json!({member: [{"args": [], "answer": {}}]}));
        let reply = host.call(member, json!([request]), None);
        reply_code(&reply)
    };
    let invalid = (
        "invalid_request".to_string(),
        json!({"reason": "invalid_value"}),
    );
    let long = "x".repeat(4097);
    for request in [
        json!({"query": "  "}),
        json!({"query": long}),
        json!({"query": "x", "cursor": long}),
        json!({"query": "x", "limit": 0}),
        json!({"query": "x", "limit": 50, "maxResults": 10}),
        json!({"query": "x", "extra": true}),
        json!({"query": "x", "libraryIds": vec![1; 101]}),
        json!({"query": "x", "libraryIds": [0]}),
        json!({"query": "x", "itemRefs": [{"libraryId": 1, "key": "AB-CD"}]}),
        json!({"query": "x", "collectionRef": {"libraryId": 1}}),
        json!({"query": "x", "tag": ""}),
        json!({"query": "x", "itemType": "t".repeat(65)}),
        json!({"query": "x", "sourceKinds": ["web"]}),
        json!({"query": "x", "sourceKinds": ["metadata", "fulltext", "analysis", "metadata"]}),
    ] {
        assert_eq!(
            refused("synthesis.searchEvidence", request.clone()),
            invalid,
            "{request}"
        );
    }
    // The search contract's refs are keys of 1 to 64 letters and digits.
    let wide = json!({"query": "x", "limit": 100, "maxResults": 100,
        "itemRefs": [{"libraryId": 1, "key": "ABCDEFGHIJ"}], "sourceKinds": []});
    assert_eq!(refused("synthesis.searchEvidence", wide).0, "ok");
    // A topic search has sections, not a library scope.
    assert_eq!(
        refused(
            "synthesis.topics.search",
            json!({"query": "x", "libraryIds": [1]})
        ),
        invalid
    );
    assert_eq!(
        refused(
            "synthesis.topics.search",
            json!({"query": "x", "sections": [""]})
        ),
        invalid
    );
    assert_eq!(refused("synthesis.topics.search", json!(["x"])), invalid);
}

/// The traversal ending a callback returns after visiting the library whole.
fn traverse(host: &mut HookHost, input: Value) -> Value {
    let plan = host
        .call("library.traverseItems", json!([input, {}, null]), None)
        .unwrap();
    plan["result"].clone()
}

/// An entry the writer accepts for `key`.
fn entry(key: &str, tags: Value, evaluation: Value) -> Value {
    json!({"target": {"libraryId": 1, "itemKey": key}, "auditedRevision": "r1",
        "auditedTagDigest": "d1", "auditedTags": tags, "evaluation": evaluation})
}

fn compliant(key: &str) -> Value {
    entry(key, json!([]), json!({"state": "compliant"}))
}

/// Begins a run of library 1 and answers its finish token.
fn begin(host: &mut HookHost) -> String {
    let plan = host
        .call(
            AUDIT,
            json!([{"libraryId": 1, "vocabularyHash": "v1"}, {}, null]),
            None,
        )
        .unwrap();
    assert_eq!(plan["returns"], "finish");
    plan["finish"].as_str().unwrap().to_string()
}

fn append(host: &mut HookHost, token: &str, entries: Value) -> Result<Value, HostError> {
    host.call(&format!("{AUDIT}#append"), json!([token, entries]), None)
}

fn finish(host: &mut HookHost, token: &str, returned: Value) -> Value {
    host.call(
        &format!("{AUDIT}#finish"),
        json!([token, {"returned": returned}]),
        None,
    )
    .unwrap()
}

#[test]
fn an_audit_run_records_its_appends_and_publishes_a_whole_traversal() {
    let mut host = host();
    let token = begin(&mut host);
    let ending = traverse(&mut host, json!({"scope": "top-level-regular"}));
    let flagged = entry(
        "PAPER001",
        json!(["a", "b"]),
        json!({"state": "needs_regulation", "nonCompliantTags": ["b"]}),
    );
    append(&mut host, &token, json!([flagged])).unwrap();
    append(&mut host, &token, json!([compliant("PAPER002")])).unwrap();
    let published = finish(&mut host, &token, ending.clone());
    assert_eq!(published["outcome"], "published", "{published}");
    let snapshot = &published["snapshot"];
    assert_eq!(snapshot["auditedItems"], 2);
    assert_eq!(snapshot["needsRegulation"], 1);
    assert_eq!(snapshot["vocabularyHash"], "v1");
    assert_eq!(
        snapshot["coverageDigest"],
        ending["completionEvidence"]["coverageDigest"]
    );
    let effects = host.take_effects();
    let calls: Vec<(&str, Value)> = effects
        .iter()
        .map(|e| (e.call.as_str(), e.result.clone()))
        .collect();
    assert_eq!(
        calls,
        [
            (AUDIT, json!({"outcome": "appended", "stagedItems": 1})),
            (AUDIT, json!({"outcome": "appended", "stagedItems": 2})),
            (AUDIT, published.clone()),
        ]
    );
    assert_eq!(effects[1].args[1]["sequence"], 1);
    // The run has ended: its writer appends no more.
    let (code, details) = reply_code(&append(&mut host, &token, json!([])));
    assert_eq!(
        (code.as_str(), details),
        ("conflict", json!({"reason": "ambiguous_state"}))
    );
}

#[test]
fn a_run_conflicts_unless_it_audited_one_whole_unfiltered_traversal_once() {
    let mut host = host();
    // Fewer entries than the traversal visited.
    let token = begin(&mut host);
    let ending = traverse(&mut host, json!({"scope": "top-level-regular"}));
    append(&mut host, &token, json!([compliant("PAPER001")])).unwrap();
    let short = finish(&mut host, &token, ending.clone());
    assert_eq!(
        short,
        json!({"outcome": "conflicted", "auditedItems": 1, "conflictCount": 1,
            "conflicts": [], "retryable": true})
    );
    // The evidence of a traversal is consumed by the run that settles with it.
    let again = begin(&mut host);
    append(
        &mut host,
        &again,
        json!([compliant("PAPER001"), compliant("PAPER002")]),
    )
    .unwrap();
    assert_eq!(finish(&mut host, &again, ending)["outcome"], "conflicted");
    // A filtered traversal proves nothing about the library.
    let filtered = begin(&mut host);
    let ending = traverse(
        &mut host,
        json!({"scope": "top-level-regular", "filter": "cats"}),
    );
    append(&mut host, &filtered, json!([compliant("PAPER001")])).unwrap();
    assert_eq!(
        finish(&mut host, &filtered, ending)["outcome"],
        "conflicted"
    );
}

#[test]
fn canceled_and_limited_traversals_end_the_run_without_publishing() {
    let mut host = host();
    let token = begin(&mut host);
    let canceled =
        json!({"outcome": "canceled", "libraryId": 1, "visitedItems": 0, "visitedBatches": 0});
    assert_eq!(
        finish(&mut host, &token, canceled),
        json!({"outcome": "canceled", "auditedItems": 0})
    );
    let token = begin(&mut host);
    let limited = traverse(
        &mut host,
        json!({"scope": "top-level-regular", "maxItems": 1}),
    );
    assert_eq!(limited["outcome"], "resource_limited", "{limited}");
    append(&mut host, &token, json!([compliant("PAPER001")])).unwrap();
    assert_eq!(
        finish(&mut host, &token, limited),
        json!({"outcome": "resource_limited", "auditedItems": 1, "limit": "items"})
    );
    // A callback that returned nothing fails the run as the facade maps a failure.
    let token = begin(&mut host);
    let reply = host.call(&format!("{AUDIT}#finish"), json!([token, {}]), None);
    assert_eq!(
        reply_code(&reply),
        (
            "execution_failed".into(),
            json!({"phase": "adapter", "recovery": "none"})
        )
    );
}

#[test]
fn the_writer_orders_and_bounds_audit_tags_as_the_contract_does() {
    let mut host = host();
    let token = begin(&mut host);
    let tags = |tags: Value| json!([entry("PAPER001", tags, json!({"state": "compliant"}))]);
    // Tags in ascending UTF-16 code-unit order, not by locale.
    append(
        &mut host,
        &token,
        tags(json!(["Zebra", "apple", "zeta", "état"])),
    )
    .unwrap();
    let first_tags = "tagAudit.entries[0].auditedTags";
    for refused in [
        json!(["état", "zeta"]),
        json!(["apple", "Zebra"]),
        json!(["a", "a"]),
    ] {
        assert_eq!(
            location(append(&mut host, &token, tags(refused))),
            first_tags
        );
    }
    let blank = append(&mut host, &token, tags(json!(["a", " "])));
    assert_eq!(location(blank), format!("{first_tags}[1]"));
}

/// The `details.location` of the contract error a refused append throws.
fn location(reply: Result<Value, HostError>) -> Value {
    let error = reply.unwrap_err();
    assert_eq!(
        (error.name.as_str(), &error.fields["code"]),
        ("SynthesisClientError", &json!("invalid_request"))
    );
    assert_eq!(error.message, "Tag audit input is invalid");
    error.fields["details"]["location"].clone()
}

#[test]
fn the_writer_checks_each_entry_s_members_and_its_library() {
    let mut host = host();
    let token = begin(&mut host);
    let stray = entry(
        "PAPER001",
        json!(["a"]),
        json!({"state": "needs_regulation", "nonCompliantTags": ["b"]}),
    );
    assert_eq!(
        location(append(&mut host, &token, json!([stray]))),
        "tagAudit.entries[0].evaluation.nonCompliantTags"
    );
    let mut extra = compliant("PAPER001");
    extra["note"] = json!("x");
    assert_eq!(
        location(append(&mut host, &token, json!([extra]))),
        "tagAudit.entries[0]"
    );
    let rows = json!(vec![compliant("PAPER001"); 501]);
    assert_eq!(
        location(append(&mut host, &token, rows)),
        "tagAudit.entries"
    );
    // An entry of another library is the facade's own refusal.
    let mut foreign = compliant("PAPER001");
    foreign["target"]["libraryId"] = json!(2);
    let reply = append(&mut host, &token, json!([foreign]));
    assert_eq!(
        reply.as_ref().unwrap_err().message,
        "Tag-audit entry targets a different library"
    );
    assert_eq!(
        reply_code(&reply),
        ("invalid_request".into(), json!({"reason": "invalid_value"}))
    );
    // Refused appends record nothing.
    assert!(host.take_effects().is_empty());
}

#[test]
fn the_fixture_decides_how_a_run_begins_and_what_it_publishes() {
    // A fixture error is the refused begin: the callback never runs.
    let mut refused = host_with(
        json!({AUDIT: [{"args": [{"libraryId": 1, "vocabularyHash": "v1"}],
        "error": {"code": "conflict", "message": "The Synthesis request conflicts with the current state",
            "details": {"reason": "operation_in_progress"}}}]}),
    );
    let reply = refused.call(
        AUDIT,
        json!([{"libraryId": 1, "vocabularyHash": "v1"}, {}, null]),
        None,
    );
    assert_eq!(
        reply_code(&reply),
        (
            "conflict".into(),
            json!({"reason": "operation_in_progress"})
        )
    );
    // A fixture answer is what a whole run publishes.
    let published = json!({"outcome": "published", "snapshot": {"auditedItems": 2}});
    let mut answered = host_with(json!({AUDIT: [{"args": [], "answer": published}]}));
    let token = begin(&mut answered);
    let ending = traverse(&mut answered, json!({"scope": "top-level-regular"}));
    append(
        &mut answered,
        &token,
        json!([compliant("PAPER001"), compliant("PAPER002")]),
    )
    .unwrap();
    assert_eq!(finish(&mut answered, &token, ending), published);
}

#[test]
fn a_run_needs_its_request_its_control_and_a_callback() {
    let mut host = host();
    let mut call = |args: Value| reply_code(&host.call(AUDIT, args, None));
    let invalid = (
        "invalid_request".to_string(),
        json!({"reason": "invalid_value"}),
    );
    let failed = (
        "execution_failed".to_string(),
        json!({"phase": "adapter", "recovery": "none"}),
    );
    assert_eq!(call(json!([{"libraryId": 1}, {}, null])), invalid);
    assert_eq!(
        call(json!([{"libraryId": 0, "vocabularyHash": "v"}, {}, null])),
        invalid
    );
    assert_eq!(
        call(json!([{"libraryId": 1, "vocabularyHash": "v", "runId": "r"}, {}, null])),
        invalid
    );
    let input = json!({"libraryId": 1, "vocabularyHash": "v"});
    assert_eq!(call(json!([input, null, null])), failed);
    assert_eq!(call(json!([input, {}, "not a function"])), failed);
}
