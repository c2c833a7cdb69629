//! What a new runtime starts from: deno_core's bootstrap with the prelude
//! (`js/prelude.js`), the caller's animator ([`Startup::animator`]) and the
//! web-platform globals (`js/web.js`) evaluated.
//!
//! Under QuickJS a runtime restores that state from a startup snapshot, which
//! costs about a quarter of running the bootstrap again: the startup's own
//! ([`Startup::snapshot`], made at build time) or, without one, a snapshot this
//! process makes of the startup's scripts when it first starts a runtime with
//! them. (A QuickJS runtime that evaluated the scripts itself would also keep
//! about 0.9 MB after it is dropped; see `docs/engine-patches.md`.) Under V8
//! every runtime evaluates the scripts itself. Either way the prelude's
//! `configure` then runs per runtime, with that runtime's options and ops.

use std::sync::Mutex;

use deno_core::{JsRuntime, v8};

use super::SandboxError;
use super::startup::{Script, Startup};

/// The prelude, whose completion value is its `configure`.
pub(crate) const PRELUDE: Script<'static> = Script {
    name: "hookrun:prelude",
    source: include_str!("../js/prelude.js"),
};

/// The web-platform globals, whose completion value is their installer.
pub(crate) const WEB: Script<'static> = Script {
    name: "hookrun:web",
    source: include_str!("../js/web.js"),
};

/// The global a snapshot keeps `[tag, configure, animator, web]` under; a
/// runtime takes and deletes it before any hook code runs.
pub(crate) const BOOT_GLOBAL: &str = "__hookrunBoot";

/// The prelude's `configure`, the animator factory (`undefined` without one)
/// and the web installer of a runtime that just started, before any hook code
/// ran in it.
pub(crate) struct Boot {
    pub configure: v8::Global<v8::Value>,
    pub animator: v8::Global<v8::Value>,
    pub web: v8::Global<v8::Value>,
}

/// Evaluates the start-up scripts in `runtime`, in order: the prelude, the
/// animator, the web globals.
pub(crate) fn evaluate(
    runtime: &mut JsRuntime,
    animator: Option<Script<'_>>,
) -> Result<Boot, SandboxError> {
    let mut evaluate = |script: Script<'_>| {
        runtime
            .execute_script(script.name.to_string(), script.source.to_string())
            .map_err(|e| SandboxError::Engine(format!("{} failed: {e}", script.name)))
    };
    let configure = evaluate(PRELUDE)?;
    let animator = match animator {
        Some(script) => evaluate(script)?,
        None => evaluate(Script {
            name: "hookrun:no-animator",
            source: "undefined",
        })?,
    };
    let web = evaluate(WEB)?;
    Ok(Boot {
        configure,
        animator,
        web,
    })
}

/// The snapshot runtimes of `startup` start from: its own, or one made in this
/// process at first use (QuickJS), kept for the life of the process (one per
/// startup name).
pub(crate) fn snapshot(startup: &Startup) -> Result<Option<&'static [u8]>, SandboxError> {
    if startup.snapshot.is_some() || cfg!(not(feature = "quickjs")) {
        return Ok(startup.snapshot);
    }
    static MADE: Mutex<Vec<(&'static str, &'static [u8])>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, bytes)) = made.iter().find(|(name, _)| *name == startup.name) {
        return Ok(Some(bytes));
    }
    let bytes: &'static [u8] = crate::snapshot::make(startup.animator)?.leak();
    made.push((startup.name, bytes));
    Ok(Some(bytes))
}

/// The start-up values of a runtime: taken (and deleted) from the global object
/// of one `restored` from `startup`'s snapshot, or evaluated.
pub(crate) fn take(
    runtime: &mut JsRuntime,
    startup: &Startup,
    restored: bool,
) -> Result<Boot, SandboxError> {
    if !restored {
        return evaluate(runtime, startup.animator);
    }
    let missing = || SandboxError::Engine("the startup snapshot holds no prelude".into());
    let tag = Startup::tag(startup.animator);
    deno_core::scope!(scope, runtime);
    let global = scope.get_current_context().global(scope);
    let key = v8::String::new(scope, BOOT_GLOBAL).ok_or_else(missing)?;
    let kept = global.get(scope, key.into()).ok_or_else(missing)?;
    let kept = v8::Local::<v8::Array>::try_from(kept).map_err(|_| missing())?;
    if global.delete(scope, key.into()) != Some(true) {
        return Err(missing());
    }
    let item = |index| {
        let value = kept.get_index(scope, index).ok_or_else(missing)?;
        Ok::<_, SandboxError>(v8::Global::new(scope, value))
    };
    let made_from = kept
        .get_index(scope, 0)
        .map(|value| value.to_rust_string_lossy(scope));
    if made_from.as_deref() != Some(tag.as_str()) {
        return Err(SandboxError::Engine(format!(
            "the startup snapshot of {} was made from other scripts ({}, expected {tag}); make it again with snapshot::make",
            startup.name,
            made_from.unwrap_or_default()
        )));
    }
    Ok(Boot {
        configure: item(1)?,
        animator: item(2)?,
        web: item(3)?,
    })
}
