//! Post-processing shared by hook-built and compiled requests (`03-hooks.md` §3).

use serde_json::Value;

use crate::manifest::Workflow;
use crate::request::contract::check_payload_contract;
use crate::request::enrich::enrich;
use crate::request::error::RequestError;
use crate::request::kind::{RequestKind, declared_kind};
use crate::request::normalize::normalize;
use crate::request::unit::Unit;
use crate::selection::SelectionContext;

/// Finishes a request built for the unit `selection` of `workflow`:
/// 1. it must be a non-array object, else `buildRequest must return an object request
///    payload`;
/// 2. enrichment: target parent, sources and task name are added where missing;
/// 3. Skill-Runner normalisation, when the declared kind is `skillrunner.job.v1` or
///    `skillrunner.sequence.v1`;
/// 4. the payload contract of the declared kind, when the workflow declares one (a
///    `pass-through` provider declares `pass-through.run.v1`); a violation is a
///    [`RequestError::Contract`].
pub fn finish(
    workflow: &Workflow,
    selection: &SelectionContext,
    request: Value,
) -> Result<Value, RequestError> {
    let Value::Object(mut request) = request else {
        return Err(RequestError::NotAnObject);
    };
    enrich(&mut request, workflow, Unit(selection));
    let Some(kind) = declared_kind(workflow) else {
        return Ok(Value::Object(request));
    };
    if let Some(known) = RequestKind::parse(kind).filter(|k| k.is_skillrunner()) {
        normalize(&mut request, known, workflow);
    }
    let request = Value::Object(request);
    check_payload_contract(kind, &request)?;
    Ok(request)
}
