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

/// [`PRELUDE`]'s fingerprint, for snapshot tags.
const PRELUDE_FINGERPRINT: u64 = fingerprint(PRELUDE.source);

/// [`WEB`]'s fingerprint, for snapshot tags.
const WEB_FINGERPRINT: u64 = fingerprint(WEB.source);

/// A snapshot's tag: what a runtime checks a snapshot against before it trusts
/// the values kept in it (this crate's version and a fingerprint of each script).
pub(crate) fn tag(animator: Option<Script<'_>>) -> String {
    let animator = animator.map_or((0, ""), |s| (fingerprint(s.source), s.name));
    format!(
        "{} {PRELUDE_FINGERPRINT:016x} {}:{:016x} {WEB_FINGERPRINT:016x}",
        env!("CARGO_PKG_VERSION"),
        animator.1,
        animator.0,
    )
}

/// FNV-1a of `source`: tells scripts apart for [`tag`], at compile time for the
/// sandbox's own.
const fn fingerprint(source: &str) -> u64 {
    let bytes = source.as_bytes();
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut at = 0;
    while at < bytes.len() {
        hash = (hash ^ bytes[at] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        at += 1;
    }
    hash
}

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

/// What this process prepared for a startup, once: the snapshot its runtimes
/// restore and the tag that snapshot carries.
pub(crate) struct Prepared {
    /// The startup's own snapshot or, under QuickJS without one, a snapshot this
    /// process made of its scripts; `None` under V8.
    pub snapshot: Option<&'static [u8]>,
    /// [`tag`] of the startup's animator.
    tag: String,
}

/// What runtimes of `startup` start from, prepared at the first one and kept for
/// the life of the process (one per startup name).
pub(crate) fn prepare(startup: &'static Startup) -> Result<&'static Prepared, SandboxError> {
    static PREPARED: Mutex<Vec<(&'static str, &'static Prepared)>> = Mutex::new(Vec::new());
    let mut prepared = PREPARED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, ready)) = prepared.iter().find(|(name, _)| *name == startup.name) {
        return Ok(ready);
    }
    let snapshot = match startup.snapshot {
        None if cfg!(feature = "quickjs") => {
            Some(&*crate::snapshot::make(startup.animator)?.leak())
        }
        own => own,
    };
    let ready: &'static Prepared = Box::leak(Box::new(Prepared {
        snapshot,
        tag: tag(startup.animator),
    }));
    prepared.push((startup.name, ready));
    Ok(ready)
}

/// The start-up values of a runtime: taken (and deleted) from the global object
/// of one restored from `prepared`'s snapshot, or evaluated.
pub(crate) fn take(
    runtime: &mut JsRuntime,
    startup: &Startup,
    prepared: &Prepared,
) -> Result<Boot, SandboxError> {
    if prepared.snapshot.is_none() {
        return evaluate(runtime, startup.animator);
    }
    let missing = || SandboxError::Engine("the startup snapshot holds no prelude".into());
    let tag = &prepared.tag;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_change_with_the_animator_source() {
        let script = |source| Some(Script { name: "a", source });
        assert_ne!(tag(None), tag(script("x")));
        assert_ne!(tag(script("x")), tag(script("xy")));
        assert_ne!(tag(script("xy")), tag(script("yx")));
        assert_eq!(tag(script("x")), tag(script("x")));
    }

    #[test]
    #[cfg(feature = "quickjs")]
    fn snapshots_of_other_scripts_are_refused() {
        let script = |source| Script {
            name: "test:animator",
            source,
        };
        // Same name and length as the startup's animator, other source.
        let made = crate::snapshot::make(Some(script(
            "(hostCall, tools) => ({ animate: () => 1, finish() {} })",
        )))
        .expect("the scripts evaluate");
        let startup: &'static Startup = Box::leak(Box::new(Startup {
            name: "test:stale-snapshot",
            animator: Some(script(
                "(hostCall, tools) => ({ animate: () => 2, finish() {} })",
            )),
            snapshot: Some(made.leak()),
            ..Startup::BARE
        }));
        let dir = tempfile::tempdir().expect("a temporary directory");
        let options = crate::SandboxOptions {
            startup,
            ..crate::SandboxOptions::default()
        };
        let refused = crate::engine::Engine::new(dir.path().into(), options)
            .err()
            .expect("the stale snapshot is refused");
        assert!(
            refused.to_string().contains("made from other scripts"),
            "{refused}"
        );
    }
}
