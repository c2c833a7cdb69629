//! The result context of one `applyResult` call, without its JavaScript projection.

use serde_json::{Value, json};

use crate::bundle::LocalFileReader;
use crate::bundle::artifact::{
    ArtifactBytes, ArtifactRequest, ArtifactScope, ArtifactText, resolve_artifact,
};
use crate::bundle::diagnostic::Diagnostic;
use crate::bundle::error::BundleError;
use crate::bundle::reader::BundleReader;
use crate::bundle::result_json::{
    ResolvedResult, resolve_result_json, resolve_result_json_in_place,
};

/// Settings of a [`ResultContext`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultContextOptions {
    /// The manifest's `result.expects.result_json`; `None` means `result/result.json`.
    pub expects_result_json: Option<String>,
    /// The bundle directory that namespaces artifacts, used for the namespaced candidate of
    /// artifact resolution. Default `artifacts`, where Skill-Runner bundles keep them.
    pub artifact_base_path: String,
    /// Leaves a result JSON that is a value of the run result where it is
    /// ([`resolve_result_json_in_place`]) instead of copying it. Default `false`.
    pub result_json_in_place: bool,
}

impl Default for ResultContextOptions {
    fn default() -> Self {
        Self {
            expects_result_json: None,
            artifact_base_path: "artifacts".to_string(),
            result_json_in_place: false,
        }
    }
}

/// `resultContext` (`03-hooks.md` §4.2): the resolved result JSON, the run's bundle reader,
/// and artifact resolution that records each `artifact_not_found` in
/// [`ResolvedResult::errors`].
///
/// `preflight` and `aggregate` belong to the layers above and are not held here.
#[derive(Debug)]
pub struct ResultContext {
    resolved: ResolvedResult,
    reader: BundleReader,
    artifact_base_path: String,
}

impl ResultContext {
    /// Resolves the result JSON of `run_result` (see [`resolve_result_json`],
    /// or [`resolve_result_json_in_place`] as `options` say) and keeps `reader`.
    ///
    /// # Errors
    /// `Invalid result JSON from <source>: <message>`.
    pub fn new(
        run_result: &Value,
        reader: BundleReader,
        options: ResultContextOptions,
        local_files: &LocalFileReader,
    ) -> Result<Self, BundleError> {
        let resolve = if options.result_json_in_place {
            resolve_result_json_in_place
        } else {
            resolve_result_json
        };
        let resolved = resolve(
            run_result,
            &reader,
            options.expects_result_json.as_deref(),
            local_files,
        )?;
        Ok(Self {
            resolved,
            reader,
            artifact_base_path: options.artifact_base_path,
        })
    }

    /// The serialisable part: `resultJson`, `resultJsonSource`, `workspaceDir`,
    /// `resultJsonPath`, `warnings`, `errors`.
    pub fn resolved(&self) -> &ResolvedResult {
        &self.resolved
    }

    /// The serialisable part as a hook receives it, moving the result JSON and
    /// the envelope out: resolving artifacts afterwards needs neither.
    pub fn take_data(&mut self) -> Value {
        self.resolved.take_value()
    }

    /// The run's bundle reader (`resultContext.bundleReader`).
    pub fn reader(&self) -> &BundleReader {
        &self.reader
    }

    /// `resolveArtifact` / `readArtifactText`: the artifact as strict UTF-8 text.
    ///
    /// # Errors
    /// `artifact_not_found` (also recorded in the errors), or invalid UTF-8.
    pub fn resolve_artifact(
        &mut self,
        request: &ArtifactRequest,
        local_files: &LocalFileReader,
    ) -> Result<ArtifactText, BundleError> {
        self.resolve_artifact_bytes(request, local_files)?
            .into_text()
    }

    /// `resolveArtifactBytes`: the artifact as bytes.
    ///
    /// # Errors
    /// `artifact_not_found`, also recorded in the errors.
    pub fn resolve_artifact_bytes(
        &mut self,
        request: &ArtifactRequest,
        local_files: &LocalFileReader,
    ) -> Result<ArtifactBytes, BundleError> {
        let scope = ArtifactScope {
            reader: &self.reader,
            workspace_dir: self.resolved.workspace_dir.as_deref(),
            artifact_base_path: &self.artifact_base_path,
            local_files,
        };
        let found = resolve_artifact(request, &scope);
        if let Err(
            error @ BundleError::ArtifactNotFound {
                candidates,
                last_error,
                ..
            },
        ) = &found
        {
            self.resolved.errors.push(Diagnostic::new(
                "artifact_not_found",
                error.to_string(),
                Some(json!({
                    "fieldName": request.field_name,
                    "rawPath": request.raw_path,
                    "fallbackPath": request.fallback_path,
                    "candidates": candidates,
                    "lastError": last_error,
                })),
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::bundle::dir_reader::DirBundle;
    use crate::bundle::result_json::ResultJsonSourceKind;
    use crate::bundle::unavailable::UnavailableBundle;
    use crate::bundle::zip_reader::{ZipBundle, ZipOptions};

    fn no_files(_: &Path) -> Option<Vec<u8>> {
        None
    }

    fn fixture(name: &str) -> PathBuf {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fixtures/bundles")
            .join(name)
    }

    fn digest_request() -> ArtifactRequest {
        ArtifactRequest {
            field_name: Some("digest_path".into()),
            raw_path: Some("/data/runs/r-1/artifacts/digest.md".into()),
            fallback_path: None,
        }
    }

    /// The flow of `04-requests-and-bundles.md` §7 over one reader of the fixture bundle.
    fn check_literature_digest(reader: BundleReader) {
        let mut context = ResultContext::new(
            &json!({"status": "succeeded", "requestId": "r-1"}),
            reader,
            ResultContextOptions::default(),
            &no_files,
        )
        .expect("context");
        let resolved = context.resolved();
        assert_eq!(
            resolved.result_json_source.kind,
            ResultJsonSourceKind::BundleEntry
        );
        assert_eq!(
            resolved.result_json_source.entry_path.as_deref(),
            Some("result/result.json")
        );
        let data = resolved.result_json.as_ref().expect("result JSON");
        assert_eq!(data["digest_path"], "/data/runs/r-1/artifacts/digest.md");
        assert_eq!(
            resolved.envelope.as_ref().map(|e| &e["repair_level"]),
            Some(&json!("none"))
        );
        let digest = context
            .resolve_artifact(&digest_request(), &no_files)
            .expect("digest");
        assert!(digest.text.starts_with("# Digest"), "{}", digest.text);
        assert_eq!(digest.location.entry_path, "artifacts/digest.md");
        assert_eq!(
            context.reader().list().expect("list"),
            [
                "artifacts/citation_analysis.json",
                "artifacts/digest.md",
                "artifacts/references.json",
                "bundle/manifest.json",
                "result/result.json"
            ]
        );
        assert!(context.resolved().errors.is_empty());
    }

    #[test]
    fn resolves_the_literature_digest_fixture_directory() {
        let reader = DirBundle::open(fixture("literature-digest")).expect("fixture dir");
        check_literature_digest(reader.into());
    }

    #[test]
    fn resolves_the_literature_digest_fixture_zip() {
        let root = tempfile::tempdir().expect("tempdir");
        let options = ZipOptions {
            temp_root: root.path().to_path_buf(),
            ..ZipOptions::default()
        };
        check_literature_digest(ZipBundle::open(fixture("literature-digest.zip"), options).into());
    }

    #[test]
    fn records_artifact_not_found() {
        let reader = BundleReader::from(UnavailableBundle::new("pass-through-1"));
        let mut context = ResultContext::new(
            &json!({"resultJson": {"kind": "pass-through.run.v1"}}),
            reader,
            ResultContextOptions::default(),
            &no_files,
        )
        .expect("context");
        let error = context
            .resolve_artifact_bytes(&digest_request(), &no_files)
            .expect_err("absent");
        let errors = &context.resolved().errors;
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].code, "artifact_not_found");
        assert_eq!(errors[0].message, error.to_string());
        assert_eq!(
            errors[0].details.as_ref().map(|d| d["candidates"].clone()),
            Some(json!([
                "/data/runs/r-1/artifacts/digest.md",
                "artifacts/digest.md"
            ]))
        );
    }

    #[test]
    fn serialises_artifacts_with_contract_names() {
        let reader = DirBundle::open(fixture("literature-digest")).expect("fixture dir");
        let mut context = ResultContext::new(
            &json!({}),
            reader.into(),
            ResultContextOptions::default(),
            &no_files,
        )
        .expect("context");
        let digest = context
            .resolve_artifact(&digest_request(), &no_files)
            .expect("digest");
        let value = serde_json::to_value(&digest).expect("json");
        assert_eq!(value["entryPath"], "artifacts/digest.md");
        assert_eq!(value["sourceKind"], "bundle-entry");
        assert!(value.get("sourcePath").is_none());
        assert!(value["text"].is_string());
    }
}
