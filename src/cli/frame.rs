//! Code frames: the failing line of a hook with a caret under the column.

use std::fmt::Write;
use std::path::Path;

use hookrun::sandbox::SourceLocation;

/// Renders `file:line:col`, the line before, the failing line and a caret.
pub fn code_frame(root: &Path, loc: &SourceLocation) -> String {
    let mut out = format!("  --> {}:{}:{}\n", loc.file, loc.line, loc.column);
    let Ok(source) = std::fs::read_to_string(root.join(&loc.file)) else {
        return out;
    };
    let line = loc.line as usize;
    let width = line.to_string().len();
    let first = line.saturating_sub(1).max(1);
    for (n, text) in source.lines().enumerate().map(|(i, t)| (i + 1, t)) {
        if n < first {
            continue;
        }
        if n > line {
            break;
        }
        let _ = writeln!(out, "{n:>width$} | {text}");
        if n == line {
            let pad = " ".repeat(loc.column.saturating_sub(1) as usize);
            let _ = writeln!(out, "{:>width$} | {pad}^", "");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_points_at_the_column() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.mjs"), "one\ntwo\n  three()\nfour\n").unwrap();
        let frame = code_frame(
            dir.path(),
            &SourceLocation {
                file: "a.mjs".into(),
                line: 3,
                column: 3,
            },
        );
        assert_eq!(frame, "  --> a.mjs:3:3\n2 | two\n3 |   three()\n  |   ^\n");
    }
}
