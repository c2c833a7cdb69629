//! Request kind resolution, kind/backend compatibility and the payload contract of each
//! kind (`04-requests-and-bundles.md` §1–§3).
//!
//! Every failure is a [`ProviderRequestContractError`] whose `detail` names the field that
//! broke the rule, e.g. `upload_files[1].key duplicated: source`.

mod acp;
mod http;
mod pass_through;
mod rules;
mod skillrunner_job;
mod skillrunner_sequence;

use serde_json::Value;

pub(crate) use skillrunner_job::EXECUTION_MODES;

use crate::request::error::{ContractReason, ProviderRequestContractError};
use crate::request::kind::{RequestKind, SYNTHETIC_KINDS};

/// The dispatch check: `kind` must be a known, dispatchable kind, accepted by
/// `backend_type` and `provider_id` (§1; a workflow's provider is its backend type), and
/// `payload` must satisfy the kind's contract (§2).
pub fn check_payload(
    kind: &str,
    payload: &Value,
    backend_type: &str,
    provider_id: &str,
) -> Result<(), ProviderRequestContractError> {
    let fail = |reason, detail: String| {
        ProviderRequestContractError::new(reason, kind, backend_type, provider_id, Some(detail))
    };
    let resolved = resolve_kind(kind, backend_type, provider_id)?;
    let accepted = resolved.accepted_backends();
    let expected = |what: &str| format!("expected {what}={}", accepted.join("|"));
    if !accepted.contains(&backend_type.trim()) {
        return Err(fail(
            ContractReason::BackendTypeMismatch,
            expected("backendType"),
        ));
    }
    if !accepted.contains(&provider_id.trim()) {
        return Err(fail(
            ContractReason::ProviderTypeMismatch,
            expected("providerId"),
        ));
    }
    check_contract(resolved, payload)
        .map_err(|detail| fail(ContractReason::InvalidRequestPayload, detail))
}

/// The post-build check (`03-hooks.md` §3 step 4): `kind` must be known and `payload` must
/// satisfy its contract. No backend is involved, so `backendType` and `providerId` are
/// empty in the error.
pub fn check_payload_contract(
    kind: &str,
    payload: &Value,
) -> Result<(), ProviderRequestContractError> {
    let resolved = resolve_kind(kind, "", "")?;
    check_contract(resolved, payload).map_err(|detail| {
        ProviderRequestContractError::new(
            ContractReason::InvalidRequestPayload,
            kind,
            "",
            "",
            Some(detail),
        )
    })
}

/// The dispatchable kind named `kind`: a blank kind is `request_kind_missing`; an unknown
/// kind, and either synthetic kind, is `unsupported_request_kind`.
pub fn resolve_kind(
    kind: &str,
    backend_type: &str,
    provider_id: &str,
) -> Result<RequestKind, ProviderRequestContractError> {
    let fail = |reason, detail: Option<&str>| {
        ProviderRequestContractError::new(
            reason,
            kind,
            backend_type,
            provider_id,
            detail.map(str::to_string),
        )
    };
    if kind.trim().is_empty() {
        return Err(fail(
            ContractReason::RequestKindMissing,
            Some("requestKind is required"),
        ));
    }
    if SYNTHETIC_KINDS.contains(&kind.trim()) {
        return Err(fail(
            ContractReason::UnsupportedRequestKind,
            Some("synthetic request kinds are never dispatched"),
        ));
    }
    RequestKind::parse(kind).ok_or_else(|| fail(ContractReason::UnsupportedRequestKind, None))
}

/// The payload rules of `kind`: an object whose `kind` equals it, then the kind's own rules.
fn check_contract(kind: RequestKind, payload: &Value) -> rules::Check {
    let payload = payload.as_object().ok_or("payload must be an object")?;
    if payload.get("kind").and_then(Value::as_str).map(str::trim) != Some(kind.as_str()) {
        return Err(format!("kind must be {}", kind.as_str()));
    }
    match kind {
        RequestKind::PassThrough => pass_through::check(payload),
        RequestKind::SkillRunnerJob => skillrunner_job::check(payload),
        RequestKind::SkillRunnerSequence => skillrunner_sequence::check(payload),
        RequestKind::GenericHttpRequest => http::check_request(payload),
        RequestKind::GenericHttpSteps => http::check_steps(payload),
        RequestKind::AcpPrompt => acp::check_prompt(payload),
        RequestKind::AcpSkillRun => acp::check_skill_run(payload),
    }
}

#[cfg(test)]
mod tests;
