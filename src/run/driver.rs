//! The phases of a run, window by window.
//!
//! The planned units go through the phases a window at a time
//! ([`RunOptions::window`](super::RunOptions::window) units): preflight,
//! requests, results, apply and aggregates of every unit of the window, in the
//! contract's phase order. What a window's preflight and request phases
//! recorded goes to the [`RunObserver`] once its requests are built; each unit
//! goes as soon as it is done, with what its apply recorded: right after its
//! apply, unless it or a unit before it in the window waits for the window's
//! aggregates (then after them, with what they recorded). Everything handed
//! over is dropped. Besides the plan itself, a run therefore holds the states
//! and reports of one window's units only, whatever its size; and a unit
//! applied on the caller's thread is written while what its apply touched is
//! still in the processor's caches.
//!
//! Where a window's hooks run is a [`Crew`]'s business: [`Here`] runs them on
//! the caller's thread with the run's runtime; the threaded crew of
//! [`parallel`](super::parallel) cuts each window over the caller's thread and
//! worker threads, each running a [`Here`] of its own. Results are fetched on
//! the caller's thread, in unit order, whoever runs the hooks (a pass-through
//! request gets its id here and its result where its unit is applied): the
//! crew hands each stretch of units to the driver's dispatch as soon as its
//! requests are built, so a worker applies its part while the caller fetches
//! the next part's results. Worker threads start on the next window as soon
//! as they are done with this one; what they hand over goes through a
//! [`Relay`], so the observer sees what a serial run shows it (a worker's
//! units once its part is applied).

use std::cell::RefCell;
use std::ops::Range;

use crate::hooks::bridge::Bridge;
use crate::hooks::{HookEnv, HookRecord};
use crate::host::effects::Effect;
use crate::plan::Unit;
use crate::run::apply::{ApplyEnv, apply_hook};
use crate::run::jobs::RequestIds;
use crate::run::observer::{EncodedUnit, RunObserver, UnitEncoder};
use crate::run::progress::Phase;
use crate::run::report::{RunError, Summary, UnitReport, UnitStatus};
use crate::run::results::ResultSource;
use crate::run::units::{Phases, UnitState, finish_unit};

/// Units per window when [`RunOptions::window`](super::RunOptions::window) is 0.
pub const DEFAULT_WINDOW: usize = 256;

/// The window size `window` asks for.
pub(crate) fn window_size(window: usize) -> usize {
    if window == 0 { DEFAULT_WINDOW } else { window }
}

/// What hooks recorded during one phase of one stretch of units.
#[derive(Default)]
pub(crate) struct Segment {
    pub records: Vec<HookRecord>,
    pub effects: Vec<Effect>,
}

impl Segment {
    /// Appends what `other` holds.
    pub fn append(&mut self, mut other: Segment) {
        self.records.append(&mut other.records);
        self.effects.append(&mut other.effects);
    }

    /// Takes what `records` and the host's effect log hold.
    pub fn take(records: &mut Vec<HookRecord>, host: &RefCell<Bridge>) -> Segment {
        Segment {
            records: std::mem::take(records),
            effects: host.borrow_mut().take_effects(),
        }
    }
}

/// Hands the records and effects of each segment, phase by phase, to
/// `observer`, numbering the effects run-wide by `summary`'s count.
pub(crate) fn hand_over(
    observer: &mut dyn RunObserver,
    summary: &mut Summary,
    segments: Vec<Segment>,
) {
    for segment in segments {
        for record in segment.records {
            observer.hook(record);
        }
        for mut effect in segment.effects {
            summary.effects += 1;
            effect.seq = summary.effects as u64;
            observer.effect(effect);
        }
    }
}

/// Units a phase has done, for progress.
pub(crate) type Tick<'a> = &'a mut dyn FnMut(Phase);

/// Fetches the results of a stretch of units, in unit order, after their
/// requests were built; returns the run-wide index of each unit's first job.
pub(crate) type Dispatch<'a> =
    &'a mut dyn FnMut(Range<usize>, &mut [UnitState], Tick<'_>) -> Vec<usize>;

/// What a crew hands over of a window, in the order the observer sees it.
pub(crate) enum Handed {
    /// What the window's preflight and request phases recorded, in phase order.
    Built(Vec<Segment>),
    /// A unit done after its apply (no unit before it in the window waits for
    /// aggregates), with what its apply recorded.
    Unit(Segment, Box<Finished>),
    /// The window's units from the first that waits for aggregates on: what
    /// their applies recorded, what the aggregates recorded, the units.
    Held(Segment, Segment, Vec<Finished>),
}

/// A unit done, as the observer gets it: its report, or the report encoded
/// by the observer's [`UnitEncoder`] with the errors that follow it.
#[allow(
    clippy::large_enum_variant,
    reason = "a report is as large as the unit state it replaces, and as short-lived"
)]
pub(crate) enum Finished {
    Report(UnitReport),
    Encoded(EncodedUnit, Vec<RunError>),
}

impl Finished {
    /// `state`'s unit, encoded by `encoder` if there is one and it can.
    fn of(state: UnitState, encoder: Option<&dyn UnitEncoder>) -> Finished {
        let report = finish_unit(state);
        let Some(bytes) = encoder.and_then(|encoder| encoder.encode(&report).ok()) else {
            return Finished::Report(report);
        };
        let UnitReport {
            unit_id,
            status,
            jobs,
            errors,
            ..
        } = report;
        let unit = EncodedUnit {
            unit_id,
            status,
            requests: jobs.len(),
            bytes,
        };
        Finished::Encoded(unit, errors)
    }
}

/// Takes what a crew hands over, in order.
pub(crate) type HandOver<'a> = &'a mut dyn FnMut(Handed);

/// Hands over what parts of a window handed over, part after part, in the
/// order one crew running the whole window would have: units go one by one
/// until a part holds some for its aggregates; from there on, every part's
/// applies, aggregates and units are gathered and handed over together by
/// [`finish`](Self::finish).
#[derive(Default)]
pub(crate) struct Relay {
    held: Option<(Segment, Segment, Vec<Finished>)>,
}

impl Relay {
    /// Passes `handed` on to `out`, or gathers it behind held units.
    pub fn pass(&mut self, handed: Handed, out: HandOver<'_>) {
        match (handed, &mut self.held) {
            (Handed::Unit(segment, unit), Some((applied, _, units))) => {
                applied.append(segment);
                units.push(*unit);
            }
            (Handed::Held(segment, aggregated, mut more), held) => {
                let (applied, aggregates, units) = held.get_or_insert_default();
                applied.append(segment);
                aggregates.append(aggregated);
                units.append(&mut more);
            }
            (handed, _) => out(handed),
        }
    }

    /// Hands over what was gathered.
    pub fn finish(self, out: HandOver<'_>) {
        if let Some((applied, aggregated, units)) = self.held {
            out(Handed::Held(applied, aggregated, units));
        }
    }
}

/// Takes windows of units through every phase, wherever their hooks run.
pub(crate) trait Crew {
    /// Preflight and requests of the plan's units `range`, then their results
    /// through `dispatch` (called in unit order, stretch after stretch, each
    /// stretch once its requests are built), then apply and aggregates; hands
    /// what is done to `handover` as it goes (see [`Handed`]). `next` is the
    /// window after this one, which a crew may start on as soon as it is free.
    fn window(
        &mut self,
        range: Range<usize>,
        next: Option<Range<usize>>,
        dispatch: Dispatch<'_>,
        handover: HandOver<'_>,
        tick: Tick<'_>,
    ) -> Result<(), RunError>;
}

/// Every phase on one thread, with one runtime.
pub(crate) struct Here<'e, 'b> {
    pub env: &'e mut HookEnv<'b>,
    pub phases: &'e Phases<'e>,
    pub units: &'e [Unit],
    /// Encodes the units done here, on a thread that is not the observer's.
    pub encoder: Option<&'e dyn UnitEncoder>,
}

impl Here<'_, '_> {
    /// Preflight, then requests, of the plan's units `range`; the segments of
    /// both phases, in phase order.
    pub fn build(&mut self, range: Range<usize>, tick: Tick<'_>) -> (Vec<UnitState>, Vec<Segment>) {
        let units = &self.units[range];
        let mut states = Vec::with_capacity(units.len());
        for unit in units {
            states.push(self.phases.preflight(self.env, unit));
            tick(Phase::Preflight);
        }
        let preflighted = Segment::take(&mut self.env.records, &self.env.host);
        for (state, unit) in states.iter_mut().zip(units) {
            self.phases.build_requests(self.env, unit, state);
            tick(Phase::Requests);
        }
        let built = Segment::take(&mut self.env.records, &self.env.host);
        (states, vec![preflighted, built])
    }

    /// Applies, then aggregates, of the plan's units `range` with their
    /// built `states` (`firsts`: each unit's first job index), handing each
    /// unit to `handover` as soon as it is done (see [`Handed`]).
    pub fn apply(
        &mut self,
        range: Range<usize>,
        states: Vec<UnitState>,
        firsts: Vec<usize>,
        tick: Tick<'_>,
        handover: HandOver<'_>,
    ) -> Result<(), RunError> {
        let units = &self.units[range];
        let host = std::rc::Rc::clone(&self.env.host);
        let mut apply = ApplyEnv::new(self.env, self.phases.workflow, self.phases.execution)?;
        let mut applied = Segment::default();
        let mut held = Vec::new();
        for ((mut state, unit), first) in states.into_iter().zip(units).zip(firsts) {
            let _unit = crate::trace::unit(&unit.unit_id);
            self.phases.apply(&mut apply, unit, &mut state, first);
            tick(Phase::Apply);
            let segment = Segment::take(&mut apply.hooks.records, &host);
            if held.is_empty() && !state.waits_for_aggregate() {
                let unit = Finished::of(state, self.encoder);
                handover(Handed::Unit(segment, Box::new(unit)));
            } else {
                applied.append(segment);
                held.push((state, first));
            }
        }
        if held.is_empty() {
            return Ok(());
        }
        for (state, first) in &mut held {
            self.phases.aggregate(&mut apply, state, *first);
        }
        let aggregated = Segment::take(&mut apply.hooks.records, &host);
        let units = held
            .into_iter()
            .map(|(state, _)| Finished::of(state, self.encoder))
            .collect();
        handover(Handed::Held(applied, aggregated, units));
        Ok(())
    }
}

impl Crew for Here<'_, '_> {
    fn window(
        &mut self,
        range: Range<usize>,
        _next: Option<Range<usize>>,
        dispatch: Dispatch<'_>,
        handover: HandOver<'_>,
        tick: Tick<'_>,
    ) -> Result<(), RunError> {
        let (mut states, segments) = self.build(range.clone(), tick);
        handover(Handed::Built(segments));
        let firsts = dispatch(range.clone(), &mut states, tick);
        self.apply(range, states, firsts, tick, handover)
    }
}

/// Takes the plan's units through every phase, window by window, handing
/// what is done to `observer`; fetches every result from `results`.
pub(crate) struct Driver<'a> {
    pub phases: &'a Phases<'a>,
    pub units: &'a [Unit],
    pub results: &'a mut dyn ResultSource,
    pub ids: RequestIds,
    pub window: usize,
    pub progress: &'a dyn Fn(Phase, usize),
    pub observer: &'a mut dyn RunObserver,
    /// Counts of what was handed over so far.
    pub summary: Summary,
}

impl Driver<'_> {
    /// Every window through `crew`; stops at the first error of the run (not of
    /// a unit), after handing over the windows before it and whatever of its
    /// own window was done before it.
    pub fn drive(&mut self, crew: &mut dyn Crew) -> Result<(), RunError> {
        apply_hook(self.phases.workflow)?;
        let window = window_size(self.window);
        let mut done = [0usize; 4];
        let progress = self.progress;
        let mut tick = |phase: Phase| {
            let slot = &mut done[phase as usize];
            *slot += 1;
            progress(phase, *slot);
        };
        let mut next_job = 0;
        let count = self.units.len();
        let windows: Vec<Range<usize>> = (0..count)
            .step_by(window)
            .map(|start| start..(start + window).min(count))
            .collect();
        let (phases, units) = (self.phases, self.units);
        for (k, range) in windows.iter().cloned().enumerate() {
            let _window = crate::trace::window(k, range.len());
            let (results, ids) = (&mut *self.results, &mut self.ids);
            let mut dispatch = |part: Range<usize>, states: &mut [UnitState], tick: Tick<'_>| {
                let mut firsts = Vec::with_capacity(states.len());
                for (state, unit) in states.iter_mut().zip(&units[part]) {
                    let first = next_job;
                    next_job += state.jobs.len();
                    phases.dispatch(unit, state, first, results, ids);
                    firsts.push(first);
                    tick(Phase::Results);
                }
                firsts
            };
            let (observer, summary) = (&mut *self.observer, &mut self.summary);
            let mut handover = |handed: Handed| match handed {
                Handed::Built(segments) => hand_over(observer, summary, segments),
                Handed::Unit(segment, unit) => {
                    hand_over(observer, summary, vec![segment]);
                    finish(observer, summary, *unit);
                }
                Handed::Held(applied, aggregated, units) => {
                    hand_over(observer, summary, vec![applied, aggregated]);
                    for unit in units {
                        finish(observer, summary, unit);
                    }
                }
            };
            let next = windows.get(k + 1).cloned();
            crew.window(range, next, &mut dispatch, &mut handover, &mut tick)?;
        }
        Ok(())
    }

    /// Hands over the records and effects of each segment, phase by phase.
    pub fn hand_over(&mut self, segments: Vec<Segment>) {
        hand_over(self.observer, &mut self.summary, segments);
    }
}

/// Hands `unit`, then its errors, to `observer`, counting it in `summary`.
fn finish(observer: &mut dyn RunObserver, summary: &mut Summary, unit: Finished) {
    let (status, requests, errors) = match unit {
        Finished::Report(unit) => {
            let counts = (unit.status, unit.jobs.len(), unit.errors.clone());
            observer.unit(unit);
            counts
        }
        Finished::Encoded(unit, errors) => {
            let counts = (unit.status, unit.requests, errors);
            observer.encoded(unit);
            counts
        }
    };
    summary.units += 1;
    summary.requests += requests;
    match status {
        UnitStatus::Succeeded => summary.succeeded += 1,
        UnitStatus::Skipped => summary.skipped += 1,
        UnitStatus::Failed => summary.failed += 1,
    }
    for error in errors {
        observer.error(error);
    }
}
