//! Starting an engine: a runtime from the startup's snapshot, its heap cap,
//! watchdog and the prelude configured.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use deno_core::{JsRuntime, RuntimeOptions, v8};
use serde_json::json;

use super::Engine;
use crate::boot;
use crate::breach::HeapCap;
use crate::coverage;
use crate::errors;
use crate::live::LiveSpecs;
use crate::loader::{Jail, JailLoader};
use crate::ops::hookrun_sandbox;
use crate::shared::Keeper;
use crate::startup::Startup;
use crate::watchdog::Watchdog;
use crate::{Limits, SandboxError, SandboxOptions};

/// The prelude's functions the engine calls (`js/prelude.js`, `configure`).
struct Prelude {
    invoke: v8::Global<v8::Function>,
    exports_of: v8::Global<v8::Function>,
    take_settled: v8::Global<v8::Function>,
}

/// A runtime from the `prepared` snapshot (if any), its modules jailed under `jail`.
fn start_runtime(
    jail: &Rc<Jail>,
    limits: &Limits,
    startup: &Startup,
    prepared: &boot::Prepared,
    inspector: bool,
) -> Result<JsRuntime, SandboxError> {
    let create_params = v8::CreateParams::default().heap_limits(0, limits.max_heap_bytes as usize);
    let mut runtime = JsRuntime::try_new(RuntimeOptions {
        module_loader: Some(Rc::new(JailLoader(Rc::clone(jail)))),
        extensions: vec![hookrun_sandbox::init(limits.max_log_bytes, startup.fault)],
        create_params: Some(create_params),
        startup_snapshot: prepared.snapshot,
        inspector,
        ..Default::default()
    })
    .map_err(|e| SandboxError::Engine(e.to_string()))?;
    runtime
        .v8_isolate()
        .set_prepare_stack_trace_callback(errors::hook_stack_trace);
    Ok(runtime)
}

/// Ends any call that reaches the heap cap; the flag it returns is set when
/// one did.
fn cap_heap(runtime: &mut JsRuntime, isolate: v8::IsolateHandle) -> Rc<Cell<bool>> {
    let memory_hit = Rc::new(Cell::new(false));
    let hit = Rc::clone(&memory_hit);
    let mut cap = {
        deno_core::scope!(scope, runtime);
        HeapCap::new(&scope.get_current_context())
    };
    runtime.add_near_heap_limit_callback(move |current, _initial| {
        hit.set(true);
        isolate.terminate_execution();
        cap.on_breach(current)
    });
    memory_hit
}

/// Runs the prelude's `configure` (globals removed, web globals and the
/// animator installed, determinism if asked) and takes the functions it returns.
fn configure(
    runtime: &mut JsRuntime,
    startup: &Startup,
    prepared: &boot::Prepared,
    determinism: Option<crate::Determinism>,
    shared_marker: &str,
) -> Result<Prelude, SandboxError> {
    let engine_error = |message: &str| SandboxError::Engine(message.to_string());
    let boot::Boot {
        configure,
        animator,
        web,
    } = boot::take(runtime, startup, prepared)?;
    let config = json!({
        "deterministic": determinism.map(|d| json!({"nowMs": d.now_ms, "seed": d.seed})),
        "sharedMarker": shared_marker,
    });
    deno_core::scope!(scope, runtime);
    let configure = v8::Local::new(scope, configure);
    let configure = v8::Local::<v8::Function>::try_from(configure)
        .map_err(|_| engine_error("prelude did not return a function"))?;
    let config = deno_core::serde_v8::to_v8(scope, &config)
        .map_err(|e| SandboxError::Engine(e.to_string()))?;
    let animator = v8::Local::new(scope, animator);
    let web = v8::Local::new(scope, web);
    let undefined = v8::undefined(scope).into();
    let api = configure
        .call(scope, undefined, &[config, animator, web])
        .ok_or_else(|| engine_error("prelude configuration threw"))?;
    let api = v8::Local::<v8::Object>::try_from(api)
        .map_err(|_| engine_error("prelude returned no API object"))?;
    let get = |scope: &mut v8::PinScope, name: &str| {
        let key = v8::String::new(scope, name)?;
        let f = api.get(scope, key.into())?;
        let f = v8::Local::<v8::Function>::try_from(f).ok()?;
        Some(v8::Global::new(scope, f))
    };
    match (
        get(scope, "invoke"),
        get(scope, "exportsOf"),
        get(scope, "takeSettled"),
    ) {
        (Some(invoke), Some(exports_of), Some(take_settled)) => Ok(Prelude {
            invoke,
            exports_of,
            take_settled,
        }),
        _ => Err(engine_error("prelude API is incomplete")),
    }
}

impl Engine {
    /// An engine whose modules are jailed under `root`, started as `options` say.
    pub fn new(root: PathBuf, options: SandboxOptions) -> Result<Engine, SandboxError> {
        let SandboxOptions {
            limits,
            determinism,
            measure_heap,
            isolation: _,
            coverage,
            startup,
        } = options;
        crate::disable_engine_disk_cache();
        let jail = Rc::new(Jail::new(root));
        let prepared = boot::prepare(startup)?;
        let mut runtime = start_runtime(&jail, &limits, startup, prepared, coverage)?;
        let coverage = coverage.then(|| coverage::Session::start(&runtime));
        let isolate = runtime.v8_isolate().thread_safe_handle();
        // Host calls end the call through it when the host reports a write limit.
        runtime.op_state().borrow_mut().put(isolate.clone());
        let memory_hit = cap_heap(&mut runtime, isolate.clone());
        let watchdog = Watchdog::start(isolate).map_err(|e| SandboxError::Engine(e.to_string()))?;
        let tokio = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .map_err(|e| SandboxError::Engine(e.to_string()))?;
        // Kept values may weigh a sixteenth of the heap cap (JSON text and
        // 40 bytes per value), a few times that as engine values.
        let keeper = Keeper::new((limits.max_heap_bytes / 16) as usize);
        let prelude = configure(
            &mut runtime,
            startup,
            prepared,
            determinism,
            keeper.marker(),
        )?;
        Ok(Engine {
            runtime,
            jail,
            invoke: prelude.invoke,
            exports_of: prelude.exports_of,
            take_settled: prelude.take_settled,
            modules: HashMap::new(),
            entries: HashMap::new(),
            namespaces: HashMap::new(),
            watchdog,
            memory_hit,
            tokio,
            limits,
            measure_heap,
            animates: startup.animator.is_some(),
            keeper,
            live_specs: LiveSpecs::default(),
            poisoned: false,
            coverage,
        })
    }
}
