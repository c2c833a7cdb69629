//! Typed calls of the four hooks (`preflight`, `buildRequest`,
//! `normalizeSettings`, `applyResult`) and validation of what they return.

pub mod bridge;
pub mod call;
pub mod check;
pub mod live;
pub mod preflight;
mod startup;

pub use call::{
    CallUnit, FailureOutcome, HookEnv, HookFailure, HookRecord, InvocationMode, RuntimeInfo,
    hook_arg,
};
pub use check::{CheckReport, CheckedWorkflow, check, check_hooks, check_library};
pub use live::{Live, Step};
pub use preflight::{
    Aggregate, PreflightOutcome, ReplacementUnit, ShortCircuitApply, parse_outcome,
};
pub use startup::{STARTUP, bridge_error, sandbox_options};
