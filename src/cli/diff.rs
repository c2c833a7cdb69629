//! Readable differences between an expected and an actual JSON value.

use serde_json::Value;

use hookrun::run::expect::sorted;

/// Lines of context kept around each change.
const CONTEXT: usize = 2;

/// A line diff of the two values pretty-printed with sorted keys: `-` lines
/// are expected only, `+` lines actual only.
pub fn json_diff(expected: &Value, actual: &Value) -> String {
    let pretty = |v: &Value| serde_json::to_string_pretty(&sorted(v)).unwrap_or_default();
    let (a, b) = (pretty(expected), pretty(actual));
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let ops = lcs_ops(&a, &b);
    let changed: Vec<bool> = ops.iter().map(|(tag, _)| *tag != ' ').collect();
    let mut out = String::new();
    let mut skipped = false;
    for (i, (tag, line)) in ops.iter().enumerate() {
        let near =
            (i.saturating_sub(CONTEXT)..=(i + CONTEXT).min(ops.len() - 1)).any(|j| changed[j]);
        if near {
            if skipped {
                out.push_str("   ...\n");
                skipped = false;
            }
            out.push_str(&format!(" {tag} {line}\n"));
        } else {
            skipped = true;
        }
    }
    out
}

/// The edit script of a longest common subsequence: (' ' | '-' | '+', line).
fn lcs_ops<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<(char, &'a str)> {
    let (n, m) = (a.len(), b.len());
    let mut table = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] = if a[i] == b[j] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut ops) = (0, 0, Vec::with_capacity(n + m));
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || table[i + 1][j] >= table[i][j + 1]) {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_changed_lines_and_their_context_are_shown() {
        let diff = json_diff(
            &json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7}),
            &json!({"g": 7, "f": 6, "e": 5, "d": 4, "c": 30, "b": 2, "a": 1}),
        );
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
}
