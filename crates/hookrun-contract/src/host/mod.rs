//! The world hooks and the planner may read (library facts, attachment files) and
//! the record of what hooks wrote.

pub mod answers;
pub mod api;
pub mod budget;
pub mod effects;
pub mod error;
pub(crate) mod js_value;
pub mod members;
pub mod overlay;
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod overlay_model;
pub mod path;
pub mod products;
pub mod redact;
pub mod session;
pub mod world;

pub use budget::{Breach, Budget};
pub use error::{HOST_ERROR_SCHEMA, HostError};
pub use path::{HostPath, PathError};
pub use session::{BUNDLES_DIR, HookHost, HostSettings};
