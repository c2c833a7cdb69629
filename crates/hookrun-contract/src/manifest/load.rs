//! Loading one `workflow.json` through every validation layer into a [`Workflow`].

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::manifest::diagnostic::{Category, Diagnostic};
use crate::manifest::digest::content_digest;
use crate::manifest::hooks::{HookRoots, resolve_hooks};
use crate::manifest::i18n::Messages;
use crate::manifest::kind::{DeclaredKind, RequestKind};
use crate::manifest::migrate::Generation;
use crate::manifest::model::PlanningSpec;
use crate::manifest::params::Parameters;
use crate::manifest::parse::read_json;
use crate::manifest::schema::validate_manifest;
use crate::manifest::semantic::check_semantics;
use crate::manifest::workflow::{BuildStrategy, Provider, Workflow};

/// The outcome of loading one workflow: the workflow (if it was not skipped) and every
/// diagnostic raised on the way.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// The workflow, or `None` when it was skipped.
    pub workflow: Option<Workflow>,
    /// Problems found; a skipped workflow has at least one.
    pub diagnostics: Vec<Diagnostic>,
}

/// What a package contributes to each of its workflows.
#[derive(Debug, Clone)]
pub(crate) struct PackageContext {
    pub id: String,
    pub version: Option<String>,
    pub root: PathBuf,
    pub messages: Messages,
    pub digest: Option<String>,
}

/// Loads a single (non-package) workflow from its `workflow.json`. The workflow
/// directory is the module jail root and the digest root.
pub fn load_workflow(manifest_path: &Path) -> Loaded {
    let dir = manifest_path.parent().unwrap_or(Path::new("."));
    let mut loaded = Loaded::default();
    let root = match canonical_dir(dir, manifest_path) {
        Ok(root) => root,
        Err(diagnostic) => {
            loaded.diagnostics.push(*diagnostic);
            return loaded;
        }
    };
    let digest = digest_or_warning(&root, manifest_path, &mut loaded.diagnostics);
    let context = Context {
        jail_root: root,
        package: None,
        digest,
        entry: None,
    };
    let mut inner = load_in(&context, manifest_path);
    inner.diagnostics.splice(0..0, loaded.diagnostics);
    inner
}

/// The canonical form of a directory, or a `scan_path_error`.
pub(crate) fn canonical_dir(dir: &Path, reported: &Path) -> Result<PathBuf, Box<Diagnostic>> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    dir.canonicalize().map_err(|err| {
        Box::new(
            Diagnostic::new(
                Category::ScanPathError,
                format!("Cannot read workflow directory {}", dir.display()),
            )
            .with_path(reported)
            .with_reason(err.to_string()),
        )
    })
}

/// The content digest of `root`, or `None` plus a `scan_runtime_warning`.
pub(crate) fn digest_or_warning(
    root: &Path,
    reported: &Path,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<String> {
    match content_digest(root) {
        Ok(digest) => Some(digest),
        Err(err) => {
            diagnostics.push(
                Diagnostic::new(
                    Category::ScanRuntimeWarning,
                    format!(
                        "Cannot compute contentDigest of {}; check file permissions",
                        root.display()
                    ),
                )
                .with_path(reported)
                .with_reason(err.to_string()),
            );
            None
        }
    }
}

/// Where and how one workflow is loaded.
pub(crate) struct Context {
    pub jail_root: PathBuf,
    pub package: Option<PackageContext>,
    pub digest: Option<String>,
    pub entry: Option<String>,
}

/// Loads `manifest_path` under `context`, tagging every diagnostic with the path, the
/// workflow id (when readable) and the entry.
pub(crate) fn load_in(context: &Context, manifest_path: &Path) -> Loaded {
    let manifest = match read_json(manifest_path) {
        Ok(value) => value,
        Err(diagnostic) => {
            return skipped(context, manifest_path, None, vec![*diagnostic]);
        }
    };
    let id = manifest
        .get("id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .map(str::to_string);
    match build(context, manifest_path, manifest) {
        Ok(workflow) => Loaded {
            workflow: Some(workflow),
            diagnostics: Vec::new(),
        },
        Err(Rejected::Invalid(invalid)) => {
            let lead = invalid
                .lead(manifest_path)
                .with_entry(context.entry.as_deref());
            let mut problems = invalid.problems;
            if let Some(generation) = invalid.legacy {
                problems.insert(0, legacy_lead(manifest_path, generation));
            }
            let mut loaded = skipped(context, manifest_path, id.as_deref(), problems);
            loaded.diagnostics.insert(0, lead);
            loaded
        }
        Err(Rejected::Skipped(problems)) => {
            skipped(context, manifest_path, id.as_deref(), problems)
        }
    }
}

/// The diagnostic that leads a pre-v2 manifest's problems: which generation it is and
/// the command that converts it.
fn legacy_lead(manifest_path: &Path, generation: Generation) -> Diagnostic {
    Diagnostic::new(
        Category::LegacyManifest,
        format!(
            "{} is a pre-v2 manifest (generation {}); run hookrun migrate {}",
            manifest_path.display(),
            generation.as_str(),
            manifest_path.display()
        ),
    )
    .with_reason("schema v2 requires schemaVersion 2; hookrun migrate rewrites the manifest")
}

fn skipped(
    context: &Context,
    manifest_path: &Path,
    id: Option<&str>,
    problems: Vec<Diagnostic>,
) -> Loaded {
    let diagnostics = problems
        .into_iter()
        .map(|d| {
            let d = if d.path.is_none() {
                d.with_path(manifest_path)
            } else {
                d
            };
            d.with_workflow_id(id).with_entry(context.entry.as_deref())
        })
        .collect();
    Loaded {
        workflow: None,
        diagnostics,
    }
}

/// Why a manifest did not become a workflow.
enum Rejected {
    /// It is not a valid schema-v2 document (validation layers 2 and 3).
    Invalid(Invalid),
    /// It is valid, but the loader skips it (build strategy, hooks, directory).
    Skipped(Vec<Diagnostic>),
}

/// The problems of a document that fails the schema or the semantic checks.
struct Invalid {
    problems: Vec<Diagnostic>,
    /// Whether the schema passed and the problems are semantic.
    semantic: bool,
    /// The generation of a manifest written before schema v2.
    legacy: Option<Generation>,
}

impl Invalid {
    /// The reference loader's one diagnostic for a rejected manifest, which leads
    /// hookrun's per-problem ones: `Invalid workflow manifest: <path>`, its reason the
    /// schema problems joined by `; `, or the first semantic problem (the reference
    /// checker stops at the first). It names no workflow id, as the reference's does.
    fn lead(&self, manifest_path: &Path) -> Diagnostic {
        let texts = self.problems.iter().map(|d| d.message.as_str());
        let reason = if self.semantic {
            texts.take(1).collect::<Vec<_>>()
        } else {
            texts.collect()
        };
        Diagnostic::new(
            Category::ManifestValidationError,
            format!("Invalid workflow manifest: {}", manifest_path.display()),
        )
        .with_path(manifest_path)
        .with_reason(reason.join("; "))
    }
}

impl From<Vec<Diagnostic>> for Rejected {
    fn from(problems: Vec<Diagnostic>) -> Rejected {
        Rejected::Skipped(problems)
    }
}

fn build(context: &Context, manifest_path: &Path, manifest: Value) -> Result<Workflow, Rejected> {
    let (planning, parameters) = validated(&manifest)?;
    let text = |pointer: &str| {
        manifest
            .pointer(pointer)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let id = planning.id.clone();
    let provider = Provider::parse(&text("/provider").unwrap_or_default());
    let request_kind = text("/request/kind").map(|kind| DeclaredKind::parse(&kind));
    let build_strategy = build_strategy(&manifest, &provider, request_kind.as_ref())
        .ok_or_else(|| unresolved_strategy(&id))?;
    let workflow_dir = canonical_dir(
        manifest_path.parent().unwrap_or(Path::new(".")),
        manifest_path,
    )
    .map_err(|d| vec![*d])?;
    let roots = HookRoots {
        workflow_dir: &workflow_dir,
        jail_root: &context.jail_root,
        in_package: context.package.is_some(),
        workflow_id: &id,
    };
    let hooks = resolve_hooks(&manifest, &roots)?;
    let (package_id, package_root, package_messages) = package_parts(context, &id, &workflow_dir);
    let version = text("/version")
        .filter(|v| !v.is_empty())
        .or_else(|| context.package.as_ref().and_then(|p| p.version.clone()));
    Ok(Workflow {
        label: planning.label.clone(),
        provider,
        task_name_template: text("/taskNameTemplate"),
        version,
        messages: Messages::inline(&manifest),
        package_messages,
        request_kind,
        build_strategy,
        debug_only: manifest
            .get("debug_only")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        manifest_path: manifest_path.to_path_buf(),
        jail_root: context.jail_root.clone(),
        workflow_dir,
        package_id,
        package_root,
        in_package: context.package.is_some(),
        content_digest: context.digest.clone(),
        hooks,
        parameters,
        planning,
        manifest,
        id,
    })
}

/// The planning view and the typed parameters of a manifest that passes validation
/// layers 2 and 3; a legacy manifest that fails is marked with its generation.
fn validated(manifest: &Value) -> Result<(PlanningSpec, Parameters), Rejected> {
    let planning = validated_planning(manifest).map_err(|mut invalid| {
        // Only a manifest that fails is looked at for the generation it was written for.
        invalid.legacy = Some(Generation::detect(manifest)).filter(|g| g.is_legacy());
        Rejected::Invalid(invalid)
    })?;
    let parameters = Parameters::from_manifest(manifest).map_err(|e| {
        Rejected::Invalid(Invalid {
            problems: typed_error("parameters", &e),
            semantic: false,
            legacy: None,
        })
    })?;
    Ok((planning, parameters))
}

/// The problem that skips workflow `id` when it has no build strategy.
fn unresolved_strategy(id: &str) -> Vec<Diagnostic> {
    vec![
        Diagnostic::new(
            Category::ManifestValidationError,
            format!("Skip workflow {id}: missing hooks.buildRequest and request declaration"),
        )
        .with_reason("build strategy unresolved"),
    ]
}

/// The package id, root and messages of a workflow: its package's, or, outside a
/// package, the workflow's own id and directory and no messages.
fn package_parts(context: &Context, id: &str, workflow_dir: &Path) -> (String, PathBuf, Messages) {
    match &context.package {
        Some(package) => (
            package.id.clone(),
            package.root.clone(),
            package.messages.clone(),
        ),
        None => (
            id.to_string(),
            workflow_dir.to_path_buf(),
            Messages::default(),
        ),
    }
}

/// Runs validation layers 2 (schema) and 3 (semantic) on a parsed manifest and returns
/// every problem; an empty list means the document is a valid schema-v2 manifest. Hook
/// files are not looked at (see [`load_workflow`]).
pub fn validate_document(manifest: &Value) -> Vec<Diagnostic> {
    validated_planning(manifest)
        .err()
        .map(|invalid| invalid.problems)
        .unwrap_or_default()
}

/// The planning view of a manifest that passes layers 2 and 3.
fn validated_planning(manifest: &Value) -> Result<PlanningSpec, Invalid> {
    let schema = |problems| Invalid {
        problems,
        semantic: false,
        legacy: None,
    };
    let schema_errors = validate_manifest(manifest);
    if !schema_errors.is_empty() {
        return Err(schema(schema_errors));
    }
    let planning =
        PlanningSpec::deserialize(manifest).map_err(|e| schema(typed_error("planning", &e)))?;
    let semantic_errors = check_semantics(manifest, &planning);
    if semantic_errors.is_empty() {
        Ok(planning)
    } else {
        Err(Invalid {
            problems: semantic_errors,
            semantic: true,
            legacy: None,
        })
    }
}

/// §9.4: hook, else declared request, else pass-through, else none.
fn build_strategy(
    manifest: &Value,
    provider: &Provider,
    request_kind: Option<&DeclaredKind>,
) -> Option<BuildStrategy> {
    if manifest.pointer("/hooks/buildRequest").is_some() {
        return Some(BuildStrategy::Hook);
    }
    let kind = match request_kind {
        Some(kind) => kind.clone(),
        None if *provider == Provider::PassThrough => RequestKind::PassThrough.into(),
        None => return None,
    };
    Some(BuildStrategy::Declarative { kind })
}

fn typed_error(part: &str, err: &serde_json::Error) -> Vec<Diagnostic> {
    let text = format!("cannot be read as a typed {part} model; please report this manifest");
    vec![Diagnostic::validation("/", &text).with_reason(err.to_string())]
}
