//! Where the results of provider requests come from.
//!
//! The pass-through provider runs locally. Every other request is handed to a
//! [`ResultSource`] the caller implements: a runner host dispatches it to its
//! backend; the CLI answers from the fixture.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;

use serde::Serialize;
use serde_json::{Map, Value};

/// A request handed to the caller for a result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobRequest {
    /// 0-based index of the request in the run.
    pub index: usize,
    /// The planned unit it belongs to.
    pub unit_id: String,
    /// The preflight unit id (`main`, or a replacement unit's id).
    pub subunit_id: String,
    /// The request payload.
    pub request: Value,
}

impl JobRequest {
    /// The fixture key of this request: the unit id, with `/<subunit>` for
    /// replacement units.
    pub fn key(&self) -> String {
        if self.subunit_id == "main" {
            self.unit_id.clone()
        } else {
            format!("{}/{}", self.unit_id, self.subunit_id)
        }
    }
}

/// A result bundle delivered with a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BundleSource {
    /// Zip bytes.
    ZipBytes(Vec<u8>),
    /// A zip file on disk.
    ZipFile(PathBuf),
    /// An extracted bundle directory.
    Dir(PathBuf),
}

/// The provider's answer to one request.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ProviderResult {
    /// The request succeeded.
    Succeeded {
        /// The provider's request id; one is made up when absent.
        request_id: Option<String>,
        /// The result JSON, when the provider returns one.
        result_json: Option<Value>,
        /// The result bundle, when the provider returns one.
        bundle: Option<BundleSource>,
        /// Further run-result fields (`resultJsonPath`, `workspaceDir`, …).
        extra: Map<String, Value>,
    },
    /// The request failed.
    Failed {
        /// Why.
        message: String,
    },
}

/// Answers requests synchronously.
pub trait ResultSource {
    /// The result of `job`.
    fn result(&mut self, job: &JobRequest) -> ProviderResult;
}

/// Answers requests asynchronously; wrap it in [`Blocking`] to run a workflow.
pub trait AsyncResultSource {
    /// The result of `job`.
    fn result<'a>(
        &'a mut self,
        job: &'a JobRequest,
    ) -> Pin<Box<dyn Future<Output = ProviderResult> + 'a>>;
}

/// Drives an [`AsyncResultSource`] to completion for each request. Runs must be
/// started on a thread that may block (e.g. `tokio::task::spawn_blocking`).
pub struct Blocking<S>(pub S);

impl<S: AsyncResultSource> ResultSource for Blocking<S> {
    fn result(&mut self, job: &JobRequest) -> ProviderResult {
        crate::sandbox::block_on(self.0.result(job))
    }
}

/// A source that answers no request: every non-pass-through request fails.
pub struct NoResults;

impl ResultSource for NoResults {
    fn result(&mut self, job: &JobRequest) -> ProviderResult {
        ProviderResult::Failed {
            message: format!(
                "no result was supplied for request {} of {}; give one in the fixture's \"results\"",
                job.index,
                job.key()
            ),
        }
    }
}
