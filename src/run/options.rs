//! What a run works on ([`RunInput`]) and how it behaves ([`RunOptions`]).

use crate::hooks::RuntimeInfo;
use crate::host::answers::HostAnswers;
use crate::host::world::HostWorld;
use crate::plan::Mode;
use crate::run::progress::ProgressHook;
use crate::run::settings::Settings;
use crate::sandbox::{SandboxOptions, SandboxPool};
use crate::selection::SelectionContext;

/// What a run works on.
pub struct RunInput {
    /// The user's selection (either shape).
    pub selection: SelectionContext,
    /// `{workflowParams, providerOptions}`.
    pub settings: Settings,
    /// What hooks and filters may read.
    pub world: HostWorld,
    /// What the fixture answers for the members a simulated world cannot:
    /// identifier look-ups and the `fixture` members of the Host API.
    pub answers: HostAnswers,
}

/// How a run behaves: [`RunOptions::default`] and its setters.
///
/// ```
/// use hookrun::run::RunOptions;
/// let options = RunOptions::default().jobs(2).window(64);
/// assert_eq!((options.jobs, options.window), (2, 64));
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct RunOptions {
    /// Planning mode (`execute` for confirmed runs).
    pub mode: Mode,
    /// Limits, determinism and isolation of every hook call (its startup is
    /// always [`STARTUP`](crate::hooks::STARTUP), the host facade).
    pub sandbox: SandboxOptions,
    /// Start every unit on a fresh runtime instead of sharing one per run.
    pub fresh_runtime_per_unit: bool,
    /// Threads for the units (`0` or `1`: every unit on the caller's thread).
    /// Every [window](Self::window) is cut into `jobs` contiguous parts: the
    /// caller's thread takes the first with the run's runtime, and each other
    /// part goes to a worker thread with a runtime of its own, the same part of
    /// every window; the report is in unit order either way. Module state and
    /// `operationId` replays are then shared only among the units of one
    /// thread, items a worker creates get keys from its own range, and progress
    /// of the preflight, request and apply phases arrives interleaved across
    /// threads.
    pub jobs: usize,
    /// Borrow the run's runtime from this pool and give it back afterwards, so
    /// the next run of the same workflow starts warm (prelude installed, hook
    /// modules loaded, module state kept). A runtime that breached a limit is
    /// not given back. With `jobs` above 1 the pooled runtime serves the
    /// settings phase and the caller's part of each window; the worker threads
    /// start runtimes of their own.
    pub pool: Option<SandboxPool>,
    /// The `runtime` fields that do not depend on the call.
    pub runtime: RuntimeInfo,
    /// Receives progress after each unit of each phase.
    pub progress: Option<ProgressHook>,
    /// The most bytes of write arguments (as JSON) the run's hooks may have recorded;
    /// the write that would pass it ends its call with `write-limit`. `None`:
    /// [`DEFAULT_MAX_WRITE_BYTES`](crate::host::effects::DEFAULT_MAX_WRITE_BYTES).
    pub max_write_bytes: Option<u64>,
    /// The most bytes one host call may hold outside the engine (file reads,
    /// archive entries, its reply); the call that would pass it ends its hook call
    /// with `host-limit`. `None`:
    /// [`DEFAULT_HOST_CALL_BYTES`](crate::host::budget::DEFAULT_HOST_CALL_BYTES).
    pub max_host_call_bytes: Option<u64>,
    /// Units that go through the phases together (`0`:
    /// [`DEFAULT_WINDOW`](super::DEFAULT_WINDOW)). Every unit of a window is
    /// preflighted before any of its requests is built, and so on phase by
    /// phase, as the contract orders them; each unit is handed over as soon
    /// as it is done, and the next window starts once the window's units are
    /// all applied and handed over. Besides the plan, a run
    /// holds the states and reports of one window of units at a time, so this
    /// bounds the memory the run adds; a run of at most `window`
    /// units calls its hooks in exactly the contract's phase order.
    pub window: usize,
}

hookrun_sandbox::option_setters!(RunOptions {
    mode: Mode,
    sandbox: SandboxOptions,
    fresh_runtime_per_unit: bool,
    jobs: usize,
    pool: Option<SandboxPool>,
    runtime: RuntimeInfo,
    progress: Option<ProgressHook>,
    max_write_bytes: Option<u64>,
    max_host_call_bytes: Option<u64>,
    window: usize,
});
