//! The citation report, on the artifacts of the reference host's citation
//! report test.

use serde_json::json;

use super::super::validators::tests::{citation, references};
use super::render;

/// The report of the test citation analysis, line by line.
const REPORT: &[&str] = &[
    "## Citation Signals In Review Scope",
    "",
    "### Summary",
    "The review compares context and tooling.",
    "",
    "### Key References",
    "- [12] Doe, Jane, 2024: Context paper (Background)",
    "",
    "### Scope",
    "- Section: Introduction",
    "- Lines: 4-19",
    "",
    "### By Function",
    "#### Background",
    "- [12] Doe, Jane, 2024: Context paper",
    "  - Title: Context paper",
    "  - Keywords: context",
    "  - Summary: Provides the context.",
    "",
    "#### Tooling",
    "- [AY-1] Roe, John, 2025: Tool paper",
    "  - Title: Tool paper",
    "  - Keywords: [none]",
    "  - Summary: Provides the tool.",
    "",
    "### Timeline Analysis",
    "#### Early",
    "Early work established the context.",
    "- [12] Doe, Jane, 2024: Context paper",
    "",
    "#### Mid",
    "",
    "- No representative references in this bucket.",
    "",
    "#### Recent",
    "Recent tooling is available.",
    "- [AY-1] Roe, John, 2025: Tool paper",
    "",
    "### Unmapped Mentions",
    "- [?] (no matching reference): unresolved source",
];

#[test]
fn the_report_lists_summary_scope_functions_timeline_and_unmapped_mentions() {
    let report = render(&citation(), &references()).unwrap();
    assert_eq!(report, format!("{}\n", REPORT.join("\n")));
}

#[test]
fn a_chinese_analysis_is_reported_in_chinese() {
    let mut value = citation();
    value["meta"]["language"] = json!("zh-CN");
    let report = render(&value, &references()).unwrap();
    assert!(
        report.starts_with("## 文献综述章节引文线索\n\n### 总体总结\n"),
        "{report}"
    );
    assert!(report.contains("\n#### 早期\n"), "{report}");
    assert!(!report.contains("report_md"));
}

#[test]
fn labels_come_from_hints_and_uncited_timeline_references_from_their_position() {
    let mut value = citation();
    value["items"][0]["mentions"][0]["citation_label_hint"] = json!("Doe24");
    value["items"].as_array_mut().unwrap().pop();
    value["unresolved"] = json!([]);
    value["meta"]["scope"] = json!({"section_title": null, "line_start": null, "line_end": 7});
    let report = render(&value, &references()).unwrap();
    assert!(report.contains("\n- [Doe24] Doe, Jane, 2024: Context paper (Background)\n"));
    assert!(report.contains("\n- Section: \n- Lines: -7\n"), "{report}");
    assert!(report.contains(
        "#### Recent\nRecent tooling is available.\n- [2] Roe, John, 2025: Tool paper\n"
    ));
    assert!(!report.contains("Unmapped"));
    assert!(report.ends_with("Tool paper\n"), "{report}");
}

#[test]
fn no_report_without_a_linked_valid_pair() {
    let mut unknown = citation();
    unknown["items"][0]["sourceReferenceId"] = json!("missing");
    assert_eq!(render(&unknown, &references()), None);
    assert_eq!(render(&citation(), &json!({"references": []})), None);
    let mut bare = citation();
    bare["items"] = json!([]);
    bare["unresolved"] = json!([]);
    bare["timeline"] = json!({"early": {"summary": "", "sourceReferenceIds": []},
        "mid": {"summary": "", "sourceReferenceIds": []},
        "recent": {"summary": "", "sourceReferenceIds": []}});
    let report = render(&bare, &references()).unwrap();
    assert!(report.contains(
        "### By Function\n- No stable mapped citations in this scope.\n### Timeline Analysis"
    ));
}
