//! `taskNameTemplate` rendering (`01-manifest.md` §7).

use serde_json::{Map, Value};

/// The value table of §7 step 1, in its order of construction: `workflowId`,
/// `workflowLabel`, `targetParentKey`, `sourceAttachmentName`, `sourceAttachmentStem`, then
/// every effective parameter (a parameter named like a built-in replaces its value).
pub fn task_name_values(
    workflow_id: &str,
    workflow_label: &str,
    target_parent_key: Option<&str>,
    source_attachment_name: Option<&str>,
    effective_params: &Map<String, Value>,
) -> Map<String, Value> {
    let text = |s: Option<&str>| Value::String(s.unwrap_or_default().to_string());
    let stem = source_attachment_name.map(|name| match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    });
    let mut values = Map::new();
    values.insert("workflowId".into(), text(Some(workflow_id)));
    values.insert("workflowLabel".into(), text(Some(workflow_label)));
    values.insert("targetParentKey".into(), text(target_parent_key));
    values.insert("sourceAttachmentName".into(), text(source_attachment_name));
    values.insert("sourceAttachmentStem".into(), text(stem));
    for (key, value) in effective_params {
        values.insert(key.clone(), value.clone());
    }
    values
}

/// The character that opens a placeholder.
const OPEN: char = '{';
/// The character that closes a placeholder.
const CLOSE: char = '}';

/// Renders `template`: `{name}` placeholders are looked up exactly, then by normalised
/// name (lower-case, without spaces, `_` and `-`); non-scalar values and unknown names
/// render empty; whitespace runs collapse, ends are trimmed and a dangling trailing `:` or
/// `：` is removed. A `{` without a closing `}` is kept literally.
pub fn render_task_name(template: &str, values: &Map<String, Value>) -> String {
    let mut rendered = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find(OPEN) {
        rendered.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find([OPEN, CLOSE]) {
            Some(close) if after[close..].starts_with(CLOSE) => {
                rendered.push_str(&scalar_text(lookup(values, &after[..close])));
                rest = &after[close + 1..];
            }
            _ => {
                rendered.push(OPEN);
                rest = after;
            }
        }
    }
    rendered.push_str(rest);
    compact(&rendered)
}

fn normalised(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

fn lookup<'a>(values: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    values.get(name).or_else(|| {
        let wanted = normalised(name);
        values
            .iter()
            .find(|(key, _)| normalised(key) == wanted)
            .map(|(_, value)| value)
    })
}

fn scalar_text(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e15 => {
                format!("{}", f as i64)
            }
            _ => n.to_string(),
        },
        _ => String::new(),
    }
}

fn compact(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match joined.strip_suffix([':', '：']) {
        Some(stripped) => stripped.trim_end().to_string(),
        None => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn values() -> Map<String, Value> {
        let params =
            json!({"language": "de", "depth": 2.0, "tags": ["a"], "flag": true, "none": null});
        task_name_values(
            "digest",
            "Digest",
            Some("ABCD"),
            Some("paper.final.pdf"),
            params.as_object().cloned().as_ref().unwrap_or(&Map::new()),
        )
    }

    #[test]
    fn renders_table() {
        let cases = [
            (
                "{workflowLabel}: {sourceAttachmentStem}",
                "Digest: paper.final",
            ),
            ("{source_attachment_name}", "paper.final.pdf"),
            ("{Source Attachment-Name}", "paper.final.pdf"),
            ("{targetParentKey} [{language}]", "ABCD [de]"),
            ("{depth} {flag}", "2 true"),
            ("  {tags}{none}  x   y  ", "x y"),
            ("Summary: {unknown}", "Summary"),
            ("Resumen：{unknown}", "Resumen"),
            ("{unclosed", "{unclosed"),
            ("a {{workflowId}", "a {digest"),
            ("", ""),
        ];
        for (template, expected) in cases {
            assert_eq!(
                render_task_name(template, &values()),
                expected,
                "{template}"
            );
        }
    }

    #[test]
    fn parameters_override_built_ins_and_missing_names_are_empty() {
        let params = json!({"workflowId": "shadow"});
        let map = params.as_object().cloned().unwrap_or_default();
        let v = task_name_values("w", "W", None, None, &map);
        assert_eq!(
            render_task_name("{workflowId}|{targetParentKey}|{sourceAttachmentStem}", &v),
            "shadow||"
        );
    }
}
