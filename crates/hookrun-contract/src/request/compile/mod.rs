//! The declarative request compiler (`04-requests-and-bundles.md` §4).
//!
//! Each branch builds the raw payload of its kind; [`compile`] then runs it through
//! [`finish`](crate::request::finish) like a hook-built request (enrichment,
//! Skill-Runner normalisation, contract check). Messages about the declaration read
//! `Workflow <id> <kind> requires <what>`.

mod context;
mod http_request;
mod http_steps;
mod pass_through;
mod skillrunner_job;
mod skillrunner_sequence;
mod upload;

use serde_json::Value;

pub use upload::{sanitize_key, upload_path};

use crate::manifest::Workflow;
use crate::request::ExecutionOptions;
use crate::request::contract::resolve_kind;
use crate::request::error::RequestError;
use crate::request::files::AttachmentFiles;
use crate::request::finish::finish;
use crate::request::kind::{RequestKind, declared_kind};
use crate::request::unit::Unit;
use crate::selection::SelectionContext;
use context::Context;

/// Compiles the workflow's declared request for the unit `selection`.
///
/// The kind is `request.kind`, or `pass-through.run.v1` for `pass-through` providers
/// (hooks are not considered: a `buildRequest` hook wins over a declaration, and the
/// caller applies that priority). Errors:
/// - no kind: `Workflow <id> missing buildRequest hook and request declaration`;
/// - an unknown kind: [`ProviderRequestContractError`](crate::request::ProviderRequestContractError)
///   `request_kind_unsupported`;
/// - `acp.prompt.v1`, `acp.skill.run.v1`: `Unsupported declarative request kind: <kind>`;
/// - the branch's own messages (target parent, upload selectors, missing members);
/// - whatever [`finish`] reports.
///
/// `files` answers the local paths of uploaded attachments; `handoff` is passed on to it.
pub fn compile(
    workflow: &Workflow,
    selection: &SelectionContext,
    execution: &ExecutionOptions,
    files: &dyn AttachmentFiles,
    handoff: bool,
) -> Result<Value, RequestError> {
    let kind_name =
        declared_kind(workflow).ok_or_else(|| RequestError::MissingRequestDeclaration {
            workflow_id: workflow.id.clone(),
        })?;
    let kind = resolve_kind(kind_name)?;
    let ctx = Context::new(
        workflow,
        Unit(selection),
        execution,
        files,
        handoff,
        kind.as_str(),
    );
    let payload = match kind {
        RequestKind::PassThrough => pass_through::compile(&ctx),
        RequestKind::SkillRunnerJob => skillrunner_job::compile(&ctx),
        RequestKind::SkillRunnerSequence => skillrunner_sequence::compile(&ctx),
        RequestKind::GenericHttpRequest => http_request::compile(&ctx),
        RequestKind::GenericHttpSteps => http_steps::compile(&ctx),
        RequestKind::AcpPrompt | RequestKind::AcpSkillRun => {
            Err(RequestError::UnsupportedDeclarativeKind {
                kind: kind.as_str().to_string(),
            })
        }
    }?;
    finish(workflow, selection, Value::Object(payload))
}

#[cfg(test)]
mod tests;
