//! Typed calls of the four hooks (`preflight`, `buildRequest`,
//! `normalizeSettings`, `applyResult`) and validation of what they return.

pub(crate) mod bridge;
mod call;
pub mod check;
mod live;
pub mod preflight;
mod startup;

pub(crate) use call::{CallUnit, HookEnv, hook_arg};
pub use call::{FailureOutcome, HookFailure, HookRecord, InvocationMode, RuntimeInfo};
pub use check::{CheckReport, CheckedWorkflow, check, check_hooks, check_library};
pub(crate) use live::{Live, Step};
pub use preflight::{
    Aggregate, PreflightOutcome, ReplacementUnit, ShortCircuitApply, parse_outcome,
};
pub use startup::{STARTUP, bridge_error, sandbox_options};
