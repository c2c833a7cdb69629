//! Readable differences between an expected and an actual JSON value.

use serde_json::Value;
use similar::{Algorithm, ChangeTag, TextDiff};

use hookrun::run::expect::sorted;

use super::style::{ADDED, ADDED_WORDS, REMOVED, REMOVED_WORDS, paint};

/// Lines of context kept around each change.
const CONTEXT: usize = 2;

/// A line diff of the two values pretty-printed with sorted keys: `-` lines
/// (red) are expected only, `+` lines (green) actual only, the words that
/// changed inside them highlighted. Myers' algorithm (`similar`) keeps memory
/// linear in the lines, however long both sides are.
pub fn json_diff(expected: &Value, actual: &Value) -> String {
    let pretty = |v: &Value| serde_json::to_string_pretty(&sorted(v)).unwrap_or_default();
    let (a, b) = (pretty(expected), pretty(actual));
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .diff_lines(&a, &b);
    let mut ops: Vec<(char, String)> = Vec::new();
    for op in diff.ops() {
        for change in diff.iter_inline_changes(op) {
            let (tag, style, words) = match change.tag() {
                ChangeTag::Equal => (' ', anstyle::Style::new(), anstyle::Style::new()),
                ChangeTag::Delete => ('-', REMOVED, REMOVED_WORDS),
                ChangeTag::Insert => ('+', ADDED, ADDED_WORDS),
            };
            let line: String = change
                .iter_strings_lossy()
                .map(|(changed, text)| {
                    let text = text.trim_end_matches('\n');
                    paint(if changed { words } else { style }, text)
                })
                .collect();
            ops.push((tag, format!("{}{line}", paint(style, format!("{tag} ")))));
        }
    }
    let changed: Vec<bool> = ops.iter().map(|(tag, _)| *tag != ' ').collect();
    let mut out = String::new();
    let mut skipped = false;
    for (i, (_, line)) in ops.iter().enumerate() {
        let near =
            (i.saturating_sub(CONTEXT)..=(i + CONTEXT).min(ops.len() - 1)).any(|j| changed[j]);
        if near {
            if skipped {
                out.push_str("   ...\n");
                skipped = false;
            }
            out.push_str(&format!(" {line}\n"));
        } else {
            skipped = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The diff as a terminal without colour shows it.
    fn plain(diff: String) -> String {
        anstream::adapter::strip_str(&diff).to_string()
    }

    #[test]
    fn changed_words_are_highlighted_inside_changed_lines() {
        let diff = json_diff(
            &json!({"title": "Cats and dogs"}),
            &json!({"title": "Cats or dogs"}),
        );
        let removed = diff
            .lines()
            .find(|l| plain(l.to_string()).starts_with(" -"))
            .unwrap();
        let added = diff
            .lines()
            .find(|l| plain(l.to_string()).starts_with(" +"))
            .unwrap();
        assert!(
            removed.contains(&paint(REMOVED_WORDS, "and")),
            "{removed:?}"
        );
        assert!(added.contains(&paint(ADDED_WORDS, "or")), "{added:?}");
        assert_eq!(plain(added.to_string()), " +   \"title\": \"Cats or dogs\"");
    }

    #[test]
    fn only_changed_lines_and_their_context_are_shown() {
        let diff = plain(json_diff(
            &json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7}),
            &json!({"g": 7, "f": 6, "e": 5, "d": 4, "c": 30, "b": 2, "a": 1}),
        ));
        let expected = [
            "   ...",
            "     \"a\": 1,",
            "     \"b\": 2,",
            " -   \"c\": 3,",
            " +   \"c\": 30,",
            "     \"d\": 4,",
            "     \"e\": 5,",
        ];
        assert_eq!(diff.lines().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn long_expectations_diff_in_linear_memory() {
        // 20,000 lines a side: a table of every pair of lines would need 1.6 GB.
        let long = |changed: usize| {
            Value::Array(
                (0..20_000)
                    .map(|i| json!(if i == changed { -1 } else { i as i64 }))
                    .collect(),
            )
        };
        let diff = plain(json_diff(&long(10_000), &long(15_000)));
        let changes: Vec<&str> = diff
            .lines()
            .filter(|l| l.starts_with(" -") || l.starts_with(" +"))
            .collect();
        assert_eq!(
            changes,
            [" -   -1,", " +   10000,", " -   15000,", " +   -1,"]
        );
    }
}
