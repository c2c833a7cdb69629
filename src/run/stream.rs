//! The run report's JSON, written while the run goes.
//!
//! [`JsonReportWriter`] is a [`RunObserver`] that writes exactly the bytes of
//! [`RunReport::write_json`](super::RunReport::write_json) for the same run:
//! the report's head and the plan as soon as they are known, each unit as it
//! is done. Effects, hook records and errors come after the units in the
//! report, so they wait in anonymous temporary files, already serialised, and
//! are copied out at the end; memory holds none of them.
//!
//! With worker threads, the units they run are serialised there
//! ([`RunObserver::encoder`]) and only copied out here.
//!
//! [`with_refs`](JsonReportWriter::with_refs) writes a value that repeats one
//! before it in the report as a reference to it ([`super::refs`]).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::hooks::HookRecord;
use crate::host::effects::Effect;
use crate::plan::Plan;
use crate::run::observer::{EncodedUnit, RunObserver, UnitEncoder};
use crate::run::refs::RefEncoder;
use crate::run::report::{RunError, SettingsReport, Summary, UnitReport, drop_figures};
use crate::selection::write_compact;

/// Writes a run report's JSON to `W` as the run goes; see the module docs.
pub struct JsonReportWriter<W: Write> {
    out: W,
    deterministic: bool,
    workflow_id: String,
    settings: SettingsReport,
    /// Whether the report's head (up to the units' `[`) is written.
    opened: bool,
    units: usize,
    effects: Spill,
    /// The products registered so far, written after the effects.
    products: BTreeMap<String, Value>,
    hooks: Spill,
    errors: Spill,
    /// The first write that failed; nothing is written after it.
    failure: Option<io::Error>,
    /// Writes repeats as references, when asked to.
    refs: Option<Box<RefEncoder>>,
}

/// Writes `value`, the report's piece at `at`, compactly, or with `refs` when
/// there are references ([`RefEncoder::write`]).
fn write_piece(
    out: &mut impl Write,
    refs: Option<&mut RefEncoder>,
    at: &[&str],
    value: &impl Serialize,
    remember: bool,
) -> io::Result<()> {
    match refs {
        Some(refs) => refs.write(out, at, value, remember),
        None => write_compact(out, value).map_err(io::Error::from),
    }
}

/// One list of the report kept aside until the units are written.
#[derive(Default)]
struct Spill {
    file: Option<BufWriter<File>>,
    count: usize,
}

impl Spill {
    fn push(&mut self, value: &impl Serialize) -> io::Result<()> {
        self.push_with(|file, _| write_compact(file, value).map_err(io::Error::from))
    }

    /// Appends an element `write` writes, handed the file and the element's index.
    fn push_with(
        &mut self,
        write: impl FnOnce(&mut BufWriter<File>, usize) -> io::Result<()>,
    ) -> io::Result<()> {
        let file = match &mut self.file {
            Some(file) => file,
            None => self.file.insert(BufWriter::new(tempfile::tempfile()?)),
        };
        if self.count > 0 {
            file.write_all(b",")?;
        }
        self.count += 1;
        write(file, self.count - 1)
    }

    /// Copies the list's elements to `out`.
    fn copy_to(&mut self, out: &mut impl Write) -> io::Result<()> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.rewind()?;
        io::copy(&mut file, out)?;
        Ok(())
    }
}

impl<W: Write> JsonReportWriter<W> {
    /// A writer of the report of workflow `workflow_id` to `out`;
    /// `deterministic` drops wall-clock and heap figures, as
    /// [`RunReport::to_json`](super::RunReport::to_json) does.
    pub fn new(out: W, workflow_id: &str, deterministic: bool) -> JsonReportWriter<W> {
        JsonReportWriter {
            out,
            deterministic,
            workflow_id: workflow_id.to_string(),
            settings: SettingsReport::default(),
            opened: false,
            units: 0,
            effects: Spill::default(),
            products: BTreeMap::new(),
            hooks: Spill::default(),
            errors: Spill::default(),
            failure: None,
            refs: None,
        }
    }

    /// Writes each object or array that repeats one before it in the report
    /// as `{"$ref": "<JSON Pointer>"}` to its first occurrence (the format is
    /// [`super::refs`]'s; [`resolve_refs`](super::refs::resolve_refs) reads it
    /// back). The plan and the units are referred to; effects refer to them.
    pub fn with_refs(mut self) -> JsonReportWriter<W> {
        self.refs = Some(Box::new(RefEncoder::new()));
        self
    }

    /// How many errors the report lists so far (none: the run went well).
    pub fn errors(&self) -> usize {
        self.errors.count
    }

    /// The output, or the first error writing it met.
    pub fn into_inner(self) -> io::Result<W> {
        match self.failure {
            Some(error) => Err(error),
            None => Ok(self.out),
        }
    }

    /// Runs one write unless an earlier one failed, keeping its error.
    fn attempt(&mut self, write: impl FnOnce(&mut Self) -> io::Result<()>) {
        if self.failure.is_none()
            && let Err(error) = write(self)
        {
            self.failure = Some(error);
        }
    }

    /// Writes the head up to the units' `[`, with the plan when there is one.
    fn open(&mut self, plan: Option<&Plan>) -> io::Result<()> {
        if std::mem::replace(&mut self.opened, true) {
            return Ok(());
        }
        let out = &mut self.out;
        out.write_all(b"{\"workflowId\":")?;
        write_compact(&mut *out, &self.workflow_id)?;
        out.write_all(b",\"settings\":")?;
        write_compact(&mut *out, &self.settings)?;
        if let Some(plan) = plan {
            out.write_all(b",\"plan\":")?;
            write_piece(out, self.refs.as_deref_mut(), &["plan"], plan, true)?;
        }
        out.write_all(b",\"units\":[")
    }

    /// Writes the tail after the units: the effects, hook records and errors
    /// kept aside, then the summary.
    fn close(&mut self, summary: &Summary) -> io::Result<()> {
        self.open(None)?;
        let out = &mut self.out;
        out.write_all(b"],\"effects\":[")?;
        self.effects.copy_to(out)?;
        out.write_all(b"]")?;
        if !self.products.is_empty() {
            out.write_all(b",\"products\":")?;
            write_compact(&mut *out, &self.products)?;
        }
        out.write_all(b",\"hooks\":[")?;
        self.hooks.copy_to(out)?;
        out.write_all(b"],\"errors\":[")?;
        self.errors.copy_to(out)?;
        out.write_all(b"],\"summary\":")?;
        write_compact(&mut *out, summary)?;
        out.write_all(b"}\n")?;
        out.flush()
    }

    /// Writes what comes before the next unit; its index.
    fn next_unit(&mut self) -> io::Result<usize> {
        self.open(None)?;
        if self.units > 0 {
            self.out.write_all(b",")?;
        }
        self.units += 1;
        Ok(self.units - 1)
    }

    fn write_unit(&mut self, unit: &UnitReport) -> io::Result<()> {
        let at = ["units", &self.next_unit()?.to_string()];
        write_piece(&mut self.out, self.refs.as_deref_mut(), &at, unit, true)
    }

    fn write_effect(&mut self, effect: &Effect) -> io::Result<()> {
        let refs = self.refs.as_deref_mut();
        // Effects follow the units, so they refer to them but are not referred to.
        self.effects.push_with(|file, index| {
            write_piece(file, refs, &["effects", &index.to_string()], effect, false)
        })
    }

    fn write_hook(&mut self, record: &HookRecord) -> io::Result<()> {
        if !self.deterministic {
            return self.hooks.push(record);
        }
        let mut value = serde_json::to_value(record)?;
        drop_figures(&mut value);
        self.hooks.push(&value)
    }
}

impl<W: Write> RunObserver for JsonReportWriter<W> {
    fn settings(&mut self, settings: &SettingsReport) {
        self.settings = settings.clone();
    }

    fn plan(&mut self, plan: &Plan) {
        self.attempt(|w| w.open(Some(plan)));
    }

    fn unit(&mut self, unit: UnitReport) {
        self.attempt(|w| w.write_unit(&unit));
    }

    /// Compact units, unless values are written as references: those need
    /// every unit written in order, here.
    fn encoder(&self) -> Option<Arc<dyn UnitEncoder>> {
        match self.refs {
            Some(_) => None,
            None => Some(Arc::new(CompactUnits)),
        }
    }

    fn encoded(&mut self, unit: EncodedUnit) {
        self.attempt(|w| {
            w.next_unit()?;
            w.out.write_all(&unit.bytes)
        });
    }

    fn effect(&mut self, mut effect: Effect) {
        if let Some(record) = effect.product.take() {
            crate::host::products::merge_record(&mut self.products, record);
        }
        self.attempt(|w| w.write_effect(&effect));
    }

    fn hook(&mut self, record: HookRecord) {
        self.attempt(|w| w.write_hook(&record));
    }

    fn error(&mut self, error: RunError) {
        self.attempt(|w| w.errors.push(&error));
    }

    fn finish(&mut self, summary: Summary) {
        self.attempt(|w| w.close(&summary));
    }
}

/// A unit's compact JSON, as [`JsonReportWriter`] writes it.
struct CompactUnits;

impl UnitEncoder for CompactUnits {
    fn encode(&self, unit: &UnitReport) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        write_compact(&mut bytes, unit)?;
        Ok(bytes)
    }
}
