//! What a new runtime starts from: deno_core's bootstrap with the prelude
//! (`js/prelude.js`) and the host facade (`js/facade.js`) evaluated.
//!
//! Under QuickJS, `build.rs` evaluates them once and stores the result as a
//! startup snapshot in the binary (`cfg(hookrun_snapshot)`); a runtime
//! restores it, which costs about a quarter of running the bootstrap again.
//! Under V8, and when cross-compiling, every runtime evaluates the scripts
//! itself. Either way the prelude's `configure` then runs per runtime, with
//! that runtime's options and ops.

use deno_core::{JsRuntime, v8};

use super::SandboxError;

/// The snapshot a runtime starts from, if the engine has one.
#[cfg(hookrun_snapshot)]
pub(crate) const SNAPSHOT: Option<&'static [u8]> =
    Some(include_bytes!(concat!(env!("OUT_DIR"), "/startup.snap")));

/// The snapshot a runtime starts from, if the engine has one.
#[cfg(not(hookrun_snapshot))]
pub(crate) const SNAPSHOT: Option<&'static [u8]> = None;

/// The prelude's `configure` and the facade's factory of a runtime that just
/// started, before any hook code ran in it.
pub(crate) struct Boot {
    pub configure: v8::Global<v8::Value>,
    pub facade: v8::Global<v8::Value>,
    pub web: v8::Global<v8::Value>,
}

/// Takes the values the snapshot keeps on the global object, and deletes them.
#[cfg(hookrun_snapshot)]
pub(crate) fn take(runtime: &mut JsRuntime) -> Result<Boot, SandboxError> {
    let missing = || SandboxError::Engine("the startup snapshot holds no prelude".into());
    deno_core::scope!(scope, runtime);
    let global = scope.get_current_context().global(scope);
    let key = v8::String::new(scope, env!("HOOKRUN_BOOT_GLOBAL")).ok_or_else(missing)?;
    let pair = global.get(scope, key.into()).ok_or_else(missing)?;
    let pair = v8::Local::<v8::Array>::try_from(pair).map_err(|_| missing())?;
    if global.delete(scope, key.into()) != Some(true) {
        return Err(missing());
    }
    let item = |index| {
        let value = pair.get_index(scope, index).ok_or_else(missing)?;
        Ok::<_, SandboxError>(v8::Global::new(scope, value))
    };
    Ok(Boot {
        configure: item(0)?,
        facade: item(1)?,
        web: item(2)?,
    })
}

/// Evaluates the prelude and the facade in a runtime that just started.
#[cfg(not(hookrun_snapshot))]
pub(crate) fn take(runtime: &mut JsRuntime) -> Result<Boot, SandboxError> {
    let mut evaluate = |(name, source): (&'static str, &'static str)| {
        runtime
            .execute_script(name, source)
            .map_err(|e| SandboxError::Engine(format!("{name} failed: {e}")))
    };
    Ok(Boot {
        configure: evaluate(super::scripts::PRELUDE)?,
        facade: evaluate(super::scripts::FACADE)?,
        web: evaluate(super::scripts::WEB)?,
    })
}
