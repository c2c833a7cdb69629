//! Code frames: the failing line of a hook with a caret under the column and
//! the lines around it, under a location a terminal or an editor can open.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use hookrun::sandbox::SourceLocation;

use super::style::{CARET, GUTTER, paint};

/// Lines shown before and after the failing one.
const CONTEXT: usize = 2;

/// `path` as hookrun prints it: relative to the current directory when it lies
/// inside it, else absolute, so that a terminal or an editor started there
/// opens it whatever directory the command was pointed at.
pub fn shown_path(path: &Path) -> String {
    let Ok(cwd) = std::env::current_dir() else {
        return path.display().to_string();
    };
    let absolute: PathBuf = if path.is_absolute() {
        path.components().collect()
    } else {
        cwd.join(path).components().collect()
    };
    match absolute.strip_prefix(&cwd) {
        Ok(relative) if !relative.as_os_str().is_empty() => relative.display().to_string(),
        _ => absolute.display().to_string(),
    }
}

/// Renders `--> file:line:col` (the file under `root`, shown from the current
/// directory), the lines around the failing one and a caret under its column.
pub fn code_frame(root: &Path, loc: &SourceLocation) -> String {
    let file = root.join(&loc.file);
    let mut out = format!(
        "  {} {}:{}:{}\n",
        paint(GUTTER, "-->"),
        shown_path(&file),
        loc.line,
        loc.column
    );
    let Ok(source) = std::fs::read_to_string(&file) else {
        return out;
    };
    let line = loc.line as usize;
    let (first, last) = (line.saturating_sub(CONTEXT).max(1), line + CONTEXT);
    let width = last.to_string().len();
    for (n, text) in source.lines().enumerate().map(|(i, t)| (i + 1, t)) {
        if n < first {
            continue;
        }
        if n > last {
            break;
        }
        let _ = writeln!(out, "{} {text}", paint(GUTTER, format!("{n:>width$} |")));
        if n == line {
            let pad = " ".repeat(loc.column.saturating_sub(1) as usize);
            let _ = writeln!(
                out,
                "{} {pad}{}",
                paint(GUTTER, format!("{:>width$} |", "")),
                paint(CARET, "^")
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_points_at_the_column_between_its_context_lines() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.mjs"),
            "one\ntwo\n  three()\nfour\nfive\nsix\n",
        )
        .unwrap();
        let frame = code_frame(
            dir.path(),
            &SourceLocation {
                file: "a.mjs".into(),
                line: 3,
                column: 3,
            },
        );
        let plain = anstream::adapter::strip_str(&frame).to_string();
        let file = shown_path(&dir.path().join("a.mjs"));
        assert_eq!(
            plain,
            format!(
                "  --> {file}:3:3\n1 | one\n2 | two\n3 |   three()\n  |   ^\n4 | four\n5 | five\n"
            )
        );
        assert!(frame.contains(&paint(CARET, "^")), "{frame:?}");
    }

    #[test]
    fn paths_are_shown_from_the_current_directory() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(shown_path(&cwd.join("hooks/a.mjs")), "hooks/a.mjs");
        assert_eq!(shown_path(Path::new("./hooks/./a.mjs")), "hooks/a.mjs");
        assert_eq!(
            shown_path(Path::new("/elsewhere/a.mjs")),
            "/elsewhere/a.mjs"
        );
    }
}
