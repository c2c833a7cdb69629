//! Request kind resolution, the provider/backend pairs each kind allows and the payload
//! contract of each kind (`04-requests-and-bundles.md` §1–§3), as the reference host's
//! provider request contracts check them.
//!
//! Every failure is a [`ProviderRequestContractError`]. Payload failures name the field by
//! its path from `payload`, e.g. `payload.upload_files contains duplicated key: source`.

mod acp;
mod http;
mod pass_through;
mod rules;
mod skillrunner_job;
mod skillrunner_sequence;

use serde_json::Value;

pub(crate) use skillrunner_job::EXECUTION_MODES;

use crate::request::error::{ContractReason, ProviderRequestContractError};
use crate::request::kind::RequestKind;

/// The dispatch check, in the reference host's order:
/// 1. `kind` must be a known, dispatchable kind ([`resolve_kind`]);
/// 2. `backend_type` must be one the kind accepts (`backend_type_mismatch`, naming the
///    kind's primary provider and the accepted backend types);
/// 3. `provider_id` must be one the kind accepts (`provider_type_mismatch`, no backend);
/// 4. provider and backend must form one of the kind's pairs (every pair has the provider
///    named like its backend type);
/// 5. `payload` must satisfy the kind's contract for that provider (the error names
///    neither backend nor provider).
pub fn check_payload(
    kind: &str,
    payload: &Value,
    backend_type: &str,
    provider_id: &str,
) -> Result<(), ProviderRequestContractError> {
    let resolved = resolve_kind(kind)?;
    let name = resolved.as_str();
    let (backend, provider) = (backend_type.trim(), provider_id.trim());
    let pairs = resolved.accepted_backends();
    let fail = |reason, backend: &str, provider: &str, detail: String| {
        ProviderRequestContractError::new(reason, name, backend, provider, Some(detail))
    };
    let expected = |what: &str| format!("expected {what}={}", pairs.join("|"));
    if !pairs.contains(&backend) {
        let primary = pairs.first().copied().unwrap_or_default();
        let detail = expected("backendType");
        return Err(fail(
            ContractReason::BackendTypeMismatch,
            backend,
            primary,
            detail,
        ));
    }
    if !pairs.contains(&provider) {
        let detail = expected("providerId");
        return Err(fail(
            ContractReason::ProviderTypeMismatch,
            "",
            provider,
            detail,
        ));
    }
    if provider != backend {
        let detail = "request kind does not allow this provider/backend pair".to_string();
        return Err(fail(
            ContractReason::BackendTypeMismatch,
            backend,
            provider,
            detail,
        ));
    }
    check_contract(resolved, payload, provider)
}

/// The post-build check (`03-hooks.md` §3 step 4): `kind` must be known and `payload` must
/// satisfy its contract with no provider involved, so `backendType` and `providerId` are
/// empty in the error.
pub fn check_payload_contract(
    kind: &str,
    payload: &Value,
) -> Result<(), ProviderRequestContractError> {
    check_contract(resolve_kind(kind)?, payload, "")
}

/// The dispatchable kind named `kind` (surrounding whitespace ignored): a blank kind is
/// `request_kind_missing` (detail `requestKind is required`); any other unknown kind,
/// either synthetic kind included, is `unsupported_request_kind` without a detail. The
/// error names neither backend nor provider.
pub fn resolve_kind(kind: &str) -> Result<RequestKind, ProviderRequestContractError> {
    let fail = |reason, detail: Option<&str>| {
        ProviderRequestContractError::new(reason, kind, "", "", detail.map(str::to_string))
    };
    if kind.trim().is_empty() {
        return Err(fail(
            ContractReason::RequestKindMissing,
            Some("requestKind is required"),
        ));
    }
    RequestKind::parse(kind).ok_or_else(|| fail(ContractReason::UnsupportedRequestKind, None))
}

/// The payload rules of `kind` for `provider_id`: an object, whose `kind` equals the
/// expected one (except for the two generic-http kinds), then the kind's own rules.
fn check_contract(
    kind: RequestKind,
    payload: &Value,
    provider_id: &str,
) -> Result<(), ProviderRequestContractError> {
    payload_rules(kind, payload, provider_id).map_err(|detail| {
        ProviderRequestContractError::new(
            ContractReason::InvalidRequestPayload,
            kind.as_str(),
            "",
            "",
            Some(detail),
        )
    })
}

/// The detail of the first payload rule of `kind` that `payload` breaks.
fn payload_rules(kind: RequestKind, payload: &Value, provider_id: &str) -> rules::Check {
    let Value::Object(payload) = payload else {
        return Err("payload must be object".into());
    };
    let is_http = matches!(
        kind,
        RequestKind::GenericHttpRequest | RequestKind::GenericHttpSteps
    );
    if !is_http && rules::text(payload.get("kind")) != kind.as_str() {
        return Err(format!("payload.kind must be {}", kind.as_str()));
    }
    match kind {
        RequestKind::PassThrough => pass_through::check(payload),
        RequestKind::SkillRunnerJob => skillrunner_job::check(payload, provider_id),
        RequestKind::SkillRunnerSequence => skillrunner_sequence::check(payload),
        RequestKind::GenericHttpRequest => http::check_request(payload),
        RequestKind::GenericHttpSteps => http::check_steps(payload),
        RequestKind::AcpPrompt => acp::check_prompt(payload),
        RequestKind::AcpSkillRun => acp::check_skill_run(payload),
    }
}

#[cfg(test)]
#[path = "skillrunner_tests.rs"]
mod skillrunner_tests;
#[cfg(test)]
mod tests;
