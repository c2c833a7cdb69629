//! Fixture cases: a selection, settings, the world hooks may read and the
//! result of each request, in one JSON file (see the README for the format).
//!
//! Members that name files (`selection`, `settings`, `library`, `identifiers`,
//! `hostAnswers`, `files`, `bundle`, `bundleDir`) are paths relative to the case
//! file; a JSON member may also point into another file with `path#/json/pointer`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::host::answers::{FixtureAnswer, HostAnswers};
use crate::plan::Mode;
use crate::run::options::RunInput;
use crate::run::results::ProviderResult;
use crate::run::settings::Settings;
use crate::run::world::{Shape, SharedSource, WorldSpec};
use crate::selection::{SelectionContext, SelectionError};

mod files;
mod results;

use files::{read_json_file, resolve_reference};
pub use results::FixtureResults;
use results::parse_result;

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
    /// Already read, as the CLI reads a `--selection` file without holding its
    /// JSON whole ([`SelectionContext::from_seekable`], or
    /// [`SelectionContext::from_reader`] for standard input).
    Read(SelectionContext),
}

/// The members of a case that may name a file (`path[#/pointer]`, or a
/// directory for `files`).
const REFERENCE_MEMBERS: [&str; 6] = [
    "selection",
    "settings",
    "library",
    "identifiers",
    "hostAnswers",
    "files",
];

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

    /// Whether a JSON object with members named `names` is a case rather than
    /// a file cases name (a selection, a library, settings, answers): it has a
    /// member only a case has (any of a case's members but `$schema`).
    pub fn has_case_members<'a>(mut names: impl Iterator<Item = &'a str>) -> bool {
        names.any(|name| name != "$schema" && MEMBERS.contains(&name))
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

    /// The files and directories the case at `path` refers to (the files of its
    /// JSON members given as references, its files directory, its result bundles),
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
        let mut found: Vec<PathBuf> = REFERENCE_MEMBERS
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

    /// The fixture's results as a [`ResultSource`](crate::run::results::ResultSource).
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

    /// `identifiers`, inline or as a reference.
    fn identifiers(&mut self) -> Result<Map<String, Value>, CaseError> {
        match self.json_member("identifiers")? {
            None => Ok(Map::new()),
            Some(Value::Object(m)) => Ok(m),
            Some(_) => Err(self.err(
                "/identifiers",
                "expected an object keyed \"<type>:<value>\"",
            )),
        }
    }

    /// `hostAnswers`, inline or as a reference.
    fn host_answers(&mut self) -> Result<BTreeMap<String, Vec<FixtureAnswer>>, CaseError> {
        match self.json_member("hostAnswers")? {
            None => Ok(BTreeMap::new()),
            Some(value) => HostAnswers::parse_members(&value)
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

#[cfg(test)]
#[path = "fixture_tests.rs"]
mod tests;
