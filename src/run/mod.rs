//! One workflow run: settings → plan → preflight → request → result → apply → report.
//!
//! Units go through the phases a window at a time and are handed to a
//! [`RunObserver`] as they are done: [`run`] collects them into a
//! [`RunReport`], [`JsonReportWriter`] writes the report's JSON as it goes.
//!
//! Hooks of one run share one runtime (module state persists across units, as
//! in the contract) unless [`RunOptions::fresh_runtime_per_unit`] is set, or
//! [`RunOptions::jobs`] spreads the units over the caller's thread and worker
//! threads with a runtime each; a runtime that breached a limit is never reused.
#![allow(
    clippy::result_large_err,
    reason = "run errors are made once per failure and carry what the report shows"
)]

mod apply;
mod driver;
mod embed;
pub mod expect;
mod fixture;
mod jobs;
mod normalize;
mod observer;
mod options;
mod parallel;
mod progress;
pub mod refs;
mod report;
mod results;
mod runner;
mod settings;
mod stream;
mod units;
mod world;

pub use driver::DEFAULT_WINDOW;
pub use embed::{SendResultSource, run_async};
pub use fixture::{Case, CaseError, CaseResult, CaseSelection, FixtureResults};
pub use observer::{Collector, EncodedUnit, RunObserver, UnitEncoder};
pub use options::{RunInput, RunOptions};
pub use progress::{Phase, Progress, ProgressHook};
pub use report::{
    AggregateReport, ApplyReport, JobKind, JobReport, RunError, RunReport, SettingsReport, Stage,
    Summary, UnitReport, UnitStatus,
};
pub use results::{
    AsyncResultSource, Blocking, BundleSource, JobRequest, NoResults, ProviderResult, ResultSource,
};
pub use runner::{run, run_observed};
pub use settings::{NormalizedParams, Settings, SettingsError, normalize_params};
pub use stream::JsonReportWriter;
pub use world::{Shape, SharedSource, WorldSpec, WorldSpecError};
