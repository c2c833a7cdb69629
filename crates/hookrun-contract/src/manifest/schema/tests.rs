use serde_json::{Value, json};

use super::*;
use crate::manifest::test_support::{base, edited, editor_schema};

/// `(edits, expected "<pointer> <text>" message, expected pointer)`.
type Case = (
    Vec<(&'static str, Option<Value>)>,
    &'static str,
    &'static str,
);

fn set(pointer: &'static str, value: Value) -> (&'static str, Option<Value>) {
    (pointer, Some(value))
}

fn unset(pointer: &'static str) -> (&'static str, Option<Value>) {
    (pointer, None)
}

fn assert_cases(cases: Vec<Case>) {
    for (edits, message, pointer) in cases {
        let manifest = edited(&edits);
        let errors = validate_manifest(&manifest);
        let found = errors
            .iter()
            .find(|d| d.message == message)
            .unwrap_or_else(|| panic!("expected {message:?}, got {errors:#?}"));
        assert_eq!(found.pointer.as_deref(), Some(pointer), "{message}");
        assert_eq!(found.category.as_str(), "manifest_validation_error");
        assert_editor_rejects(&manifest, message, pointer);
    }
}

/// Rules JSON Schema has no words for: comparing one member with another.
const EDITOR_CANNOT_EXPRESS: &[&str] = &["/parameters/x/min must be <= 1 (the value of max)"];

/// The editor schema refuses what the Rust validator refuses, at the same place
/// or at an object above it (a missing member is the object's error there).
fn assert_editor_rejects(manifest: &Value, message: &str, pointer: &str) {
    let places: Vec<String> = editor_schema()
        .iter_errors(manifest)
        .map(|e| e.instance_path().to_string())
        .collect();
    let pointer = if pointer == "/" { "" } else { pointer };
    let above = |place: &String| {
        pointer == place
            || pointer
                .strip_prefix(place.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    };
    assert!(
        places.iter().any(above) || EDITOR_CANNOT_EXPRESS.contains(&message),
        "the editor schema accepts what the validator refuses with {message:?} (its errors: {places:?})"
    );
}

#[test]
fn base_manifest_is_valid() {
    assert_eq!(validate_manifest(&base()), vec![]);
}

#[test]
fn root_must_be_object() {
    let errors = validate_manifest(&json!([1]));
    assert_eq!(errors[0].message, "/ must be object");
    assert_eq!(errors[0].pointer.as_deref(), Some("/"));
}

#[test]
fn every_error_is_collected() {
    let manifest = edited(&[
        unset("/id"),
        set("/backend", json!("x")),
        set("/trigger/requiresSelection", json!(1)),
        set("/execution/mode", json!("auto")),
    ]);
    let messages: Vec<String> = validate_manifest(&manifest)
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert_eq!(
        messages,
        [
            "/ missing required property \"id\"",
            "/backend uses deprecated field",
            "/trigger/requiresSelection must be boolean",
            "/execution unexpected property \"mode\"",
        ]
    );
}

#[test]
fn top_level_rules() {
    let mut cases: Vec<Case> = Vec::new();
    for (pointer, name) in [
        (
            "/schemaVersion",
            "/ missing required property \"schemaVersion\"",
        ),
        ("/id", "/ missing required property \"id\""),
        ("/label", "/ missing required property \"label\""),
        ("/provider", "/ missing required property \"provider\""),
        ("/trigger", "/ missing required property \"trigger\""),
        ("/inputs", "/ missing required property \"inputs\""),
        (
            "/validateSelection",
            "/ missing required property \"validateSelection\"",
        ),
        ("/hooks", "/ missing required property \"hooks\""),
    ] {
        cases.push((vec![unset(pointer)], name, "/"));
    }
    cases.extend([
        (vec![set("/schemaVersion", json!(1))], "/schemaVersion must be equal to constant 2", "/schemaVersion"),
        (vec![set("/schemaVersion", json!("2"))], "/schemaVersion must be equal to constant 2", "/schemaVersion"),
        (vec![set("/id", json!(""))], "/id must NOT have fewer than 1 characters", "/id"),
        (vec![set("/label", json!(5))], "/label must be string", "/label"),
        (vec![set("/provider", json!(""))], "/provider must NOT have fewer than 1 characters", "/provider"),
        (vec![set("/description", json!(""))], "/description must NOT have fewer than 1 characters", "/description"),
        (vec![set("/version", json!(1))], "/version must be string", "/version"),
        (vec![set("/taskNameTemplate", json!(""))], "/taskNameTemplate must NOT have fewer than 1 characters", "/taskNameTemplate"),
        (vec![set("/backend", json!({"type": "skillrunner"}))], "/backend uses deprecated field", "/backend"),
        (vec![set("/defaults", json!({}))], "/defaults uses deprecated field", "/defaults"),
        (vec![set("/debug_only", json!("true"))], "/debug_only must be boolean", "/debug_only"),
        (vec![set("/trigger", json!({}))], "/trigger missing required property \"requiresSelection\"", "/trigger"),
        (vec![set("/trigger/extra", json!(1))], "/trigger unexpected property \"extra\"", "/trigger"),
        (vec![set("/trigger/requiresSelection", json!("yes"))], "/trigger/requiresSelection must be boolean", "/trigger/requiresSelection"),
        (vec![set("/trigger", json!(true))], "/trigger must be object", "/trigger"),
        (vec![unset("/hooks/applyResult")], "/hooks missing required property \"applyResult\"", "/hooks"),
        (vec![set("/hooks/filterInputs", json!("f.mjs"))], "/hooks unexpected property \"filterInputs\"", "/hooks"),
        (vec![set("/hooks/preflight", json!(""))], "/hooks/preflight must NOT have fewer than 1 characters", "/hooks/preflight"),
        (vec![set("/hooks/normalizeSettings", json!(1))], "/hooks/normalizeSettings must be string", "/hooks/normalizeSettings"),
        (vec![set("/executionModes", json!([]))], "/executionModes must NOT have fewer than 1 items", "/executionModes"),
        (vec![set("/executionModes", json!(["auto", "auto"]))], "/executionModes must NOT have duplicate items (items ## 1 and 0 are identical)", "/executionModes"),
        (vec![set("/executionModes", json!(["manual"]))], "/executionModes/0 must be equal to one of the allowed values: auto, interactive", "/executionModes/0"),
        (vec![set("/supportedInvocationModes", json!(["non_interactive"]))], "/supportedInvocationModes/0 must be equal to one of the allowed values: interactive, non-interactive", "/supportedInvocationModes/0"),
        (vec![set("/supportedInvocationModes", json!("interactive"))], "/supportedInvocationModes must be array", "/supportedInvocationModes"),
    ]);
    assert_cases(cases);
}

#[test]
fn open_top_level_tolerates_unknown_keys() {
    assert_eq!(
        validate_manifest(&edited(&[set("/x-custom", json!({"a": 1}))])),
        vec![]
    );
}

#[test]
fn inputs_and_selection_rules() {
    let counts = "/validateSelection/require/selection/counts";
    assert_cases(vec![
        (
            vec![set("/inputs/unit", json!("parent"))],
            "/inputs unexpected property \"unit\"",
            "/inputs",
        ),
        (
            vec![set("/inputs/per_parent", json!(true))],
            "/inputs unexpected property \"per_parent\"",
            "/inputs",
        ),
        (
            vec![unset("/inputs/grouping")],
            "/inputs missing required property \"grouping\"",
            "/inputs",
        ),
        (
            vec![set("/inputs/member/kind", json!("item"))],
            "/inputs/member/kind must be equal to one of the allowed values: selection, parent, child, attachment, note, generated-note, digest-image-target",
            "/inputs/member/kind",
        ),
        (
            vec![set("/inputs/member", json!({}))],
            "/inputs/member missing required property \"kind\"",
            "/inputs/member",
        ),
        (
            vec![set("/inputs/member/extra", json!(1))],
            "/inputs/member unexpected property \"extra\"",
            "/inputs/member",
        ),
        (
            vec![set("/inputs/member/accepts", json!({"mime": []}))],
            "/inputs/member/accepts/mime must NOT have fewer than 1 items",
            "/inputs/member/accepts/mime",
        ),
        (
            vec![set(
                "/inputs/member/accepts",
                json!({"mime": ["a/b", "a/b"]}),
            )],
            "/inputs/member/accepts/mime must NOT have duplicate items (items ## 1 and 0 are identical)",
            "/inputs/member/accepts/mime",
        ),
        (
            vec![set("/inputs/member/accepts", json!({"mime": [""]}))],
            "/inputs/member/accepts/mime/0 must NOT have fewer than 1 characters",
            "/inputs/member/accepts/mime/0",
        ),
        (
            vec![set("/inputs/member/accepts", json!({"types": ["a/b"]}))],
            "/inputs/member/accepts unexpected property \"types\"",
            "/inputs/member/accepts",
        ),
        (
            vec![set("/inputs/grouping/mode", json!("batch"))],
            "/inputs/grouping/mode must be equal to one of the allowed values: each, all, parent",
            "/inputs/grouping/mode",
        ),
        (
            vec![set("/inputs/grouping", json!({}))],
            "/inputs/grouping missing required property \"mode\"",
            "/inputs/grouping",
        ),
        (
            vec![set("/validateSelection/exclude", json!([]))],
            "/validateSelection unexpected property \"exclude\"",
            "/validateSelection",
        ),
        (
            vec![unset("/validateSelection/filters")],
            "/validateSelection missing required property \"filters\"",
            "/validateSelection",
        ),
        (
            vec![unset("/validateSelection/select")],
            "/validateSelection missing required property \"select\"",
            "/validateSelection",
        ),
        (
            vec![set("/validateSelection/select", json!({}))],
            "/validateSelection/select missing required property \"policy\"",
            "/validateSelection/select",
        ),
        (
            vec![set("/validateSelection/select", json!({"policy": "all"}))],
            "/validateSelection/select/policy must be equal to one of the allowed values: input-member, selection, literature-source, generated-note-candidates, digest-representative-image",
            "/validateSelection/select/policy",
        ),
        (
            vec![set(
                "/validateSelection/select",
                json!({"policy": "input-member"}),
            )],
            "/validateSelection/select missing required property \"source\"",
            "/validateSelection/select",
        ),
        (
            vec![set("/validateSelection/select/source", json!("all"))],
            "/validateSelection/select/source must be equal to one of the allowed values: selected, related",
            "/validateSelection/select/source",
        ),
        (
            vec![set(
                "/validateSelection/select",
                json!({"policy": "selection", "source": "selected"}),
            )],
            "/validateSelection/select unexpected property \"source\"",
            "/validateSelection/select",
        ),
        (
            vec![set("/validateSelection/require/extra", json!({}))],
            "/validateSelection/require unexpected property \"extra\"",
            "/validateSelection/require",
        ),
        (
            vec![set(
                "/validateSelection/require/selection/counts/total",
                json!({}),
            )],
            "/validateSelection/require/selection/counts/total must NOT have fewer than 1 properties",
            "/validateSelection/require/selection/counts/total",
        ),
        (
            vec![set(
                "/validateSelection/require/selection/counts/total",
                json!({"min": -1}),
            )],
            "/validateSelection/require/selection/counts/total/min must be >= 0",
            "/validateSelection/require/selection/counts/total/min",
        ),
        (
            vec![set(
                "/validateSelection/require/selection/counts/parents",
                json!({"max": 1.5}),
            )],
            "/validateSelection/require/selection/counts/parents/max must be integer",
            "/validateSelection/require/selection/counts/parents/max",
        ),
        (
            vec![set(
                "/validateSelection/require/selection/counts/notes",
                json!({"mn": 1}),
            )],
            "/validateSelection/require/selection/counts/notes unexpected property \"mn\"",
            "/validateSelection/require/selection/counts/notes",
        ),
        (
            vec![set(
                "/validateSelection/require/selection/counts/items",
                json!({"min": 1}),
            )],
            "/validateSelection/require/selection/counts unexpected property \"items\"",
            counts,
        ),
        (
            vec![set(
                "/validateSelection/require/selection/allowMixed",
                json!("no"),
            )],
            "/validateSelection/require/selection/allowMixed must be boolean",
            "/validateSelection/require/selection/allowMixed",
        ),
        (
            vec![set(
                "/validateSelection/require/candidates",
                json!({"exact": "2"}),
            )],
            "/validateSelection/require/candidates/exact must be integer",
            "/validateSelection/require/candidates/exact",
        ),
    ]);
}

#[test]
fn filter_rules() {
    let f = "/validateSelection/filters/0";
    let with_filter = |filter: Value| vec![set("/validateSelection/filters/0", filter)];
    let readiness = json!({"kind": "generated-note-readiness", "phase": "availability",
        "artifacts": [{"id": "d", "noteKinds": ["digest"], "payload": {"type": "digest", "requirements": [{"pointer": "x", "type": "bool"}]}}],
        "modes": [{"id": "ready", "allAvailable": ["d"], "extra": 1}], "acceptModes": []});
    assert_cases(vec![
        (
            with_filter(json!({"kind": "source-file-exists"})),
            "/validateSelection/filters/0 missing required property \"phase\"",
            f,
        ),
        (
            with_filter(json!({"phase": "availability"})),
            "/validateSelection/filters/0 missing required property \"kind\"",
            f,
        ),
        (
            with_filter(json!({"kind": "source-file-exists", "phase": "execute"})),
            "/validateSelection/filters/0/phase must be equal to constant \"availability\"",
            "/validateSelection/filters/0/phase",
        ),
        (
            with_filter(json!({"kind": "mime", "phase": "availability"})),
            "/validateSelection/filters/0/kind must be equal to one of the allowed values: source-file-exists, candidates-per-parent, generated-note-kinds-absent, generated-note-readiness, artifact-absent",
            "/validateSelection/filters/0/kind",
        ),
        (
            with_filter(json!({"kind": "source-file-exists", "phase": "availability", "x": 1})),
            "/validateSelection/filters/0 unexpected property \"x\"",
            f,
        ),
        (
            with_filter(json!({"kind": "candidates-per-parent", "phase": "availability"})),
            "/validateSelection/filters/0 missing required property \"counts\"",
            f,
        ),
        (
            with_filter(
                json!({"kind": "candidates-per-parent", "phase": "availability", "counts": {"exact": -2}}),
            ),
            "/validateSelection/filters/0/counts/exact must be >= 0",
            "/validateSelection/filters/0/counts/exact",
        ),
        (
            with_filter(
                json!({"kind": "generated-note-kinds-absent", "phase": "availability", "noteKinds": ["literature-score"]}),
            ),
            "/validateSelection/filters/0/noteKinds/0 must be equal to one of the allowed values: digest, references, citation-analysis, conversation-note, custom",
            "/validateSelection/filters/0/noteKinds/0",
        ),
        (
            with_filter(
                json!({"kind": "generated-note-kinds-absent", "phase": "availability", "noteKinds": []}),
            ),
            "/validateSelection/filters/0/noteKinds must NOT have fewer than 1 items",
            "/validateSelection/filters/0/noteKinds",
        ),
        (
            with_filter(readiness.clone()),
            "/validateSelection/filters/0/acceptModes must NOT have fewer than 1 items",
            "/validateSelection/filters/0/acceptModes",
        ),
        (
            with_filter(readiness.clone()),
            "/validateSelection/filters/0/artifacts/0/payload/requirements/0/pointer must match pattern \"^/\"",
            "/validateSelection/filters/0/artifacts/0/payload/requirements/0/pointer",
        ),
        (
            with_filter(readiness.clone()),
            "/validateSelection/filters/0/artifacts/0/payload/requirements/0/type must be equal to one of the allowed values: string, number, array, object",
            "/validateSelection/filters/0/artifacts/0/payload/requirements/0/type",
        ),
        (
            with_filter(readiness),
            "/validateSelection/filters/0/modes/0 unexpected property \"extra\"",
            "/validateSelection/filters/0/modes/0",
        ),
        (
            with_filter(
                json!({"kind": "generated-note-readiness", "phase": "availability", "artifacts": [], "modes": [], "acceptModes": ["a"]}),
            ),
            "/validateSelection/filters/0/artifacts must NOT have fewer than 1 items",
            "/validateSelection/filters/0/artifacts",
        ),
        (
            with_filter(
                json!({"kind": "artifact-absent", "phase": "availability", "target": "translator-markdown"}),
            ),
            "/validateSelection/filters/0/target must be equal to one of the allowed values: deep-reading-html, mineru-markdown",
            "/validateSelection/filters/0/target",
        ),
        (
            with_filter(
                json!({"kind": "artifact-absent", "phase": "execute", "target": "translator-markdown"}),
            ),
            "/validateSelection/filters/0 missing required property \"parameter\"",
            f,
        ),
        (
            with_filter(
                json!({"kind": "artifact-absent", "phase": "execute", "target": "mineru-markdown", "parameter": "p"}),
            ),
            "/validateSelection/filters/0/target must be equal to one of the allowed values: translator-markdown",
            "/validateSelection/filters/0/target",
        ),
        (
            with_filter(
                json!({"kind": "artifact-absent", "phase": "later", "target": "mineru-markdown"}),
            ),
            "/validateSelection/filters/0/phase must be equal to one of the allowed values: availability, execute",
            "/validateSelection/filters/0/phase",
        ),
        (
            with_filter(json!({"kind": "artifact-absent", "target": "mineru-markdown"})),
            "/validateSelection/filters/0 missing required property \"phase\"",
            f,
        ),
        (
            with_filter(json!("source-file-exists")),
            "/validateSelection/filters/0 must be object",
            f,
        ),
    ]);
}

#[test]
fn parameter_rules() {
    let p = |value: Value| vec![set("/parameters/x", value)];
    assert_cases(vec![
        (
            p(json!({})),
            "/parameters/x missing required property \"type\"",
            "/parameters/x",
        ),
        (
            p(json!({"type": "integer"})),
            "/parameters/x/type must be equal to one of the allowed values: string, number, boolean, array",
            "/parameters/x/type",
        ),
        (
            p(json!({"type": "array", "items": {"type": "number"}})),
            "/parameters/x/items/type must be equal to constant \"string\"",
            "/parameters/x/items/type",
        ),
        (
            p(json!({"type": "array", "items": {"type": "string", "minLength": 1}})),
            "/parameters/x/items unexpected property \"minLength\"",
            "/parameters/x/items",
        ),
        (
            p(json!({"type": "array", "items": {}})),
            "/parameters/x/items missing required property \"type\"",
            "/parameters/x/items",
        ),
        (
            p(json!({"type": "number", "min": 5, "max": 1})),
            "/parameters/x/min must be <= 1 (the value of max)",
            "/parameters/x/min",
        ),
        (
            p(json!({"type": "number", "min": "1"})),
            "/parameters/x/min must be number",
            "/parameters/x/min",
        ),
        (
            p(json!({"type": "string", "enum": []})),
            "/parameters/x/enum must NOT have fewer than 1 items",
            "/parameters/x/enum",
        ),
        (
            p(json!({"type": "string", "required": "yes"})),
            "/parameters/x/required must be boolean",
            "/parameters/x/required",
        ),
        (
            p(json!({"type": "string", "allowCustom": 1})),
            "/parameters/x/allowCustom must be boolean",
            "/parameters/x/allowCustom",
        ),
        (
            p(json!({"type": "number", "integer": "yes"})),
            "/parameters/x/integer must be boolean",
            "/parameters/x/integer",
        ),
        (
            p(json!({"type": "string", "title": 1})),
            "/parameters/x/title must be string",
            "/parameters/x/title",
        ),
        (
            p(json!({"type": "string", "visible_if": {"parameter": "y"}})),
            "/parameters/x/visible_if missing required property \"equals\"",
            "/parameters/x/visible_if",
        ),
        (
            p(json!({"type": "string", "visible_if": {"parameter": "y", "equals": "yes"}})),
            "/parameters/x/visible_if/equals must be boolean",
            "/parameters/x/visible_if/equals",
        ),
        (
            p(
                json!({"type": "string", "visible_if": {"parameter": "y", "equals": true, "not": 1}}),
            ),
            "/parameters/x/visible_if unexpected property \"not\"",
            "/parameters/x/visible_if",
        ),
        (
            p(json!({"type": "string", "optionsSource": {}})),
            "/parameters/x/optionsSource missing required property \"kind\"",
            "/parameters/x/optionsSource",
        ),
        (
            p(
                json!({"type": "string", "optionsSource": {"kind": "zotero.collections", "library": "group"}}),
            ),
            "/parameters/x/optionsSource/library must be \"current\", \"user\" or a library number",
            "/parameters/x/optionsSource/library",
        ),
        (
            p(
                json!({"type": "string", "optionsSource": {"kind": "synthesis.topics", "includeEmpty": "y"}}),
            ),
            "/parameters/x/optionsSource/includeEmpty must be boolean",
            "/parameters/x/optionsSource/includeEmpty",
        ),
        (
            p(json!("string")),
            "/parameters/x must be object",
            "/parameters/x",
        ),
        (
            vec![set("/parameters/a~1b", json!({}))],
            "/parameters/a~1b missing required property \"type\"",
            "/parameters/a~1b",
        ),
        (
            vec![set("/parameters", json!([]))],
            "/parameters must be object",
            "/parameters",
        ),
    ]);
}

#[test]
fn i18n_display_and_resource_rules() {
    assert_cases(vec![
        (
            vec![set("/i18n/locales", json!({}))],
            "/i18n unexpected property \"locales\"",
            "/i18n",
        ),
        (
            vec![set("/i18n/messages/en/label", json!(5))],
            "/i18n/messages/en/label must be string",
            "/i18n/messages/en/label",
        ),
        (
            vec![set("/i18n/messages/en", json!("Demo"))],
            "/i18n/messages/en must be object",
            "/i18n/messages/en",
        ),
        (
            vec![set("/i18n/defaultLocale", json!(""))],
            "/i18n/defaultLocale must NOT have fewer than 1 characters",
            "/i18n/defaultLocale",
        ),
        (
            vec![set("/display/emoji", json!(""))],
            "/display/emoji must NOT have fewer than 1 characters",
            "/display/emoji",
        ),
        (
            vec![set("/display/emoji", json!("🙂".repeat(17)))],
            "/display/emoji must NOT have more than 16 characters",
            "/display/emoji",
        ),
        (
            vec![set("/display/color", json!("red"))],
            "/display unexpected property \"color\"",
            "/display",
        ),
        (
            vec![set("/display/core", json!("yes"))],
            "/display/core must be boolean",
            "/display/core",
        ),
        (
            vec![set("/resourceRequirements", json!([{}]))],
            "/resourceRequirements/0 missing required property \"cardinality\"",
            "/resourceRequirements/0",
        ),
        (
            vec![set(
                "/resourceRequirements",
                json!([{"id": "r", "direction": "both", "kind": "file", "cardinality": "one", "required": true}]),
            )],
            "/resourceRequirements/0/direction must be equal to one of the allowed values: input, output",
            "/resourceRequirements/0/direction",
        ),
        (
            vec![set(
                "/resourceRequirements",
                json!([{"id": "r", "direction": "input", "kind": "dir", "cardinality": "all", "required": 1, "accept": {"maxCount": 0, "extensions": [3]}}]),
            )],
            "/resourceRequirements/0/accept/maxCount must be >= 1",
            "/resourceRequirements/0/accept/maxCount",
        ),
        (
            vec![set(
                "/resourceRequirements",
                json!([{"id": "r", "direction": "input", "kind": "dir", "cardinality": "all", "required": 1}]),
            )],
            "/resourceRequirements/0/kind must be equal to one of the allowed values: file, archive",
            "/resourceRequirements/0/kind",
        ),
    ]);
    assert_eq!(
        validate_manifest(&edited(&[set(
            "/display",
            json!({"core": true, "emoji": "🧪".repeat(16)})
        )])),
        vec![]
    );
}

#[test]
fn execution_result_and_request_rules() {
    let job = |create: Value| {
        vec![
            unset("/hooks/buildRequest"),
            set(
                "/request",
                json!({"kind": "skillrunner.job.v1", "create": create}),
            ),
        ]
    };
    assert_cases(vec![
        (
            vec![set("/execution/mode", json!("auto"))],
            "/execution unexpected property \"mode\"",
            "/execution",
        ),
        (
            vec![set("/execution/skillrunner_mode", json!("auto"))],
            "/execution unexpected property \"skillrunner_mode\"",
            "/execution",
        ),
        (
            vec![set("/execution/supportedBackends", json!([]))],
            "/execution unexpected property \"supportedBackends\"",
            "/execution",
        ),
        (
            vec![set("/execution/mcp/requiredTools", json!(["a", "a"]))],
            "/execution/mcp/requiredTools must NOT have duplicate items (items ## 1 and 0 are identical)",
            "/execution/mcp/requiredTools",
        ),
        (
            vec![set("/execution/zoteroHostAccess/required", json!("x"))],
            "/execution/zoteroHostAccess/required must be boolean",
            "/execution/zoteroHostAccess/required",
        ),
        (
            vec![set("/execution/feedback/showNotifications", json!(1))],
            "/execution/feedback/showNotifications must be boolean",
            "/execution/feedback/showNotifications",
        ),
        (
            vec![set("/execution/timeout_ms", json!("1"))],
            "/execution/timeout_ms must be number",
            "/execution/timeout_ms",
        ),
        (
            vec![set("/result/fetch/type", json!("zip"))],
            "/result/fetch/type must be equal to one of the allowed values: bundle, result",
            "/result/fetch/type",
        ),
        (
            vec![set("/result/expects/result_json", json!(""))],
            "/result/expects/result_json must NOT have fewer than 1 characters",
            "/result/expects/result_json",
        ),
        (
            vec![set("/result/expects/files", json!([]))],
            "/result/expects unexpected property \"files\"",
            "/result/expects",
        ),
        (
            vec![set("/result/final_step_id", json!(3))],
            "/result/final_step_id must be string",
            "/result/final_step_id",
        ),
        (
            vec![set("/result/other", json!(3))],
            "/result unexpected property \"other\"",
            "/result",
        ),
        (
            vec![set("/request", json!({}))],
            "/request missing required property \"kind\"",
            "/request",
        ),
        (
            vec![set("/request", json!({"kind": ""}))],
            "/request/kind must NOT have fewer than 1 characters",
            "/request/kind",
        ),
        (
            vec![set(
                "/request",
                json!({"kind": "generic-http.request.v1", "result": {}}),
            )],
            "/request/result uses deprecated field",
            "/request/result",
        ),
        (
            job(json!({"mode": "auto", "engine": "x"})),
            "/request/create/engine uses deprecated field",
            "/request/create/engine",
        ),
        (
            job(json!({"mode": "auto", "model": "x"})),
            "/request/create/model uses deprecated field",
            "/request/create/model",
        ),
        (
            job(json!({"mode": "auto", "parameter": {}})),
            "/request/create/parameter uses deprecated field",
            "/request/create/parameter",
        ),
        (
            job(json!({"mode": "auto", "runtime_options": {}})),
            "/request/create/runtime_options uses deprecated field",
            "/request/create/runtime_options",
        ),
        (
            job(json!({"skill_id": "s"})),
            "/request/create missing required property \"mode\"",
            "/request/create",
        ),
        (
            job(json!({"mode": "batch"})),
            "/request/create/mode must be equal to one of the allowed values: auto, interactive",
            "/request/create/mode",
        ),
        (
            job(json!({"mode": "auto", "skill_source": "remote"})),
            "/request/create/skill_source must be equal to one of the allowed values: local-package, installed",
            "/request/create/skill_source",
        ),
        (
            job(json!({"mode": "auto", "skill_id": ""})),
            "/request/create/skill_id must NOT have fewer than 1 characters",
            "/request/create/skill_id",
        ),
        (
            vec![
                unset("/hooks/buildRequest"),
                set("/request", json!({"kind": "skillrunner.job.v1"})),
            ],
            "/request missing required property \"create\"",
            "/request",
        ),
        (
            vec![set(
                "/request",
                json!({"kind": "k", "input": {"upload": {"files": [{"key": "", "from": "selected.docx"}]}}}),
            )],
            "/request/input/upload/files/0/key must NOT have fewer than 1 characters",
            "/request/input/upload/files/0/key",
        ),
        (
            vec![set(
                "/request",
                json!({"kind": "k", "input": {"upload": {"files": [{"key": "", "from": "selected.docx"}]}}}),
            )],
            "/request/input/upload/files/0/from must be equal to one of the allowed values: selected.markdown, selected.pdf, selected.source",
            "/request/input/upload/files/0/from",
        ),
        (
            vec![set(
                "/request",
                json!({"kind": "k", "input": {"upload": {"dir": "x"}}}),
            )],
            "/request/input/upload unexpected property \"dir\"",
            "/request/input/upload",
        ),
        (
            vec![set(
                "/request",
                json!({"kind": "k", "poll": {"interval_ms": "x"}}),
            )],
            "/request/poll/interval_ms must be number",
            "/request/poll/interval_ms",
        ),
    ]);
    assert_eq!(
        validate_manifest(&edited(&[set(
            "/request",
            json!({"kind": "skillrunner.job.v1"})
        )]))
        .len(),
        0,
        "a buildRequest hook waives create"
    );
}

#[test]
fn sequence_step_and_conditional_rules() {
    let seq = |steps: Value| {
        vec![
            set("/provider", json!("acp")),
            set(
                "/request",
                json!({"kind": "skillrunner.sequence.v1", "sequence": {"steps": steps}}),
            ),
        ]
    };
    let step = |extra: Value| {
        let mut s = json!({"id": "a", "skill_id": "s", "mode": "auto"});
        if let (Some(map), Some(extra)) = (s.as_object_mut(), extra.as_object()) {
            map.extend(extra.clone());
        }
        json!([s])
    };
    let s0 = "/request/sequence/steps/0";
    assert_cases(vec![
        (
            seq(json!([])),
            "/request/sequence/steps must NOT have fewer than 1 items",
            "/request/sequence/steps",
        ),
        (
            seq(json!([{"id": "a", "mode": "auto"}])),
            "/request/sequence/steps/0 missing required property \"skill_id\"",
            s0,
        ),
        (
            seq(step(json!({"from_step": "x"}))),
            "/request/sequence/steps/0 unexpected property \"from_step\"",
            s0,
        ),
        (
            seq(step(json!({"mode": "batch"}))),
            "/request/sequence/steps/0/mode must be equal to one of the allowed values: auto, interactive",
            "/request/sequence/steps/0/mode",
        ),
        (
            seq(step(json!({"fetch_type": "zip"}))),
            "/request/sequence/steps/0/fetch_type must be equal to one of the allowed values: bundle, result",
            "/request/sequence/steps/0/fetch_type",
        ),
        (
            seq(step(json!({"workspace": "shared"}))),
            "/request/sequence/steps/0/workspace must be equal to one of the allowed values: new, reuse-workflow",
            "/request/sequence/steps/0/workspace",
        ),
        (
            seq(step(json!({"apply_result": {"on_failure": "stop"}}))),
            "/request/sequence/steps/0/apply_result/on_failure must be equal to one of the allowed values: continue, fail_sequence",
            "/request/sequence/steps/0/apply_result/on_failure",
        ),
        (
            seq(step(json!({"handoff": {"bindings": []}}))),
            "/request/sequence/steps/0/handoff/bindings must NOT have fewer than 1 items",
            "/request/sequence/steps/0/handoff/bindings",
        ),
        (
            seq(step(
                json!({"handoff": {"bindings": [{"kind": "blob", "target": "t"}]}}),
            )),
            "/request/sequence/steps/0/handoff/bindings/0/kind must be equal to one of the allowed values: value, file",
            "/request/sequence/steps/0/handoff/bindings/0/kind",
        ),
        (
            seq(step(json!({"handoff": {"from_step": "a"}}))),
            "/request/sequence/steps/0/handoff unexpected property \"from_step\"",
            "/request/sequence/steps/0/handoff",
        ),
        (
            seq(step(
                json!({"short_circuit": {"when": {"path": "p", "equals": []}, "result": "step_output"}}),
            )),
            "/request/sequence/steps/0/short_circuit/when/equals must be string, number, boolean or null",
            "/request/sequence/steps/0/short_circuit/when/equals",
        ),
        (
            seq(step(
                json!({"short_circuit": {"when": {"path": "p"}, "result": "step_output"}}),
            )),
            "/request/sequence/steps/0/short_circuit/when missing required property \"equals\"",
            "/request/sequence/steps/0/short_circuit/when",
        ),
        (
            seq(step(json!({"include_if": {"kind": "x"}}))),
            "/request/sequence/steps/0/include_if/kind must be equal to one of the allowed values: parameter, runtime",
            "/request/sequence/steps/0/include_if/kind",
        ),
        (
            seq(step(
                json!({"include_if": {"kind": "parameter", "equals": true}}),
            )),
            "/request/sequence/steps/0/include_if missing required property \"parameter\"",
            "/request/sequence/steps/0/include_if",
        ),
        (
            seq(step(
                json!({"include_if": {"kind": "runtime", "condition": "c", "equals": 1}}),
            )),
            "/request/sequence/steps/0/include_if unexpected property \"equals\"",
            "/request/sequence/steps/0/include_if",
        ),
        (
            seq(step(json!({"input": []}))),
            "/request/sequence/steps/0/input must be object",
            "/request/sequence/steps/0/input",
        ),
        (
            vec![
                set("/provider", json!("generic-http")),
                set("/request", json!({"kind": "skillrunner.sequence.v1"})),
            ],
            "/provider must be equal to one of the allowed values: acp, skillrunner (required by skillrunner.sequence.v1)",
            "/provider",
        ),
        (
            vec![
                unset("/hooks/buildRequest"),
                set("/request", json!({"kind": "skillrunner.sequence.v1"})),
            ],
            "/request missing required property \"sequence\" (or declare hooks.buildRequest)",
            "/request",
        ),
    ]);
    let sequence_with = |provider: &str| {
        edited(&[
            set("/provider", json!(provider)),
            set("/request", json!({"kind": "skillrunner.sequence.v1"})),
        ])
    };
    assert_eq!(validate_manifest(&sequence_with("skillrunner")), vec![]);
    // The reference compares the raw value; it trims only after validation.
    assert_eq!(
        validate_manifest(&sequence_with(" skillrunner "))[0].message,
        "/provider must be equal to one of the allowed values: acp, skillrunner (required by skillrunner.sequence.v1)"
    );
}

#[test]
fn fetch_type_is_optional_and_selection_counts_need_a_rule() {
    assert_eq!(
        validate_manifest(&edited(&[set("/result", json!({"fetch": {}}))])),
        vec![]
    );
    assert_cases(vec![(
        vec![set(
            "/validateSelection/require",
            json!({"selection": {"counts": {}}}),
        )],
        "/validateSelection/require/selection/counts must NOT have fewer than 1 properties",
        "/validateSelection/require/selection/counts",
    )]);
}
