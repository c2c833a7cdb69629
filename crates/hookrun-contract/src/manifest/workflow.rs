//! The typed, validated workflow (`01-manifest.md` §2, §8, §9.4, §11).

use std::path::PathBuf;

use serde::Serialize;
use serde_json::Value;

use crate::manifest::hooks::{DeclaredHook, HookName};
use crate::manifest::i18n::Messages;
use crate::manifest::kind::DeclaredKind;
use crate::manifest::model::PlanningSpec;
use crate::manifest::params::Parameters;

/// Request kind used for pass-through workflows without a request declaration.
pub const PASS_THROUGH_KIND: &str = "pass-through.run.v1";

/// The provider that answers a request with the request itself.
pub const PASS_THROUGH_PROVIDER: &str = "pass-through";

/// The backend a workflow's requests go to (`provider`, trimmed): one the
/// contract names, or another, kept as written (a request kind may still
/// accept it, or refuse it when the request is checked).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Provider {
    /// `pass-through`: the request itself is the result.
    PassThrough,
    /// `skillrunner`.
    SkillRunner,
    /// `generic-http`.
    GenericHttp,
    /// `acp`.
    Acp,
    /// `builtin-pi`.
    BuiltinPi,
    /// Any other name.
    Other(String),
}

impl Provider {
    const NAMED: [(Provider, &'static str); 5] = [
        (Provider::PassThrough, PASS_THROUGH_PROVIDER),
        (Provider::SkillRunner, "skillrunner"),
        (Provider::GenericHttp, "generic-http"),
        (Provider::Acp, "acp"),
        (Provider::BuiltinPi, "builtin-pi"),
    ];

    /// The provider `name` (trimmed) names.
    pub fn parse(name: &str) -> Provider {
        let name = name.trim();
        Provider::NAMED
            .into_iter()
            .find(|(_, known)| *known == name)
            .map_or_else(|| Provider::Other(name.to_string()), |(p, _)| p)
    }

    /// The name as a manifest writes it.
    pub fn as_str(&self) -> &str {
        match self {
            Provider::Other(name) => name,
            known => Provider::NAMED
                .iter()
                .find(|(p, _)| p == known)
                .map_or("", |(_, name)| name),
        }
    }
}

impl From<&str> for Provider {
    fn from(name: &str) -> Provider {
        Provider::parse(name)
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Provider {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// How a workflow's request is built (§9.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "strategy", rename_all = "camelCase")]
#[non_exhaustive]
pub enum BuildStrategy {
    /// The `buildRequest` hook builds it; `request.kind` (if any) validates its output.
    Hook,
    /// The declarative compiler builds a request of this kind.
    Declarative {
        /// Request kind, e.g. `skillrunner.job.v1` or `pass-through.run.v1`.
        kind: DeclaredKind,
    },
}

/// A workflow that passed every validation layer and whose hook files exist.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Workflow {
    /// `id`.
    pub id: String,
    /// `label` as written (see [`Workflow::localized`]).
    pub label: String,
    /// `provider`, trimmed.
    pub provider: Provider,
    /// The manifest as parsed.
    pub manifest: Value,
    /// Everything input planning reads.
    pub planning: PlanningSpec,
    /// Declared hooks in load order (`applyResult`, `preflight`, `buildRequest`,
    /// `normalizeSettings`).
    pub hooks: Vec<DeclaredHook>,
    /// Declared parameters in declaration order.
    pub parameters: Parameters,
    /// `taskNameTemplate` as written.
    pub task_name_template: Option<String>,
    /// `version`, else the package's `version` for a package workflow.
    pub version: Option<String>,
    /// Inline `i18n` messages.
    pub messages: Messages,
    /// Package locale files (keys `workflows.<id>.<field>`); empty for single workflows.
    pub package_messages: Messages,
    /// `request.kind`, when a request is declared.
    pub request_kind: Option<DeclaredKind>,
    /// How requests are built.
    pub build_strategy: BuildStrategy,
    /// `debug_only`.
    pub debug_only: bool,
    /// Path of `workflow.json`.
    pub manifest_path: PathBuf,
    /// Canonical directory holding `workflow.json`; hook paths are relative to it.
    pub workflow_dir: PathBuf,
    /// Canonical root no hook module may leave: the workflow directory, or the package
    /// root for package workflows.
    pub jail_root: PathBuf,
    /// Package id, or the workflow id for single workflows.
    pub package_id: String,
    /// Package root, or the workflow directory for single workflows.
    pub package_root: PathBuf,
    /// Whether the workflow came from a `workflow-package.json`.
    pub in_package: bool,
    /// SHA-256 content digest of the package (or workflow) root, when it could be read.
    pub content_digest: Option<String>,
}

impl Workflow {
    /// Whether the workflow's provider is [`PASS_THROUGH_PROVIDER`].
    pub fn is_pass_through(&self) -> bool {
        self.provider == Provider::PassThrough
    }

    /// The declared hook `name`, if any.
    pub fn hook(&self, name: HookName) -> Option<&DeclaredHook> {
        self.hooks.iter().find(|hook| hook.name == name)
    }

    /// The localised text of a workflow-local key (`label`, `taskNameTemplate`,
    /// `parameters.<key>.title`, `parameters.<key>.description`, `skills.<id>.name`):
    /// inline message → package locale file → raw manifest value → the key itself.
    pub fn localized(&self, key: &str, locale: &str) -> String {
        let qualified = format!("workflows.{}.{key}", self.id);
        self.messages
            .lookup(key, locale)
            .or_else(|| self.package_messages.lookup(&qualified, locale))
            .or_else(|| self.raw_text(key))
            .unwrap_or(key)
            .to_string()
    }

    /// The manifest's own (unlocalised) text for a localisable key.
    fn raw_text(&self, key: &str) -> Option<&str> {
        let value = match key.strip_prefix("parameters.") {
            Some(rest) => {
                let (parameter, field) = rest.rsplit_once('.')?;
                self.manifest
                    .get("parameters")?
                    .get(parameter)?
                    .get(field)?
            }
            None => self.manifest.get(key)?,
        };
        value.as_str()
    }
}

#[cfg(test)]
mod provider_tests {
    use super::Provider;

    /// Every name the contract gives reads back as written; any other is kept.
    #[test]
    fn providers_read_back_as_written() {
        for name in [
            "pass-through",
            "skillrunner",
            "generic-http",
            "acp",
            "builtin-pi",
            "custom",
        ] {
            assert_eq!(Provider::parse(name).as_str(), name);
            assert_eq!(serde_json::to_value(Provider::parse(name)).unwrap(), name);
        }
        assert_eq!(Provider::parse(" acp "), Provider::Acp);
        assert_eq!(Provider::parse("ACP"), Provider::Other("ACP".into()));
    }
}
