//! Precise coverage of hook modules, and its LCOV report.
//!
//! With [`SandboxOptions::coverage`](super::SandboxOptions::coverage) each
//! runtime opens a local session of the engine's inspector and starts the
//! protocol's precise coverage (call counts, block ranges) before any module
//! loads. When the runtime is dropped its coverage is taken and kept for the
//! thread, of the modules its jail resolved only (never the prelude or the
//! facade), at their canonical paths; [`take_coverage`] hands it over.
//! [`Lcov`] sums any number of such records into per-line, per-function and
//! per-branch counts.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::rc::Rc;

use deno_core::{InspectorMsg, InspectorSessionKind, JsRuntime, JsRuntimeInspector};
use deno_core::{InspectorMsgKind, LocalInspectorSession};
use serde::Deserialize;

use super::loader::Jail;

/// One counted range of a module's source, in UTF-16 code units.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoveredRange {
    /// First unit of the range.
    pub start_offset: usize,
    /// The unit after it.
    pub end_offset: usize,
    /// How many times it ran.
    pub count: u64,
}

/// A function of a module: its own range first, then its blocks whose count
/// differs from the range around them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionCoverage {
    /// Its name (empty for the module's top level and anonymous functions).
    pub function_name: String,
    /// Its range, then its blocks.
    pub ranges: Vec<CoveredRange>,
}

/// What one runtime ran of one module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleCoverage {
    /// The module file.
    pub path: PathBuf,
    /// Its functions, the module's top level first.
    pub functions: Vec<FunctionCoverage>,
}

thread_local! {
    static TAKEN: RefCell<Vec<ModuleCoverage>> = const { RefCell::new(Vec::new()) };
}

/// The coverage of every runtime of this thread dropped since the last call,
/// one record per runtime and module.
pub fn take_coverage() -> Vec<ModuleCoverage> {
    TAKEN.with(|taken| std::mem::take(&mut *taken.borrow_mut()))
}

/// A runtime's coverage session.
pub(crate) struct Session {
    session: LocalInspectorSession,
    replies: Rc<RefCell<Vec<String>>>,
}

/// `takePreciseCoverage`'s answer.
#[derive(Deserialize)]
struct Taken {
    result: TakenResult,
}

#[derive(Deserialize)]
struct TakenResult {
    result: Vec<ScriptCoverage>,
}

#[derive(Deserialize)]
struct ScriptCoverage {
    url: String,
    functions: Vec<FunctionCoverage>,
}

const TAKE: i32 = 3;

impl Session {
    /// Starts precise coverage in `runtime` (made with its inspector on).
    pub(crate) fn start(runtime: &JsRuntime) -> Session {
        let replies: Rc<RefCell<Vec<String>>> = Rc::default();
        let sink = Rc::clone(&replies);
        let mut session = JsRuntimeInspector::create_local_session(
            runtime.inspector(),
            Box::new(move |message: InspectorMsg| {
                if let InspectorMsgKind::Message(TAKE) = message.kind {
                    sink.borrow_mut().push(message.content);
                }
            }),
            InspectorSessionKind::NonBlocking {
                wait_for_disconnect: false,
            },
        );
        session.post_message::<()>(1, "Profiler.enable", None);
        session.post_message(
            2,
            "Profiler.startPreciseCoverage",
            Some(serde_json::json!({"callCount": true, "detailed": true})),
        );
        Session { session, replies }
    }

    /// Takes what the runtime ran of the modules `jail` resolved (at their
    /// canonical paths) and keeps it for [`take_coverage`].
    pub(crate) fn finish(mut self, jail: &Jail) {
        self.session
            .post_message::<()>(TAKE, "Profiler.takePreciseCoverage", None);
        let replies = std::mem::take(&mut *self.replies.borrow_mut());
        let Some(taken) = replies
            .iter()
            .find_map(|reply| serde_json::from_str::<Taken>(reply).ok())
        else {
            return;
        };
        let modules = taken.result.result.into_iter().filter_map(|script| {
            Some(ModuleCoverage {
                path: jail.lookup(&script.url)?.path,
                functions: script.functions,
            })
        });
        TAKEN.with(|taken| taken.borrow_mut().extend(modules));
    }
}

/// Coverage summed over runtimes and cases, by file, written as LCOV.
#[derive(Debug, Default)]
pub struct Lcov {
    files: BTreeMap<PathBuf, FileCounts>,
}

#[derive(Debug, Default)]
struct FileCounts {
    /// Hits by line (1-based), for every line that can run.
    lines: BTreeMap<usize, u64>,
    /// Calls by function: keyed by its start, with its line and name.
    functions: BTreeMap<usize, (usize, String, u64)>,
    /// Runs by block: keyed by its range, with its line.
    branches: BTreeMap<(usize, usize), (usize, u64)>,
}

/// Where each line of a source starts and where its code starts, in UTF-16
/// code units; lines with no code (blank, or only a comment) have none.
fn line_starts(source: &str) -> Vec<(usize, Option<usize>)> {
    let mut lines = Vec::new();
    let mut offset = 0;
    for line in source.split('\n') {
        let indent = line.len() - line.trim_start().len();
        let code = line.trim();
        let has_code = !(code.is_empty()
            || code.starts_with("//")
            || code.starts_with("/*")
            || code.starts_with('*'));
        let code_at = offset + line[..indent].encode_utf16().count();
        lines.push((offset, has_code.then_some(code_at)));
        offset += line.encode_utf16().count() + 1;
    }
    lines
}

impl Lcov {
    /// Adds one runtime's record of a module whose text is `source`. A place
    /// counts as often as the innermost range around it ran, as the protocol
    /// leaves out blocks that ran as often as their surroundings.
    pub fn add(&mut self, module: &ModuleCoverage, source: &str) {
        let ranges: Vec<&CoveredRange> = module.functions.iter().flat_map(|f| &f.ranges).collect();
        let count_at = |offset: usize| {
            ranges
                .iter()
                .filter(|r| r.start_offset <= offset && offset < r.end_offset)
                .min_by_key(|r| r.end_offset - r.start_offset)
                .map(|r| r.count)
        };
        let lines = line_starts(source);
        let line_of = |offset: usize| lines.partition_point(|(start, _)| *start <= offset).max(1);
        let file = self.files.entry(module.path.clone()).or_default();
        for (number, (_, code)) in lines.iter().enumerate() {
            if let Some(count) = code.and_then(count_at) {
                *file.lines.entry(number + 1).or_insert(0) += count;
            }
        }
        for (index, function) in module.functions.iter().enumerate() {
            let Some((own, blocks)) = function.ranges.split_first() else {
                continue;
            };
            // The module's top level is not a function.
            if index > 0 || !function.function_name.is_empty() || own.start_offset > 0 {
                let name = match function.function_name.as_str() {
                    "" => format!("(anonymous_{})", line_of(own.start_offset)),
                    name => name.to_string(),
                };
                let entry = file.functions.entry(own.start_offset).or_insert((
                    line_of(own.start_offset),
                    name,
                    0,
                ));
                entry.2 += own.count;
            }
            for block in blocks {
                let entry = file
                    .branches
                    .entry((block.start_offset, block.end_offset))
                    .or_insert((line_of(block.start_offset), 0));
                entry.1 += block.count;
            }
        }
    }

    /// Every file's counts as an LCOV tracefile (`SF`, `FN`/`FNDA`/`FNF`/`FNH`,
    /// `BRDA`/`BRF`/`BRH`, `DA`/`LF`/`LH`), files in path order.
    pub fn to_lcov(&self) -> String {
        let mut out = String::new();
        for (path, file) in &self.files {
            let _ = writeln!(out, "TN:\nSF:{}", path.display());
            for (line, name, _) in file.functions.values() {
                let _ = writeln!(out, "FN:{line},{name}");
            }
            for (_, name, count) in file.functions.values() {
                let _ = writeln!(out, "FNDA:{count},{name}");
            }
            let called = file.functions.values().filter(|f| f.2 > 0).count();
            let _ = writeln!(out, "FNF:{}\nFNH:{called}", file.functions.len());
            for (block, (line, count)) in file.branches.values().enumerate() {
                let _ = writeln!(out, "BRDA:{line},{block},0,{count}");
            }
            let taken = file.branches.values().filter(|b| b.1 > 0).count();
            let _ = writeln!(out, "BRF:{}\nBRH:{taken}", file.branches.len());
            for (line, count) in &file.lines {
                let _ = writeln!(out, "DA:{line},{count}");
            }
            let hit = file.lines.values().filter(|c| **c > 0).count();
            let _ = writeln!(out, "LF:{}\nLH:{hit}\nend_of_record", file.lines.len());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(start_offset: usize, end_offset: usize, count: u64) -> CoveredRange {
        CoveredRange {
            start_offset,
            end_offset,
            count,
        }
    }

    fn function(name: &str, ranges: Vec<CoveredRange>) -> FunctionCoverage {
        FunctionCoverage {
            function_name: name.into(),
            ranges,
        }
    }

    /// The protocol's record of a module as the engine reports it: a function
    /// called three times whose `if` ran twice, one never called.
    #[test]
    fn records_of_several_runtimes_sum_into_lines_functions_and_branches() {
        let source = "export function f(x) {\n  if (x > 1) {\n    return 'big';\n  }\n  return 'small';\n}\n// never\nexport function never() {\n  return 0;\n}\nglobalThis.r = [f(1), f(2), f(3)];\n";
        let module = ModuleCoverage {
            path: "m.mjs".into(),
            functions: vec![
                function("", vec![range(0, 164, 1)]),
                function(
                    "f",
                    vec![range(7, 79, 3), range(36, 59, 2), range(59, 77, 1)],
                ),
                function("never", vec![range(96, 128, 0)]),
            ],
        };
        let mut lcov = Lcov::default();
        lcov.add(&module, source);
        lcov.add(&module, source);
        let report = lcov.to_lcov();
        let expected = "TN:\nSF:m.mjs\nFN:1,f\nFN:8,never\nFNDA:6,f\nFNDA:0,never\nFNF:2\nFNH:1\nBRDA:2,0,0,4\nBRDA:4,1,0,2\nBRF:2\nBRH:2\nDA:1,2\nDA:2,6\nDA:3,4\nDA:4,4\nDA:5,2\nDA:6,6\nDA:8,2\nDA:9,0\nDA:10,0\nDA:11,2\nLF:10\nLH:8\nend_of_record\n";
        assert_eq!(report, expected);
    }
}
