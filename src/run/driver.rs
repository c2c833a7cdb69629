//! The phases of a run, window by window.
//!
//! The planned units go through the phases a window at a time
//! ([`RunOptions::window`](super::RunOptions::window) units): preflight,
//! requests, results, apply and aggregates of every unit of the window, in the
//! contract's phase order. Each phase's hook records and effects go to the
//! [`RunObserver`] as the phase ends, the window's unit reports once it is
//! applied, and then they are dropped. Besides the plan itself, a run
//! therefore holds the states and reports of one window's units only,
//! whatever its size.
//!
//! Where a window's hooks run is a [`Crew`]'s business: [`Here`] runs them on
//! the caller's thread with the run's runtime; the threaded crew of
//! [`parallel`](super::parallel) cuts each window over worker threads, each
//! running a [`Here`] of its own. Results are fetched here, on the caller's
//! thread, in unit order, whoever runs the hooks. Worker threads start on
//! the next window's preflight while the caller hands the last one over
//! ([`Crew::start_build`]); what they record is handed over after it, so the
//! observer sees what a serial run shows it.

use std::cell::RefCell;
use std::ops::Range;

use crate::hooks::bridge::HookHost;
use crate::hooks::{HookEnv, HookRecord};
use crate::host::effects::Effect;
use crate::plan::Unit;
use crate::run::jobs::RequestIds;
use crate::run::observer::RunObserver;
use crate::run::progress::Phase;
use crate::run::report::{RunError, Summary, UnitStatus};
use crate::run::results::ResultSource;
use crate::run::runner::{apply_env, apply_hook};
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
    /// Takes what `records` and the host's effect log hold.
    pub fn take(records: &mut Vec<HookRecord>, host: &RefCell<HookHost>) -> Segment {
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

/// Units through phases 1–2, then phase 4, with what each phase recorded.
pub(crate) trait Crew {
    /// Starts preflight and requests of the units `range` where that runs
    /// beside the caller (worker threads), so they go on while the caller
    /// hands over the window before; [`build`](Self::build) of the same range
    /// then collects them. Nothing for a crew on the caller's thread.
    fn start_build(&mut self, _range: Range<usize>) -> Result<(), RunError> {
        Ok(())
    }

    /// Preflight, then requests, of the plan's units `range` (started here
    /// unless [`start_build`](Self::start_build) started them); the segments
    /// of both phases, in phase order.
    fn build(
        &mut self,
        range: Range<usize>,
        tick: Tick<'_>,
    ) -> Result<(Vec<UnitState>, Vec<Segment>), RunError>;

    /// Applies, then aggregates, of the units `range` with their results;
    /// `firsts` is the run-wide index of each unit's first job.
    fn apply(
        &mut self,
        range: Range<usize>,
        states: Vec<UnitState>,
        firsts: Vec<usize>,
        tick: Tick<'_>,
    ) -> Result<(Vec<UnitState>, Vec<Segment>), RunError>;
}

/// Every phase on the caller's thread, with one runtime.
pub(crate) struct Here<'e, 'b> {
    pub env: &'e mut HookEnv<'b>,
    pub phases: &'e Phases<'e>,
    pub units: &'e [Unit],
}

impl Crew for Here<'_, '_> {
    fn build(
        &mut self,
        range: Range<usize>,
        tick: Tick<'_>,
    ) -> Result<(Vec<UnitState>, Vec<Segment>), RunError> {
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
        Ok((states, vec![preflighted, built]))
    }

    fn apply(
        &mut self,
        range: Range<usize>,
        mut states: Vec<UnitState>,
        firsts: Vec<usize>,
        tick: Tick<'_>,
    ) -> Result<(Vec<UnitState>, Vec<Segment>), RunError> {
        let units = &self.units[range];
        let host = std::rc::Rc::clone(&self.env.host);
        let mut apply = apply_env(self.env, self.phases)?;
        for ((state, unit), first) in states.iter_mut().zip(units).zip(&firsts) {
            self.phases.apply(&mut apply, unit, state, *first);
            tick(Phase::Apply);
        }
        let applied = Segment::take(&mut apply.hooks.records, &host);
        for (state, first) in states.iter_mut().zip(&firsts) {
            self.phases.aggregate(&mut apply, state, *first);
        }
        let aggregated = Segment::take(&mut apply.hooks.records, &host);
        Ok((states, vec![applied, aggregated]))
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
    /// a unit), after handing over the windows before it.
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
        for (k, range) in windows.iter().cloned().enumerate() {
            let (mut states, segments) = crew.build(range.clone(), &mut tick)?;
            self.hand_over(segments);
            let firsts: Vec<usize> = states
                .iter()
                .map(|state| {
                    let first = next_job;
                    next_job += state.jobs.len();
                    first
                })
                .collect();
            let units = &self.units[range.clone()];
            for ((state, unit), first) in states.iter_mut().zip(units).zip(&firsts) {
                self.phases
                    .dispatch(unit, state, *first, self.results, &mut self.ids);
                tick(Phase::Results);
            }
            let (states, segments) = crew.apply(range, states, firsts, &mut tick)?;
            // The next window's hooks run while this one is handed over; what
            // they record is handed over after it, as in a serial run.
            let ahead = windows
                .get(k + 1)
                .map(|next| crew.start_build(next.clone()));
            self.hand_over(segments);
            for state in states {
                self.finish(state);
            }
            ahead.transpose()?;
        }
        Ok(())
    }

    /// Hands over the records and effects of each segment, phase by phase.
    pub fn hand_over(&mut self, segments: Vec<Segment>) {
        hand_over(self.observer, &mut self.summary, segments);
    }

    fn finish(&mut self, state: UnitState) {
        let unit = finish_unit(state);
        let summary = &mut self.summary;
        summary.units += 1;
        summary.requests += unit.jobs.len();
        match unit.status {
            UnitStatus::Succeeded => summary.succeeded += 1,
            UnitStatus::Skipped => summary.skipped += 1,
            UnitStatus::Failed => summary.failed += 1,
        }
        let errors = unit.errors.clone();
        self.observer.unit(unit);
        for error in errors {
            self.observer.error(error);
        }
    }
}
