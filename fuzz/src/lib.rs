//! hookrun's pure-Rust modules, compiled from the main crate's sources without the
//! JavaScript engine: the fuzz targets build quickly and the sanitizers see Rust only.
//! The included modules refer to each other as `crate::…`, which resolves here too.

#[path = "../../src/bundle/mod.rs"]
pub mod bundle;
#[path = "../../src/manifest/mod.rs"]
pub mod manifest;
#[path = "../../src/plan/mod.rs"]
pub mod plan;
#[path = "../../src/pointer.rs"]
pub mod pointer;
#[path = "../../src/selection/mod.rs"]
pub mod selection;
#[path = "../../src/walk.rs"]
pub mod walk;
