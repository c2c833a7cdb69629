//! Result-JSON resolution (`03-hooks.md` §4.2).

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};

use crate::bundle::LocalFileReader;
use crate::bundle::diagnostic::Diagnostic;
use crate::bundle::entry_path::is_absolute;
use crate::bundle::envelope::unwrap_skill_runner_envelope;
use crate::bundle::error::BundleError;
use crate::bundle::reader::BundleReader;

/// The bundle entry tried when the manifest declares no `result.expects.result_json`.
pub const DEFAULT_RESULT_JSON_ENTRY: &str = "result/result.json";

/// Where the result JSON came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ResultJsonSourceKind {
    /// `runResult.resultJson`.
    RunResult,
    /// A local file at `resultJsonPath`.
    LocalPath,
    /// A bundle entry.
    BundleEntry,
    /// Nowhere: no result JSON was found.
    Unavailable,
}

/// `resultContext.resultJsonSource`: `{kind, path?, entryPath?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultJsonSource {
    /// Where it came from.
    pub kind: ResultJsonSourceKind,
    /// The local path, for `local-path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The bundle entry, for `bundle-entry`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry_path: Option<String>,
}

impl ResultJsonSource {
    fn of(kind: ResultJsonSourceKind) -> Self {
        Self {
            kind,
            path: None,
            entry_path: None,
        }
    }

    /// How the source is named in `Invalid result JSON from <source>: …`:
    /// `runResult.resultJson`, the local path, the bundle entry path, or `unavailable`.
    pub fn label(&self) -> &str {
        match self.kind {
            ResultJsonSourceKind::RunResult => "runResult.resultJson",
            ResultJsonSourceKind::Unavailable => "unavailable",
            ResultJsonSourceKind::LocalPath => self.path.as_deref().unwrap_or_default(),
            ResultJsonSourceKind::BundleEntry => self.entry_path.as_deref().unwrap_or_default(),
        }
    }
}

/// Where a result JSON that is a value of the run result itself sits in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InRunResult {
    /// It is `runResult.resultJson`.
    Whole,
    /// It is the `data` of the Skill-Runner envelope `runResult.resultJson`.
    EnvelopeData,
}

impl InRunResult {
    /// The members leading from the run result to the result JSON.
    pub fn result_json_path(self) -> &'static [&'static str] {
        match self {
            InRunResult::Whole => &["resultJson"],
            InRunResult::EnvelopeData => &["resultJson", "data"],
        }
    }

    /// The members leading from the run result to the envelope, when there is one.
    pub fn envelope_path(self) -> Option<&'static [&'static str]> {
        match self {
            InRunResult::Whole => None,
            InRunResult::EnvelopeData => Some(&["resultJson"]),
        }
    }
}

/// The data part of `resultContext` that does not depend on JavaScript.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedResult {
    /// The resolved result JSON, Skill-Runner envelope unwrapped; `None` when unavailable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_json: Option<Value>,
    /// The whole Skill-Runner envelope, when one was unwrapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub envelope: Option<Value>,
    /// Where the result JSON came from.
    pub result_json_source: ResultJsonSource,
    /// `resultJsonPath` as the run result gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_json_path: Option<String>,
    /// The run's workspace directory, as the run result gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workspace_dir: Option<String>,
    /// Warnings, e.g. `result_json_unavailable`.
    pub warnings: Vec<Diagnostic>,
    /// Errors: bundle reads that failed for another reason than absence
    /// (`result_json_read_failed`), and every `artifact_not_found`.
    pub errors: Vec<Diagnostic>,
    /// Set when the result JSON was left in the run result it is a value of
    /// ([`resolve_result_json_in_place`]): where it is there. `result_json`
    /// and `envelope` are then `None`.
    #[serde(skip)]
    pub in_run_result: Option<InRunResult>,
}

impl ResolvedResult {
    /// The JSON form, member for member as it serialised, moving the result
    /// JSON and the envelope out (they are left `None`) rather than copying
    /// or serialising them into a new tree. A result JSON and an envelope left
    /// in the run result ([`in_run_result`](Self::in_run_result)) are `null`
    /// in their places, for the caller to fill.
    pub fn take_value(&mut self) -> Value {
        fn plain(value: &impl Serialize) -> Value {
            serde_json::to_value(value).unwrap_or(Value::Null)
        }
        let mut out = serde_json::Map::new();
        let in_place = self.in_run_result;
        if let Some(result_json) = self.result_json.take() {
            out.insert("resultJson".into(), result_json);
        } else if in_place.is_some() {
            out.insert("resultJson".into(), Value::Null);
        }
        if let Some(envelope) = self.envelope.take() {
            out.insert("envelope".into(), envelope);
        } else if in_place.and_then(InRunResult::envelope_path).is_some() {
            out.insert("envelope".into(), Value::Null);
        }
        out.insert("resultJsonSource".into(), plain(&self.result_json_source));
        if let Some(path) = &self.result_json_path {
            out.insert("resultJsonPath".into(), path.as_str().into());
        }
        if let Some(dir) = &self.workspace_dir {
            out.insert("workspaceDir".into(), dir.as_str().into());
        }
        out.insert("warnings".into(), plain(&self.warnings));
        out.insert("errors".into(), plain(&self.errors));
        Value::Object(out)
    }
}

/// Resolves the result JSON of `run_result`; the first hit wins:
///
/// 1. `runResult.resultJson` when present and not `null` (a string is parsed as JSON);
/// 2. the local file at `resultJsonPath` (`runResult.resultJsonPath`, else
///    `responseJson.resultJsonPath`, else `responseJson.result_json_path`), when that path
///    is absolute, read through `local_files`;
/// 3. the same path as a bundle entry, when it is relative;
/// 4. the bundle entry `expects_result_json`, default [`DEFAULT_RESULT_JSON_ENTRY`];
/// 5. otherwise a `result_json_unavailable` warning and no result JSON.
///
/// A bundle read that fails because the entry is absent moves on; any other failure is
/// recorded as a `result_json_read_failed` error and also moves on. `workspaceDir` is
/// taken from `runResult.workspaceDir`, `responseJson.workspaceDir` or
/// `responseJson.workspace_dir`.
///
/// # Errors
/// Content that does not parse: `Invalid result JSON from <source>: <message>`, with the
/// source named by [`ResultJsonSource::label`].
pub fn resolve_result_json(
    run_result: &Value,
    reader: &BundleReader,
    expects_result_json: Option<&str>,
    local_files: &LocalFileReader,
) -> Result<ResolvedResult, BundleError> {
    resolve(run_result, reader, expects_result_json, local_files, false)
}

/// [`resolve_result_json`], except that a result JSON that is a value of
/// `run_result` itself (`runResult.resultJson` not given as text, or its
/// envelope's `data`) is not copied: [`ResolvedResult::in_run_result`] says
/// where it is, so that a hook can be handed that one value in both places,
/// as on the reference host, where `resultContext.resultJson` is the object
/// `runResult.resultJson` holds.
///
/// # Errors
/// As [`resolve_result_json`].
pub fn resolve_result_json_in_place(
    run_result: &Value,
    reader: &BundleReader,
    expects_result_json: Option<&str>,
    local_files: &LocalFileReader,
) -> Result<ResolvedResult, BundleError> {
    resolve(run_result, reader, expects_result_json, local_files, true)
}

fn resolve(
    run_result: &Value,
    reader: &BundleReader,
    expects_result_json: Option<&str>,
    local_files: &LocalFileReader,
    in_place: bool,
) -> Result<ResolvedResult, BundleError> {
    let result_json_path = run_field(
        run_result,
        "resultJsonPath",
        &["resultJsonPath", "result_json_path"],
    );
    let mut search = Search::default();
    let found = search.find(
        run_result,
        reader,
        result_json_path.as_deref(),
        expects_result_json.unwrap_or(DEFAULT_RESULT_JSON_ENTRY),
        local_files,
    );
    let mut resolved = ResolvedResult {
        result_json: None,
        envelope: None,
        result_json_source: ResultJsonSource::of(ResultJsonSourceKind::Unavailable),
        result_json_path,
        workspace_dir: run_field(
            run_result,
            "workspaceDir",
            &["workspaceDir", "workspace_dir"],
        ),
        warnings: Vec::new(),
        errors: search.errors,
        in_run_result: None,
    };
    let Some((source, parsed)) = found else {
        resolved.warnings.push(Diagnostic::new(
            "result_json_unavailable",
            format!(
                "result JSON unavailable; tried=[{}]",
                search.tried.join(", ")
            ),
            None,
        ));
        return Ok(resolved);
    };
    let value = parsed.map_err(|detail| BundleError::InvalidResultJson {
        source_label: source.label().to_string(),
        detail,
    })?;
    resolved.result_json_source = source;
    resolved.keep(value, in_place);
    Ok(resolved)
}

impl ResolvedResult {
    /// Keeps the result JSON `value` that was found: as where it is in the run result,
    /// when it is a value of it and `in_place` asks for that, else as a copy, unwrapped
    /// from its Skill-Runner envelope when it has one.
    fn keep(&mut self, value: Cow<'_, Value>, in_place: bool) {
        match value {
            Cow::Borrowed(value) if in_place => {
                self.in_run_result = Some(match unwrap_skill_runner_envelope(value) {
                    Some(_) => InRunResult::EnvelopeData,
                    None => InRunResult::Whole,
                });
            }
            value => {
                let value = value.into_owned();
                match unwrap_skill_runner_envelope(&value) {
                    Some(data) => {
                        self.result_json = Some(data.clone());
                        self.envelope = Some(value);
                    }
                    None => self.result_json = Some(value),
                }
            }
        }
    }
}

/// What the resolution steps tried and which reads failed.
#[derive(Default)]
struct Search {
    tried: Vec<String>,
    errors: Vec<Diagnostic>,
}

/// A source found by [`Search::find`], with its content parsed (or the
/// parser's message); borrowed when it is a value of the run result.
type Found<'r> = (ResultJsonSource, Result<Cow<'r, Value>, String>);

impl Search {
    /// Runs steps 1–4 of the resolution order; `None` when nothing was found.
    fn find<'r>(
        &mut self,
        run_result: &'r Value,
        reader: &BundleReader,
        result_json_path: Option<&str>,
        expected_entry: &str,
        local_files: &LocalFileReader,
    ) -> Option<Found<'r>> {
        let run_result_source = ResultJsonSource::of(ResultJsonSourceKind::RunResult);
        match run_result.get("resultJson") {
            Some(Value::String(text)) => return Some((run_result_source, parse(text.as_bytes()))),
            Some(value) if !value.is_null() => {
                return Some((run_result_source, Ok(Cow::Borrowed(value))));
            }
            _ => self.tried.push(run_result_source.label().to_string()),
        }
        let mut entries = Vec::new();
        match result_json_path {
            Some(path) if is_absolute(path) => {
                self.tried.push(path.to_string());
                if let Some(bytes) = local_files(Path::new(path)) {
                    let source = ResultJsonSource {
                        path: Some(path.to_string()),
                        ..ResultJsonSource::of(ResultJsonSourceKind::LocalPath)
                    };
                    return Some((source, parse(&bytes)));
                }
            }
            Some(path) => entries.push(path),
            None => {}
        }
        if !entries.contains(&expected_entry) {
            entries.push(expected_entry);
        }
        entries
            .into_iter()
            .find_map(|entry| self.read_entry(reader, entry))
    }

    /// Steps 3 and 4: `entry` read from the bundle.
    fn read_entry(&mut self, reader: &BundleReader, entry: &str) -> Option<Found<'static>> {
        self.tried.push(entry.to_string());
        match reader.read_bytes(entry) {
            Ok(bytes) => {
                let source = ResultJsonSource {
                    entry_path: Some(entry.to_string()),
                    ..ResultJsonSource::of(ResultJsonSourceKind::BundleEntry)
                };
                Some((source, parse(&bytes)))
            }
            Err(error) if error.is_absence() => None,
            Err(error) => {
                self.errors.push(Diagnostic::new(
                    "result_json_read_failed",
                    error.to_string(),
                    Some(json!({"entryPath": entry})),
                ));
                None
            }
        }
    }
}

/// A non-empty string field of the run result, else of its `responseJson`.
fn run_field(run_result: &Value, own: &str, response: &[&str]) -> Option<String> {
    let non_empty = |value: &Value, key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    non_empty(run_result, own).or_else(|| {
        let response_json = run_result.get("responseJson")?;
        response
            .iter()
            .find_map(|key| non_empty(response_json, key))
    })
}

fn parse(bytes: &[u8]) -> Result<Cow<'static, Value>, String> {
    serde_json::from_slice(bytes)
        .map(Cow::Owned)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::dir_reader::DirBundle;
    use crate::bundle::test_support::write_file;
    use crate::bundle::unavailable::UnavailableBundle;

    const LOCAL: &str = "/runs/r-1/out/result.json";

    fn local_result(path: &Path) -> Option<Vec<u8>> {
        (path == Path::new(LOCAL)).then(|| br#"{"from":"local"}"#.to_vec())
    }

    fn bundle() -> (tempfile::TempDir, BundleReader) {
        let dir = tempfile::tempdir().expect("tempdir");
        write_file(dir.path(), "result/result.json", br#"{"from":"default"}"#);
        write_file(dir.path(), "out/custom.json", br#"{"from":"relative"}"#);
        write_file(dir.path(), "expected/r.json", br#"{"from":"expected"}"#);
        write_file(dir.path(), "broken.json", b"{not json");
        let reader = BundleReader::from(DirBundle::open(dir.path()).expect("open"));
        (dir, reader)
    }

    fn resolve(run_result: Value, reader: &BundleReader, expects: Option<&str>) -> ResolvedResult {
        resolve_result_json(&run_result, reader, expects, &local_result).expect("resolved")
    }

    fn from(resolved: &ResolvedResult) -> &str {
        resolved
            .result_json
            .as_ref()
            .and_then(|v| v["from"].as_str())
            .unwrap_or_default()
    }

    #[test]
    fn each_step_wins_when_earlier_ones_are_absent() {
        let (_dir, reader) = bundle();
        let first = resolve(
            json!({"resultJson": "{\"from\":\"run\"}", "resultJsonPath": LOCAL}),
            &reader,
            None,
        );
        assert_eq!(from(&first), "run");
        assert_eq!(
            first.result_json_source.kind,
            ResultJsonSourceKind::RunResult
        );

        let local = resolve(
            json!({"resultJson": null, "resultJsonPath": LOCAL}),
            &reader,
            None,
        );
        assert_eq!(from(&local), "local");
        assert_eq!(local.result_json_source.path.as_deref(), Some(LOCAL));
        assert_eq!(local.result_json_path.as_deref(), Some(LOCAL));

        let relative = resolve(
            json!({"responseJson": {"result_json_path": "out/custom.json"}}),
            &reader,
            None,
        );
        assert_eq!(from(&relative), "relative");
        assert_eq!(
            relative.result_json_source.entry_path.as_deref(),
            Some("out/custom.json")
        );

        let missing_local = resolve(
            json!({"resultJsonPath": "/elsewhere.json"}),
            &reader,
            Some("expected/r.json"),
        );
        assert_eq!(from(&missing_local), "expected");
        assert_eq!(
            missing_local.result_json_source.kind,
            ResultJsonSourceKind::BundleEntry
        );

        let default = resolve(json!({"status": "succeeded"}), &reader, None);
        assert_eq!(from(&default), "default");
        assert_eq!(
            default.result_json_source.entry_path.as_deref(),
            Some(DEFAULT_RESULT_JSON_ENTRY)
        );
    }

    #[test]
    fn warns_when_nothing_is_found() {
        let reader = BundleReader::from(UnavailableBundle::new("r-1"));
        let resolved = resolve(json!({"resultJsonPath": "/nowhere.json"}), &reader, None);
        assert_eq!(resolved.result_json, None);
        assert_eq!(
            resolved.result_json_source.kind,
            ResultJsonSourceKind::Unavailable
        );
        assert_eq!(resolved.warnings.len(), 1);
        assert_eq!(resolved.warnings[0].code, "result_json_unavailable");
        assert_eq!(
            resolved.warnings[0].message,
            "result JSON unavailable; tried=[runResult.resultJson, /nowhere.json, result/result.json]"
        );
        assert!(resolved.errors.is_empty());
        assert_eq!(
            serde_json::to_value(&resolved).expect("json"),
            json!({
                "resultJsonSource": {"kind": "unavailable"},
                "resultJsonPath": "/nowhere.json",
                "warnings": [{"code": "result_json_unavailable", "message": resolved.warnings[0].message}],
                "errors": []
            })
        );
    }

    #[test]
    fn records_refused_entries_and_moves_on() {
        let (_dir, reader) = bundle();
        let resolved = resolve(json!({"resultJsonPath": "../escape.json"}), &reader, None);
        assert_eq!(from(&resolved), "default");
        assert_eq!(resolved.errors[0].code, "result_json_read_failed");
        assert_eq!(
            resolved.errors[0].message,
            "Unsafe bundle entry path: ../escape.json"
        );
    }

    #[test]
    fn reports_invalid_json_with_its_source() {
        let (_dir, reader) = bundle();
        let run = resolve_result_json(
            &json!({"resultJson": "{oops"}),
            &reader,
            None,
            &local_result,
        )
        .expect_err("invalid");
        assert_eq!(
            run.to_string(),
            "Invalid result JSON from runResult.resultJson: key must be a string at line 1 column 2"
        );
        let entry = resolve_result_json(&json!({}), &reader, Some("broken.json"), &local_result)
            .expect_err("invalid");
        assert_eq!(
            entry.to_string(),
            "Invalid result JSON from broken.json: key must be a string at line 1 column 2"
        );
    }

    #[test]
    fn unwraps_the_skill_runner_envelope_and_keeps_it() {
        let reader = BundleReader::from(UnavailableBundle::new("r-1"));
        let envelope =
            json!({"status": "success", "data": {"digest_path": "/d.md"}, "error": null});
        let resolved = resolve(json!({"resultJson": envelope}), &reader, None);
        assert_eq!(resolved.result_json, Some(json!({"digest_path": "/d.md"})));
        assert_eq!(resolved.envelope, Some(envelope));
        let pass_through = json!({"kind": "pass-through.run.v1", "status": "x", "data": {}});
        let kept = resolve(json!({"resultJson": pass_through}), &reader, None);
        assert_eq!(kept.result_json, Some(pass_through));
        assert_eq!(kept.envelope, None);
    }

    #[test]
    fn reads_the_workspace_dir() {
        let reader = BundleReader::from(UnavailableBundle::new("r-1"));
        let own = resolve(
            json!({"resultJson": {}, "workspaceDir": "/ws"}),
            &reader,
            None,
        );
        assert_eq!(own.workspace_dir.as_deref(), Some("/ws"));
        let nested = resolve(
            json!({"resultJson": {}, "responseJson": {"workspace_dir": "/ws2"}}),
            &reader,
            None,
        );
        assert_eq!(nested.workspace_dir.as_deref(), Some("/ws2"));
    }

    #[test]
    fn the_value_taken_is_what_serialising_writes() {
        let reader = BundleReader::from(UnavailableBundle::new("r-1"));
        let envelope = json!({"status": "success", "data": {"a": [1, 2.5, "x"]}, "error": null});
        let full = resolve(
            json!({"resultJson": envelope, "resultJsonPath": "out/r.json", "workspaceDir": "/ws"}),
            &reader,
            None,
        );
        let unavailable = resolve(json!({"status": "succeeded"}), &reader, None);
        assert!(!unavailable.warnings.is_empty());
        for resolved in [full, unavailable] {
            let serialised = serde_json::to_value(&resolved).unwrap();
            let mut taken = resolved.clone();
            let value = taken.take_value();
            assert_eq!(value.to_string(), serialised.to_string(), "member order");
            assert_eq!((taken.result_json, taken.envelope), (None, None));
            assert_eq!(taken.errors, resolved.errors);
        }
    }

    #[test]
    fn in_place_a_run_result_value_is_left_where_it_is_and_text_is_not() {
        let reader = BundleReader::from(UnavailableBundle::new("r-1"));
        let in_place = |run_result: Value| {
            resolve_result_json_in_place(&run_result, &reader, None, &local_result)
                .expect("resolved")
        };
        let envelope =
            json!({"status": "success", "data": {"digest_path": "/d.md"}, "error": null});
        let cases = [
            (json!({"resultJson": {"a": 1}}), Some(InRunResult::Whole)),
            (
                json!({"resultJson": envelope}),
                Some(InRunResult::EnvelopeData),
            ),
            (json!({"resultJson": "{\"a\":1}"}), None),
            (json!({"resultJsonPath": LOCAL}), None),
        ];
        for (run_result, place) in cases {
            let mut resolved = in_place(run_result.clone());
            let copied = resolve(run_result.clone(), &reader, None);
            assert_eq!(resolved.in_run_result, place, "{run_result}");
            let Some(place) = place else {
                assert_eq!(resolved, copied, "{run_result}");
                continue;
            };
            // Where it says, the run result holds what a copy would.
            let at = |path: &[&str]| path.iter().fold(&run_result, |v, key| &v[*key]).clone();
            assert_eq!(Some(at(place.result_json_path())), copied.result_json);
            assert_eq!(place.envelope_path().map(at), copied.envelope);
            assert_eq!((&resolved.result_json, &resolved.envelope), (&None, &None));
            // The data part keeps its members' order, with `null` in the places.
            let mut expected = serde_json::to_value(&copied).unwrap();
            expected["resultJson"] = Value::Null;
            if place.envelope_path().is_some() {
                expected["envelope"] = Value::Null;
            }
            assert_eq!(resolved.take_value().to_string(), expected.to_string());
        }
    }
}
