//! Startup snapshots, made by a caller's build script: deno_core's bootstrap
//! with the sandbox's scripts and the caller's animator evaluated, stored as
//! the engine's in-memory layout so a runtime restores it instead of running
//! the JavaScript again.
//!
//! The snapshot must be made by the same build of the engine that restores it:
//! a build script that depends on this crate (with the same features and
//! profile settings, so Cargo builds it once) and does not cross-compile.
//!
//! ```no_run
//! // build.rs
//! use hookrun_sandbox::Script;
//!
//! let animator = Script { name: "myhost:animator", source: "(hostCall, tools) => ({ animate: (a) => a, finish() {} })" };
//! let bytes = hookrun_sandbox::snapshot::make(Some(animator)).expect("the scripts evaluate");
//! let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("startup.snap");
//! std::fs::write(out, bytes).unwrap();
//! // The library then names it in its Startup:
//! // snapshot: Some(include_bytes!(concat!(env!("OUT_DIR"), "/startup.snap"))),
//! ```

use deno_core::{JsRuntimeForSnapshot, RuntimeOptions, v8};

use super::SandboxError;
use super::boot;
use super::startup::Script;

/// A startup snapshot holding the sandbox's scripts and `animator`, evaluated.
///
/// Snapshots restore under QuickJS only; under V8 this returns one that the
/// engine cannot restore, so callers make one only for QuickJS builds.
pub fn make(animator: Option<Script<'_>>) -> Result<Vec<u8>, SandboxError> {
    // The engine would otherwise cache the scripts' bytecode in the builder's
    // home directory.
    super::disable_engine_disk_cache();
    let mut runtime = JsRuntimeForSnapshot::new(RuntimeOptions::default());
    let boot::Boot {
        configure,
        animator: factory,
        web,
    } = boot::evaluate(&mut runtime, animator)?;
    {
        deno_core::scope!(scope, &mut runtime);
        let engine = |what: &str| SandboxError::Engine(format!("cannot store the {what}"));
        let tag = v8::String::new(scope, &boot::tag(animator)).ok_or_else(|| engine("tag"))?;
        let mut kept = vec![tag.into()];
        kept.extend([configure, factory, web].map(|value| v8::Local::new(scope, value)));
        let kept = v8::Array::new_with_elements(scope, &kept);
        let key = v8::String::new(scope, boot::BOOT_GLOBAL).ok_or_else(|| engine("key"))?;
        let global = scope.get_current_context().global(scope);
        global
            .set(scope, key.into(), kept.into())
            .ok_or_else(|| engine("start-up values"))?;
    }
    Ok(runtime.snapshot().to_vec())
}
