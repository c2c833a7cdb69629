//! Members that need a person, as the reference's Workflow Host answers them:
//! refused without a person (and without looking at the request first) in a
//! non-interactive run; checked, answered and recorded in an interactive one.

use serde_json::{Value, json};

use super::super::{HookHost, HostSettings};
use crate::host::HostError;
use crate::host::answers::HostAnswers;
use crate::host::error::reply_code;
use crate::host::world::HostWorld;

fn host(interactive: bool, answers: Value) -> HookHost {
    let answers = HostAnswers {
        members: HostAnswers::parse_members(&answers).unwrap(),
        ..HostAnswers::default()
    };
    let mut host = HookHost::new(HostWorld::default(), answers).with_settings(HostSettings {
        interactive,
        ..HostSettings::default()
    });
    host.set_site("unit-1", "applyResult");
    host
}

fn interactive() -> HookHost {
    host(true, json!({}))
}

/// The error's name, code, message and details.
fn refusal(reply: Result<Value, HostError>) -> (String, String, String, Value) {
    let error = reply.unwrap_err();
    let (code, details) = reply_code(&Err(error.clone()));
    (error.name, code, error.message, details)
}

fn workflow(code: &str, message: &str, details: Value) -> (String, String, String, Value) {
    (
        "WorkflowHostError".into(),
        code.into(),
        message.into(),
        details,
    )
}

/// `(call, result, refused)` of each effect recorded so far.
fn recorded(host: &mut HookHost) -> Vec<(String, Value, bool)> {
    host.take_effects()
        .into_iter()
        .map(|e| (e.call, e.result, e.error.is_some()))
        .collect()
}

fn filters_limit(limit: usize, observed: usize) -> (String, String, String, Value) {
    workflow(
        "resource_limited",
        "Workflow file operation exceeds a fixed limit",
        json!({"resource": "selection", "limit": limit, "observed": observed}),
    )
}

#[test]
fn without_a_person_every_member_is_refused_before_its_request_is_read() {
    let mut host = host(
        false,
        json!({"file.pickFile": [{"args": [], "answer": "/a.md"}]}),
    );
    for (member, args) in [
        ("file.pickFile", json!([{"filters": 5}])),
        ("file.pickDirectory", json!([{"filters": [{}]}])),
        ("file.pickSaveFile", json!([])),
        ("file.pickFiles", json!([{"filters": 5}])),
        ("clipboard.readText", json!([])),
        ("clipboard.hasText", json!([])),
        ("clipboard.writeText", json!(["text"])),
        ("clipboard.clear", json!([])),
        ("editor.openSession", json!([null])),
        ("notifications.toast", json!([{"text": ""}])),
    ] {
        assert_eq!(
            refusal(host.call(member, args, None)),
            workflow(
                "interaction_required",
                &format!("{member} requires an interactive Workflow Host"),
                json!({"member": member})
            )
        );
    }
    for member in ["context.getSelectedItems", "context.getCurrentView"] {
        let (name, code, _, details) = refusal(host.call(member, json!([]), None));
        assert_eq!(
            (name.as_str(), code.as_str(), details),
            (
                "ZoteroHostCapabilityError",
                "interaction_required",
                json!({"member": member})
            )
        );
    }
    // Only the refused toast is recorded: the reference logs its denial.
    assert_eq!(
        recorded(&mut host),
        [("notifications.toast".into(), Value::Null, true)]
    );
}

#[test]
fn clipboard_text_is_checked_before_the_person_in_either_mode() {
    for interactive in [false, true] {
        let mut host = host(interactive, json!({}));
        assert_eq!(
            refusal(host.call("clipboard.writeText", json!([5]), None)),
            workflow(
                "invalid_request",
                "Clipboard text must be a string",
                json!({"reason": "invalid_type", "field": "text"})
            )
        );
        let big = "é".repeat(8 * 1024 * 1024 + 1);
        assert_eq!(
            refusal(host.call("clipboard.writeText", json!([big]), None)),
            workflow(
                "resource_limited",
                "Clipboard text exceeds the byte limit",
                json!({"resource": "bytes", "limit": 16_777_216, "observed": 16_777_218})
            )
        );
        assert!(host.take_effects().is_empty());
    }
}

#[test]
fn picker_filters_are_checked_as_the_reference_checks_them() {
    let mut host = interactive();
    let invalid_type = workflow(
        "invalid_request",
        "Workflow picker filters must be an array",
        json!({"reason": "invalid_type", "field": "filters"}),
    );
    let incomplete = workflow(
        "invalid_request",
        "Workflow picker filters require a label and extensions",
        json!({"reason": "invalid_value", "field": "filters"}),
    );
    let group = |i: usize| json!({"label": format!("group-{i}"), "extensions": ["md"]});
    let groups = |n: usize| Value::Array((0..n).map(group).collect());
    let extensions = |n: usize| Value::Array((0..n).map(|i| json!(format!("e{i}"))).collect());
    for (filters, expected) in [
        (json!(5), invalid_type.clone()),
        (json!(null), invalid_type),
        (groups(33), filters_limit(32, 33)),
        (
            json!([{"label": "many", "extensions": extensions(65)}]),
            filters_limit(64, 65),
        ),
        (
            json!([{"label": "", "extensions": ["md"]}]),
            incomplete.clone(),
        ),
        (
            json!([{"label": "  ", "extensions": ["md"]}]),
            incomplete.clone(),
        ),
        (
            json!([{"label": "Markdown", "extensions": []}]),
            incomplete.clone(),
        ),
        (json!([{"label": "Markdown"}]), incomplete.clone()),
        (
            json!([{"label": "Dots", "extensions": ["*.", ".", " ", null, 0]}]),
            incomplete.clone(),
        ),
        (json!([null]), incomplete),
    ] {
        for member in ["file.pickFile", "file.pickFiles"] {
            let args = json!([{"filters": filters.clone()}]);
            assert_eq!(
                refusal(host.call(member, args, None)),
                expected,
                "{filters}"
            );
        }
    }
    // Within the bounds (extensions counted once normalised) the person is asked:
    // with no answer in the fixture, the stand-in's `unavailable`.
    let mut padded = extensions(64);
    padded
        .as_array_mut()
        .unwrap()
        .extend([json!(""), json!("*.")]);
    for filters in [
        groups(32),
        json!([{"label": "many", "extensions": padded}]),
        json!([{"label": 7, "extensions": ["*.md", ".png", "*"]}]),
    ] {
        let reply = host.call("file.pickFile", json!([{"filters": filters}]), None);
        assert_eq!(reply_code(&reply).0, "unavailable");
    }
}

#[test]
fn pickers_answer_the_fixture_cancel_and_an_empty_selection_apart() {
    let digest =
        json!({"title": "Digest", "filters": [{"label": "Markdown", "extensions": ["md"]}]});
    let mut host = host(
        true,
        json!({
            "file.pickFile": [{"args": [digest], "answer": "/imports/digest.md"},
                              {"args": [], "answer": null}],
            "file.pickFiles": [{"args": [{"title": "none"}], "answer": []},
                               {"args": [], "answer": null}],
            "file.pickSaveFile": [{"args": [], "answer": null}]
        }),
    );
    let call = |host: &mut HookHost, member: &str, args: Value| host.call(member, args, None);
    assert_eq!(
        call(&mut host, "file.pickFile", json!([digest])).unwrap(),
        "/imports/digest.md"
    );
    assert_eq!(
        call(&mut host, "file.pickFile", json!([{"title": "Other"}])).unwrap(),
        Value::Null
    );
    assert_eq!(
        call(&mut host, "file.pickFiles", json!([{"title": "none"}])).unwrap(),
        json!([])
    );
    assert_eq!(
        call(&mut host, "file.pickFiles", json!([])).unwrap(),
        Value::Null
    );
    let save = json!([{"suggestedName": "bundle.zip"}]);
    assert_eq!(
        call(&mut host, "file.pickSaveFile", save).unwrap(),
        Value::Null
    );
    assert!(host.take_effects().is_empty(), "a picker changes nothing");
}

#[test]
fn toasts_are_checked_recorded_and_limited_to_five_visible_per_caller() {
    let mut host = interactive();
    let invalid = |field: &str| {
        workflow(
            "invalid_request",
            "Workflow toast request is invalid",
            json!({"reason": "invalid_value", "field": field}),
        )
    };
    for (input, expected) in [
        (json!({"text": "hi", "type": "warning"}), invalid("type")),
        (json!({"text": "hi", "type": 1}), invalid("type")),
        (json!({"text": " \n\u{feff}"}), invalid("text")),
        (json!({"text": 5}), invalid("text")),
        (json!({"type": "warning"}), invalid("text")),
        (json!(null), invalid("text")),
        (
            json!({"text": "x".repeat(4097)}),
            workflow(
                "resource_limited",
                "Workflow toast text exceeds the character limit",
                json!({"resource": "characters", "limit": 4096, "observed": 4097}),
            ),
        ),
    ] {
        assert_eq!(
            refusal(host.call("notifications.toast", json!([input]), None)),
            expected
        );
    }
    let shown = [
        json!({"text": "x".repeat(4096)}),
        json!({"text": " done ", "type": "success"}),
        json!({"text": "failed", "type": "error"}),
        json!({"text": "plain", "type": null}),
        json!({"text": "fifth", "extra": true}),
    ];
    for input in &shown {
        let reply = host.call("notifications.toast", json!([input]), None);
        assert_eq!(reply.unwrap(), Value::Null);
    }
    assert_eq!(
        refusal(host.call("notifications.toast", json!([{"text": "sixth"}]), None)),
        workflow(
            "resource_limited",
            "Workflow caller already has five visible toasts",
            json!({"resource": "entries", "limit": 5, "observed": 5})
        )
    );
    let toasts: Vec<_> = recorded(&mut host);
    assert_eq!(toasts.len(), 5, "refused toasts are not recorded");
    assert!(
        toasts
            .iter()
            .all(|t| t == &("notifications.toast".into(), Value::Null, false))
    );
    // The next hook call is another caller.
    host.set_site("unit-1", "applyResult");
    assert!(
        host.call("notifications.toast", json!([{"text": "again"}]), None)
            .is_ok()
    );
}

#[test]
fn the_clipboard_is_the_runs_and_its_writes_are_recorded() {
    let mut host = interactive();
    let unknown = host.call("clipboard.readText", json!([]), None);
    assert_eq!(
        reply_code(&unknown).0,
        "unavailable",
        "nothing written, no answer"
    );
    let mut call = |member: &str, args: Value| host.call(member, args, None).unwrap();
    assert_eq!(call("clipboard.writeText", json!(["x"])), Value::Null);
    assert_eq!(call("clipboard.readText", json!([])), "x");
    assert_eq!(call("clipboard.hasText", json!([])), true);
    assert_eq!(call("clipboard.clear", json!([])), Value::Null);
    assert_eq!(call("clipboard.hasText", json!([])), false);
    assert_eq!(call("clipboard.readText", json!([])), Value::Null);
    // Empty text is text.
    call("clipboard.writeText", json!([""]));
    assert_eq!(call("clipboard.hasText", json!([])), true);
    assert_eq!(call("clipboard.readText", json!([])), "");
    assert_eq!(
        recorded(&mut host),
        [
            ("clipboard.writeText".into(), Value::Null, false),
            ("clipboard.clear".into(), Value::Null, false),
            ("clipboard.writeText".into(), Value::Null, false),
        ]
    );
    // Another thread of the run starts from what the clipboard holds.
    let mut fork = host.fork(100);
    assert_eq!(
        fork.call("clipboard.readText", json!([]), None).unwrap(),
        ""
    );
}

#[test]
fn the_fixture_says_what_the_clipboard_holds_first_and_may_refuse_a_write() {
    let mut host = host(
        true,
        json!({
            "clipboard.readText": [{"args": [], "answer": "seed"}],
            "clipboard.writeText": [{"args": ["locked"],
                "error": {"code": "unavailable", "message": "Clipboard adapter is unavailable",
                          "details": {"reason": "adapter"}}}]
        }),
    );
    let mut call = |member: &str, args: Value| host.call(member, args, None);
    assert_eq!(call("clipboard.readText", json!([])).unwrap(), "seed");
    assert_eq!(call("clipboard.hasText", json!([])).unwrap(), true);
    let refused = call("clipboard.writeText", json!(["locked"]));
    assert_eq!(
        refusal(refused),
        workflow(
            "unavailable",
            "Clipboard adapter is unavailable",
            json!({"reason": "adapter"})
        )
    );
    assert_eq!(call("clipboard.readText", json!([])).unwrap(), "seed");
    assert_eq!(
        recorded(&mut host),
        [("clipboard.writeText".into(), Value::Null, true)]
    );
    let mut empty = host_with_clipboard(Value::Null);
    assert_eq!(
        empty.call("clipboard.hasText", json!([]), None).unwrap(),
        false
    );
    assert_eq!(
        empty.call("clipboard.readText", json!([]), None).unwrap(),
        Value::Null
    );
}

fn host_with_clipboard(text: Value) -> HookHost {
    host(
        true,
        json!({"clipboard.readText": [{"args": [], "answer": text}]}),
    )
}

/// A value nested `levels` deep: `levels` arrays around a scalar.
fn nested(levels: usize) -> Value {
    (0..levels).fold(json!(1), |inner, _| json!([inner]))
}

#[test]
fn editor_values_must_be_bounded_strict_json() {
    let session = json!({"saved": true, "result": {"ok": true}, "actionId": "save"});
    let mut host = host(
        true,
        json!({"editor.openSession": [
            {"args": [{"title": "deep result", "initialState": {}}],
             "answer": {"saved": true, "result": nested(17)}},
            {"args": [], "answer": session}
        ]}),
    );
    let invalid = |field: &str| {
        workflow(
            "invalid_request",
            &format!("Workflow editor {field} must be bounded strict JSON"),
            json!({"reason": "invalid_schema", "field": field}),
        )
    };
    let long = "x".repeat(256_001);
    let wide = Value::Array(vec![json!(0); 10_001]);
    let long_key = Value::Object([(long.clone(), json!(1))].into_iter().collect());
    for (input, expected) in [
        (json!({"initialState": nested(17)}), invalid("initialState")),
        (json!({"title": "no state"}), invalid("initialState")),
        (json!("state"), invalid("initialState")),
        (
            json!({"initialState": {"text": long}}),
            invalid("initialState"),
        ),
        (json!({"initialState": long_key}), invalid("initialState")),
        (json!({"initialState": wide}), invalid("initialState")),
        (
            json!({"initialState": {}, "context": nested(17)}),
            invalid("context"),
        ),
        (
            json!({"initialState": nested(17), "context": nested(17)}),
            invalid("initialState"),
        ),
    ] {
        let reply = host.call("editor.openSession", json!([input]), None);
        assert_eq!(refusal(reply), expected);
    }
    assert!(
        host.take_effects().is_empty(),
        "refused before a session opens"
    );
    let deep = host.call(
        "editor.openSession",
        json!([{"title": "deep result", "initialState": {}}]),
        None,
    );
    assert_eq!(refusal(deep), invalid("result"));
    let input = json!({"title": "Edit", "initialState": nested(16), "context": null});
    let answered = host
        .call("editor.openSession", json!([input]), None)
        .unwrap();
    assert_eq!(answered, session);
    assert_eq!(
        recorded(&mut host),
        [
            ("editor.openSession".into(), Value::Null, true),
            ("editor.openSession".into(), session, false)
        ]
    );
}

#[test]
fn an_editor_session_without_input_is_a_type_error() {
    let mut host = interactive();
    for (args, what) in [(json!([null]), "null"), (json!([]), "undefined")] {
        let error = host.call("editor.openSession", args, None).unwrap_err();
        assert_eq!(
            (error.name.as_str(), error.message),
            (
                "TypeError",
                format!("Cannot read properties of {what} (reading 'initialState')")
            )
        );
    }
}
