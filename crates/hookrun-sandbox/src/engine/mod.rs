//! One deno_core runtime with the prelude installed, the module jail, the
//! watchdog and the heap cap: the engine-specific half of the sandbox.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use deno_core::error::CoreError;
use deno_core::{JsRuntime, ModuleId, PollEventLoopOptions, v8};

use super::Limits;
use super::coverage;
use super::crossing;
use super::errors::{self, Answer};
use super::host::HostBreach;
use super::live::{Handed, LiveSpecs};
use super::loader::Jail;
use super::ops::CallState;
use super::outcome::{CallResult, LogEntry, LogLevel, Outcome, Usage};
use super::shared::{Keeper, Sharing};
use super::watchdog::Watchdog;

mod modules;
mod start;

use modules::Export;

/// Which limit, if any, ended the current call.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Breach {
    None,
    Timeout,
    Memory,
    /// A host call passed one of the host's limits.
    Host(HostBreach),
}

/// A ready runtime bound to one root directory.
pub(crate) struct Engine {
    runtime: JsRuntime,
    jail: Rc<Jail>,
    invoke: v8::Global<v8::Function>,
    exports_of: v8::Global<v8::Function>,
    take_settled: v8::Global<v8::Function>,
    modules: HashMap<PathBuf, ModuleId>,
    /// Loaded modules by the path callers name them with, so a warm call does
    /// not resolve its module against the file system again.
    entries: HashMap<PathBuf, (ModuleId, String)>,
    /// Loaded modules' namespace objects, asked of the runtime once each.
    namespaces: HashMap<ModuleId, v8::Global<v8::Object>>,
    watchdog: Watchdog,
    memory_hit: Rc<Cell<bool>>,
    tokio: tokio::runtime::Runtime,
    limits: Limits,
    measure_heap: bool,
    /// Whether the startup has an animator for [`Call::live`](super::Call::live).
    animates: bool,
    /// The [`Call::shared`](super::Call::shared) values the runtime keeps.
    keeper: Keeper,
    /// The [`Call::live`](super::Call::live) descriptions the runtime holds.
    live_specs: LiveSpecs,
    /// Set once a call breached a limit; the engine must then be discarded.
    pub poisoned: bool,
    /// The coverage session, in coverage mode.
    coverage: Option<coverage::Session>,
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(session) = self.coverage.take() {
            session.finish(&self.jail);
        }
    }
}

/// `[description, ...kept values, ...new paths]` of `sharing` as one engine array
/// (`undefined` when the call shares nothing); `None` when the engine cannot
/// build it. A call's `argBytes` leaves it out: what a runtime already keeps
/// differs between runtimes, the argument does not.
fn cross_sharing<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    sharing: &Sharing<'_>,
) -> Option<v8::Local<'s, v8::Value>> {
    if sharing.is_empty() {
        return Some(v8::undefined(scope).into());
    }
    let described = sharing.describe();
    let mut list: Vec<&serde_json::Value> = vec![&described];
    list.extend(sharing.keep.iter().map(|kept| &**kept.value));
    list.extend(sharing.new_paths());
    crossing::cross_list(scope, &list)
}

impl Engine {
    /// Runs one call; `encoded` is its argument in the engine's encoding when the
    /// caller made it ahead (`call.arg` is then not read).
    pub fn call(&mut self, call: super::Call<'_>, encoded: Option<&[u8]>) -> Outcome {
        let started = Instant::now();
        self.call_state()
            .borrow_mut()
            .borrow_mut::<CallState>()
            .reset(call.host);
        self.memory_hit.set(false);
        // Host work: it does not count against the hook's time.
        let (arg, sharing) = match encoded {
            Some(wire) => (crossing::Arg::Encoded(wire), Sharing::default()),
            None => (
                crossing::Arg::Value(call.arg, call.placed),
                self.keeper
                    .plan(call.arg, call.placed, call.shared, call.copied),
            ),
        };
        self.start_clock();
        let answer = self.load_and_call(
            call.module,
            call.export,
            arg,
            call.live,
            call.sync,
            &sharing,
        );
        let timed_out = self.watchdog.disarm();
        let result = self.limit_outcome(timed_out).unwrap_or(answer.result);
        if result.breaches_limit() {
            self.poisoned = true;
        }
        let (logs, usage) = self.take_call_record(started, answer.ignored_promise);
        Outcome {
            result,
            logs,
            usage,
        }
    }

    /// The outcome of the limit that ended the call just made, if one did.
    fn limit_outcome(&self, timed_out: bool) -> Option<CallResult> {
        Some(match self.breach(timed_out) {
            Breach::Memory => CallResult::MemoryLimit {
                limit_bytes: self.limits.max_heap_bytes,
            },
            Breach::Host(HostBreach::Writes { limit_bytes }) => {
                CallResult::WriteLimit { limit_bytes }
            }
            Breach::Host(HostBreach::Bytes { limit_bytes }) => {
                CallResult::HostLimit { limit_bytes }
            }
            Breach::Host(HostBreach::Deadline) | Breach::Timeout => CallResult::Timeout {
                limit_ms: self.limits.timeout_ms,
            },
            Breach::None => return None,
        })
    }

    /// Which limit, if any, ended the call just made.
    fn breach(&self, timed_out: bool) -> Breach {
        let host_breach = self.call_state().borrow().borrow::<CallState>().breach;
        if self.memory_hit.get() {
            Breach::Memory
        } else if let Some(breach) = host_breach {
            Breach::Host(breach)
        } else if timed_out {
            Breach::Timeout
        } else {
            Breach::None
        }
    }

    /// The call's logs and usage, taken from the op state, which lets go of
    /// the call's host.
    fn take_call_record(
        &mut self,
        started: Instant,
        ignored_promise: bool,
    ) -> (Vec<LogEntry>, Usage) {
        let heap_used_bytes = if self.poisoned || !self.measure_heap {
            None
        } else {
            Some(
                self.runtime
                    .v8_isolate()
                    .get_heap_statistics()
                    .used_heap_size() as u64,
            )
        };
        let state = self.call_state();
        let mut state = state.borrow_mut();
        let call = state.borrow_mut::<CallState>();
        let mut logs = std::mem::take(&mut call.logs);
        if ignored_promise {
            logs.push(LogEntry {
                level: LogLevel::Warn,
                message: errors::IGNORED_PROMISE.to_string(),
            });
        }
        let usage = Usage {
            wall_ms: started.elapsed().as_millis() as u64,
            log_bytes: call.log_bytes,
            op_calls: call.op_calls,
            arg_bytes: call.arg_bytes,
            heap_used_bytes,
        };
        call.host = None;
        (logs, usage)
    }

    /// Arms the watchdog for one call's time, and gives ops the same deadline
    /// (host calls and native work done in pieces end by the time it fires) and
    /// a clean slate of limits passed.
    fn start_clock(&mut self) {
        let limit = Duration::from_millis(self.limits.timeout_ms);
        self.watchdog.arm(limit);
        let state = self.call_state();
        let mut state = state.borrow_mut();
        let call = state.borrow_mut::<CallState>();
        call.breach = None;
        if let Some(deadline) = Instant::now().checked_add(limit) {
            call.deadline = deadline;
        }
    }

    fn call_state(&self) -> Rc<RefCell<deno_core::OpState>> {
        self.runtime.op_state()
    }

    fn load_and_call(
        &mut self,
        module: &Path,
        export: &str,
        arg: crossing::Arg<'_>,
        live: Option<&serde_json::Value>,
        sync: bool,
        sharing: &Sharing<'_>,
    ) -> Answer {
        if live.is_some() && !self.animates {
            return Answer::from(CallResult::LoadError(errors::plain(
                "EngineError",
                "the call describes live objects, but the sandbox's startup has no animator to build them",
            )));
        }
        let export = match self
            .load(module)
            .and_then(|(id, name)| self.export(id, &name, export))
        {
            Ok(export) => export,
            Err(result) => return Answer::from(result),
        };
        let args = match self.invoke_args(&export, arg, live, sync, sharing) {
            Ok(args) => args,
            Err(result) => return Answer::from(result),
        };
        self.keeper.commit(sharing);
        let call = self.runtime.call_with_args(&self.invoke, &args);
        let runtime = &mut self.runtime;
        // The answer comes back before the event loop turned: turn it, under
        // this call's deadline, so an awaited hook settles, the microtasks the
        // hook queued run and its unhandled rejections fail the call.
        let settled = self.tokio.block_on(async {
            let value = runtime
                .with_event_loop_promise(call, PollEventLoopOptions::default())
                .await?;
            runtime
                .run_event_loop(PollEventLoopOptions::default())
                .await?;
            Ok::<_, CoreError>(value)
        });
        match settled {
            Ok(value) => {
                self.live_specs.answered();
                self.read_envelope(value, sharing)
            }
            Err(e) => Answer::from(CallResult::HookError(errors::from_core(&e))),
        }
    }

    /// The prelude's `invoke` arguments: the export, the argument built in
    /// the engine, the output limit, the live description when the runtime
    /// does not hold it yet, whether the call is synchronous, the shared
    /// values it keeps and refers to ([`cross_sharing`]) and the number the
    /// live description is held under. Records the argument's size.
    fn invoke_args(
        &mut self,
        export: &Export,
        arg: crossing::Arg<'_>,
        live: Option<&serde_json::Value>,
        sync: bool,
        sharing: &Sharing<'_>,
    ) -> Result<[v8::Global<v8::Value>; 7], CallResult> {
        let max_output = self.limits.max_output_bytes;
        let handed = live.map(|live| (live, self.live_specs.hand(live)));
        let (args, arg_bytes) = {
            deno_core::scope!(scope, &mut self.runtime);
            let arg = crossing::cross_with_holes(scope, arg, &sharing.holes);
            let (live, live_id) = match handed {
                Some((live, Handed::New(id))) => (
                    crossing::cross(scope, crossing::Arg::Value(live, &[])).value,
                    Some(id),
                ),
                Some((_, Handed::Held(id))) => (Some(v8::undefined(scope).into()), Some(id)),
                None => (Some(v8::undefined(scope).into()), None),
            };
            let live_id: v8::Local<v8::Value> = match live_id {
                Some(id) => v8::Number::new(scope, id as f64).into(),
                None => v8::undefined(scope).into(),
            };
            let shared = cross_sharing(scope, sharing);
            let args = arg
                .value
                .zip(live)
                .zip(shared)
                .map(|((value, live), shared)| {
                    let f: v8::Local<v8::Value> = v8::Local::new(scope, &export.function).into();
                    let limit: v8::Local<v8::Value> =
                        v8::Number::new(scope, max_output as f64).into();
                    let sync: v8::Local<v8::Value> = v8::Boolean::new(scope, sync).into();
                    [f, value, limit, live, sync, shared, live_id]
                        .map(|v| v8::Global::new(scope, v))
                });
            (args, arg.bytes)
        };
        self.call_state()
            .borrow_mut()
            .borrow_mut::<CallState>()
            .arg_bytes = arg_bytes as u64;
        args.ok_or_else(|| {
            CallResult::LoadError(errors::plain(
                "ArgumentError",
                "the argument cannot be built in the engine: it holds a string longer than 2^30 - 1 characters, is nested too deeply, or is too large for the heap cap",
            ))
        })
    }

    /// Reads what `invoke` answered: its envelope, or for an awaited hook
    /// (`null`), the envelope it settled with.
    fn read_envelope(&mut self, value: v8::Global<v8::Value>, sharing: &Sharing<'_>) -> Answer {
        let max_output = self.limits.max_output_bytes;
        deno_core::scope!(scope, &mut self.runtime);
        let mut value = v8::Local::new(scope, value);
        if value.is_null() {
            let take = v8::Local::new(scope, &self.take_settled);
            let undefined = v8::undefined(scope).into();
            value = take
                .call(scope, undefined, &[])
                .unwrap_or_else(|| v8::undefined(scope).into());
        }
        if !value.is_string() {
            return Answer::from(CallResult::HookError(errors::never_settled()));
        }
        let text = value.to_rust_string_lossy(scope);
        let mut answer = errors::from_envelope(&text, max_output);
        if let CallResult::Ok(value) = &mut answer.result
            && answer.shared_refs > 0
        {
            sharing.resolve(value, answer.shared_refs, self.keeper.marker());
        }
        answer
    }
}
