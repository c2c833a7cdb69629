//! Host paths out of what hooks read: every host error a hook receives names paths
//! relative to the files root or under `/bundles/<id>/`, never where they live on the
//! host (the fixture's files directory, a bundle's zip or extraction directory, the
//! temporary directory).

use std::path::Path;

use serde_json::Value;

use crate::host::HostError;

/// What stands in for a path under the system temporary directory that no root names.
pub const TEMPORARY: &str = "<temporary directory>";

/// Host directories and what a hook sees instead, longest first.
#[derive(Debug, Default)]
pub struct Redactions {
    rules: Vec<(String, String)>,
    /// Directories of the simulated host that hooks see as they are, even when a
    /// host directory is a prefix of them (the simulated `/tmp/hookrun` under a
    /// system temporary directory `/tmp`).
    kept: Vec<String>,
}

impl Redactions {
    /// Shows `dir` (as given and canonical) as `shown`: `""` makes the paths under it
    /// relative (and `dir` itself `.`).
    pub fn add(&mut self, dir: &Path, shown: &str) {
        let forms = [Some(dir.to_path_buf()), dir.canonicalize().ok()];
        for form in forms.into_iter().flatten() {
            let text = form.to_string_lossy().trim_end_matches('/').to_string();
            if text.len() > 1 && !self.rules.iter().any(|(p, _)| *p == text) {
                self.rules.push((text, shown.to_string()));
            }
        }
        self.rules
            .sort_by_key(|(dir, _)| std::cmp::Reverse(dir.len()));
    }

    /// Leaves `dir` of the simulated host, and what is under it, as it is.
    pub fn keep(&mut self, dir: &str) {
        self.kept.push(dir.trim_end_matches('/').to_string());
    }

    /// `text` with every host directory replaced.
    pub fn apply(&self, text: &str) -> String {
        // A kept directory stands aside (as text no path holds) while the host
        // directories are replaced.
        let mut out = text.to_string();
        for (n, kept) in self.kept.iter().enumerate() {
            out = out.replace(&format!("{kept}/"), &format!("\u{0}{n}\u{0}/"));
            if out == *kept {
                out = format!("\u{0}{n}\u{0}");
            }
        }
        out = self.replaced(out);
        for (n, kept) in self.kept.iter().enumerate() {
            out = out.replace(&format!("\u{0}{n}\u{0}"), kept);
        }
        out
    }

    /// `text` with every host directory replaced.
    fn replaced(&self, text: String) -> String {
        let mut out = text;
        for (dir, shown) in &self.rules {
            if !out.contains(dir.as_str()) {
                continue;
            }
            let under = format!("{dir}/");
            out = if shown.is_empty() {
                out.replace(&under, "").replace(dir.as_str(), ".")
            } else {
                out.replace(&under, &format!("{shown}/"))
                    .replace(dir.as_str(), shown)
            };
        }
        out
    }

    /// `error` with its message and every string of its fields redacted.
    pub fn error(&self, mut error: HostError) -> HostError {
        error.message = self.apply(&error.message);
        for value in error.fields.values_mut() {
            self.value(value);
        }
        error
    }

    fn value(&self, value: &mut Value) {
        match value {
            Value::String(s) => *s = self.apply(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.value(v)),
            Value::Object(map) => map.values_mut().for_each(|v| self.value(v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_kept_directory_of_the_simulated_host_is_shown_as_it_is() {
        let mut redactions = Redactions::default();
        redactions.add(Path::new("/tmp"), TEMPORARY);
        redactions.keep("/tmp/hookrun");
        assert_eq!(
            redactions.apply("wrote /tmp/hookrun/a.png, read /tmp/x and /tmp/hookrunner/y"),
            "wrote /tmp/hookrun/a.png, read <temporary directory>/x and <temporary directory>/hookrunner/y"
        );
        assert_eq!(redactions.apply("/tmp/hookrun"), "/tmp/hookrun");
    }

    #[test]
    fn host_directories_become_relative_or_virtual() {
        let files = tempfile::tempdir().unwrap();
        let bundle = tempfile::tempdir().unwrap();
        let mut r = Redactions::default();
        r.add(files.path(), "");
        r.add(bundle.path(), "/bundles/req-1");
        r.add(&std::env::temp_dir(), TEMPORARY);
        let f = files.path().display();
        let b = bundle.path().display();
        assert_eq!(
            r.apply(&format!("cannot read {f}/papers/cats.md: Not a directory")),
            "cannot read papers/cats.md: Not a directory"
        );
        assert_eq!(r.apply(&format!("listing {f} failed")), "listing . failed");
        assert_eq!(
            r.apply(&format!("missing {b}/artifacts/x.md")),
            "missing /bundles/req-1/artifacts/x.md"
        );
        let other = std::env::temp_dir().join("elsewhere/x");
        assert_eq!(
            r.apply(&format!("at {}", other.display())),
            format!("at {TEMPORARY}/elsewhere/x")
        );
        let mut error = HostError::workflow(
            "not_found",
            format!("{b}/a is gone"),
            json!({"kind": "resource", "opaqueKey": format!("{f}/k")}),
        );
        error = r.error(error);
        assert_eq!(error.message, "/bundles/req-1/a is gone");
        assert_eq!(error.fields["details"]["opaqueKey"], "k");
    }
}
