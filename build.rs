//! Makes the startup snapshot under QuickJS: deno_core's bootstrap with the
//! prelude and the host facade evaluated, so a runtime starts by restoring
//! that state instead of running the JavaScript again (`src/sandbox/boot.rs`).
//! The snapshot is the engine's in-memory layout, made by running the engine
//! on the build machine, so a cross-compiled build goes without one.

/// The global the snapshot keeps `[configure, facadeFactory]` under; a
/// runtime takes and deletes it before any hook code runs.
const BOOT_GLOBAL: &str = "__hookrunBoot";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=js/prelude.js");
    println!("cargo:rerun-if-changed=js/facade.js");
    println!("cargo:rerun-if-changed=js/host-api.json");
    println!("cargo:rerun-if-changed=js/web.js");
    println!("cargo:rustc-env=HOOKRUN_BOOT_GLOBAL={BOOT_GLOBAL}");
    println!("cargo::rustc-check-cfg=cfg(hookrun_snapshot)");
    #[cfg(feature = "quickjs")]
    if std::env::var("TARGET") == std::env::var("HOST") {
        snapshot::write();
        println!("cargo:rustc-cfg=hookrun_snapshot");
    } else {
        println!("cargo:warning=cross-compiling: runtimes start without a startup snapshot");
    }
}

#[cfg(feature = "quickjs")]
#[path = "src/sandbox/process.rs"]
mod process;

#[cfg(feature = "quickjs")]
#[path = "src/sandbox/scripts.rs"]
mod scripts;

#[cfg(feature = "quickjs")]
mod snapshot {
    use std::path::PathBuf;

    use deno_core::{JsRuntimeForSnapshot, RuntimeOptions, v8};

    pub fn write() {
        // The engine would otherwise cache the scripts' bytecode in the
        // builder's home directory.
        super::process::disable_engine_disk_cache();
        let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
        let out = PathBuf::from(out_dir).join("startup.snap");

        let mut runtime = JsRuntimeForSnapshot::new(RuntimeOptions::default());
        let mut evaluate = |(name, source): (&'static str, &'static str)| {
            runtime
                .execute_script(name, source)
                .unwrap_or_else(|e| panic!("{name} failed while making the startup snapshot: {e}"))
        };
        let configure = evaluate(super::scripts::PRELUDE);
        let facade = evaluate(super::scripts::FACADE);
        let web = evaluate(super::scripts::WEB);
        {
            deno_core::scope!(scope, &mut runtime);
            let pair = [configure, facade, web].map(|value| v8::Local::new(scope, value));
            let pair = v8::Array::new_with_elements(scope, &pair);
            let key = v8::String::new(scope, super::BOOT_GLOBAL).expect("a short ASCII key");
            let global = scope.get_current_context().global(scope);
            global.set(scope, key.into(), pair.into());
        }
        let snapshot = runtime.snapshot();
        std::fs::write(&out, snapshot)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    }
}
