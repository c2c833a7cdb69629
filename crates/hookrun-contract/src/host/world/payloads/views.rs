//! What a managed-note write stores, as the reference host's owners build it:
//! the note's HTML (its title, a view of the value, and the value as an inline
//! block) and the payload its carrier holds.

use serde_json::{Map, Value, json};

use super::codec::{Format, Logical, MAX_PAYLOAD_BYTES};
use super::html::{decode_entities, escape_attribute};
use super::markdown::{payload_span, render, structured_note};
use super::text::{is_js_space, is_truthy, js_json, js_number, js_string, js_text, js_trim};
use super::{json_bytes, managed_kind};
use crate::host::HostError;

/// A managed note a write stores: its title, HTML and carrier payload.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::host::world) struct ManagedContent {
    pub(in crate::host::world) title: String,
    pub(in crate::host::world) content: String,
    pub(in crate::host::world) payload: Logical,
}

/// The title of an artifact note of `kind`.
pub(in crate::host::world) fn artifact_title(kind: &str) -> &'static str {
    match kind {
        "digest" => "Digest",
        "references" => "References",
        "citation-analysis" => "Citation Analysis",
        _ => "Literature Score",
    }
}

/// A custom or conversation note of `title` and `markdown`, refused as the
/// reference refuses a blank title or blank markdown.
pub(in crate::host::world) fn markdown_note(
    kind: &str,
    title: &str,
    markdown: &str,
) -> Result<ManagedContent, HostError> {
    let title = js_trim(title);
    let blank = |field: &str| {
        HostError::capability(
            "invalid_request",
            "managed note content is invalid",
            json!({"reason": "invalid_value", "field": field}),
        )
    };
    if title.is_empty() {
        return Err(blank("content.title"));
    }
    if js_trim(markdown).is_empty() {
        return Err(blank("content.markdown"));
    }
    let (view, value, format) = if kind == "custom" {
        ("custom-html", Value::String(markdown.into()), Format::Text)
    } else {
        let value = json!({"version": 1, "path": "mcp/conversation-note.md",
            "format": "markdown", "content": markdown});
        ("conversation-note-html", value, Format::Json)
    };
    build(kind, title, view, &render(markdown), value, format)
}

/// An artifact note of `kind` holding `value` (a digest's `{markdown}`, the
/// artifact of the others).
pub(in crate::host::world) fn artifact_note(
    kind: &str,
    value: &Value,
) -> Result<ManagedContent, HostError> {
    let title = artifact_title(kind);
    let view = format!("{kind}-html");
    match kind {
        "digest" => {
            let markdown = match value.get("markdown").and_then(Value::as_str) {
                Some(markdown) => without_title(markdown, title),
                None => js_string(value),
            };
            let body = render(&markdown);
            build(
                kind,
                title,
                &view,
                &body,
                Value::String(markdown),
                Format::Text,
            )
        }
        "references" => build(
            kind,
            title,
            &view,
            &references_view(value),
            value.clone(),
            Format::Json,
        ),
        "citation-analysis" => build(
            kind,
            title,
            &view,
            &citation_view(value),
            value.clone(),
            Format::Json,
        ),
        _ => build(
            kind,
            title,
            &view,
            &score_view(value),
            value.clone(),
            Format::Json,
        ),
    }
}

/// The stored note of `kind`: its structured HTML and its carrier payload,
/// refused past the Broker's limit (the HTML, the value, or the detail it makes).
fn build(
    kind: &str,
    title: &str,
    view: &str,
    body: &str,
    value: Value,
    format: Format,
) -> Result<ManagedContent, HostError> {
    let managed = managed_kind(kind).copied().unwrap_or(super::MANAGED[5]);
    let raw = match format {
        Format::Text => js_text(Some(&value)),
        _ => js_json(&value),
    };
    let span = payload_span(managed.payload_type, &raw);
    let content = structured_note(kind, title, view, body, &span);
    let observed = json_bytes(&Value::String(content.clone()))
        .max(json_bytes(&value))
        .max(json_bytes(
            &json!({"kind": "managed", "noteKind": kind, "title": title,
            "payload": value}),
        ));
    if observed > MAX_PAYLOAD_BYTES {
        return Err(HostError::capability(
            "resource_limited",
            "managed note write exceeds the Broker limit",
            json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES, "observed": observed}),
        ));
    }
    Ok(ManagedContent {
        title: title.to_owned(),
        content,
        payload: Logical {
            payload_type: managed.payload_type.into(),
            note_kind: kind.into(),
            schema_version: managed.schema_version.into(),
            format,
            value,
        },
    })
}

/// A digest's markdown without a first heading `# <title>` and the blank lines
/// after it, trimmed.
fn without_title(markdown: &str, title: &str) -> String {
    let text = markdown.replace("\r\n", "\n");
    let mut lines: Vec<&str> = text.split('\n').collect();
    if let Some(first) = lines.iter().position(|l| !js_trim(l).is_empty()) {
        let heading = lines[first]
            .strip_prefix('#')
            .filter(|rest| rest.starts_with(is_js_space))
            .map(js_trim);
        if heading.is_some_and(|h| js_trim(&decode_entities(h)) == js_trim(title)) {
            lines.remove(first);
            while lines.get(first).is_some_and(|l| js_trim(l).is_empty()) {
                lines.remove(first);
            }
        }
    }
    js_trim(&lines.join("\n")).to_owned()
}

/// `String(value ?? "")`, escaped as the managed owner escapes HTML.
fn esc(value: Option<&Value>) -> String {
    let text = match value {
        None | Some(Value::Null) => String::new(),
        Some(v) => js_string(v),
    };
    escape_attribute(&text)
}

/// `value[key] || ""`, escaped.
fn esc_or_empty(value: &Value, key: &str) -> String {
    escape_attribute(&js_text(value.get(key)))
}

/// The items of the list `value[key]` (none when it is not a list).
fn list<'a>(value: &'a Value, key: &str) -> &'a [Value] {
    value
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A list element as `Array.prototype.join` writes it (`null` empty).
fn joined(value: &Value) -> String {
    if value.is_null() {
        String::new()
    } else {
        js_string(value)
    }
}

/// A References note's view: a table of its references.
fn references_view(value: &Value) -> String {
    let rows: String = list(value, "references")
        .iter()
        .enumerate()
        .map(|(i, reference)| {
            let b = reference.get("bibliography").unwrap_or(&Value::Null);
            let source = [
                "publicationTitle",
                "conferenceName",
                "university",
                "archiveID",
            ]
            .iter()
            .map(|k| b.get(*k))
            .find(|v| is_truthy(*v))
            .flatten();
            let locator: Vec<String> = [
                ("volume", "Vol. "),
                ("issue", "No. "),
                ("pages", "pp. "),
                ("place", ""),
            ]
            .iter()
            .filter(|(k, _)| is_truthy(b.get(*k)))
            .map(|(k, prefix)| format!("{prefix}{}", js_text(b.get(*k))))
            .collect();
            let authors: Vec<String> = list(b, "authors").iter().map(joined).collect();
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                i + 1,
                esc(b.get("year")),
                esc_or_empty(b, "title"),
                escape_attribute(&authors.join("; ")),
                escape_attribute(&js_text(source)),
                escape_attribute(&locator.join("; "))
            )
        })
        .collect();
    format!(
        "<table data-zs-view=\"references-table\"><thead><tr><th>#</th><th>Year</th><th>Title</th>\
         <th>Authors</th><th>Source</th><th>Locator</th></tr></thead><tbody>{rows}</tbody></table>"
    )
}

/// The keys of `members` in JavaScript's property order: integer keys
/// ascending, then the others as written.
fn js_key_order(members: &Map<String, Value>) -> Vec<&String> {
    let index = |k: &str| {
        k.parse::<u32>()
            .ok()
            .filter(|n| *n < u32::MAX && n.to_string() == k)
    };
    let mut keys: Vec<&String> = members.keys().filter(|k| index(k).is_some()).collect();
    keys.sort_by_key(|k| index(k));
    keys.extend(members.keys().filter(|k| index(k).is_none()));
    keys
}

/// A table of `rows` (`""` without rows) under the view `name` with `heads`.
fn table(name: &str, heads: &[&str], rows: &str) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let heads: String = heads.iter().map(|h| format!("<th>{h}</th>")).collect();
    format!(
        "<table data-zs-view=\"{name}\"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
    )
}

/// A row of the `keys` of `item`, each `item[key] || ""`.
fn row(item: &Value, keys: &[&str]) -> String {
    let cells: String = keys
        .iter()
        .map(|k| format!("<td>{}</td>", esc_or_empty(item, k)))
        .collect();
    format!("<tr>{cells}</tr>")
}

/// The rows of a citation analysis's timeline, its periods in JavaScript's
/// property order.
fn timeline_rows(value: &Value) -> String {
    let empty = Map::new();
    let timeline = value
        .get("timeline")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    js_key_order(timeline)
        .into_iter()
        .map(|period| {
            let entry = &timeline[period];
            let ids: Vec<String> = list(entry, "sourceReferenceIds")
                .iter()
                .map(joined)
                .collect();
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape_attribute(period),
                esc_or_empty(entry, "summary"),
                escape_attribute(&ids.join(", "))
            )
        })
        .collect()
}

/// A citation analysis's summary and meta paragraphs (`""` for each it lacks).
fn citation_paragraphs(value: &Value) -> [String; 2] {
    let summary = match value.get("summary").filter(|s| is_truthy(Some(s))) {
        Some(summary) => format!(
            "<p data-zs-view=\"citation-summary\">{}</p>",
            esc(Some(summary))
        ),
        None => String::new(),
    };
    let meta = match value.get("meta").filter(|m| is_truthy(Some(m))) {
        Some(meta) => format!(
            "<p data-zs-view=\"citation-meta\">Language: {} · Mapping reliability: {}</p>",
            esc_or_empty(meta, "language"),
            esc_or_empty(meta, "mapping_reliability")
        ),
        None => String::new(),
    };
    [summary, meta]
}

/// A Citation Analysis note's view: its summary, meta, timeline, items and
/// unresolved markers.
fn citation_view(value: &Value) -> String {
    let item_keys = [
        "sourceReferenceId",
        "function",
        "role_in_context",
        "topic",
        "usage",
        "summary",
    ];
    let items: String = list(value, "items")
        .iter()
        .map(|i| row(i, &item_keys))
        .collect();
    let unresolved: String = list(value, "unresolved")
        .iter()
        .map(|i| row(i, &["marker", "reason", "snippet"]))
        .collect();
    let [summary, meta] = citation_paragraphs(value);
    let tables = [
        table(
            "citation-timeline",
            &["Period", "Summary", "References"],
            &timeline_rows(value),
        ),
        table(
            "citation-items",
            &["Reference", "Function", "Role", "Topic", "Usage", "Summary"],
            &items,
        ),
        table(
            "citation-unresolved",
            &["Marker", "Reason", "Snippet"],
            &unresolved,
        ),
    ];
    [summary, meta]
        .into_iter()
        .chain(tables)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A number as JavaScript writes it.
fn js_number_text(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n == 0.0 {
        "0".into()
    } else {
        format!("{n}")
    }
}

/// A Literature Score note's view: the score, its stars, a radar of its
/// dimensions and their table (a score without dimensions as its JSON).
fn score_view(value: &Value) -> String {
    let Some(dimensions) = value.get("dimensions").and_then(Value::as_array) else {
        return format!("<pre>{}</pre>", super::html::escape_html(&js_json(value)));
    };
    let overall = value.get("overall_score");
    let stars = (overall.map_or(f64::NAN, js_number).clamp(0.0, 100.0) / 10.0).round() / 2.0;
    let cell = |d: &Value, key: &str| match d.get(key) {
        Some(Value::Null) => "N/A".to_owned(),
        v => esc(v),
    };
    let rows: String = dimensions
        .iter()
        .map(|d| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(d.get("name")),
                cell(d, "score"),
                cell(d, "confidence"),
                esc(d.get("summary"))
            )
        })
        .collect();
    [
        "<div data-schema-version=\"9\" data-zs-note-kind=\"literature-score\">".to_owned(),
        "<h1>Literature Score</h1>".to_owned(),
        format!(
            "<p><strong>{}/100</strong> ({}/5 stars)</p>",
            esc(overall),
            js_number_text(stars)
        ),
        format!(
            "<p>Paper type: {} · Confidence: {} · Confidence-adjusted score: {}</p>",
            esc(value.get("paper_type")),
            esc(value.get("confidence")),
            esc(value.get("confidence_adjusted_score"))
        ),
        format!(
            "<div data-zs-block=\"literature-score-radar\">{}</div>",
            radar(dimensions)
        ),
        "<table data-zs-view=\"literature-score-dimensions\"><thead><tr><th>Dimension</th>\
         <th>Score</th><th>Confidence</th><th>Summary</th></tr></thead>"
            .to_owned(),
        format!("<tbody>{rows}</tbody></table>"),
        "</div>".to_owned(),
    ]
    .join("\n")
}

/// The point of dimension `index` of `n` at `value` (0 to 100) on the radar.
fn radar_point(index: usize, n: usize, value: f64) -> (String, String) {
    let angle = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * index as f64 / n as f64;
    let distance = 175.0 * (value.clamp(0.0, 100.0) / 100.0);
    (
        js_number_text(320.0 + angle.cos() * distance),
        js_number_text(250.0 + angle.sin() * distance),
    )
}

/// The points of the radar polygon that puts dimension `i` at `value(i)`.
fn radar_polygon(n: usize, value: impl Fn(usize) -> f64) -> String {
    let points: Vec<String> = (0..n)
        .map(|i| {
            let (x, y) = radar_point(i, n, value(i));
            format!("{x},{y}")
        })
        .collect();
    points.join(" ")
}

/// The radar of a score's `dimensions` (an SVG of 640 by 520): rings, axes, the
/// scores and the dimension names.
fn radar(dimensions: &[Value]) -> String {
    let n = dimensions.len();
    let rings: String = [20.0, 40.0, 60.0, 80.0, 100.0]
        .iter()
        .map(|v| {
            format!(
                "<polygon points=\"{}\" fill=\"none\" stroke=\"#c8ccd0\" stroke-width=\"1\"/>",
                radar_polygon(n, |_| *v)
            )
        })
        .collect();
    let ends: Vec<(String, String)> = (0..n).map(|i| radar_point(i, n, 100.0)).collect();
    let axes: String = ends
        .iter()
        .map(|(x, y)| {
            format!(
                "<line x1=\"320\" y1=\"250\" x2=\"{x}\" y2=\"{y}\" stroke=\"#c8ccd0\" stroke-width=\"1\"/>"
            )
        })
        .collect();
    let labels: String = ends
        .iter()
        .zip(dimensions)
        .map(|((x, y), d)| {
            format!(
                "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" dominant-baseline=\"middle\" \
                 font-family=\"sans-serif\" font-size=\"13\" fill=\"#2f3337\">{}</text>",
                esc(d.get("name"))
            )
        })
        .collect();
    let scores = radar_polygon(n, |i| {
        let score = dimensions[i].get("score").filter(|s| !s.is_null());
        score.map_or(0.0, js_number)
    });
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"520\" viewBox=\"0 0 640 520\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><g>{rings}{axes}<polygon points=\"{scores}\" \
         fill=\"#d28a00\" fill-opacity=\"0.28\" stroke=\"#b36d00\" stroke-width=\"3\"/>{labels}</g></svg>"
    )
}
