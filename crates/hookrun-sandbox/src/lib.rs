//! The sandbox: call one export of one ES module with JSON in and JSON out,
//! under limits, and get back one typed [`Outcome`].
//!
//! Hooks run deny-by-default: they cannot see `Deno`, the file system, the
//! network, the environment or timers; they can import only `.mjs`/`.js` files
//! inside the sandbox root through relative specifiers; `console.*` is captured.
//! A call that breaches a limit ends with a typed outcome and the runtime behind
//! it is discarded; the next call gets a fresh one.
//!
//! It knows nothing of what the hooks are for: a caller adds a start-up script
//! that makes arguments live and answers host calls through a [`HostBridge`]
//! ([`Startup`]).
//!
//! ```no_run
//! use hookrun_sandbox::{CallResult, Sandbox, SandboxOptions};
//! use serde_json::json;
//!
//! let mut sandbox = Sandbox::new("fixtures/sandbox", SandboxOptions::default())?;
//! let outcome = sandbox.call("happy.mjs".as_ref(), "greetLater", &json!({"name": "Ada"}));
//! if let CallResult::Ok(value) = &outcome.result {
//!     println!("{value}");
//! }
//! # Ok::<(), hookrun_sandbox::SandboxError>(())
//! ```

mod boot;
mod breach;
mod coverage;
mod crossing;
mod engine;
mod errors;
mod host;
mod live;
mod loader;
mod ops;
mod outcome;
mod pool;
mod process;
mod shared;
pub mod snapshot;
mod startup;
mod thread;
mod watchdog;
mod web;
pub mod worker;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use serde::{Deserialize, Serialize};

pub use coverage::{CoveredRange, FunctionCoverage, Lcov, ModuleCoverage, take_coverage};
pub use host::{HostBreach, HostBridge};
pub use loader::ImportRefusal;
pub use outcome::{
    CallResult, JsFailure, LogEntry, LogLevel, Outcome, OutcomeKind, SourceLocation, Usage,
};
pub use pool::{PoolOptions, PoolStats, PooledSandbox, SandboxPool};
pub use process::{DISK_CACHE_OFF_VAR, disable_engine_disk_cache};
pub use startup::{BridgeError, Fault, Script, Startup};
pub use thread::block_on;
pub use thread::spawn_scoped as spawn_hook_thread;
pub use worker::{WORKER_ARG, set_worker_binary};

use engine::Engine;

/// Chainable setters for the public fields of an options struct marked
/// `#[non_exhaustive]`, so callers outside its crate write
/// `Options::default().field(value)` instead of a struct literal.
#[doc(hidden)]
#[macro_export]
macro_rules! option_setters {
    ($ty:ty { $($field:ident: $t:ty),* $(,)? }) => {
        impl $ty {
            $(
                #[doc = concat!("This value with `", stringify!($field), "` set to `value`.")]
                #[must_use]
                pub fn $field(mut self, value: $t) -> Self {
                    self.$field = value;
                    self
                }
            )*
        }
    };
}

/// Per-call limits. A breach ends the call with a typed outcome.
///
/// Made from [`Limits::default`] and its setters, so that a limit added later
/// breaks no caller:
///
/// ```
/// let limits = hookrun_sandbox::Limits::default().timeout_ms(250);
/// assert_eq!(limits.timeout_ms, 250);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Limits {
    /// Wall-clock limit per call, module loading included.
    pub timeout_ms: u64,
    /// Heap cap of the runtime.
    pub max_heap_bytes: u64,
    /// Largest JSON text a call may return.
    pub max_output_bytes: u64,
    /// Largest amount of console text kept per call.
    pub max_log_bytes: u64,
}

impl Default for Limits {
    /// 5 s, 128 MiB heap, 16 MiB output, 1 MiB logs.
    fn default() -> Limits {
        Limits {
            timeout_ms: 5_000,
            max_heap_bytes: 128 * 1024 * 1024,
            max_output_bytes: 16 * 1024 * 1024,
            max_log_bytes: 1024 * 1024,
        }
    }
}

impl Limits {
    /// The smallest heap cap a runtime starts with: deno_core's bootstrap and
    /// the prelude need about 5 MiB.
    pub const MIN_HEAP_BYTES: u64 = 8 * 1024 * 1024;

    /// Whether a runtime can start under these limits.
    pub fn check(&self) -> Result<(), SandboxError> {
        if self.timeout_ms == 0 {
            return Err(SandboxError::Limits(
                "the timeout must be at least 1 ms".into(),
            ));
        }
        if self.max_heap_bytes < Self::MIN_HEAP_BYTES {
            return Err(SandboxError::Limits(format!(
                "the heap cap must be at least {} MiB for the runtime to start; {} bytes were given",
                Self::MIN_HEAP_BYTES / (1024 * 1024),
                self.max_heap_bytes
            )));
        }
        Ok(())
    }
}

/// Frozen clock and seeded randomness, for reproducible runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Determinism {
    /// What `Date.now()` and `new Date()` return, in ms since the Unix epoch.
    pub now_ms: i64,
    /// Seed of `Math.random()`.
    pub seed: u32,
}

impl Default for Determinism {
    /// 2026-01-01T00:00:00.000Z and seed 1.
    fn default() -> Determinism {
        Determinism {
            now_ms: 1_767_225_600_000,
            seed: 1,
        }
    }
}

/// How a [`Sandbox`] is set up: [`SandboxOptions::default`] and its setters.
///
/// ```
/// use hookrun_sandbox::{Determinism, Limits, SandboxOptions};
/// let options = SandboxOptions::default()
///     .limits(Limits::default().max_heap_bytes(64 << 20))
///     .determinism(Some(Determinism::default()));
/// assert!(options.determinism.is_some());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SandboxOptions {
    /// Limits applied to every call.
    pub limits: Limits,
    /// Frozen clock and seeded randomness, when set.
    pub determinism: Option<Determinism>,
    /// Report the heap in use after every call ([`Usage::heap_used_bytes`]).
    /// On QuickJS this walks the whole heap, which costs more than a small
    /// hook call itself, so it is off unless asked for.
    pub measure_heap: bool,
    /// Where the engine runs: in this process (default) or in a worker process.
    pub isolation: Isolation,
    /// Record precise coverage of the root's modules in every runtime, for
    /// [`take_coverage`] (in process only: a worker's runtimes are not seen).
    #[serde(default)]
    pub coverage: bool,
    /// What runtimes start with beyond the sandbox's own scripts
    /// ([`Startup::BARE`] by default). Not serialised: a worker process uses
    /// the startup it was started with.
    #[serde(skip)]
    pub startup: &'static Startup,
}

option_setters!(Limits {
    timeout_ms: u64,
    max_heap_bytes: u64,
    max_output_bytes: u64,
    max_log_bytes: u64,
});

option_setters!(SandboxOptions {
    limits: Limits,
    determinism: Option<Determinism>,
    measure_heap: bool,
    isolation: Isolation,
    coverage: bool,
    startup: &'static Startup,
});

/// Where a sandbox's engine runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Isolation {
    /// In the calling process: fastest; an engine defect can take the process down.
    #[default]
    InProcess,
    /// In a worker process (the `hookrun` binary in its worker mode, see
    /// [`set_worker_binary`]) with kernel limits of its own: an engine crash ends
    /// the call with [`CallResult::EngineCrash`] and the next call gets a new worker.
    Process(ProcessLimits),
}

impl Isolation {
    /// [`Isolation::Process`] with the default [`ProcessLimits`].
    pub fn process() -> Isolation {
        Isolation::Process(ProcessLimits::default())
    }
}

/// The kernel limits and recycling of worker processes, on top of [`Limits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessLimits {
    /// Address space a worker may map beyond the heap cap (its code, stacks and
    /// allocator arenas); past it allocations fail and the engine dies.
    pub address_space_margin_bytes: u64,
    /// CPU time a call may use beyond its wall timeout before the kernel stops the
    /// worker (`RLIMIT_CPU`), should its watchdog fail.
    pub cpu_margin_ms: u64,
    /// Wall time beyond the call's timeout after which the worker is killed.
    pub wall_margin_ms: u64,
    /// Calls after which a worker is not reused once its sandbox lets it go.
    pub max_calls: u32,
}

impl Default for ProcessLimits {
    /// 1 GiB of address space, 2 s of CPU and 2 s of wall time beyond the limits,
    /// recycled after 10,000 calls.
    fn default() -> ProcessLimits {
        ProcessLimits {
            address_space_margin_bytes: 1024 * 1024 * 1024,
            cpu_margin_ms: 2_000,
            wall_margin_ms: 2_000,
            max_calls: 10_000,
        }
    }
}

/// Errors setting up a sandbox (as opposed to outcomes of calls).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// The root directory cannot be used.
    #[error("sandbox root {path}: {source}")]
    Root {
        /// The root as given.
        path: PathBuf,
        /// Why it cannot be used.
        source: std::io::Error,
    },
    /// The JS engine could not be started.
    #[error("the JavaScript engine could not start: {0}")]
    Engine(String),
    /// The limits leave the engine no room to start.
    #[error("invalid limits: {0}")]
    Limits(String),
}

/// Top-level members of a call's argument given by reference ([`Call::placed`]).
pub type Placed<'a> = &'a [(&'a str, &'a serde_json::Value)];

/// One call of an export: [`Call::new`], then what else the call has.
///
/// ```
/// # use std::path::Path;
/// # use hookrun_sandbox::Call;
/// let arg = serde_json::json!({"n": 1});
/// let call = Call::new(Path::new("hook.mjs"), "run", &arg).synchronously();
/// assert!(call.sync && call.host.is_none());
/// ```
#[non_exhaustive]
pub struct Call<'a> {
    /// The module, relative to the sandbox root or absolute inside it.
    pub module: &'a Path,
    /// The export to call.
    pub export: &'a str,
    /// The single argument.
    pub arg: &'a serde_json::Value,
    /// Top-level members of `arg` given by reference: `arg` is an object
    /// holding a stand-in (`null`, say) under each key named here, and the
    /// member crosses as the value given here, in the stand-in's place. A
    /// caller hands a hook values it keeps elsewhere (a manifest, a unit's
    /// selection) this way without copying them into the argument; a value
    /// given here that is the value of one of the `shared` `Arc`s is
    /// recognised as that value without comparing them. Empty: `arg` crosses
    /// as it is.
    pub placed: Placed<'a>,
    /// What the startup's animator makes live in the argument before the call
    /// (see [`Startup`]); a call with it fails to load when the startup has no
    /// animator. A runtime holds the last eight distinct ones, made ready by
    /// the animator's `prepare`: an equal one crosses again only when it
    /// was let go of.
    pub live: Option<&'a serde_json::Value>,
    /// Answers the hook's host calls; without one they fail with `unavailable`.
    pub host: Option<Rc<RefCell<dyn HostBridge>>>,
    /// Call synchronously: a returned promise is not awaited, the result is
    /// `null` and a warning is logged.
    pub sync: bool,
    /// Values that recur across this sandbox's calls (a unit's selection, say).
    /// Each crosses into the engine once and is kept there, deeply frozen: a
    /// part of `arg` equal to one of them (same keys in the same order) is
    /// handed to the hook as that kept object, and a result that returns the
    /// kept object crosses back by reference. The hook therefore sees those
    /// parts frozen, and the same object wherever they recur. A value is
    /// recognised by its `Arc`: hand the same one again to refer to it; once
    /// the caller drops its last `Arc`, the engine lets go of the value at its
    /// next call that shares anything. Only values of at least 8 JSON nodes,
    /// at most 64 levels deep, that the engine writes back exactly as they are
    /// (no numeric keys, no fractional numbers, no integers beyond 2^53) are
    /// kept, and the least recently used go beyond 512 values or a sixteenth
    /// of the heap cap (JSON text and 40 bytes per value); a larger value
    /// crosses as it is. Under [`Isolation::Process`] nothing is kept: every
    /// part crosses as it is, with the argument already encoded by the parent.
    /// A live object must not be built inside a shared part: it is frozen.
    /// Empty: every part crosses as it is.
    pub shared: &'a [std::sync::Arc<serde_json::Value>],
    /// Values that recur across this sandbox's calls but that each call must
    /// get a fresh copy of, which its hook may change (a manifest). Each
    /// crosses into the engine once and is kept there as a template, never
    /// handed out: a part of `arg` equal to one is handed to the hook as a
    /// copy the engine makes natively (what parsing its JSON would build).
    /// Kept and let go of as [`shared`](Self::shared) values are; a value in
    /// both is shared.
    pub copied: &'a [std::sync::Arc<serde_json::Value>],
}

impl<'a> Call<'a> {
    /// A call of `export` of `module` with `arg`, awaited, with no host, no
    /// live objects and nothing placed, shared or copied.
    pub fn new(module: &'a Path, export: &'a str, arg: &'a serde_json::Value) -> Call<'a> {
        Call {
            module,
            export,
            arg,
            placed: &[],
            live: None,
            host: None,
            sync: false,
            shared: &[],
            copied: &[],
        }
    }

    /// With members of the argument given by reference ([`Call::placed`]).
    pub fn placed(mut self, placed: Placed<'a>) -> Call<'a> {
        self.placed = placed;
        self
    }

    /// With live objects made in the argument ([`Call::live`]).
    pub fn live(mut self, live: &'a serde_json::Value) -> Call<'a> {
        self.live = Some(live);
        self
    }

    /// With a host answering the hook's host calls ([`Call::host`]).
    pub fn host(mut self, host: Rc<RefCell<dyn HostBridge>>) -> Call<'a> {
        self.host = Some(host);
        self
    }

    /// Called without awaiting a returned promise ([`Call::sync`]).
    pub fn synchronously(mut self) -> Call<'a> {
        self.sync = true;
        self
    }

    /// With values kept across calls ([`Call::shared`]).
    pub fn shared(mut self, shared: &'a [std::sync::Arc<serde_json::Value>]) -> Call<'a> {
        self.shared = shared;
        self
    }

    /// With values kept across calls as templates ([`Call::copied`]).
    pub fn copied(mut self, copied: &'a [std::sync::Arc<serde_json::Value>]) -> Call<'a> {
        self.copied = copied;
        self
    }
}

/// A sandbox bound to one root directory (the module jail).
///
/// Modules stay loaded between calls, so module-level state persists across
/// calls of one sandbox, as hooks of one workflow run expect. A call that
/// breaches a limit discards that state with the runtime.
pub struct Sandbox {
    root: PathBuf,
    options: SandboxOptions,
    runtime: Option<Runtime>,
}

/// The engine behind a sandbox: in this process, or in a worker process.
#[allow(
    clippy::large_enum_variant,
    reason = "one per sandbox; boxing the engine would add an indirection to every call"
)]
enum Runtime {
    InProcess(Engine),
    Process(worker::Worker),
}

impl Runtime {
    fn start(root: &Path, options: SandboxOptions) -> Result<Runtime, SandboxError> {
        Ok(match options.isolation {
            Isolation::InProcess => Runtime::InProcess(Engine::new(root.to_path_buf(), options)?),
            Isolation::Process(limits) => {
                Runtime::Process(worker::Worker::start(root, options, limits)?)
            }
        })
    }

    fn call(&mut self, call: Call<'_>, encoded: Option<&[u8]>) -> Outcome {
        match self {
            Runtime::InProcess(engine) => engine.call(call, encoded),
            Runtime::Process(worker) => worker.call(call),
        }
    }

    fn exports(&mut self, module: &Path) -> Result<Vec<(String, bool)>, CallResult> {
        match self {
            Runtime::InProcess(engine) => engine.exports(module),
            Runtime::Process(worker) => worker.exports(module),
        }
    }

    /// Whether a call breached a limit (or the worker died) and the runtime must go.
    fn poisoned(&self) -> bool {
        match self {
            Runtime::InProcess(engine) => engine.poisoned,
            Runtime::Process(worker) => worker.poisoned(),
        }
    }
}

impl Sandbox {
    /// A sandbox whose modules must live under `root`.
    pub fn new(root: impl AsRef<Path>, options: SandboxOptions) -> Result<Sandbox, SandboxError> {
        options.limits.check()?;
        let given = root.as_ref();
        let root = given.canonicalize().map_err(|source| SandboxError::Root {
            path: given.to_path_buf(),
            source,
        })?;
        if !root.is_dir() {
            return Err(SandboxError::Root {
                path: given.to_path_buf(),
                source: std::io::Error::other("not a directory"),
            });
        }
        Ok(Sandbox {
            root,
            options,
            runtime: None,
        })
    }

    /// The canonical root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The options this sandbox was created with.
    pub fn options(&self) -> &SandboxOptions {
        &self.options
    }

    /// Calls `export` of `module` (relative to the root, or absolute inside it)
    /// with `arg` as its single argument, awaiting a returned promise.
    pub fn call(&mut self, module: &Path, export: &str, arg: &serde_json::Value) -> Outcome {
        self.run(Call::new(module, export, arg))
    }

    /// Runs one [`Call`], with its live objects and host bridge.
    pub fn run(&mut self, call: Call<'_>) -> Outcome {
        self.run_encoded(call, None)
    }

    /// Runs one call whose argument, when `encoded` is given, is already in the
    /// engine's encoding (a worker's parent made it).
    pub(crate) fn run_encoded(&mut self, call: Call<'_>, encoded: Option<&[u8]>) -> Outcome {
        match self.runtime() {
            Ok(runtime) => {
                let outcome = runtime.call(call, encoded);
                self.discard_if_poisoned();
                outcome
            }
            Err(e) => Outcome {
                result: CallResult::LoadError(errors::plain("EngineError", &e.to_string())),
                logs: Vec::new(),
                usage: Usage::default(),
            },
        }
    }

    /// Loads `module` and lists its exports as `(name, is_function)`, without
    /// calling any of them. Module top-level code does run.
    pub fn exports(&mut self, module: &Path) -> Result<Vec<(String, bool)>, CallResult> {
        let runtime = self
            .runtime()
            .map_err(|e| CallResult::LoadError(errors::plain("EngineError", &e.to_string())))?;
        let listed = runtime.exports(module);
        self.discard_if_poisoned();
        listed
    }

    /// Drops the runtime; the next call starts a fresh one.
    pub fn reset(&mut self) {
        self.runtime = None;
    }

    /// Starts the runtime now (prelude installed, limits armed), so that the
    /// first call does not pay for it. Does nothing when it already runs.
    pub fn warm_up(&mut self) -> Result<(), SandboxError> {
        self.runtime().map(|_| ())
    }

    /// Whether a runtime is running and can serve further calls: false before
    /// the first call, after [`Sandbox::reset`], and after a call that
    /// breached a limit.
    pub fn is_warm(&self) -> bool {
        self.runtime.is_some()
    }

    /// The process id of the worker running this sandbox's engine, with
    /// [`Isolation::Process`] and a runtime started.
    pub fn worker_pid(&self) -> Option<u32> {
        match &self.runtime {
            Some(Runtime::Process(worker)) => worker.pid(),
            _ => None,
        }
    }

    /// Moves this sandbox's runtime into a new sandbox with the same root and
    /// options, leaving this one without a runtime.
    fn take_runtime(&mut self) -> Sandbox {
        Sandbox {
            root: self.root.clone(),
            options: self.options,
            runtime: self.runtime.take(),
        }
    }

    fn runtime(&mut self) -> Result<&mut Runtime, SandboxError> {
        if self.runtime.is_none() {
            self.runtime = Some(Runtime::start(&self.root, self.options)?);
        }
        self.runtime
            .as_mut()
            .ok_or_else(|| SandboxError::Engine("runtime unavailable".into()))
    }

    fn discard_if_poisoned(&mut self) {
        if self.runtime.as_ref().is_some_and(Runtime::poisoned) {
            self.runtime = None;
        }
    }
}
