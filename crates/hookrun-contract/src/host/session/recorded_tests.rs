//! Members answered from the fixture that change something on the reference
//! host: recorded as effects, `researchBundles.importPapers` idempotent by its
//! `operationId`.

use serde_json::{Value, json};

use super::super::HookHost;
use crate::host::answers::HostAnswers;
use crate::host::api::{Answer, host_api};
use crate::host::error::reply_code;
use crate::host::world::HostWorld;

const IMPORT: &str = "researchBundles.importPapers";

fn host_with(answers: Value) -> HookHost {
    let members = HostAnswers::parse_members(&answers).unwrap();
    let answers = HostAnswers {
        members,
        ..HostAnswers::default()
    };
    HookHost::new(HostWorld::default(), answers)
}

fn recorded(host: &mut HookHost) -> Vec<(String, Value, bool)> {
    host.take_effects()
        .into_iter()
        .map(|e| (e.call, e.result, e.error.is_some()))
        .collect()
}

#[test]
fn only_members_answered_by_the_fixture_or_a_person_record() {
    let recording: Vec<&str> = host_api()
        .members()
        .filter(|(_, d)| d.records)
        .map(|(name, d)| {
            assert!(
                matches!(d.answer, Answer::Fixture | Answer::Person),
                "{name}"
            );
            name
        })
        .collect();
    for name in [
        IMPORT,
        "resources.publishOutput",
        "synthesis.tags.saveVocabulary",
        "synthesis.workflowApply.applyTopicPlan",
        "clipboard.writeText",
        "editor.openSession",
    ] {
        assert!(recording.contains(&name), "{name}");
    }
    for read in [
        "synthesis.tags.loadVocabulary",
        "researchBundles.materializePapers",
        "clipboard.readText",
        "resources.getInput",
    ] {
        assert!(!recording.contains(&read), "{read}");
    }
}

#[test]
fn answered_writes_are_recorded_and_reads_are_not() {
    let mut host = host_with(json!({
        "resources.publishOutput": [{"args": [{"outputId": "o"}], "answer": {"published": true}}],
        "synthesis.tags.saveVocabulary": [{"args": [], "answer": {"saved": 1}}],
        "synthesis.workflowApply.applyTopicPlan": [{"args": [], "answer": {"applied": true}}],
        "synthesis.tags.loadVocabulary": [{"args": [], "answer": {"tags": []}}]
    }));
    for (member, args) in [
        ("resources.publishOutput", json!([{"outputId": "o"}])),
        ("synthesis.tags.saveVocabulary", json!([{"tags": []}])),
        ("synthesis.workflowApply.applyTopicPlan", json!([{}])),
        ("synthesis.tags.loadVocabulary", json!([])),
    ] {
        host.call(member, args, None).unwrap();
    }
    assert_eq!(
        recorded(&mut host),
        [
            (
                "resources.publishOutput".into(),
                json!({"published": true}),
                false
            ),
            (
                "synthesis.tags.saveVocabulary".into(),
                json!({"saved": 1}),
                false
            ),
            (
                "synthesis.workflowApply.applyTopicPlan".into(),
                json!({"applied": true}),
                false
            ),
        ]
    );
}

#[test]
fn an_unanswered_write_is_refused_and_recorded_as_changing_nothing() {
    let mut host = host_with(json!({}));
    let reply = host.call(
        IMPORT,
        json!([{"operationId": "imp-1", "papers": []}]),
        None,
    );
    assert_eq!(
        reply_code(&reply),
        (
            "unavailable".into(),
            json!({"reason": "runtime", "kind": "resource"})
        )
    );
    let effects = host.take_effects();
    assert_eq!(effects.len(), 1);
    assert_eq!(effects[0].error.as_ref().unwrap()["code"], "unavailable");
    assert_eq!(effects[0].result, Value::Null);
}

#[test]
fn import_papers_replays_a_repeat_and_refuses_another_request_under_its_id() {
    let answer =
        json!({"schema": "zotero-agents.research-import.v1", "papers": [{"outcome": "committed"}]});
    let first = json!([{"operationId": "imp-1", "papers": [{"title": "A"}]}]);
    let mut host = host_with(json!({IMPORT: [{"args": [], "answer": answer}]}));
    assert_eq!(host.call(IMPORT, first.clone(), None).unwrap(), answer);
    assert_eq!(host.call(IMPORT, first, None).unwrap(), answer);
    let other = json!([{"operationId": "imp-1", "papers": [{"title": "B"}]}]);
    let reply = host.call(IMPORT, other, None);
    assert_eq!(reply_code(&reply).0, "conflict");
    assert_eq!(
        recorded(&mut host),
        [
            (IMPORT.into(), answer, false),
            (IMPORT.into(), Value::Null, true)
        ]
    );
    let blank = host.call(IMPORT, json!([{"operationId": " ", "papers": []}]), None);
    let error = blank.unwrap_err();
    assert_eq!(
        error.message,
        "operationId must contain between 1 and 128 characters"
    );
    assert!(host.take_effects().is_empty());
}
