//! Progress of a run, for hosts and terminals that show it.

use std::sync::Arc;

/// The phase a run is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// `preflight`, once per unit.
    Preflight,
    /// Building requests.
    Requests,
    /// Getting results.
    Results,
    /// `applyResult` and aggregate applies.
    Apply,
}

impl Phase {
    /// The phase's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Preflight => "preflight",
            Phase::Requests => "requests",
            Phase::Results => "results",
            Phase::Apply => "apply",
        }
    }
}

/// Units done in a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The phase.
    pub phase: Phase,
    /// Units done in this phase.
    pub done: usize,
    /// Units of the run.
    pub total: usize,
}

/// A callback that receives [`Progress`] after each unit of each phase.
#[derive(Clone)]
pub struct ProgressHook(pub Arc<dyn Fn(Progress) + Send + Sync>);

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook")
    }
}

impl ProgressHook {
    /// Reports `done` of `total` units in `phase`.
    pub fn report(&self, phase: Phase, done: usize, total: usize) {
        (self.0)(Progress { phase, done, total });
    }
}
