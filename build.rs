//! Prepares the host facade's start-up script (`js/facade.js` applied to the
//! Host API declaration `js/host-api.json`, written to `OUT_DIR/facade.js`)
//! and, under QuickJS, a startup snapshot of the sandbox's scripts with it
//! evaluated (`OUT_DIR/startup.snap`), so a runtime starts by restoring that
//! state instead of running the JavaScript again (`src/hooks/startup.rs`).
//! The snapshot is the engine's in-memory layout, made by running the engine
//! on the build machine, so a cross-compiled build goes without one.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=js/facade.js");
    println!("cargo:rerun-if-changed=js/host-api.json");
    println!("cargo::rustc-check-cfg=cfg(hookrun_snapshot)");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let facade = format!("{}({});", read("js/facade.js"), read("js/host-api.json"));
    write(&out.join("facade.js"), facade.as_bytes());
    #[cfg(feature = "quickjs")]
    if std::env::var("TARGET") == std::env::var("HOST") {
        let animator = hookrun_sandbox::Script {
            name: "hookrun:facade",
            source: &facade,
        };
        let snapshot = hookrun_sandbox::snapshot::make(Some(animator))
            .unwrap_or_else(|e| panic!("cannot make the startup snapshot: {e}"));
        write(&out.join("startup.snap"), &snapshot);
        println!("cargo:rustc-cfg=hookrun_snapshot");
    } else {
        println!("cargo:warning=cross-compiling: runtimes start without a startup snapshot");
    }
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
