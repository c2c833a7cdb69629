//! Units on several threads ([`RunOptions::jobs`](super::RunOptions::jobs)).
//!
//! Every window of the run is cut into `jobs` contiguous parts. The caller's
//! thread takes the first part itself, with the run's runtime and host, as a
//! serial run would; each other part goes to a worker thread that starts its
//! own runtime and its own copy of the host (same world, same identifier
//! answers, its own effect log) and runs a [`Here`] crew of its own. The
//! workers take their parts through preflight and request building while the
//! caller builds its own; results are fetched on the caller's thread in unit
//! order, exactly as in a serial run (a pass-through request only gets its id
//! there; its result, a copy of the request, is made where the unit is
//! applied); then the workers apply their parts while the caller applies its
//! own, writing each of its units while it is still in its caches. Once a
//! worker has applied its part it starts on the next window while the caller
//! hands its part over. Hook records and effects of preflight and requests
//! are merged phase by phase in part order, and what each part's apply hands
//! over goes through a [`Relay`], so the report lists them in the order a
//! serial run would. A worker encodes the units it applied when the observer
//! offers an encoder ([`RunObserver::encoder`](super::RunObserver::encoder)):
//! the caller's thread, which hands every unit over, then neither serialises
//! nor frees them. Workers pass progress on only when the run has a progress
//! hook.
//!
//! What differs from a serial run: module state is shared only among the
//! units of one part's thread (the caller's part shares it with the settings
//! phase, as a serial run does); an `operationId` replays only among them, so
//! a write repeated on another thread is answered and recorded again; keys of
//! items created by the thread of part `p` are numbered from `p × 10⁹`; and
//! progress arrives interleaved across threads.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

use crate::hooks::bridge::Bridge;
use crate::hooks::{HookEnv, RuntimeInfo};
use crate::host::HookHost;
use crate::plan::Unit;
use crate::run::driver::{
    Crew, Dispatch, HandOver, Handed, Here, Relay, Segment, Tick, window_size,
};
use crate::run::observer::UnitEncoder;
use crate::run::options::RunOptions;
use crate::run::progress::Phase;
use crate::run::report::{RunError, Stage};
use crate::run::units::{Phases, UnitState};
use crate::sandbox::{Sandbox, SandboxOptions, spawn_hook_thread};

/// Created-item keys of the thread of part `p` start at `p × KEY_BLOCK` (the
/// caller's part is 0).
const KEY_BLOCK: u64 = 1_000_000_000;

/// From the caller's thread to a worker.
enum Order {
    /// Preflight and requests of these units.
    Build(Range<usize>),
    /// Apply and aggregates of these units, with each unit's first job index;
    /// then, if given, preflight and requests of the worker's part of the next
    /// window, without waiting for the caller.
    Apply(
        Range<usize>,
        Vec<UnitState>,
        Vec<usize>,
        Option<Range<usize>>,
    ),
}

/// A worker's answer to an order.
type Answer = Result<Done, Box<RunError>>;

/// What a worker did of an order.
enum Done {
    /// Its units' states, built, and the segments of preflight and requests.
    Built(Vec<UnitState>, Vec<Segment>),
    /// What its apply handed over, in order.
    Applied(Vec<Handed>),
}

/// From a worker to the caller's thread.
enum Report {
    /// This many units finished a phase.
    Ticks(Phase, usize),
    /// A worker's part of an order is done.
    Done(usize, Answer),
    /// The worker could not start its runtime, or stopped.
    Failed(Box<RunError>),
}

/// Starts `options.jobs - 1` workers, each with a fork of `env`'s host, and
/// hands `drive` the crew they make with the caller's thread, which runs the
/// first part of every window with `env` itself. Workers encode their units
/// with `encoder`, when the observer has one.
pub(crate) fn with_workers<R>(
    env: &mut HookEnv<'_>,
    phases: &Phases<'_>,
    units: &[Unit],
    options: &RunOptions,
    encoder: Option<Arc<dyn UnitEncoder>>,
    drive: impl FnOnce(&mut dyn Crew) -> R,
) -> Result<R, RunError> {
    // A thread beyond the parts of a window would never get any; the first
    // part is the caller's (the runner asks for threads only when windows
    // hold more than one unit).
    let most = units.len().min(window_size(options.window));
    let workers = options.jobs.min(most).max(2) - 1;
    let hosts: Vec<HookHost> = (1..=workers)
        .map(|p| env.host.borrow().fork(p as u64 * KEY_BLOCK))
        .collect();
    std::thread::scope(|scope| {
        let (tx, reports) = channel();
        let mut inboxes = Vec::with_capacity(workers);
        for (w, host) in hosts.into_iter().enumerate() {
            let (to_worker, inbox) = channel();
            inboxes.push(to_worker);
            let tx = tx.clone();
            let setup = Setup::of(options, encoder.clone());
            let spawned = spawn_hook_thread(scope, format!("hookrun-worker-{w}"), move || {
                let work = AssertUnwindSafe(|| worker(w, phases, units, host, &setup, &tx, &inbox));
                if catch_unwind(work).is_err() {
                    // Without this report the caller would wait for the worker forever.
                    let error = RunError::new(Stage::Run, None, "Error", "a worker thread failed");
                    let _ = tx.send(Report::Failed(Box::new(error)));
                }
            });
            spawned.map_err(|e| {
                let message = format!("cannot start worker thread {w}: {e}; use fewer jobs");
                RunError::new(Stage::Run, None, "Error", message)
            })?;
        }
        drop(tx);
        let mut crew = Threads {
            here: Here {
                env,
                phases,
                units,
                encoder: None,
            },
            inboxes,
            reports,
            started: None,
            early: VecDeque::new(),
        };
        // Dropping the crew closes the inboxes, which ends the workers.
        Ok(drive(&mut crew))
    })
}

/// The caller's thread and the workers, as the driver sees them.
struct Threads<'e, 'b> {
    /// The caller's own crew, for the first part of every window.
    here: Here<'e, 'b>,
    inboxes: Vec<Sender<Order>>,
    reports: Receiver<Report>,
    /// The units the workers were told to build and not yet collected.
    started: Option<Range<usize>>,
    /// Answers for the next window that came while this one was finishing.
    early: VecDeque<(usize, Answer)>,
}

/// One worker's part of a window.
struct Part {
    range: Range<usize>,
    step: Step,
    /// Its units' states, built.
    states: Vec<UnitState>,
    /// The segments of its preflight and requests.
    segments: Vec<Segment>,
    /// What its apply handed over.
    handed: Vec<Handed>,
}

impl Part {
    /// A worker's part `range`, ordered to build.
    fn new(range: Range<usize>) -> Part {
        Part {
            range,
            step: Step::Building,
            states: Vec::new(),
            segments: Vec::new(),
            handed: Vec::new(),
        }
    }
}

/// Where a part is: its worker on an order (building, applying), or waiting
/// on the caller (built), or done with the window (applied, or failed).
#[derive(PartialEq)]
enum Step {
    Building,
    Built,
    Applying,
    Done,
}

impl Threads<'_, '_> {
    /// Sends `order` to worker `w`. A worker that is gone said why before it
    /// went (its runtime could not start), and that is the error.
    fn send(&self, w: usize, order: Order) -> Result<(), RunError> {
        self.inboxes[w].send(order).map_err(|_| {
            self.reports
                .try_iter()
                .find_map(|report| match report {
                    Report::Failed(error) => Some(*error),
                    _ => None,
                })
                .unwrap_or_else(stopped)
        })
    }

    /// The caller's part of `range` and the workers' parts, in order.
    fn cut(&self, range: &Range<usize>) -> (Range<usize>, Vec<Range<usize>>) {
        let mut cut = parts(range, self.inboxes.len() + 1);
        let own = cut.remove(0);
        (own, cut)
    }

    /// Has each worker build its part of `range`.
    fn start_build(&mut self, range: Range<usize>) -> Result<(), RunError> {
        for (w, part) in self.cut(&range).1.into_iter().enumerate() {
            self.send(w, Order::Build(part))?;
        }
        self.started = Some(range);
        Ok(())
    }

    /// Waits for the next answer of a worker, passing progress on.
    fn answer(&self, tick: Tick<'_>) -> Result<(usize, Answer), RunError> {
        loop {
            match self.reports.recv() {
                Ok(Report::Ticks(phase, units)) => (0..units).for_each(|_| tick(phase)),
                Ok(Report::Done(w, answer)) => return Ok((w, answer)),
                Ok(Report::Failed(error)) => return Err(*error),
                Err(_) => return Err(stopped()),
            }
        }
    }
}

impl Crew for Threads<'_, '_> {
    fn window(
        &mut self,
        range: Range<usize>,
        next: Option<Range<usize>>,
        dispatch: Dispatch<'_>,
        handover: HandOver<'_>,
        tick: Tick<'_>,
    ) -> Result<(), RunError> {
        if self.started.as_ref() != Some(&range) {
            self.start_build(range.clone())?;
        }
        self.started = None;
        let (own, theirs) = self.cut(&range);
        let ahead = next.as_ref().map_or_else(Vec::new, |next| self.cut(next).1);
        let mut parts: Vec<Part> = theirs.into_iter().map(Part::new).collect();
        // The caller's part comes first in unit order: built and its results
        // fetched while the workers build theirs.
        let (mut own_states, own_segments) = self.here.build(own.clone(), tick);
        let own_firsts = dispatch(own.clone(), &mut own_states, tick);
        let mut own = Some((own, own_states, own_firsts, own_segments));
        let mut relay = Relay::default();
        // The workers' results are fetched in unit order: part after part,
        // each as soon as it and the parts before it are built. After a
        // failure nothing more is ordered, and what was ordered is waited for.
        let mut orders = Orders::new(ahead);
        let mut early = std::mem::take(&mut self.early);
        loop {
            // Once every worker has its part to apply, the caller applies its own.
            if orders.dispatched == parts.len()
                && orders.failure.is_none()
                && let Some((range, states, firsts, segments)) = own.take()
            {
                handover(Handed::Built(merged(segments, &mut parts)));
                self.here.apply(range, states, firsts, tick, &mut |h| {
                    relay.pass(h, handover)
                })?;
            }
            if !orders.waiting(&parts) {
                break;
            }
            let (w, answer) = match early.pop_front() {
                Some(answer) => answer,
                None => self.answer(tick)?,
            };
            if self.take_answer(&mut parts[w], w, answer, &mut orders) {
                self.order_applies(&mut parts, &mut orders, dispatch, tick);
            }
        }
        if let Some(error) = orders.failure {
            return Err(error);
        }
        // Every worker was told to build its part of the next window with its
        // apply order (windows only shrink, so the next one has no more parts).
        self.started = next;
        let handed = parts.into_iter().flat_map(|part| part.handed);
        handed.for_each(|handed| relay.pass(handed, handover));
        relay.finish(handover);
        Ok(())
    }
}

/// How far the workers' parts of a window have been ordered to apply.
struct Orders {
    /// Parts ordered to apply, from the first.
    dispatched: usize,
    /// The first failure of a part; nothing more is ordered after it.
    failure: Option<RunError>,
    /// The workers' parts of the next window, sent with their apply orders.
    ahead: Vec<Range<usize>>,
}

impl Orders {
    /// Nothing ordered yet; `ahead` the workers' parts of the next window.
    fn new(ahead: Vec<Range<usize>>) -> Orders {
        Orders {
            dispatched: 0,
            failure: None,
            ahead,
        }
    }

    /// Whether an answer of a worker is still to come: a part is on an order,
    /// or (without a failure) not done with the window.
    fn waiting(&self, parts: &[Part]) -> bool {
        let working = parts
            .iter()
            .any(|p| matches!(p.step, Step::Building | Step::Applying));
        working || (self.failure.is_none() && parts.iter().any(|p| p.step != Step::Done))
    }
}

impl Threads<'_, '_> {
    /// Takes worker `w`'s `answer` for its `part`; whether the part is now built.
    /// An answer for the next window (the part is past its order) waits in
    /// `early`.
    fn take_answer(
        &mut self,
        part: &mut Part,
        w: usize,
        answer: Answer,
        orders: &mut Orders,
    ) -> bool {
        let applied = match part.step {
            Step::Building => false,
            Step::Applying => true,
            // The worker's part of the next window, built already.
            Step::Built | Step::Done => {
                self.early.push_back((w, answer));
                return false;
            }
        };
        match answer {
            Ok(Done::Built(states, segments)) if !applied => {
                part.states = states;
                part.segments = segments;
            }
            Ok(Done::Applied(handed)) if applied => part.handed = handed,
            Ok(_) => unreachable!("a worker answers the order it was given"),
            Err(error) => {
                part.step = Step::Done;
                orders.failure = orders.failure.take().or(Some(*error));
                return false;
            }
        }
        // Once applied, the worker has gone on to its part of the next window.
        part.step = if applied { Step::Done } else { Step::Built };
        !applied
    }

    /// Fetches the results of the built parts next in unit order and orders
    /// their workers to apply them.
    fn order_applies(
        &self,
        parts: &mut [Part],
        orders: &mut Orders,
        dispatch: Dispatch<'_>,
        tick: Tick<'_>,
    ) {
        while orders.failure.is_none()
            && let Some(part) = parts
                .get_mut(orders.dispatched)
                .filter(|p| p.step == Step::Built)
        {
            let mut states = std::mem::take(&mut part.states);
            let firsts = dispatch(part.range.clone(), &mut states, tick);
            let next = orders.ahead.get(orders.dispatched).cloned();
            let order = Order::Apply(part.range.clone(), states, firsts, next);
            part.step = match self.send(orders.dispatched, order) {
                Ok(()) => Step::Applying,
                Err(error) => {
                    orders.failure = Some(error);
                    Step::Done
                }
            };
            orders.dispatched += 1;
        }
    }
}

/// The caller's preflight and request segments with the workers' parts'
/// merged in, phase by phase in part order, as a serial run records them.
fn merged(mut own: Vec<Segment>, parts: &mut [Part]) -> Vec<Segment> {
    for part in parts {
        for (phase, segment) in std::mem::take(&mut part.segments).into_iter().enumerate() {
            if own.len() <= phase {
                own.push(Segment::default());
            }
            own[phase].append(segment);
        }
    }
    own
}

/// The run's error when a worker went away without saying why.
fn stopped() -> RunError {
    RunError::new(
        Stage::Run,
        None,
        "Error",
        "a worker thread stopped before finishing its units",
    )
}

/// The parts of `range`, one per thread that has units.
fn parts(range: &Range<usize>, threads: usize) -> Vec<Range<usize>> {
    chunks(range.len(), threads)
        .into_iter()
        .map(|part| part.start + range.start..part.end + range.start)
        .collect()
}

/// What a worker needs of the run's options.
struct Setup {
    sandbox: SandboxOptions,
    runtime: RuntimeInfo,
    fresh_per_unit: bool,
    /// Whether anyone listens to progress: without a listener, workers do
    /// not wake the caller's thread to report it.
    ticks: bool,
    /// The observer's encoder of units.
    encoder: Option<Arc<dyn UnitEncoder>>,
}

impl Setup {
    /// What `options` say every worker starts with; units encoded by `encoder`.
    fn of(options: &RunOptions, encoder: Option<Arc<dyn UnitEncoder>>) -> Setup {
        Setup {
            sandbox: crate::hooks::sandbox_options(options.sandbox),
            runtime: options.runtime.clone(),
            fresh_per_unit: options.fresh_runtime_per_unit,
            ticks: options.progress.is_some(),
            encoder,
        }
    }
}

/// One worker: a [`Here`] crew that carries out orders until the inbox closes.
fn worker(
    w: usize,
    phases: &Phases<'_>,
    units: &[Unit],
    host: HookHost,
    setup: &Setup,
    tx: &Sender<Report>,
    inbox: &Receiver<Order>,
) {
    let mut sandbox = match Sandbox::new(&phases.workflow.jail_root, setup.sandbox) {
        Ok(sandbox) => sandbox,
        Err(e) => {
            let error = RunError::new(Stage::Run, None, "SandboxError", e.to_string());
            let _ = tx.send(Report::Failed(Box::new(error)));
            return;
        }
    };
    let mut env = HookEnv::new(
        &mut sandbox,
        Rc::new(RefCell::new(Bridge::new(host))),
        phases.workflow,
        &setup.runtime,
        setup.fresh_per_unit,
    );
    let mut crew = Here {
        env: &mut env,
        phases,
        units,
        encoder: setup.encoder.as_deref(),
    };
    let mut ticks = Ticks {
        tx,
        pending: None,
        on: setup.ticks,
    };
    // The next window's part an apply order carried, built right after it.
    let mut next = None;
    while let Some(order) = next.take().or_else(|| inbox.recv().ok()) {
        let mut tick = |phase| ticks.tick(phase);
        let answer = match order {
            Order::Build(range) => {
                let (states, segments) = crew.build(range, &mut tick);
                Ok(Done::Built(states, segments))
            }
            Order::Apply(range, states, firsts, then) => {
                let mut handed = Vec::new();
                let applied = crew.apply(range, states, firsts, &mut tick, &mut |h| handed.push(h));
                next = then.filter(|_| applied.is_ok()).map(Order::Build);
                applied.map(|()| Done::Applied(handed))
            }
        }
        .map_err(Box::new);
        ticks.flush();
        if tx.send(Report::Done(w, answer)).is_err() {
            return;
        }
    }
}

/// Units a worker reports done together: progress stays within this many
/// units of the truth without waking the caller's thread for every unit,
/// which cost a futex wake-up and a context switch per unit and phase.
const TICK_BATCH: usize = 16;

/// A worker's progress, passed on in batches of one phase.
struct Ticks<'a> {
    tx: &'a Sender<Report>,
    pending: Option<(Phase, usize)>,
    /// Whether to pass progress on at all.
    on: bool,
}

impl Ticks<'_> {
    fn tick(&mut self, phase: Phase) {
        if !self.on {
            return;
        }
        match &mut self.pending {
            Some((pending, units)) if *pending == phase => *units += 1,
            _ => {
                self.flush();
                self.pending = Some((phase, 1));
            }
        }
        if self.pending.is_some_and(|(_, units)| units >= TICK_BATCH) {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if let Some((phase, units)) = self.pending.take() {
            let _ = self.tx.send(Report::Ticks(phase, units));
        }
    }
}

/// `len` units cut into at most `jobs` contiguous, nearly equal chunks.
fn chunks(len: usize, jobs: usize) -> Vec<Range<usize>> {
    let jobs = jobs.clamp(1, len.max(1));
    let (size, extra) = (len / jobs, len % jobs);
    let mut start = 0;
    (0..jobs)
        .map(|i| {
            let end = start + size + usize::from(i < extra);
            let range = start..end;
            start = end;
            range
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;

    use super::{Phase, Report, TICK_BATCH, Ticks, chunks};

    /// The batches `ticks` units of one phase are passed on in.
    fn batches(on: bool, units: usize) -> Vec<usize> {
        let (tx, rx) = channel();
        let mut ticks = Ticks {
            tx: &tx,
            pending: None,
            on,
        };
        (0..units).for_each(|_| ticks.tick(Phase::Apply));
        ticks.flush();
        drop(tx);
        rx.iter()
            .map(|report| match report {
                Report::Ticks(Phase::Apply, units) => units,
                _ => unreachable!("only ticks were sent"),
            })
            .collect()
    }

    #[test]
    fn progress_wakes_the_caller_only_when_someone_listens() {
        assert_eq!(batches(false, 40), Vec::<usize>::new());
        assert_eq!(
            batches(true, 40),
            vec![TICK_BATCH, TICK_BATCH, 40 - 2 * TICK_BATCH]
        );
    }

    #[test]
    fn chunks_cover_every_unit_once_in_order() {
        assert_eq!(chunks(10, 3), vec![0..4, 4..7, 7..10]);
        assert_eq!(chunks(2, 8), vec![0..1, 1..2]);
        assert_eq!(chunks(5, 1), vec![0..5]);
        for len in 0..40 {
            for jobs in 1..9 {
                let cut = chunks(len, jobs);
                let flat: Vec<usize> = cut.iter().flat_map(Clone::clone).collect();
                assert_eq!(
                    flat,
                    (0..len).collect::<Vec<_>>(),
                    "{len} units, {jobs} jobs"
                );
                assert!(cut.len() <= jobs);
            }
        }
    }
}
