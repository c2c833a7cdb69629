//! Errors of request building and checking (`04-requests-and-bundles.md` §3).

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// `category` of a [`ProviderRequestContractError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContractCategory {
    /// `request_kind_unsupported`.
    RequestKindUnsupported,
    /// `provider_backend_mismatch`.
    ProviderBackendMismatch,
    /// `provider_contract_error`.
    ProviderContractError,
    /// `request_payload_invalid`.
    RequestPayloadInvalid,
}

impl ContractCategory {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::RequestKindUnsupported => "request_kind_unsupported",
            Self::ProviderBackendMismatch => "provider_backend_mismatch",
            Self::ProviderContractError => "provider_contract_error",
            Self::RequestPayloadInvalid => "request_payload_invalid",
        }
    }
}

/// `reason` of a [`ProviderRequestContractError`]; each reason belongs to one category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContractReason {
    /// `request_kind_missing` (category `request_kind_unsupported`).
    RequestKindMissing,
    /// `unsupported_request_kind` (category `request_kind_unsupported`).
    UnsupportedRequestKind,
    /// `backend_type_mismatch` (category `provider_backend_mismatch`).
    BackendTypeMismatch,
    /// `provider_type_mismatch` (category `provider_contract_error`).
    ProviderTypeMismatch,
    /// `invalid_request_payload` (category `request_payload_invalid`).
    InvalidRequestPayload,
}

impl ContractReason {
    /// The contract spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::RequestKindMissing => "request_kind_missing",
            Self::UnsupportedRequestKind => "unsupported_request_kind",
            Self::BackendTypeMismatch => "backend_type_mismatch",
            Self::ProviderTypeMismatch => "provider_type_mismatch",
            Self::InvalidRequestPayload => "invalid_request_payload",
        }
    }

    /// The category this reason is reported under.
    pub fn category(self) -> ContractCategory {
        match self {
            Self::RequestKindMissing | Self::UnsupportedRequestKind => {
                ContractCategory::RequestKindUnsupported
            }
            Self::BackendTypeMismatch => ContractCategory::ProviderBackendMismatch,
            Self::ProviderTypeMismatch => ContractCategory::ProviderContractError,
            Self::InvalidRequestPayload => ContractCategory::RequestPayloadInvalid,
        }
    }
}

/// A request kind or payload violation. Its message is
/// `Provider request contract error (category=…, reason=…, requestKind=…, backendType=…,
/// providerId=…[, detail=…])`; it serialises as `{name, message, category, reason,
/// requestKind, backendType, providerId, detail?}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Provider request contract error (category={}, reason={}, requestKind={request_kind}, \
     backendType={backend_type}, providerId={provider_id}{})",
    category.as_str(),
    reason.as_str(),
    detail_suffix(detail)
)]
pub struct ProviderRequestContractError {
    /// The category of `reason`.
    pub category: ContractCategory,
    /// Why the request was refused.
    pub reason: ContractReason,
    /// The request kind as given (trimmed); empty when unknown.
    pub request_kind: String,
    /// The backend type; empty for kind, provider and payload failures.
    pub backend_type: String,
    /// The provider id (the kind's primary provider for a backend mismatch); empty for kind
    /// and payload failures.
    pub provider_id: String,
    /// Which rule failed, in the reference host's words (payload rules name the field from
    /// `payload`, e.g. `payload.skill_id must be non-empty string`); `None` for unknown kinds.
    pub detail: Option<String>,
}

fn detail_suffix(detail: &Option<String>) -> String {
    match detail.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => format!(", detail={text}"),
        _ => String::new(),
    }
}

impl ProviderRequestContractError {
    /// The JavaScript error name, `ProviderRequestContractError`.
    pub const NAME: &'static str = "ProviderRequestContractError";

    /// An error for `reason` (its category follows from it).
    pub fn new(
        reason: ContractReason,
        request_kind: &str,
        backend_type: &str,
        provider_id: &str,
        detail: Option<String>,
    ) -> Self {
        Self {
            category: reason.category(),
            reason,
            request_kind: request_kind.trim().to_string(),
            backend_type: backend_type.trim().to_string(),
            provider_id: provider_id.trim().to_string(),
            detail,
        }
    }

    /// The JavaScript error name, `ProviderRequestContractError`.
    pub fn name(&self) -> &'static str {
        Self::NAME
    }
}

impl Serialize for ProviderRequestContractError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("ProviderRequestContractError", 8)?;
        s.serialize_field("name", self.name())?;
        s.serialize_field("message", &self.to_string())?;
        s.serialize_field("category", self.category.as_str())?;
        s.serialize_field("reason", self.reason.as_str())?;
        s.serialize_field("requestKind", &self.request_kind)?;
        s.serialize_field("backendType", &self.backend_type)?;
        s.serialize_field("providerId", &self.provider_id)?;
        if let Some(detail) = &self.detail {
            s.serialize_field("detail", detail)?;
        }
        s.end()
    }
}

/// Why a request could not be built or finished. Each variant's message is the contract
/// text; [`RequestError::name`] is the JavaScript error name for reports.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// The request violates its kind's contract, or its kind is unknown.
    #[error(transparent)]
    Contract(#[from] ProviderRequestContractError),
    /// `buildRequest` returned something other than a non-array object.
    #[error("buildRequest must return an object request payload")]
    NotAnObject,
    /// The workflow has neither a `buildRequest` hook nor a request kind.
    #[error("Workflow {workflow_id} missing buildRequest hook and request declaration")]
    MissingRequestDeclaration {
        /// The workflow id.
        workflow_id: String,
    },
    /// A known kind the declarative compiler has no branch for (`acp.*`).
    #[error("Unsupported declarative request kind: {kind}")]
    UnsupportedDeclarativeKind {
        /// The request kind.
        kind: String,
    },
    /// The unit has no target parent although the workflow requires a selection.
    #[error("Cannot resolve target parent item from selection context")]
    MissingTargetParent,
    /// The declaration cannot be compiled for this unit (the message says why: upload
    /// selectors, missing `request.*` members, unavailable files).
    #[error("{0}")]
    Invalid(String),
}

impl RequestError {
    /// The JavaScript error name: `ProviderRequestContractError` for contract errors,
    /// else `Error`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Contract(err) => err.name(),
            _ => "Error",
        }
    }
}
