use serde_json::json;

use crate::request::error::{ContractReason, ProviderRequestContractError, RequestError};

fn error(detail: Option<&str>) -> ProviderRequestContractError {
    ProviderRequestContractError::new(
        ContractReason::BackendTypeMismatch,
        "skillrunner.job.v1",
        "acp",
        "acp",
        detail.map(str::to_string),
    )
}

#[test]
fn display_with_and_without_detail() {
    assert_eq!(
        error(None).to_string(),
        "Provider request contract error (category=provider_backend_mismatch, \
         reason=backend_type_mismatch, requestKind=skillrunner.job.v1, backendType=acp, \
         providerId=acp)"
    );
    assert_eq!(
        error(Some("expected backendType=skillrunner|builtin-pi")).to_string(),
        "Provider request contract error (category=provider_backend_mismatch, \
         reason=backend_type_mismatch, requestKind=skillrunner.job.v1, backendType=acp, \
         providerId=acp, detail=expected backendType=skillrunner|builtin-pi)"
    );
    assert_eq!(error(Some("  ")).to_string(), error(None).to_string());
}

#[test]
fn serialises_with_contract_property_names() {
    let value = serde_json::to_value(error(Some("d"))).unwrap_or_default();
    assert_eq!(
        value,
        json!({"name": "ProviderRequestContractError", "message": error(Some("d")).to_string(),
            "category": "provider_backend_mismatch", "reason": "backend_type_mismatch",
            "requestKind": "skillrunner.job.v1", "backendType": "acp", "providerId": "acp",
            "detail": "d"})
    );
    let value = serde_json::to_value(error(None)).unwrap_or_default();
    assert!(value.get("detail").is_none());
}

#[test]
fn request_error_names_and_messages() {
    let cases = [
        (
            RequestError::from(error(None)),
            "ProviderRequestContractError",
            error(None).to_string(),
        ),
        (
            RequestError::NotAnObject,
            "Error",
            "buildRequest must return an object request payload".to_string(),
        ),
        (
            RequestError::MissingRequestDeclaration {
                workflow_id: "w".into(),
            },
            "Error",
            "Workflow w missing buildRequest hook and request declaration".to_string(),
        ),
        (
            RequestError::UnsupportedDeclarativeKind {
                kind: "acp.prompt.v1".into(),
            },
            "Error",
            "Unsupported declarative request kind: acp.prompt.v1".to_string(),
        ),
        (
            RequestError::MissingTargetParent,
            "Error",
            "Cannot resolve target parent item from selection context".to_string(),
        ),
        (RequestError::Invalid("m".into()), "Error", "m".to_string()),
    ];
    for (err, name, message) in cases {
        assert_eq!(err.name(), name);
        assert_eq!(err.to_string(), message);
    }
}
