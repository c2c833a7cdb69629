//! The Markdown report a citation analysis derives (`derived.markdown` of its
//! note's detail), rendered from the analysis and the References it cites as the
//! reference host renders it: summary, key references, scope, the cited
//! references by function, the timeline buckets and the unmapped mentions, in
//! English or, for a `zh` analysis, in Chinese.

use std::collections::HashMap;

use serde_json::Value;

use super::text::{js_string, js_trim};
use super::validators::check_linkage;

/// The words of a report in one language.
struct Words {
    title: &'static str,
    summary: &'static str,
    key_references: &'static str,
    scope: &'static str,
    section: &'static str,
    lines: &'static str,
    by_function: &'static str,
    item_title: &'static str,
    keywords: &'static str,
    item_summary: &'static str,
    timeline: &'static str,
    no_mapped: &'static str,
    no_representative: &'static str,
    unmapped: &'static str,
    buckets: [&'static str; 3],
}

/// A report in English.
const ENGLISH: Words = Words {
    title: "## Citation Signals In Review Scope",
    summary: "### Summary",
    key_references: "### Key References",
    scope: "### Scope",
    section: "Section",
    lines: "Lines",
    by_function: "### By Function",
    item_title: "Title",
    keywords: "Keywords",
    item_summary: "Summary",
    timeline: "### Timeline Analysis",
    no_mapped: "- No stable mapped citations in this scope.",
    no_representative: "- No representative references in this bucket.",
    unmapped: "### Unmapped Mentions",
    buckets: ["Early", "Mid", "Recent"],
};

/// A report in Chinese.
const CHINESE: Words = Words {
    title: "## 文献综述章节引文线索",
    summary: "### 总体总结",
    key_references: "### 关键文献",
    scope: "### 范围",
    section: "章节",
    lines: "行号",
    by_function: "### 按功能归类",
    item_title: "标题",
    keywords: "关键词",
    item_summary: "总结",
    timeline: "### 时间线分析",
    no_mapped: "- 本范围内未检测到稳定映射的引用。",
    no_representative: "- 该时段没有可列举的代表文献。",
    unmapped: "### 未映射引用",
    buckets: ["早期", "中期", "近期"],
};

/// The timeline buckets, in their order.
const BUCKETS: [&str; 3] = ["early", "mid", "recent"];

/// The label of each citation function.
fn function_label(function: &str) -> &'static str {
    match function {
        "background" => "Background",
        "baseline" => "Baseline",
        "contrast" => "Contrast",
        "component" => "Component",
        "dataset" => "Dataset",
        "tooling" => "Tooling",
        "historical" => "Historical",
        _ => "Uncategorized",
    }
}

/// A string trimmed; anything else empty.
fn text(value: &Value) -> String {
    value.as_str().map(js_trim).unwrap_or_default().to_owned()
}

/// A number as JavaScript writes it; `null` (or nothing) empty.
fn number(value: &Value) -> String {
    if value.is_null() {
        String::new()
    } else {
        js_string(value)
    }
}

/// A citation label hint in brackets; empty for a blank, `none` or `null` one.
fn bracketed(value: &Value) -> String {
    let label = text(value);
    match label.to_lowercase().as_str() {
        "" | "none" | "null" => String::new(),
        _ if label.starts_with('[') => label,
        _ => format!("[{label}]"),
    }
}

/// The entries of the list `value[key]` (none when it is no list).
fn entries<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value[key].as_array().into_iter().flatten()
}

/// A cited reference as the report lists it.
struct Cited {
    label: String,
    author_year: String,
    title: String,
    keywords: Vec<String>,
    summary: String,
    function: String,
}

impl Cited {
    /// The report's entry for `item` citing `reference` under `label`.
    fn of(item: &Value, reference: &Value, label: String) -> Cited {
        let bibliography = &reference["bibliography"];
        let author = text(&bibliography["authors"][0]);
        let year = &bibliography["year"];
        let title = text(&bibliography["title"]);
        let author_year = match (author.is_empty(), year.is_null()) {
            (false, false) => format!("{author}, {}", number(year)),
            _ if !title.is_empty() => title.clone(),
            _ => "[unlabeled]".to_owned(),
        };
        Cited {
            label,
            author_year,
            title,
            keywords: entries(item, "keywords")
                .map(text)
                .filter(|k| !k.is_empty())
                .collect(),
            summary: text(&item["summary"]),
            function: item["function"]
                .as_str()
                .unwrap_or("uncategorized")
                .to_owned(),
        }
    }

    /// The report's line for the reference, with its function when asked.
    fn line(&self, with_function: bool) -> String {
        let title = match self.title.as_str() {
            "" => String::new(),
            title => format!(": {title}"),
        };
        let function = match with_function {
            true => format!(" ({})", function_label(&self.function)),
            false => String::new(),
        };
        format!("- {} {}{title}{function}", self.label, self.author_year)
    }
}

/// Whether `item`'s mentions carry a label or a reference number.
fn explicit(item: &Value) -> bool {
    entries(item, "mentions").any(|m| {
        !bracketed(&m["citation_label_hint"]).is_empty() || !m["ref_number_hint"].is_null()
    })
}

/// `item`'s label: its first labelled mention's, else its first reference
/// number, else `[AY-<ordinal>]`.
fn item_label(item: &Value, ordinal: usize) -> String {
    let labelled = entries(item, "mentions")
        .map(|m| bracketed(&m["citation_label_hint"]))
        .find(|l| !l.is_empty());
    let numbered = entries(item, "mentions").find_map(|m| {
        m["ref_number_hint"]
            .as_f64()
            .filter(|n| n.fract() == 0.0)
            .map(|_| format!("[{}]", number(&m["ref_number_hint"])))
    });
    labelled
        .or(numbered)
        .unwrap_or_else(|| format!("[AY-{ordinal}]"))
}

/// The References of the set by id, and the report's entry for each cited id.
struct Index<'a> {
    references: HashMap<&'a str, &'a Value>,
    order: Vec<&'a str>,
    cited: Vec<(&'a str, Cited)>,
}

impl<'a> Index<'a> {
    /// The index of `citation`'s items over `references`.
    fn of(citation: &'a Value, references: &'a Value) -> Index<'a> {
        let refs: Vec<(&str, &Value)> = entries(references, "references")
            .map(|r| (r["sourceReferenceId"].as_str().unwrap_or_default(), r))
            .collect();
        let by_id: HashMap<&str, &Value> = refs.iter().copied().collect();
        let mut ordinal = 0;
        let mut cited = Vec::new();
        for item in entries(citation, "items") {
            let id = item["sourceReferenceId"].as_str().unwrap_or_default();
            let Some(reference) = by_id.get(id) else {
                continue;
            };
            let explicit = explicit(item);
            if !explicit {
                ordinal += 1;
            }
            let label = item_label(item, if explicit { 0 } else { ordinal });
            cited.push((id, Cited::of(item, reference, label)));
        }
        Index {
            references: by_id,
            order: refs.into_iter().map(|(id, _)| id).collect(),
            cited,
        }
    }

    /// The report's entry for `id` (the last item citing it).
    fn cited(&self, id: &str) -> Option<&Cited> {
        self.cited
            .iter()
            .rev()
            .find(|(i, _)| *i == id)
            .map(|(_, c)| c)
    }
}

/// Renders `citation`'s report over the complete `references` it cites; `None`
/// when either fails its contract or the citation names a reference outside
/// the set.
pub(in crate::host::world) fn render(citation: &Value, references: &Value) -> Option<String> {
    check_linkage(citation, references).ok()?;
    let index = Index::of(citation, references);
    let language = citation["meta"]["language"].as_str().unwrap_or_default();
    let words = if language.to_lowercase().starts_with("zh") {
        &CHINESE
    } else {
        &ENGLISH
    };
    let mut lines: Vec<String> = vec![
        words.title.into(),
        String::new(),
        words.summary.into(),
        text(&citation["summary"]),
        String::new(),
    ];
    key_references(&mut lines, words, citation, &index);
    let scope = &citation["meta"]["scope"];
    lines.extend([
        words.scope.to_owned(),
        format!("- {}: {}", words.section, text(&scope["section_title"])),
        format!(
            "- {}: {}-{}",
            words.lines,
            number(&scope["line_start"]),
            number(&scope["line_end"])
        ),
        String::new(),
        words.by_function.to_owned(),
    ]);
    by_function(&mut lines, words, &index);
    lines.push(words.timeline.into());
    timeline(&mut lines, words, citation, &index);
    unmapped(&mut lines, words, citation);
    Some(format!("{}\n", js_trim(&lines.join("\n"))))
}

/// The cited references with a key-reference reason, with their functions.
fn key_references(lines: &mut Vec<String>, words: &Words, citation: &Value, index: &Index) {
    let keys: Vec<String> = entries(citation, "items")
        .filter(|item| !text(&item["key_reference_reason"]).is_empty())
        .filter_map(|item| index.cited(item["sourceReferenceId"].as_str().unwrap_or_default()))
        .map(|c| c.line(true))
        .collect();
    if !keys.is_empty() {
        lines.push(words.key_references.into());
        lines.extend(keys);
        lines.push(String::new());
    }
}

/// The cited references grouped by function, the functions in the order they
/// first appear.
fn by_function(lines: &mut Vec<String>, words: &Words, index: &Index) {
    if index.cited.is_empty() {
        lines.push(words.no_mapped.into());
        return;
    }
    let mut functions: Vec<&str> = Vec::new();
    for (_, cited) in &index.cited {
        if !functions.contains(&cited.function.as_str()) {
            functions.push(&cited.function);
        }
    }
    for function in functions {
        lines.push(format!("#### {}", function_label(function)));
        for (_, c) in index.cited.iter().filter(|(_, c)| c.function == function) {
            let title = if c.title.is_empty() {
                "[missing]"
            } else {
                &c.title
            };
            let keywords = match c.keywords.is_empty() {
                true => "[none]".to_owned(),
                false => c.keywords.join(", "),
            };
            lines.extend([
                c.line(false),
                format!("  - {}: {title}", words.item_title),
                format!("  - {}: {keywords}", words.keywords),
                format!("  - {}: {}", words.item_summary, c.summary),
            ]);
        }
        lines.push(String::new());
    }
}

/// Each timeline bucket: its summary and the references it names (a reference
/// no item cites labelled by its position in the set).
fn timeline(lines: &mut Vec<String>, words: &Words, citation: &Value, index: &Index) {
    for (bucket, label) in BUCKETS.iter().zip(words.buckets) {
        let entry = &citation["timeline"][bucket];
        lines.push(format!("#### {label}"));
        lines.push(text(&entry["summary"]));
        let named: Vec<String> = entries(entry, "sourceReferenceIds")
            .filter_map(Value::as_str)
            .filter_map(|id| match index.cited(id) {
                Some(cited) => Some(cited.line(false)),
                None => {
                    let reference = index.references.get(id)?;
                    let position = index.order.iter().position(|i| *i == id)? + 1;
                    let uncited = Cited::of(&Value::Null, reference, format!("[{position}]"));
                    Some(uncited.line(false))
                }
            })
            .collect();
        if named.is_empty() {
            lines.push(words.no_representative.into());
        } else {
            lines.extend(named);
        }
        lines.push(String::new());
    }
}

/// The mentions no reference was mapped to, with why and where.
fn unmapped(lines: &mut Vec<String>, words: &Words, citation: &Value) {
    let mentions: Vec<String> = entries(citation, "unresolved")
        .map(|m| {
            let marker = match text(&m["marker"]) {
                marker if marker.is_empty() => "[unmapped]".to_owned(),
                marker => marker,
            };
            let reason = text(&m["reason"]);
            let snippet = text(&m["snippet"]);
            let reason = if reason.is_empty() {
                reason
            } else {
                format!(" ({reason})")
            };
            let snippet = if snippet.is_empty() {
                snippet
            } else {
                format!(": {snippet}")
            };
            format!("- {marker}{reason}{snippet}")
        })
        .collect();
    if !mentions.is_empty() {
        lines.push(words.unmapped.into());
        lines.extend(mentions);
        lines.push(String::new());
    }
}

#[cfg(test)]
#[path = "citation_report_tests.rs"]
mod tests;
