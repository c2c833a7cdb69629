//! The scripts a runtime starts with, in order, as `(name, source)`: the
//! prelude, whose completion value is its `configure`, then the host facade,
//! whose completion value is the facade factory, then the web-platform globals,
//! whose completion value is their installer. `build.rs` evaluates them
//! into the startup snapshot; without one, `boot.rs` evaluates them in each
//! runtime.

/// The prelude (`js/prelude.js`).
pub(crate) const PRELUDE: (&str, &str) = ("hookrun:prelude", include_str!("../../js/prelude.js"));

/// The web-platform globals (`js/web.js`), whose completion value is their installer.
pub(crate) const WEB: (&str, &str) = ("hookrun:web", include_str!("../../js/web.js"));

/// The host facade (`js/facade.js`), applied to the Host API declaration
/// (`js/host-api.json`).
pub(crate) const FACADE: (&str, &str) = (
    "hookrun:facade",
    concat!(
        include_str!("../../js/facade.js"),
        "(",
        include_str!("../../js/host-api.json"),
        ");"
    ),
);
