//! A run's report as it is made: [`RunObserver`] receives each part as soon
//! as the run is done with it, so a host can write, count or forward a run of
//! any size without holding it. [`run`](super::run) collects the parts into a
//! [`RunReport`] with [`Collector`].

use std::io;
use std::sync::Arc;

use crate::hooks::HookRecord;
use crate::host::effects::Effect;
use crate::plan::Plan;
use crate::run::report::{RunError, RunReport, SettingsReport, Summary, UnitReport, UnitStatus};

/// Receives a run's report in parts, each once, in the report's order within
/// its list.
///
/// The calls come in this order: [`settings`](Self::settings) (unless the
/// settings phase failed), [`plan`](Self::plan) (unless the run stopped
/// before planning), the settings phase's hook records and effects; then,
/// window by window, the hook records and effects of its preflight and
/// request phases, and its units in order, each as soon as it is done and
/// followed by its errors ([`unit`](Self::unit), [`error`](Self::error)): a
/// unit right after the records and effects of its own apply; but from the
/// first unit of the window that waits for an aggregate on, the records and
/// effects of all their applies, then those of the window's aggregates, then
/// those units. With worker threads, a worker's units come once its whole
/// part of the window is applied, in the same order. When the run stops on an
/// error of its own, what of its window was handed over before the error
/// stays handed over, and what its runtime recorded last and that error follow;
/// [`finish`](Self::finish) comes last, always. Within each hand-over (a
/// phase, a unit's apply, the held units' applies, the aggregates) records
/// come before effects.
pub trait RunObserver {
    /// The settings the run uses.
    fn settings(&mut self, settings: &SettingsReport);
    /// The input plan, before any unit runs.
    fn plan(&mut self, plan: &Plan);
    /// A unit that is done, in unit order. Its errors follow as
    /// [`error`](Self::error) calls.
    fn unit(&mut self, unit: UnitReport);
    /// A recorded host write, in call order, numbered run-wide.
    fn effect(&mut self, effect: Effect);
    /// A hook call, in call order.
    fn hook(&mut self, record: HookRecord);
    /// An error the report lists: a unit's own, right after the unit, or the
    /// run's, last.
    fn error(&mut self, error: RunError);
    /// The run's counts; nothing follows.
    fn finish(&mut self, summary: Summary);

    /// How units run on worker threads ([`RunOptions::jobs`](super::RunOptions::jobs)
    /// above 1) are to be encoded there; a run with workers asks once, before
    /// its first window.
    /// With an encoder, such a unit comes to [`encoded`](Self::encoded)
    /// instead of [`unit`](Self::unit), in the same place, so the thread that
    /// hands every unit over only passes bytes on; the units of the caller's
    /// thread still come to `unit`. `None`, the default: every unit comes to
    /// `unit`.
    fn encoder(&self) -> Option<Arc<dyn UnitEncoder>> {
        None
    }

    /// A unit the [`encoder`](Self::encoder) encoded, in unit order with the
    /// others; its errors follow as [`error`](Self::error) calls. Called only
    /// when there is an encoder; the default drops the unit.
    fn encoded(&mut self, unit: EncodedUnit) {
        drop(unit);
    }
}

/// Encodes finished units for a [`RunObserver`] on the worker thread that ran
/// them (see [`RunObserver::encoder`]).
///
/// ```
/// use std::io;
/// use hookrun::run::{UnitEncoder, UnitReport};
///
/// /// Each unit as one line of JSON.
/// struct Lines;
///
/// impl UnitEncoder for Lines {
///     fn encode(&self, unit: &UnitReport) -> io::Result<Vec<u8>> {
///         let mut line = serde_json::to_vec(unit)?;
///         line.push(b'\n');
///         Ok(line)
///     }
/// }
/// ```
pub trait UnitEncoder: Send + Sync {
    /// The bytes of `unit`. On an error the unit comes to
    /// [`RunObserver::unit`] unencoded instead.
    fn encode(&self, unit: &UnitReport) -> io::Result<Vec<u8>>;
}

/// A unit a [`UnitEncoder`] encoded, with what the run counts of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedUnit {
    /// The unit's `unitId`.
    pub unit_id: String,
    /// How the unit ended.
    pub status: UnitStatus,
    /// How many requests (jobs) the unit made.
    pub requests: usize,
    /// What the encoder made of the unit.
    pub bytes: Vec<u8>,
}

/// Collects every part into a [`RunReport`].
#[derive(Debug)]
pub struct Collector {
    report: RunReport,
}

impl Collector {
    /// An empty report of the workflow `workflow_id`.
    pub fn new(workflow_id: &str) -> Collector {
        Collector {
            report: RunReport {
                workflow_id: workflow_id.to_string(),
                settings: SettingsReport::default(),
                plan: None,
                units: Vec::new(),
                effects: Vec::new(),
                products: Default::default(),
                hooks: Vec::new(),
                errors: Vec::new(),
                summary: Summary::default(),
            },
        }
    }

    /// The collected report.
    pub fn into_report(self) -> RunReport {
        self.report
    }
}

impl RunObserver for Collector {
    fn settings(&mut self, settings: &SettingsReport) {
        self.report.settings = settings.clone();
    }

    fn plan(&mut self, plan: &Plan) {
        self.report.plan = Some(RunReport::plan_json(plan));
    }

    fn unit(&mut self, unit: UnitReport) {
        self.report.units.push(unit);
    }

    fn effect(&mut self, mut effect: Effect) {
        if let Some(record) = effect.product.take() {
            crate::host::products::merge_record(&mut self.report.products, record);
        }
        self.report.effects.push(effect);
    }

    fn hook(&mut self, record: HookRecord) {
        self.report.hooks.push(record);
    }

    fn error(&mut self, error: RunError) {
        self.report.errors.push(error);
    }

    fn finish(&mut self, summary: Summary) {
        self.report.summary = summary;
    }
}
