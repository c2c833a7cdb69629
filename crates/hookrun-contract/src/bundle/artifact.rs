//! Artifact resolution: finding the file a result JSON field points to.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::bundle::LocalFileReader;
use crate::bundle::entry_path::is_absolute;
use crate::bundle::error::BundleError;
use crate::bundle::reader::BundleReader;

/// Path markers whose suffix, from the **last** occurrence on, names a bundle entry.
const MARKERS: [&str; 4] = ["/uploads/", "/artifacts/", "/result/", "/bundle/"];

/// The argument of `resolveArtifact({fieldName?, rawPath?, fallbackPath?})`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactRequest {
    /// The result field the path came from, for messages.
    pub field_name: Option<String>,
    /// The path as the result JSON gave it (often an absolute server path).
    pub raw_path: Option<String>,
    /// A second path tried the same way when the first finds nothing.
    pub fallback_path: Option<String>,
}

/// Where an artifact was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ArtifactSourceKind {
    /// A local file.
    LocalPath,
    /// A bundle entry.
    BundleEntry,
}

/// The location part of a resolved artifact: `{entryPath, sourceKind, sourcePath?,
/// candidates}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    /// The bundle entry read, or the local path for `local-path`.
    pub entry_path: String,
    /// Where the artifact was found.
    pub source_kind: ArtifactSourceKind,
    /// The local path, for `local-path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_path: Option<String>,
    /// Every candidate tried up to and including the hit (local paths are absolute,
    /// bundle entries relative).
    pub candidates: Vec<String>,
}

/// An artifact's content as bytes (`resolveArtifactBytes`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArtifactBytes {
    /// The content.
    pub bytes: Vec<u8>,
    /// Where it was found.
    #[serde(flatten)]
    pub location: ArtifactLocation,
}

/// An artifact's content as text (`resolveArtifact`, `readArtifactText`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArtifactText {
    /// The content, strict UTF-8.
    pub text: String,
    /// Where it was found.
    #[serde(flatten)]
    pub location: ArtifactLocation,
}

impl ArtifactBytes {
    /// The same artifact decoded as strict UTF-8.
    pub fn into_text(self) -> Result<ArtifactText, BundleError> {
        match String::from_utf8(self.bytes) {
            Ok(text) => Ok(ArtifactText {
                text,
                location: self.location,
            }),
            Err(_) => Err(BundleError::InvalidUtf8 {
                entry: self.location.entry_path,
            }),
        }
    }
}

/// What artifact resolution may look at.
pub struct ArtifactScope<'a> {
    /// The run's bundle.
    pub reader: &'a BundleReader,
    /// The run's workspace directory, when known.
    pub workspace_dir: Option<&'a str>,
    /// The bundle directory namespacing artifacts (see [`resolve_artifact`]).
    pub artifact_base_path: &'a str,
    /// The local files the host lets hooks see.
    pub local_files: &'a LocalFileReader,
}

/// Finds the artifact named by `request`, trying for `rawPath` and then for
/// `fallbackPath`, skipping candidates already tried:
///
/// 1. an absolute path (leading `/` or `\`, or a drive letter) → that local file;
///    a relative path → the local file `<workspaceDir>/<path>` (when a workspace is known),
///    then the bundle entry `<path>`;
/// 2. the suffix from the last `/uploads/`, `/artifacts/`, `/result/` or `/bundle/` marker
///    on, as a bundle entry (`/data/runs/r-1/artifacts/digest.md` → `artifacts/digest.md`);
/// 3. the namespaced variant `<artifactBasePath>/<tail>` as a bundle entry, where `<tail>` is
///    the part after that marker, else the relative path itself, else the file name of an
///    absolute path (`outputs/digest.md` → `artifacts/outputs/digest.md`).
///
/// # Errors
/// Nothing found: `artifact_not_found`, rendered
/// `[<field>] artifact not found; raw_path=<raw>; candidates=[<c1>, <c2>, …]; fallback=<fallback>; last_error=<error>`
/// where `<field>` defaults to `artifact`, absent paths render empty and `<error>` is the
/// message of the last failed read (`local file not found: <path>` for local files).
pub fn resolve_artifact(
    request: &ArtifactRequest,
    scope: &ArtifactScope<'_>,
) -> Result<ArtifactBytes, BundleError> {
    let mut tried: Vec<String> = Vec::new();
    let mut last_error = String::new();
    let paths = [&request.raw_path, &request.fallback_path];
    for path in paths.into_iter().flatten().filter(|p| !p.is_empty()) {
        for candidate in candidates(path, scope) {
            if tried.iter().any(|t| t == candidate.text()) {
                continue;
            }
            tried.push(candidate.text().to_string());
            match candidate.read(scope) {
                Ok(bytes) => {
                    return Ok(ArtifactBytes {
                        bytes,
                        location: candidate.into_location(tried),
                    });
                }
                Err(error) => last_error = error,
            }
        }
    }
    Err(BundleError::ArtifactNotFound {
        field: request
            .field_name
            .clone()
            .filter(|f| !f.is_empty())
            .unwrap_or_else(|| "artifact".to_string()),
        raw_path: request.raw_path.clone().unwrap_or_default(),
        candidates: tried,
        fallback: request.fallback_path.clone().unwrap_or_default(),
        last_error,
    })
}

/// One place an artifact may be.
enum Candidate {
    Local(String),
    Entry(String),
}

impl Candidate {
    fn text(&self) -> &str {
        match self {
            Self::Local(path) | Self::Entry(path) => path,
        }
    }

    /// The content, or the message of the failed read.
    fn read(&self, scope: &ArtifactScope<'_>) -> Result<Vec<u8>, String> {
        match self {
            Self::Local(path) => (scope.local_files)(Path::new(path))
                .ok_or_else(|| format!("local file not found: {path}")),
            Self::Entry(entry) => scope.reader.read_bytes(entry).map_err(|e| e.to_string()),
        }
    }

    fn into_location(self, candidates: Vec<String>) -> ArtifactLocation {
        match self {
            Self::Local(path) => ArtifactLocation {
                entry_path: path.clone(),
                source_kind: ArtifactSourceKind::LocalPath,
                source_path: Some(path),
                candidates,
            },
            Self::Entry(entry) => ArtifactLocation {
                entry_path: entry,
                source_kind: ArtifactSourceKind::BundleEntry,
                source_path: None,
                candidates,
            },
        }
    }
}

/// The candidates for one path, in order (see [`resolve_artifact`]).
fn candidates(path: &str, scope: &ArtifactScope<'_>) -> Vec<Candidate> {
    let slashed = path.replace('\\', "/");
    let absolute = is_absolute(path);
    let mut out = Vec::new();
    if absolute {
        out.push(Candidate::Local(path.to_string()));
    } else {
        if let Some(workspace) = scope.workspace_dir {
            let local = Path::new(workspace).join(path);
            out.push(Candidate::Local(local.to_string_lossy().into_owned()));
        }
        out.push(Candidate::Entry(slashed.clone()));
    }
    let marked = after_last_marker(&slashed);
    if let Some((entry, _)) = marked {
        out.push(Candidate::Entry(entry.to_string()));
    }
    let tail = match marked {
        Some((_, tail)) => tail,
        None if absolute => slashed.rsplit('/').next().unwrap_or_default(),
        None => &slashed,
    };
    let base = scope.artifact_base_path.trim_matches('/');
    if !base.is_empty() && !tail.is_empty() {
        out.push(Candidate::Entry(format!("{base}/{tail}")));
    }
    out
}

/// For the last marker in `path`: the suffix from the marker's directory on, and the part
/// after the marker. `None` when no marker occurs or nothing follows it.
fn after_last_marker(path: &str) -> Option<(&str, &str)> {
    let (at, marker) = MARKERS
        .iter()
        .filter_map(|marker| path.rfind(marker).map(|at| (at, *marker)))
        .max_by_key(|(at, _)| *at)?;
    let tail = &path[at + marker.len()..];
    (!tail.is_empty()).then(|| (&path[at + 1..], tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::dir_reader::DirBundle;
    use crate::bundle::test_support::write_file;
    use crate::bundle::unavailable::UnavailableBundle;

    fn no_files(_: &Path) -> Option<Vec<u8>> {
        None
    }

    fn request(raw: &str, fallback: Option<&str>) -> ArtifactRequest {
        ArtifactRequest {
            field_name: Some("digest_path".into()),
            raw_path: Some(raw.into()),
            fallback_path: fallback.map(str::to_string),
        }
    }

    fn scope<'a>(reader: &'a BundleReader, local_files: &'a LocalFileReader) -> ArtifactScope<'a> {
        ArtifactScope {
            reader,
            workspace_dir: None,
            artifact_base_path: "artifacts",
            local_files,
        }
    }

    fn digest_bundle() -> (tempfile::TempDir, BundleReader) {
        let dir = tempfile::tempdir().expect("tempdir");
        write_file(dir.path(), "artifacts/digest.md", b"# Digest");
        write_file(dir.path(), "artifacts/notes/extra.md", b"extra");
        let reader = BundleReader::from(DirBundle::open(dir.path()).expect("open"));
        (dir, reader)
    }

    #[test]
    fn maps_a_server_path_through_the_artifacts_marker() {
        let (_dir, reader) = digest_bundle();
        let found = resolve_artifact(
            &request("/data/runs/r-1/artifacts/digest.md", None),
            &scope(&reader, &no_files),
        )
        .expect("found");
        assert_eq!(found.bytes, b"# Digest");
        assert_eq!(found.location.entry_path, "artifacts/digest.md");
        assert_eq!(found.location.source_kind, ArtifactSourceKind::BundleEntry);
        assert_eq!(
            found.location.candidates,
            ["/data/runs/r-1/artifacts/digest.md", "artifacts/digest.md"]
        );
    }

    #[test]
    fn uses_the_last_marker() {
        assert_eq!(
            after_last_marker("/srv/uploads/x/artifacts/a.md"),
            Some(("artifacts/a.md", "a.md"))
        );
        assert_eq!(after_last_marker("/srv/result/"), None);
        assert_eq!(after_last_marker("/srv/out/a.md"), None);
    }

    #[test]
    fn prefers_local_files_then_the_workspace() {
        let (_dir, reader) = digest_bundle();
        let local =
            |path: &Path| (path == Path::new("/ws/out/digest.md")).then(|| b"local".to_vec());
        let mut in_workspace = scope(&reader, &local);
        in_workspace.workspace_dir = Some("/ws");
        let found =
            resolve_artifact(&request("out/digest.md", None), &in_workspace).expect("found");
        assert_eq!(found.bytes, b"local");
        assert_eq!(found.location.source_kind, ArtifactSourceKind::LocalPath);
        assert_eq!(
            found.location.source_path.as_deref(),
            Some("/ws/out/digest.md")
        );
        let absolute =
            resolve_artifact(&request("/ws/out/digest.md", None), &scope(&reader, &local))
                .expect("found");
        assert_eq!(absolute.location.candidates, ["/ws/out/digest.md"]);
    }

    #[test]
    fn tries_the_namespaced_variant_and_the_fallback() {
        let (_dir, reader) = digest_bundle();
        let namespaced =
            resolve_artifact(&request("notes/extra.md", None), &scope(&reader, &no_files))
                .expect("found");
        assert_eq!(namespaced.location.entry_path, "artifacts/notes/extra.md");
        let fallback = resolve_artifact(
            &request("/x/missing.md", Some("/y/artifacts/digest.md")),
            &scope(&reader, &no_files),
        )
        .expect("found");
        assert_eq!(fallback.location.entry_path, "artifacts/digest.md");
        assert_eq!(
            fallback.location.candidates,
            [
                "/x/missing.md",
                "artifacts/missing.md",
                "/y/artifacts/digest.md",
                "artifacts/digest.md"
            ]
        );
    }

    #[test]
    fn reports_artifact_not_found() {
        let reader = BundleReader::from(UnavailableBundle::new("req-1"));
        let error = resolve_artifact(
            &request("/data/runs/r-1/artifacts/digest.md", Some("digest.md")),
            &scope(&reader, &no_files),
        )
        .expect_err("nothing");
        assert_eq!(error.code(), Some("artifact_not_found"));
        assert_eq!(
            error.to_string(),
            "[digest_path] artifact not found; raw_path=/data/runs/r-1/artifacts/digest.md; \
             candidates=[/data/runs/r-1/artifacts/digest.md, artifacts/digest.md, digest.md]; \
             fallback=digest.md; \
             last_error=Run req-1 does not provide bundle content; entry unavailable: digest.md"
        );
        let empty = resolve_artifact(&ArtifactRequest::default(), &scope(&reader, &no_files))
            .expect_err("nothing");
        assert_eq!(
            empty.to_string(),
            "[artifact] artifact not found; raw_path=; candidates=[]; fallback=; last_error="
        );
    }

    #[test]
    fn text_is_strict_utf8() {
        let dir = tempfile::tempdir().expect("tempdir");
        write_file(dir.path(), "artifacts/bad.md", &[0xff]);
        let reader = BundleReader::from(DirBundle::open(dir.path()).expect("open"));
        let bytes = resolve_artifact(
            &request("artifacts/bad.md", None),
            &scope(&reader, &no_files),
        )
        .expect("found");
        assert_eq!(
            bytes.into_text().expect_err("invalid").to_string(),
            "bundle entry is not valid UTF-8: artifacts/bad.md"
        );
    }
}
