use serde_json::json;

use super::*;

fn params(schema: Value) -> Parameters {
    Parameters::from_manifest(&json!({ "parameters": schema })).unwrap_or_else(|e| panic!("{e}"))
}

fn input(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

fn kinds(n: &Normalized) -> Vec<(String, ParamWarningKind)> {
    n.warnings
        .iter()
        .map(|w| (w.parameter.clone(), w.kind))
        .collect()
}

#[test]
fn no_declared_parameters_pass_input_through() {
    let raw = input(json!({"anything": [1, {"a": 2}]}));
    let n = params(json!({})).normalize(&raw);
    assert_eq!(n.values, raw);
    assert!(n.warnings.is_empty());
}

#[test]
fn coercion_table() {
    let p = params(json!({
        "flag": {"type": "boolean"},
        "count": {"type": "number", "min": 1, "max": 10},
        "ratio": {"type": "number", "integer": true},
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "lang": {"type": "string", "enum": ["en", "de"], "default": "en"},
        "topic": {"type": "string", "enum": ["a"], "allowCustom": true},
        "level": {"type": "number", "enum": [1, 2]},
        "mode": {"type": "string", "enum": ["x"], "default": "bad"}
    }));
    let cases = [
        (json!({"flag": "YES"}), json!({"flag": true})),
        (json!({"flag": " on "}), json!({"flag": true})),
        (json!({"flag": "1"}), json!({"flag": true})),
        (json!({"flag": "nope"}), json!({"flag": false})),
        (json!({"flag": false}), json!({"flag": false})),
        (json!({"flag": 1}), json!({})),
        (json!({"count": "5"}), json!({"count": 5})),
        (json!({"count": " 2.5 "}), json!({"count": 2.5})),
        (json!({"count": 11}), json!({})),
        (json!({"count": "abc"}), json!({})),
        (json!({"count": ""}), json!({})),
        (json!({"count": "1e400"}), json!({})),
        (json!({"ratio": 1.5}), json!({"ratio": 1.5})),
        (json!({"name": 3}), json!({})),
        (json!({"name": ""}), json!({"name": ""})),
        (
            json!({"tags": [" a ", "", "b", 1, "a", null]}),
            json!({"tags": ["a", "b"]}),
        ),
        (json!({"tags": "a"}), json!({})),
        (json!({"lang": "fr"}), json!({"lang": "en"})),
        (json!({"lang": "de"}), json!({"lang": "de"})),
        (json!({"topic": "custom"}), json!({"topic": "custom"})),
        (json!({"level": 2.0}), json!({"level": 2.0})),
        (json!({"level": "3"}), json!({})),
        (json!({"mode": "y"}), json!({})),
        (
            json!({"lang": "de", "extra": 1, "flag": "true"}),
            json!({"flag": true, "lang": "de"}),
        ),
    ];
    for (raw, expected) in cases {
        let n = p.normalize(&input(raw.clone()));
        assert_eq!(Value::Object(n.values.clone()), expected, "{raw}");
    }
}

#[test]
fn values_follow_declaration_order() {
    let p = params(json!({"b": {"type": "string"}, "a": {"type": "string"}}));
    let n = p.normalize(&input(json!({"a": "1", "b": "2"})));
    assert_eq!(n.values.keys().collect::<Vec<_>>(), ["b", "a"]);
}

#[test]
fn warnings_name_what_happened() {
    let p = params(json!({
        "flag": {"type": "boolean"},
        "lang": {"type": "string", "enum": ["en"], "default": "en"},
        "n": {"type": "number"},
        "r": {"type": "number", "integer": true}
    }));
    let n = p.normalize(&input(
        json!({"flag": "yes", "lang": "xx", "n": {}, "r": 0.5, "zzz": 1}),
    ));
    assert_eq!(
        kinds(&n),
        [
            ("zzz".to_string(), ParamWarningKind::UndeclaredDropped),
            ("flag".to_string(), ParamWarningKind::Coerced),
            ("lang".to_string(), ParamWarningKind::ReplacedByDefault),
            ("n".to_string(), ParamWarningKind::Dropped),
            ("r".to_string(), ParamWarningKind::IntegerNotEnforced),
        ]
    );
    let json = serde_json::to_value(&n.warnings[0]).unwrap_or_default();
    assert_eq!(json["kind"], "undeclared-dropped");
}

#[test]
fn required_check_and_error_shape() {
    let p = params(json!({
        "a": {"type": "string", "required": true},
        "b": {"type": "array", "required": true},
        "c": {"type": "number", "required": true},
        "d": {"type": "string", "required": true, "visible_if": {"parameter": "advanced", "equals": true}},
        "advanced": {"type": "boolean", "default": false}
    }));
    let n = p.normalize(&input(json!({"a": "  ", "b": [], "c": 0})));
    assert_eq!(n.missing_required, ["a", "b"]);
    let err = n
        .check_required()
        .err()
        .unwrap_or_else(|| panic!("expected an error"));
    assert_eq!(
        err.to_string(),
        "Missing required workflow parameter(s): a, b"
    );
    assert_eq!(err.code(), "missing_required_workflow_parameter");
    let json = serde_json::to_value(&err).unwrap_or_default();
    assert_eq!(json["requiredFields"], json!(["a", "b"]));

    let n = p.normalize(&input(
        json!({"a": "x", "b": ["y"], "c": 1, "advanced": "on"}),
    ));
    assert_eq!(n.missing_required, ["d"]);
    let n = p.normalize(&input(
        json!({"a": "x", "b": ["y"], "c": 1, "advanced": true, "d": "z"}),
    ));
    assert!(n.check_required().is_ok());
}

#[test]
fn defaults_and_effective_values() {
    let p = params(
        json!({"a": {"type": "string", "default": "x"}, "b": {"type": "number"}, "c": {"type": "boolean", "default": true}}),
    );
    assert_eq!(Value::Object(p.defaults()), json!({"a": "x", "c": true}));
    let effective = p.effective(&input(json!({"c": false, "b": 2})));
    assert_eq!(
        Value::Object(effective),
        json!({"a": "x", "c": false, "b": 2})
    );
}

#[test]
fn typed_schema_reads_every_field() {
    let p = params(
        json!({"t": {"type": "string", "title": "T", "description": "D", "enum": ["a"], "allowCustom": true,
        "optionsSource": {"kind": "zotero.collections", "library": "current"}, "visible_if": {"parameter": "v", "equals": false}, "x-extra": 1}}),
    );
    let schema = p.get("t").cloned().unwrap_or_else(|| panic!("declared"));
    assert_eq!(schema.kind, ParamType::String);
    assert_eq!(schema.title.as_deref(), Some("T"));
    assert!(schema.allow_custom);
    assert_eq!(
        schema.visible_if,
        Some(VisibleIf {
            parameter: "v".into(),
            equals: false
        })
    );
    assert!(schema.options_source.is_some());
}
