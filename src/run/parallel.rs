//! Units on several threads ([`RunOptions::jobs`](super::RunOptions::jobs)).
//!
//! The units are cut into contiguous chunks, one per worker thread. Each worker
//! starts its own runtime and its own copy of the host (same world, same
//! identifier answers, its own effect log) and takes its chunk through
//! preflight and request building, then hands the units back. Results are
//! fetched on the caller's thread in unit order, exactly as in a serial run;
//! the workers then apply them. Hook records and effects come back per phase
//! and are merged in chunk order, so the report lists them in the order a
//! serial run would.
//!
//! What differs from a serial run: module state is shared only within a
//! chunk; an `operationId` replays only within a chunk, so a write repeated in
//! a later chunk is answered and recorded again; keys of items created by
//! worker `w` are numbered from `w × 10⁹`; and progress of the preflight and
//! request phases arrives interleaved across workers.

use std::cell::RefCell;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender, channel};

use crate::hooks::bridge::HookHost;
use crate::hooks::{HookEnv, HookRecord, RuntimeInfo};
use crate::host::effects::Effect;
use crate::plan::Unit;
use crate::run::progress::Phase;
use crate::run::report::RunError;
use crate::run::results::ResultSource;
use crate::run::runner::{RunOptions, apply_env, dispatch_all};
use crate::run::units::{Phases, UnitState, first_jobs};
use crate::sandbox::{Sandbox, SandboxOptions, spawn_hook_thread};

/// Created-item keys of worker `w` start at `w × KEY_BLOCK`.
const KEY_BLOCK: u64 = 1_000_000_000;

/// What one worker recorded during one phase.
#[derive(Default)]
struct Segment {
    records: Vec<HookRecord>,
    effects: Vec<Effect>,
}

/// From a worker to the caller's thread.
enum Report {
    /// One unit finished a phase.
    Tick(Phase),
    /// The chunk was preflighted and its requests built.
    Built(usize, Vec<UnitState>, [Segment; 2]),
    /// The chunk's results were applied (then its aggregates).
    Applied(usize, Vec<UnitState>, [Segment; 2]),
    /// The worker could not start its runtime.
    Failed(Box<RunError>),
}

/// From the caller's thread to a worker: its units with their results, and the
/// run-wide index of each unit's first job.
type Dispatched = (Vec<UnitState>, Vec<usize>);

/// Takes every unit through every phase on `options.jobs` threads; `env` is
/// the run's own environment, which receives the merged records and effects.
pub(crate) fn execute(
    env: &mut HookEnv<'_>,
    phases: &Phases<'_>,
    units: &[Unit],
    results: &mut dyn ResultSource,
    options: &RunOptions,
    progress: &dyn Fn(Phase, usize),
) -> Result<Vec<UnitState>, RunError> {
    let chunks = chunks(units.len(), options.jobs);
    let hosts: Vec<HookHost> = (0..chunks.len())
        .map(|w| env.host.borrow().fork(w as u64 * KEY_BLOCK))
        .collect();
    std::thread::scope(|scope| {
        let (tx, reports) = channel();
        let mut inboxes = Vec::with_capacity(chunks.len());
        for ((w, range), host) in chunks.iter().enumerate().zip(hosts) {
            let (to_worker, inbox) = channel();
            inboxes.push(to_worker);
            let tx = tx.clone();
            let chunk = &units[range.clone()];
            let setup = Setup {
                sandbox: options.sandbox,
                runtime: options.runtime.clone(),
                fresh_per_unit: options.fresh_runtime_per_unit,
            };
            let spawned = spawn_hook_thread(scope, format!("hookrun-worker-{w}"), move || {
                let work = AssertUnwindSafe(|| worker(w, phases, chunk, host, &setup, &tx, &inbox));
                if catch_unwind(work).is_err() {
                    // Without this report the caller would wait for the worker forever.
                    let error = RunError::new("run", None, "Error", "a worker thread failed");
                    let _ = tx.send(Report::Failed(Box::new(error)));
                }
            });
            if let Err(e) = spawned {
                return Err(RunError::new(
                    "run",
                    None,
                    "Error",
                    format!("cannot start worker thread {w}: {e}; use fewer jobs"),
                ));
            }
        }
        drop(tx);
        let mut ticks = Ticks::new(progress);

        // Merged as soon as they arrive, so that a failure further on keeps
        // them, as a serial run does.
        let mut states = gather(env, &reports, chunks.len(), &mut ticks, |r| match r {
            Report::Built(w, states, segments) => Ok((w, states, segments)),
            other => Err(other),
        })?;
        dispatch_all(phases, units, &mut states, results, options, progress);
        let firsts = first_jobs(&states);
        // Fails the run the way a serial run does when there is nothing to apply with.
        apply_env(env, phases)?;
        for (range, inbox) in chunks.iter().zip(&inboxes).rev() {
            let chunk_states = states.split_off(range.start);
            let chunk_firsts = firsts[range.clone()].to_vec();
            // A worker that is gone has already reported why.
            let _ = inbox.send((chunk_states, chunk_firsts));
        }
        gather(env, &reports, chunks.len(), &mut ticks, |r| match r {
            Report::Applied(w, states, segments) => Ok((w, states, segments)),
            other => Err(other),
        })
    })
}

/// What a worker needs of the run's options.
struct Setup {
    sandbox: SandboxOptions,
    runtime: RuntimeInfo,
    fresh_per_unit: bool,
}

/// One worker: its chunk through preflight and requests, then, once the
/// results are in, through apply and aggregates.
fn worker(
    w: usize,
    phases: &Phases<'_>,
    units: &[Unit],
    host: HookHost,
    setup: &Setup,
    tx: &Sender<Report>,
    inbox: &Receiver<Dispatched>,
) {
    let mut sandbox = match Sandbox::new(&phases.workflow.jail_root, setup.sandbox) {
        Ok(sandbox) => sandbox,
        Err(e) => {
            let error = RunError::new("run", None, "SandboxError", e.to_string());
            let _ = tx.send(Report::Failed(Box::new(error)));
            return;
        }
    };
    let host = Rc::new(RefCell::new(host));
    let mut env = HookEnv {
        sandbox: &mut sandbox,
        host: Rc::clone(&host),
        workflow: phases.workflow,
        runtime: &setup.runtime,
        records: Vec::new(),
        fresh_per_unit: setup.fresh_per_unit,
        last_unit: None,
    };
    let tick = |phase| {
        let _ = tx.send(Report::Tick(phase));
    };

    let mut states = Vec::with_capacity(units.len());
    for unit in units {
        states.push(phases.preflight(&mut env, unit));
        tick(Phase::Preflight);
    }
    let preflighted = segment(&mut env.records, &host);
    for (state, unit) in states.iter_mut().zip(units) {
        phases.build_requests(&mut env, unit, state);
        tick(Phase::Requests);
    }
    let built = segment(&mut env.records, &host);
    if tx
        .send(Report::Built(w, states, [preflighted, built]))
        .is_err()
    {
        return;
    }

    let Ok((mut states, firsts)) = inbox.recv() else {
        return;
    };
    let Ok(mut apply) = apply_env(&mut env, phases) else {
        return;
    };
    for ((state, unit), first) in states.iter_mut().zip(units).zip(&firsts) {
        phases.apply(&mut apply, unit, state, *first);
        tick(Phase::Apply);
    }
    let applied = segment(&mut apply.hooks.records, &host);
    for (state, first) in states.iter_mut().zip(&firsts) {
        phases.aggregate(&mut apply, state, *first);
    }
    let aggregated = segment(&mut apply.hooks.records, &host);
    let _ = tx.send(Report::Applied(w, states, [applied, aggregated]));
}

fn segment(records: &mut Vec<HookRecord>, host: &RefCell<HookHost>) -> Segment {
    Segment {
        records: std::mem::take(records),
        effects: host.borrow_mut().take_effects(),
    }
}

/// Appends one phase's segments, in chunk order, to the run's records and
/// effects.
fn merge<'a>(env: &mut HookEnv<'_>, segments: impl Iterator<Item = &'a mut Segment>) {
    for segment in segments {
        env.records.append(&mut segment.records);
        env.host
            .borrow_mut()
            .absorb_effects(std::mem::take(&mut segment.effects));
    }
}

/// Waits until every worker sent the report `pick` accepts, passing progress
/// on; returns the workers' units in chunk order, after merging what they
/// recorded into `env`, phase by phase.
fn gather(
    env: &mut HookEnv<'_>,
    reports: &Receiver<Report>,
    workers: usize,
    ticks: &mut Ticks<'_>,
    pick: impl Fn(Report) -> Result<(usize, Vec<UnitState>, [Segment; 2]), Report>,
) -> Result<Vec<UnitState>, RunError> {
    let mut picked: Vec<Option<(Vec<UnitState>, [Segment; 2])>> =
        (0..workers).map(|_| None).collect();
    let mut missing = workers;
    while missing > 0 {
        let Ok(report) = reports.recv() else {
            return Err(RunError::new(
                "run",
                None,
                "Error",
                "a worker thread stopped before finishing its units",
            ));
        };
        match pick(report) {
            Ok((w, states, segments)) => {
                picked[w] = Some((states, segments));
                missing -= 1;
            }
            Err(Report::Tick(phase)) => ticks.tick(phase),
            Err(Report::Failed(error)) => return Err(*error),
            Err(Report::Built(..) | Report::Applied(..)) => {}
        }
    }
    let (states, mut segments): (Vec<_>, Vec<_>) = picked.into_iter().flatten().unzip();
    for phase in 0..2 {
        merge(env, segments.iter_mut().map(|s| &mut s[phase]));
    }
    Ok(states.into_iter().flatten().collect())
}

/// Units done per phase, across workers.
struct Ticks<'a> {
    progress: &'a dyn Fn(Phase, usize),
    preflight: usize,
    requests: usize,
    apply: usize,
}

impl<'a> Ticks<'a> {
    fn new(progress: &'a dyn Fn(Phase, usize)) -> Ticks<'a> {
        Ticks {
            progress,
            preflight: 0,
            requests: 0,
            apply: 0,
        }
    }

    fn tick(&mut self, phase: Phase) {
        let done = match phase {
            Phase::Preflight => &mut self.preflight,
            Phase::Requests => &mut self.requests,
            Phase::Apply => &mut self.apply,
            Phase::Results => return,
        };
        *done += 1;
        (self.progress)(phase, *done);
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
    use super::chunks;

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
