//! Requests: the declarative compiler, post-processing of built requests and the payload
//! contracts of every request kind (`contract/04-requests-and-bundles.md` §1–§5,
//! `contract/03-hooks.md` §3).
//!
//! - [`compile()`] builds the request a workflow declares, for one unit, in the unit's
//!   selection shape (canonical units get `sourceAttachmentRefs`/`targetParentRef`,
//!   grouped units `sourceAttachmentPaths`/`targetParentID`);
//! - [`finish`] post-processes any built request (hook output or compiled): object check,
//!   enrichment, Skill-Runner normalisation, contract check;
//! - [`check_payload`] is the dispatch check of kind, backend, provider and payload;
//! - [`pass_through_result`] is the pass-through provider.
//!
//! ```
//! use hookrun_contract::request::{ProviderRequestContractError, check_payload};
//! use serde_json::json;
//!
//! let payload = json!({"kind": "generic-http.request.v1", "request": {"method": "POST"}});
//! let err: ProviderRequestContractError =
//!     check_payload("generic-http.request.v1", &payload, "generic-http", "generic-http")
//!         .unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "Provider request contract error (category=request_payload_invalid, \
//!      reason=invalid_request_payload, requestKind=generic-http.request.v1, \
//!      backendType=, providerId=, detail=payload.request.path must be non-empty string)"
//! );
//! ```

pub mod compile;
pub mod contract;
mod enrich;
pub mod error;
pub mod files;
mod finish;
pub mod kind;
mod normalize;
pub mod pass_through;
mod task_name;
mod unit;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use compile::compile;
pub use contract::{check_payload, check_payload_contract, resolve_kind};
pub use error::{ContractCategory, ContractReason, ProviderRequestContractError, RequestError};
pub use files::{AttachmentFiles, AttachmentRef};
pub use finish::finish;
pub use kind::{RequestKind, SYNTHETIC_KINDS, declared_kind};
pub use pass_through::{pass_through_request_id, pass_through_result};

/// `executionOptions` of a run, as hooks and the compiler see them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecutionOptions {
    /// Explicit workflow parameter values (the compiler overlays them on the defaults).
    #[serde(default)]
    pub workflow_params: Map<String, Value>,
    /// Provider options (passed to hooks; the compiler does not read them).
    #[serde(default)]
    pub provider_options: Map<String, Value>,
}

#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
