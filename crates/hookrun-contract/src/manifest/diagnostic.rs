//! Loader diagnostics (`01-manifest.md` §12).

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// Severity of a [`Diagnostic`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Level {
    /// Something was skipped; the rest still loaded.
    Warning,
    /// The scan itself failed.
    Error,
}

impl Level {
    /// The contract literal, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// What kind of problem a [`Diagnostic`] reports, serialised as the contract's literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Category {
    /// Invalid JSON.
    ManifestParseError,
    /// Schema, semantic, package or locale-file errors.
    ManifestValidationError,
    /// A declared hook file is absent.
    HookMissingError,
    /// A hook cannot be loaded or compiled.
    HookImportError,
    /// A hook's named export is missing or not a function.
    HookExportError,
    /// A workflows directory is unreadable.
    ScanPathError,
    /// Other scan problems (duplicate ids, unreadable digests, bad `manifest.json`).
    ScanRuntimeWarning,
    /// A skill the workflow depends on is missing.
    SkillDependencyMissing,
    /// A manifest written for a generation before schema v2 (hookrun's own category:
    /// `hookrun migrate` converts it).
    LegacyManifest,
    /// A hook source line using a member v2 hosts do not provide (hookrun's own
    /// category).
    LegacyHookApi,
    /// A later root's workflow replaces an earlier root's with the same id.
    WorkflowOverridden,
}

impl Category {
    /// The contract literal, e.g. `manifest_parse_error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::ManifestParseError => "manifest_parse_error",
            Category::ManifestValidationError => "manifest_validation_error",
            Category::HookMissingError => "hook_missing_error",
            Category::HookImportError => "hook_import_error",
            Category::HookExportError => "hook_export_error",
            Category::ScanPathError => "scan_path_error",
            Category::ScanRuntimeWarning => "scan_runtime_warning",
            Category::SkillDependencyMissing => "skill_dependency_missing",
            Category::LegacyManifest => "legacy_manifest",
            Category::LegacyHookApi => "legacy_hook_api",
            Category::WorkflowOverridden => "workflow_overridden",
        }
    }

    /// Whether the category only advises: the workflow it names still loads (a
    /// duplicate or overridden id, a legacy hook line, another scan warning).
    /// Every other category means the workflow was skipped.
    pub fn is_advisory(self) -> bool {
        matches!(
            self,
            Category::ScanRuntimeWarning | Category::LegacyHookApi | Category::WorkflowOverridden
        )
    }

    /// The level the contract assigns: `scan_path_error` is an error, everything else a
    /// warning (the affected workflow is skipped, the others still load).
    pub fn level(self) -> Level {
        match self {
            Category::ScanPathError => Level::Error,
            _ => Level::Warning,
        }
    }
}

/// One loader diagnostic. Serialises with camelCase keys and omits absent fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// Severity.
    pub level: Level,
    /// Problem category.
    pub category: Category,
    /// Human-readable message (contract text where the contract fixes it).
    pub message: String,
    /// File the problem is in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
    /// JSON pointer of the offending value (`/` for the document root).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// 1-based line of a JSON syntax error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column of a JSON syntax error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// Id of the affected workflow, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workflow_id: Option<String>,
    /// Directory entry (or package `workflows[]` path) the problem came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// Underlying error text (parser or I/O message).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `category` at the category's level with only a message.
    pub fn new(category: Category, message: impl Into<String>) -> Self {
        Diagnostic {
            level: category.level(),
            category,
            message: message.into(),
            path: None,
            pointer: None,
            line: None,
            column: None,
            workflow_id: None,
            entry: None,
            reason: None,
        }
    }

    /// A `manifest_validation_error` whose message is `<pointer> <text>`.
    pub fn validation(pointer: &str, text: &str) -> Self {
        Diagnostic::new(
            Category::ManifestValidationError,
            format!("{pointer} {text}"),
        )
        .with_pointer(pointer)
    }

    /// Sets `path`.
    pub fn with_path(mut self, path: &Path) -> Self {
        self.path = Some(path.to_path_buf());
        self
    }

    /// Sets `pointer`.
    pub fn with_pointer(mut self, pointer: &str) -> Self {
        self.pointer = Some(pointer.to_string());
        self
    }

    /// Sets `reason`.
    pub fn with_reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = Some(reason.into());
        self
    }

    /// Sets `workflowId` unless `id` is `None`.
    pub fn with_workflow_id(mut self, id: Option<&str>) -> Self {
        if let Some(id) = id {
            self.workflow_id = Some(id.to_string());
        }
        self
    }

    /// Sets `entry` unless `entry` is `None`, keeping an entry that is already set.
    pub fn with_entry(mut self, entry: Option<&str>) -> Self {
        if self.entry.is_none() {
            self.entry = entry.map(str::to_string);
        }
        self
    }

    /// Sets `line` and `column`.
    pub fn with_position(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// The contract's sort order: level, category (both by their literals, so errors come
    /// first), workflowId, entry, path, message, reason.
    pub fn sort_cmp(&self, other: &Self) -> Ordering {
        self.level
            .as_str()
            .cmp(other.level.as_str())
            .then_with(|| self.category.as_str().cmp(other.category.as_str()))
            .then_with(|| self.workflow_id.cmp(&other.workflow_id))
            .then_with(|| self.entry.cmp(&other.entry))
            .then_with(|| self.path.cmp(&other.path))
            .then_with(|| self.message.cmp(&other.message))
            .then_with(|| self.reason.cmp(&other.reason))
    }
}

/// Sorts diagnostics in the contract's order (see [`Diagnostic::sort_cmp`]).
pub fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(Diagnostic::sort_cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_with_contract_literals_and_camel_case() {
        let d = Diagnostic::validation("/id", "must be string").with_workflow_id(Some("w"));
        let json = serde_json::to_value(&d).unwrap_or_default();
        assert_eq!(json["category"], "manifest_validation_error");
        assert_eq!(json["level"], "warning");
        assert_eq!(json["workflowId"], "w");
        assert_eq!(json["message"], "/id must be string");
        assert!(json.get("reason").is_none());
    }

    #[test]
    fn every_category_literal_matches_serde() {
        let all = [
            Category::ManifestParseError,
            Category::ManifestValidationError,
            Category::HookMissingError,
            Category::HookImportError,
            Category::HookExportError,
            Category::ScanPathError,
            Category::ScanRuntimeWarning,
            Category::SkillDependencyMissing,
            Category::LegacyManifest,
            Category::LegacyHookApi,
            Category::WorkflowOverridden,
        ];
        for c in all {
            assert_eq!(serde_json::to_value(c).unwrap_or_default(), c.as_str());
        }
        assert_eq!(Category::ScanPathError.level(), Level::Error);
        assert_eq!(Category::HookMissingError.level(), Level::Warning);
    }

    #[test]
    fn sorts_by_level_then_category_then_id() {
        let mut v = vec![
            Diagnostic::new(Category::ScanPathError, "a"),
            Diagnostic::new(Category::ManifestValidationError, "b").with_workflow_id(Some("z")),
            Diagnostic::new(Category::ManifestValidationError, "c").with_workflow_id(Some("a")),
            Diagnostic::new(Category::HookMissingError, "d"),
        ];
        sort_diagnostics(&mut v);
        let order: Vec<_> = v.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(order, ["a", "d", "c", "b"]);
    }
}
