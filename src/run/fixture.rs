//! Fixture cases: a selection, settings, the world hooks may read and the
//! result of each request, in one JSON file (see the README for the format).
//!
//! Members that name files (`selection`, `settings`, `library`, `files`,
//! `bundle`, `bundleDir`) are paths relative to the case file; a JSON member
//! may also point into another file with `path#/json/pointer`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::host::answers::{FixtureAnswer, HostAnswers};
use crate::plan::Mode;
use crate::run::options::RunInput;
use crate::run::results::{BundleSource, JobRequest, ProviderResult, ResultSource};
use crate::run::settings::Settings;
use crate::run::world::{Shape, SharedSource, WorldSpec};
use crate::selection::{SelectionContext, SelectionError};

/// Why a case file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", self.source_name(), if pointer.is_empty() { String::new() } else { format!(" at {pointer}") })]
pub struct CaseError {
    /// The file at fault.
    pub file: String,
    /// JSON pointer of the offending member.
    pub pointer: String,
    /// What is wrong and what to do.
    pub message: String,
}

impl CaseError {
    fn at(file: String, pointer: &str, message: impl Into<String>) -> CaseError {
        CaseError {
            file,
            pointer: pointer.to_string(),
            message: message.into(),
        }
    }

    /// The case file, or for a case built from command-line inputs alone, the
    /// input flag of the offending member (`the --settings input`).
    fn source_name(&self) -> String {
        if !self.file.is_empty() {
            return self.file.clone();
        }
        match self.pointer.split('/').nth(1).filter(|m| !m.is_empty()) {
            Some(member) => format!("the --{member} input"),
            None => "the command-line inputs".to_string(),
        }
    }
}

/// What is wrong with one member of a case (or a file it names), before the
/// case places it at the member's pointer.
#[derive(Debug, thiserror::Error)]
enum MemberError {
    #[error("cannot read {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not valid JSON (line {}, column {}): {source}", path.display(), source.line(), source.column())]
    InvalidJson {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{file} has nothing at {pointer}")]
    NothingAt { file: String, pointer: String },
    #[error(
        "expected {{\"resultJson\": …}}, {{\"bundle\": \"x.zip\"}}, {{\"bundleDir\": \"dir\"}} or {{\"error\": \"message\"}}"
    )]
    NotAResult,
    #[error("unknown member {0}; use resultJson, requestId, bundle, bundleDir, runResult or error")]
    UnknownResultMember(String),
    #[error("{name} {} does not exist", path.display())]
    Missing { name: &'static str, path: PathBuf },
    #[error("{0} must be a path")]
    NotAPath(&'static str),
}

/// A fixture case.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Case {
    /// The case file.
    pub path: PathBuf,
    /// What the case is about.
    pub description: Option<String>,
    /// The selection.
    pub selection: Option<CaseSelection>,
    /// `{workflowParams, providerOptions}`.
    pub settings: Option<Value>,
    /// Planning mode (`menu`, `execute`, `handoff`).
    pub mode: Option<String>,
    /// How the run is invoked: `interactive` (members that need a person are
    /// answered from `hostAnswers`) or `non-interactive` (the default: they are
    /// refused with `interaction_required`, as the reference host refuses them).
    pub invocation_mode: Option<crate::hooks::InvocationMode>,
    /// Directory attachment paths resolve against.
    pub files: Option<PathBuf>,
    /// Library description for the host world.
    pub library: Option<Value>,
    /// A library the world reads on demand (a Zotero database), beside or
    /// instead of the description.
    pub source: Option<SharedSource>,
    /// Answers to `metadata.translateIdentifier`, keyed `<type>:<value>`, and to the
    /// Host API members that need a service or a person (`hostAnswers`).
    pub answers: HostAnswers,
    /// Result per request key (`unit-1`, `unit-1/part-2`, or `*`).
    pub results: BTreeMap<String, CaseResult>,
    /// Expected outcomes, for `hookrun test`.
    pub expect: Option<Value>,
}

/// A case's selection.
#[derive(Debug, Clone, PartialEq)]
pub enum CaseSelection {
    /// Its JSON (either shape), as a case file holds it.
    Json(Value),
    /// Already read, as the CLI reads a `--selection` file in one pass
    /// ([`SelectionContext::from_reader`]), never holding its JSON whole.
    Read(SelectionContext),
}

/// The fixture's answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult(pub ProviderResult);

/// The members a case may have (`schema/case.schema.json` lists the same).
const MEMBERS: &[&str] = &[
    "$schema",
    "description",
    "selection",
    "settings",
    "mode",
    "invocationMode",
    "files",
    "library",
    "identifiers",
    "hostAnswers",
    "results",
    "expect",
];

impl Case {
    /// Reads and checks a case file.
    pub fn load(path: &Path) -> Result<Case, CaseError> {
        let mut reader = CaseReader {
            base: path.parent().unwrap_or(Path::new(".")).to_path_buf(),
            file: path.display().to_string(),
            obj: Map::new(),
        };
        reader.obj = match read_json_file(path).map_err(|e| reader.err("", e.to_string()))? {
            Value::Object(obj) => obj,
            _ => return Err(reader.err("/", "a case must be a JSON object")),
        };
        if let Some(extra) = reader.obj.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
            return Err(reader.err(
                &crate::pointer::child("", extra),
                format!("unknown member; a case has {}", MEMBERS.join(", ")),
            ));
        }
        // In this order, so a case with several faults reports the same first.
        let files = reader.files()?;
        let answers = HostAnswers {
            identifiers: reader.identifiers()?,
            members: reader.host_answers()?,
        };
        let results = reader.results()?;
        Ok(Case {
            path: path.to_path_buf(),
            description: reader.text("description")?,
            selection: reader.json_member("selection")?.map(CaseSelection::Json),
            settings: reader.json_member("settings")?,
            mode: reader.text("mode")?,
            invocation_mode: reader
                .text("invocationMode")?
                .map(|mode| {
                    serde_json::from_value(Value::String(mode)).map_err(|_| {
                        reader.err(
                            "/invocationMode",
                            "invocationMode must be interactive or non-interactive",
                        )
                    })
                })
                .transpose()?,
            files,
            library: reader.json_member("library")?,
            source: None,
            answers,
            results,
            expect: reader.obj.shift_remove("expect"),
        })
    }

    fn error(&self, pointer: &str, message: String) -> CaseError {
        CaseError::at(self.path.display().to_string(), pointer, message)
    }

    /// The run input this case describes: its selection (converted to `convert`
    /// when given), settings, and the world of its library and files.
    pub fn input(&self, convert: Option<Shape>) -> Result<RunInput, CaseError> {
        let selection = self.parse_selection()?;
        self.input_from(selection, convert)
    }

    /// [`Case::input`], dropping the selection's JSON as soon as it is parsed,
    /// so that a large selection is not held twice while the world is built;
    /// the case has no selection afterwards.
    pub fn take_input(&mut self, convert: Option<Shape>) -> Result<RunInput, CaseError> {
        let selection = match self.selection.take().ok_or_else(|| self.no_selection())? {
            CaseSelection::Json(value) => {
                SelectionContext::from_owned(value).map_err(|e| self.invalid_selection(e))?
            }
            CaseSelection::Read(selection) => selection,
        };
        self.input_from(selection, convert)
    }

    fn parse_selection(&self) -> Result<SelectionContext, CaseError> {
        match self.selection.as_ref().ok_or_else(|| self.no_selection())? {
            CaseSelection::Json(value) => {
                SelectionContext::from_value(value).map_err(|e| self.invalid_selection(e))
            }
            CaseSelection::Read(selection) => Ok(selection.clone()),
        }
    }

    fn no_selection(&self) -> CaseError {
        self.error(
            "/selection",
            "the case has no selection; add \"selection\": \"path/to/selection.json\"".into(),
        )
    }

    /// The error of a selection that is not a SelectionContext, at the case's
    /// `/selection` (for a selection read into [`CaseSelection::Read`]).
    pub fn invalid_selection(&self, e: SelectionError) -> CaseError {
        self.error("/selection", format!("not a valid SelectionContext: {e}"))
    }

    fn input_from(
        &self,
        selection: SelectionContext,
        convert: Option<Shape>,
    ) -> Result<RunInput, CaseError> {
        let settings = match &self.settings {
            None => Settings::default(),
            Some(value) => Settings::from_value(value).map_err(|e| {
                self.error(
                    &format!("/settings{}", e.pointer.trim_end_matches('/')),
                    e.message,
                )
            })?,
        };
        let spec = WorldSpec {
            files: self.files.clone(),
            library: self.library.clone(),
            convert,
            source: self.source.clone(),
        };
        let (world, selection) = spec
            .build(selection)
            .map_err(|e| self.error("", e.to_string()))?;
        Ok(RunInput {
            selection,
            settings,
            world,
            answers: self.answers.clone(),
        })
    }

    /// How a run of the case is invoked: interactive when `interactive` asks
    /// for it (`--interactive`), else as the case says (non-interactive when
    /// it says nothing).
    pub fn invocation(&self, interactive: bool) -> crate::hooks::InvocationMode {
        if interactive {
            crate::hooks::InvocationMode::Interactive
        } else {
            self.invocation_mode.unwrap_or_default()
        }
    }

    /// The case's planning mode (default `execute`).
    pub fn mode(&self) -> Result<Mode, CaseError> {
        match &self.mode {
            None => Ok(Mode::default()),
            Some(mode) => serde_json::from_value(Value::String(mode.clone()))
                .map_err(|_| self.error("/mode", "mode must be menu, execute or handoff".into())),
        }
    }

    /// The files and directories the case at `path` refers to (its selection,
    /// settings and library files, its files directory, its result bundles),
    /// whether or not they exist: what a watcher of the case watches besides it.
    /// Empty for a file that is not a JSON object.
    pub fn referenced_paths(path: &Path) -> Vec<PathBuf> {
        let base = path.parent().unwrap_or(Path::new("."));
        let Ok(Value::Object(case)) = read_json_file(path) else {
            return Vec::new();
        };
        let file = |value: &Value| {
            let reference = value.as_str()?;
            Some(
                base.join(
                    reference
                        .split_once('#')
                        .map_or(reference, |(file, _)| file),
                ),
            )
        };
        let mut found: Vec<PathBuf> = ["selection", "settings", "library", "files"]
            .iter()
            .filter_map(|name| file(case.get(*name)?))
            .collect();
        if let Some(Value::Object(results)) = case.get("results") {
            for result in results.values() {
                found.extend(
                    ["bundle", "bundleDir"]
                        .iter()
                        .filter_map(|n| file(result.get(*n)?)),
                );
            }
        }
        found
    }

    /// The fixture's results as a [`ResultSource`].
    pub fn result_source(&self) -> FixtureResults {
        FixtureResults {
            results: self.results.clone(),
            case: self.path.display().to_string(),
        }
    }
}

/// The members of one case file, read one by one, each error naming its
/// pointer.
struct CaseReader {
    /// The directory the case's paths are relative to.
    base: PathBuf,
    file: String,
    obj: Map<String, Value>,
}

impl CaseReader {
    fn err(&self, pointer: &str, message: impl Into<String>) -> CaseError {
        CaseError::at(self.file.clone(), pointer, message)
    }

    /// A JSON member, given inline or as `path[#/pointer]`; an inline value
    /// is moved out of the case, not copied (a selection can be large).
    fn json_member(&mut self, name: &str) -> Result<Option<Value>, CaseError> {
        match self.obj.shift_remove(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(reference)) => resolve_reference(&self.base, &reference)
                .map(Some)
                .map_err(|e| self.err(&format!("/{name}"), e.to_string())),
            Some(other) => Ok(Some(other)),
        }
    }

    fn text(&self, name: &str) -> Result<Option<String>, CaseError> {
        match self.obj.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.err(&format!("/{name}"), "expected a string")),
        }
    }

    /// `files`: a directory relative to the case.
    fn files(&self) -> Result<Option<PathBuf>, CaseError> {
        let files = self.text("files")?.map(|f| self.base.join(f));
        match &files {
            Some(dir) if !dir.is_dir() => {
                Err(self.err("/files", format!("{} is not a directory", dir.display())))
            }
            _ => Ok(files),
        }
    }

    fn identifiers(&self) -> Result<Map<String, Value>, CaseError> {
        match self.obj.get("identifiers") {
            None | Some(Value::Null) => Ok(Map::new()),
            Some(Value::Object(m)) => Ok(m.clone()),
            Some(_) => Err(self.err(
                "/identifiers",
                "expected an object keyed \"<type>:<value>\"",
            )),
        }
    }

    fn host_answers(&self) -> Result<BTreeMap<String, Vec<FixtureAnswer>>, CaseError> {
        match self.obj.get("hostAnswers") {
            None | Some(Value::Null) => Ok(BTreeMap::new()),
            Some(value) => HostAnswers::parse_members(value)
                .map_err(|e| self.err(&format!("/hostAnswers{}", e.pointer), e.message)),
        }
    }

    /// `results`, by request key.
    fn results(&self) -> Result<BTreeMap<String, CaseResult>, CaseError> {
        let mut results = BTreeMap::new();
        match self.obj.get("results") {
            None | Some(Value::Null) => {}
            Some(Value::Object(m)) => {
                for (key, result) in m {
                    let pointer = crate::pointer::child("/results", key);
                    let parsed = parse_result(&self.base, result)
                        .map_err(|e| self.err(&pointer, e.to_string()))?;
                    results.insert(key.clone(), CaseResult(parsed));
                }
            }
            Some(_) => return Err(self.err("/results", "expected an object keyed by unit id")),
        }
        Ok(results)
    }
}

/// Reads `path` (relative to `base`), or `path#/pointer` inside it.
fn resolve_reference(base: &Path, reference: &str) -> Result<Value, MemberError> {
    let (file, pointer) = reference.split_once('#').unwrap_or((reference, ""));
    let value = read_json_file(&base.join(file))?;
    if pointer.is_empty() {
        return Ok(value);
    }
    value
        .pointer(pointer)
        .cloned()
        .ok_or_else(|| MemberError::NothingAt {
            file: file.to_string(),
            pointer: pointer.to_string(),
        })
}

fn read_json_file(path: &Path) -> Result<Value, MemberError> {
    let text = hookrun_contract::input::read_text(path, hookrun_contract::input::MAX_JSON_BYTES)
        .map_err(|e| MemberError::Unreadable {
            path: path.to_path_buf(),
            source: e.into(),
        })?;
    serde_json::from_str(&text).map_err(|source| MemberError::InvalidJson {
        path: path.to_path_buf(),
        source,
    })
}

/// The members of one of a case's `results`.
const RESULT_MEMBERS: &[&str] = &[
    "resultJson",
    "requestId",
    "bundle",
    "bundleDir",
    "error",
    "runResult",
];

/// `{resultJson?, requestId?, bundle?, bundleDir?, extra?}` or `{error}`.
fn parse_result(base: &Path, value: &Value) -> Result<ProviderResult, MemberError> {
    let obj = value.as_object().ok_or(MemberError::NotAResult)?;
    if let Some(extra) = obj.keys().find(|k| !RESULT_MEMBERS.contains(&k.as_str())) {
        return Err(MemberError::UnknownResultMember(extra.clone()));
    }
    if let Some(message) = obj.get("error") {
        return Ok(ProviderResult::Failed {
            message: message.as_str().unwrap_or("the request failed").to_string(),
        });
    }
    let path_of = |name: &'static str| -> Result<Option<PathBuf>, MemberError> {
        match obj.get(name) {
            None => Ok(None),
            Some(Value::String(p)) => {
                let full = base.join(p);
                if full.exists() {
                    Ok(Some(full))
                } else {
                    Err(MemberError::Missing { name, path: full })
                }
            }
            Some(_) => Err(MemberError::NotAPath(name)),
        }
    };
    let bundle = match (path_of("bundle")?, path_of("bundleDir")?) {
        (Some(zip), _) => Some(BundleSource::ZipFile(zip)),
        (None, Some(dir)) => Some(BundleSource::Dir(dir)),
        (None, None) => None,
    };
    Ok(ProviderResult::Succeeded {
        request_id: obj
            .get("requestId")
            .and_then(Value::as_str)
            .map(str::to_string),
        result_json: obj.get("resultJson").cloned(),
        bundle,
        extra: obj
            .get("runResult")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
    })
}

/// Answers requests from a case's `results`: by request key, else `*`.
pub struct FixtureResults {
    results: BTreeMap<String, CaseResult>,
    case: String,
}

impl ResultSource for FixtureResults {
    fn result(&mut self, job: &JobRequest) -> ProviderResult {
        let key = job.key();
        match self.results.get(&key).or_else(|| self.results.get("*")) {
            Some(CaseResult(result)) => result.clone(),
            None => ProviderResult::Failed {
                message: format!(
                    "{} has no result for request {key}; add \"results\": {{\"{key}\": {{…}}}}",
                    self.case
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The editor schema of cases (`schema/case.schema.json`) names what the
    /// reader accepts: its members, the members of a result, the expectation
    /// keys, the planning and invocation modes, and the Host API members
    /// `hostAnswers` may answer.
    #[test]
    fn the_case_schema_lists_what_the_reader_accepts() {
        let schema: Value =
            serde_json::from_str(include_str!("../../schema/case.schema.json")).unwrap();
        let keys = |at: &str| -> Vec<String> {
            let mut keys: Vec<String> = schema
                .pointer(at)
                .and_then(Value::as_object)
                .unwrap_or_else(|| panic!("{at}"))
                .keys()
                .cloned()
                .collect();
            keys.sort();
            keys
        };
        let sorted = |list: &[&str]| {
            let mut list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
            list.sort();
            list
        };
        assert_eq!(keys("/properties"), sorted(MEMBERS));
        assert_eq!(keys("/$defs/result/properties"), sorted(RESULT_MEMBERS));
        assert_eq!(
            keys("/properties/expect/properties"),
            sorted(crate::run::expect::KEYS)
        );
        let modes: Vec<Mode> =
            serde_json::from_value(schema["properties"]["mode"]["enum"].clone()).unwrap();
        assert_eq!(modes.len(), 3);
        let mut answered: Vec<&str> = hookrun_contract::host::api::host_api()
            .members()
            .filter(|(_, m)| {
                matches!(
                    m.answer,
                    hookrun_contract::host::api::Answer::Fixture
                        | hookrun_contract::host::api::Answer::Person
                )
            })
            .map(|(name, _)| name)
            .collect();
        answered.sort();
        assert_eq!(
            schema["properties"]["hostAnswers"]["propertyNames"]["enum"],
            serde_json::json!(answered)
        );
    }

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn references_resolve_relative_to_the_case_with_pointers() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "other.json",
            r#"{"selection": {"items": [], "sampledAt": "x"}}"#,
        );
        let case = write(
            dir.path(),
            "case.json",
            r#"{"selection": "other.json#/selection", "results": {"unit-1": {"error": "boom"}, "*": {"resultJson": 1}}}"#,
        );
        let case = Case::load(&case).unwrap();
        let Some(CaseSelection::Json(selection)) = &case.selection else {
            panic!("a case file's selection is its JSON");
        };
        assert_eq!(selection["sampledAt"], "x");
        let mut source = case.result_source();
        let job = |unit: &str| JobRequest {
            index: 0,
            unit_id: unit.into(),
            subunit_id: "main".into(),
            request: Value::Null,
        };
        assert!(matches!(
            source.result(&job("unit-1")),
            ProviderResult::Failed { .. }
        ));
        assert!(matches!(
            source.result(&job("unit-9")),
            ProviderResult::Succeeded { .. }
        ));
    }

    #[test]
    fn taking_the_input_gives_the_same_input_and_lets_the_selection_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "case.json",
            r#"{"selection": {"items": [{"kind": "parent", "ref": {"libraryId": 1, "key": "P1"},
                "itemType": "book", "title": "T"}], "sampledAt": "x"}}"#,
        );
        let mut case = Case::load(&path).unwrap();
        let kept = case.input(None).unwrap();
        let taken = case.take_input(None).unwrap();
        assert_eq!(taken.selection, kept.selection);
        assert_eq!(taken.settings, kept.settings);
        assert!(case.selection.is_none());
        let again = case.take_input(None).err().unwrap();
        assert_eq!(again.pointer, "/selection");
    }

    #[test]
    fn errors_name_the_file_and_pointer() {
        let dir = tempfile::tempdir().unwrap();
        let case = write(
            dir.path(),
            "case.json",
            r#"{"results": {"unit-1": {"bundle": "missing.zip"}}}"#,
        );
        let e = Case::load(&case).unwrap_err();
        assert_eq!(e.pointer, "/results/unit-1");
        assert!(e.message.contains("missing.zip"), "{e}");
        let case = write(dir.path(), "bad.json", r#"{"selecton": {}}"#);
        assert_eq!(Case::load(&case).unwrap_err().pointer, "/selecton");
        let case = write(dir.path(), "trunc.json", r#"{"selection": "#);
        assert!(Case::load(&case).unwrap_err().message.contains("line 1"));
    }
}
