//! Workflow parameters after the reference host's settings domain suite
//! (`tests/workflows/49-workflow-settings-domain.test.ts`): string lists keep
//! their non-Latin values, a required parameter given `false` or `0` is given,
//! and a required parameter counts only while its visibility condition holds.

use serde_json::{Map, Value, json};

use super::Parameters;

fn params(schema: Value) -> Parameters {
    Parameters::from_manifest(&json!({ "parameters": schema })).unwrap_or_else(|e| panic!("{e}"))
}

fn input(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[test]
fn a_string_list_is_trimmed_and_deduplicated_keeping_non_latin_values() {
    let p = params(
        json!({"languageHints": {"type": "array", "items": {"type": "string"}, "default": []}}),
    );
    let n = p.normalize(&input(
        json!({"languageHints": [" zh-CN ", "日本語", "zh-CN", 42]}),
    ));
    assert_eq!(n.values["languageHints"], json!(["zh-CN", "日本語"]));
}

#[test]
fn false_and_zero_satisfy_a_required_parameter_and_blank_text_does_not() {
    let p = params(json!({
        "scope": {"type": "string", "required": true},
        "enabled": {"type": "boolean", "required": true},
        "count": {"type": "number", "required": true},
        "optional": {"type": "string"}
    }));
    let n = p.normalize(&input(
        json!({"scope": "   ", "enabled": false, "count": 0}),
    ));
    assert_eq!(n.missing_required, ["scope"]);
    let error = n
        .check_required()
        .err()
        .unwrap_or_else(|| panic!("scope is missing"));
    assert_eq!(
        error.to_string(),
        "Missing required workflow parameter(s): scope"
    );
    let n = p.normalize(&input(
        json!({"scope": "research scope", "enabled": false, "count": 0}),
    ));
    assert!(n.check_required().is_ok());
}

#[test]
fn a_required_parameter_counts_only_while_it_is_visible() {
    let p = params(json!({
        "usePlannedTopic": {"type": "boolean", "required": true, "default": true},
        "plannedTopicId": {"type": "string", "required": true,
            "visible_if": {"parameter": "usePlannedTopic", "equals": true}},
        "topicSeed": {"type": "string", "required": true,
            "visible_if": {"parameter": "usePlannedTopic", "equals": false}}
    }));
    for (given, missing) in [
        (json!({"usePlannedTopic": true}), vec!["plannedTopicId"]),
        (json!({"usePlannedTopic": false}), vec!["topicSeed"]),
        (
            json!({"usePlannedTopic": true, "plannedTopicId": "topic:planned"}),
            vec![],
        ),
    ] {
        assert_eq!(
            p.normalize(&input(given.clone())).missing_required,
            missing,
            "{given}"
        );
    }
}
