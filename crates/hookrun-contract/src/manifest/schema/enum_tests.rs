//! Every enumerated value of the v2 manifest, checked against the reference host's
//! schema: for each location, each value the reference accepts is accepted there by the
//! Rust validator and the editor schema, and a value outside the list is refused there.
//!
//! Source of every list: the reference host's `src/schemas/workflow.schema.json` (the v2
//! schema with `generated-note-readiness`, commit cf0283b6), line numbers as given.

use serde_json::{Value, json};

use super::validate_manifest;
use crate::manifest::parse::read_json;
use crate::manifest::test_support::edit;

/// `(valid fixture, JSON pointer of the enumerated value, accepted values, source line)`.
type Enum = (&'static str, &'static str, &'static [&'static str], u32);

const JOB: &str = "skillrunner-job.json";
const SEQUENCE: &str = "skillrunner-sequence.json";

const ENUMS: &[Enum] = &[
    (
        "pass-through.json",
        "/executionModes/0",
        &["auto", "interactive"],
        35,
    ),
    (
        "pass-through.json",
        "/supportedInvocationModes/0",
        &["interactive", "non-interactive"],
        44,
    ),
    (
        JOB,
        "/resourceRequirements/0/direction",
        &["input", "output"],
        213,
    ),
    (
        JOB,
        "/resourceRequirements/0/kind",
        &["file", "archive"],
        214,
    ),
    (
        JOB,
        "/resourceRequirements/0/cardinality",
        &["one", "many"],
        215,
    ),
    (
        JOB,
        "/parameters/language/type",
        &["string", "number", "boolean", "array"],
        284,
    ),
    (JOB, "/parameters/collections/items/type", &["string"], 308),
    (
        JOB,
        "/parameters/collections/optionsSource/library",
        &["current", "user"],
        383,
    ),
    (
        JOB,
        "/validateSelection/select/policy",
        &[
            "selection",
            "literature-source",
            "generated-note-candidates",
            "digest-representative-image",
        ],
        481,
    ),
    (
        SEQUENCE,
        "/validateSelection/select/source",
        &["selected", "related"],
        484,
    ),
    (
        JOB,
        "/validateSelection/filters/1/noteKinds/0",
        &[
            "digest",
            "references",
            "citation-analysis",
            "conversation-note",
            "custom",
        ],
        554,
    ),
    (
        JOB,
        "/validateSelection/filters/2/artifacts/0/payload/requirements/0/type",
        &["string", "number", "array", "object"],
        609,
    ),
    (
        JOB,
        "/validateSelection/filters/3/target",
        &["deep-reading-html", "mineru-markdown"],
        670,
    ),
    (
        "generic-http-steps.json",
        "/validateSelection/filters/0/target",
        &["translator-markdown"],
        681,
    ),
    (
        JOB,
        "/inputs/member/kind",
        &[
            "selection",
            "parent",
            "child",
            "attachment",
            "note",
            "generated-note",
            "digest-image-target",
        ],
        704,
    ),
    (
        JOB,
        "/inputs/grouping/mode",
        &["each", "all", "parent"],
        735,
    ),
    (JOB, "/result/fetch/type", &["bundle", "result"], 822),
    (JOB, "/request/create/mode", &["auto", "interactive"], 880),
    (
        JOB,
        "/request/create/skill_source",
        &["local-package", "installed"],
        884,
    ),
    (
        JOB,
        "/request/input/upload/files/0/from",
        &["selected.markdown", "selected.pdf", "selected.source"],
        921,
    ),
    (
        SEQUENCE,
        "/request/sequence/steps/0/mode",
        &["auto", "interactive"],
        952,
    ),
    (
        SEQUENCE,
        "/request/sequence/steps/0/fetch_type",
        &["bundle", "result"],
        964,
    ),
    (
        SEQUENCE,
        "/request/sequence/steps/0/workspace",
        &["new", "reuse-workflow"],
        968,
    ),
    (
        SEQUENCE,
        "/request/sequence/steps/0/short_circuit/result",
        &["step_output"],
        1063,
    ),
    (
        SEQUENCE,
        "/request/sequence/steps/1/apply_result/on_failure",
        &["continue", "fail_sequence"],
        1076,
    ),
    (
        SEQUENCE,
        "/request/sequence/steps/2/handoff/bindings/0/kind",
        &["value", "file"],
        1101,
    ),
    (
        "acp-sequence.json",
        "/provider",
        &["acp", "skillrunner"],
        165,
    ),
];

/// Locations the reference leaves open (any non-empty string), with a value outside every
/// list above that must be accepted there.
const OPEN: &[(&str, &str, &str, u32)] = &[
    (
        JOB,
        "/validateSelection/filters/2/artifacts/0/noteKinds/0",
        "literature-score",
        586,
    ),
    (JOB, "/provider", "my-own-provider", 54),
];

fn fixture(name: &str) -> Value {
    let path = crate::manifest::test_support::repo()
        .join("fixtures/manifests/valid")
        .join(name);
    read_json(&path).unwrap_or_else(|d| panic!("{}", d.message))
}

fn with(fixture_name: &str, pointer: &str, value: &str) -> Value {
    let mut manifest = fixture(fixture_name);
    edit(&mut manifest, pointer, Some(json!(value)));
    manifest
}

/// Problems the Rust validator reports at exactly `pointer`.
fn rust_problems_at(manifest: &Value, pointer: &str) -> Vec<String> {
    validate_manifest(manifest)
        .into_iter()
        .filter(|d| d.pointer.as_deref() == Some(pointer))
        .map(|d| d.message)
        .collect()
}

/// Problems the editor schema reports at exactly `pointer`.
fn editor_problems_at(validator: &jsonschema::Validator, manifest: &Value, pointer: &str) -> usize {
    validator
        .iter_errors(manifest)
        .filter(|e| e.instance_path().to_string() == pointer)
        .count()
}

fn editor() -> &'static jsonschema::Validator {
    crate::manifest::test_support::editor_schema()
}

#[test]
fn every_enum_accepts_the_reference_values_and_only_those() {
    let editor = editor();
    for (file, pointer, values, line) in ENUMS {
        let source = format!("{pointer} (reference schema line {line}, base {file})");
        assert!(
            fixture(file).pointer(pointer).is_some(),
            "{source}: the base fixture lacks the location"
        );
        for value in *values {
            let manifest = with(file, pointer, value);
            assert_eq!(
                rust_problems_at(&manifest, pointer),
                Vec::<String>::new(),
                "{source}: {value:?}"
            );
            assert_eq!(
                editor_problems_at(editor, &manifest, pointer),
                0,
                "{source}: {value:?} (editor schema)"
            );
        }
        let manifest = with(file, pointer, "not-a-listed-value");
        let problems = rust_problems_at(&manifest, pointer);
        assert!(
            !problems.is_empty(),
            "{source}: an unlisted value is accepted"
        );
        assert!(
            editor_problems_at(editor, &manifest, pointer) > 0,
            "{source}: the editor schema accepts an unlisted value"
        );
    }
}

#[test]
fn open_locations_accept_values_outside_the_lists() {
    let editor = editor();
    for (file, pointer, value, line) in OPEN {
        let manifest = with(file, pointer, value);
        assert_eq!(
            rust_problems_at(&manifest, pointer),
            Vec::<String>::new(),
            "{pointer} (reference schema line {line})"
        );
        assert_eq!(
            editor_problems_at(editor, &manifest, pointer),
            0,
            "{pointer} (editor schema)"
        );
    }
}
