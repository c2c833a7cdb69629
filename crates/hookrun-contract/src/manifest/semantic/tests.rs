use serde::Deserialize;
use serde_json::{Value, json};

use super::counts::{Range, no_satisfiable_total, non_mixed_solution};
use super::*;
use crate::manifest::schema::validate_manifest;
use crate::manifest::test_support::edited;

fn semantic(edits: &[(&str, Option<Value>)]) -> Vec<Diagnostic> {
    let manifest = edited(edits);
    assert_eq!(
        validate_manifest(&manifest),
        vec![],
        "schema must pass first"
    );
    let spec = PlanningSpec::deserialize(&manifest).unwrap_or_else(|e| panic!("typed: {e}"));
    check_semantics(&manifest, &spec)
}

fn set(pointer: &str, value: Value) -> (&str, Option<Value>) {
    (pointer, Some(value))
}

/// Asserts the exact list of `(pointer, message)` pairs.
fn expect(edits: &[(&str, Option<Value>)], expected: &[(&str, &str)]) {
    let found: Vec<(String, String)> = semantic(edits)
        .into_iter()
        .map(|d| (d.pointer.unwrap_or_default(), d.message))
        .collect();
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(p, m)| (p.to_string(), m.to_string()))
        .collect();
    assert_eq!(found, expected, "{edits:?}");
}

const COUNTS: &str = "/validateSelection/require/selection/counts";
const SELECTION: &str = "/validateSelection/require/selection";

fn counts(value: Value) -> (&'static str, Option<Value>) {
    (COUNTS, Some(value))
}

#[test]
fn base_manifest_has_no_semantic_problem() {
    expect(&[], &[]);
}

#[test]
fn sequence_checks() {
    let seq = |steps: Value, final_step: Option<&str>| {
        let mut edits = vec![
            set("/provider", json!("skillrunner")),
            set(
                "/request",
                json!({"kind": "skillrunner.sequence.v1", "sequence": {"steps": steps}}),
            ),
            ("/hooks/buildRequest", None),
        ];
        if let Some(f) = final_step {
            edits.push(set("/result/final_step_id", json!(f)));
        }
        edits
    };
    let step = |id: &str| json!({"id": id, "skill_id": "s", "mode": "auto"});
    expect(&seq(json!([step("a")]), Some("a")), &[]);
    expect(
        &seq(json!([step("a")]), None),
        &[(
            "/result/final_step_id",
            "/result/final_step_id is required for skillrunner.sequence.v1",
        )],
    );
    expect(
        &seq(json!([step("a")]), Some("  ")),
        &[(
            "/result/final_step_id",
            "/result/final_step_id is required for skillrunner.sequence.v1",
        )],
    );
    expect(
        &seq(json!([step(" "), step("a"), step(" a ")]), Some("b")),
        &[
            (
                "/request/sequence/steps/0/id",
                "/request/sequence/steps/0/id must be non-empty",
            ),
            (
                "/request/sequence/steps",
                "/request/sequence/steps contains duplicated id: a",
            ),
            (
                "/result/final_step_id",
                "/result/final_step_id must match a declared sequence step",
            ),
        ],
    );
    let mut with_refs = step("b");
    with_refs["handoff"] = json!({"bindings": [{"kind": "value", "target": "t", "step": "a"}, {"kind": "file", "target": "u", "step": "zz"}]});
    with_refs["short_circuit"] =
        json!({"when": {"path": "  ", "equals": null}, "result": "step_output"});
    expect(
        &seq(json!([step("a"), with_refs]), Some("b")),
        &[
            (
                "/request/sequence/steps/1/handoff/bindings/1/step",
                "/request/sequence/steps/1/handoff/bindings/1/step must match a declared sequence step",
            ),
            (
                "/request/sequence/steps/1/short_circuit/when/path",
                "/request/sequence/steps/1/short_circuit/when/path must be non-empty",
            ),
        ],
    );
    // A buildRequest hook waives steps and final_step_id.
    expect(
        &[
            set("/provider", json!("acp")),
            set("/request", json!({"kind": "skillrunner.sequence.v1"})),
        ],
        &[],
    );
}

#[test]
fn empty_steps_without_hook_is_reported() {
    let manifest = edited(&[
        set(
            "/request",
            json!({"kind": "skillrunner.sequence.v1", "sequence": {"steps": []}}),
        ),
        ("/hooks/buildRequest", None),
    ]);
    let failures = sequence::check(&manifest);
    assert_eq!(
        failures[0],
        failure("/request/sequence/steps", "must be non-empty")
    );
}

#[test]
fn count_rule_shape_checks() {
    expect(
        &[
            counts(json!({"parents": {"exact": 1, "min": 0}, "total": {"min": 3, "max": 2}})),
            set(
                "/validateSelection/require/candidates",
                json!({"exact": 2, "max": 2}),
            ),
        ],
        &[
            (
                "/validateSelection/require/selection/counts/parents/exact",
                "/validateSelection/require/selection/counts/parents/exact is mutually exclusive with min and max",
            ),
            (
                "/validateSelection/require/selection/counts/total/min",
                "/validateSelection/require/selection/counts/total/min must be less than or equal to max",
            ),
            (
                "/validateSelection/require/candidates/exact",
                "/validateSelection/require/candidates/exact is mutually exclusive with min and max",
            ),
        ],
    );
    expect(
        &[set(
            "/validateSelection/require/candidates",
            json!({"min": 4, "max": 1}),
        )],
        &[(
            "/validateSelection/require/candidates/min",
            "/validateSelection/require/candidates/min must be less than or equal to max",
        )],
    );
}

#[test]
fn satisfiable_total() {
    let unsat = [(
        COUNTS,
        "/validateSelection/require/selection/counts has no satisfiable total",
    )];
    expect(
        &[counts(
            json!({"parents": {"min": 2}, "notes": {"min": 1}, "total": {"max": 2}}),
        )],
        &unsat,
    );
    expect(
        &[counts(
            json!({"parents": {"max": 1}, "attachments": {"exact": 0}, "notes": {"max": 0}, "children": {"max": 1}, "total": {"min": 3}}),
        )],
        &unsat,
    );
    // An unbounded kind can always reach the total minimum.
    expect(
        &[counts(json!({"parents": {"max": 1}, "total": {"min": 3}}))],
        &[],
    );
    expect(
        &[counts(json!({"parents": {"min": 2}, "total": {"max": 2}}))],
        &[],
    );
}

#[test]
fn mixed_selection_checks() {
    let mixed = set(
        "/validateSelection/require/selection/allowMixed",
        json!(false),
    );
    expect(
        &[
            counts(json!({"parents": {"min": 1}, "notes": {"min": 1}})),
            mixed.clone(),
        ],
        &[(
            SELECTION,
            "/validateSelection/require/selection disallows mixed input but requires multiple item kinds",
        )],
    );
    expect(
        &[
            counts(
                json!({"parents": {"max": 1}, "attachments": {"max": 1}, "notes": {"max": 0}, "children": {"max": 0}, "total": {"min": 2}}),
            ),
            mixed.clone(),
        ],
        &[(
            SELECTION,
            "/validateSelection/require/selection has no satisfiable non-mixed solution",
        )],
    );
    // Two one-per-kind items satisfy a total of 2 only when mixing is allowed.
    expect(
        &[counts(
            json!({"parents": {"max": 1}, "attachments": {"max": 1}, "notes": {"max": 0}, "children": {"max": 0}, "total": {"min": 2}}),
        )],
        &[],
    );
    expect(
        &[
            counts(json!({"attachments": {"min": 1}, "total": {"max": 3}})),
            mixed.clone(),
        ],
        &[],
    );
}

#[test]
fn non_mixed_solution_edge_cases() {
    let any = Range { lo: 0, hi: None };
    let exact = |n| Range { lo: n, hi: Some(n) };
    // Empty selection admitted by every rule.
    assert!(non_mixed_solution(
        &[exact(0); 4],
        Range { lo: 0, hi: Some(0) }
    ));
    // Only zero everywhere but the total wants one item.
    assert!(!non_mixed_solution(
        &[exact(0); 4],
        Range { lo: 1, hi: None }
    ));
    // One kind required, the total range reachable by it alone.
    assert!(non_mixed_solution(
        &[Range { lo: 2, hi: Some(5) }, any, any, any],
        Range { lo: 4, hi: Some(4) }
    ));
    // The required kind cannot reach the total.
    assert!(!non_mixed_solution(
        &[Range { lo: 2, hi: Some(3) }, any, any, any],
        Range { lo: 4, hi: Some(9) }
    ));
    // Totals: saturating sums never overflow.
    assert!(!no_satisfiable_total(
        &[Range {
            lo: 0,
            hi: Some(u64::MAX)
        }; 4],
        Range { lo: 5, hi: None }
    ));
    assert!(no_satisfiable_total(
        &[
            Range {
                lo: u64::MAX,
                hi: None
            },
            any,
            any,
            any
        ],
        Range { lo: 0, hi: Some(1) }
    ));
}

#[test]
fn trigger_bound_checks() {
    let no_selection = [
        set("/trigger/requiresSelection", json!(false)),
        set("/inputs/member/kind", json!("selection")),
        set("/inputs/grouping/mode", json!("all")),
        set("/validateSelection/select", json!({"policy": "selection"})),
    ];
    expect(&no_selection, &[]);
    let mut positive = no_selection.to_vec();
    positive.push(counts(json!({"total": {"min": 1}})));
    expect(
        &positive,
        &[(
            "/trigger/requiresSelection",
            "/trigger/requiresSelection conflicts with positive selection lower bounds",
        )],
    );
    let zero = "/trigger/requiresSelection conflicts with a zero-only selection total";
    expect(
        &[counts(json!({"total": {"max": 0}}))],
        &[("/trigger/requiresSelection", zero)],
    );
    expect(
        &[counts(
            json!({"parents": {"max": 0}, "attachments": {"exact": 0}, "notes": {"max": 0}, "children": {"max": 0}}),
        )],
        &[("/trigger/requiresSelection", zero)],
    );
}

#[test]
fn selector_checks() {
    let select = |policy: &str| set("/validateSelection/select", json!({"policy": policy}));
    let member = |kind: &str| set("/inputs/member/kind", json!(kind));
    expect(&[select("literature-source")], &[]);
    expect(
        &[select("literature-source"), member("parent")],
        &[(
            "/validateSelection/select",
            "/validateSelection/select policy literature-source produces attachment, not parent",
        )],
    );
    expect(
        &[select("generated-note-candidates")],
        &[(
            "/validateSelection/select",
            "/validateSelection/select policy generated-note-candidates produces generated-note, not attachment",
        )],
    );
    expect(
        &[select("digest-representative-image"), member("note")],
        &[(
            "/validateSelection/select",
            "/validateSelection/select policy digest-representative-image produces digest-image-target, not note",
        )],
    );
    expect(
        &[
            select("digest-representative-image"),
            member("digest-image-target"),
        ],
        &[],
    );
    expect(
        &[
            select("generated-note-candidates"),
            member("generated-note"),
        ],
        &[],
    );
    expect(
        &[select("selection")],
        &[(
            "/validateSelection/select",
            "/validateSelection/select selection requires selection members grouped with all",
        )],
    );
    expect(
        &[select("selection"), member("selection")],
        &[(
            "/validateSelection/select",
            "/validateSelection/select selection requires selection members grouped with all",
        )],
    );
    expect(
        &[
            member("selection"),
            set("/inputs/grouping/mode", json!("all")),
        ],
        &[(
            "/inputs/member",
            "/inputs/member selection requires the selection selector",
        )],
    );
    expect(
        &[set("/trigger/requiresSelection", json!(false))],
        &[(
            "/trigger/requiresSelection",
            "/trigger/requiresSelection false requires a selector that can produce an empty SelectionContext",
        )],
    );
    expect(
        &[
            select("selection"),
            member("selection"),
            set("/inputs/grouping/mode", json!("all")),
            set("/validateSelection/require/candidates", json!({"min": 2})),
        ],
        &[(
            "/validateSelection/require/candidates",
            "/validateSelection/require/candidates cannot accept the selection selector's single candidate",
        )],
    );
    expect(
        &[
            select("selection"),
            member("selection"),
            set("/inputs/grouping/mode", json!("all")),
            set("/validateSelection/require/candidates", json!({"exact": 1})),
        ],
        &[],
    );
}

#[test]
fn member_and_filter_checks() {
    let filter = |f: Value| set("/validateSelection/filters", json!([f]));
    let member = |kind: &str| set("/inputs/member/kind", json!(kind));
    expect(
        &[
            member("parent"),
            set(
                "/inputs/member/accepts",
                json!({"mime": ["application/pdf"]}),
            ),
        ],
        &[(
            "/inputs/member/accepts/mime",
            "/inputs/member/accepts/mime is only valid for attachment members",
        )],
    );
    expect(
        &[set(
            "/inputs/member/accepts",
            json!({"mime": ["application/pdf"]}),
        )],
        &[],
    );
    let attachment_only = [
        json!({"kind": "source-file-exists", "phase": "availability"}),
        json!({"kind": "generated-note-kinds-absent", "phase": "availability", "noteKinds": ["digest"]}),
        json!({"kind": "generated-note-readiness", "phase": "availability", "artifacts": [{"id": "d", "noteKinds": ["digest"]}], "modes": [{"id": "m", "allAvailable": ["d"]}], "acceptModes": ["m"]}),
        json!({"kind": "artifact-absent", "phase": "availability", "target": "deep-reading-html"}),
    ];
    for f in attachment_only {
        expect(&[filter(f.clone())], &[]);
        expect(
            &[member("note"), filter(f)],
            &[(
                "/validateSelection/filters/0",
                "/validateSelection/filters/0 requires attachment members",
            )],
        );
    }
    let per_parent =
        json!({"kind": "candidates-per-parent", "phase": "availability", "counts": {"max": 1}});
    expect(&[member("note"), filter(per_parent.clone())], &[]);
    expect(
        &[
            member("digest-image-target"),
            set(
                "/validateSelection/select",
                json!({"policy": "digest-representative-image"}),
            ),
            filter(per_parent.clone()),
        ],
        &[(
            "/validateSelection/filters/0",
            "/validateSelection/filters/0 requires parent-addressable members",
        )],
    );
    expect(
        &[
            member("selection"),
            set("/inputs/grouping/mode", json!("all")),
            set("/validateSelection/select", json!({"policy": "selection"})),
            filter(per_parent),
        ],
        &[(
            "/validateSelection/filters/0",
            "/validateSelection/filters/0 requires parent-addressable members",
        )],
    );
}

#[test]
fn artifact_parameter_checks() {
    let filter = |f: Value| set("/validateSelection/filters", json!([f]));
    let declared = set(
        "/parameters",
        json!({"suffix": {"type": "string", "default": "zh"}}),
    );
    expect(
        &[
            filter(
                json!({"kind": "artifact-absent", "phase": "execute", "target": "translator-markdown", "parameter": "suffix"}),
            ),
            declared.clone(),
        ],
        &[],
    );
    expect(
        &[
            filter(
                json!({"kind": "artifact-absent", "phase": "execute", "target": "translator-markdown", "parameter": "lang"}),
            ),
            declared.clone(),
        ],
        &[(
            "/validateSelection/filters/0/parameter",
            "/validateSelection/filters/0/parameter references an undeclared workflow parameter",
        )],
    );
    expect(
        &[
            filter(
                json!({"kind": "artifact-absent", "phase": "availability", "target": "mineru-markdown", "parameter": "suffix"}),
            ),
            declared,
        ],
        &[(
            "/validateSelection/filters/0/parameter",
            "/validateSelection/filters/0/parameter requires phase execute",
        )],
    );
}

#[test]
fn all_problems_are_collected_in_order() {
    let found: Vec<String> = semantic(&[
        set("/provider", json!("skillrunner")),
        set("/request", json!({"kind": "skillrunner.sequence.v1", "sequence": {"steps": [{"id": "a", "skill_id": "s", "mode": "auto"}]}})),
        ("/hooks/buildRequest", None),
        set("/inputs/member/kind", json!("parent")),
        set("/validateSelection/select", json!({"policy": "literature-source"})),
    ])
    .into_iter()
    .map(|d| d.message)
    .collect();
    assert_eq!(
        found,
        [
            "/result/final_step_id is required for skillrunner.sequence.v1",
            "/validateSelection/select policy literature-source produces attachment, not parent",
        ]
    );
}
