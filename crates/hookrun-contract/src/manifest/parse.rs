//! Parsing manifest bytes into JSON (validation layer 1).
//!
//! `serde_json` refuses documents nested deeper than 128 levels and numbers outside the
//! `f64` range, so neither can exhaust the stack; both surface as parse diagnostics. The
//! later layers walk the schema's fixed shape and never recurse into free-form values.

use std::path::Path;

use serde_json::Value;

use crate::manifest::diagnostic::{Category, Diagnostic};

/// Reads and parses a JSON file. Any failure (I/O or syntax) is a `manifest_parse_error`
/// with message `Invalid workflow manifest: <path>`.
pub fn read_json(path: &Path) -> Result<Value, Box<Diagnostic>> {
    match crate::input::read_regular(path, crate::input::MAX_JSON_BYTES) {
        Ok(bytes) => parse_json(&bytes, path),
        Err(err) => Err(Box::new(parse_error(path).with_reason(err.to_string()))),
    }
}

/// Parses bytes as JSON; `path` is only used for the diagnostic.
pub fn parse_json(bytes: &[u8], path: &Path) -> Result<Value, Box<Diagnostic>> {
    serde_json::from_slice(bytes).map_err(|err| {
        let mut diagnostic = parse_error(path).with_reason(err.to_string());
        if err.line() > 0 {
            diagnostic = diagnostic.with_position(err.line(), err.column());
        }
        Box::new(diagnostic)
    })
}

fn parse_error(path: &Path) -> Diagnostic {
    Diagnostic::new(
        Category::ManifestParseError,
        format!("Invalid workflow manifest: {}", path.display()),
    )
    .with_path(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Value, Box<Diagnostic>> {
        parse_json(text.as_bytes(), Path::new("w/workflow.json"))
    }

    #[test]
    fn malformed_json_is_a_parse_diagnostic_never_a_panic() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let deep_objects = "{\"a\":".repeat(10_000);
        let cases = [
            "{\"id\": ",
            "",
            "{\"n\": 1e400}",
            "[1,]",
            "\u{feff}{}",
            deep.as_str(),
            deep_objects.as_str(),
        ];
        for text in cases {
            let err = parse(text).err().map(|d| *d);
            let d = err.unwrap_or_else(|| Diagnostic::new(Category::HookImportError, "parsed"));
            assert_eq!(d.category, Category::ManifestParseError, "{text:.20}");
            assert_eq!(d.message, "Invalid workflow manifest: w/workflow.json");
            assert!(d.reason.is_some());
        }
    }

    #[test]
    fn syntax_error_carries_line_and_column() {
        let d = parse("{\n  \"a\": 1,\n  \"b\" 2\n}").err().map(|d| *d);
        let d = d.unwrap_or_else(|| Diagnostic::new(Category::HookImportError, "parsed"));
        assert_eq!((d.line, d.column), (Some(3), Some(7)));
    }

    #[test]
    fn missing_file_is_a_parse_diagnostic() {
        let d = read_json(Path::new("/nonexistent/workflow.json")).err();
        assert_eq!(d.map(|d| d.category), Some(Category::ManifestParseError));
    }
}
